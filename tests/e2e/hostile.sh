#!/bin/sh
# Hostile names and strings: the generated C compiles and means what it
# should; the assert message comes out byte for byte.
. "$(dirname "$0")/lib.sh"
build hostile.lmdl sim
"$work/sim" --stop-time 1 --output-step 0.1 -o "$work/out.csv" 2>"$work/err"
[ $? = 3 ] || fail "expected the assert to stop the run"
grep -qF "quote \" backslash \\ close */ open /* percent %s %n newline \\n trigraph ??/ 'single'" "$work/err" \
  || fail "message not verbatim: $(cat "$work/err")"
head -1 "$work/out.csv" | grep -q "Mass.x" || fail "no column Mass.x"
# x, a, p, e, md all equal Mass.x: the names did not collide with C's
check "$work/out.csv" '
  if (abs(v("x") - v("Mass.x")) > 1e-12 || abs(v("md") - v("Mass.x")) > 1e-12) { bad = 1; why = "t=" t }'
echo ok
