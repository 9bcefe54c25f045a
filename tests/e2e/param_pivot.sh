#!/bin/sh
# A pivot that depends on parameters only is checked once, after the
# parameters are set (check_params), not at every evaluation; a zero one
# (--param a=0) fails at initialization with the message an evaluation
# would give, naming the block; otherwise q = x / a = exp(-t) / a.
. "$(dirname "$0")/lib.sh"
"$LMDLC" emit-c "$here/param_pivot.lmdl" -o "$work/sim.c" || fail emit-c
# (a pivot that is one parameter is an entry (slot, block) of the table
# the runtime checks with check_params: rt_tables.c)
grep -A1 '^static const int pivot_slots\[\] = {' "$work/sim.c" | grep -q '^    0, 1$' \
  || fail "the pivot a is not checked once (pivot_slots)"
awk '/^static int eval/,/^}/' "$work/sim.c" | grep -q 'fabs' && fail "eval still checks a pivot"
build param_pivot.lmdl sim
"$work/sim" --stop-time 1 --output-step 0.25 --rtol 1e-10 --atol 1e-12 --param a=4 -o "$work/out.csv" \
  || fail "a=4"
check "$work/out.csv" 'if (abs(v("q") - exp(-t) / 4) > 1e-7) { bad = 1; why = "t=" t }'
"$work/sim" --stop-time 1 --param a=0 -o "$work/zero.csv" 2>"$work/err"
[ $? = 3 ] || fail "a=0: expected exit status 3"
grep -q "at t = 0: initialization failed: the system is singular in block 1: a \* q == x" "$work/err" \
  || fail "a=0: $(cat "$work/err")"
echo ok
