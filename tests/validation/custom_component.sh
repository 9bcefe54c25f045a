#!/bin/sh
# The user-component example (examples/custom_component/lever_spring.lmdl
# with the user's HardeningSpring.lmdl and TanhFriction.lmdl, found in the
# model's directory).  Model 3 lever, J = 0.01 kg*m^2 on R, T2 fixed at 0,
# F1 on T1, the spring from x = 0 to T3 (s = x3 = r23 sin(theta)), the
# friction between R and the ground.  From the lever's equations
# (tau = eps cos(theta) (r12 f1 - r23 f3), f1 = F1, f3 = -fs) and the R
# node balance, with eps = 1:
#   J theta'' = -cos(theta) (r12 F1 + r23 fs(s)) - c w - tc tanh(w/w0),
#   fs(s) = k s + k3 s^3.
# References, each to the stated tolerance:
#  - theta and w from an RK4 integration of that equation in awk (fixed
#    step 1e-4 s) at every output row: 1e-6 rad, 1e-5 rad/s (the run uses
#    --rtol 1e-10 --atol 1e-12);
#  - the components' own laws on every row: spring.f = k s + k3 s^3 and
#    friction.t = c w + tc tanh(w/w0), 1e-9 relative;
#  - the rest position at t = 3 s: k s + k3 s^3 = -r12 F1/r23, solved by
#    Newton in awk, theta = asin(s/r23): 1e-8 rad.
# Cases: the defaults (F1 = 20 N, k = 1000 N/m, k3 = 1e7 N/m^3: s = -10 mm
# exactly), F1 = 5 N, and k3 = 0 (a linear spring: s = -r12 F1/(r23 k)).
. "$(dirname "$0")/lib.sh"
build ../../examples/custom_component/lever_spring.lmdl sim

# case NAME F1 k k3 [--param ...]
case_() {
  name=$1 F1=$2 k=$3 k3=$4; shift 4
  "$work/sim" --stop-time 3 --output-step 0.005 --rtol 1e-10 --atol 1e-12 "$@" -o "$work/out.csv" \
    || fail "$name: simulator"
  awk -F, -v F1=$F1 -v k=$k -v k3=$k3 -v name="$name" '
    function abs(v) { return v < 0 ? -v : v }
    function tanh(x,  e) { if (x > 20) return 1; if (x < -20) return -1; e = exp(2 * x); return (e - 1) / (e + 1) }
    function fs(s) { return k * s + k3 * s * s * s }
    function acc(th, w) { return (-cos(th) * (r12 * F1 + r23 * fs(r23 * sin(th))) - c * w - tc * tanh(w / w0)) / J }
    function rk4(th, w, h,   k1, k2, k3_, k4, l1, l2, l3, l4) {
      k1 = w;              l1 = acc(th, w)
      k2 = w + h / 2 * l1; l2 = acc(th + h / 2 * k1, k2)
      k3_ = w + h / 2 * l2; l3 = acc(th + h / 2 * k2, k3_)
      k4 = w + h * l3;     l4 = acc(th + h * k3_, k4)
      TH = th + h / 6 * (k1 + 2 * k2 + 2 * k3_ + k4); W = w + h / 6 * (l1 + 2 * l2 + 2 * l3 + l4)
    }
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
              J = 0.01; r12 = 0.1; r23 = 0.1; c = 0.05; tc = 0.05; w0 = 0.1
              h = 1e-4; n = 0; th = 0; w = 0; next }
    { t = $1 + 0
      while ((n + 1) * h <= t + 1e-12) { rk4(th, w, h); th = TH; w = W; n++ }
      gth = $col["lever.theta"]; gw = $col["inertia.w"]
      e = abs(gth - th); if (e > eth) { eth = e; tth = t }
      e = abs(gw - w); if (e > ew) { ew = e; tw = t }
      s = $col["spring.stretch"]; wr = $col["friction.F.w"]
      if (abs(s - r23 * sin(gth)) > 1e-12) { bad = 1; why = "stretch " s " at t=" t }
      if (abs($col["spring.f"] - fs(s)) > 1e-9 * (1 + abs(fs(s)))) { bad = 1; why = "spring.f " $col["spring.f"] " != " fs(s) " at t=" t }
      tr = c * wr + tc * tanh(wr / w0)
      if (abs($col["friction.t"] - tr) > 1e-9 * (1 + abs(tr))) { bad = 1; why = "friction.t " $col["friction.t"] " != " tr " at t=" t }
      if (abs(gw) > wmax) wmax = abs(gw)
      last = gth; rows++ }
    END {
      # rest: k s + k3 s^3 = -r12 F1 / r23, Newton from the linear solution
      s = -r12 * F1 / (r23 * k)
      for (i = 0; i < 100; i++) s -= (fs(s) + r12 * F1 / r23) / (k + 3 * k3 * s * s)
      u = s / r23; ths = atan2(u, sqrt(1 - u * u))
      printf "  %s: %d rows, |w| up to %.3g rad/s; against RK4: theta error %.3g rad (t = %g), w error %.3g rad/s (t = %g)\n", name, rows, wmax, eth, tth, ew, tw
      printf "  %s: rest theta %.12f rad, reference %.12f (s = %.9g m), error %.3g\n", name, last, ths, s, abs(last - ths)
      if (eth > 1e-6) { bad = 1; why = "theta off the RK4 reference by " eth " at t=" tth }
      if (ew > 1e-5) { bad = 1; why = "w off the RK4 reference by " ew " at t=" tw }
      if (abs(last - ths) > 1e-8) { bad = 1; why = "rest at " last ", expected " ths }
      if (rows < 600 || wmax < 1) { bad = 1; why = rows " rows, |w| max " wmax }
      if (bad) { print "mismatch: " why; exit 1 } }' "$work/out.csv" || fail "$name"
}
case_ default 20 1000 1e7
case_ "F1=5" 5 1000 1e7 --param F1=5
case_ "k3=0" 20 1000 0 --param spring.k3=0
echo ok
