#!/bin/sh
# tablelookup with queries known without the state: a
# constant, a parameter, and a Constant block driving LookupTable1D, in
# 1-D and 2-D (one query the state, the other constant or a parameter),
# compile and simulate with the values of interpolants computed
# independently by scipy (1e-12), also after --param moves the queries.
# With extrapolation = error, a query known from parameters that --param
# moves outside the grid is refused before the run (exit 3), and one
# that is outside at the defaults is a compile-time error, also when it
# comes through a Constant block (tests/errors/table_query_known_outside).
. "$(dirname "$0")/lib.sh"
build tablelookup_known.lmdl sim
"$work/sim" --stop-time 3 --output-step 0.25 -o "$work/out.csv" || fail "run"
"$work/sim" --stop-time 3 --output-step 0.25 --param 'q=3 m' --param 'tq=7.5 s' \
  --param c.value=1.75 --param c2.value=0.25 -o "$work/moved.csv" || fail "run after --param"
/usr/bin/python3 - "$work/out.csv" "$work/moved.csv" <<'PY' || fail "scipy comparison"
import csv, sys
import numpy as np
from scipy.interpolate import PchipInterpolator, RegularGridInterpolator
xd = np.array([0, 1, 2, 4.0]); fd = np.array([0, 5, 20, 30.0])
td = np.array([0, 10.0]); F2 = np.array([[0, 1], [2, 3], [4, 5], [6, 8.0]])
bxd = np.array([0, 1, 2.0]); byd = np.array([0, 5, 20.0])
grid = RegularGridInterpolator((xd, td), F2, method="linear")
bad = []
def near(name, got, want):
    if abs(got - want) > 1e-12 * max(1.0, abs(want)):
        bad.append("%s at t = %s: %.17g, want %.17g" % (name, r["time"], got, want))
for path, q, tq, c, c2 in ((sys.argv[1], 1.5, 2.5, 0.5, 1.25), (sys.argv[2], 3, 7.5, 1.75, 0.25)):
    rows = list(csv.DictReader(open(path)))
    if len(rows) < 13:
        bad.append("%s: %d rows" % (path, len(rows)))
    for r in rows:
        x = float(r["x"])
        near("const1", float(r["const1"]), float(np.interp(0.5, xd, fd)))
        near("param1", float(r["param1"]), float(np.interp(q, xd, fd)))
        near("smooth1", float(r["smooth1"]), float(PchipInterpolator(xd, fd)(q)))
        near("error1", float(r["error1"]), float(np.interp(q, xd, fd)))
        near("const2", float(r["const2"]), float(grid([[3, 5]])[0]))
        near("mixed2", float(r["mixed2"]), float(grid([[x, 5]])[0]))
        near("param2", float(r["param2"]), float(grid([[x, tq]])[0]))
        near("both2", float(r["both2"]), float(grid([[q, tq]])[0]))
        near("lt.y", float(r["lt.y"]), float(np.interp(c, bxd, byd)))
        near("ls.y", float(r["ls.y"]), float(PchipInterpolator(bxd, byd)(c2)))
if bad:
    print("\n".join(bad[:10])); sys.exit(1)
PY
# extrapolation = error: a query that --param moves outside the grid
"$work/sim" --param 'q=5 m' > /dev/null 2> "$work/q.txt"
[ $? = 3 ] || fail "q outside the grid: exit status (want 3)"
grep -q "tablelookup_known.lmdl:39:15: error: invalid parameters: assertion failed in Known: the query of tablelookup must be inside its grid (extrapolation = error) (q = 5 m)" "$work/q.txt" \
  || fail "q outside the grid: $(cat "$work/q.txt")"
# ... also through a Constant block
"$work/sim" --param c2.value=2.5 > /dev/null 2> "$work/c2.txt"
[ $? = 3 ] || fail "c2.value outside the grid: exit status (want 3)"
grep -q "error: invalid parameters: assertion failed in ls: the query of tablelookup must be inside its grid (extrapolation = error) (c2.value = 2.5)" "$work/c2.txt" \
  || fail "c2.value outside the grid: $(cat "$work/c2.txt")"
echo ok
