#!/bin/sh
# --param: run-time changes follow through derived parameters and input
# bindings; structural parameters, unknown names and wrong units are
# refused with exit status 1.
. "$(dirname "$0")/lib.sh"
build lever_mass.lmdl sim
"$work/sim" --stop-time 0.3 --output-step 0.1 --rtol 1e-10 --atol 1e-12 --param F=2 -o "$work/f2.csv" || fail "F=2"
check "$work/f2.csv" 'if (abs(v("mass.x") + t * t) > 1e-7) { bad = 1; why = "F=2 t=" t }'
"$work/sim" --stop-time 0.3 --output-step 0.1 --rtol 1e-10 --atol 1e-12 --param 'lever.r12=100 mm' -o "$work/r.csv" \
  || fail "r12 in mm"
check "$work/r.csv" 'if (abs(v("mass.x") + 0.25 * t * t) > 1e-7) { bad = 1; why = "r12 t=" t }'
"$work/sim" --param lever.rotational_port=true 2>"$work/err" >/dev/null
[ $? = 1 ] || fail "structural parameter accepted"
grep -q "rotational_port" "$work/err" || fail "refusal does not name it: $(cat "$work/err")"
"$work/sim" --param nosuch=1 2>/dev/null >/dev/null
[ $? = 1 ] || fail "unknown parameter accepted"
"$work/sim" --param 'F=2 m' 2>/dev/null >/dev/null
[ $? = 1 ] || fail "wrong unit accepted"
echo ok
