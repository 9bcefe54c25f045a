#!/bin/sh
# Foundation library, electrical: the blocks added later, each in a closed
# model (tests/simscape/+foundation_tests/) compared with its analytic
# solution.
# VoiceCoil.ssc (translational_converter): a voice coil pushes a mass from
# rest, V = 6 V, R = 3 Ohm, K = 2 N/A, m = 0.5 kg, tau = m R/K^2 = 0.375 s:
#   body.v = V/K (1 - exp(-t/tau)),  r.i = V/R exp(-t/tau),
#   and the converter is lossless: coil.v*coil.i = coil.f*coil.u.
# SwitchedRC.ssc (controlled_switch): an RC circuit behind a switch that
# closes at ts = 0.5 s; V0 = 10 V, tau1 = (R + 1/G_open) C = 1001 s,
# tau2 = (R + R_closed) C = 1.001 s:
#   c.vc = V0 (1 - exp(-t/tau1)) before ts, V0 - (V0 - vc(ts)) exp(-(t - ts)/tau2) after.
# SelfHeating.ssc (thermal_resistor): a resistor carrying I0 = 1 A heats
# itself and cools through Rth = 10 K/W to Ta = 300 K; R0 = 10 Ohm,
# alpha = 4e-3 1/K, C = K_d tc = 1 J/K: lambda = 1/Rth - I0^2 R0 alpha = 0.06 1/s,
# Tinf = (I0^2 R0 (1 - alpha T0) + Ta/Rth)/lambda = 466.67 K:
#   rt.T = Tinf + (Ta - Tinf) exp(-lambda t),  rt.v = I0 R0 (1 + alpha (rt.T - T0)).
# Tolerance: VoiceCoil 1e-7 m/s on body.v, 1e-7 A on r.i, 1e-9 W on the
# power balance, over 0..2 s; SwitchedRC 1e-6 V on c.vc over 0..5 s;
# SelfHeating 1e-5 K on rt.T and 1e-6 V on rt.v over 0..100 s.
. "$(dirname "$0")/lib.sh"
sim() { # MODEL: build tests/simscape/+foundation_tests/MODEL.ssc into $work/MODEL
  "$LMDLC" build "$here/../simscape/+foundation_tests/$1.ssc" -I "$here/../simscape" -o "$work/$1" \
    || fail "lmdlc build $1.ssc"
}
worst() { # CSV COLUMN AWK-REF: the largest |COLUMN - REF| over the rows
  awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
    { t = $1; '"$3"'; e = $k - ref; if (e < 0) e = -e; if (e > w) w = e } END { printf "%.3g", w }' "$1"
}

sim VoiceCoil
"$work/VoiceCoil" --stop-time 2 --output-step 0.01 --rtol 1e-10 --atol 1e-12 -o "$work/coil.csv" || fail "simulator VoiceCoil"
check "$work/coil.csv" '
  uref = 3 * (1 - exp(-t / 0.375)); iref = 2 * exp(-t / 0.375)
  if (abs(v("body.v") - uref) > 1e-7) { bad = 1; why = "body.v at t=" t ": " v("body.v") " ref " uref }
  if (abs(v("r.i") - iref) > 1e-7) { bad = 1; why = "r.i at t=" t ": " v("r.i") " ref " iref }
  if (abs(v("coil.v") * v("coil.i") - v("coil.f") * v("coil.u")) > 1e-9) { bad = 1; why = "power at t=" t }'
w1=$(worst "$work/coil.csv" body.v 'ref = 3 * (1 - exp(-t / 0.375))')

sim SwitchedRC
"$work/SwitchedRC" --stop-time 5 --output-step 0.01 --rtol 1e-10 --atol 1e-12 -o "$work/sw.csv" || fail "simulator SwitchedRC"
vcref='vs = 10 * (1 - exp(-0.5 / 1001)); if (t < 0.5) ref = 10 * (1 - exp(-t / 1001)); else ref = 10 - (10 - vs) * exp(-(t - 0.5) / 1.001)'
check "$work/sw.csv" "$vcref"'
  if (abs(v("c.vc") - ref) > 1e-6) { bad = 1; why = "c.vc at t=" t ": " v("c.vc") " ref " ref }'
w2=$(worst "$work/sw.csv" c.vc "$vcref")

sim SelfHeating
"$work/SelfHeating" --stop-time 100 --output-step 0.5 --rtol 1e-10 --atol 1e-12 -o "$work/heat.csv" || fail "simulator SelfHeating"
tref='Tinf = (10 * (1 - 4e-3 * 300) + 30) / 0.06; ref = Tinf + (300 - Tinf) * exp(-0.06 * t)'
check "$work/heat.csv" "$tref"'
  vref = 10 * (1 + 4e-3 * (ref - 300))
  if (abs(v("rt.T") - ref) > 1e-5) { bad = 1; why = "rt.T at t=" t ": " v("rt.T") " ref " ref }
  if (abs(v("rt.v") - vref) > 1e-6) { bad = 1; why = "rt.v at t=" t ": " v("rt.v") " ref " vref }'
w3=$(worst "$work/heat.csv" rt.T "$tref")
echo "ok (worst |body.v - ref| = $w1 m/s, |c.vc - ref| = $w2 V, |rt.T - ref| = $w3 K)"
