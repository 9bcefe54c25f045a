#!/bin/sh
# bootstrap.sh - set up a fresh Debian machine and build lmdl.
#
# Installs what is missing (a C compiler, cmake, flex, bison, GSL,
# SUNDIALS and SuiteSparse for --solver cvode, libzip and pkg-config for
# lmdlc fmu, gnuplot for lmdlc plot; for the tests python3-scipy (MAT
# results read back), vim, GNU parallel, strace, xmllint, and Slurm with
# munge for the cluster sweep), with sudo when not run as root, then
# configures and builds into ./build, saying each step as it goes.
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
command -v gnuplot >/dev/null 2>&1 || need="$need gnuplot-nox"   # lmdlc plot, tests/plot
command -v slurmctld >/dev/null 2>&1 || need="$need slurm-wlm"   # sweep.slurm_cluster
command -v munged >/dev/null 2>&1 || need="$need munge"
[ -f /usr/include/cvode/cvode.h ] || need="$need libsundials-dev"
[ -f /usr/include/suitesparse/klu.h ] || need="$need libsuitesparse-dev"
/usr/bin/python3 -c 'import scipy.io' 2>/dev/null || need="$need python3-scipy"
if [ -n "$need" ]; then
  if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
  echo "bootstrap: installing$need (apt-get; a minute or two)"
  $sudo apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $need >/dev/null
  echo "bootstrap: installed"
else
  echo "bootstrap: every package needed is installed"
fi

jobs=$(nproc 2>/dev/null || echo 2)
if [ "${1:-}" = asan ]; then
  dir=build-asan
  echo "bootstrap: configuring $dir (Debug, ASan and UBSan)"
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DLMDL_SANITIZE=ON -DLMDL_WERROR=ON >/dev/null
else
  dir=build
  echo "bootstrap: configuring $dir (RelWithDebInfo)"
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLMDL_WERROR=ON >/dev/null
fi
echo "bootstrap: building in $dir with $jobs jobs"
cmake --build "$dir" -j "$jobs" >/dev/null
echo "bootstrap: built $dir/lmdlc"
