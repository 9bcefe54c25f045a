#!/bin/sh
# Model 3 with an Inertia and a mass on T3 turns past 90 degrees, both as
# written (MassInertia: the compiler must keep the angle as a state, not
# x3 = r23 sin(theta), which cannot give theta past 90 degrees) and with
# high-priority targets on the inertia's theta and w (MassInertiaTargets).
# References: the energy integral F x3 = J w^2/2 + m v3^2/2 to 1e-6 of
# F r23 (every row), x3 = r23 sin(theta) and v3 = r23 cos(theta) w to
# 1e-9; theta must exceed pi/2 (it reaches pi, where w = 0).
. "$(dirname "$0")/lib.sh"
for TOP in MassInertia MassInertiaTargets; do
"$LMDLC" build "$here/ninety_mass.lmdl" --top $TOP -o "$work/sim" || fail "build $TOP"
timeout 60 "$work/sim" --stop-time 1.5 --output-step 0.005 --rtol 1e-10 --atol 1e-12 \
    -o "$work/out.csv" 2>"$work/err"
status=$?
[ "$status" = 124 ] && fail "the run hung"
[ "$status" = 0 ] || fail "exit status $status: $(cat "$work/err")"
check "$work/out.csv" '
  th = v("lever.theta"); w = v("inertia.w"); x3 = v("lever.T3.x"); v3 = v("mass.v")
  e = 1 * x3 - (0.005 * w * w + 0.5 * v3 * v3)
  if (abs(e) > 1e-6 * 0.1) { bad = 1; why = "energy off by " e " J at t=" t }
  if (abs(x3 - 0.1 * sin(th)) > 1e-9 || abs(v3 - 0.1 * cos(th) * w) > 1e-9) { bad = 1; why = "kinematics at t=" t }
  if (abs(e) > emax) emax = abs(e)
  if (th > thmax) thmax = th }
  END { printf "  theta max %.6f rad (must exceed pi/2), largest energy error %.3g J\n", thmax, emax
        if (thmax <= 3.14159265358979 / 2) { bad = 1; why = "theta never passed 90 degrees: " thmax }'
done
echo ok
