#!/bin/sh
# The summary's header names the --vars columns whole: a matrix element's
# name holds a comma, M(1,2), and is one quoted field (it once split into
# M(1 and 2), and every row had one field too many).  Then a header's
# [UNIT] applies to bare numbers only: a value with its own unit that
# ends in a digit (2 kg^1) keeps it (it was once read as '2 kg^1 g').
. "$(dirname "$0")/lib.sh"
"$LMDLC" build "$here/matrix_names.lmdl" -o "$work/sim" || fail "lmdlc build"
printf '%s\n' 'k' '1' '2' > "$work/sets.csv"
"$work/sim" --sweep "$work/sets.csv" --stop-time 0 --vars 'x,M(1,2)' \
  -o "$work/out-{row}.csv" --sweep-summary "$work/summary.csv" || fail "sweep"
[ "$(head -n 1 "$work/summary.csv")" = 'row,k,status,message,time,x,"M(1,2)"' ] \
  || fail "header: $(head -n 1 "$work/summary.csv")"
awk -F, 'NR > 1 && NF != 7 { print "row " $1 ": " NF " fields"; bad = 1 } END { exit bad }' \
  "$work/summary.csv" || fail "field count"
awk -F, 'NR == 3 && ($6 != 4 || $7 != 4) { print "row 2: " $0; bad = 1 } END { exit bad }' \
  "$work/summary.csv" || fail "row 2's values"
build "$work/lever"
printf '%s\n' 'mass.m [g]' '1500' '2 kg^1' > "$work/units.csv"
# shellcheck disable=SC2086
"$work/lever" --sweep "$work/units.csv" $opts -o "$work/u-{row}.csv" \
  --sweep-summary "$work/units-summary.csv" 2> "$work/units.err" \
  || fail "units sweep: $(cat "$work/units.err")"
"$work/lever" $opts --param 'mass.m=2 kg' -o "$work/u-plain.csv" || fail "plain run"
same_files "$work/u-2.csv" "$work/u-plain.csv"
echo PASS
