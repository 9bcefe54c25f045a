#!/bin/sh
# instances.sh - two instances of one FMU in one process are independent.
#
# fmu_test's `two` mode runs a Co-Simulation instance with the defaults
# and one with F3 = 5, each alone, then both side by side (a step of
# each in turn, one shared object): each side-by-side run gives the same
# rows as its run alone, bit for bit, and the two differ from each other.
. "$(dirname "$0")/lib.sh"
fmu "$wall" "$work/wall.fmu"
"$FMU_TEST" "$work/wall.fmu" two --stop 0.1 --set2 F3=5 \
  --vars lever.R.theta,inertia.w,wall1.f,wall3.f || fail "fmu_test two"
echo PASS
