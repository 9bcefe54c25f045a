#!/bin/sh
# simscape-survey.sh LMDLC CORPUS [OUT.tsv] - checks every Simscape file of
# a corpus as written, in library mode, and tallies the outcomes.
#
# CORPUS holds libraries as their authors keep them: .ssc files in
# +package folders (any layout above them).  Each file is checked with
# `lmdlc check FILE -I ROOT -I TOP`, ROOT being the folder that holds the
# file's outermost +package folder (or the file's own folder) and TOP the
# first folder below CORPUS (a library's repository), with a time limit
# of 20 s.  One line per file goes to OUT.tsv (default: survey.tsv in the
# current folder): the outcome (ok, error, crash, timeout), the exit
# status, the file, and the first error's message.  The summary on
# standard output counts the outcomes and the most common first errors.
# The corpus itself is never written.
set -u
lmdlc=${1:?usage: simscape-survey.sh LMDLC CORPUS [OUT.tsv]}
corpus=${2:?usage: simscape-survey.sh LMDLC CORPUS [OUT.tsv]}
out=${3:-survey.tsv}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$out"
find "$corpus" -name '*.ssc' -type f | LC_ALL=C sort > "$tmp/files"
while IFS= read -r f; do
  dir=$(dirname "$f")
  root=$dir
  while case "$(basename "$root")" in +*) true ;; *) false ;; esac; do
    root=$(dirname "$root")
  done
  # the library's own root too (the first folder below CORPUS), as a
  # MATLAB path holding the whole repository would
  top=$corpus/$(printf '%s\n' "${f#"$corpus"/}" | cut -d/ -f1)
  rc=0
  timeout 20 "$lmdlc" check "$f" -I "$root" -I "$top" > /dev/null 2> "$tmp/err" < /dev/null || rc=$?
  msg=$(grep -m1 ': error: ' "$tmp/err" | sed 's/^.*: error: //' | tr '\t' ' ')
  case $rc in
    0) what=ok ;;
    124) what=timeout ;;
    1|2) what=error ;;
    *) what=crash ;;
  esac
  printf '%s\t%s\t%s\t%s\n' "$what" "$rc" "$f" "$msg" >> "$out"
done < "$tmp/files"
total=$(wc -l < "$out")
echo "files: $total"
cut -f1 "$out" | sort | uniq -c | sort -rn
echo "most common first errors (quoted names and numbers folded):"
awk -F'\t' '$1 != "ok" { print $4 }' "$out" | sed "s/'[^' ]*'/'X'/g; s/[0-9][0-9]*/N/g" \
  | sort | uniq -c | sort -rn | head -40
