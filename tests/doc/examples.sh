#!/bin/sh
# examples.sh LMDLC DOC.md... - every ```lmdl block of the documents
# compiles: `lmdlc check` on each, in a scratch directory per document.
# A block whose first line is "% file: NAME.lmdl" is written under that
# name for the blocks after it (a function file, a package's component)
# and not checked alone; a path with '/' makes the folders (a package).
set -u
lmdlc=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for doc in "$@"; do
  dir="$work/$(basename "$doc" .md)"
  mkdir -p "$dir"
  # writes the blocks, and the list "FILE LINE" of those to check
  awk -v dir="$dir" '
    function flush() {
      if (file == "") { n++; file = "example" n ".lmdl"; check = 1 }
      path = dir "/" file
      sub(/\/[^\/]*$/, "", path)
      system("mkdir -p \047" path "\047")
      printf "%s", text > (dir "/" file)
      close(dir "/" file)
      if (check) print file, start >> (dir "/.check")
    }
    !inblock && /^ *```lmdl *$/ {
      inblock = 1; text = ""; file = ""; check = 0; start = NR + 1
      match($0, /^ */); indent = RLENGTH; first = 1; next
    }
    inblock && /^ *``` *$/ { flush(); inblock = 0; next }
    inblock {
      line = substr($0, 1, indent) ~ /^ *$/ ? substr($0, indent + 1) : $0
      if (first && line ~ /^% file: /) { file = substr(line, 9) }
      first = 0
      text = text line "\n"
    }' "$doc"
  [ -f "$dir/.check" ] || continue
  while read -r file line; do
    if ! (cd "$dir" && "$lmdlc" check "$file" >/dev/null 2>"$work/err"); then
      echo "FAIL: $doc:$line: the example does not compile:"
      cat "$work/err"
      status=1
    fi
  done <"$dir/.check"
done
[ $status = 0 ] && echo ok
exit $status
