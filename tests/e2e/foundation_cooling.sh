#!/bin/sh
# Foundation library, thermal: a hot body cooling in air
# (tests/simscape/+foundation_tests/Cooling.ssc: thermal mass,
# convection, temperature source, reference, heat flow and temperature
# sensors). Newton's law of cooling gives
#   body.T = Ta + (T0 - Ta) exp(-t/tau),  tau = m c/(h A) = 100 s,
#   flow.H = h A (body.T - Ta)
# with T0 = 373.15 K, Ta = 293.15 K, h A = 1 W/K.
# Tolerance: 1e-5 K on body.T and on thermometer.T, 1e-5 W on flow.H,
# over 0..500 s (5 time constants).
. "$(dirname "$0")/lib.sh"
"$LMDLC" build "$here/../simscape/+foundation_tests/Cooling.ssc" -I "$here/../simscape" -o "$work/cool" \
  || fail "lmdlc build Cooling.ssc"
"$work/cool" --stop-time 500 --output-step 5 --rtol 1e-10 --atol 1e-12 -o "$work/out.csv" || fail simulator
check "$work/out.csv" '
  Tref = 293.15 + 80 * exp(-t / 100)
  if (abs(v("body.T") - Tref) > 1e-5) { bad = 1; why = "body.T at t=" t ": " v("body.T") " ref " Tref }
  if (abs(v("thermometer.T") - Tref) > 1e-5) { bad = 1; why = "thermometer.T at t=" t }
  if (abs(v("flow.H") - (Tref - 293.15)) > 1e-5) { bad = 1; why = "flow.H at t=" t ": " v("flow.H") }'
worst=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "body.T") c = i; next }
  { e = $c - 293.15 - 80 * exp(-$1 / 100); if (e < 0) e = -e; if (e > w) w = e } END { printf "%.3g", w }' "$work/out.csv")
echo "ok (worst |body.T - ref| = $worst K)"
