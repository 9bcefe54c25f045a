#!/bin/sh
# The hard stops and the rotational friction against closed forms.
#  - A 1 kg mass at 1 m/s from x = 0 between the bounds +-0.1 m of an
#    undamped TranslationalHardStop (1e4 N/m): contacts are half periods
#    of w = 100 rad/s, pi/100 s long, and the mass leaves each at -1 times
#    its velocity; free flights between the bounds last 0.2 s.  So the
#    bound events come at 0.1, 0.1 + pi/100, 0.3 + pi/100, 0.3 + 2 pi/100,
#    ...: the first six within 1e-7 s, the speed after each contact 1 within
#    1e-6, and never further than the contact's depth 1/100 m past a bound.
#  - The same with an inertia and a RotationalHardStop (rad for m).
#  - A flywheel (1 kg m^2) at 10 rad/s slowed by RotationalFriction with
#    Coulomb torque 2 N m and viscous 0.5 N m s/rad: w' = -(2 tanh(w/wc)
#    + 0.5 w), wc = 0.01 rad/s (Simscape's curve; no Stribeck bump, the
#    breakaway torque being the Coulomb torque), against RK4 in awk
#    (h = 1e-4 s; the curve's slope at 0 is 200 N m s/rad): w within 1e-6
#    rad/s and never below 0 in every row.  The curve passes through 0 at
#    w = 0, so the flywheel creeps towards rest, as Simscape's block does
#    (with the Coulomb torque a step 2 sign(w) it stopped at t* =
#    2 ln(14/4)); it sticks, if at all, only once w is below the
#    tolerances (the reference below 1e-9 rad/s: the integration's
#    rounding crosses 0), and stays at w == 0 exactly from there.
. "$(dirname "$0")/lib.sh"
for top in HardStopTranslational HardStopRotational FrictionSpinDown; do
  "$LMDLC" build "$here/hard_stop.lmdl" --top $top -o "$work/$top" || fail "build $top"
done
for solver in msbdf rk8pd cvode; do
  for top in HardStopTranslational HardStopRotational; do
    case $top in
      HardStopTranslational) pos=m.x vel=m.v ;;
      *) pos=j.theta vel=j.w ;;
    esac
    "$work/$top" --solver $solver --stop-time 1.2 --output-step 0.01 --rtol 1e-10 --atol 1e-12 \
      --events "$work/ev.csv" -o "$work/out.csv" || fail "$solver $top run"
    awk -F, -v solver=$solver -v top=$top -v pos=$pos -v vel=$vel 'function abs(v) { return v < 0 ? -v : v }
      NR == FNR { if (FNR > 1) ev[++n] = $1 + 0; next }
      FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      { x = $c[pos] + 0; v = $c[vel] + 0
        if (abs(x) > 0.1 + 0.01 + 1e-9) { print top " at " x " at t=" $1; bad = 1 }
        if (abs(x) < 0.1 - 1e-9 && abs(abs(v) - 1) > 1e-6) { print top ": free speed " v " at t=" $1; bad = 1 } }
      END {
        pi = 3.141592653589793; t = 0.1
        for (k = 1; k <= 6; k++) {
          e = abs(ev[k] - t); if (e > worst) worst = e
          if (e > 1e-7) { printf "%s %s: event %d at %.12f, expected %.12f\n", solver, top, k, ev[k], t; bad = 1 }
          t += k % 2 ? pi / 100 : 0.2
        }
        printf "%s %s: %d bound events, the first six within %.2g s\n", solver, top, n, worst
        exit bad
      }' "$work/ev.csv" "$work/out.csv" || fail "$solver $top"
  done
  "$work/FrictionSpinDown" --solver $solver --stop-time 4 --output-step 0.05 --rtol 1e-10 --atol 1e-12 \
    --events "$work/ev.csv" -o "$work/out.csv" || fail "$solver spin-down run"
  awk -F, -v solver=$solver 'function abs(v) { return v < 0 ? -v : v }
    function tanh(u) { return u > 300 ? 1 : 1 - 2 / (exp(2 * u) + 1) }
    function acc(u) { return -(2 * tanh(u / 0.01) + 0.5 * u) }
    # the reference at t, by RK4 from where it was (rows come in order)
    function ref(t,   h, k1, k2, k3, k4) {
      while (rt < t - 1e-12) {
        h = t - rt < 1e-4 ? t - rt : 1e-4
        k1 = acc(rw); k2 = acc(rw + h / 2 * k1); k3 = acc(rw + h / 2 * k2); k4 = acc(rw + h * k3)
        rw += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4); rt += h
      }
      return rw
    }
    BEGIN { rt = 0; rw = 10 }
    NR == FNR { if ($3 == "mc" && $4 == "stick" && !ts) ts = $1 + 0
                else if ($3 == "mc") { printf "%s: a mode change at %s: %s\n", solver, $1, $4; bad = 1 }
                next }
    FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { t = $1 + 0; w = $c["j.w"] + 0; want = ref(t)
      if (abs(w - want) > 1e-6 || w < 0 || (ts && t > ts && w != 0)) {
        printf "w at t=%.12g: %.12g, expected %.12g\n", t, w, want; bad = 1 }
      e = abs(w - want); if (e > worst) worst = e }
    END {
      rt = 0; rw = 10     # the reference again, from the start to the stick
      if (ts && !(ref(ts) < 1e-9)) { printf "%s: stuck at %s where w is %.3g\n", solver, ts, rw; bad = 1 }
      printf "%s spin-down: w within %.2g rad/s, stuck at %s (w %.2g there)\n", solver, worst, ts ? ts : "no time", ts ? rw : 0
      exit bad
    }' "$work/ev.csv" "$work/out.csv" || fail "$solver spin-down"
done
echo ok
