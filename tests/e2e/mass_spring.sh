#!/bin/sh
# A mass on a user-written spring: x = A cos(w t), w = sqrt(k/m).
. "$(dirname "$0")/lib.sh"
build mass_spring.lmdl sim
for solver in msbdf rk8pd rk4imp cvode; do
  "$work/sim" --solver $solver --stop-time 2 --output-step 0.01 --rtol 1e-9 --atol 1e-12 \
      -o "$work/$solver.csv" || fail "simulator ($solver)"
  # A = 0.1 m, w = sqrt(100/1) = 10 rad/s; tolerance 1e-6 m
  check "$work/$solver.csv" '
    ref = 0.1 * cos(10 * t); e = abs(v("mass.x") - ref);
    if (e > 1e-6) { bad = 1; why = "t=" t " x=" v("mass.x") " ref=" ref }
    vref = -1.0 * sin(10 * t); if (abs(v("mass.v") - vref) > 1e-5) { bad = 1; why = "v at t=" t }'
done
echo ok
