#!/bin/sh
# An ideal switch in an algebraic loop (the issue's diode): V = R i + vd,
# i = if vd > 0, vd/Ron else vd*Goff end, V = 10 sin(2 pi t) V, R = 100
# Ohm, Ron = 0.01 Ohm, Goff = 1e-8 S.  Under either mode the loop is
# linear, and Newton's first step from any guess solves it; at the switch
# (t = 0.5 s, vd going negative) the guess from the on mode (vd near 0) is
# far from the off mode's solution (vd = V).  Before, the runtime only
# checked Newton's step there, did not take it, and hybridsj, starting
# with a trust radius of 100 times the tiny guess, did not converge: exit
# 3 at t = 0.49.  Now every row's i is the mode's exact value (within
# 1e-12 relative: V/(R + Ron) on, V Goff/(1 + R Goff) off), the switching
# events come at 0 (V > 0 just after it), 0.5 and 1 s (within 1e-9 s),
# and q = integral of i
# matches its closed form: within 1e-9 with rk8pd at --rtol 1e-10, and
# within 1e-6 C (30 rtol q) at the default tolerances with msbdf and
# cvode (msbdf's own error on this quadrature: 7e-7, as gsl_odeiv2 alone).
. "$(dirname "$0")/lib.sh"
build ideal_switch.lmdl sim
for c in "msbdf 1e-6" "cvode 1e-6" "rk8pd 1e-9 --rtol 1e-10"; do
  set -- $c
  solver=$1 tol=$2
  shift 2
  "$work/sim" --solver $solver --stop-time 1.5 --output-step 0.01 --events "$work/ev.csv" \
    -o "$work/out.csv" "$@" 2>"$work/err" || fail "$solver: $(cat "$work/err")"
  check "$work/out.csv" '
    pi = 3.141592653589793; V = 10 * sin(2 * pi * t); Q = 10 / 100.01 / pi
    off = 1e-8 / (1 + 100 * 1e-8)
    on = V > 0 || (V == 0 && v("vd") >= 0)
    wi = V > 0 ? V / 100.01 : V * off
    if (abs(v("i") - wi) > 1e-12 * 0.1 + 1e-15 && abs(V) > 1e-9) { bad = 1; why = "t = " t ": i " v("i") ", expected " wi }
    # q: the charge of the half waves so far
    if (t <= 0.5) wq = Q * (1 - cos(2 * pi * t)) / 2
    else if (t <= 1) wq = Q - off * 10 / (2 * pi) * (cos(2 * pi * t) + 1)
    else wq = Q - off * 10 / pi + Q * (1 - cos(2 * pi * t)) / 2
    if (abs(v("q") - wq) > '"$tol"') { bad = 1; why = "t = " t ": q " v("q") ", expected " wq }'
  awk -F, 'NR > 1 && $3 == "vd > 0" { d = $1 - n * 0.5; n++; if (d < 0) d = -d; if (d > w) w = d }
    END { exit !(n == 3 && w < 1e-9) }' "$work/ev.csv" || fail "$solver: the switching: $(cat "$work/ev.csv")"
  echo "  $solver: ok"
done
echo ok
