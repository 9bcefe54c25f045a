#!/bin/sh
# Foundation library, electrical: the step response of an RC circuit
# (tests/simscape/+foundation_tests/RC.ssc: dc_voltage, resistor,
# capacitor, reference). The capacitor's voltage is
#   c.vc = V0 (1 - exp(-t/(R C))),  V0 = 5 V, R C = 1 kOhm * 1 mF = 1 s,
# and the current through the resistor r.i = (V0/R) exp(-t/(R C)).
# Tolerance: 1e-7 V on c.vc and 1e-10 A on r.i, over 0..5 s.
. "$(dirname "$0")/lib.sh"
"$LMDLC" build "$here/../simscape/+foundation_tests/RC.ssc" -I "$here/../simscape" -o "$work/rc" \
  || fail "lmdlc build RC.ssc"
"$work/rc" --stop-time 5 --output-step 0.05 --rtol 1e-10 --atol 1e-12 -o "$work/out.csv" || fail simulator
check "$work/out.csv" '
  ref = 5 * (1 - exp(-t)); e = abs(v("c.vc") - ref); if (e > w) w = e
  if (e > 1e-7) { bad = 1; why = "c.vc at t=" t ": " v("c.vc") " ref " ref }
  iref = 0.005 * exp(-t)
  if (abs(v("r.i") - iref) > 1e-10) { bad = 1; why = "r.i at t=" t ": " v("r.i") " ref " iref }'
worst=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "c.vc") c = i; next }
  { e = $c - 5 * (1 - exp(-$1)); if (e < 0) e = -e; if (e > w) w = e } END { printf "%.3g", w }' "$work/out.csv")
echo "ok (worst |c.vc - ref| = $worst V)"
