#!/bin/sh
# examples.sh LMDLC FILE.md...: every example model of the docs (a code
# block fenced as ```lmdl, which holds complete components, the last one
# the model) must compile: `lmdlc check` on it, alone in a file, exits 0.
# So the examples of docs/language.md and docs/writing-components.md stay
# true.  (Blocks fenced with a bare ``` are fragments or parts, such as a
# spring with free ends, and are not compiled alone.)
set -u
lmdlc=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0
for md in "$@"; do
  awk -v dir="$work" -v base="$(basename "$md" .md)" '
    /^```/ { if (inblock) { if (keep) close(f); inblock = 0; next }
             inblock = 1; first = 1; lmdl = $0 ~ /^```lmdl/; next }
    inblock && first { first = 0
      if (lmdl) { k++; f = dir "/" base "_" k ".lmdl"; keep = 1 } else keep = 0 }
    inblock && keep { print > f }' "$md"
done
for f in "$work"/*.lmdl; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  if ! "$lmdlc" check "$f" > "$work/out" 2>&1; then
    echo "FAIL: an example of $(basename "$f" | sed 's/_[0-9]*\.lmdl$/.md/') does not compile:"
    cat "$f"
    cat "$work/out"
    exit 1
  fi
done
[ "$n" -ge 1 ] || { echo "FAIL: no examples found"; exit 1; }
echo "ok: $n examples compile"
