#!/bin/sh
# The simulator's --sweep: five rows with units, quoted and empty fields,
# and one row whose force trips the lever's assert.  Every row's results
# are the bytes of a plain --param run of the same values (the failed
# row's too: the rows up to the failure); the summary is the one
# assembled from those runs (statuses, the failed row's message, the
# final values); the sweep exits 3 and the others still ran.  Then the
# final values against the analytic x3 = -(r12/r23) F t^2 / (2 m), so the
# units were converted (g, mm); an all-ok sweep exits 0 with the summary
# on stdout.
. "$(dirname "$0")/lib.sh"
build "$work/sim"
write_sets "$work/sets.csv"
plain_runs "$work/sim" "$work"
[ "$(cat "$work/plain-3.status")" = 3 ] || fail "row 3's plain run did not fail"

# shellcheck disable=SC2086
"$work/sim" --sweep "$work/sets.csv" $opts -o "$work/out-{row}.csv" \
  --sweep-summary "$work/summary.csv" 2>"$work/sweep.err"
st=$?
[ "$st" = 3 ] || fail "sweep exit status $st, expected 3: $(cat "$work/sweep.err")"
for k in 1 2 3 4 5; do
  same_files "$work/out-$k.csv" "$work/plain-$k.csv"
done
expected_summary "$work" > "$work/expected.csv"
same_files "$work/summary.csv" "$work/expected.csv"
grep -q 'assertion failed in lever' "$work/sweep.err" || fail "row 3's error not passed on"
grep -q 'note: row 3 failed (status 3)' "$work/sweep.err" || fail "no note naming row 3"

# row 5: r12 = r23 = 0.1 m, F = 0.5 N, m = 1.5 kg at t = 0.01 s, within
# 1e-8 m, 10 times the default --atol (1e-9 per unit nominal; msbdf steps
# freely and its error is 3.4e-9 m here)
awk -F, 'NR == 6 {
  want = -(0.1 / 0.1) * 0.5 * 0.01 * 0.01 / (2 * 1.5)
  err = $8 - want; if (err < 0) err = -err
  if ($7 != 0.01 || err > 1e-8) { print "row 5: mass.x " $8 ", expected " want; exit 1 }
}' "$work/summary.csv" || fail "row 5's final value"

# without row 3 every row succeeds: exit 0, the summary on stdout
grep -v '^1e5' "$work/sets.csv" > "$work/ok.csv"
# shellcheck disable=SC2086
"$work/sim" --sweep "$work/ok.csv" $opts -o "$work/ok-{row}.csv" --quiet >"$work/ok-summary.csv" \
  || fail "an all-ok sweep did not exit 0"
[ "$(cut -d, -f5 "$work/ok-summary.csv" | tr '\n' ' ')" = "status ok ok ok ok " ] \
  || fail "all-ok statuses: $(cat "$work/ok-summary.csv")"
same_files "$work/ok-4.csv" "$work/plain-5.csv"
echo ok
