#!/bin/sh
# Arrays: the chain written with for-loops gives the same
# columns, in the same order, and the same values (to 1e-12) as the same
# model written out, also after --param of a whole vector; element names
# m(2).m work in --param and --vars; a vector of the wrong length and the
# structural N are refused with the reason.
. "$(dirname "$0")/lib.sh"
build arrays_chain.lmdl loop
build arrays_chain_unrolled.lmdl unrolled
opts="--stop-time 2 --output-step 0.05 --rtol 1e-10 --atol 1e-12"

# compare A B: same header once m(1) reads m1, q(2) reads q2; every value
# within 1e-12 (absolute, or relative to the larger)
compare() {
  sed '1s/\([a-z]\)(\([0-9]*\))/\1\2/g' "$1" > "$work/a.csv"
  [ "$(head -n 1 "$work/a.csv")" = "$(head -n 1 "$2")" ] \
    || fail "headers differ: $(head -n 1 "$work/a.csv") vs $(head -n 1 "$2")"
  [ "$(wc -l < "$1")" = "$(wc -l < "$2")" ] || fail "row counts differ"
  paste -d, "$work/a.csv" "$2" | awk -F, '
    NR == 1 { n = NF / 2; next }
    { for (i = 1; i <= n; i++) {
        a = $i + 0; b = $(i + n) + 0; d = a - b; if (d < 0) d = -d
        s = (a < 0 ? -a : a); if ((b < 0 ? -b : b) > s) s = (b < 0 ? -b : b)
        if (d > 1e-12 && d > 1e-12 * s) { print "row " NR " column " i ": " a " vs " b; exit 1 } } }' \
    || fail "values differ ($3)"
}

"$work/loop" $opts -o "$work/loop.csv" || fail "loop run"
"$work/unrolled" $opts -o "$work/unrolled.csv" || fail "unrolled run"
compare "$work/loop.csv" "$work/unrolled.csv" defaults
head -n 1 "$work/loop.csv" | grep -q '^time,q(1),q(2),q(3),q(4),wall\.f,push\.f,s(1)\.f,s(1)\.stretch,m(1)\.x,' \
  || fail "unexpected header: $(head -n 1 "$work/loop.csv")"

# a whole vector parameter, and one element, against the written-out model
"$work/loop" $opts --param 'masses=[2 1 500 0.25] kg' -o "$work/loop2.csv" || fail "vector --param"
"$work/unrolled" $opts --param mass1=2 --param mass2=1 --param 'mass3=500 kg' \
  --param mass4=0.25 -o "$work/unrolled2.csv" || fail "unrolled --param"
compare "$work/loop2.csv" "$work/unrolled2.csv" "masses=[2 1 500 0.25] kg"
"$work/loop" $opts --param 'masses(3)=3000 g' -o "$work/loop3.csv" || fail "element --param"
"$work/unrolled" $opts --param 'mass3=3 kg' -o "$work/unrolled3.csv" || fail "unrolled mass3"
compare "$work/loop3.csv" "$work/unrolled3.csv" "masses(3)=3000 g"
"$work/loop" $opts --param 'm(2).m=5' -o "$work/loop4.csv" || fail "m(2).m"
"$work/unrolled" $opts --param 'm2.m=5' -o "$work/unrolled4.csv" || fail "m2.m"
compare "$work/loop4.csv" "$work/unrolled4.csv" "m(2).m=5"

# --vars with element names
"$work/loop" $opts --vars 'm(2).v,q(3)' -o "$work/vars.csv" || fail "--vars"
[ "$(head -n 1 "$work/vars.csv")" = "time,m(2).v,q(3)" ] || fail "--vars header: $(head -n 1 "$work/vars.csv")"

# refusals, exit status 1
"$work/loop" --param 'masses=[1 2 3] kg' 2> "$work/err" > /dev/null
[ $? = 1 ] || fail "a vector of the wrong length was accepted"
grep -q "has 4 elements" "$work/err" || fail "wrong length: $(cat "$work/err")"
"$work/loop" --param N=5 2> "$work/err" > /dev/null
[ $? = 1 ] || fail "the structural N was accepted"
grep -q "'N' is a structural parameter.*for-loop's range" "$work/err" || fail "N: $(cat "$work/err")"
"$work/loop" --param masses=3 2> "$work/err" > /dev/null
[ $? = 1 ] || fail "a scalar for a vector was accepted"
# a vector whose unit makes an element infinite (1e306 Mg)
"$work/loop" --param 'masses=[2 1e306 3 4] Mg' 2> "$work/err" > /dev/null
[ $? = 1 ] || fail "an infinite mass was accepted"
grep -qF "masses: '1e+306 Mg' is too large: in kg it is not a finite number" "$work/err" \
  || fail "infinite element: $(cat "$work/err")"
echo ok
