#!/bin/sh
# Intermediates are not CSV columns by default but --vars logs them:
# x = 0.5 cos(2 t), energy = 0.5 J, acc = -4 x, xs = 2 x, vs = 3 v.
. "$(dirname "$0")/lib.sh"
build intermediates.lmdl sim
"$work/sim" --stop-time 1 --output-step 0.1 -o "$work/plain.csv" || fail "simulator"
[ "$(head -1 "$work/plain.csv")" = "time,osc.x,osc.v" ] || fail "default header: $(head -1 "$work/plain.csv")"
"$work/sim" --stop-time 3 --output-step 0.1 --rtol 1e-10 --atol 1e-12 \
    --vars osc.energy,osc.x,osc.acc,osc.xs,osc.vs,osc.v -o "$work/out.csv" || fail "simulator"
[ "$(head -1 "$work/out.csv")" = "time,osc.energy,osc.x,osc.acc,osc.xs,osc.vs,osc.v" ] \
  || fail "header: $(head -1 "$work/out.csv")"
# tolerance 1e-7 (x) and 1e-7 J
check "$work/out.csv" '
  if (abs(v("osc.x") - 0.5 * cos(2 * t)) > 1e-7) { bad = 1; why = "x at t=" t }
  if (abs(v("osc.energy") - 0.5) > 1e-7) { bad = 1; why = "energy at t=" t ": " v("osc.energy") }
  if (abs(v("osc.acc") + 4 * v("osc.x")) > 1e-9) { bad = 1; why = "acc at t=" t }
  if (abs(v("osc.xs") - 2 * v("osc.x")) > 1e-12) { bad = 1; why = "xs at t=" t }
  if (abs(v("osc.vs") - 3 * v("osc.v")) > 1e-12) { bad = 1; why = "vs at t=" t }'
"$work/sim" --vars osc.enrgy -o "$work/no.csv" 2>"$work/err" && fail "misspelt column accepted"
grep -qF "unknown column 'osc.enrgy'; did you mean 'osc.energy'?" "$work/err" || { cat "$work/err"; fail "no suggestion"; }
echo ok
