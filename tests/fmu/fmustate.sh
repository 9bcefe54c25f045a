#!/bin/sh
# fmustate.sh - fmi2GetFMUstate and fmi2SetFMUstate round trips.
#
# fmu_test's `state` mode: in Co-Simulation, takes the state at t = 0.05
# (before the contact at 0.0633), steps on to 0.1, restores the state and
# steps on again, then restores a copy made by fmi2SerializeFMUstate and
# fmi2DeSerializeFMUstate and steps on once more; in Model Exchange, the
# same with the importer's RK4 and event handling.  Every continuation
# must give the same rows, bit for bit (the events after 0.05 included).
. "$(dirname "$0")/lib.sh"
fmu "$wall" "$work/wall.fmu"
"$FMU_TEST" "$work/wall.fmu" state --stop 0.1 --at 0.05 \
  --vars lever.R.theta,inertia.w,wall3.f || fail "fmu_test state"
# a state taken in a table's third segment (t = 2.5): its segment mode
# is restored too
"$LMDLC" fmu "$here/table_state.ssc" -o "$work/table.fmu" || fail "lmdlc fmu table_state.ssc"
"$FMU_TEST" "$work/table.fmu" state --stop 4 --at 2.5 --vars x,y || fail "fmu_test state (table)"
echo PASS
