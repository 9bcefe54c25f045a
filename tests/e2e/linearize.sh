#!/bin/sh
# lmdlc linearize: the state-space model A, B, C, D around an operating
# point and its eigenvalues, against analytic answers (relative 1e-9
# unless said; the Jacobians are symbolic, so only rounding is left):
#   msd.lmdl        mass-spring-damper, m = 2 kg, k = 50 N/m, c = 3 N*s/m:
#                   A = [0 1; -k/m -c/m], B = [0; 1/m], C = [1 0], D = 0,
#                   omega_n = 5 rad/s, zeta = 0.15
#   lever_osc.lmdl  the seed's linearized lever (model 2, index 3) with an
#                   inertia J on R, a spring k on T1 and a mass m on T3:
#                   omega^2 = k r12^2 / (J + m r23^2), undamped
#   RLC.ssc         Foundation series RLC, R = 2 Ohm, L = 1 H, C = 10 mF:
#                   omega_n = 1/sqrt(LC) = 10 rad/s, zeta = R/2 sqrt(C/L) = 0.1
#   two_mass.ssc    two masses and two springs (Foundation), k = 100 N/m,
#                   m = 1 kg: omega^2 = k (3 -+ sqrt 5) / 2; the input F
#                   reaches a child's input through connect(F, push.S)
#   pendulum.lmdl   nonlinear: A21 = -(g/L) cos(th), B = [0; 1/(m L^2)],
#                   C = [L cos(th) 0] at th = 0.3 (the initial point), at
#                   the steady state of tau = 2 N*m (sin th = tau/(m g L)),
#                   and --at 0.4 s against th(0.4) of a run (1e-6)
#   loop.lmdl       through a Newton loop z + z^3 = x: A = -1/(1 + 3 z^2)
#                   = -0.25 at x = 2
# the MAT file (scipy.io.loadmat) against the JSON; the refusals: an
# unknown output or input (exit 1, a suggestion), a bad --format, MAT to
# standard output, a bad --at, --stop-time, a parameter as an input, an
# output twice, --linearize on a simulator built without the Jacobians;
# delayed.lmdl: a delay's path left out of B (B = 0.5, the direct path)
# with a warning; and matrix.lmdl: outputs named by matrix elements,
# whose names hold a comma (A = -diag(1, 2, 3, 4)).
. "$(dirname "$0")/lib.sh"
lin() { "$LMDLC" linearize "$@" --format json; }

check_json() {  # check_json FILE PYTHON-BODY (d: the report; near(a, b, tol))
  /usr/bin/python3 - "$1" <<PY || fail "linearize check on $1"
import json, math, sys
d = json.load(open(sys.argv[1]))
def near(a, b, tol=1e-9, what=""):
    if not abs(a - b) <= tol * max(1.0, abs(b)):
        sys.exit("%s: %r, expected %r" % (what, a, b))
def mat(a, b, tol=1e-9, what=""):
    if len(a) != len(b) or any(len(r) != len(s) for r, s in zip(a, b)):
        sys.exit("%s: shape of %r, expected %r" % (what, a, b))
    for i, (r, s) in enumerate(zip(a, b)):
        for j, (x, y) in enumerate(zip(r, s)):
            near(x, y, tol, "%s[%d][%d]" % (what, i, j))
def modes():
    return sorted((e["natural_frequency"], e["damping_ratio"]) for e in d["eigenvalues"])
$2
PY
}

lin "$here/linearize/msd.lmdl" >"$work/msd.json" || fail "linearize msd"
check_json "$work/msd.json" '
mat(d["A"], [[0, 1], [-25, -1.5]], what="A")
mat(d["B"], [[0], [0.5]], what="B")
mat(d["C"], [[1, 0]], what="C")
mat(d["D"], [[0]], what="D")
assert [s["name"] for s in d["states"]] == ["x", "v"], d["states"]
assert [s["unit"] for s in d["states"]] == ["m", "m/s"], d["states"]
assert d["inputs"] == [{"name": "F", "unit": "N"}], d["inputs"]
assert d["outputs"] == [{"name": "y", "unit": "m"}], d["outputs"]
for wn, z in modes():
    near(wn, 5, what="omega_n"); near(z, 0.15, what="zeta")
print("  msd: omega_n 5 rad/s, zeta 0.15")'

