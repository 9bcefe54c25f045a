#!/bin/sh
# cosim.sh - Co-Simulation of the wall-contact FMU against lmdlc run.
#
# fmi2DoStep integrates with the simulator's own runtime (rt_advance), so
# stepped at the simulator's output times, with the same tolerances, the
# FMU reproduces `lmdlc run`: the same events (instance, condition, value)
# at the same times to 1e-12 s, and every row of the states to 1e-12 of
# (1 + |value|).  (Measured: equal to the last digit.)  The defaults, and
# F3 = 5 set in initialization mode, which makes the other end (wall1)
# touch, against --param F3=5.
. "$(dirname "$0")/lib.sh"
fmu "$wall" "$work/wall.fmu"
vars=lever.R.theta,inertia.w,lever.T1.x,lever.T3.x,wall1.f,wall3.f
for case in default F3=5; do
  if [ "$case" = default ]; then set --; param=; else set -- --set "$case"; param="--param $case"; fi
  # shellcheck disable=SC2086
  "$LMDLC" run "$wall" --stop-time 0.1 --quiet --vars "$vars" $param \
    --events "$work/run.ev" -o "$work/run.csv" || fail "lmdlc run ($case)"
  "$FMU_TEST" "$work/wall.fmu" cs --stop 0.1 --vars "$vars" --events "$work/fmu.ev" "$@" \
    >"$work/fmu.csv" || fail "fmu_test cs ($case)"
  echo "$case:"
  event_times "$work/run.ev" "$work/fmu.ev" 1e-12
  same_rows "$work/run.csv" "$work/fmu.csv" 1e-12
done
# the contact with F3 = 5 is wall1's
head -1 "$work/fmu.ev" | grep -q ": wall1: 'penetration > 0' became true" \
  || fail "F3 = 5: the first event is not wall1's contact: $(head -1 "$work/fmu.ev")"
echo PASS
