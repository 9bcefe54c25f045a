#!/bin/sh
# The issue's compound transition `free -> impact -> free : x <= 0` with
# the reset v == -e*v_before: the first bounce at t1 = sqrt(2/9.81) with
# v = -e*v(t1-) (within 1e-9), and, without a rest mode, the bounces
# accumulating at t1 (1 + 2e/(1-e)) = 4.0637 s end in the documented
# Zeno error (exit 3: two compound transitions of the chart closer than
# 1e-6 of the stop time), naming the chart and its instance, before the
# limit, never a hang; with rk8pd, msbdf and cvode at --atol 1e-14 (with
# a coarser absolute tolerance the last bounces are smaller than it and
# the integration cannot tell them from its error: runtime/README.md).
. "$(dirname "$0")/lib.sh"
build zeno_ball.lmdl sim
for solver in msbdf cvode rk8pd; do
  "$work/sim" --solver $solver --stop-time 6 --rtol 1e-10 --atol 1e-14 --events "$work/ev.csv" \
    -o "$work/out.csv" 2>"$work/err"
  [ $? = 3 ] || fail "$solver: expected exit 3, got: $(cat "$work/err")"
  grep -q "zeno_ball.lmdl:20:5: error: at t = 4.06.*: mode chart 'mc' in ZenoBall resets ever faster (the last two compound transitions .* s apart), accumulating at a finite time (a Zeno limit)" "$work/err" \
    || fail "$solver: message: $(cat "$work/err")"
  awk '{ split($0, f, "at t = "); t = f[2] + 0; exit !(t > 4.06 && t < 4.0637129) }' "$work/err" \
    || fail "$solver: failure time: $(cat "$work/err")"
done
awk -F, 'NR > 1 && $3 == "mc" && $4 == "impact" { print $1; exit }' "$work/ev.csv" > "$work/t1"
awk -v t="$(cat "$work/t1")" 'BEGIN { e = t - sqrt(2 / 9.81); exit !(e < 1e-9 && e > -1e-9) }' \
  || fail "first impact at $(cat "$work/t1")"
# the two rows at the first impact: v before and -0.8 v after
awk -F, -v t1="$(cat "$work/t1")" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $1 == t1 { v[++n] = $c["v"] }
  END { d = v[2] + 0.8 * v[1]; exit !(n == 2 && d < 1e-9 && d > -1e-9 && v[1] < -4) }' "$work/out.csv" \
  || fail "reset rows: $(grep "^$(cat "$work/t1")," "$work/out.csv")"
echo ok