lin "$here/linearize/lever_osc.lmdl" >"$work/lever.json" || fail "linearize lever_osc"
check_json "$work/lever.json" '
w = math.sqrt(400 * 0.2**2 / (0.01 + 2 * 0.1**2))
for wn, z in modes():
    near(wn, w, what="omega"); near(z, 0, what="zeta")
print("  lever: omega %.9g rad/s" % w)'

lin "$here/../simscape/+foundation_tests/RLC.ssc" -I "$here/../simscape" --outputs c.vc \
  >"$work/rlc.json" || fail "linearize RLC"
check_json "$work/rlc.json" '
for wn, z in modes():
    near(wn, 10, what="omega_n"); near(z, 0.1, what="zeta")
assert d["outputs"] == [{"name": "c.vc", "unit": "V"}], d["outputs"]
print("  RLC: omega_n 10 rad/s, zeta 0.1")'

lin "$here/linearize/two_mass.ssc" --outputs m2.v >"$work/two.json" || fail "linearize two_mass"
check_json "$work/two.json" '
m = modes()
lo, hi = math.sqrt(100 * (3 - math.sqrt(5)) / 2), math.sqrt(100 * (3 + math.sqrt(5)) / 2)
for (wn, z), ref in zip(m, [lo, lo, hi, hi]):
    near(wn, ref, what="omega"); near(z, 0, what="zeta")
i = [s["name"] for s in d["states"]].index("m2.v")
near(d["B"][i][0], 1, what="B of m2.v")
assert sum(abs(r[0]) for r in d["B"]) == 1, d["B"]
print("  two masses: omega %.9g and %.9g rad/s" % (lo, hi))'

lin "$here/linearize/pendulum.lmdl" >"$work/p0.json" || fail "linearize pendulum"
check_json "$work/p0.json" '
th = 0.3
mat(d["A"], [[0, 1], [-9.81 / 0.5 * math.cos(th), 0]], what="A")
mat(d["B"], [[0], [4]], what="B")
mat(d["C"], [[0.5 * math.cos(th), 0]], what="C")'
lin "$here/linearize/pendulum.lmdl" --steady-state --param tau=2 >"$work/ps.json" \
  || fail "linearize pendulum --steady-state"
check_json "$work/ps.json" '
th = math.asin(2 / (9.81 * 0.5))
mat(d["A"], [[0, 1], [-9.81 / 0.5 * math.cos(th), 0]], 1e-7, what="A")
mat(d["C"], [[0.5 * math.cos(th), 0]], 1e-7, what="C")
assert d["steady_state"] is True
print("  pendulum: steady state at th = %.9g rad" % th)'
"$LMDLC" run "$here/linearize/pendulum.lmdl" --stop-time 0.4 --output-step 0.4 --rtol 1e-10 \
  --atol 1e-12 --vars th -o "$work/p.csv" || fail "run pendulum"
th=$(tail -1 "$work/p.csv" | cut -d, -f2)
lin "$here/linearize/pendulum.lmdl" --at 0.4 --rtol 1e-10 --atol 1e-12 >"$work/pt.json" \
  || fail "linearize pendulum --at 0.4"
check_json "$work/pt.json" "
th = $th
near(d['time'], 0.4, what='time')
mat(d['A'], [[0, 1], [-9.81 / 0.5 * math.cos(th), 0]], 1e-6, what='A')
print('  pendulum: --at 0.4 s, th = %.9g rad' % th)"

lin "$here/linearize/loop.lmdl" >"$work/loop.json" || fail "linearize loop"
check_json "$work/loop.json" 'mat(d["A"], [[-0.25]], what="A")'

# text: the same numbers, named
"$LMDLC" linearize "$here/linearize/msd.lmdl" -o "$work/msd.txt" || fail "linearize -o"
grep -q '^  der(v) *-25 *-1.5$' "$work/msd.txt" || { cat "$work/msd.txt"; fail "text A"; }
grep -q '^ *-0.75 *4.94343 *5 *0.15$' "$work/msd.txt" \
  || { cat "$work/msd.txt"; fail "text eigenvalues"; }

# MAT (-o FILE.mat chooses it): what scipy.io.loadmat reads is the JSON's
"$LMDLC" linearize "$here/linearize/two_mass.ssc" --outputs m2.v -o "$work/two.mat" \
  || fail "linearize -o two.mat"
