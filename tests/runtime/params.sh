# params.sh SIM: --param with units, derived parameters, booleans, and
# the refusals (exit 1): structural, unknown, wrong dimension, bad value,
# a value its unit makes infinite.
. "$(dirname "$0")/lib.sh"
sim=$1
# 'k=2 kN/m' is 2000 N/m and reaches spring.k through derive_params.
run 0 "$sim" --stop-time 0.5 --output-step 0.01 --rtol 1e-10 --atol 1e-12 --param 'k=2 kN/m'
[ "$(sed -n 2p "$tmp/out.csv")" = "0,1,0,-2000,1" ] || fail "row 0: $(sed -n 2p "$tmp/out.csv")"
check_max "x = cos(sqrt(2000) t)" 1e-6 "$tmp/out.csv" 'err = $c["x"] - cos(sqrt(2000) * $c["time"])'
# Overriding the derived parameter itself wins over the binding; grams.
run 0 "$sim" --stop-time 0.1 --param k=5 --param 'spring.k = 300' --param 'm=500 g' --param damped=true
[ "$(sed -n 2p "$tmp/out.csv")" = "0,1,0,-300,0.5" ] || fail "row 0: $(sed -n 2p "$tmp/out.csv")"
run 1 "$sim" --param use_damper=false
expect_in "$tmp/err" "'use_damper' is a structural parameter"
run 1 "$sim" --param kk=3
expect_in "$tmp/err" "unknown parameter 'kk'; did you mean 'k'?"
run 1 "$sim" --param 'k=2 m'
expect_in "$tmp/err" "--param k: 'm' has the dimension m, but the parameter is in N/m"
run 1 "$sim" --param 'k=2 furlongs'
expect_in "$tmp/err" "bad unit 'furlongs'"
run 1 "$sim" --param damped=2
expect_in "$tmp/err" "'damped' is a boolean parameter"
run 1 "$sim" --param k
expect_in "$tmp/err" "--param expects PATH=VALUE"
run 1 "$sim" --param k=abc
expect_in "$tmp/err" "expected a number"
# The language's number syntax: no hex, inf, nan, broken exponents, and
# no number that a double cannot hold (1e-400 is not 0).
run 1 "$sim" --param m=0x10
expect_in "$tmp/err" "--param m: expected a number, optionally with a unit, not '0x10': hexadecimal numbers are not supported"
run 1 "$sim" --param m=inf
expect_in "$tmp/err" "not 'inf': infinities and NaN are not numbers here"
run 1 "$sim" --param m=-nan
expect_in "$tmp/err" "not '-nan': infinities and NaN"
run 1 "$sim" --param m=1e
expect_in "$tmp/err" "not '1e': the exponent after 'e' has no digits"
run 1 "$sim" --param 'm=1e+ kg'
expect_in "$tmp/err" "the exponent after 'e' has no digits"
run 1 "$sim" --param m=1e-400
expect_in "$tmp/err" "not '1e-400': the number is too small"
run 1 "$sim" --param m=1e400
expect_in "$tmp/err" "not '1e400': the number is too large"
run 1 "$sim" --param 'm=2 kg^100'
expect_in "$tmp/err" "the unit power 100 is out of range: unit exponents are limited to -99..99"
run 1 "$sim" --param 'm=2 kg^99*kg'
expect_in "$tmp/err" "this unit has kg^100: unit exponents are limited to -99..99"
# The value once its unit is applied: 1e308 Mg is 1e311 kg, not a finite
# number; refused (exit 1) before any output is opened, so -o's file is
# left as it was.  A subnormal result is kept, as the compiler keeps
# {1e-308, 'fs'}.
printf 'keep\n' >"$tmp/keep.csv"
run 1 "$sim" --param 'm=1e308 Mg' -o "$tmp/keep.csv"
expect_in "$tmp/err" "--param m: '1e308 Mg' is too large: in kg it is not a finite number"
[ "$(cat "$tmp/keep.csv")" = keep ] || fail "a refused --param changed -o's file"
run 1 "$sim" --param 'k=-1.5e306 kN/m'
expect_in "$tmp/err" "--param k: '-1.5e306 kN/m' is too large: in N/m it is not a finite number"
run 0 "$sim" --stop-time 0.01 --param 'spring.k=1e-300 mN/m'
# A unit glued to the number still works: 500e0g is 0.5 kg.
run 0 "$sim" --stop-time 0.01 --param 'm=500e0g'
echo "params: overrides and refusals as expected"
