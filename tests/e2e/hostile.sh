#!/bin/sh
# Hostile names and strings: the generated C compiles and means what it
# should; the assert message comes out byte for byte.  The model is read
# from a directory whose name would close a C comment (the generated C
# names source locations in comments), and the C must compile without a
# warning about it.
. "$(dirname "$0")/lib.sh"
mkdir -p "$work/x*/ /* ??" || fail mkdir
cp "$here/hostile.lmdl" "$here/mass_spring.lmdl" "$work/x*/ /* ??/" || fail cp
for m in hostile mass_spring; do
  (cd "$work" && "$LMDLC" emit-c "x*/ /* ??/$m.lmdl" -o $m.c) || fail "emit-c $m from x*/"
  "${CC:-cc}" -std=c11 -Wall -Wextra -Werror -I "$here/../../runtime" -I "$here/../../runtime/common" -c "$work/$m.c" \
    -o "$work/$m.o" || fail "the generated C of $m does not compile cleanly"
done
grep -q '/\* block 1, explicit: base.f; spring, x\* / / \* ? ?/mass_spring.lmdl:18 \*/' \
  "$work/mass_spring.c" || fail "the block's path is not in its comment, escaped"
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
