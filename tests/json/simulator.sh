#!/bin/sh
# simulator.sh LMDLC - the simulator's messages as JSON: its own
# --diagnostics-format option and the environment variable
# LMDL_DIAGNOSTICS_FORMAT that lmdlc run and lmdlc sweep set; a sweep's
# summary (whose message column holds each failed row's first error) is
# the same in both formats.
set -u
LMDLC=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/lmdl_json.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$work" || exit 1
cp "$here/commands/wall.lmdl" . || exit 1
"$LMDLC" build wall.lmdl -o sim || fail "lmdlc build"

# every line of FILE is a JSON object with the documented fields
json_lines() {
  /usr/bin/python3 -c '
import json, sys
keys = ["file", "line", "column", "end_line", "end_column", "severity", "message", "notes"]
lines = open(sys.argv[1], "rb").read().splitlines()
if not lines:
    sys.exit("no messages")
for l in lines:
    if list(json.loads(l)) != keys:
        sys.exit("not a diagnostic: %r" % l)
' "$1" || fail "$2: not JSON Lines: $(cat "$1")"
}

./sim --diagnostics-format=json --param nosuch=1 2>e1; [ $? = 1 ] || fail "exit status"
json_lines e1 "--diagnostics-format=json"
./sim --diagnostics-format json --param wall1.stiffness=-1 2>e2 >/dev/null
json_lines e2 "--diagnostics-format json"
grep -q '"line":34,"column":5,"end_line":34,"end_column":60' e2 || fail "location: $(cat e2)"
LMDL_DIAGNOSTICS_FORMAT=json ./sim --param nosuch=1 2>e3
json_lines e3 "LMDL_DIAGNOSTICS_FORMAT=json"
LMDL_DIAGNOSTICS_FORMAT=json ./sim --diagnostics-format=text --param nosuch=1 2>e4
grep -q "^sim: error: unknown parameter 'nosuch'" e4 || fail "text after json: $(cat e4)"
./sim --diagnostics-format=xml 2>e5; [ $? = 1 ] || fail "a bad format is a usage error"
grep -q "json or text, not 'xml'" e5 || fail "bad format: $(cat e5)"

# the rows' messages reach the summary alike
printf '%s\n' 'wall1.stiffness' '1e5' '-1' '3e5' > sets2.csv
for f in text json; do
  ./sim --diagnostics-format=$f --stop-time 0.01 --sweep sets2.csv -o "r-$f-{row}.csv" \
    --sweep-summary "summary-$f.csv" 2>"err-$f"
done
json_lines err-json "--sweep"
sed 's/r-json-/r-text-/g' summary-json.csv | diff summary-text.csv - \
  || fail "the summary depends on the format"
grep -q 'Wall.lmdl:34:5: error: invalid parameters' summary-json.csv \
  || fail "summary message: $(cat summary-json.csv)"
echo ok
