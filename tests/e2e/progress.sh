#!/bin/sh
# The progress bar: on a terminal (script(1) gives the simulator one), a
# run of more than a second shows the percentage, the simulated time, the
# rate in simulated seconds per second and the wall time left, and erases
# itself at the end; --quiet silences it, and a stderr that is not a
# terminal never sees it.
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null 2>&1 || { echo "SKIP: no script(1)"; exit 77; }
build progress.lmdl osc
run_tty() { script -qec "$*" /dev/null </dev/null; }
# The bar needs a run of more than a second: a fast machine does 120
# simulated seconds in less, so the run grows fivefold until it shows
# (at most twice).
stop=120
for try in 1 2 3; do
    run_tty "$work/osc" --stop-time $stop --output-step 1 -o "$work/out.csv" >"$work/tty.txt" 2>&1 \
      || fail "the run on a terminal failed"
    tr '\r' '\n' <"$work/tty.txt" >"$work/lines.txt"
    grep -aq '%  t = ' "$work/lines.txt" && break
    stop=$((stop * 5))
done
grep -aq '%  t = ' "$work/lines.txt" || fail "no progress line: $(head -c 300 "$work/tty.txt")"
grep -aq ' s/s ' "$work/lines.txt" || fail "no rate in the progress line"
grep -aq ' left' "$work/lines.txt" || fail "no time left in the progress line"
[ "$(tail -n 1 "$work/out.csv" | cut -d, -f1)" = $stop ] || fail "the run did not reach $stop s"
run_tty "$work/osc" --stop-time 120 --output-step 1 --quiet -o "$work/out2.csv" >"$work/quiet.txt" 2>&1 \
  || fail "the quiet run failed"
grep -aq 's/s' "$work/quiet.txt" && fail "--quiet still drew the bar"
"$work/osc" --stop-time 120 --output-step 1 -o "$work/out3.csv" 2>"$work/err.txt" \
  || fail "the run without a terminal failed"
[ -s "$work/err.txt" ] && fail "a stderr that is not a terminal got: $(head -c 200 "$work/err.txt")"
echo ok
