#!/bin/sh
# A mode chart whose reset reads tablelookup of an event variable
# (v == -e*tablelookup(xd, fd, v_before)*v_before): lmdlc check once
# crashed on it (the evar substitution lacked the table's nodes). At the
# first impact, t1 = sqrt(2/9.81), v after = -f(v_before) v_before with f
# the table's linear interpolant, computed here (within 1e-9).
. "$(dirname "$0")/lib.sh"
"$LMDLC" check "$here/table_ball.lmdl" > "$work/check" || fail "lmdlc check: $(cat "$work/check")"
build table_ball.lmdl sim
"$work/sim" --stop-time 1.5 --rtol 1e-10 --atol 1e-12 --events "$work/ev.csv" -o "$work/out.csv" \
  || fail "simulation"
awk -F, 'NR > 1 && $3 == "mc" && $4 == "impact" { print $1; exit }' "$work/ev.csv" > "$work/t1"
awk -v t="$(cat "$work/t1")" 'BEGIN { e = t - sqrt(2 / 9.81); exit !(e < 1e-9 && e > -1e-9) }' \
  || fail "first impact at $(cat "$work/t1")"
# the two rows at the first impact: v before, then -f(v) v after
awk -F, -v t1="$(cat "$work/t1")" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $1 == t1 { v[++n] = $c["v"] }
  END {
    vb = v[1]; f = 0.7 + 0.1 * (vb + 5) / 5;   # between (-5, 0.7) and (0, 0.8)
    d = v[2] + f * vb
    exit !(n == 2 && vb < -4 && vb > -5 && d < 1e-9 && d > -1e-9) }' "$work/out.csv" \
  || fail "reset rows: $(grep "^$(cat "$work/t1")," "$work/out.csv")"
echo ok
