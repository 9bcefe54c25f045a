#!/bin/sh
# LookupTable1D (library/signals) against scipy: linear interpolation
# with linear extrapolation (numpy.interp inside, the end segments'
# lines outside), and smooth interpolation (PchipInterpolator) with
# nearest extrapolation, on a ramp that runs past the grid; 1e-12 away
# from the event rows.
. "$(dirname "$0")/lib.sh"
build lookup_table_1d.lmdl sim
"$work/sim" --stop-time 6 --output-step 0.1 --rtol 1e-10 --atol 1e-12 -o "$work/out.csv" || fail "run"
/usr/bin/python3 - "$work/out.csv" <<'PY' || fail "scipy comparison"
import csv, sys
import numpy as np
from scipy.interpolate import PchipInterpolator
rows = list(csv.DictReader(open(sys.argv[1])))
times = [r["time"] for r in rows]
xd = np.array([0, 1, 3, 4.0]); yd = np.array([1, 3, 2, 2.0])
p = PchipInterpolator(xd, yd)
bad = []
for r in rows:
    if times.count(r["time"]) > 1:
        continue
    u = float(r["ramp.y"])
    lin = float(np.interp(u, xd, yd)) if u <= 4 else 2 + (u - 4) * 0
    if abs(float(r["lin.y"]) - lin) > 1e-12:
        bad.append("lin at %g: %s, want %.17g" % (u, r["lin.y"], lin))
    sm = float(p(min(u, 4.0)))
    if abs(float(r["smooth.y"]) - sm) > 1e-12:
        bad.append("smooth at %g: %s, want %.17g" % (u, r["smooth.y"], sm))
if bad:
    print("\n".join(bad[:10])); sys.exit(1)
PY
echo ok
