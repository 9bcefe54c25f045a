#!/bin/sh
# lmdlc sweep --engine parallel, for real with GNU parallel -j 2, in a
# directory whose name holds a space, quotes, '$', a newline and GNU
# parallel's own replacement strings ({} {.} {#}): the rows' results and
# the merged summary are byte-identical to the simulator's sequential
# --sweep.  Both routes: --run (lmdlc spawns parallel, then collects) and
# the printed commands, run by a shell as a user pasting them would.
# Also: --jobs becomes -j, --sshlogin is passed on (printed only), and a
# word parallel would take for an input separator is refused.
. "$(dirname "$0")/lib.sh"
command -v parallel >/dev/null || fail "GNU parallel is not installed (apt-get install parallel)"
d="$work/a b \$HOME 'q\" {} {.} {#}
nl"
mkdir "$d" || fail "mkdir"
write_sets "$d/sets.csv"

# the reference: the sequential sweep, with the simulator lmdlc builds
# shellcheck disable=SC2086
"$LMDLC" sweep "$model" --sets "$d/sets.csv" --engine parallel --jobs 2 \
  -o "$d/out-{row}.csv" $opts > "$work/commands.sh" || fail "lmdlc sweep (print)"
[ -x "$d/lever_mass.sim" ] || fail "no simulator next to the results: $(ls "$d")"
# shellcheck disable=SC2086
"$d/lever_mass.sim" --sweep "$d/sets.csv" $opts -o "$work/seq-{row}.csv" --quiet \
  --sweep-summary "$work/seq.csv" 2>/dev/null
[ $? = 3 ] || fail "sequential sweep: expected exit 3"
grep -q "^seq 1 5 | tr '\\\\n' '\\\\0' | parallel --null -j 2 exec " "$work/commands.sh" || fail "command: $(cat "$work/commands.sh")"

# --run
# shellcheck disable=SC2086
"$LMDLC" sweep "$model" --sets "$d/sets.csv" --engine parallel --jobs 2 \
  -o "$d/out-{row}.csv" $opts --run > "$work/run-summary.csv" 2>"$work/run.err"
st=$?
[ "$st" = 3 ] || fail "lmdlc sweep --run: exit $st, expected 3: $(cat "$work/run.err")"
for k in 1 2 3 4 5; do
  same_files "$d/out-$k.csv" "$work/seq-$k.csv"
done
same_files "$work/run-summary.csv" "$work/seq.csv"
grep -q 'assertion failed in lever' "$work/run.err" || fail "row 3's error not shown"

# the printed commands, pasted into a shell
rm -f "$d"/out-*
sh "$work/commands.sh" > "$work/sh-summary.csv" 2>/dev/null
[ $? = 3 ] || fail "the printed commands: expected exit 3 from the collect step"
for k in 1 2 3 4 5; do
  same_files "$d/out-$k.csv" "$work/seq-$k.csv"
done
same_files "$work/sh-summary.csv" "$work/seq.csv"

# --sshlogin is passed on, and without --jobs each host uses its cores
"$LMDLC" sweep "$model" --sets "$d/sets.csv" --engine parallel --sshlogin 'node1' \
  --sshlogin '2/u@node2' -o "$d/out-{row}.csv" > "$work/ssh.sh" || fail "--sshlogin"
grep -q "| parallel --null --sshlogin node1 --sshlogin 2/u@node2 exec " "$work/ssh.sh" \
  || fail "sshlogin command: $(cat "$work/ssh.sh")"
# an input separator in a simulator option
"$LMDLC" sweep "$model" --sets "$d/sets.csv" --engine parallel -o "$d/out-{row}.csv" \
  --vars ':::' >/dev/null 2>"$work/err"
[ $? = 1 ] && grep -q 'separator' "$work/err" || fail "':::' accepted: $(cat "$work/err")"
# a bad sets file stops lmdlc sweep before any job: exit 1, no job printed
printf 'F,nosuch\n1,2\n' > "$work/bad.csv"
"$LMDLC" sweep "$model" --sets "$work/bad.csv" --engine parallel -o "$d/out-{row}.csv" \
  >"$work/bad.out" 2>"$work/err"
[ $? = 1 ] && [ ! -s "$work/bad.out" ] && grep -q "column 2 'nosuch'" "$work/err" \
  || fail "bad sets file: $(cat "$work/err")"
echo ok
