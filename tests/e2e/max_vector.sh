#!/bin/sh
# max and min over a vector: a left fold repeated each
# partial result in the next one's condition and branch, so `max(r)` of
# 20 elements printed 16.8 MB and 40 never finished.  Now parameters fold
# with fmax/fmin (no zero crossing) and variables pair in a balanced tree
# that the printer shows as max(a, b), so N = 40 and N = 200 compile to
# output linear in N (bounded here), with the right values: the
# parameters' extremes (both N), and, simulated at N = 40, max and min of
# N phase-shifted sines, whose crossings are events, against the values
# computed here, and the parameters' after --param.
. "$(dirname "$0")/lib.sh"
for n in 40 200; do
  sed "s/N = 40;/N = $n;/" "$here/max_vector.lmdl" >"$work/max$n.lmdl"
  "$LMDLC" flatten "$work/max$n.lmdl" >"$work/flat$n.txt" || fail "flatten N = $n"
  size=$(wc -c <"$work/flat$n.txt")
  [ "$size" -lt $((n * 2000)) ] || fail "flatten N = $n prints $size bytes"
  grep -q "^  top = $n  := fmax(fmax(" "$work/flat$n.txt" || fail "top: $(grep top "$work/flat$n.txt" | cut -c1-100)"
  grep -q "^  bottom = -2 m  := fmin(fmin(" "$work/flat$n.txt" || fail "bottom"
  "$LMDLC" check "$work/max$n.lmdl" | grep -q "zero-crossing relations:  $((2 * n))$" \
    || fail "N = $n: not 2 N relations: $("$LMDLC" check "$work/max$n.lmdl")"
  "$LMDLC" emit-c "$work/max$n.lmdl" -o "$work/max$n.c" || fail "emit-c N = $n"
  size=$(wc -c <"$work/max$n.c")
  [ "$size" -lt $((n * 3000)) ] || fail "emit-c N = $n writes $size bytes"
  # the simulator of N = 200 takes seconds to compile: N = 40 runs
  [ "$n" = 40 ] || continue
  "$LMDLC" build "$work/max$n.lmdl" -o "$work/sim$n" || fail "build N = $n"
  "$work/sim$n" --stop-time 7 --output-step 0.05 -o "$work/out$n.csv" || fail "run N = $n"
  check "$work/out$n.csv" "
    pi = atan2(0, -1); h = -2; l = 2
    for (i = 1; i <= $n; i++) { s = sin(t + 2 * pi * i / $n); if (s > h) h = s; if (s < l) l = s }
    m = v(\"y(1)\"); if (v(\"y(2)\") > m) m = v(\"y(2)\"); if (m < 0.5) m = 0.5
    if (abs(v(\"hi\") - h) > 1e-9) { bad = 1; why = \"hi at t = \" t \": \" v(\"hi\") \" want \" h }
    if (abs(v(\"lo\") - l) > 1e-9) { bad = 1; why = \"lo at t = \" t \": \" v(\"lo\") \" want \" l }
    if (abs(v(\"mixed\") - m) > 1e-9) { bad = 1; why = \"mixed at t = \" t \": \" v(\"mixed\") \" want \" m }"
  check "$work/out$n.csv" "
    if (v(\"ptop\") != $n || v(\"pbottom\") != -2) { bad = 1; why = \"ptop, pbottom: \" \$0 }"
  # fmax and fmin in the simulator, after --param
  "$work/sim$n" --stop-time 0 --param 'r(3)=1000' --param 'r(1)=1.5' -o "$work/p$n.csv" \
    || fail "--param N = $n"
  check "$work/p$n.csv" "
    if (v(\"ptop\") != 1000 || v(\"pbottom\") != -2.25) { bad = 1; why = \"ptop, pbottom: \" \$0 }"
done
echo ok
