#!/bin/sh
# sources.sh - the FMU rebuilds from its sources/.
#
# Compiles every .c file of SourceFiles (sources/ as the include path,
# -fPIC -fvisibility=hidden, SUNDIALS, KLU and GSL; docs/fmi.md; at -O1,
# to keep the test short) into binaries/linux64/ID.so in place of the shipped binary, and runs the
# unzipped FMU in Co-Simulation: the rows equal the shipped binary's, bit
# for bit, and the rebuilt object exports the same 44 functions.
. "$(dirname "$0")/lib.sh"
fmu "$wall" "$work/wall.fmu"
mkdir "$work/x"
/usr/bin/python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
  "$work/wall.fmu" "$work/x" || fail unzip
vars=lever.R.theta,inertia.w,wall3.f
"$FMU_TEST" "$work/x" cs --stop 0.1 --vars $vars >"$work/shipped.csv" || fail "shipped binary"
md=$work/x/modelDescription.xml
files=$(sed -n '/<CoSimulation/,/<\/CoSimulation>/s/.*<File name="\([^"]*\)".*/\1/p' "$md")
so=$work/x/binaries/linux64/WallContact.so
rm "$so"
cd "$work/x/sources" || fail "no sources/"
# shellcheck disable=SC2086
${CC:-cc} -O1 -shared -fPIC -fvisibility=hidden -I. -I/usr/include/suitesparse $files -o "$so" \
  -lsundials_cvode -lsundials_nvecserial -lsundials_sunmatrixsparse -lsundials_sunmatrixdense \
  -lsundials_sunlinsolklu -lsundials_sunlinsoldense -lklu -lgsl -lgslcblas -lm \
  || fail "the sources do not compile"
cd "$work"
"$FMU_TEST" "$work/x" cs --stop 0.1 --vars $vars >"$work/rebuilt.csv" || fail "rebuilt binary"
cmp -s "$work/shipped.csv" "$work/rebuilt.csv" || fail "the rebuilt FMU gives other rows"
[ "$(nm -D --defined-only "$so" | grep -c ' T fmi2')" = 44 ] || fail "the rebuilt FMU's exports"
echo "PASS: $(echo $files | wc -w) files rebuilt, $(($(wc -l <"$work/rebuilt.csv") - 1)) rows equal"
