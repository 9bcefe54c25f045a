#!/bin/sh
# Lever driving a mass (index reduction needed): x3 = -0.5 t^2 exactly, x1 = t^2.
. "$(dirname "$0")/lib.sh"
build lever_mass.lmdl sim
"$work/sim" --stop-time 0.4 --output-step 0.01 --rtol 1e-10 --atol 1e-12 -o "$work/out.csv" || fail simulator
check "$work/out.csv" '
  if (abs(v("mass.x") + 0.5 * t * t) > 1e-7) { bad = 1; why = "mass.x at t=" t ": " v("mass.x") }
  if (abs(v("lever.T1.x") - t * t) > 1e-7) { bad = 1; why = "T1.x at t=" t }
  if (abs(v("lever.f3") - 2) > 1e-9) { bad = 1; why = "f3 at t=" t ": " v("lever.f3") }'
"$LMDLC" check "$here/lever_mass.lmdl" | grep -Eq "differential index: +[23]" \
  || fail "expected index 2 or 3"
echo ok
