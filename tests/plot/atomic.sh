#!/bin/sh
# The image is written atomically: a plot that fails (an unknown column,
# gnuplot failing half way, a signal, gnuplot missing, a bad row) leaves
# the previous image as it was and no temporary file; a symbolic link at
# the output's name is replaced, not followed.  gnuplot prints no warning,
# also for constant columns and a single row.
. "$(dirname "$0")/lib.sh"
cd "$work" || exit 1
umask 022
sim tests/e2e/mass_spring.lmdl ms
./ms --stop-time 0.5 -o out.csv || fail "simulator"
plot 0 out.csv -o p.png
cp p.png keep.png
no_temporaries() {
  if ls -A | grep -q '^\.'; then fail "$1: a temporary file was left: $(ls -A | grep '^\.')"; fi
}

plot 1 out.csv --vars nosuch -o p.png
cmp -s p.png keep.png || fail "a refused plot changed p.png"

# a gnuplot that writes half an image and fails
mkdir bin
cat >bin/gnuplot <<'SH'
#!/bin/sh
cat >/dev/null
printf 'half an image'
exit 1
SH
chmod +x bin/gnuplot
PATH="$work/bin:$PATH" plot 2 out.csv -o p.png
expect_in "$work/err" "lmdlc: error: gnuplot failed to draw 'p.png'"
cmp -s p.png keep.png || fail "a failed gnuplot changed p.png"
no_temporaries "failed gnuplot"

# interrupted (SIGTERM) while gnuplot draws: no temporary file is left
cat >bin/gnuplot <<'SH'
#!/bin/sh
echo $$ >"$GP_PID"
cat >/dev/null
printf 'half an image'
exec sleep 5
SH
GP_PID=$work/gp.pid PATH="$work/bin:$PATH" "$LMDLC" plot out.csv -o p.png 2>/dev/null &
lmdlc=$!
i=0
while [ ! -s gp.pid ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
sleep 0.2
kill -TERM $lmdlc
wait $lmdlc 2>/dev/null
status=$?
kill "$(cat gp.pid)" 2>/dev/null
[ $status = 143 ] || fail "interrupted plot: exit $status, expected 143 (SIGTERM)"
cmp -s p.png keep.png || fail "an interrupted plot changed p.png"
rm -f gp.pid
no_temporaries "interrupted plot"

# no gnuplot at all
rm bin/gnuplot
PATH="$work/bin" plot 2 out.csv -o p.png
expect_in "$work/err" "lmdlc: error: cannot run gnuplot"
cmp -s p.png keep.png || fail "a missing gnuplot changed p.png"
no_temporaries "missing gnuplot"

# a row that is not numbers
{ cat out.csv; echo "0.6,1,2,oops,4,5,6,7,8,9,10,11,12,13"; } >bad.csv
plot 1 bad.csv -o p.png
expect_in "$work/err" "lmdlc: error: bad.csv:"
expect_in "$work/err" "not a number: 'oops'"
cmp -s p.png keep.png || fail "a bad row changed p.png"
{ cat out.csv; echo "0.6,1,2"; } >short.csv
plot 1 short.csv -o p.png
expect_in "$work/err" "3 fields, but the header has 14"
# an unfinished last line (a run killed while writing) is left out
{ cat out.csv; printf '0.6,1,2'; } >cut.csv
plot 0 cut.csv -o cut.png
expect_in "$work/err" "ignoring the unfinished last line"
# a header only
head -n 1 out.csv >empty.csv
plot 1 empty.csv -o p.png
expect_in "$work/err" "has no rows to draw"
no_temporaries "bad rows"

# a link at the output's name is replaced by the image
echo victim >victim
ln -s victim link.png
plot 0 out.csv -o link.png
[ -L link.png ] && fail "link.png is still a link"
[ "$(cat victim)" = victim ] || fail "the plot wrote through a link"
head -c 8 link.png | od -c | grep -q "P   N   G" || fail "link.png is not a PNG"
ls -l p.png | grep -q '^-rw-r--r--' || { umask; ls -l p.png; fail "p.png's mode is not 0666 less the umask"; }

# no gnuplot warnings: constant columns (base.P.x is 0) and a single row
plot 0 out.csv --vars base.P.x,base.P.v,mass.x -o const.png
only_lmdlc_messages
./ms --stop-time 0 -o one.csv || fail "simulator, one row"
[ "$(wc -l <one.csv)" = 2 ] || fail "one.csv has not one row"
plot 0 one.csv -o one.svg
only_lmdlc_messages
svg_text one.svg
has "text	mass.x"
echo ok
