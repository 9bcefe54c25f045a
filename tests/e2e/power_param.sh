#!/bin/sh
# The power of a quantity with a unit is fixed when the model is
# compiled (power_param.lmdl): y = L^n = 9 m^2, and --param n=3 is
# refused with the reason; --param L=2 is fine (y = 4).
. "$(dirname "$0")/lib.sh"
build power_param.lmdl sim
"$work/sim" --stop-time 0 --param n=3 -o "$work/no.csv" 2> "$work/err" && fail "--param n=3 accepted"
grep -q "'n' is a structural parameter" "$work/err" || fail "message: $(cat "$work/err")"
grep -q "the power of a quantity with a unit" "$work/err" || fail "reason: $(cat "$work/err")"
"$work/sim" --stop-time 0 --param L=2 -o "$work/out.csv" || fail "--param L=2"
check "$work/out.csv" 'if (v("y") != 4) { bad = 1; why = "y = " v("y") }'
echo ok
