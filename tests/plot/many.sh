#!/bin/sh
# More columns than a plot holds (docs/plots.md): one panel per unit, at
# most 8 curves a panel and 4 panels.  What does not fit is left out and
# named on stderr, whether chosen by --vars or by default; nothing is
# dropped silently.  (Before, only the first 12 columns were drawn, with
# no word about the others.)
. "$(dirname "$0")/lib.sh"
cd "$work" || exit 1

# keys SVG: the curves' names in the SVG's keys (the texts that are no
# number, title or x label), one per line, in order.
keys() {
  svg_text "$1"
  grep '^text	[a-z]' "$work/texts" | grep -v -e '^text	time \[s\]$' -e '\.csv' | cut -f2 >"$work/keys"
}

# 20 columns: c1..c10 in m, f1..f10 in N, with their RESULTS.meta.
awk 'BEGIN {
  h = "time"; for (i = 1; i <= 10; i++) h = h ",c" i; for (i = 1; i <= 10; i++) h = h ",f" i
  print h > "wide.csv"
  for (t = 0; t <= 4; t++) { r = t; for (i = 1; i <= 20; i++) r = r "," (t * i); print r > "wide.csv" }
  print "record,name,unit,kind,description" > "wide.csv.meta"
  print "model,Wide,,," > "wide.csv.meta"
  print "column,time,s,time,time" > "wide.csv.meta"
  for (i = 1; i <= 10; i++) print "column,c" i ",m,variable," > "wide.csv.meta"
  for (i = 1; i <= 10; i++) print "column,f" i ",N,variable," > "wide.csv.meta"
  for (i = 1; i <= 12; i++) print "state,c" i ",m,state," > "wide.csv.meta"
}'
all=$(head -n 1 wide.csv | cut -d, -f2- )

# --vars with all 20: 8 in m, 8 in N, the other 4 named
plot 0 wide.csv --vars "$all" -o all.svg
expect_in "$work/err" "lmdlc: warning: left out 4 columns (a plot has at most 4 panels, one per unit, of 8 curves each): c9, c10, f9, f10; draw them in another plot with --vars"
keys all.svg
[ "$(tr '\n' , <"$work/keys")" = "c1,c2,c3,c4,c5,c6,c7,c8,f1,f2,f3,f4,f5,f6,f7,f8," ] ||
  { cat "$work/keys"; fail "not the first 8 of each unit"; }
[ "$(grep -c '^ylabel' "$work/texts")" = 2 ] || fail "two panels expected"

# the default: the states (c1..c10; c11 and c12 are no columns), 8 drawn
plot 0 wide.csv -o states.svg
expect_in "$work/err" "lmdlc: note: drawing the states of Wide: c1, c2, c3, c4, c5, c6, c7, c8; --vars chooses others"
expect_in "$work/err" "left out 2 columns (a plot has at most 4 panels, one per unit, of 8 curves each): c9, c10"

# five units: four panels, the fifth unit's column left out
printf '%s\n' time,a,b,c,d,e 0,1,2,3,4,5 1,2,3,4,5,6 >units.csv
{ echo record,name,unit,kind,description; echo column,time,s,time,time
  echo column,a,m,variable,; echo column,b,N,variable,; echo column,c,V,variable,
  echo column,d,A,variable,; echo column,e,W,variable,; } >units.csv.meta
plot 0 units.csv --vars a,b,c,d,e -o units.svg
expect_in "$work/err" "left out 1 column (a plot has at most 4 panels, one per unit, of 8 curves each): e; draw it in another plot with --vars"
svg_text units.svg
[ "$(grep -c '^ylabel' "$work/texts")" = 4 ] || fail "four panels expected"

# no RESULTS.meta: one panel, the first 8 columns, the other 12 named
rm wide.csv.meta
plot 0 wide.csv -o plain.svg
expect_in "$work/err" "lmdlc: note: drawing the columns (without RESULTS.meta the states are not known): c1, c2, c3, c4, c5, c6, c7, c8; --vars chooses others"
expect_in "$work/err" "left out 12 columns (a plot has at most 4 panels, one per unit, of 8 curves each): c9, c10, f1, f2, f3, f4, f5, f6, f7, f8 and 2 more"
keys plain.svg
[ "$(wc -l <"$work/keys")" = 8 ] || fail "8 curves expected"

# a real model with 14 columns and 3 units: every column fits
sim tests/e2e/mass_spring.lmdl ms
./ms --stop-time 0.2 -o ms.csv || fail "simulator"
plot 0 ms.csv --vars "$(head -n 1 ms.csv | cut -d, -f2-)" -o ms.svg
[ -s "$work/err" ] && { cat "$work/err"; fail "13 columns in 3 units should all fit"; }
keys ms.svg
[ "$(wc -l <"$work/keys")" = 13 ] || fail "13 curves expected"
echo ok
