#!/bin/sh
# split_build.sh - a model built from several translation units
# compiled in parallel (compiler/emit/cunits.c; LMDL_BUILD_SPLIT=yes splits
# this chain of 30 levers, which is below the size that splits by
# itself): data and the code run once at -O0, the solver's code at -O2.
# The simulator writes exactly the rows of the same model built from one
# file (LMDL_BUILD_SPLIT=no), and the C compiler saw several units.
. "$(dirname "$0")/lib.sh"
root=$(cd "$here/../.." && pwd)
sh "$root/bench/gen/lever_chain.sh" 30 "$work/chain.lmdl" || fail "generate the chain"
# a wrapper around $CC that notes each C file it compiles
cat > "$work/cc.sh" <<WRAP
#!/bin/sh
for a in "\$@"; do case "\$a" in *.c) echo "\$a" >> "$work/units";; esac; done
exec ${CC:-cc} "\$@"
WRAP
chmod +x "$work/cc.sh"
CC="$work/cc.sh" LMDL_BUILD_SPLIT=yes "$LMDLC" build "$work/chain.lmdl" -o "$work/split" || fail "build (split)"
n=$(wc -l < "$work/units")
[ "$n" -ge 3 ] || fail "expected several units, the compiler saw $n file(s)"
: > "$work/units"
CC="$work/cc.sh" LMDL_BUILD_SPLIT=no "$LMDLC" build "$work/chain.lmdl" -o "$work/whole" \
  || fail "build (one file)"
[ "$(wc -l < "$work/units")" -eq 1 ] || fail "LMDL_BUILD_SPLIT=no: one file expected"
for sim in split whole; do
  "$work/$sim" --stop-time 0.05 --solver rk8pd --quiet -o "$work/$sim.csv" || fail "$sim run"
done
cmp -s "$work/split.csv" "$work/whole.csv" || fail "the rows differ between the split and the whole build"
echo "ok ($n units)"
