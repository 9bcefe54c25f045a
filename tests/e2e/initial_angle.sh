#!/bin/sh
# theta(0) = asin(0.1 / 0.2) = pi/6, and length_P13 is not a state.
. "$(dirname "$0")/lib.sh"
build initial_angle.lmdl sim
"$LMDLC" check "$here/initial_angle.lmdl" | grep "states:" | grep -q length_P13 \
  && fail "length_P13 should not be a state"
"$work/sim" --stop-time 0.1 --output-step 0.1 -o "$work/out.csv" || fail simulator
check "$work/out.csv" '
  if (t == 0 && abs(v("lever.theta") - 0.52359877559829887) > 1e-8) { bad = 1; why = "theta0 " v("lever.theta") }
  if (t == 0 && abs(v("lever.length_P13") - 0.1) > 1e-9) { bad = 1; why = "L13 " v("lever.length_P13") }'
echo ok
