#!/bin/sh
# inputs.sh - a top-level input and outputs (pushed.lmdl: a 2 kg mass
# pushed by the input F, outputs y = x and p = m v).
#
# The input is settable: in Co-Simulation F = 2 N from initialization,
# then -2 N set between the steps at t = 0.5; in Model Exchange the same
# change in event mode.  Against the analytic motion (a = F/m):
# x = t^2/2 up to 0.5, then 0.125 + 0.5 (t - 0.5) - (t - 0.5)^2/2, within
# 1e-5 m (CS at the default tolerance; measured 5e-7) and 1e-9 m (ME's
# RK4 is exact on this polynomial motion).  The simulator's --param
# reaches the same input (it is a run-time parameter too).
. "$(dirname "$0")/lib.sh"
fmu "$here/pushed.lmdl" "$work/p.fmu"
check() {   # CSV TOL
  awk -F, -v tol="$2" '
    function abs(v) { return v < 0 ? -v : v }
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { t = $1; if (t <= 0.5) { x = t * t / 2; v = t } else { s = t - 0.5; x = 0.125 + 0.5 * s - s * s / 2; v = 0.5 - s }
      if (abs($c["x"] - x) > tol || abs($c["y"] - x) > tol || abs($c["v"] - v) > tol || abs($c["p"] - 2 * v) > 2 * tol) {
        print "t = " t ": " $0 " against x = " x ", v = " v; bad = 1 }
      d = abs($c["x"] - x); if (d > worst) worst = d }
    END { printf "largest error in x %.3g m (tolerance %g)\n", worst, tol; exit bad }' "$1" \
    || fail "$1 against the analytic motion"
}
for mode in cs me; do
  "$FMU_TEST" "$work/p.fmu" $mode --stop 1 --step 0.05 --h 1e-3 --set F=2 --at 0.5 \
    --set2 F=-2 --vars x,v,y,p >"$work/$mode.csv" 2>/dev/null || fail "fmu_test $mode"
done
check "$work/cs.csv" 1e-5
check "$work/me.csv" 1e-9
"$LMDLC" run "$here/pushed.lmdl" --param F=2 --stop-time 0.5 --quiet -o "$work/run.csv" \
  || fail "lmdlc run --param F=2"
check "$work/run.csv" 1e-5
echo PASS
