#!/bin/sh
# Assertions that only warn (tests/simscape/+asserts/Warnings.ssc): the
# run goes on to its end (exit 0, every row written); each warning is
# given once, at the first check where its condition fails (x passes 1 m
# at t = 1 s and 2 m at t = 2 s: the checks run at every step end, so
# within one output step); Action = none is never reported; a condition of
# parameters only warns at compile time too.
. "$(dirname "$0")/lib.sh"
"$LMDLC" build "$here/../simscape/+asserts/Warnings.ssc" -I "$here/../simscape" \
  -o "$work/sim" 2> "$work/build.err" || fail "build: $(cat "$work/build.err")"
grep -q "warning: assertion does not hold in the top model: this block is only an example" \
  "$work/build.err" || fail "no compile-time warning: $(cat "$work/build.err")"
"$work/sim" --stop-time 3 --output-step 0.5 -o "$work/out.csv" 2> "$work/err" \
  || fail "the run stopped: $(cat "$work/err")"
[ "$(tail -1 "$work/out.csv" | cut -d, -f1)" = 3 ] || fail "the run did not reach t = 3"
for m in "x passed the limit" "x passed twice the limit" "this block is only an example"; do
  [ "$(grep -c "$m" "$work/err")" = 1 ] || fail "'$m' not given exactly once: $(cat "$work/err")"
done
grep -q "never reported" "$work/err" && fail "Action = none was reported"
t1=$(sed -n 's/.*at t = \([0-9.e+-]*\), .*x passed the limit.*/\1/p' "$work/err")
awk -v t="$t1" 'BEGIN { exit !(t >= 1 && t <= 1.5) }' || fail "the first warning at t = $t1"
echo ok
