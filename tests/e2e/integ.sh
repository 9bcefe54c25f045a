#!/bin/sh
# integ(): I = integ(F) and E = integ(I) for F = A cos(w t), against
# I = A/w sin(w t) and E = A/w^2 (1 - cos(w t)), A = 3 N, w = 2 rad/s.
. "$(dirname "$0")/lib.sh"
build integ.lmdl sim
"$work/sim" --stop-time 5 --output-step 0.05 --rtol 1e-10 --atol 1e-12 \
    -o "$work/out.csv" || fail "simulator"
# tolerance 1e-7 (N*s and N*s^2) at every output time
check "$work/out.csv" '
  i = 1.5 * sin(2 * t); e = 0.75 * (1 - cos(2 * t));
  if (abs(v("I") - i) > 1e-7) { bad = 1; why = "I at t=" t ": " v("I") " vs " i }
  if (abs(v("E") - e) > 1e-7) { bad = 1; why = "E at t=" t ": " v("E") " vs " e }'
echo ok
