#!/bin/sh
# The solver's evaluations compute a value that only one other statement
# reads inside that statement (compiler/plan/plan_eval.c), and a row
# computes the column of such a value from the solver's values: the
# 30-lever chain of bench/gen and the mass against a wall of tests/emitc, built as they
# are and with LMDL_INLINE=no (every value stored), give the same CSV,
# byte for byte, with rk8pd, msbdf and cvode: every column, and a few
# columns of inlined values alone (rows without a complete evaluation).
. "$(dirname "$0")/lib.sh"
# products folded or not alike in both builds (tests/e2e/fold.sh)
LMDL_FOLD=no
export LMDL_FOLD
sh "$here/../../bench/gen/lever_chain.sh" 30 "$work/chain.lmdl" || fail "generate"
cp "$here/../emitc/wall.lmdl" "$work/wall.lmdl" || fail "copy"
for m in chain wall; do
  "$LMDLC" emit-c "$work/$m.lmdl" -o "$work/$m.c" || fail "emit-c $m"
  LMDL_INLINE=no "$LMDLC" emit-c "$work/$m.lmdl" -o "$work/${m}_stored.c" || fail "emit-c $m, LMDL_INLINE=no"
  n1=$(sed -n 's/.*a\[\] the other unknowns (the first \([0-9]*\) computed.*/\1/p' "$work/$m.c")
  n0=$(sed -n 's/.*a\[\] the other unknowns (the first \([0-9]*\) computed.*/\1/p' "$work/${m}_stored.c")
  [ "$n1" -lt "$n0" ] || fail "$m: the solver's evaluations store $n1 values inlined, $n0 without"
  echo "$m: the solver's evaluations store $n1 values ($n0 with LMDL_INLINE=no)"
  "$LMDLC" build "$work/$m.lmdl" -o "$work/$m" || fail "build $m"
  LMDL_INLINE=no "$LMDLC" build "$work/$m.lmdl" -o "$work/${m}_stored" || fail "build $m, LMDL_INLINE=no"
done
few_chain=mb1.x,lv1.f3,sp1.stretch,mb30.f
few_wall=base.f,wall.penetration,wall.f,mass.f
for m in chain wall; do
  eval "few=\$few_$m"
  for s in rk8pd msbdf cvode; do
    "$work/$m" --solver $s -o "$work/i_$s.csv" || fail "$m, $s"
    "$work/${m}_stored" --solver $s -o "$work/s_$s.csv" || fail "$m stored, $s"
    cmp -s "$work/i_$s.csv" "$work/s_$s.csv" || fail "$m, $s: the results differ"
    "$work/$m" --solver $s --vars "$few" -o "$work/fi_$s.csv" || fail "$m, $s, --vars"
    "$work/${m}_stored" --solver $s --vars "$few" -o "$work/fs_$s.csv" || fail "$m stored, $s, --vars"
    cmp -s "$work/fi_$s.csv" "$work/fs_$s.csv" || fail "$m, $s, --vars $few: the results differ"
    echo "$m, $s: $(($(wc -l < "$work/i_$s.csv") - 1)) rows of $(head -n 1 "$work/i_$s.csv" | awk -F, '{ print NF }') columns, and of $few, identical"
  done
done
echo ok
