#!/bin/sh
# Mechanical advantage of the three lever classes (examples/
# mechanical_advantage/class{1,2,3}.lmdl and ma_units.lmdl), for several
# arm lengths given as model literals and as --param values in SI, mm, cm,
# ft and lbf.  Reference: docs/lever.md, "Checks":
#   class 1 (fulcrum T2, effort T1, load T3): ma = r12/r23
#   class 2 (fulcrum T1, load T2, effort T3): ma = (r12+r23)/r12
#   class 3 (fulcrum T1, effort T2, load T3): ma = r12/(r12+r23)
# Tolerance: 1e-9 relative on ma, on the sensor force and on lever.f1..f3.
#
# Expected signs, from the branch conventions (f : P.f -> * is the force
# node P exerts on the component; ForceSensor's f : B.f -> F.f is the force
# its B node exerts on it).  The effort source pushes its port in +x with
# E > 0; that massless node passes it on, so the lever gets +E there.  The
# load node joins the lever and the sensor's B only, so the node balance
# gives sensor.force = -(force the load port exerts on the lever).
#   class 1: f1 = E; model 1 r13*f3 = -r12*f2 with f2 = -E - f3 gives
#            r23*f3 = r12*E, f3 = +E*r12/r23: T3 pushes the lever in +x, so
#            the lever pushes T3 in -x (docs/lever.md), sensor.force = -E*r12/r23.
#   class 2: f3 = E, f2 = -E*r13/r12: the lever pushes T2 in +x,
#            sensor.force = +E*(r12+r23)/r12.
#   class 3: f2 = E, f3 = -E*r12/r13: the lever pushes T3 in +x,
#            sensor.force = +E*r12/(r12+r23).
. "$(dirname "$0")/lib.sh"
lbf=4.4482216152605   # N, exact by definition
ft=0.3048             # m, exact

for c in 1 2 3; do build "../../examples/mechanical_advantage/class$c.lmdl" class$c; done
build ma_units.lmdl units

# expect CLASS R12 R23 E CSV: checks every row of CSV (SI values).
expect() {
  check "$5" "
    c = $1; r12 = $2; r23 = $3; E = $4; r13 = r12 + r23
    if (c == 1) { ma = r12 / r23;  s = -E * ma; f1 = E; f2 = -E - E * ma; f3 = E * ma }
    if (c == 2) { ma = r13 / r12;  s = E * ma;  f3 = E; f2 = -E * ma; f1 = -f2 - f3 }
    if (c == 3) { ma = r12 / r13;  s = E * ma;  f2 = E; f3 = -E * ma; f1 = -f2 - f3 }
    tol = 1e-9
    if (abs(v(\"ma\") - ma) > tol * ma) { bad = 1; why = \"ma \" v(\"ma\") \" != \" ma }
    if (abs(v(\"sensor.force\") - s) > tol * abs(s)) { bad = 1; why = \"sensor.force \" v(\"sensor.force\") \" != \" s }
    if (abs(v(\"lever.f1\") - f1) > tol * E * (1 + ma)) { bad = 1; why = \"f1 \" v(\"lever.f1\") \" != \" f1 }
    if (abs(v(\"lever.f2\") - f2) > tol * E * (1 + ma)) { bad = 1; why = \"f2 \" v(\"lever.f2\") \" != \" f2 }
    if (abs(v(\"lever.f3\") - f3) > tol * E * (1 + ma)) { bad = 1; why = \"f3 \" v(\"lever.f3\") \" != \" f3 }
    worst = abs(v(\"ma\") - ma) / ma; if (worst > maxerr) maxerr = worst; gotma = v(\"ma\"); gots = v(\"sensor.force\")
    n++
  }
  END { if (n < 3) { bad = 1; why = \"only \" n \" rows\" }
        if (!bad) printf \"  class %d r12=%g r23=%g E=%g: ma %.17g (max rel. error %.2g), sensor.force %.17g\n\", $1, $2, $3, $4, gotma, maxerr, gots
  "
}

n=0
for c in 1 2 3; do
  sim="$work/class$c"
  run() { n=$((n + 1)); "$sim" --stop-time 1 --output-step 0.5 "$@" -o "$work/$n.csv" || fail "class $c $*"; }
  run;                                                     expect $c 0.1 0.05 10 "$work/$n.csv"
  run --param r12=0.3 --param r23=0.1;                     expect $c 0.3 0.1 10 "$work/$n.csv"
  run --param 'r12=250 mm' --param 'r23=4 cm' --param 'effort=3 lbf'
  expect $c 0.25 0.04 "$(awk -v l=$lbf 'BEGIN { printf "%.17g", 3 * l }')" "$work/$n.csv"
  run --param 'r12=1 ft' --param 'r23=120 mm' --param effort=0.5
  expect $c $ft 0.12 0.5 "$work/$n.csv"
  # the lever's own parameters, past the top-level ones they are bound to
  run --param lever.r12=0.07 --param 'lever.r23=21 cm';   expect $c 0.07 0.21 10 "$work/$n.csv"
  run --param 'lever.r12=7 mm' --param 'lever.r23=2.1 m' --param 'effort=1 kN'
  expect $c 0.007 2.1 1000 "$work/$n.csv"
done

# model literals in mm, cm and lbf
"$work/units" --stop-time 1 --output-step 0.5 -o "$work/u.csv" || fail "units model"
expect 1 0.25 0.04 "$(awk -v l=$lbf 'BEGIN { printf "%.17g", 2 * l }')" "$work/u.csv"
"$work/units" --stop-time 1 --output-step 0.5 --param 'r23=2 ft' --param 'effort=100 N' -o "$work/u2.csv" || fail "units model, --param"
expect 1 0.25 "$(awk -v f=$ft 'BEGIN { printf "%.17g", 2 * f }')" 100 "$work/u2.csv"
echo ok
