#!/bin/sh
# modelex.sh - Model Exchange of the wall-contact FMU against lmdlc run.
#
# The importer (fmu_test.c) integrates with its own classical RK4 at a
# fixed step of 1e-5 s, finds events by bisection on the FMU's event
# indicators to 1e-13 s and handles them with fmi2EnterEventMode and
# fmi2NewDiscreteStates.  The reference is `lmdlc run --rtol 1e-10 --atol
# 1e-13`.  Checks: the same events (which wall, which relation, which
# value) with the contact time within 1e-6 s (measured 2e-11 s; the third
# event 2.3e-10 s), and every row of the states and wall forces within
# 1e-6 of (1 + |value|) (measured about 1e-8 on the states; a wall force
# of 300 N near an event is the largest).  The defaults, and F3 = 5.
. "$(dirname "$0")/lib.sh"
fmu "$wall" "$work/wall.fmu"
vars=lever.R.theta,inertia.w,lever.T1.x,lever.T3.x
for case in default F3=5; do
  if [ "$case" = default ]; then set --; param=; else set -- --set "$case"; param="--param $case"; fi
  # shellcheck disable=SC2086
  "$LMDLC" run "$wall" --stop-time 0.1 --rtol 1e-10 --atol 1e-13 --quiet --vars "$vars" \
    $param --events "$work/run.ev" -o "$work/run.csv" || fail "lmdlc run ($case)"
  "$FMU_TEST" "$work/wall.fmu" me --stop 0.1 --h 1e-5 --vars "$vars" --events "$work/fmu.ev" \
    "$@" >"$work/fmu.csv" 2>"$work/fmu.err" || fail "fmu_test me ($case): $(cat "$work/fmu.err")"
  echo "$case:"
  event_times "$work/run.ev" "$work/fmu.ev" 1e-6
  same_rows "$work/run.csv" "$work/fmu.csv" 1e-6
done
head -1 "$work/fmu.ev" | grep -q ": wall1: 'penetration > 0' became true" \
  || fail "F3 = 5: the first event is not wall1's contact: $(head -1 "$work/fmu.ev")"
echo PASS
