#!/bin/sh
# The constant factors of a product in the solver's evaluations are
# multiplied together once, with the parameters (fold_consts in
# compiler/plan/plan_eval.c): the 30-lever chain of bench/gen, with
# levers of three different ratios, built as it is and with LMDL_FOLD=no,
# has fewer multiplications in eval and the same results to within
# rounding: every column, rk8pd at rtol 1e-10, agrees to 1e-9 of the
# column's largest magnitude (the product may differ in its last bit, and
# the steps' error control then in theirs).
. "$(dirname "$0")/lib.sh"
sh "$here/../../bench/gen/lever_chain.sh" 30 "$work/gen.lmdl" || fail "generate"
sed -e 's/lv7 = Lever(r12 = r12, r23 = r23)/lv7 = Lever(r12 = {0.1, '"'m'"'}, r23 = {0.13, '"'m'"'})/' \
    -e 's/lv19 = Lever(r12 = r12, r23 = r23)/lv19 = Lever(r12 = {0.12, '"'m'"'}, r23 = {0.07, '"'m'"'})/' \
    "$work/gen.lmdl" > "$work/chain.lmdl"
grep -q "0.13" "$work/chain.lmdl" && grep -q "0.07" "$work/chain.lmdl" || fail "the edit of the chain"
"$LMDLC" emit-c "$work/chain.lmdl" -o "$work/folded.c" || fail "emit-c"
LMDL_FOLD=no "$LMDLC" emit-c "$work/chain.lmdl" -o "$work/plain.c" || fail "emit-c, LMDL_FOLD=no"
# multiplications in the eval functions
muls() {
  awk '/^static int eval/ { on = 1 } on { n += gsub(/ \* /, "") } on && /^}/ { on = 0 } END { print n + 0 }' "$1"
}
m1=$(muls "$work/folded.c")
m0=$(muls "$work/plain.c")
echo "multiplications in eval: $m1 folded, $m0 with LMDL_FOLD=no"
[ "$m1" -lt "$m0" ] || fail "folding saved no multiplication"
"$LMDLC" build "$work/chain.lmdl" -o "$work/folded" || fail "build"
LMDL_FOLD=no "$LMDLC" build "$work/chain.lmdl" -o "$work/plain" || fail "build, LMDL_FOLD=no"
"$work/folded" --solver rk8pd --rtol 1e-10 --atol 1e-12 -o "$work/f.csv" || fail "run folded"
"$work/plain" --solver rk8pd --rtol 1e-10 --atol 1e-12 -o "$work/p.csv" || fail "run plain"
paste -d, "$work/f.csv" "$work/p.csv" | awk -F, '
  NR == 1 { n = NF / 2; next }
  { for (i = 1; i <= n; i++) {
      d = $i - $(i + n); if (d < 0) d = -d
      a = $(i + n); if (a < 0) a = -a
      if (d > dmax[i]) dmax[i] = d
      if (a > amax[i]) amax[i] = a
    }
    rows++ }
  END {
    worst = 0
    for (i = 1; i <= n; i++) { r = amax[i] > 0 ? dmax[i] / amax[i] : dmax[i]; if (r > worst) worst = r }
    printf "%d rows of %d columns; largest difference %.3g of its column'"'"'s magnitude\n", rows, n, worst
    exit worst <= 1e-9 ? 0 : 1 }' || fail "folded and plain results differ beyond 1e-9"
echo ok
