#!/bin/sh
# --no-event-emit: rows on the output grid only, one per output time, for
# users who want one row per time.  On the models of event_at_output.lmdl
# (strict and non-strict relations on time and on states, an edge, a mode
# chart's transition, all at an output time: y is 0 before and 2 after)
# over 1.5 s every 0.1 s: 16 rows at the 16 output times, every row the
# bytes of the same row of the run without the option (the solver's steps
# do not depend on what is written), the event's row one of its two: the
# values at that time, the right limit for a relation that changes at the
# output time (y = 2: `time >= 0.5`), the left one for a strict relation
# that changes just after it (y = 0: `time > 0.5`; on a state, which of
# the two depends on the state's last digit at T); and the same event
# log; with msbdf, rk8pd and cvode.
# An event between output times (the slope's step at 0.25 s with rows
# every 0.07 s) writes no row at all.
. "$(dirname "$0")/lib.sh"
m=$here/event_at_output.lmdl
for c in "TimeStrict 0.5" "TimeNonStrict 0.5" "StateStrict 0.5" "StateNonStrict 0.5" \
         "EdgeTime 1" "ModeTime 1"; do
  set -- $c
  top=$1 te=$2
  "$LMDLC" build "$m" --top $top -o "$work/$top" || fail "build $top"
  for solver in msbdf rk8pd cvode; do
    "$work/$top" --solver $solver --stop-time 1.5 --output-step 0.1 -o "$work/all.csv" \
      --events "$work/all.ev" || fail "$top $solver"
    "$work/$top" --solver $solver --stop-time 1.5 --output-step 0.1 -o "$work/grid.csv" \
      --events "$work/grid.ev" --no-event-emit || fail "$top $solver --no-event-emit"
    cmp -s "$work/all.ev" "$work/grid.ev" || fail "$top $solver: the event logs differ"
    case $top in TimeNonStrict) want=2 ;; State*) want=any ;; *) want=0 ;; esac
    awk -F, -v te=$te -v want=$want 'NR == FNR { n[$1]++; row[$1 " " n[$1]] = $0; next }
      FNR == 1 { for (i = 1; i <= NF; i++) if ($i == "y") cy = i; next }
      { k++; d = $1 - (k - 1) / 10; if (d < 0) d = -d
        if (d > 1e-12 || seen[$1]++) { print "row " k " at " $1; bad = 1 }
        if ($1 == te) {
          split($0, f, ",")
          if (n[$1] != 2 || (want != "any" && f[cy] != want) || ($0 != row[$1 " 1"] && $0 != row[$1 " 2"])) {
            print "the event row: " $0; bad = 1 }
        } else if (n[$1] != 1 || row[$1 " 1"] != $0) { print "row " $1 ": " $0 " / " row[$1 " 1"]; bad = 1 } }
      END { if (k != 16) { print k " rows"; bad = 1 } exit bad }' "$work/all.csv" "$work/grid.csv" \
      || fail "$top $solver: the rows"
  done
done
"$LMDLC" build "$here/accuracy.lmdl" --top TimeStep -o "$work/ts" || fail "build TimeStep"
"$work/ts" --stop-time 0.7 --output-step 0.07 --no-event-emit -o "$work/ts.csv" || fail "TimeStep"
awk -F, 'NR > 1 { k++; d = $1 - (k - 1) * 0.07; if (d < 0) d = -d; if (d > 1e-12) bad = 1 }
  END { exit bad || k != 11 }' "$work/ts.csv" || fail "TimeStep: $(cat "$work/ts.csv")"
echo ok
