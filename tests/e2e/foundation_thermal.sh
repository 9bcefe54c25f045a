#!/bin/sh
# Foundation library, thermal: a heated mass losing heat along two
# parallel paths (tests/simscape/+foundation_tests/ThermalWall.ssc: thermal
# resistance, conduction through a cylindrical wall (wall_geometry 2),
# convection, constant and controlled heat flow and temperature sources,
# perfect insulator, heat flow and temperature sensors, the options
# thermal_type, mass_type and num_ports). With C = 200 J/K, R1 = 0.5 K/W,
# G2 = 2 pi L k/log(d_out/d_in) = 2 pi/log(2) W/K, Gc = 1 W/K,
# G = 1/(R1 + 1/G2) + Gc, Q = 8 W, T0 = 350 K, Ta = 290 K:
#   body.T = Tinf + (T0 - Tinf) exp(-t G/C),  Tinf = Ta + Q/G
#   flow.H = (body.T - Ta)/(R1 + 1/G2)
#   probe.T = Ta + flow.H/G2  (the junction of resistance and pipe wall,
#   measured against the reference)
# Tolerance: 1e-5 K on body.T and probe.T, 2e-5 W on flow.H, over
# 0..600 s (about 9 time constants, tau = 65.8 s).
. "$(dirname "$0")/lib.sh"
"$LMDLC" build "$here/../simscape/+foundation_tests/ThermalWall.ssc" -I "$here/../simscape" -o "$work/wall" \
  || fail "lmdlc build ThermalWall.ssc"
"$work/wall" --stop-time 600 --output-step 5 --rtol 1e-10 --atol 1e-12 -o "$work/out.csv" || fail simulator
refs='G2 = 2 * 3.14159265358979324 / log(2); Rs = 0.5 + 1 / G2; G = 1 / Rs + 1
  Tinf = 290 + 8 / G; Tref = Tinf + (350 - Tinf) * exp(-t * G / 200)
  Href = (Tref - 290) / Rs; Pref = 290 + Href / G2'
check "$work/out.csv" "$refs"'
  if (abs(v("body.T") - Tref) > 1e-5) { bad = 1; why = "body.T at t=" t ": " v("body.T") " ref " Tref }
  if (abs(v("flow.H") - Href) > 2e-5) { bad = 1; why = "flow.H at t=" t ": " v("flow.H") " ref " Href }
  if (abs(v("probe.T") - Pref) > 1e-5) { bad = 1; why = "probe.T at t=" t ": " v("probe.T") " ref " Pref }'
worst=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "body.T") a = i; if ($i == "flow.H") b = i }; next }
  { t = $1; '"$refs"'
    e = $a - Tref; if (e < 0) e = -e; if (e > w) w = e
    e = $b - Href; if (e < 0) e = -e; if (e > h) h = e } END { printf "%.3g K, |flow.H - ref| = %.3g W", w, h }' "$work/out.csv")
echo "ok (worst |body.T - ref| = $worst)"
