#!/bin/sh
# A quotient by a parameter is a product with the parameter's reciprocal,
# computed once (plan_eval.c): eval has no division left; q = x / k =
# exp(-t) / k for k = 2 and k = 3 (--param, after which the reciprocal is
# computed again); a divisor of 0 still fails at once, naming q, as the
# quotient did (x * (1 / 0) is infinite as x / 0 is).
. "$(dirname "$0")/lib.sh"
"$LMDLC" emit-c "$here/reciprocal.lmdl" -o "$work/sim.c" || fail emit-c
awk '/^static int eval/,/^}/' "$work/sim.c" | grep -q ' / ' && fail "eval still divides"
build reciprocal.lmdl sim
for k in 2 3; do
  "$work/sim" --stop-time 1 --output-step 0.25 --rtol 1e-10 --atol 1e-12 --param k=$k -o "$work/out.csv" \
    || fail "k=$k"
  check "$work/out.csv" "if (abs(v(\"q\") - exp(-t) / $k) > 1e-7) { bad = 1; why = \"t=\" t }"
done
"$work/sim" --stop-time 1 --param k=0 -o "$work/zero.csv" 2>"$work/err"
[ $? = 3 ] || fail "k=0: expected exit status 3"
grep -q "at t = 0" "$work/err" && grep -q "q" "$work/err" && grep -qi "not finite\|infinite\|nan" "$work/err" \
  || fail "k=0: $(cat "$work/err")"
cat "$work/err"
echo ok
