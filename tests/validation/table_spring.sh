#!/bin/sh
# examples/table_spring: the lever pushed at T1 by 60 N with
# r23 = 2 r12 holds the measured spring at 30 N; the rest stretch is the
# inverse of the monotone cubic through the data, computed by scipy
# (PchipInterpolator, brentq), within 1e-9 m; T1 moves half as far; one
# event per measured point crossed.  Then the data in other units via
# --param gives the same rest position.
. "$(dirname "$0")/lib.sh"
build ../../examples/table_spring/lever_table.lmdl sim
opts="--stop-time 2 --output-step 1 --rtol 1e-10 --atol 1e-12 --vars spring.stretch,spring.f,lever.T1.x"
"$work/sim" $opts --events "$work/ev.csv" -o "$work/out.csv" || fail "run"
"$work/sim" $opts --param 'spring.stretch_data=[0 500 1000 2000 3000 4000 5000] um' \
  --param 'spring.force_data=[0 4 10 26 48 78 120] N' -o "$work/out2.csv" || fail "run in um"
/usr/bin/python3 - "$work/out.csv" "$work/ev.csv" "$work/out2.csv" <<'PY' || fail "scipy comparison"
import csv, sys
import numpy as np
from scipy.interpolate import PchipInterpolator
from scipy.optimize import brentq
p = PchipInterpolator(np.array([0, 0.5, 1, 2, 3, 4, 5]) * 1e-3, [0, 4, 10, 26, 48, 78, 120])
s = brentq(lambda x: p(x) - 30, 2e-3, 3e-3, xtol=1e-15)
for out in (sys.argv[1], sys.argv[3]):
    last = list(csv.DictReader(open(out)))[-1]
    if abs(float(last["spring.stretch"]) - s) > 1e-9 or abs(float(last["spring.f"]) - 30) > 1e-5 \
       or abs(float(last["lever.T1.x"]) - s / 2) > 1e-9:
        print("%s: rest at %s, want stretch %.12g" % (out, last, s)); sys.exit(1)
ev = list(csv.DictReader(open(sys.argv[2])))
if [e["value"] for e in ev] != ["[0.0005, 0.001]", "[0.001, 0.002]", "[0.002, 0.003]"]:
    print("events: %s" % ev); sys.exit(1)
PY
echo ok
