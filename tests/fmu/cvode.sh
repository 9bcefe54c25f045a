#!/bin/sh
# cvode.sh - Co-Simulation of a large model chooses CVODE as the
# simulator does (from 64 states, with the Jacobian's sparsity), so
# stepped at the simulator's output times with the same tolerances the
# FMU reproduces `lmdlc run` (which also chose CVODE) to 1e-12 of
# (1 + |value|); msbdf would differ at the tolerance's level (1e-6).
# chain.lmdl: 40 masses and springs, 80 states.
. "$(dirname "$0")/lib.sh"
fmu "$here/chain.lmdl" "$work/chain.fmu"
vars='m(1).x,m(20).v,m(40).x,s(40).f'
"$LMDLC" run "$here/chain.lmdl" --stop-time 0.1 --quiet --vars "$vars" -o "$work/run.csv" \
  || fail "lmdlc run"
"$FMU_TEST" "$work/chain.fmu" cs --stop 0.1 --vars "$vars" >"$work/fmu.csv" || fail "fmu_test cs"
same_rows "$work/run.csv" "$work/fmu.csv" 1e-12
# and the simulator's choice was CVODE: msbdf gives other numbers
"$LMDLC" run "$here/chain.lmdl" --stop-time 0.1 --quiet --vars "$vars" --solver msbdf \
  -o "$work/msbdf.csv" || fail "lmdlc run --solver msbdf"
if (same_rows "$work/msbdf.csv" "$work/fmu.csv" 1e-12) >/dev/null 2>&1; then
  fail "the FMU's results are msbdf's too: the comparison cannot tell the solvers apart"
fi
echo PASS
