#!/bin/sh
# An event exactly at an output time (docs/language.md, "Events"): its
# two rows, the left limit (y = 0) and the right limit (y = 2), both at
# that output time exactly, and no third row; the event log gives the
# same time.  For strict and non-strict relations on time and on states,
# an edge and a mode chart's transition, with msbdf, rk8pd and cvode.
# Before, every case but the non-strict ones wrote the output row, then
# the left and right limits at 0.5000000000007276 (three rows).
. "$(dirname "$0")/lib.sh"
m=$here/event_at_output.lmdl
for c in "TimeStrict 0.5" "TimeNonStrict 0.5" "StateStrict 0.5" "StateNonStrict 0.5" \
         "EdgeTime 1" "ModeTime 1"; do
  set -- $c
  top=$1 te=$2
  "$LMDLC" build "$m" --top $top -o "$work/$top" || fail "build $top"
  for solver in msbdf rk8pd cvode; do
    "$work/$top" --solver $solver --stop-time 1.5 --output-step 0.1 -o "$work/o.csv" \
      --events "$work/ev.csv" 2>"$work/err" || fail "$top $solver: $(cat "$work/err")"
    # 16 output times, one of them the event's: 17 rows and the header
    [ "$(wc -l < "$work/o.csv")" = 18 ] \
      || fail "$top $solver: $(($(wc -l < "$work/o.csv") - 1)) rows: $(grep "^$te" "$work/o.csv")"
    awk -F, -v te=$te 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      { d = $1 - te; if (d < 0) d = -d }
      d < 1e-6 { n++; ok = ok && $1 == te; y[n] = $c["y"] + 0 }
      BEGIN { ok = 1 }
      END { exit !(n == 2 && ok && y[1] == 0 && y[2] == 2) }' "$work/o.csv" \
      || fail "$top $solver: rows near $te: $(awk -F, -v te=$te '$1 - te < 1e-6 && te - $1 < 1e-6' "$work/o.csv")"
    # the log at the same time (a relation's line, and a chart's)
    awk -F, -v te=$te 'NR > 1 { n++; if ($1 != te) bad = 1 } END { exit !(n >= 1 && !bad) }' "$work/ev.csv" \
      || fail "$top $solver: event log: $(cat "$work/ev.csv")"
  done
done
echo ok
