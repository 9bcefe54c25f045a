#!/bin/sh
# Levers held at a fixed angle (docs/lever.md, "Checks").  This model
# once made lmdlc generate C with a temporary declared twice in one scope
# (a model 2 Lever whose R is held by a RotationalFixed and whose T2 is a
# Fixed); it builds now.
#
# The test itself: levers held at theta0 by RotationalFixed, the statics
# of angle_held.lmdl to 1e-12 relative, and the small-angle scaling
# (torque difference / 4 and length difference / 8 per halving of theta0,
# within 15%; small_angle.sh does the same with the angle imposed by a
# user component, which compiles).
. "$(dirname "$0")/lib.sh"
build angle_held.lmdl sim
for th in 0.4 0.2 0.1; do
  "$work/sim" --stop-time 1 --output-step 1 --param theta0=$th -o "$work/$th.csv" || fail "simulator, theta0=$th"
  check "$work/$th.csv" "th = $th"'
    if (abs(v("a2.tau") - 0.4) > 1e-12 * 0.4) { bad = 1; why = "model 2 tau " v("a2.tau") }
    if (abs(v("a3.tau") - 0.4 * cos(th)) > 1e-12 * 0.4) { bad = 1; why = "model 3 tau " v("a3.tau") }
    if (abs(v("a2.length_P13") - 0.25 * th) > 1e-12 * 0.25) { bad = 1; why = "model 2 L13 " v("a2.length_P13") }
    if (abs(v("a3.length_P13") - 0.25 * sin(th)) > 1e-12 * 0.25) { bad = 1; why = "model 3 L13 " v("a3.length_P13") }
    if (t == 0) printf "%s %.17g %.17g\n", th, v("a2.tau") - v("a3.tau"), v("a2.length_P13") - v("a3.length_P13") >> "'"$work/d.txt"'"'
done
awk '{ D[NR] = $2; L[NR] = $3 } END {
  for (k = 1; k < NR; k++) { r = D[k] / D[k+1]; s = L[k] / L[k+1]
    printf "  ratios %.4f (expect 4), %.4f (expect 8)\n", r, s
    if (r < 3.4 || r > 4.6 || s < 6.8 || s > 9.2) bad = 1 }
  exit bad || NR != 3 }' "$work/d.txt" || fail "scaling"
echo ok
