#!/bin/sh
# Foundation library, electrical and rotational: a DC motor started from
# rest (tests/simscape/+foundation_tests/DCMotor.ssc: dc_voltage,
# resistor, rotational_converter, reference; inertia and the rotational
# reference). J dw/dt = K i and V = R i + K w give
#   load.w = V/K (1 - exp(-t/tau)),  r.i = V/R exp(-t/tau),  tau = J R/K^2
# with V = 12 V, R = 2 Ohm, K = 0.1 V*s/rad, J = 1e-3 kg*m^2: the speed
# approaches V/K = 120 rad/s with tau = 0.2 s. Also checks the converter's
# power balance emf.v*emf.i = emf.t*emf.w (lossless).
# Tolerance: 1e-6 rad/s on load.w, 1e-7 A on r.i, 1e-9 W on the power
# balance, over 0..1 s (5 time constants).
. "$(dirname "$0")/lib.sh"
"$LMDLC" build "$here/../simscape/+foundation_tests/DCMotor.ssc" -I "$here/../simscape" -o "$work/motor" \
  || fail "lmdlc build DCMotor.ssc"
"$work/motor" --stop-time 1 --output-step 0.01 --rtol 1e-10 --atol 1e-12 -o "$work/out.csv" || fail simulator
check "$work/out.csv" '
  wref = 120 * (1 - exp(-t / 0.2)); iref = 6 * exp(-t / 0.2)
  if (abs(v("load.w") - wref) > 1e-6) { bad = 1; why = "load.w at t=" t ": " v("load.w") " ref " wref }
  if (abs(v("r.i") - iref) > 1e-7) { bad = 1; why = "r.i at t=" t ": " v("r.i") " ref " iref }
  if (abs(v("emf.v") * v("emf.i") - v("emf.t") * v("emf.w")) > 1e-9) { bad = 1; why = "power at t=" t }'
worst=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "load.w") c = i; next }
  { e = $c - 120 * (1 - exp(-$1 / 0.2)); if (e < 0) e = -e; if (e > w) w = e } END { printf "%.3g", w }' "$work/out.csv")
echo "ok (worst |load.w - ref| = $worst rad/s)"
