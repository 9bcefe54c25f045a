#!/bin/sh
# Stick-slip: a 1 kg mass on TranslationalFriction (breakaway 25 N,
# Coulomb 20 N, breakaway velocity 0.1 m/s, viscous 10 N s/m), pulled
# through a spring (100 N/m) whose far end moves as 0.5 m sin(2 t).  The
# reference is an independent event-driven integration of the same
# piecewise ODE, in awk below: stuck, the spring force k (u - x) grows
# until its size exceeds the breakaway force (found on a 1 ms grid and by
# bisection); sliding, m v' = k (u - x) - F(v) with Simscape's friction
# curve F(v) = sqrt(2e) (Fb - Fc) exp(-(v/vst)^2) v/vst + Fc tanh(v/vc)
# + c v (vst = sqrt(2) vb, vc = vb/10), by RK4 (h = 2e-5 s: the curve's
# slope at 0, Fc/vc = 2000 N s/m, is a time constant of 0.5 ms) until v
# changes sign, located by bisection on the last step's length; then
# stuck again at v = 0.  (The curve passes through 0 at v = 0, so the
# contact sticks again where the motion reverses: under a steady pull it
# creeps, as Simscape's block does.)  The times at which the simulator's
# mode chart enters stick, forward and backward (its event log) must
# match the reference's within 1e-6 s over 10 s (six stick-slip cycles
# each way), with msbdf, rk8pd and cvode.
. "$(dirname "$0")/lib.sh"
build stick_slip.lmdl sim
awk 'BEGIN {
    m = 1; k = 100; c = 10; A = 0.5; w = 2
    Fb = 25; Fc = 20; vb = 0.1; T = 10; h = 2e-5
    vst = sqrt(2) * vb; vc = vb / 10
    t = 0; x = 0; v = 0; stuck = 1; n = 0
    while (t < T) {
      if (stuck) {
        # breakaway time: step until |k (u - x)| > Fb (fine steps, then bisection)
        while (t < T) { tn = t + 1e-3; f1 = k * (A * sin(w * tn) - x); if (f1 > Fb || f1 < -Fb) break; t = tn }
        if (t >= T) break
        lo = t; hi = tn
        for (i = 0; i < 60; i++) { mid = (lo + hi) / 2; fm = k * (A * sin(w * mid) - x); if (fm > Fb || fm < -Fb) hi = mid; else lo = mid }
        t = hi; dir = (k * (A * sin(w * t) - x) > 0) ? 1 : -1
        printf "%s %.12f\n", (dir > 0 ? "forward" : "backward"), t
        stuck = 0; v = 0
        continue
      }
      rk4(h)
      if (nv * dir < 0) {
        lo = 0; hi = h
        for (i = 0; i < 60; i++) { mid = (lo + hi) / 2; rk4(mid); if (nv * dir < 0) hi = mid; else lo = mid }
        rk4(hi); t += hi; x = nx; v = 0; stuck = 1
        printf "stick %.12f\n", t
        continue
      }
      t += h; x = nx; v = nv
    }
  }
  function tanh(u) { return 1 - 2 / (exp(2 * u) + 1) }
  function fric(vv) { return sqrt(2 * exp(1)) * (Fb - Fc) * exp(-(vv / vst) ^ 2) * vv / vst + Fc * tanh(vv / vc) + c * vv }
  function acc(tt, xx, vv) { return (k * (A * sin(w * tt) - xx) - fric(vv)) / m }
  function rk4(dt,   k1x, k1v, k2x, k2v, k3x, k3v, k4x, k4v) {
    k1x = v; k1v = acc(t, x, v)
    k2x = v + dt / 2 * k1v; k2v = acc(t + dt / 2, x + dt / 2 * k1x, v + dt / 2 * k1v)
    k3x = v + dt / 2 * k2v; k3v = acc(t + dt / 2, x + dt / 2 * k2x, v + dt / 2 * k2v)
    k4x = v + dt * k3v; k4v = acc(t + dt, x + dt * k3x, v + dt * k3v)
    nx = x + dt / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
    nv = v + dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
  }' > "$work/ref.txt"
[ "$(grep -c stick "$work/ref.txt")" -ge 5 ] || fail "the reference has too few cycles: $(cat "$work/ref.txt")"
for solver in msbdf rk8pd cvode; do
  "$work/sim" --solver $solver --stop-time 10 --output-step 0.1 --rtol 1e-11 --atol 1e-12 \
    --events "$work/ev.csv" -o "$work/out.csv" || fail "$solver run"
  awk -F, '$2 == "fr" && $3 == "mc" { print $4, $1 }' "$work/ev.csv" > "$work/got.txt"
  awk -v solver=$solver 'function abs(v) { return v < 0 ? -v : v }
    NR == FNR { want[FNR] = $1; wt[FNR] = $2; nw = FNR; next }
    { got[FNR] = $1; gt[FNR] = $2; ng = FNR }
    END {
      if (ng != nw) { printf "%s: %d mode changes, the reference has %d\n", solver, ng, nw; bad = 1 }
      for (i = 1; i <= nw && i <= ng; i++) {
        e = abs(gt[i] - wt[i]); if (e > worst) worst = e
        if (got[i] != want[i] || e > 1e-6) { printf "%s: change %d: %s at %.12f, reference %s at %.12f\n", solver, i, got[i], gt[i], want[i], wt[i]; bad = 1 }
      }
      printf "%s: %d mode changes, largest time error %.2g s\n", solver, ng, worst
      exit bad
    }' "$work/ref.txt" "$work/got.txt" || fail "$solver: stick and slip times"
  # stuck rows: v == 0 exactly and x constant
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["fr.mc"] == 1 && $c["m.v"] != 0 { print "moving while stuck at t=" $1; bad = 1 }
    END { exit bad }' "$work/out.csv" || fail "$solver: stick"
done
echo ok
