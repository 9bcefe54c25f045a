#!/bin/sh
# positive_angle = -1 mirrors the lever (mirror.lmdl): the same model run
# with eps = +1 and eps = -1 (through the top-level eps, and through each
# lever's own positive_angle).
#   lm (model 3, torque on R): theta is the same, every port position
#       changes sign;
#   lp (model 2), lq (model 3), forces on T1 and T3: theta changes sign,
#       the port positions are the same.
# Mirror tolerance: 1e-8 (rad, m) between the two runs, row by row (each
# run is integrated on its own, with rtol 1e-10: the two can differ by
# their integration errors, ~1e-9).
# Analytic references, 1e-7 (rtol 1e-10): lm theta = 5 t^2,
# lm x3 = eps 0.1 sin(5 t^2), lm x1 = -x3; lp theta = eps 25 t^2,
# lp x3 = 2.5 t^2, lp x1 = -x3.
. "$(dirname "$0")/lib.sh"
build mirror.lmdl sim
opts="--stop-time 0.18 --output-step 0.01 --rtol 1e-10 --atol 1e-12"
"$work/sim" $opts -o "$work/p.csv" || fail "eps = 1"
"$work/sim" $opts --param eps=-1 -o "$work/n.csv" || fail "eps = -1"
"$work/sim" $opts --param lm.positive_angle=-1 --param lp.positive_angle=-1 \
    --param lq.positive_angle=-1 -o "$work/n2.csv" || fail "lever.positive_angle = -1"

for e in 1 -1; do
  f="$work/p.csv"; [ $e = -1 ] && f="$work/n.csv"
  check "$f" "e = $e"'
    x = 0.1 * sin(e * 5 * t * t)
    if (abs(v("lm.theta") - 5 * t * t) > 1e-7) { bad = 1; why = "lm theta " v("lm.theta") " at t=" t }
    if (abs(v("lm.T3.x") - x) > 1e-7 || abs(v("lm.T1.x") + x) > 1e-7) { bad = 1; why = "lm ports at t=" t }
    if (abs(v("lp.theta") - e * 25 * t * t) > 1e-7) { bad = 1; why = "lp theta " v("lp.theta") " at t=" t }
    if (abs(v("lp.T3.x") - 2.5 * t * t) > 1e-7 || abs(v("lp.T1.x") + 2.5 * t * t) > 1e-7) { bad = 1; why = "lp ports at t=" t }
    if (t > 0.1 && e * v("lq.theta") < 0.1) { bad = 1; why = "lq theta " v("lq.theta") " at t=" t }'
done

# mirror A B: row by row, theta of lm and the ports of lp, lq equal;
# the ports of lm and theta of lp, lq opposite.
mirror() {
  awk -F, '
    function abs(v) { return v < 0 ? -v : v }
    FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
    FILENAME == ARGV[1] { for (i = 1; i <= NF; i++) A[FNR, i] = $i; na = FNR; next }
    { nb = FNR
      split("lm.theta lp.T1.x lp.T2.x lp.T3.x lq.T1.x lq.T2.x lq.T3.x lp.length_P13 lq.length_P13", same, " ")
      split("lm.T1.x lm.T2.x lm.T3.x lp.theta lq.theta lm.length_P13", opp, " ")
      for (k in same) { a = A[FNR, col[ARGV[1], same[k]]]; b = $col[FILENAME, same[k]]
        d = abs(a - b); if (d > worst) worst = d
        if (d > 1e-8) { bad = 1; why = same[k] " " a " vs " b " at row " FNR } }
      for (k in opp) { a = A[FNR, col[ARGV[1], opp[k]]]; b = $col[FILENAME, opp[k]]
        d = abs(a + b); if (d > worst) worst = d
        if (d > 1e-8) { bad = 1; why = opp[k] " " a " vs -(" b ") at row " FNR } }
      if (abs(A[FNR, 1] - $1) > 0) { bad = 1; why = "times differ at row " FNR } }
    END { if (na != nb || na < 10) { bad = 1; why = na " vs " nb " rows" }
          printf "  %s: %d rows, largest mirror error %.3g (tolerance 1e-8)\n", ARGV[2], nb - 1, worst
          if (bad) { print "mismatch: " why; exit 1 } }' "$1" "$2" || fail "mirror $2"
}
mirror "$work/p.csv" "$work/n.csv"
mirror "$work/p.csv" "$work/n2.csv"
# and it really turned: |theta| of lq reached 0.8 rad
check "$work/n.csv" 'if (t > 0.179 && v("lq.theta") > -0.7) { bad = 1; why = "lq theta at the end " v("lq.theta") }'
echo ok
