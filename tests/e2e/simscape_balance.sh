#!/bin/sh
# A composite that writes its component's equation (tests/simscape/
# +balance/Holder.ssc): the port lacks one equation, the holder sets
# port.q == q0, and v' = q0 - k v from v(0) = 0 gives
#   v = q0 / k (1 - e^(-k t)), q0 = 1, k = 2.
# Tolerance 1e-6 absolute, run with --rtol 1e-9.
. "$(dirname "$0")/lib.sh"
inc="$here/../simscape"
"$LMDLC" build "$inc/+balance/Holder.ssc" -I "$inc" -o "$work/sim" || fail "build"
"$work/sim" --stop-time 2 --output-step 0.1 --rtol 1e-9 -o "$work/out.csv" || fail "run"
check "$work/out.csv" '
  x = 0.5 * (1 - exp(-2 * t))
  if (abs(v("port.v") - x) > 1e-6) { bad = 1; why = "port.v at " t ": " v("port.v") " vs " x }'
echo ok
