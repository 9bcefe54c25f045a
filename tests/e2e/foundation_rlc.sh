#!/bin/sh
# Foundation library, electrical: a series RLC circuit switched onto a DC
# voltage (tests/simscape/+foundation_tests/RLC.ssc: dc_voltage,
# resistor, inductor, capacitor, reference), underdamped. With
# V0 = 10 V, R = 2 Ohm, L = 1 H, C = 10 mF, alpha = R/(2L) = 1 1/s and
# wd = sqrt(1/(LC) - alpha^2) = sqrt(99) rad/s:
#   c.vc  = V0 (1 - exp(-alpha t) (cos(wd t) + alpha/wd sin(wd t)))
#   l.i_L = V0/(L wd) exp(-alpha t) sin(wd t)
# Tolerance: 1e-6 V on c.vc and 1e-7 A on l.i_L, every 10 ms over 0..5 s
# (c.vc overshoots to V0 (1 + exp(-pi/wd)) = 17.29 V at t = pi/wd: the
# pointwise comparison covers the oscillation).
. "$(dirname "$0")/lib.sh"
"$LMDLC" build "$here/../simscape/+foundation_tests/RLC.ssc" -I "$here/../simscape" -o "$work/rlc" \
  || fail "lmdlc build RLC.ssc"
"$work/rlc" --stop-time 5 --output-step 0.01 --rtol 1e-10 --atol 1e-12 -o "$work/out.csv" || fail simulator
ref='wd = sqrt(99); a = 1; ev = exp(-a * t)
  vref = 10 * (1 - ev * (cos(wd * t) + a / wd * sin(wd * t)))
  iref = 10 / wd * ev * sin(wd * t)'
check "$work/out.csv" "$ref"'
  if (abs(v("c.vc") - vref) > 1e-6) { bad = 1; why = "c.vc at t=" t ": " v("c.vc") " ref " vref }
  if (abs(v("l.i_L") - iref) > 1e-7) { bad = 1; why = "l.i_L at t=" t ": " v("l.i_L") " ref " iref }'
worst=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "c.vc") c = i; if ($i == "l.i_L") l = i }; next }
  { t = $1; wd = sqrt(99); ev = exp(-t)
    e = $c - 10 * (1 - ev * (cos(wd * t) + sin(wd * t) / wd)); if (e < 0) e = -e; if (e > w) w = e
    e = $l - 10 / wd * ev * sin(wd * t); if (e < 0) e = -e; if (e > wi) wi = e }
  END { printf "%.3g V, |l.i_L - ref| = %.3g A", w, wi }' "$work/out.csv")
echo "ok (worst |c.vc - ref| = $worst)"
