#!/bin/sh
# Names are drawn as they are written, never read as gnuplot markup or
# commands: length_P13 is no subscript, ^ { } @ quotes and backquotes stay
# literal, a line break becomes '?', and a name built to close gnuplot's
# string and run a command runs nothing.  The same for RESULTS.meta's
# model name and units.  Every SVG is well-formed XML.
. "$(dirname "$0")/lib.sh"
cd "$work" || exit 1

# A model's own name with an underscore: the library lever's length_P13.
sim examples/mechanical_advantage/class1.lmdl class1
./class1 --stop-time 1 --output-step 0.5 -o c1.csv || fail "class1"
plot 0 c1.csv --vars lever.length_P13,lever.length_P12 -o c1.svg
svg_text c1.svg
has "text	lever.length_P13" "text	lever.length_P12" \
    "text	MechanicalAdvantageClass1 (c1.csv)" "ylabel	length [m]"
only_lmdlc_messages

# A hand-made results file whose header holds every troublesome name.
cat >h.csv <<'CSV'
time,length_P13,a^2,{x}_1,@m,"it's","say ""hi""","two
lines","x'; system 'touch PWNED1'; '",`touch PWNED2`,"semi;colon
set output 'PWNED3'",back\slash
0,1,2,3,4,5,6,7,8,9,10,11
1,2,3,4,5,6,7,8,9,10,11,12
CSV
plot 0 h.csv --vars 'length_P13,a^2,{x}_1,@m,it'"'"'s,say "hi",`touch PWNED2`,back\slash' -o h.svg
svg_text h.svg
has "text	length_P13" "text	a^2" "text	{x}_1" "text	@m" "text	it's" \
    'text	say "hi"' 'text	`touch PWNED2`' 'text	back\slash' "text	h.csv"
# without --vars: the first 8 columns, the rest named as left out
plot 0 h.csv -o h2.svg
svg_text h2.svg
has "text	two?lines" "text	x'; system 'touch PWNED1'; '"
expect_in "$work/err" "left out 3 columns"
expect_in "$work/err" "semi;colon?set output 'PWNED3'"
plot 0 h.csv --vars '`touch PWNED2`,back\slash' -o h3.png
ls PWNED* >/dev/null 2>&1 && fail "a name ran a command: $(ls PWNED*)"

# RESULTS.meta written to break out: a model name and units with quotes,
# a line break and gnuplot commands.
printf '%s\n' 'time,a,b' '0,1,2' '1,2,3' >m.csv
cat >m.csv.meta <<'META'
record,name,unit,kind,description
model,"Evil'; system 'touch PWNED4'; '
set output 'PWNED5'",,,
column,time,s,time,time
column,a,"m'; system 'touch PWNED6'; '",variable,"x'; system 'touch PWNED7'"
column,b,N^2_{k},variable,
META
plot 0 m.csv -o m.svg
svg_text m.svg
has "text	Evil'; system 'touch PWNED4'; '?set output 'PWNED5' (m.csv)" \
    "ylabel	x' [m'; system 'touch PWNED6'; ']" "ylabel	[N^2_{k}]"
ls PWNED* >/dev/null 2>&1 && fail "RESULTS.meta ran a command: $(ls PWNED*)"
only_lmdlc_messages
echo ok
