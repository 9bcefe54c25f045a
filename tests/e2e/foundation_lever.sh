#!/bin/sh
# Foundation library, mechanisms: the Lever (AB-PB) on the Foundation
# position-based translational domain (foundation.translational) reproduces
# tests/e2e/lever_mass.sh with the same numbers
# (tests/simscape/+foundation_tests/LeverMass.ssc): a class 1 lever
# (model 1, r12 = 0.2 m, r23 = 0.1 m), fulcrum T2 fixed at 0, F = 1 N on
# T1, a 2 kg mass on T3 (index reduction needed):
#   load.x = -0.5 t^2,  lever.T1.x = t^2,  lever.f3 = 2 N.
# Tolerance: 1e-7 m on the positions and 1e-9 N on f3, as lever_mass.sh,
# every 10 ms over 0..0.4 s.
. "$(dirname "$0")/lib.sh"
"$LMDLC" build "$here/../simscape/+foundation_tests/LeverMass.ssc" -I "$here/../simscape" \
  -o "$work/lever" || fail "lmdlc build LeverMass.ssc"
"$work/lever" --stop-time 0.4 --output-step 0.01 --rtol 1e-10 --atol 1e-12 -o "$work/out.csv" || fail simulator
check "$work/out.csv" '
  if (abs(v("load.x") + 0.5 * t * t) > 1e-7) { bad = 1; why = "load.x at t=" t ": " v("load.x") }
  if (abs(v("lever.T1.x") - t * t) > 1e-7) { bad = 1; why = "T1.x at t=" t ": " v("lever.T1.x") }
  if (abs(v("lever.f3") - 2) > 1e-9) { bad = 1; why = "f3 at t=" t ": " v("lever.f3") }'
"$LMDLC" check "$here/../simscape/+foundation_tests/LeverMass.ssc" -I "$here/../simscape" \
  | grep -Eq "differential index: +[23]" || fail "expected index 2 or 3"
worst=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "load.x") c = i; if ($i == "lever.T1.x") d = i }; next }
  { e = $c + 0.5 * $1 * $1; if (e < 0) e = -e; if (e > w) w = e
    e = $d - $1 * $1; if (e < 0) e = -e; if (e > w) w = e } END { printf "%.3g", w }' "$work/out.csv")
echo "ok (worst position error = $worst m)"
