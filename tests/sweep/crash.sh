#!/bin/sh
# A row killed by a signal (tests/sweep/crash.c raises SIGKILL in eval
# when crash = true) is recorded as "signal 9" with "killed by signal 9"
# as its message and no final time (its results hold only the header),
# and the rows after it run: their results are the plain runs' bytes, and
# the sweep exits 3.
# $1: the crash model's simulator.
. "$(dirname "$0")/lib.sh"
sim=$1
printf 'k,crash\n1,false\n2,true\n3 1/s,0\n' > "$work/sets.csv"
"$sim" --sweep "$work/sets.csv" --stop-time 0.5 -o "$work/out-{row}.csv" \
  >"$work/summary.csv" 2>"$work/err"
st=$?
[ "$st" = 3 ] || fail "exit status $st, expected 3: $(cat "$work/err")"
"$sim" --stop-time 0.5 --param k=1 -o "$work/p1.csv" || fail "plain run 1"
"$sim" --stop-time 0.5 --param 'k=3 1/s' -o "$work/p3.csv" || fail "plain run 3"
same_files "$work/out-1.csv" "$work/p1.csv"
same_files "$work/out-3.csv" "$work/p3.csv"
[ "$(sed -n 3p "$work/summary.csv")" = "2,2,true,signal 9,killed by signal 9 (Killed)," ] \
  || fail "row 2: $(sed -n 3p "$work/summary.csv")"
grep -q 'note: row 2 failed (status signal 9)' "$work/err" || fail "note: $(cat "$work/err")"
echo ok
