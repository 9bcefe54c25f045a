#!/bin/sh
# --param of a matrix parameter (matrix_param.ssc, K = [1 2; 3 4], y =
# K(1,2)): [1 5; 3 4] sets it by rows (y = 5); the right count without
# the rows ([1 2 3 4]) is refused saying how to write it (it once said
# 'has 4 elements, this value has 4').
. "$(dirname "$0")/lib.sh"
build matrix_param.ssc sim
"$work/sim" --stop-time 0 --param 'K=[1 5; 3 4]' -o "$work/out.csv" || fail "--param by rows"
check "$work/out.csv" 'if (v("y") != 5) { bad = 1; why = "y = " v("y") }'
"$work/sim" --stop-time 0 --param 'K=[1 2 3 4]' -o "$work/no.csv" 2> "$work/err" && fail "flat value accepted"
grep -q "write its 2 rows, separated by ';'" "$work/err" || fail "message: $(cat "$work/err")"
echo ok
