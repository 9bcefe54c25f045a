#!/bin/sh
# The lever's model 1 assert fails mid-run: |length_P13| = 1.5 t^2 passes
# r12 + r23 = 0.3 m at t = sqrt(0.2).  Exit 3, the rows before are kept,
# and the message names the time, the instance, the message and the place.
. "$(dirname "$0")/lib.sh"
build lever_mass.lmdl sim
"$work/sim" --stop-time 1 --output-step 0.01 -o "$work/out.csv" 2>"$work/err"
status=$?
[ "$status" = 3 ] || fail "exit status $status, expected 3"
rows=$(($(wc -l < "$work/out.csv") - 1))
[ "$rows" -ge 44 ] && [ "$rows" -le 46 ] || fail "$rows rows kept, expected 45 (t = 0 .. 0.44)"
grep -q "lever" "$work/err" || fail "no instance path in: $(cat "$work/err")"
grep -q "very large angle" "$work/err" || fail "no message in: $(cat "$work/err")"
grep -q "Lever.lmdl:[0-9]*" "$work/err" || fail "no location in: $(cat "$work/err")"
grep -Eq "t = 0\.4[45]" "$work/err" || fail "no failure time in: $(cat "$work/err")"
echo ok
