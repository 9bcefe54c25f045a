#!/bin/sh
# The limits of docs/language.md ("Limits") where they are not errors of
# a model file alone (tests/errors/limit_*.lmdl are):
#  - functions that call another twice at each of 22 levels are inlined
#    once per distinct call, not 2^22 times: f_d(x) = f_{d-1}(x) +
#    f_{d-1}(2x), f_0(x) = 2x, so f_22(t) = 2 * 3^22 * t, exactly, in well
#    under the test's time (the exponential inlining took minutes and GBs);
#  - generated C larger than $LMDL_MAX_C_BYTES (at most 1 GiB) is refused
#    with a located error and no file written;
#  - every limit below a model's C size stops the emitter cleanly, wherever
#    it falls (the emitter edits its text in place; an edit after the
#    limit once moved memory by (size_t)-1: ASan caught it in CI);
#  - a sum of 10^5 elements is summed pairwise (log depth): lmdlc makes
#    its C (a left fold of 10^5 terms overflowed the stack of its walks),
#    and x' = the sum of 3,000 ones gives x(1) = 3,000 (within 1e-6).
. "$(dirname "$0")/lib.sh"
{
  printf 'function y = f0(x)\n  definitions\n    y = x + x;\n  end\nend\n'
  k=1
  while [ $k -le 22 ]; do
    printf 'function y = f%d(x)\n  definitions\n    y = f%d(x) + f%d(x * 2);\n  end\nend\n' \
      $k $((k - 1)) $((k - 1))
    k=$((k + 1))
  done
  printf "component Doubling\n  variables\n    z = {0, 's'};\n  end\n  equations\n    z == f22(time);\n  end\nend\n"
} > "$work/doubling.lmdl"
"$LMDLC" run "$work/doubling.lmdl" --stop-time 1 --output-step 1 --quiet > "$work/out.csv" \
  || fail "the doubling functions do not run"
last=$(tail -1 "$work/out.csv")
[ "$last" = "1,62762119218" ] || fail "f22(1) = $last, expected 1,62762119218 (2 * 3^22)"

printf "component Big\n  parameters\n    v = zeros(1, 1000);\n  end\n  variables\n    x = 0;\n  end\n  equations\n    der(x) == sum(v) * {1, '1/s'};\n  end\nend\n" > "$work/big.lmdl"
LMDL_MAX_C_BYTES=20000 "$LMDLC" emit-c "$work/big.lmdl" -o "$work/big.c" 2> "$work/err" \
  && fail "C over LMDL_MAX_C_BYTES: exit 0"
grep -q "big.lmdl:1:11: error: the C of model 'Big' would be more than 20000 bytes" "$work/err" \
  || fail "the C size message: $(cat "$work/err")"
[ ! -e "$work/big.c" ] || fail "a C file was written"
"$LMDLC" emit-c "$work/big.lmdl" -o "$work/big.c" || fail "the same model under the default limit"

wc="$(dirname "$0")/../../examples/wall_contact/wall_contact.lmdl"
"$LMDLC" emit-c "$wc" -o "$work/wc.c" || fail "emit-c wall_contact"
size=$(wc -c < "$work/wc.c")
lim=500
while [ "$lim" -lt "$size" ]; do
  rc=0
  LMDL_MAX_C_BYTES=$lim "$LMDLC" emit-c "$wc" -o "$work/wc_lim.c" 2> "$work/err" || rc=$?
  [ "$rc" = 2 ] || fail "wall_contact under LMDL_MAX_C_BYTES=$lim (C is $size bytes): exit $rc: $(cat "$work/err")"
  grep -q "would be more than $lim bytes" "$work/err" || fail "the C size message at $lim: $(cat "$work/err")"
  [ ! -e "$work/wc_lim.c" ] || fail "a C file was written under the limit $lim"
  lim=$((lim + 700))
done

sed 's/zeros(1, 1000)/ones(1, 100000)/' "$work/big.lmdl" > "$work/long.lmdl"
"$LMDLC" emit-c "$work/long.lmdl" -o "$work/long.c" || fail "the C of a sum of 10^5 elements"
sed 's/zeros(1, 1000)/ones(1, 3000)/' "$work/big.lmdl" > "$work/sum.lmdl"
"$LMDLC" run "$work/sum.lmdl" --stop-time 1 --output-step 1 --quiet > "$work/sum.csv" \
  || fail "a sum of 3,000 elements"
tail -1 "$work/sum.csv" | awk -F, '{ exit !($1 == 1 && $2 > 3000 - 1e-6 && $2 < 3000 + 1e-6) }' \
  || fail "sum of 3,000 ones, integrated for 1 s: $(tail -1 "$work/sum.csv"), expected 3000 within 1e-6"
echo ok
