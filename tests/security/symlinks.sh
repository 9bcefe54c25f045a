#!/bin/sh
# No temporary file lmdlc writes follows a symbolic link planted at a
# name it could guess.  lmdlc used to write PATH.tmpPID (emit-c, build's
# OUT.c) and, in the cache, sim-HASH.c.tmpPID and sim-HASH.PID, all with
# fopen("w"): a link planted there for the next PID made it write
# generated C into any file of the victim's.  Here each lmdlc is started
# by `exec` from a shell whose $$ it inherits, so the links sit exactly at
# the names it would have used; a 0600 file outside must stay unchanged,
# and nothing but the requested output may appear.
. "$(dirname "$0")/lib.sh"
victim="$work/victim"
echo "precious" >"$victim"
chmod 0600 "$victim"
out="$work/out"
mkdir "$out"

# emit-c -o out/m.c
sh -c 'ln -s "$1" "$2/m.c.tmp$$"; exec "$3" emit-c "$4" -o "$2/m.c"' sh "$victim" "$out" "$LMDLC" "$model" \
  || fail "emit-c"
# build -o out/sim (it used to write out/sim.c first)
sh -c 'ln -s "$1" "$2/sim.c.tmp$$"; ln -s "$1" "$2/sim.c"; exec "$3" build "$4" -o "$2/sim"' sh "$victim" "$out" "$LMDLC" "$model" \
  || fail "build"
[ "$(cat "$victim")" = precious ] || fail "the victim was overwritten: $(head -c 200 "$victim")"
[ -x "$out/sim" ] && [ -s "$out/m.c" ] || fail "the outputs are missing"
grep -q "rt_model" "$out/m.c" || fail "m.c is not the generated C"
left=$(ls -A "$out" | grep -v -e '^m\.c$' -e '^sim$' -e '\.tmp[0-9]*$' -e '^sim\.c$')
[ -z "$left" ] || fail "stray files: $left"
[ -L "$out/sim.c" ] || fail "build replaced sim.c, which it was not asked to write"

# run: learn the cache entry's name, remove the entry, plant the links
cache="$work/cache"
runs_decay "$cache"
entry=$(ls "$cache"/sim-*)
rm -f "$entry"
LMDL_CACHE=$cache sh -c 'ln -s "$1" "$2.c.tmp$$"; ln -s "$1" "$2.$$"; exec "$3" run "$4" --stop-time 0.1' \
  sh "$victim" "$entry" "$LMDLC" "$model" >/dev/null || fail "run"
[ "$(cat "$victim")" = precious ] || fail "run overwrote the victim: $(head -c 200 "$victim")"
[ -f "$entry" ] && [ ! -L "$entry" ] || fail "the cache entry was not built"
[ "$(stat -c %a "$victim")" = 600 ] || fail "the victim's mode changed"
echo ok
