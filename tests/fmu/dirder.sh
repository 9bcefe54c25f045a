#!/bin/sh
# dirder.sh - fmi2GetDirectionalDerivative against the analytic Jacobian.
#
# Before contact the wall-contact lever obeys J w' = cos(theta) (r23 F3 -
# r12 F1), theta' = w, so with J = 0.01 kg*m^2 and a net torque of
# 0.5 N*m: d(der(w))/d(theta) = -50 sin(theta), d(der(theta))/d(w) = 1,
# and the other two are 0.  At t = 0.05 (Model Exchange, the importer's
# RK4), the FMU's directional derivatives (central differences with the
# modes frozen) must match to 1e-6 relative (measured about 1e-11).  The
# state is the variable lever.theta, as lmdlc check names it (not the
# node port lever.R.theta, another column of the same value), and its
# derivative is the variable inertia.w (the model says der(theta) == w,
# so the FMU's derivative of lever.theta is inertia.w itself).
. "$(dirname "$0")/lib.sh"
fmu "$wall" "$work/wall.fmu"
"$FMU_TEST" "$work/wall.fmu" dirder --stop 0.1 --at 0.05 >"$work/j" || fail "fmu_test dirder"
cat "$work/j"
awk '
  function abs(v) { return v < 0 ? -v : v }
  $1 == "x" { x[$2] = $3 }
  $1 == "J" { J[$2 "|" $3] = $4 }
  END {
    th = x["lever.theta"]
    want["der(inertia.w)|lever.theta"] = -50 * sin(th)
    want["inertia.w|inertia.w"] = 1
    want["inertia.w|lever.theta"] = 0
    want["der(inertia.w)|inertia.w"] = 0
    for (k in want) {
      if (!(k in J)) { print "missing " k; bad = 1; continue }
      d = abs(J[k] - want[k]) / (1 + abs(want[k]))
      printf "%s: %.12g, analytic %.12g, difference %.2g\n", k, J[k], want[k], d
      if (d > 1e-6) bad = 1
    }
    exit bad }' "$work/j" || fail "directional derivatives"
echo PASS
