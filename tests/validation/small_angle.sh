#!/bin/sh
# The small-angle error of model 2 against model 3 at the same load
# (docs/lever.md, "Checks"): forces and torques differ like theta^2, angles and
# projected lengths like theta^3.  small_angle.lmdl, r12 = 0.1 m,
# r23 = 0.15 m, r13 = 0.25 m, eps = 1:
#   A (angle imposed, F1 = 10 N on T1, F3 = 4 N on T3):
#     tau2 - tau3 = 0.4 N*m * (1 - cos(theta))     ~ 0.2 theta^2
#     L13_2 - L13_3 = r13 * (theta - sin(theta))   ~ r13 theta^3 / 6
#   B (T3 held at L = r23*u, F1 = 10 N, T = 0.5 N*m on R):
#     f3_2 - f3_3 = T/r23 * (1/cos(asin(u)) - 1)   ~ (T/r23) u^2 / 2
#     theta_3 - theta_2 = asin(u) - u              ~ u^3 / 6
# At theta (u) = 0.4, 0.2, 0.1, 0.05, halving must divide the force and
# torque differences by 4 and the angle and length differences by 8,
# within 15%.  Each difference must also match its exact expression
# above to 1e-6 relative, and the model 2 values their exact
# linearized ones (tau2 = 0.4 N*m, f3_2 = 10/3 N) to 1e-12 relative.
. "$(dirname "$0")/lib.sh"
build small_angle.lmdl sim

# A: theta = w*time with w = 1 rad/s; the rows at t = 0.05, 0.1, 0.2, 0.4
"$work/sim" --stop-time 0.4 --output-step 0.05 -o "$work/a.csv" || fail "simulator (A)"
check "$work/a.csv" '
  th = v("a3.theta")
  if (abs(v("a2.theta") - t) > 1e-12 || abs(th - t) > 1e-12) { bad = 1; why = "theta " th " at t=" t }
  if (abs(v("a2.tau") - 0.4) > 1e-12 * 0.4) { bad = 1; why = "model 2 tau " v("a2.tau") }
  if (abs(v("a2.length_P13") - 0.25 * th) > 1e-12 * 0.25) { bad = 1; why = "model 2 L13 " v("a2.length_P13") }
  dt = v("a2.tau") - v("a3.tau"); dtr = 0.4 * (1 - cos(th))
  dl = v("a2.length_P13") - v("a3.length_P13"); dlr = 0.25 * (th - sin(th))
  if (t > 0 && abs(dt - dtr) > 1e-6 * dtr) { bad = 1; why = "tau difference " dt " != " dtr " at t=" t }
  if (t > 0 && abs(dl - dlr) > 1e-6 * dlr) { bad = 1; why = "L13 difference " dl " != " dlr " at t=" t }
  for (k = 0; k < 4; k++) if (abs(t - 0.05 * 2 ^ k) < 1e-9) { DT[k] = dt; DL[k] = dl; seen++
    printf "  A theta=%-5g tau2-tau3=%.6e (exact %.6e)  L13_2-L13_3=%.6e m (exact %.6e)\n", th, dt, dtr, dl, dlr }
  }
  END {
    if (seen != 4) { bad = 1; why = "rows at 0.05, 0.1, 0.2, 0.4: " seen }
    for (k = 1; k < 4; k++) {
      rt = DT[k] / DT[k-1]; rl = DL[k] / DL[k-1]
      printf "  A theta %g -> %g: torque difference ratio %.4f (expect 4), length difference ratio %.4f (expect 8)\n", 0.05 * 2 ^ k, 0.05 * 2 ^ (k-1), rt, rl
      if (abs(rt - 4) > 0.15 * 4) { bad = 1; why = "torque difference ratio " rt }
      if (abs(rl - 8) > 0.15 * 8) { bad = 1; why = "length difference ratio " rl }
    }'

# B: T3 held at L = 0.15 m * u
for u in 0.05 0.1 0.2 0.4; do
  "$work/sim" --stop-time 1 --output-step 1 --param "L=$(awk -v u=$u 'BEGIN { print 150 * u }') mm" \
      -o "$work/b$u.csv" || fail "simulator (B, u=$u)"
  check "$work/b$u.csv" "if (t != 0) next; u = $u"'
    th2 = v("b2.theta"); th3 = v("b3.theta"); f2 = v("b2.f3"); f3 = v("b3.f3")
    if (abs(th2 - u) > 1e-12 * u) { bad = 1; why = "model 2 theta " th2 " != " u }
    if (abs(f2 - 10 / 3) > 1e-12 * 10 / 3) { bad = 1; why = "model 2 f3 " f2 }
    if (abs(v("b2sensor.force") + f2) > 1e-12 * 10 / 3 || abs(v("b3sensor.force") + f3) > 1e-12 * 10 / 3) { bad = 1; why = "sensor != -f3" }
    asn = atan2(u, sqrt(1 - u * u))
    df = f2 - f3; dfr = 0.5 / 0.15 * (1 / sqrt(1 - u * u) - 1)
    da = th3 - th2; dar = asn - u
    if (abs(df - dfr) > 1e-6 * dfr) { bad = 1; why = "force difference " df " != " dfr }
    if (abs(da - dar) > 1e-6 * dar) { bad = 1; why = "angle difference " da " != " dar }
    printf "%s %.17g %.17g\n", u, df, da >> "'"$work/b.txt"'"
    printf "  B u=%-5g f3_2-f3_3=%.6e N (exact %.6e)  theta3-theta2=%.6e rad (exact %.6e)\n", u, df, dfr, da, dar'
done
awk '{ U[NR] = $1; F[NR] = $2; A[NR] = $3 }
  END {
    if (NR != 4) { print "B: " NR " angles"; exit 1 }
    for (k = 2; k <= 4; k++) {
      rf = F[k] / F[k-1]; ra = A[k] / A[k-1]
      printf "  B u %g -> %g: force difference ratio %.4f (expect 4), angle difference ratio %.4f (expect 8)\n", U[k], U[k-1], rf, ra
      if (rf < 0.85 * 4 || rf > 1.15 * 4) { print "force difference ratio " rf; bad = 1 }
      if (ra < 0.85 * 8 || ra > 1.15 * 8) { print "angle difference ratio " ra; bad = 1 }
    }
    exit bad }' "$work/b.txt" || fail "B: scaling of the differences"
echo ok
