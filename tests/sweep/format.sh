#!/bin/sh
# The sets file as spreadsheets write it: a UTF-8 byte order mark, CRLF
# line ends, quoted header names and a quoted value with a unit, blank
# lines, an empty field (the default stays), and an `id` column of row
# labels that name the files ({row} in -o and --events) and fill the
# summary's row column.  A single-row sweep may use -o without {row}.
. "$(dirname "$0")/lib.sh"
build "$work/sim"
printf '\357\273\277id,"F","lever.r12"\r\n\r\nstiff,2,"250 mm"\r\nsoft,,0.3\r\n\r\n' > "$work/sets.csv"
# shellcheck disable=SC2086
"$work/sim" --sweep "$work/sets.csv" $opts -o "$work/out-{row}.csv" \
  --events "$work/ev-{row}.csv" --quiet > "$work/summary.csv" || fail "labelled sweep"
# shellcheck disable=SC2086
"$work/sim" $opts --param F=2 --param 'lever.r12=250 mm' -o "$work/p1.csv" || fail "plain run 1"
# shellcheck disable=SC2086
"$work/sim" $opts --param lever.r12=0.3 -o "$work/p2.csv" || fail "plain run 2"
same_files "$work/out-stiff.csv" "$work/p1.csv"
same_files "$work/out-soft.csv" "$work/p2.csv"
for l in stiff soft; do
  [ "$(head -n 1 "$work/ev-$l.csv")" = "time,instance,condition,value" ] || fail "no event log for $l"
done
[ "$(cut -d, -f1-5 "$work/summary.csv" | tr '\n' ' ')" = \
  "row,F,lever.r12,status,message stiff,2,250 mm,ok, soft,,0.3,ok, " ] \
  || fail "summary: $(cat "$work/summary.csv")"
[ "$(ls "$work" | grep -c '^out-.*\.csv$')" = 2 ] || fail "files: $(ls "$work")"
# and beside each row's results its RESULTS.meta (runtime/rt_sidecar.c)
[ "$(ls "$work" | grep -c '^out-.*\.csv\.meta$')" = 2 ] || fail "RESULTS.meta: $(ls "$work")"

# one row: -o without {row} is fine
printf 'F\n3\n' > "$work/one.csv"
# shellcheck disable=SC2086
"$work/sim" --sweep "$work/one.csv" $opts -o "$work/single.csv" --quiet >/dev/null || fail "single row"
# shellcheck disable=SC2086
"$work/sim" $opts --param F=3 -o "$work/p3.csv" || fail "plain run 3"
same_files "$work/single.csv" "$work/p3.csv"
echo ok
