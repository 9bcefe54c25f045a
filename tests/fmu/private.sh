#!/bin/sh
# private.sh - a parameter that --param may not set (Access = private) is
# fixed in the FMU: modelDescription.xml says variability="fixed", and
# fmi2SetReal of another value is fmi2Error with the reason, while the
# public one stays tunable and settable.
. "$(dirname "$0")/lib.sh"
fmu "$here/private.lmdl" "$work/w.fmu"
mkdir "$work/x"
/usr/bin/python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
  "$work/w.fmu" "$work/x" || fail unzip
md=$work/x/modelDescription.xml
grep -q 'name="m" .*causality="parameter" variability="fixed"' "$md" || fail "m is not fixed: $(grep 'name="m"' "$md")"
grep -q 'name="g" .*causality="parameter" variability="tunable"' "$md" || fail "g is not tunable"
"$FMU_TEST" "$work/w.fmu" cs --stop 0.1 --set m=3 --vars x >/dev/null 2>"$work/err" \
  && fail "setting the private m succeeded"
grep -q "'m' is private to its component (parameters(Access = private))" "$work/err" || fail "no reason given: $(cat "$work/err")"
"$FMU_TEST" "$work/w.fmu" cs --stop 0.1 --set g=1 --vars x >"$work/g.csv" 2>"$work/err" \
  || fail "setting the public g failed: $(cat "$work/err")"
echo "PASS: private m fixed and refused, public g set"
