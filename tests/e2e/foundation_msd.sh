#!/bin/sh
# Foundation library, translational: free damped oscillation of a
# mass-spring-damper (tests/simscape/+foundation_tests/MassSpringDamper.ssc:
# mass, spring, damper, reference, motion sensor). Released from rest
# with the spring stretched by x0 = 0.1 m; m = 1 kg, k = 100 N/m,
# D = 2 N*s/m give alpha = 1 1/s, wd = sqrt(99) rad/s, w0 = 10 rad/s:
#   k.x      = x0 exp(-alpha t) (cos(wd t) + alpha/wd sin(wd t))
#   body.v   = -x0 w0^2/wd exp(-alpha t) sin(wd t)
# and the motion sensor's outputs sensor.P = k.x, sensor.V = body.v.
# Tolerance: 1e-7 m on positions and 1e-6 m/s on velocities, over 0..5 s.
. "$(dirname "$0")/lib.sh"
"$LMDLC" build "$here/../simscape/+foundation_tests/MassSpringDamper.ssc" -I "$here/../simscape" \
  -o "$work/msd" || fail "lmdlc build MassSpringDamper.ssc"
"$work/msd" --stop-time 5 --output-step 0.01 --rtol 1e-10 --atol 1e-12 -o "$work/out.csv" || fail simulator
check "$work/out.csv" '
  wd = sqrt(99); ev = exp(-t)
  xref = 0.1 * ev * (cos(wd * t) + sin(wd * t) / wd); vref = -0.1 * 100 / wd * ev * sin(wd * t)
  if (abs(v("k.x") - xref) > 1e-7) { bad = 1; why = "k.x at t=" t ": " v("k.x") " ref " xref }
  if (abs(v("sensor.P") - xref) > 1e-7) { bad = 1; why = "sensor.P at t=" t ": " v("sensor.P") }
  if (abs(v("body.v") - vref) > 1e-6) { bad = 1; why = "body.v at t=" t ": " v("body.v") " ref " vref }
  if (abs(v("sensor.V") - vref) > 1e-6) { bad = 1; why = "sensor.V at t=" t }'
worst=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "k.x") c = i; next }
  { t = $1; wd = sqrt(99); e = $c - 0.1 * exp(-t) * (cos(wd * t) + sin(wd * t) / wd)
    if (e < 0) e = -e; if (e > w) w = e } END { printf "%.3g", w }' "$work/out.csv")
echo "ok (worst |k.x - ref| = $worst m)"
