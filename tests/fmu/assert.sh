#!/bin/sh
# assert.sh - an assert failing mid-run (tests/e2e/lever_mass.lmdl: the
# lever's model-1 assert, |length_P13| = 1.5 t^2 passes r12 + r23 = 0.3 m
# at t = sqrt(0.2) = 0.44721 s).
#
# Co-Simulation, stepped at 0.01 s: fmi2DoStep returns fmi2Discard,
# fmi2GetBooleanStatus(fmi2Terminated) is true, the variables can still be
# read, a further step is refused, and fmi2LastSuccessfulTime is the time
# the simulator reports for the same failure (`lmdlc run`, to its 10
# digits); the assert's message and place are logged.  An assertion's
# condition is a zero crossing, located in time: both runs use rtol 1e-10
# (atol 1e-13), where both find sqrt(0.2) to 1e-9, so their step
# sequences (the FMU's first step follows its stop time, the simulator's
# its output step) do not show in the 10 digits.  Model Exchange
# with RK4 steps of 1e-4 s: fmi2CompletedIntegratorStep sets
# terminateSimulation at the first step past sqrt(0.2), with the message.
. "$(dirname "$0")/lib.sh"
model=$root/tests/e2e/lever_mass.lmdl
fmu "$model" "$work/lm.fmu"
"$LMDLC" run "$model" --stop-time 1 --output-step 0.01 --rtol 1e-10 --atol 1e-13 \
  -o /dev/null 2>"$work/run.err"
[ $? = 3 ] || fail "lmdlc run did not fail"
t_run=$(sed -n 's/.* at t = \([0-9.e+-]*\): assertion failed.*/\1/p' "$work/run.err")
awk -v t="$t_run" 'BEGIN { d = t - sqrt(0.2); exit !(d < 1e-9 && d > -1e-9) }' ||
  fail "lmdlc run: the assert fails at $t_run, not at sqrt(0.2)"
"$FMU_TEST" "$work/lm.fmu" assert --stop 1 --step 0.01 --h 1e-4 --tol 1e-10 >"$work/out" || {
  cat "$work/out"; fail "fmu_test assert"; }
cat "$work/out"
grep -q "^cs terminated at $t_run: .*Lever.lmdl:[0-9]*:[0-9]*: error: .*very large angle" \
  "$work/out" || fail "CS: not terminated at t = $t_run with the assert's message"
awk '/^me terminated at/ { t = $4 + 0; s = sqrt(0.2)
       if (!(t >= s && t <= s + 1e-4 + 1e-12) || $0 !~ /very large angle/) exit 1; ok = 1 }
     END { exit !ok }' "$work/out" || fail "ME: not terminated right after sqrt(0.2) with the message"
echo PASS
