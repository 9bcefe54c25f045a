#!/bin/sh
# Stick-slip: a 1 kg mass on TranslationalFriction (breakaway 25 N,
# Coulomb 20 N, Stribeck velocity 0.1 m/s, viscous 10 N s/m), pulled
# through a spring (100 N/m) whose far end moves at 0.1 m/s.  The
# reference is an independent event-driven integration of the same
# piecewise ODE, in awk below: stuck, the spring force k (v0 t - x) grows
# until it exceeds the breakaway force (that time in closed form);
# sliding forward, m v' = k (v0 t - x) - (Fc + (Fb - Fc) exp(-v/vb) + c v)
# by RK4 (h = 1e-4 s) until v turns negative, located by bisection on the
# last step's length; then stuck again at v = 0.  The times at which the
# simulator's mode chart enters stick and forward (its event log) must
# match the reference's within 1e-6 s over 10 s (six stick-slip cycles),
# with msbdf, rk8pd and cvode.
. "$(dirname "$0")/lib.sh"
build stick_slip.lmdl sim
awk 'BEGIN {
    m = 1; k = 100; v0 = 0.1; Fb = 25; Fc = 20; vb = 0.1; c = 10; T = 10; h = 1e-4
    t = 0; x = 0; n = 0
    while (t < T) {
      # stuck at x: breakaway when k (v0 t - x) = Fb
      tb = (Fb / k + x) / v0
      if (tb >= T) break
      printf "forward %.12f\n", tb
      t = tb; v = 0
      while (1) {
        rk4(h)
        if (nv < 0) {
          lo = 0; hi = h
          for (i = 0; i < 60; i++) { mid = (lo + hi) / 2; rk4(mid); if (nv < 0) hi = mid; else lo = mid }
          rk4(hi); t += hi; x = nx
          printf "stick %.12f\n", t
          break
        }
        t += h; x = nx; v = nv
        if (t > T) break
      }
    }
  }
  function acc(tt, xx, vv) { return (k * (v0 * tt - xx) - (Fc + (Fb - Fc) * exp(-vv / vb) + c * vv)) / m }
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
