#!/bin/sh
# --steady-state: the run starts where every derivative vanishes.  A
# spring-mass-damper pushed by F = 10 N with k = 100 N/m rests at x = F/k
# = 0.1 m with v = 0, and stays there (1e-12 m); a damped free body keeps
# its start position (p = 0) with w = 0; --param F=20 moves the rest to
# 0.2 m.  A state that only integrates has no steady state: exit 3, and
# the message names its derivative.
. "$(dirname "$0")/lib.sh"
build steady_msd.lmdl msd
"$work/msd" --steady-state --stop-time 1 --output-step 0.5 -o "$work/out.csv" || fail "msd"
check "$work/out.csv" '
  if (abs(v("x") - 0.1) > 1e-12 || abs(v("v")) > 1e-12 || abs(v("p")) > 1e-15 || abs(v("w")) > 1e-15) {
    bad = 1; why = "t=" t ": " $0 }'
"$work/msd" --steady-state --param F=20 --stop-time 0 -o "$work/f20.csv" || fail "msd F=20"
check "$work/f20.csv" 'if (abs(v("x") - 0.2) > 1e-12) { bad = 1; why = "F=20: x = " v("x") }'
"$work/msd" --stop-time 0 -o "$work/plain.csv" || fail "msd without --steady-state"
check "$work/plain.csv" 'if (v("x") != 0) { bad = 1; why = "without --steady-state x starts at " v("x") }'
build steady_ramp.lmdl ramp
"$work/ramp" --steady-state -o "$work/r.csv" 2>"$work/err" && fail "a ramp has no steady state, yet the run succeeded"
[ $? -eq 3 ] || fail "exit status $? (want 3)"
grep -q 'no steady state near the initial values: der(x) stays 1 (SI)' "$work/err" \
  || fail "the message: $(cat "$work/err")"
grep -q 'der(y)' "$work/err" && fail "y has a steady state, yet it is named: $(cat "$work/err")"
echo ok
