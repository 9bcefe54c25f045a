#!/bin/sh
# Copies of the parameters (compiler/plan/plan_eval.c): on a model whose
# p[] is large, the solver's evaluations read the parameters from copies
# laid out in the order they are read.  The 100-lever chain of bench/gen
# built with copies and with LMDL_PARAM_COPIES=no (none) gives the same
# CSV, byte for byte, every column, with rk8pd and msbdf, with the
# parameters as declared and with --param changes, which the copies must
# follow.
. "$(dirname "$0")/lib.sh"
sh "$here/../../bench/gen/lever_chain.sh" 100 "$work/chain.lmdl" || fail "generate"
"$LMDLC" emit-c "$work/chain.lmdl" -o "$work/copies.c" || fail "emit-c"
LMDL_PARAM_COPIES=no "$LMDLC" emit-c "$work/chain.lmdl" -o "$work/plain.c" || fail "emit-c, LMDL_PARAM_COPIES=no"
# derive_params makes the copies from a table of runs, one per line
grep -q '^static const int solver_copies\[\]' "$work/copies.c" || fail "no parameter was copied"
grep -q 'solver_copies' "$work/plain.c" && fail "LMDL_PARAM_COPIES=no copied"
n=$(sed -n '/^static const int solver_copies/,/^};/p' "$work/copies.c" | grep -c '^    [0-9]')
"$LMDLC" build "$work/chain.lmdl" -o "$work/copies" || fail "build"
LMDL_PARAM_COPIES=no "$LMDLC" build "$work/chain.lmdl" -o "$work/plain" || fail "build, LMDL_PARAM_COPIES=no"
set -- "--param sp50.k=2500 --param lv7.r12=0.15 --param m=2"
for s in rk8pd msbdf; do
  for changes in "" "$1"; do
    # shellcheck disable=SC2086
    "$work/copies" --solver $s --stop-time 0.5 $changes -o "$work/c.csv" || fail "copies, $s $changes"
    # shellcheck disable=SC2086
    "$work/plain" --solver $s --stop-time 0.5 $changes -o "$work/p.csv" || fail "plain, $s $changes"
    cmp -s "$work/c.csv" "$work/p.csv" || fail "$s $changes: the results differ"
    [ -z "$changes" ] && cp "$work/c.csv" "$work/default.csv"
    [ -n "$changes" ] && cmp -s "$work/c.csv" "$work/default.csv" && fail "$s: --param changed nothing"
    echo "$s ${changes:-(declared values)}: $(($(wc -l < "$work/c.csv") - 1)) rows of $(head -n 1 "$work/c.csv" | awk -F, '{ print NF }') columns, identical"
  done
done
echo "the copies: $n runs"
echo ok
