#!/bin/sh
# The examples' READMEs show a plot each: the commands of their
# "Plotting it" sections run as written (from a scratch directory), make a
# PNG of the committed one's size without a word from gnuplot, and the
# PNG the README shows is committed beside it.
. "$(dirname "$0")/lib.sh"
cd "$work" || exit 1
export LMDL_CACHE="$work/cache"

# png_size FILE: "WIDTHxHEIGHT" from the PNG's IHDR chunk.
png_size() {
  od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d\n", $1*16777216 + $2*65536 + $3*256 + $4, $5*16777216 + $6*65536 + $7*256 + $8 }'
}

for readme in "$root"/examples/*/README.md; do
  dir=$(dirname "$readme")
  name=$(basename "$dir")
  # the code block after "## Plotting it", continuation lines joined
  awk '/^## Plotting it/ { on = 1; next } on && /^```/ { if (inblock) exit; inblock = 1; next }
       inblock { if (sub(/\\$/, "")) { line = line $0; next } print line $0; line = "" }' "$readme" >"$name.sh"
  grep -q 'lmdlc plot' "$name.sh" || fail "$name: no plot command in its README"
  sed -i "s#build/lmdlc#\"\$LMDLC\"#; s# examples/# $root/examples/#" "$name.sh"
  sh "$name.sh" >/dev/null 2>"$work/err" || { cat "$work/err"; fail "$name: the README's commands fail"; }
  # only lmdlc's notes: gnuplot said nothing
  only_lmdlc_messages
  shown=$(sed -n 's/^!\[[^]]*\](\([^)]*\.png\)).*/\1/p' "$readme")
  [ -n "$shown" ] || fail "$name: its README shows no PNG"
  [ -f "$dir/$shown" ] || fail "$name: $shown is not committed"
  [ -f "$shown" ] || fail "$name: the commands do not make $shown"
  [ "$(png_size "$shown")" = "$(png_size "$dir/$shown")" ] ||
    fail "$name: $shown is $(png_size "$shown"), the committed one $(png_size "$dir/$shown")"
  [ "$(wc -c <"$dir/$shown")" -lt 150000 ] || fail "$name: $shown is over 150 kB"
done
echo ok
