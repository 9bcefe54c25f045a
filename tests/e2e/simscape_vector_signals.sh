#!/bin/sh
# Vector inputs and outputs (tests/simscape/+signals): a ramp [t; 2t; 3t]
# drives gains [1; 2; 3] element by element, whose output drives the
# composite's own vector output and a block that picks its last element;
# a second gains block takes its input [2; 2; 2] as an argument.
#   z = [t; 4t; 9t], last = 9t, w = [2; 4; 6].
# Then the gains block as the top model: its vector input u becomes the
# run-time parameters u(1) ... u(3), set with --param.
# Exact arithmetic on small numbers: tolerance 1e-12.
. "$(dirname "$0")/lib.sh"
inc="$here/../simscape"
"$LMDLC" build "$inc/+signals/Chain.ssc" -I "$inc" -o "$work/chain" || fail "build Chain"
"$work/chain" --stop-time 1 --output-step 0.25 -o "$work/chain.csv" || fail "run Chain"
check "$work/chain.csv" '
  for (k = 1; k <= 3; k++) {
    if (abs(v("z(" k ")") - k * k * t) > 1e-12) { bad = 1; why = "z(" k ") at " t }
    if (abs(v("w(" k ")") - 2 * k) > 1e-12) { bad = 1; why = "w(" k ") at " t }
  }
  if (abs(v("last") - 9 * t) > 1e-12) { bad = 1; why = "last at " t }'
"$LMDLC" build "$inc/+signals/Gains.ssc" -I "$inc" -o "$work/gains" || fail "build Gains"
"$work/gains" --stop-time 0 --param 'u(2)=5' -o "$work/gains.csv" || fail "run Gains"
check "$work/gains.csv" '
  if (v("y(1)") != 0 || v("y(2)") != 10 || v("y(3)") != 3) { bad = 1; why = "y = " v("y(1)") ", " v("y(2)") ", " v("y(3)") }'
# Foundation's PS Constant with a vector value (VectorConstant.ssc):
# z = [1; 2; 3] .* [2; 4; 6]
"$LMDLC" build "$inc/+signals/VectorConstant.ssc" -I "$inc" -o "$work/vc" || fail "build VectorConstant"
"$work/vc" --stop-time 0 -o "$work/vc.csv" || fail "run VectorConstant"
check "$work/vc.csv" '
  if (v("z(1)") != 2 || v("z(2)") != 8 || v("z(3)") != 18) { bad = 1; why = "z = " v("z(1)") ", " v("z(2)") ", " v("z(3)") }'
# a vector named whole in --vars is its elements, in order
"$work/vc" --stop-time 0 --vars z -o "$work/whole.csv" || fail "--vars z"
[ "$(head -n 1 "$work/whole.csv")" = "time,z(1),z(2),z(3)" ] || fail "--vars z: $(head -n 1 "$work/whole.csv")"
echo ok
