#!/bin/sh
# A non-finite constant in a branch the compiler cannot decide: the C
# compiles without a warning (1 / 0 divides doubles), the untaken branch
# changes nothing (y == x), and the taken one is a run-time failure.
. "$(dirname "$0")/lib.sh"
"$LMDLC" emit-c "$here/nonfinite_branch.lmdl" -o "$work/m.c" || fail "emit-c"
"${CC:-cc}" -std=c11 -Wall -Wextra -Werror -I "$here/../../runtime" -I "$here/../../runtime/common" -c "$work/m.c" \
  -o "$work/m.o" || fail "the generated C does not compile cleanly"
build nonfinite_branch.lmdl sim
"$work/sim" --stop-time 1 --output-step 0.1 -o "$work/out.csv" || fail "run"
check "$work/out.csv" 'if (abs(v("y") - v("x")) > 1e-12) { bad = 1; why = "t=" t }'
"$work/sim" --stop-time 1 --param a=0.5 -o "$work/out2.csv" 2>"$work/err"
[ $? = 3 ] || fail "expected the taken branch to stop the run: $(cat "$work/err")"
echo ok
