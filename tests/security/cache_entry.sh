#!/bin/sh
# A cached simulator is executed only when it is a regular file owned by
# the user that no one else can write; anything else at the entry's name
# (garbage, a directory, a group-writable or foreign script, a link, a
# truncated simulator) is rebuilt, and the real simulator runs.
. "$(dirname "$0")/lib.sh"
cache="$work/cache"
runs_decay "$cache"
entry=$(ls "$cache"/sim-*)
[ -f "$entry" ] || fail "no cache entry"
[ "$(ls -A "$cache" | wc -l)" = 1 ] || fail "stray files in the cache: $(ls -A "$cache")"

# rebuilt WHAT: after planting WHAT at the entry's name, run rebuilds it
rebuilt() {
  runs_decay "$cache"
  expect_not_in "$work/out.csv" PLANTED
  expect_not_in "$work/err" PLANTED
  [ -f "$entry" ] && [ ! -L "$entry" ] || fail "$1: the entry was not rebuilt"
  head -c 4 "$entry" | od -c | grep -q "E   L   F" || fail "$1: the entry is not an executable"
}
script() { printf '#!/bin/sh\necho PLANTED\necho PLANTED >&2\n' >"$entry"; }

rm -f "$entry"; head -c 5000 /dev/urandom >"$entry"; chmod 0700 "$entry"
rebuilt "garbage"
rm -f "$entry"; : >"$entry"; chmod 0700 "$entry"
rebuilt "an empty file"
rm -f "$entry"; mkdir "$entry"; : >"$entry/x"
rebuilt "a directory"
# A simulator cut short (a full disk, a crash while it was written) would
# die of SIGSEGV at every run: its ELF headers are checked against its
# size first.  Cut in the middle of its code, and by its last byte (the
# section headers).
size=$(wc -c <"$entry")
for keep in $((size / 4)) $((size - 1)); do
  runs_decay "$cache"
  truncate -s "$keep" "$entry" || fail "truncate"
  rebuilt "a simulator truncated to $keep of $size bytes"
  [ "$(wc -c <"$entry")" = "$size" ] || fail "truncated to $keep: not rebuilt whole"
done
rm -f "$entry"; printf '#!/nonexistent/interpreter\n' >"$entry"; chmod 0700 "$entry"
rebuilt "a script whose interpreter is missing"
rm -f "$entry"; script; chmod 0775 "$entry"
rebuilt "a group-writable script"
rm -f "$entry"; script; chmod 0757 "$entry"
rebuilt "a world-writable script"
printf '#!/bin/sh\necho PLANTED\n' >"$work/planted"; chmod 0700 "$work/planted"
rm -f "$entry"; ln -s "$work/planted" "$entry"
rebuilt "a symbolic link"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
  rm -f "$entry"; script; chmod 0755 "$entry"; chown nobody "$entry"
  rebuilt "a script owned by nobody"
fi
echo ok
