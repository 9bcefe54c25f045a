#!/bin/sh
# Foundation library, physical signals: PS Gain, Add, Subtract, Product,
# Constant and Terminator in a feedback loop
# (tests/simscape/+foundation_tests/SignalLoop.ssc). A controlled current
# source charges C = 1 mF with iT = (I0 + Ib) - (g v) k, v the capacitor's
# voltage from a voltage sensor; I0 = 2 mA, Ib = 1 mA, g = 1 mA/V, k = 2:
#   c.vc = 1.5 (1 - exp(-t/0.5)) V,  g.O = 1e-3 c.vc A,  diff.O = 3e-3 - 2e-3 c.vc A
# (the units follow the blocks: g.O is in A, so diff.O and src.iT are).
# Tolerance: 1e-8 V on c.vc, 1e-11 A on g.O and diff.O, over 0..3 s.
. "$(dirname "$0")/lib.sh"
"$LMDLC" build "$here/../simscape/+foundation_tests/SignalLoop.ssc" -I "$here/../simscape" -o "$work/loop" \
  || fail "lmdlc build SignalLoop.ssc"
"$work/loop" --stop-time 3 --output-step 0.01 --rtol 1e-10 --atol 1e-12 -o "$work/out.csv" || fail simulator
check "$work/out.csv" '
  ref = 1.5 * (1 - exp(-t / 0.5))
  if (abs(v("c.vc") - ref) > 1e-8) { bad = 1; why = "c.vc at t=" t ": " v("c.vc") " ref " ref }
  if (abs(v("g.O") - 1e-3 * v("c.vc")) > 1e-11) { bad = 1; why = "g.O at t=" t ": " v("g.O") }
  if (abs(v("diff.O") - (3e-3 - 2e-3 * v("c.vc"))) > 1e-11) { bad = 1; why = "diff.O at t=" t ": " v("diff.O") }'
worst=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "c.vc") c = i; next }
  { e = $c - 1.5 * (1 - exp(-$1 / 0.5)); if (e < 0) e = -e; if (e > w) w = e } END { printf "%.3g", w }' "$work/out.csv")
echo "ok (worst |c.vc - ref| = $worst V)"
