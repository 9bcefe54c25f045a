#!/bin/sh
# compile_corpus.sh LMDLC DIR - for every input in DIR (a fuzz corpus) that
# `lmdlc emit-c` accepts, the generated C must compile: lmdlc exiting 0
# promises that.  Prints the counts; keeps failing inputs as bad_N.lmdl
# with the C compiler's message in bad_N.err.  Exit 1 if any failed.
set -u
lmdlc=$1 dir=$2
rt=$(cd "$(dirname "$0")/../../runtime" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 ok=0 bad=0
for f in "$dir"/*; do
  n=$((n + 1))
  if timeout 20 "$lmdlc" emit-c "$f" -o "$tmp/out.c" >/dev/null 2>&1; then
    ok=$((ok + 1))
    if ! timeout 60 cc -fsyntax-only -I "$rt" -I "$rt/common" "$tmp/out.c" 2>"$tmp/err"; then
      bad=$((bad + 1))
      cp "$f" "bad_$bad.lmdl"
      cp "$tmp/err" "bad_$bad.err"
    fi
  fi
done
echo "inputs $n, accepted by lmdlc $ok, generated C that failed to compile $bad"
[ "$bad" = 0 ]
