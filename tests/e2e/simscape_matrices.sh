#!/bin/sh
# MATLAB's functions of vectors and matrices (tests/simscape/+functions/
# Matrices.ssc): each row e(k) of the model is a function's value less
# the value worked out by hand, so every column is 0 (to 1e-12).
. "$(dirname "$0")/lib.sh"
"$LMDLC" build "$here/../simscape/+functions/Matrices.ssc" -I "$here/../simscape" \
  -o "$work/sim" || fail "build"
"$work/sim" --stop-time 1 --output-step 1 -o "$work/out.csv" || fail "run"
check "$work/out.csv" '
  for (k = 1; k <= 16; k++) {
    x = v("e(" k ")")
    if (abs(x) > 1e-12) { bad = 1; why = "e(" k ") = " x }
  }'
echo ok
