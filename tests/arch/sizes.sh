#!/bin/sh
# sizes.sh - no source file of the compiler, the runtime or the tools is
# over 1,000 lines (docs/design.md, "The tree"): a file that grows past
# it is split at its seams, as codegen.c and codegen_tables.c were.
# Usage: sizes.sh SRCDIR.  Prints each file over the limit; exits 1 if any.
set -eu
src=$1
bad=0
for f in $(find "$src/compiler" "$src/runtime" "$src/tools" -name '*.[ch]' | sort); do
  n=$(wc -l < "$f")
  if [ "$n" -gt 1000 ]; then
    echo "${f#"$src"/}: $n lines, over 1,000: split it at its seams"
    bad=1
  fi
done
exit $bad
