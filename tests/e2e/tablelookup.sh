#!/bin/sh
# tablelookup against interpolants computed independently by
# scipy: linear exactly (1e-12), nearest and linear extrapolation, smooth
# = scipy's PchipInterpolator (1e-12), the same function on a decreasing
# grid, der() of a smooth lookup = the interpolant's derivative (1e-9),
# which is continuous across the knots (rows before and after each knot
# event agree to 1e-9) while the smooth curve is monotone on monotone
# data, and a 2-D bilinear table = RegularGridInterpolator.  Then
# extrapolation = error stops the run (exit 3) with the time, the
# instance and the query, and a grid made non-monotonic by --param is
# refused before the run.
. "$(dirname "$0")/lib.sh"
build tablelookup.lmdl sim
"$work/sim" --stop-time 6 --output-step 0.05 --rtol 1e-10 --atol 1e-12 \
  --events "$work/ev.csv" -o "$work/out.csv" || fail "run"
/usr/bin/python3 - "$work/out.csv" "$work/ev.csv" <<'PY' || fail "scipy comparison"
import csv, sys
import numpy as np
from scipy.interpolate import PchipInterpolator, RegularGridInterpolator
rows = list(csv.DictReader(open(sys.argv[1])))
xd = np.array([0, 1, 2, 4, 5.0]); fd = np.array([0, 1, 1.5, 4, 4.2])
hd = np.array([0, 2, 1, 1, 3.0]); td = np.array([0, 2, 6.0])
F = np.array([[0, 1, 2], [1, 3, 4], [2, 2, 8], [3, 0, 1], [4, 1, 1.0]])
pchip = PchipInterpolator(xd, fd, extrapolate=False)
dpchip = pchip.derivative()
bump = PchipInterpolator(xd, hd, extrapolate=False)
grid = RegularGridInterpolator((xd, td), F, method="linear", bounds_error=False, fill_value=None)
bad = []
# the rows at an event come in pairs: the left limit (the state at the
# located bracket's left end, just before the knot, within the event
# tolerance of 1e-12 * 6 s, with the segments frozen before the event)
# and the right limit (just past it, with the new segments)
times = [r["time"] for r in rows]
at_event = set(t for t in times if times.count(t) > 1)
def near(name, got, want, tol):
    if abs(got - want) > tol * max(1.0, abs(want)):
        bad.append("%s at x = %.17g: %.17g, want %.17g" % (name, x, got, want))
def lin_ext(x):
    # np.interp clamps: extend the end segments' lines instead
    if x < xd[0]: return fd[0] + (x - xd[0]) * (fd[1] - fd[0]) / (xd[1] - xd[0])
    if x > xd[-1]: return fd[-1] + (x - xd[-1]) * (fd[-1] - fd[-2]) / (xd[-1] - xd[-2])
    return float(np.interp(x, xd, fd))
def smooth_ext(x):
    # linear extrapolation of the smooth interpolant: its tangent at the end
    e = xd[0] if x < xd[0] else xd[-1] if x > xd[-1] else None
    if e is None: return float(pchip(x)), float(dpchip(x))
    return float(pchip(e) + (x - e) * dpchip(e)), float(dpchip(e))
for r in rows:
    x = float(r["x"]); t = float(r["time"])
    if r["time"] in at_event:
        continue
    near("x", x, t - 0.5, 1e-9)
    near("lin", float(r["lin"]), lin_ext(x), 1e-12)
    near("near", float(r["near"]), float(np.interp(x, xd, fd)), 1e-12)
    s, ds = smooth_ext(x)
    near("sm", float(r["sm"]), s, 1e-12)
    near("smr", float(r["smr"]), s, 1e-12)
    near("dsm", float(r["dsm"]), ds, 1e-9)
    near("bump", float(r["bump"]), float(bump(min(max(x, xd[0]), xd[-1]))), 1e-12)
    near("two", float(r["two"]), float(grid([[x, t]])[0]), 1e-12)
# monotone on monotone data, and C1 across the knots: at every event
# time the rows before and after agree on sm and dsm (and the other
# columns on their values there, to the kink times the event tolerance)
for a, b in zip(rows, rows[1:]):
    if float(b["sm"]) < float(a["sm"]) - 1e-12:
        bad.append("sm decreases at t = %s" % b["time"])
    if a["time"] == b["time"]:
        x = float(a["x"])
        near("dsm across the knot", float(b["dsm"]), float(a["dsm"]), 1e-9)
        # the two limits are up to the event tolerance apart in x: sm
        # differs by its slope (<= 1.5) times that
        near("sm across the knot", float(b["sm"]), float(a["sm"]), 1e-11)
        for c in ("lin", "near", "bump", "two"):
            near(c + " across the knot", float(b[c]), float(a[c]), 1e-9)
# one event per knot crossed, on each table's segment mode
ev = list(csv.DictReader(open(sys.argv[2])))
knots = sorted(set(float(e["time"]) for e in ev if "tablelookup(xd, fd, x)" == e["condition"]))
want = [0.5, 1.5, 2.5, 4.5, 5.5]
if len(knots) != 5 or any(abs(k - w) > 1e-9 for k, w in zip(knots, want)):
    bad.append("knot events at %s, want %s" % (knots, want))
if bad:
    print("\n".join(bad[:10])); sys.exit(1)
PY

# extrapolation = error: the query leaves [0, 2] m at t = 1.5
build tablelookup_error.lmdl err
"$work/err" --stop-time 3 -o "$work/err.csv" 2> "$work/err.txt"
[ $? = 3 ] || fail "extrapolation = error: exit status $? (want 3)"
grep -q "tablelookup_error.lmdl:13:10: error: at t = 1.5[0-9]*: tablelookup in probe: the query 2.0*[0-9]* m is outside the grid \[0 m, 2 m\] (extrapolation = error)" "$work/err.txt" \
  || fail "extrapolation = error message: $(cat "$work/err.txt")"
tail -n 1 "$work/err.csv" | awk -F, '{ exit !($1 > 1.4 && $1 <= 1.5 + 1e-9) }' || fail "rows stop at $(tail -n 1 "$work/err.csv")"

# a grid made non-monotonic by --param, refused before the run
"$work/sim" --param 'xd(3)=0.5 m' 2> "$work/grid.txt" > /dev/null
[ $? = 3 ] || fail "a non-monotonic grid was accepted"
grep -q "invalid parameters: the grid of tablelookup in Tables is not strictly monotonic: xd(3) = 0.5 m does not follow xd(2) = 1 m" "$work/grid.txt" \
  || fail "grid message: $(cat "$work/grid.txt")"
echo ok
