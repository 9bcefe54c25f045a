#!/bin/sh
# lmdlc sweep speaks for its simulator: a bad simulator option or a bad
# sets file is reported as lmdlc sweep's own error (exit 1), pointing to
# lmdlc sweep --help, never as the simulator's ("SIM: error: ...,
# Try 'SIM --help'").
. "$(dirname "$0")/lib.sh"
printf 'row,F\n1,5\n' > "$work/sets.csv"
printf 'row,G\n1,5\n' > "$work/bad.csv"
"$LMDLC" sweep "$model" --sets "$work/sets.csv" --engine parallel -o "$work/o-{row}.csv" \
  --dir "$work" --stop-tim 2 >"$work/out" 2>"$work/err"
[ $? -eq 1 ] || fail "a bad simulator option: exit $? (want 1)"
grep -q "^lmdlc: sweep: error: unknown option '--stop-tim'; did you mean '--stop-time'?" "$work/err" \
  || fail "the option's message: $(cat "$work/err")"
grep -q "^Try 'lmdlc sweep --help'" "$work/err" || fail "no pointer to lmdlc sweep --help"
grep -q "\.sim: error" "$work/err" && fail "the simulator's own prefix: $(cat "$work/err")"
"$LMDLC" sweep "$model" --sets "$work/bad.csv" --engine parallel -o "$work/o-{row}.csv" \
  --dir "$work" >"$work/out" 2>"$work/err"
[ $? -eq 1 ] || fail "a bad sets file: exit $? (want 1)"
grep -q "^lmdlc: sweep: error: .*bad.csv:1: column 2 'G' is not a parameter" "$work/err" \
  || fail "the sets file's message: $(cat "$work/err")"
echo ok
