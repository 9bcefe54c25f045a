#!/bin/sh
# relocate.sh BUILD SRC LMDLC - an installed tree works after it is moved.
#
# Installs the build to a temporary prefix with `cmake --install`, moves
# the prefix elsewhere, and from a third directory, with no LMDL_*
# variable set, builds and runs examples/wall_contact (copied there) with
# the moved lmdlc.  Checks that:
#  - the simulator's event log equals the one the build-tree lmdlc makes;
#  - the C compiler was given the moved tree's runtime library and header
#    directory (a CC wrapper records its arguments), and the build-tree
#    lmdlc still gives it the build and source trees'; an FMU made by the
#    moved lmdlc links the moved liblmdl_rt_pic.a (and reads its sources
#    from the moved share/lmdl/runtime);
#  - the moved lmdlc reads the moved share/lmdl/library (a component added
#    there is found), and $LMDL_STDLIB still overrides it;
#  - a tree that others can write to is refused, with a warning that says
#    which file and why (in JSON too, written before `run` execs).
set -eu
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
build_lmdlc=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lmdl-install.XXXXXX")
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$tmp/first" >/dev/null
mv "$tmp/first" "$tmp/moved"
lmdlc=$tmp/moved/bin/lmdlc
mkdir "$tmp/work"
cp "$src/examples/wall_contact/wall_contact.lmdl" "$tmp/work/"
cd "$tmp/work"
unset LMDL_STDLIB LMDL_RUNTIME_LIB LMDL_RUNTIME_INCLUDE LMDL_PATH
export LMDL_CACHE="$tmp/cache"

# A C compiler that writes down its arguments, then compiles.
cat >"$tmp/cc.sh" <<EOF2
#!/bin/sh
printf '%s\n' "\$@" >"\$LMDL_TEST_CC_ARGS"
exec ${CC:-cc} "\$@"
EOF2
run_sim() {     # LMDLC ARGS-FILE EVENTS-FILE
  LMDL_TEST_CC_ARGS=$2 CC="sh $tmp/cc.sh" "$1" run wall_contact.lmdl \
    --stop-time 0.1 --quiet -o "$3.csv" --events "$3" || fail "$1 run failed"
}
run_sim "$lmdlc" "$tmp/moved.args" "$tmp/moved.events"
run_sim "$build_lmdlc" "$tmp/build.args" "$tmp/build.events"

grep -qx "$tmp/moved/lib/liblmdl_rt.a" "$tmp/moved.args" \
  || fail "the moved lmdlc did not link the moved runtime:$(cat "$tmp/moved.args")"
grep -qx "$tmp/moved/include/lmdl" "$tmp/moved.args" \
  || fail "the moved lmdlc did not include the moved header directory"
grep -q "^$src/runtime\$" "$tmp/build.args" \
  || fail "the build-tree lmdlc no longer includes $src/runtime"
grep -q "^$build/" "$tmp/build.args" \
  || fail "the build-tree lmdlc no longer links the build tree's runtime"
grep -q "$tmp/moved" "$tmp/build.args" && fail "the build-tree lmdlc used the installed tree"
# an FMU from the moved tree: its position-independent runtime and sources
LMDL_TEST_CC_ARGS=$tmp/fmu.args CC="sh $tmp/cc.sh" "$lmdlc" fmu wall_contact.lmdl -o w.fmu \
  || fail "the moved lmdlc cannot make an FMU"
grep -qx "$tmp/moved/lib/liblmdl_rt_pic.a" "$tmp/fmu.args" \
  || fail "the moved lmdlc's FMU did not link the moved liblmdl_rt_pic.a"
[ "$(wc -l <"$tmp/moved.events")" -ge 2 ] || fail "no events in the moved run"
cmp -s "$tmp/moved.events" "$tmp/build.events" \
  || fail "event logs differ: $(diff "$tmp/build.events" "$tmp/moved.events")"

# The standard library is the moved tree's.
cat >"$tmp/moved/share/lmdl/library/InstallProbe.lmdl" <<'EOF2'
component InstallProbe
  % Found only in the installed tree.
end
EOF2
"$lmdlc" doc InstallProbe >"$tmp/doc.out" 2>&1 || fail "InstallProbe not found: $(cat "$tmp/doc.out")"
grep -q "Found only in the installed tree" "$tmp/doc.out" || fail "wrong doc: $(cat "$tmp/doc.out")"
LMDL_STDLIB=$src/library "$lmdlc" doc InstallProbe >/dev/null 2>&1 \
  && fail "LMDL_STDLIB did not override the installed library"

# Refused when others can write to it: the library, or the runtime.
for f in share/lmdl/library/translational lib/liblmdl_rt.a; do
  chmod o+w "$tmp/moved/$f"
  "$lmdlc" doc InstallProbe >"$tmp/doc.out" 2>&1 && fail "an o+w $f was trusted"
  grep -q "warning: not using the lmdl installation in $tmp/moved: $tmp/moved/$f is writable by others" \
    "$tmp/doc.out" || fail "no warning for o+w $f: $(cat "$tmp/doc.out")"
  chmod o-w "$tmp/moved/$f"
done
# The warning in JSON, written out before `run` execs the simulator (which
# here uses the build tree's files, the fallback).
chmod o+w "$tmp/moved/share/lmdl"
"$lmdlc" run --diagnostics-format=json wall_contact.lmdl --stop-time 0.01 --quiet \
  -o "$tmp/fallback.csv" 2>"$tmp/run.err" || fail "fallback run failed: $(cat "$tmp/run.err")"
grep -q '^{"file":null,.*"severity":"warning","message":"not using the lmdl installation' \
  "$tmp/run.err" || fail "no JSON warning before the simulator ran: $(cat "$tmp/run.err")"
[ -s "$tmp/fallback.csv" ] || fail "the fallback run wrote no results"
chmod o-w "$tmp/moved/share/lmdl"
chmod g+w "$tmp/moved/include/lmdl/rt_model.h"
"$lmdlc" doc InstallProbe >"$tmp/doc.out" 2>&1 && fail "a g+w header was trusted"
grep -q "rt_model.h is writable by others (mode 0664)" "$tmp/doc.out" \
  || fail "no warning for g+w header: $(cat "$tmp/doc.out")"
chmod g-w "$tmp/moved/include/lmdl/rt_model.h"
"$lmdlc" doc InstallProbe >/dev/null 2>&1 || fail "not trusted again after chmod"
echo ok
