#!/bin/sh
# A C compiler failure that the machine caused (no compiler, killed, disk
# full) is reported as such, with the compiler's own output; only a
# compile error on the generated code is "a bug in lmdlc", with the C
# file kept.  CC points at small scripts.  Every case exits 2 and leaves
# no output and no temporary files.
. "$(dirname "$0")/lib.sh"
mkdir "$work/out"
cc_script() { printf '#!/bin/sh\n%s\n' "$2" >"$work/$1"; chmod +x "$work/$1"; }
cc_script full 'echo "as: /tmp/ccX.o: No space left on device" >&2; exit 1'
cc_script killed 'kill -KILL $$'
cc_script nolib 'echo "/usr/bin/ld: cannot find -lgsl: No such file or directory" >&2; exit 1'
cc_script syntax 'for a; do case $a in *.c) c=$a;; esac; done; echo "$c:3:1: error: expected declaration" >&2; exit 1'

# fails CC TEXT...: build with that CC exits 2, stderr has every TEXT
fails() {
  cc=$1
  shift
  CC=$cc "$LMDLC" build "$model" -o "$work/out/sim" >"$work/log" 2>"$work/err"
  status=$?
  [ "$status" = 2 ] || { cat "$work/err"; fail "CC=$cc: exit $status, expected 2"; }
  for text; do expect_in "$work/err" "$text"; done
  [ -e "$work/out/sim" ] && fail "CC=$cc: an output appeared"
}
fails "$work/full" "as: /tmp/ccX.o: No space left on device" \
  "failed because of its environment, not the generated code: as: /tmp/ccX.o: No space left on device"
expect_not_in "$work/err" "bug in lmdlc"
[ -z "$(ls -A "$work/out")" ] || fail "left behind: $(ls -A "$work/out")"
fails "$work/killed" "was killed by signal 9"
expect_not_in "$work/err" "bug in lmdlc"
[ -z "$(ls -A "$work/out")" ] || fail "left behind: $(ls -A "$work/out")"
fails "$work/nolib" "cannot find -lgsl" "failed because of its environment"
expect_not_in "$work/err" "bug in lmdlc"
fails "$work/nonexistent-cc" "the C compiler '$work/nonexistent-cc' was not found"
expect_not_in "$work/err" "bug in lmdlc"
fails "no-such-compiler-anywhere" "the C compiler 'no-such-compiler-anywhere' was not found; install one, or set CC"
[ -z "$(ls -A "$work/out")" ] || fail "left behind: $(ls -A "$work/out")"
# The generated code rejected: a bug, with the C file kept and named.
fails "$work/syntax" "error: expected declaration" "this is a bug in lmdlc: please report it with the file"
kept=$(sed -n 's/.*report it with the file \(.*\)$/\1/p' "$work/err")
grep -q rt_model "$kept" || fail "the C file $kept was not kept"
# run: the same classification, and nothing is cached
CC="$work/full" LMDL_CACHE="$work/cache" "$LMDLC" run "$model" >/dev/null 2>"$work/err" && fail "run with a full disk"
expect_in "$work/err" "failed because of its environment"
[ -z "$(ls -A "$work/cache")" ] || fail "cache: $(ls -A "$work/cache")"
echo ok
