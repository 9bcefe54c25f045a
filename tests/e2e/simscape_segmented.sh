#!/bin/sh
# The Simscape-user check of a segmented component written in
# Simscape's syntax (simscape/segmented_rod.lmdl: a component array in a
# for-loop, the loop's connections, a vector parameter in MathWorks'
# {[...] 'unit'} form) compiles unchanged apart from the library names,
# and settles where the physics says: held at A and pulled at B by
# F = 10 N, every spring stretches F/k = 10 mm, so mass(i) rests at
# (i-1)*10 mm.
. "$(dirname "$0")/lib.sh"
"$LMDLC" check "$here/simscape/segmented_rod.lmdl" > "$work/check.txt" || fail "check of segmented_rod"
"$LMDLC" build "$here/simscape/rod_test.lmdl" -o "$work/sim" || fail "build"
"$work/sim" --stop-time 30 --output-step 30 --rtol 1e-10 --atol 1e-12 \
  --vars 'rod.mass(1).x,rod.mass(2).x,rod.mass(3).x,rod.mass(4).x,rod.mass(5).x' \
  -o "$work/out.csv" || fail "run"
check "$work/out.csv" 'if (t == 30) for (i = 1; i <= 5; i++)
  if (abs(v("rod.mass(" i ").x") - (i - 1) * 0.01) > 1e-8) { bad = 1; why = "mass(" i ").x = " v("rod.mass(" i ").x") }'
echo ok
