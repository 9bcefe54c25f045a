#!/bin/sh
# Masses at both ends: x1 = t^2/3, x3 = -t^2/6; exactly two states.
. "$(dirname "$0")/lib.sh"
build lever_two_masses.lmdl sim
"$work/sim" --stop-time 0.5 --output-step 0.01 --rtol 1e-10 --atol 1e-12 -o "$work/out.csv" || fail simulator
check "$work/out.csv" '
  if (abs(v("m1.x") - t * t / 3) > 1e-7) { bad = 1; why = "m1.x at t=" t ": " v("m1.x") }
  if (abs(v("m3.x") + t * t / 6) > 1e-7) { bad = 1; why = "m3.x at t=" t ": " v("m3.x") }'
"$LMDLC" check "$here/lever_two_masses.lmdl" | grep -q "states:                   2 " \
  || fail "expected two states"
echo ok
