#!/bin/sh
# symbols.sh - the FMU's shared object exports the FMI 2.0 functions and
# nothing else, and needs only the C library, libm, the shared GSL and the
# shared SUNDIALS CVODE and KLU libraries (--solver cvode).
#
# `nm -D --defined-only` must list exactly the 44 functions of FMI 2.0
# (none missing, nothing of the runtime or the model, not rt_model);
# `readelf -d` must show NEEDED libgsl.so.27 (which needs libgslcblas.so.0
# itself; docs/fmi.md: what the importing machine needs) and no other
# library but libgslcblas, SUNDIALS's, KLU's, libc and libm (the sanitizer build adds its
# runtimes), and ldd must find libgslcblas.so.0 through it.
. "$(dirname "$0")/lib.sh"
command -v nm >/dev/null && command -v readelf >/dev/null || { echo "SKIP: no binutils"; exit 77; }
fmu "$wall" "$work/wall.fmu"
mkdir "$work/x"
/usr/bin/python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
  "$work/wall.fmu" "$work/x" || fail unzip
so=$work/x/binaries/linux64/WallContact.so
[ -f "$so" ] || fail "no binaries/linux64/WallContact.so"
nm -D --defined-only "$so" | awk '{ print $NF }' | sort >"$work/exported"
cat >"$work/want" <<'EOF2'
fmi2CancelStep
fmi2CompletedIntegratorStep
fmi2DeSerializeFMUstate
fmi2DoStep
fmi2EnterContinuousTimeMode
fmi2EnterEventMode
fmi2EnterInitializationMode
fmi2ExitInitializationMode
fmi2FreeFMUstate
fmi2FreeInstance
fmi2GetBoolean
fmi2GetBooleanStatus
fmi2GetContinuousStates
fmi2GetDerivatives
fmi2GetDirectionalDerivative
fmi2GetEventIndicators
fmi2GetFMUstate
fmi2GetInteger
fmi2GetIntegerStatus
fmi2GetNominalsOfContinuousStates
fmi2GetReal
fmi2GetRealOutputDerivatives
fmi2GetRealStatus
fmi2GetStatus
fmi2GetString
fmi2GetStringStatus
fmi2GetTypesPlatform
fmi2GetVersion
fmi2Instantiate
fmi2NewDiscreteStates
fmi2Reset
fmi2SerializeFMUstate
fmi2SerializedFMUstateSize
fmi2SetBoolean
fmi2SetContinuousStates
fmi2SetDebugLogging
fmi2SetFMUstate
fmi2SetInteger
fmi2SetReal
fmi2SetRealInputDerivatives
fmi2SetString
fmi2SetTime
fmi2SetupExperiment
fmi2Terminate
EOF2
diff "$work/want" "$work/exported" || fail "the exported symbols are not FMI 2.0's 44 functions"
readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort >"$work/needed"
cat "$work/needed"
grep -qx libgsl.so.27 "$work/needed" || fail "not linked with the shared libgsl.so.27"
ldd "$so" | grep -q 'libgslcblas.so.0 => /' || fail "libgslcblas.so.0 is not found"
grep -v -e '^libgsl.so.27$' -e '^libgslcblas.so.0$' -e '^libc.so' -e '^libm.so' \
  -e '^libsundials_' -e '^libklu' \
  -e '^libasan' -e '^libubsan' "$work/needed" && fail "needs other libraries"
echo "PASS: 44 functions exported, nothing else"
