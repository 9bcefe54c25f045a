#!/bin/sh
# A sweep with more rows than fit on one command line (200,000 rows: one
# argument per row would be more than ARG_MAX, 2 MiB here): lmdlc sweep
# --engine parallel --run hands GNU parallel the row numbers on its
# standard input, NUL-separated, and its command line stays short.  The
# `parallel` on PATH is a stand-in that records its arguments and counts
# the rows it is given, so the rows are not run; the collect step then
# finds none of their summary lines (exit 3), which is what a job that
# ran nothing must give, never exit 0.
. "$(dirname "$0")/lib.sh"
mkdir "$work/bin" "$work/runs"
cat > "$work/bin/parallel" <<SH
#!/bin/sh
printf '%s\n' "\$#" > "$work/argc"
tr -cd '\\000' | wc -c > "$work/rows"
exit 0
SH
chmod +x "$work/bin/parallel"
awk 'BEGIN { print "F"; for (k = 1; k <= 200000; k++) print k / 1000 }' > "$work/sets.csv"
# shellcheck disable=SC2086
PATH="$work/bin:$PATH" "$LMDLC" sweep "$model" --sets "$work/sets.csv" --engine parallel \
  --run -o "$work/runs/out-{row}.csv" --sweep-summary "$work/summary.csv" $opts \
  >/dev/null 2>"$work/err"
st=$?
[ "$st" = 3 ] || fail "expected exit 3 (no row ran), got $st: $(tail -3 "$work/err")"
[ "$(cat "$work/rows")" -eq 200000 ] || fail "parallel was given $(cat "$work/rows") rows, not 200000"
[ "$(cat "$work/argc")" -lt 40 ] || fail "parallel's command line has $(cat "$work/argc") words"
[ "$(wc -l < "$work/summary.csv")" -eq 200001 ] || fail "the summary has not a line per row"
grep -q ',missing,' "$work/summary.csv" || fail "the summary does not say the rows are missing"
echo ok
