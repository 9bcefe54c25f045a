#!/bin/sh
# Foundation library, the older paths (foundation.mechanical.translational.mass,
# ...spring, damper, friction, hardstop, reference and their rotational
# counterparts; tests/simscape/+foundation_tests/LegacyPaths.ssc): instance
# arguments given through the subclasses reach the current blocks. Two free
# damped oscillators released from rest, alpha = 1 1/s, wd = sqrt(99) rad/s:
#   k.x    = 0.1 exp(-alpha t) (cos(wd t) + alpha/wd sin(wd t))   (m)
#   tk.phi = 0.2 exp(-alpha t) (cos(wd t) + alpha/wd sin(wd t))   (rad)
#   body.v = -0.1 w0^2/wd exp(-alpha t) sin(wd t), w0 = 10 rad/s  (m/s)
# (zero friction forces, hard stops never reached), and the motion sensor
# foundation.mechanical.sensors.velocity(offset = 0.1 m) gives
#   sensor.P = k.x,  sensor.V = body.v.
# Tolerance: 1e-7 m and 1e-7 rad on the deformations and sensor.P,
# 1e-6 m/s on body.v and sensor.V,
# over 0..5 s.
. "$(dirname "$0")/lib.sh"
"$LMDLC" build "$here/../simscape/+foundation_tests/LegacyPaths.ssc" -I "$here/../simscape" \
  -o "$work/legacy" || fail "lmdlc build LegacyPaths.ssc"
"$work/legacy" --stop-time 5 --output-step 0.01 --rtol 1e-10 --atol 1e-12 -o "$work/out.csv" || fail simulator
check "$work/out.csv" '
  wd = sqrt(99); ev = exp(-t); s = ev * (cos(wd * t) + sin(wd * t) / wd)
  vref = -0.1 * 100 / wd * ev * sin(wd * t)
  if (abs(v("k.x") - 0.1 * s) > 1e-7) { bad = 1; why = "k.x at t=" t ": " v("k.x") " ref " 0.1 * s }
  if (abs(v("tk.phi") - 0.2 * s) > 1e-7) { bad = 1; why = "tk.phi at t=" t ": " v("tk.phi") " ref " 0.2 * s }
  if (abs(v("body.v") - vref) > 1e-6) { bad = 1; why = "body.v at t=" t ": " v("body.v") " ref " vref }
  if (abs(v("sensor.P") - 0.1 * s) > 1e-7) { bad = 1; why = "sensor.P at t=" t ": " v("sensor.P") " ref " 0.1 * s }
  if (abs(v("sensor.V") - vref) > 1e-6) { bad = 1; why = "sensor.V at t=" t ": " v("sensor.V") " ref " vref }'
worst=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "k.x") a = i; if ($i == "tk.phi") b = i }; next }
  { wd = sqrt(99); s = exp(-$1) * (cos(wd * $1) + sin(wd * $1) / wd)
    e = $a - 0.1 * s; if (e < 0) e = -e; if (e > w) w = e
    e = $b - 0.2 * s; if (e < 0) e = -e; if (e > w) w = e } END { printf "%.3g", w }' "$work/out.csv")
echo "ok (worst deformation error = $worst m or rad)"
