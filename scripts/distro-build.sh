#!/bin/sh
# distro-build.sh TYPE DIR - configures and builds lmdl as a distribution
# would: CMAKE_BUILD_TYPE=TYPE (Release, RelWithDebInfo, ...) into DIR,
# with Debian's default compiler and linker flags (dpkg-buildflags:
# -O2, -fstack-protector-strong, -D_FORTIFY_SOURCE=2, -Wformat
# -Werror=format-security, relro) and without -Werror (LMDL_WERROR is
# off), so that every build type builds; CI then runs the test suite on
# it.  Needs dpkg-dev for dpkg-buildflags (plain flags without it).
set -eu
cd "$(dirname "$0")/.."
type=${1:?usage: distro-build.sh TYPE DIR}
dir=${2:?usage: distro-build.sh TYPE DIR}
if command -v dpkg-buildflags >/dev/null 2>&1; then
  CFLAGS="$(dpkg-buildflags --get CFLAGS) $(dpkg-buildflags --get CPPFLAGS)"
  LDFLAGS=$(dpkg-buildflags --get LDFLAGS)
  export CFLAGS LDFLAGS
else
  echo "distro-build: no dpkg-buildflags (apt-get install dpkg-dev): the build type's own flags only"
fi
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE="$type" -DLMDL_WERROR=OFF >/dev/null
cmake --build "$dir" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
echo "distro-build: $type built in $dir"
