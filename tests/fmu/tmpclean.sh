#!/bin/sh
# tmpclean.sh - fmu_test unzips each FMU into a directory of its own under
# $TMPDIR; a run that fails (a refused --set, an unknown option, a bad
# call) removes it as surely as one that passes, so failing tests leave
# nothing behind.
. "$(dirname "$0")/lib.sh"
fmu "$here/private.lmdl" "$work/w.fmu"
mkdir "$work/tmp"
TMPDIR=$work/tmp "$FMU_TEST" "$work/w.fmu" cs --stop 0.01 --vars x >/dev/null \
  || fail "the passing run failed"
TMPDIR=$work/tmp "$FMU_TEST" "$work/w.fmu" cs --stop 0.01 --set m=3 --vars x >/dev/null 2>&1 \
  && fail "setting the private m succeeded"
TMPDIR=$work/tmp "$FMU_TEST" "$work/w.fmu" cs --vars nosuch >/dev/null 2>&1 \
  && fail "--vars nosuch succeeded"
TMPDIR=$work/tmp "$FMU_TEST" "$work/w.fmu" cs --bogus 1 >/dev/null 2>&1 \
  && fail "an unknown option succeeded"
left=$(ls -A "$work/tmp")
[ -z "$left" ] || fail "left in TMPDIR: $left"
echo "PASS: passing and failing runs leave TMPDIR empty"
