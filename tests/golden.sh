#!/bin/sh
# golden.sh - run lmdlc on one input and compare its output with a golden
# file.
#
#   golden.sh LMDLC KIND INPUT GOLDEN [ARGS...]
#
# KIND selects what is compared:
#   errors  stderr of `lmdlc check INPUT`, which must exit 2
#   ast     stdout of `lmdlc check --dump-ast INPUT`, which must exit 0
#   check   stdout of `lmdlc check INPUT`, which must exit 0
#   flatten stdout of `lmdlc flatten INPUT`, which must exit 0
#   raw     stdout of `lmdlc flatten --raw INPUT`, which must exit 0
#   plan    stdout of `lmdlc check --dump-blocks INPUT`, which must exit 0
#   emitc   the messages of `lmdlc emit-c INPUT -o FILE` (none, normally),
#           then the C file it writes; it must exit 0
#   doc     stdout of `lmdlc doc INPUT` (INPUT is a name), exit 0
#   cmd     stdout+stderr of `lmdlc ARGS...`, exit status in GOLDEN's
#           first line as "# exit N"
#   json    stderr of `lmdlc check --diagnostics-format=json INPUT`, exit
#           status in GOLDEN's first line as "# exit N"; every line must
#           parse as JSON (and be valid UTF-8)
#   jsoncmd stderr of `lmdlc --diagnostics-format=json ARGS...` run in a
#           copy of GOLDEN's directory (commands that write files), exit
#           status in GOLDEN's first line as "# exit N"; every line must
#           parse as JSON, and the same command with the text format must
#           exit alike and say each message, in the same order
# The command runs in INPUT's directory with a relative path, so messages
# are stable (emitc finds the standard library by a relative path too);
# the standard library's path is written as <stdlib>, the
# tests folder's (a package on -I) as <tests>, and the
# copy's (jsoncmd) as <dir>.
# With UPDATE_GOLDEN=1 the golden file is rewritten instead.
set -u
lmdlc=$1 kind=$2 input=$3 golden=$4
shift 4
stdlib=$(cd "$(dirname "$0")/../library" && pwd)
tests=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp)
copy=
trap 'rm -f "$out" "$out.c" "$out.2" "$out.text"; [ -z "$copy" ] || rm -rf "$copy"' EXIT
case $kind in
  doc|cmd) dir=$(dirname "$golden") ;;
  jsoncmd) copy=$(mktemp -d) && cp -R "$(dirname "$golden")/." "$copy" || exit 1
           dir=$copy ;;
  *) dir=$(dirname "$input") ;;
esac
base=$(basename "$input")
cd "$dir" || exit 1
case $kind in
  errors) "$lmdlc" check "$base" "$@" >/dev/null 2>"$out"; status=$?; want=2 ;;
  ast)    "$lmdlc" check --dump-ast "$base" "$@" >"$out" 2>&1; status=$?; want=0 ;;
  check)  "$lmdlc" check "$base" "$@" >"$out" 2>&1; status=$?; want=0 ;;
  flatten) "$lmdlc" flatten "$base" "$@" >"$out" 2>&1; status=$?; want=0 ;;
  raw)    "$lmdlc" flatten --raw "$base" "$@" >"$out" 2>&1; status=$?; want=0 ;;
  plan)   "$lmdlc" check --dump-blocks "$base" "$@" >"$out" 2>&1; status=$?; want=0 ;;
  emitc)  # the standard library by a relative path: the C's string table
          # holds offsets, which the path's length would change from one
          # checkout to another
          relstd=$(realpath --relative-to=. "$stdlib")
          LMDL_STDLIB=$relstd "$lmdlc" emit-c "$base" -o "$out.c" "$@" >"$out" 2>&1
          status=$?; want=0
          [ -f "$out.c" ] && sed "s|$(printf '%s' "$relstd" | sed 's/[.]/[.]/g')/|$stdlib/|g" "$out.c" >>"$out" ;;
  doc)    "$lmdlc" doc "$input" "$@" >"$out" 2>&1; status=$?; want=0 ;;
  cmd)    "$lmdlc" "$@" >"$out" 2>&1; status=$?
          want=$(sed -n '1s/^# exit //p' "$golden" 2>/dev/null)
          [ -n "$want" ] || want=0
          { echo "# exit $status"; cat "$out"; } >"$out.2"; mv "$out.2" "$out" ;;
  json)   "$lmdlc" check --diagnostics-format=json "$base" "$@" >/dev/null 2>"$out"; status=$?
          want=$(sed -n '1s/^# exit //p' "$golden" 2>/dev/null)
          [ -n "$want" ] || want=2
          if ! /usr/bin/python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin.buffer]' <"$out"; then
            echo "FAIL: not JSON Lines:"; cat "$out"; exit 1
          fi
          { echo "# exit $status"; cat "$out"; } >"$out.2"; mv "$out.2" "$out" ;;
  jsoncmd)
          "$lmdlc" --diagnostics-format=json "$@" >/dev/null 2>"$out"; status=$?
          want=$(sed -n '1s/^# exit //p' "$golden" 2>/dev/null)
          [ -n "$want" ] || want=0
          "$lmdlc" --diagnostics-format=text "$@" >/dev/null 2>"$out.text"; tstatus=$?
          if [ "$tstatus" != "$status" ]; then
            echo "FAIL: exit status $status with json, $tstatus with text"; exit 1
          fi
          if ! /usr/bin/python3 -c '
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1], "rb")]
text, at = open(sys.argv[2], encoding="utf-8", errors="replace").read(), 0
for o in objs:
    k = text.find(o["message"], at)
    if k < 0:
        sys.exit("the text format does not say %r (after offset %d):\n%s" % (o["message"], at, text))
    at = k + len(o["message"])
' "$out" "$out.text"; then
            echo "FAIL: not JSON Lines, or not the text's messages:"; cat "$out"; exit 1
          fi
          { echo "# exit $status"; cat "$out"; } >"$out.2"; mv "$out.2" "$out" ;;
  *) echo "golden.sh: unknown kind $kind"; exit 1 ;;
esac
sed "s|$stdlib|<stdlib>|g; s|$tests|<tests>|g" "$out" >"$out.2" && mv "$out.2" "$out"
if [ -n "$copy" ]; then     # absolute paths into the copy (sweep's)
  sed "s|$(cd "$copy" && pwd -P)|<dir>|g; s|$copy|<dir>|g" "$out" >"$out.2" && mv "$out.2" "$out"
fi
if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
  cp "$out" "$golden"
  echo "updated $golden"
  exit 0
fi
if [ "$status" != "$want" ]; then
  echo "FAIL: exit status $status, expected $want"
  cat "$out"
  exit 1
fi
if ! diff -u "$golden" "$out"; then
  echo "FAIL: output differs from $golden"
  exit 1
fi
exit 0
