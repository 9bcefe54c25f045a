#!/bin/sh
# SampleHold carries the unit of what drives it: sampling a constant 2 N
# holds 2 N (exact), and the results' units file says N for the output,
# the block's output and its held sample (an untyped event variable whose
# unit is inferred from the when clause that assigns it).
. "$(dirname "$0")/lib.sh"
build sample_hold_units.lmdl sim
"$work/sim" --stop-time 1 --output-step 0.1 -o "$work/out.csv" || fail "simulator"
check "$work/out.csv" 'if (v("y") != 2 || v("s.y_held") != 2) { bad = 1; why = "t=" t ": " $0 }'
for c in y s.Y s.y_held; do
  grep -q "^column,$c,N," "$work/out.csv.meta" || fail "$c is not in N: $(cat "$work/out.csv.meta")"
done
echo ok
