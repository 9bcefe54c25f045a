#!/bin/sh
# A parameter read by a condition that is not taken is structural too
# (docs/language.md, "Conditional sections and structural parameters").
# In examples/mechanical_advantage/class1.lmdl the lever is model 1
# (rotational_port = false), and Lever's `if linearized` sits inside the
# unused `if rotational_port` branch.  --param lever.linearized=false must
# be refused (exit 1, naming lever.linearized) like
# lever.rotational_port, and --help must not list it.  (Once, it was
# listed and accepted, changing nothing.)
. "$(dirname "$0")/lib.sh"
build ../../examples/mechanical_advantage/class1.lmdl sim
"$work/sim" --param lever.rotational_port=true --stop-time 1 >/dev/null 2>"$work/err1"
[ $? = 1 ] || fail "lever.rotational_port accepted"
"$work/sim" --param lever.linearized=false --stop-time 1 >/dev/null 2>"$work/err2"
status=$?
[ $status = 1 ] || fail "--param lever.linearized=false: exit $status, expected 1 (structural)"
grep -q "lever.linearized" "$work/err2" || fail "the refusal does not name lever.linearized: $(cat "$work/err2")"
"$work/sim" --help | grep -q "^ *lever.linearized " && fail "--help lists lever.linearized as a run-time parameter"
echo ok
