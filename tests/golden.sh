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
# The command runs in INPUT's directory with a relative path, so messages
# are stable; the standard library's path is written as <stdlib>.
# With UPDATE_GOLDEN=1 the golden file is rewritten instead.
set -u
lmdlc=$1 kind=$2 input=$3 golden=$4
shift 4
case $kind in
  doc|cmd) dir=$(dirname "$golden") ;;
  *) dir=$(dirname "$input") ;;
esac
base=$(basename "$input")
stdlib=$(cd "$(dirname "$0")/../library" && pwd)
out=$(mktemp)
trap 'rm -f "$out" "$out.c" "$out.2"' EXIT
cd "$dir" || exit 1
case $kind in
  errors) "$lmdlc" check "$base" "$@" >/dev/null 2>"$out"; status=$?; want=2 ;;
  ast)    "$lmdlc" check --dump-ast "$base" "$@" >"$out" 2>&1; status=$?; want=0 ;;
  check)  "$lmdlc" check "$base" "$@" >"$out" 2>&1; status=$?; want=0 ;;
  flatten) "$lmdlc" flatten "$base" "$@" >"$out" 2>&1; status=$?; want=0 ;;
  raw)    "$lmdlc" flatten --raw "$base" "$@" >"$out" 2>&1; status=$?; want=0 ;;
  plan)   "$lmdlc" check --dump-blocks "$base" "$@" >"$out" 2>&1; status=$?; want=0 ;;
  emitc)  "$lmdlc" emit-c "$base" -o "$out.c" "$@" >"$out" 2>&1; status=$?; want=0
          [ -f "$out.c" ] && cat "$out.c" >>"$out" ;;
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
  *) echo "golden.sh: unknown kind $kind"; exit 1 ;;
esac
sed "s|$stdlib|<stdlib>|g" "$out" >"$out.2" && mv "$out.2" "$out"
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
