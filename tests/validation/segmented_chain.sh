#!/bin/sh
# examples/segmented_chain at both sizes: at rest each spring
# carries sp(i).f = (-1)^(i+1) * F * prod_{j<=i} r12(j)/r23(j), F = 10 N
# (tolerance 1e-4 N after 60 s), also with a whole vector of arms set by
# --param.
. "$(dirname "$0")/lib.sh"
ex=../../examples/segmented_chain
build $ex/chain3.lmdl c3
build $ex/chain10.lmdl c10
opts="--stop-time 60 --output-step 60 --rtol 1e-10 --atol 1e-12"
"$work/c3" $opts -o "$work/c3.csv" || fail "chain3"
check "$work/c3.csv" 'if (t == 60) {
  r[1] = 1; r[2] = 2; r[3] = 1; p = 10
  for (i = 1; i <= 3; i++) { p *= r[i]; w = (i % 2 ? p : -p)
    if (abs(v("chain.sp(" i ").f") - w) > 1e-4) { bad = 1; why = "sp(" i ").f = " v("chain.sp(" i ").f") } } }'
"$work/c3" $opts --param 'chain.r23=[0.1 0.1 0.05] m' -o "$work/c3b.csv" || fail "chain3 --param"
check "$work/c3b.csv" 'if (t == 60 && abs(v("chain.sp(3).f") - 40) > 1e-4) { bad = 1; why = "sp(3).f = " v("chain.sp(3).f") }'
"$work/c10" $opts -o "$work/c10.csv" || fail "chain10"
check "$work/c10.csv" 'if (t == 60) { p = 10
  for (i = 1; i <= 10; i++) { if (i == 2) p *= 2; w = (i % 2 ? p : -p)
    if (abs(v("chain.sp(" i ").f") - w) > 1e-4) { bad = 1; why = "sp(" i ").f = " v("chain.sp(" i ").f") } } }'
echo ok
