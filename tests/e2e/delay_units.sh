#!/bin/sh
# TransportDelay carries the unit of what drives it: a 2 N force delayed
# by 0.5 s with a history of 1 N gives y = 1 N before 0.5 s and 2 N after
# (exact: a constant input); the results' units file says N for y and
# for the delay's own columns.
. "$(dirname "$0")/lib.sh"
build delay_units.lmdl sim
"$work/sim" --stop-time 1 --output-step 0.1 -o "$work/out.csv" || fail "simulator"
check "$work/out.csv" '
  want = t < 0.5 - 1e-9 ? 1 : 2
  if (t > 0.5 - 1e-9 && t < 0.5 + 1e-9) want = v("y")
  if (abs(v("y") - want) > 1e-9) { bad = 1; why = "y at t=" t ": " v("y") " want " want }'
grep -q '^column,y,N,' "$work/out.csv.meta" || fail "y is not in N: $(cat "$work/out.csv.meta")"
grep -q '^column,d.y,N,' "$work/out.csv.meta" || fail "d.y is not in N: $(cat "$work/out.csv.meta")"
echo ok
