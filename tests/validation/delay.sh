#!/bin/sh
# delay(u, tau) against u(t - tau), with msbdf, rk8pd and cvode:
#  - x = delay(sin t, 0.5): x(t) = sin(t - 0.5) from t = 0.5, u(0) = 0
#    before, within 1e-6 at every row (output step 0.37 s, off the steps
#    and samples); with History = 0.5, 0.5 before t = 0.5;
#  - tau = 0.5 + 0.25 sin(t) with MaximumDelay = 1: x = sin(t - tau(t))
#    within 1e-6;
#  - tau = 0.5 + 0.1 t passes MaximumDelay = 1 at t = 5: exit 3 with the
#    time (within 1e-3: the first accepted step past it), the instance,
#    the line and both values;
#  - TransportDelay (library) of a 0.5 Hz sine by 0.3 s within 1e-6, and
#    of a step at t = 1 by 0.5 s: 0 before 1.5, 1 from 1.5 on (1e-12), the jump
#    at the breakpoint 1.5 (a row there, where the steps end);
#  - x = delay(sin(w t) + off, tau) within 1e-6 for an offset sine and
#    a fast one, delays shorter and longer than the output step (measured
#    at most 8e-8 here, 3.5e-7 over 864 runs of solvers, tau, w, offset
#    and output step; 7.2e-6 and 9e-5 before the fix).
. "$(dirname "$0")/lib.sh"
for top in DelaySine DelayVariable DelayTooLong DelayBlocks DelayOffset; do
  "$LMDLC" build "$here/delay.lmdl" --top $top -o "$work/$top" || fail "build $top"
done
for solver in msbdf rk8pd cvode; do
  "$work/DelaySine" --solver $solver --stop-time 20 --output-step 0.37 -o "$work/s.csv" \
    || fail "$solver: DelaySine"
  check "$work/s.csv" '
    want = t < 0.5 ? 0 : sin(t - 0.5); wanth = t < 0.5 ? 0.5 : want
    if (abs(v("x") - want) > 1e-6) { bad = 1; why = "x at t=" t ": " v("x") ", expected " want }
    if (abs(v("xh") - wanth) > 1e-6) { bad = 1; why = "xh at t=" t ": " v("xh") ", expected " wanth }'
  "$work/DelayVariable" --solver $solver --stop-time 20 --output-step 0.37 -o "$work/v.csv" \
    || fail "$solver: DelayVariable"
  check "$work/v.csv" '
    tau = 0.5 + 0.25 * sin(t); want = t < tau ? 0 : sin(t - tau)
    if (abs(v("x") - want) > 1e-6) { bad = 1; why = "x at t=" t ": " v("x") ", expected " want }'
  "$work/DelayTooLong" --solver $solver --stop-time 10 -o /dev/null 2>"$work/err"
  [ $? = 3 ] || fail "$solver: DelayTooLong did not fail: $(cat "$work/err")"
  grep -q "delay.lmdl:[0-9]*:10: error: at t = 5.*: delay in DelayTooLong: its tau of 1.* s exceeds its MaximumDelay of 1 s" "$work/err" \
    || fail "$solver: $(cat "$work/err")"
  awk '{ split($0, f, "at t = "); t = f[2] + 0; exit !(t >= 5 && t < 5.001) }' "$work/err" \
    || fail "$solver: failure time: $(cat "$work/err")"
  "$work/DelayBlocks" --solver $solver --stop-time 4 --output-step 0.1 -o "$work/b.csv" \
    || fail "$solver: DelayBlocks"
  check "$work/b.csv" '
    want = t < 0.3 ? 0 : sin(3.141592653589793 * (t - 0.3)); step = t < 1.5 ? 0 : 1
    if (abs(v("d.y") - want) > 1e-6) { bad = 1; why = "d.y at t=" t ": " v("d.y") ", expected " want }
    if (abs(v("ds.y") - step) > 1e-12) { bad = 1; why = "ds.y at t=" t ": " v("ds.y") }'
  # tau, output step, w, offset
  for c in "0.7 0.13 2 0.3" "2.3 0.13 2 0.3" "2.3 0.37 2 0.3" "0.7 0.37 5 0" "0.3 0.13 5 0"; do
    set -- $c
    "$work/DelayOffset" --solver $solver --stop-time 10 --output-step $2 --param tau=$1 \
      --param w=$3 --param off=$4 -o "$work/o.csv" || fail "$solver: DelayOffset $c"
    check "$work/o.csv" "
      tau = $1; w = $3; off = $4
      want = off + (t < tau ? 0 : sin(w * (t - tau)))
      if (abs(v(\"x\") - want) > 1e-6) { bad = 1; why = \"$solver $c: x at t=\" t \": \" v(\"x\") \", expected \" want }"
  done
done
echo ok
