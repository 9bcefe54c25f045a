#!/bin/sh
# Contact time of the model 3 lever pushed by a torque, against the
# analytic t = sqrt(2 J asin(d/r23) / T) = sqrt(0.2 asin(0.5)) s.
. "$(dirname "$0")/lib.sh"
build lever_torque_wall.lmdl sim
"$work/sim" --stop-time 0.4 --output-step 0.01 --rtol 1e-9 --atol 1e-12 \
    -o "$work/out.csv" --events "$work/ev.csv" || fail simulator
# theta = 5 t^2 until contact
check "$work/out.csv" '
  if (t < 0.32 && abs(v("inertia.theta") - 5 * t * t) > 1e-6) { bad = 1; why = "theta at t=" t }'
awk -F, 'NR > 1 && $2 == "wall" && $3 == "penetration > 0" && $4 == "true" { print $1; exit }' \
    "$work/ev.csv" > "$work/te" || fail "event log"
te=$(cat "$work/te")
[ -n "$te" ] || fail "no contact event in $(cat "$work/ev.csv")"
awk -v te="$te" 'BEGIN { ref = sqrt(0.2 * atan2(0.5, sqrt(0.75)));
  e = te - ref; if (e < 0) e = -e;
  if (e > 1e-6) { print "contact at " te ", expected " ref; exit 1 } }' || fail "contact time"
echo "ok: contact at $te"
