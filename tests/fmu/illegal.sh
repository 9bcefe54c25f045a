#!/bin/sh
# illegal.sh - calls the standard does not allow, and bad arguments.
#
# fmu_test's `illegal` mode (see fmu_test.c, run_illegal) calls, on the
# wall-contact FMU: fmi2DoStep and fmi2GetReal before initialization,
# Model Exchange functions on a Co-Simulation instance and the reverse,
# initialization functions twice, out-of-range value references, NULL
# arrays, setting a computed variable, a tunable parameter in
# continuous-time mode, a value the model's asserts refuse (wall3.stiffness
# = -1: the assert's message is logged and the old value stays), a
# structural parameter, NaN, a communication point that is not the FMU's
# time, fmi2CancelStep, input derivatives, a bogus FMU state, calls after
# fmi2Terminate and fmi2Reset, after fmi2FreeInstance (and
# fmi2FreeInstance twice), NULL and stray instance pointers, and refused
# instantiations (wrong GUID, no callbacks, no name, unknown type).  Each
# must return the standard's status with a message logged; the instance
# stays usable after refused calls.  Under the ASan build nothing may touch
# freed or invalid memory.
. "$(dirname "$0")/lib.sh"
fmu "$wall" "$work/wall.fmu"
"$FMU_TEST" "$work/wall.fmu" illegal >"$work/out" 2>&1; rc=$?
cat "$work/out"
[ $rc = 0 ] || fail "fmu_test illegal exited $rc"
grep -q "^ok: .*fmi2FreeInstance twice" "$work/out" || fail "the double free was not checked"
[ "$(grep -c '^ok: ' "$work/out")" -ge 40 ] || fail "fewer checks than expected"
echo PASS
