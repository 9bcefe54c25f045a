#!/bin/sh
# Foundation library, mechanisms: the Lever (AB-PB) on the Foundation
# position-based translational domain (foundation.translational) reproduces
# tests/e2e/lever_mass.sh with the same numbers
# (tests/simscape/+foundation_tests/LeverMass.ssc): a class 1 lever
# (model 1, r12 = 0.2 m, r23 = 0.1 m), fulcrum T2 fixed at 0, F = 1 N on
# T1, a 2 kg mass on T3 (index reduction needed):
#   load.x = -0.5 t^2,  lever.T1.x = t^2,  lever.f3 = 2 N.
# Tolerance: 1e-7 m on the positions and 1e-9 N on f3, as lever_mass.sh,
# every 10 ms over 0..0.4 s.
# Then model 3 on the angle-based rotational domain (foundation.rotational)
# reproduces the "Turning" case of tests/validation/ninety.sh
# (LeverTurning.ssc: r12 = r23 = 0.1 m, T2 fixed, F = 1 N on T3, an
# inertia J = 0.01 kg*m^2 on R), with ninety.sh's references and
# tolerances: the energy integral J w^2/2 = r23 F sin(theta) to 1e-7 J
# (1e-6 relative to r23 F) on every row, x3 = r23 sin(theta) to 1e-9 m,
# 90 degrees at t90 = sqrt(0.05) sqrt(pi) Gamma(1/4)/(2 Gamma(3/4))
# = 0.5863 s to 1e-5 s, |theta| max = pi and the turn-around at 2 t90 to
# 1e-3.
. "$(dirname "$0")/lib.sh"
"$LMDLC" build "$here/../simscape/+foundation_tests/LeverMass.ssc" -I "$here/../simscape" \
  -o "$work/lever" || fail "lmdlc build LeverMass.ssc"
"$work/lever" --stop-time 0.4 --output-step 0.01 --rtol 1e-10 --atol 1e-12 -o "$work/out.csv" || fail simulator
check "$work/out.csv" '
  if (abs(v("load.x") + 0.5 * t * t) > 1e-7) { bad = 1; why = "load.x at t=" t ": " v("load.x") }
  if (abs(v("lever.T1.x") - t * t) > 1e-7) { bad = 1; why = "T1.x at t=" t ": " v("lever.T1.x") }
  if (abs(v("lever.f3") - 2) > 1e-9) { bad = 1; why = "f3 at t=" t ": " v("lever.f3") }'
"$LMDLC" check "$here/../simscape/+foundation_tests/LeverMass.ssc" -I "$here/../simscape" \
  | grep -Eq "differential index: +[23]" || fail "expected index 2 or 3"
worst=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "load.x") c = i; if ($i == "lever.T1.x") d = i }; next }
  { e = $c + 0.5 * $1 * $1; if (e < 0) e = -e; if (e > w) w = e
    e = $d - $1 * $1; if (e < 0) e = -e; if (e > w) w = e } END { printf "%.3g", w }' "$work/out.csv")
"$LMDLC" build "$here/../simscape/+foundation_tests/LeverTurning.ssc" -I "$here/../simscape" \
  -o "$work/turning" || fail "lmdlc build LeverTurning.ssc"
"$work/turning" --stop-time 1.4 --output-step 0.001 --rtol 1e-10 --atol 1e-12 -o "$work/turn.csv" \
  || fail "simulator (LeverTurning)"
check "$work/turn.csv" '
    th = v("lever.theta"); w = v("body.w")
    e = 0.005 * w * w - 0.1 * sin(th); if (abs(e) > ew) ew = abs(e)
    if (abs(e) > 1e-6 * 0.1) { bad = 1; why = "energy off by " e " J at t=" t }
    if (abs(v("lever.T3.x") - 0.1 * sin(th)) > 1e-9) { bad = 1; why = "x3 at t=" t }
    if (!t90 && th > 3.14159265358979 / 2) t90 = pt + (t - pt) * (3.14159265358979 / 2 - pth) / (th - pth)
    if (!tpi && t90 && w < 0) tpi = pt + (t - pt) * pw / (pw - w)
    if (th > thmax) thmax = th
    pt = t; pth = th; pw = w }
    END {
      ref = sqrt(0.05) * sqrt(3.14159265358979) * 3.6256099082219083 / (2 * 1.2254167024651776)
      printf "  model 3 with an inertia: 90 degrees at t = %.9f s (reference %.9f, error %.2g), |theta| max %.6f rad, turns back at %.4f s (reference %.4f), worst energy error %.2g J\n", t90, ref, t90 - ref, thmax, tpi, 2 * ref, ew
      if (!t90) { bad = 1; why = "theta never passed 90 degrees (max " thmax ")" }
      else if (abs(t90 - ref) > 1e-5) { bad = 1; why = "90 degrees at " t90 ", expected " ref }
      if (abs(thmax - 3.14159265358979) > 1e-3) { bad = 1; why = "|theta| max " thmax ", expected pi" }
      if (abs(tpi - 2 * ref) > 1e-3) { bad = 1; why = "turned back at " tpi ", expected " 2 * ref }'
echo "ok (worst position error of model 1 = $worst m)"
