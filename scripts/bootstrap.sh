#!/bin/sh
# bootstrap.sh - set up a fresh Debian machine and build lmdl.
#
# Installs what is missing (a C compiler, cmake, flex, bison, GSL,
# SUNDIALS and SuiteSparse for --solver cvode, libzip and pkg-config for
# lmdlc fmu; for the tests python3-scipy (MAT results read back), vim, GNU
# parallel, strace and xmllint), with sudo when not run as root, then configures
# and builds into ./build.
#   sh scripts/bootstrap.sh            release-ish build in build/
#   sh scripts/bootstrap.sh asan       ASan+UBSan build in build-asan/
set -eu
cd "$(dirname "$0")/.."

need=""
command -v cc >/dev/null 2>&1 || need="$need gcc libc6-dev"
command -v cmake >/dev/null 2>&1 || need="$need cmake"
command -v make >/dev/null 2>&1 || need="$need make"
command -v flex >/dev/null 2>&1 || need="$need flex"
command -v bison >/dev/null 2>&1 || need="$need bison"
[ -f /usr/include/gsl/gsl_odeiv2.h ] || need="$need libgsl-dev"
[ -f /usr/include/zip.h ] || need="$need libzip-dev"   # lmdlc fmu
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"   # finds libzip
command -v xmllint >/dev/null 2>&1 || need="$need libxml2-utils"   # tests/fmu
[ -x /usr/bin/python3 ] || need="$need python3"   # tests/editors, tests/json
/usr/bin/python3 -c 'import scipy' 2>/dev/null || need="$need python3-scipy"   # tablelookup references
command -v vim >/dev/null 2>&1 || need="$need vim"   # tests/editors
command -v parallel >/dev/null 2>&1 || need="$need parallel"   # tests/sweep
command -v strace >/dev/null 2>&1 || need="$need strace"   # runtime.batch
[ -f /usr/include/cvode/cvode.h ] || need="$need libsundials-dev"
[ -f /usr/include/suitesparse/klu.h ] || need="$need libsuitesparse-dev"
/usr/bin/python3 -c 'import scipy.io' 2>/dev/null || need="$need python3-scipy"
if [ -n "$need" ]; then
  if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
  echo "bootstrap: installing$need"
  $sudo apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $need >/dev/null
fi

jobs=$(nproc 2>/dev/null || echo 2)
if [ "${1:-}" = asan ]; then
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DLMDL_SANITIZE=ON -DLMDL_WERROR=ON >/dev/null
  cmake --build build-asan -j "$jobs" >/dev/null
else
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLMDL_WERROR=ON >/dev/null
  cmake --build build -j "$jobs" >/dev/null
fi
