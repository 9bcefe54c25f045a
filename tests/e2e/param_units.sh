#!/bin/sh
# --param reads a bare number in the unit the parameter's declaration is
# written in (x = {1, 'mm'}: --param x=5 is 5 mm), a number with a unit in
# that unit (degC and degF as temperatures, or differences under
# Conversion = relative), and a derived parameter in SI; --help shows
# each value in its declared unit; a sweep's header "x [UNIT]" gives the
# unit of its column's bare numbers.  Values compared exactly or to 1e-12
# relative (unit conversions are one multiplication and one addition).
. "$(dirname "$0")/lib.sh"
build param_units.lmdl sim
row() { tail -n 1 "$1"; }
"$work/sim" --stop-time 0 -o "$work/d.csv" || fail "default run"
check "$work/d.csv" '
  if (abs(v("a") - 0.001) > 1e-15 || abs(v("b") - 2000) > 1e-9 || abs(v("c") - 293.15) > 1e-9 ||
      abs(v("d") - 5) > 1e-12 || abs(v("e") - 0.003) > 1e-15 || v("f") != 3 || abs(v("g") - 0.002) > 1e-15) {
    bad = 1; why = "defaults: " $0 }'
"$work/sim" --stop-time 0 -o "$work/p.csv" --param x=5 --param k=3 --param T0=30 \
  --param 'v=[3 4]' --param dT=10 --param n=7 --param y=0.5 || fail "run with bare numbers"
check "$work/p.csv" '
  if (abs(v("a") - 0.005) > 1e-15) { bad = 1; why = "x=5 is 5 mm: a = " v("a") }
  if (abs(v("b") - 3000) > 1e-9) { bad = 1; why = "k=3 is 3 kN/m: b = " v("b") }
  if (abs(v("c") - 303.15) > 1e-9) { bad = 1; why = "T0=30 is 30 degC: c = " v("c") }
  if (abs(v("d") - 10) > 1e-12) { bad = 1; why = "dT=10 is a 10 K difference: d = " v("d") }
  if (abs(v("e") - 0.007) > 1e-15) { bad = 1; why = "v=[3 4] is in mm: e = " v("e") }
  if (v("f") != 7) { bad = 1; why = "n=7: f = " v("f") }
  if (abs(v("g") - 0.5) > 1e-15) { bad = 1; why = "y=0.5 (derived, SI): g = " v("g") }'
"$work/sim" --stop-time 0 -o "$work/u.csv" --param 'x=0.25 m' --param 'T0=86 degF' \
  --param 'dT=9 degF' --param 'v=[1 1] cm' || fail "run with units"
check "$work/u.csv" '
  if (abs(v("a") - 0.25) > 1e-15) { bad = 1; why = "x=0.25 m: a = " v("a") }
  if (abs(v("c") - 303.15) > 1e-9) { bad = 1; why = "T0=86 degF is 303.15 K: c = " v("c") }
  if (abs(v("d") - 5) > 1e-12) { bad = 1; why = "dT=9 degF is a 5 K difference: d = " v("d") }
  if (abs(v("e") - 0.02) > 1e-15) { bad = 1; why = "v=[1 1] cm: e = " v("e") }'
"$work/sim" --param 'x=5 s' 2>"$work/err" && fail "a time for a length was taken"
grep -q "has the dimension" "$work/err" || fail "the wrong dimension's message: $(cat "$work/err")"
"$work/sim" --help >"$work/help.txt" || fail "--help"
grep -q '^  x  *1 mm$' "$work/help.txt" || fail "--help shows x in mm: $(grep ' x ' "$work/help.txt")"
grep -q '^  T0  *20 degC$' "$work/help.txt" || fail "--help shows T0 in degC"
grep -q '^  y  *0.002 m$' "$work/help.txt" || fail "--help shows the derived y in SI"
printf 'row,x [mm],T0 [degC],k\n1,5,30,3\n2,0.25 m,86 degF,4 kN/m\n' > "$work/sets.csv"
"$work/sim" --sweep "$work/sets.csv" --stop-time 0 -o "$work/s{row}.csv" >/dev/null 2>&1 || fail "the sweep"
check "$work/s1.csv" '
  if (abs(v("a") - 0.005) > 1e-15 || abs(v("c") - 303.15) > 1e-9 || abs(v("b") - 3000) > 1e-9) {
    bad = 1; why = "row 1 of the sweep: " $0 }'
check "$work/s2.csv" '
  if (abs(v("a") - 0.25) > 1e-15 || abs(v("c") - 303.15) > 1e-9 || abs(v("b") - 4000) > 1e-9) {
    bad = 1; why = "row 2 of the sweep: " $0 }'
echo ok
