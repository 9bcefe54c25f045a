#!/bin/sh
# deb.sh BUILD SRC VERSION DEPENDS RECOMMENDS - `cpack -G DEB` makes a Debian package
# of the build with the right contents and dependencies.
#
# Builds the package from BUILD into a temporary directory, then checks
# with dpkg-deb:
#  - its name is lmdl_VERSION_ARCH.deb, its Package, Version and
#    Architecture fields match, and Depends is DEPENDS (the CMake variable
#    LMDL_DEB_DEPENDS), which must name a C compiler, libc6-dev and
#    libgsl-dev, libsundials-dev and libsuitesparse-dev (the archives simulators link), and libzip4 (which lmdlc links for FMUs);
#    Recommends is RECOMMENDS (LMDL_DEB_RECOMMENDS), which must name
#    gnuplot-nox (lmdlc plot) and parallel (lmdlc sweep --engine parallel);
#  - it holds exactly usr/bin/lmdlc, usr/lib/liblmdl_rt.a and
#    liblmdl_rt_pic.a (FMUs), usr/include/lmdl/rt_model.h, rt_units.h,
#    rt_kinds.h, rt_math.h, lmdl_fmi.h, every file of SRC/library under usr/share/lmdl/library,
#    and under usr/share/lmdl/runtime the FMU sources (files of
#    SRC/runtime, rt_main.c not among them), all owned by root and
#    writable by root only;
#  - the lmdlc unpacked from it (dpkg-deb -x) checks an example using the
#    unpacked library, with no LMDL_* variable set.
set -eu
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) version=$3 depends=$4 recommends=$5
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lmdl-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

arch=$(dpkg --print-architecture)
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp" >"$tmp/cpack.log" 2>&1 \
  || fail "cpack failed: $(cat "$tmp/cpack.log")"
deb=$tmp/lmdl_${version}_${arch}.deb
[ -f "$deb" ] || fail "no $deb: $(ls "$tmp")"

field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = lmdl ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version)"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture: $(field Architecture)"
[ "$(field Depends)" = "$depends" ] || fail "Depends: '$(field Depends)', expected '$depends'"
# (into a file: grep -q stops reading at the first match, and dpkg-deb
# killed by the broken pipe leaves its own temporary directory behind)
dpkg-deb -I "$deb" >"$tmp/info" || fail "dpkg-deb -I"
grep -q "^ Depends: $depends\$" "$tmp/info" || fail "dpkg-deb -I shows no Depends"
for d in "gcc | c-compiler" libc6-dev libgsl-dev libsundials-dev libsuitesparse-dev libzip4; do
  printf '%s\n' "$depends" | tr ',' '\n' | sed 's/^ *//' | grep -qx "$d" \
    || fail "Depends lacks '$d'"
done

[ "$(field Recommends)" = "$recommends" ] \
  || fail "Recommends: '$(field Recommends)', expected '$recommends'"
printf '%s\n' "$recommends" | tr ',|' '\n\n' | sed 's/^ *//; s/ *$//' | grep -qx gnuplot-nox \
  || fail "Recommends lacks gnuplot-nox"
printf '%s\n' "$recommends" | tr ',|' '\n\n' | sed 's/^ *//; s/ *$//' | grep -qx parallel \
  || fail "Recommends lacks parallel"

# The files, against what they should be.
dpkg-deb -c "$deb" >"$tmp/contents"
awk '$1 !~ /^d/ { print $6 }' "$tmp/contents" | sort >"$tmp/all"
# FMU sources (share/lmdl/runtime): copies of SRC/runtime, no main()
grep '^\./usr/share/lmdl/runtime/' "$tmp/all" >"$tmp/fmusrc" || fail "no FMU sources"
while read -r f; do
  [ -f "$src/runtime/${f#./usr/share/lmdl/runtime/}" ] || fail "$f is not in runtime/"
done <"$tmp/fmusrc"
for f in rt_eval.c fmi/fmi_me.c fmi/lmdl_fmi2.h rt_model.h common/rt_units.c common/rt_kinds.h; do
  grep -qx "./usr/share/lmdl/runtime/$f" "$tmp/fmusrc" || fail "no FMU source $f"
done
grep -q 'rt_main\.c$' "$tmp/fmusrc" && fail "the FMU sources hold rt_main.c"
grep -v '^\./usr/share/lmdl/runtime/' "$tmp/all" >"$tmp/files"
{
  printf '%s\n' ./usr/bin/lmdlc ./usr/lib/liblmdl_rt.a ./usr/lib/liblmdl_rt_pic.a \
    ./usr/include/lmdl/rt_model.h ./usr/include/lmdl/rt_units.h ./usr/include/lmdl/rt_kinds.h \
    ./usr/include/lmdl/rt_math.h \
    ./usr/include/lmdl/lmdl_fmi.h
  (cd "$src/library" && find . -type f) | sed 's|^\./|./usr/share/lmdl/library/|'
} | sort >"$tmp/want"
diff -u "$tmp/want" "$tmp/files" >"$tmp/diff" || fail "contents differ: $(cat "$tmp/diff")"
awk '$2 != "root/root" || substr($1, 6, 1) == "w" || substr($1, 9, 1) == "w"' \
  "$tmp/contents" >"$tmp/bad"
[ ! -s "$tmp/bad" ] || fail "owner or mode: $(cat "$tmp/bad")"
grep -q '^-rwxr-xr-x root/root .* \./usr/bin/lmdlc$' "$tmp/contents" || fail "lmdlc not executable"

# The unpacked tree works on its own.
dpkg-deb -x "$deb" "$tmp/root"
unset LMDL_STDLIB LMDL_RUNTIME_LIB LMDL_RUNTIME_INCLUDE LMDL_PATH
cp "$src/examples/wall_contact/wall_contact.lmdl" "$tmp/"
printf 'component DebProbe\n  %% Found only in the package.\nend\n' \
  >"$tmp/root/usr/share/lmdl/library/DebProbe.lmdl"
(cd "$tmp" && "$tmp/root/usr/bin/lmdlc" check wall_contact.lmdl >"$tmp/check.out" 2>&1) \
  || fail "the unpacked lmdlc failed: $(cat "$tmp/check.out")"
grep -q "^model WallContact" "$tmp/check.out" || fail "unexpected check output"
"$tmp/root/usr/bin/lmdlc" doc DebProbe 2>&1 | grep -q "Found only in the package" \
  || fail "the unpacked lmdlc does not read the unpacked library"
echo ok