/usr/bin/python3 - "$work/two.mat" "$work/two.json" <<'PY' || fail "the MAT file"
import json, sys
import numpy as np, scipy.io
m, d = scipy.io.loadmat(sys.argv[1]), json.load(open(sys.argv[2]))
for k in "ABCD":
    want = np.array(d[k], dtype=float).reshape(m[k].shape)
    assert np.array_equal(m[k], want), (k, m[k], want)
assert [s.strip() for s in m["states"]] == [s["name"] for s in d["states"]], m["states"]
assert [s.strip() for s in m["outputs"]] == ["m2.v"], m["outputs"]
assert np.allclose(m["eigenvalues"][:, 2], [e["natural_frequency"] for e in d["eigenvalues"]])
PY
"$LMDLC" linearize "$here/linearize/two_mass.ssc" --format mat >/dev/null 2>"$work/err"
[ $? = 1 ] || fail "--format mat to standard output: exit 1"
grep -q "writes a binary MAT file: name it with -o FILE.mat" "$work/err" || { cat "$work/err"; fail "mat message"; }

# refusals
refused() {  # refused WHAT MESSAGE ARGS...: exit 1 and MESSAGE on stderr
  what=$1 msg=$2
  shift 2
  "$LMDLC" linearize "$@" >/dev/null 2>"$work/err"
  [ $? = 1 ] || fail "$what: exit 1"
  grep -qF -e "$msg" "$work/err" || { cat "$work/err"; fail "$what: the message"; }
}
p=$here/linearize/pendulum.lmdl
refused "--at abc" "--at is the time of the operating point in s, a number >= 0, not 'abc'" "$p" --at abc
refused "--at -1" "not '-1'" "$p" --at -1
refused "--stop-time" "linearize takes the time of its point as --at T, not --stop-time" "$p" --stop-time 1
refused "a parameter as an input" "'g' is a parameter, not an input of the top model" "$p" --inputs g
refused "an output twice" "--outputs: 'xb' is named twice" "$p" --outputs xb,th,xb
"$LMDLC" linearize "$here/linearize/pendulum.lmdl" --outputs xbb >/dev/null 2>"$work/err"
[ $? = 1 ] || fail "an unknown output: exit 1"
grep -q "'xbb' is not a variable of the model; did you mean 'xb'?" "$work/err" || { cat "$work/err"; fail "unknown output message"; }
"$LMDLC" linearize "$here/linearize/pendulum.lmdl" --inputs F >/dev/null 2>"$work/err"
[ $? = 1 ] || fail "an unknown input: exit 1"
grep -q "'F' is not an input of the model" "$work/err" || { cat "$work/err"; fail "unknown input message"; }
"$LMDLC" linearize "$here/linearize/pendulum.lmdl" --format xml >/dev/null 2>"$work/err"
[ $? = 1 ] || fail "--format xml: exit 1"
grep -q "format is text, json or mat, not 'xml'" "$work/err" || { cat "$work/err"; fail "format message"; }
"$LMDLC" build "$here/linearize/msd.lmdl" -o "$work/sim" || fail build
"$work/sim" --linearize text >/dev/null 2>"$work/err"
[ $? = 1 ] || fail "--linearize without the Jacobians: exit 1"
grep -q "built without the linearization Jacobians; build it with 'lmdlc linearize'" "$work/err" \
  || { cat "$work/err"; fail "no-Jacobians message"; }
# a matrix element's name holds a comma: --outputs 'q(1,2),q(2,1)' is two
# names (it was split into 'q(1' and '2)')
lin "$here/linearize/matrix.lmdl" --outputs 'q(1,2),q(2,1)' >"$work/matrix.json" \
  || fail "linearize matrix.lmdl --outputs 'q(1,2),q(2,1)'"
check_json "$work/matrix.json" '
mat(d["A"], [[-1, 0, 0, 0], [0, -2, 0, 0], [0, 0, -3, 0], [0, 0, 0, -4]], what="A")
mat(d["C"], [[0, 1, 0, 0], [0, 0, 1, 0]], what="C")
assert [o["name"] for o in d["outputs"]] == ["q(1,2)", "q(2,1)"], d["outputs"]'

# a delay's path is left out, and the run says so
lin "$here/linearize/delayed.lmdl" >"$work/delayed.json" 2>"$work/err" || fail "linearize delayed"
grep -q "delay()s count as known inputs in the linearization" "$work/err" || { cat "$work/err"; fail "no warning about the delay"; }
check_json "$work/delayed.json" 'mat(d["A"], [[-1]], what="A"); mat(d["B"], [[0.5]], what="B")'
echo ok
