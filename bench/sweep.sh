#!/bin/sh
# sweep.sh - 1,000 runs of the wall-contact example three ways, paired in
# one session (docs/sweeps.md):
#
#   loop      a shell loop starting the simulator once per row, with --param
#   sweep     the simulator's --sweep over the sets file (one process,
#             a forked child per row)
#   parallel  lmdlc sweep --engine parallel --jobs 2 --run (build, check,
#             GNU parallel -j 2, collect)
#
# Rounds alternate the three (loop, sweep, parallel, loop, ...), so a
# change in the machine's load hits all of them; the load average is
# printed before and after each round.  Every way's results are compared
# byte for byte with the loop's.  Not part of ctest.
#
#   sh bench/sweep.sh [ROUNDS [ROWS]]     defaults: 3 rounds of 1000 rows
#
# BENCH_SWEEP_OPTS replaces the runs' integration options (default
# "--stop-time 0.1 --output-step 0.001", about 1.5 ms a run); docs/sweeps.md
# also quotes "--stop-time 1 --output-step 0.01 --solver rk2 --rtol 1e-11
# --atol 1e-13", about 18 ms a run.
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-3}
rows=${2:-1000}
lmdlc=${LMDLC:-$PWD/build/lmdlc}
work=${BENCH_WORK:-$PWD/bench/work}/sweep
rm -rf "$work"
mkdir -p "$work"
model=$PWD/examples/wall_contact/wall_contact.lmdl
opts="${BENCH_SWEEP_OPTS:---stop-time 0.1 --output-step 0.001} --vars lever.theta,inertia.w,wall1.f,wall3.f --events"
"$lmdlc" build "$model" -o "$work/sim"
# F3 from 5 N to 25 N (the lever turns either way, or not at all at
# 10 N), the gap 8 to 12 mm
awk -v n="$rows" 'BEGIN { print "F3,gap"
  for (i = 0; i < n; i++) printf "%.6g,%d mm\n", 5 + 20 * i / (n - 1), 8 + i % 5 }' > "$work/sets.csv"

now() { date +%s.%N; }
load() { cut -d' ' -f1-3 /proc/loadavg | tr ' ' /; }

run_loop() {
  d=$work/loop
  rm -rf "$d" && mkdir "$d"
  k=0
  tail -n +2 "$work/sets.csv" | while IFS=, read -r f3 gap; do
    k=$((k + 1))
    # shellcheck disable=SC2086
    "$work/sim" $opts "$d/ev-$k.csv" --param "F3=$f3" --param "gap=$gap" -o "$d/out-$k.csv" --quiet
  done
}
run_sweep() {
  d=$work/sweep
  rm -rf "$d" && mkdir "$d"
  # shellcheck disable=SC2086
  "$work/sim" --sweep "$work/sets.csv" $opts "$d/ev-{row}.csv" -o "$d/out-{row}.csv" \
    --sweep-summary "$d/summary.csv" --quiet
}
run_parallel() {
  d=$work/parallel
  rm -rf "$d" && mkdir "$d"
  # shellcheck disable=SC2086
  "$lmdlc" sweep "$model" --sets "$work/sets.csv" --engine parallel --jobs 2 --run \
    -o "$d/out-{row}.csv" $opts "$d/ev-{row}.csv" --sweep-summary "$d/summary.csv" --quiet
}

echo "way,round,rows,wall_s,load_before,load_after"
for r in $(seq 1 "$rounds"); do
  for way in loop sweep parallel; do
    before=$(load)
    t0=$(now)
    "run_$way"
    t1=$(now)
    echo "$way,$r,$rows,$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'),$before,$(load)"
  done
  for k in $(seq 1 "$rows"); do
    for way in sweep parallel; do
      cmp -s "$work/loop/out-$k.csv" "$work/$way/out-$k.csv" \
        || { echo "row $k: $way differs from loop" >&2; exit 1; }
      cmp -s "$work/loop/ev-$k.csv" "$work/$way/ev-$k.csv" \
        || { echo "row $k: $way's event log differs" >&2; exit 1; }
    done
  done
  cmp -s "$work/sweep/summary.csv" "$work/parallel/summary.csv" \
    || { echo "the summaries differ" >&2; exit 1; }
done
