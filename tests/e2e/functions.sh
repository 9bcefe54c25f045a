#!/bin/sh
# Functions inlined: x = A cos(w t), v = -A w sin(w t) from a function with
# two outputs, e = 3x - 2x = A cos(w t) through a let, y = x^2 and
# z = der(x^2) = 2 x v; A = 0.2 m, w = 3 rad/s.  The references are exact,
# so the tolerance is 1e-12 (output rounding only).
. "$(dirname "$0")/lib.sh"
build functions.lmdl sim
"$work/sim" --stop-time 2 --output-step 0.1 -o "$work/out.csv" || fail "simulator"
check "$work/out.csv" '
  xr = 0.2 * cos(3 * t); vr = -0.6 * sin(3 * t);
  if (abs(v("x") - xr) > 1e-12) { bad = 1; why = "x at t=" t }
  if (abs(v("v") - vr) > 1e-12) { bad = 1; why = "v at t=" t }
  if (abs(v("e") - xr) > 1e-12) { bad = 1; why = "e at t=" t }
  if (abs(v("y") - xr * xr) > 1e-12) { bad = 1; why = "y at t=" t }
  if (abs(v("z") - 2 * xr * vr) > 1e-12) { bad = 1; why = "z at t=" t }'
echo ok
