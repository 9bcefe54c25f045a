#!/bin/sh
# Rolled loops compute what the straight-line statements did, operation
# for operation (compiler/emit/croll.c): the 30-lever chain of bench/gen built
# with rolling (its eval has loops) and with LMDL_ROLL=no (none) gives the
# same CSV, byte for byte, with rk8pd, msbdf and cvode, every column.
. "$(dirname "$0")/lib.sh"
sh "$here/../../bench/gen/lever_chain.sh" 30 "$work/chain.lmdl" || fail "generate"
"$LMDLC" emit-c "$work/chain.lmdl" -o "$work/rolled.c" || fail "emit-c"
LMDL_ROLL=no "$LMDLC" emit-c "$work/chain.lmdl" -o "$work/straight.c" || fail "emit-c, LMDL_ROLL=no"
grep -q 'for (int r_ = 0' "$work/rolled.c" || fail "nothing was rolled"
grep -q 'for (int r_ = 0' "$work/straight.c" && fail "LMDL_ROLL=no rolled"
"$LMDLC" build "$work/chain.lmdl" -o "$work/rolled" || fail "build"
LMDL_ROLL=no "$LMDLC" build "$work/chain.lmdl" -o "$work/straight" || fail "build, LMDL_ROLL=no"
for s in rk8pd msbdf cvode; do
  "$work/rolled" --solver $s -o "$work/r_$s.csv" || fail "rolled, $s"
  "$work/straight" --solver $s -o "$work/s_$s.csv" || fail "straight, $s"
  cmp -s "$work/r_$s.csv" "$work/s_$s.csv" || fail "$s: the results differ"
  echo "$s: $(($(wc -l < "$work/r_$s.csv") - 1)) rows of $(head -n 1 "$work/r_$s.csv" | awk -F, '{ print NF }') columns, identical"
done
echo "C: $(wc -c < "$work/rolled.c") bytes rolled, $(wc -c < "$work/straight.c") straight"
echo ok
