#!/bin/sh
# lmdlc plot's command line: --help (exit 0), an unknown image format
# refused with the list (exit 1, nothing written), unknown columns and
# options with "did you mean" (exit 1), and an output that is one of the
# inputs (the results file or its RESULTS.meta, by name or through a
# link) refused (exit 1) without changing it.
. "$(dirname "$0")/lib.sh"
cd "$work" || exit 1
sim tests/e2e/mass_spring.lmdl ms
./ms --stop-time 0.5 -o out.csv || fail "simulator"
cp out.csv keep.csv
cp out.csv.meta keep.csv.meta

plot 0 --help
expect_in "$work/out" "usage: lmdlc plot RESULTS.csv [--vars A,B,...] -o OUT.png|OUT.svg|OUT.pdf"
expect_in "$work/out" "RESULTS.csv.meta"
plot 0 out.csv -h

# image formats: png, svg and pdf only, in any case
for out in x.jpg x.jpeg x.gif x noext. x.png.txt; do
  plot 1 out.csv -o "$out"
  expect_in "$work/err" "lmdlc: error: cannot tell the format of '$out': its extension must be .png, .svg or .pdf"
  [ -e "$out" ] && fail "$out was written"
done
plot 0 out.csv -o X.SVG
grep -q "<svg" X.SVG || fail "X.SVG is no SVG"

# unknown columns: each one named, with a suggestion when one is close
plot 1 out.csv --vars mass.xx,mas.v,nosuchthing -o bad.png
expect_in "$work/err" "lmdlc: error: 'out.csv' has no column 'mass.xx'; did you mean 'mass.x'?"
expect_in "$work/err" "lmdlc: error: 'out.csv' has no column 'mas.v'; did you mean 'mass.v'?"
expect_in "$work/err" "lmdlc: error: 'out.csv' has no column 'nosuchthing'"
[ -e bad.png ] && fail "bad.png written for unknown columns"
# the last part of a name, when only one column ends in it
printf '%s\n' 'time,lever.theta,inertia.w' '0,1,2' >l.csv
plot 1 l.csv --vars theta -o l.png
expect_in "$work/err" "has no column 'theta'; did you mean 'lever.theta'?"
plot 1 out.csv --vars time -o t.png
expect_in "$work/err" "has no column 'time' to draw: time is the x axis"

# options
plot 1 out.csv --var mass.x -o o.png
expect_in "$work/err" "lmdlc: unknown option '--var'; did you mean '--vars'?"
plot 1 out.csv
expect_in "$work/err" "plot needs -o FILE.png, FILE.svg or FILE.pdf"
plot 1 -o x.png
expect_in "$work/err" "plot needs RESULTS.csv"
plot 1 out.csv -o
plot 1 out.csv other.csv -o x.png
plot 0 out.csv --vars=mass.x -o eq.png

# an output that is an input
ln out.csv hard.png
ln -s out.csv soft.svg
ln -s out.csv.meta meta.pdf
for out in out.csv ./out.csv out.csv.meta hard.png soft.svg meta.pdf; do
  plot 1 out.csv -o "$out"
  expect_in "$work/err" "lmdlc: error: refusing to write '$out'"
  cmp -s out.csv keep.csv || fail "-o $out changed the results"
  cmp -s out.csv.meta keep.csv.meta || fail "-o $out changed RESULTS.meta"
done
[ -L soft.svg ] && [ -L meta.pdf ] || fail "a link was replaced"
if ls -A | grep -q '^\.'; then fail "a temporary file was left: $(ls -A | grep '^\.')"; fi
echo ok
