#!/bin/sh
# DISABLED: lmdlc bug (state selection), not a library bug.  For
# ninety_mass.lmdl --top MassInertia, `lmdlc check` picks the states
# (lever.T3.x, inertia.w) (declared before the lever, the mass gives mass.P.x,
# mass.v), not the inertia's angle.  x3 = r23 sin(theta) does not
# determine theta past 90 degrees, so the run stops with exit 3 at
# t = 0.752 s, theta = pi/2: "Lever.lmdl:63:9: error: at t = 0.752...: the
# algebraic loop did not converge in block N: lever.length_P13 == ...
# solved for lever.R.theta".  LIBRARY.md: "With an Inertia on R, Model 3
# rotates past +/-90 degrees."  The dummy-derivative choice is static (at
# the start point, where x3 and theta are equally good) and its tie-break
# is declaration order; it should prefer the inertia's angle (or switch
# states dynamically).  Workaround: high-priority targets on inertia.theta
# and inertia.w (ninety_mass.sh, which passes).  Enable (rename to .sh)
# once state selection is fixed.
TOP=MassInertia
# References: the energy integral F x3 = J w^2/2 + m v3^2/2 to 1e-6 of
# F r23 (every row), x3 = r23 sin(theta) and v3 = r23 cos(theta) w to
# 1e-9; theta must exceed pi/2 (it reaches pi, where w = 0).
. "$(dirname "$0")/lib.sh"
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
echo ok
