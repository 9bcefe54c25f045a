#!/bin/sh
# events.sh - the discrete part (events, mode charts, delays) in FMUs, against lmdlc run:
#
#  - ImpactStop (tests/validation/impact_stop.lmdl): a mode chart whose
#    impact mode resets the velocity (v -> -e v).  Co-Simulation steps with
#    the simulator's runtime, so at the simulator's output times and
#    tolerances it reproduces `lmdlc run`: the same events (the relations'
#    and the chart's `mc` entries) at the same times to 1e-12 s, every row
#    to 1e-12 of (1 + |value|), the chart's mode (`stop.mc`, an event
#    variable, a variability="discrete" Integer FMU variable, read with
#    fmi2GetInteger) included.  Model Exchange (the
#    importer's RK4 at 1e-5 s, events by bisection to 1e-13 s, then
#    fmi2NewDiscreteStates, which applies the reset and says the states
#    changed) against `lmdlc run --rtol 1e-10 --atol 1e-13`: the same
#    events within 1e-6 s, the rows within 1e-6.  An FMU state taken
#    between two impacts holds the event variables (the mode): going on
#    from it again gives the same rows, bitwise (fmu_test state).
#  - SampleHold (tests/validation/sample_hold.lmdl): event variables
#    assigned by when clauses (initialevent, edge()), the same checks.
#  - TransportDelay (tests/validation/delay.lmdl, DelayBlocks): delays in
#    Co-Simulation to 1e-12, and their histories in the FMU state: going
#    on from a state taken at 1.5 s, and from its serialized copy, gives
#    the same rows bitwise (Co-Simulation and Model Exchange), and a
#    state whose delay tail is cut short or holds a NaN is refused.
. "$(dirname "$0")/lib.sh"
v=$root/tests/validation
check() { # NAME MODEL STOP VARS H [--top TOP]
  name=$1 model=$2 stop=$3 vars=$4 h=$5
  shift 5
  fmu "$model" "$work/$name.fmu" "$@"
  "$LMDLC" run "$model" "$@" --stop-time "$stop" --quiet --vars "$vars" \
    --events "$work/run.ev" -o "$work/run.csv" || fail "lmdlc run $name"
  "$FMU_TEST" "$work/$name.fmu" cs --stop "$stop" --vars "$vars" --events "$work/fmu.ev" \
    >"$work/fmu.csv" || fail "fmu_test cs $name"
  dt=$(awk -v t="$stop" 'BEGIN { printf "%.17g", t / 500 }')
  echo "$name, Co-Simulation:"
  event_times "$work/run.ev" "$work/fmu.ev" 1e-12
  same_rows "$work/run.csv" "$work/fmu.csv" 1e-12 "$dt"
  [ "$h" = - ] && return 0
  "$LMDLC" run "$model" "$@" --stop-time "$stop" --rtol 1e-10 --atol 1e-13 --quiet \
    --vars "$vars" --events "$work/run.ev" -o "$work/run.csv" || fail "lmdlc run $name"
  "$FMU_TEST" "$work/$name.fmu" me --stop "$stop" --h "$h" --vars "$vars" \
    --events "$work/fmu.ev" >"$work/fmu.csv" 2>"$work/fmu.err" ||
    fail "fmu_test me $name: $(cat "$work/fmu.err")"
  echo "$name, Model Exchange:"
  event_times "$work/run.ev" "$work/fmu.ev" 1e-6
  same_rows "$work/run.csv" "$work/fmu.csv" 1e-6 "$dt"
}
# fmu() takes no --top: a wrapper that passes it on
fmu() {
  out=$2 model=$1
  shift 2
  "$LMDLC" fmu "$model" "$@" -o "$out" || fail "lmdlc fmu $model"
}
check impact "$v/impact_stop.lmdl" 2 m.x,m.v,stop.mc,stop.f 1e-5
grep -q ": stop: 'mc' became impact" "$work/fmu.ev" || fail "no impact logged by the FMU"
"$FMU_TEST" "$work/impact.fmu" state --stop 2 --at 0.9 >"$work/state.out" 2>&1 ||
  { cat "$work/state.out"; fail "fmu_test state impact"; }
check samplehold "$v/sample_hold.lmdl" 1 x,sh.Y,sh.y_held 1e-4
check delay "$v/delay.lmdl" 3 z,d.y,ds.y - --top DelayBlocks
md() { # FMU: its modelDescription.xml on stdout
  /usr/bin/python3 -c 'import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read("modelDescription.xml").decode())' "$1"
}
md "$work/delay.fmu" | grep -q 'canGetAndSetFMUstate="true"' ||
  fail "an FMU with delay() has no FMU states"
md "$work/impact.fmu" | grep -A1 'name="stop.mc" .*variability="discrete"' | grep -q '<Integer/>' ||
  fail "the chart's mode is not a discrete Integer variable: $(md "$work/impact.fmu" | grep -A1 'name="stop.mc"')"
# the mode is the model's to compute: fmi2SetInteger refuses it
if "$FMU_TEST" "$work/impact.fmu" cs --stop 0.1 --set stop.mc=2 >"$work/set.out" 2>&1; then
  fail "fmi2SetInteger of a chart's mode succeeded"
fi
grep -q "is a mode chart's mode, which the model computes: it cannot be set" "$work/set.out" ||
  fail "fmi2SetInteger of stop.mc: $(cat "$work/set.out")"
# the delays' histories are part of the FMU state: going on from a state
# taken at 1.5 s gives the same rows, bitwise; a tail cut short or a NaN
# sample is refused
"$FMU_TEST" "$work/delay.fmu" state --stop 3 --at 1.5 --vars z,d.y,ds.y --delays 1 \
  >"$work/state.out" 2>&1 || { cat "$work/state.out"; fail "fmu_test state delay"; }
cat "$work/state.out"
echo PASS
