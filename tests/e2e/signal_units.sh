#!/bin/sh
# Unit-carrying signal blocks drive 1 kg masses from rest (x = integral of
# the integral of F): Constant 3 N (x = 1.5 t^2); Sine 2 N at 1 Hz
# (x = (t - sin(2 pi t)/(2 pi))/pi); Step to 4 N at 0.5 s
# (x = 2 (t - 0.5)^2 after it); Ramp 2 N/s (x = t^3/3); Add, Gain and
# Saturation (-1.5 N: x = -0.75 t^2); Integrator and Divide (2 t N:
# x = t^3/3); Product and Subtract (0.75 N: x = 0.375 t^2).  Tolerance
# 1e-6 m (the step is located to the event tolerance).
. "$(dirname "$0")/lib.sh"
build signal_units.lmdl sim
"$work/sim" --stop-time 2 --output-step 0.05 --rtol 1e-10 --atol 1e-12 \
    -o "$work/out.csv" || fail "simulator"
check "$work/out.csv" '
  pi = atan2(0, -1);
  ref[1] = 1.5 * t * t
  ref[2] = (t - sin(2 * pi * t) / (2 * pi)) / pi
  ref[3] = t > 0.5 ? 2 * (t - 0.5) ^ 2 : 0
  ref[4] = t ^ 3 / 3
  ref[5] = -0.75 * t * t
  ref[6] = t ^ 3 / 3
  ref[7] = 0.375 * t * t
  for (k = 1; k <= 7; k++)
    if (abs(v("m" k ".m.x") - ref[k]) > 1e-6) { bad = 1; why = "m" k ".m.x at t=" t ": " v("m" k ".m.x") " vs " ref[k] }'
echo ok
