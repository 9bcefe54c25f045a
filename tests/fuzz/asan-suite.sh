#!/bin/sh
# asan-suite.sh - build the whole project with AddressSanitizer and
# UndefinedBehaviorSanitizer (-DLMDL_SANITIZE=ON) in build-asan, and run the
# complete ctest suite there, leaks included.  Any sanitizer report makes
# the test that triggered it fail.
#
#   sh tests/fuzz/asan-suite.sh [ctest args...]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cmake -S "$root" -B "$root/build-asan" -DCMAKE_BUILD_TYPE=Debug -DLMDL_SANITIZE=ON >/dev/null
cmake --build "$root/build-asan" -j2
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir "$root/build-asan" --output-on-failure -j2 "$@"
