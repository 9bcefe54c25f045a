#!/bin/sh
# Axis labels carry the units of RESULTS.meta, one panel per unit, under
# a title with the model's name; without --vars the states are drawn and
# stderr says which; without RESULTS.meta (results on standard output)
# the plot says it has no units; a RESULTS.meta of another run is not used.
. "$(dirname "$0")/lib.sh"
cd "$work" || exit 1
sim tests/e2e/mass_spring.lmdl ms
./ms --stop-time 1 -o out.csv || fail "simulator"

# the default: the states, one panel each (m and m/s)
plot 0 out.csv -o states.svg
expect_in "$work/err" "lmdlc: note: drawing the states of MassSpring: mass.x, mass.v; --vars chooses others"
svg_text states.svg
has "text	MassSpring (out.csv)" "ylabel	position [m]" "ylabel	velocity [m/s]" \
    "text	mass.x" "text	mass.v" "text	time [s]"
[ "$(grep -c '^ylabel' "$work/texts")" = 2 ] || fail "two panels expected"
only_lmdlc_messages

# three units, three panels, in the order of --vars; the y label is the
# curves' common description, else the unit's quantity
plot 0 out.csv --vars mass.x,spring.f,base.f,mass.v,spring.B.x -o three.svg
svg_text three.svg
has "ylabel	position [m]" "ylabel	force [N]" "ylabel	velocity [m/s]"
[ "$(grep -c '^ylabel' "$work/texts")" = 3 ] || fail "three panels expected"
grep '^ylabel' "$work/texts" | tr '\n' '|' | grep -qxF 'ylabel	position [m]|ylabel	force [N]|ylabel	velocity [m/s]|' ||
  fail "panels not in the order of --vars"
[ -s "$work/err" ] && { cat "$work/err"; fail "--vars with units: nothing to say"; }

# one unit: one panel
plot 0 out.csv --vars base.f,mass.f -o one.svg
svg_text one.svg
[ "$(grep -c '^ylabel' "$work/texts")" = 1 ] || fail "one panel expected"
has "ylabel	force [N]"

# PNG and PDF too
plot 0 out.csv -o states.png
head -c 8 states.png | od -c | grep -q "P   N   G" || fail "not a PNG"
plot 0 out.csv -o states.PDF
head -c 5 states.PDF | grep -q "%PDF-" || fail "not a PDF"

# results on standard output: no RESULTS.meta, no units, and it says so
./ms --stop-time 1 >plain.csv || fail "simulator to stdout"
[ -e plain.csv.meta ] && fail "a RESULTS.meta for standard output"
plot 0 plain.csv --vars mass.x,mass.v -o plain.svg
expect_in "$work/err" "lmdlc: note: no units: 'plain.csv.meta' is missing"
svg_text plain.svg
grep -q '^ylabel' "$work/texts" && fail "a unit without RESULTS.meta"
has "text	plain.csv"

# a RESULTS.meta left by another run (other columns) is not used
./ms --stop-time 1 --vars mass.v -o other.csv || fail "simulator --vars"
cp out.csv.meta other.csv.meta
plot 0 other.csv -o other.svg
expect_in "$work/err" "'other.csv.meta' describes other columns"

# no states: the top-level outputs; neither: every column (each one said)
printf '%s\n' time,a,y 0,1,2 1,2,3 >alg.csv
printf '%s\n' record,name,unit,kind,description model,Alg,,, column,time,s,time,time \
  column,a,m,variable, column,y,V,output, >alg.csv.meta
plot 0 alg.csv -o alg.svg
expect_in "$work/err" "lmdlc: note: drawing the top-level output of Alg: y; --vars chooses others"
sed -i 's/,output,/,variable,/' alg.csv.meta
plot 0 alg.csv -o alg.svg
expect_in "$work/err" "lmdlc: note: drawing the columns (the model has no states or outputs) of Alg: a, y; --vars chooses others"
echo ok
