#!/bin/sh
# lmdlc plot draws chosen columns with gnuplot (skipped, status 77, when
# gnuplot is not installed); unknown columns are refused with status 1.
. "$(dirname "$0")/lib.sh"
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot not installed"; exit 77; }
build mass_spring.lmdl sim
"$work/sim" --stop-time 1 -o "$work/out.csv" || fail simulator
"$LMDLC" plot "$work/out.csv" --vars mass.x,mass.v -o "$work/p.png" || fail "plot png"
head -c 4 "$work/p.png" | od -c | grep -q "P   N   G" || fail "not a PNG"
"$LMDLC" plot "$work/out.csv" --vars mass.x -o "$work/p.svg" || fail "plot svg"
grep -q "<svg" "$work/p.svg" || fail "not an SVG"
"$LMDLC" plot "$work/out.csv" --vars nosuch -o "$work/q.png" 2>/dev/null
[ $? = 1 ] || fail "unknown column accepted"
echo ok
