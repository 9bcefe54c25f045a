#!/bin/sh
# Simscape's functions (tests/simscape/+functions/Builtins.ssc), against
# values worked out by hand, to 1e-9: x = t; y = 10 from t = 2 s (7 + 2 -
# 2 + 3: floor, ceil, fix, round), 0 before; z = mod(-7.5, 2) + rem(-7.5,
# 2) + |t - 7.5| = -1 + |t - 7.5|; w = simscape.function.blend(0, 7.5, 1,
# 3, t): 0 up to t = 1, 7.5 from t = 3, 7.5 u^2 (3 - 2u) with u = (t -
# 1)/2 between.
# Then simscape.function.limit (Limit.ssc): y = t - 1 clamped to
# [-0.5, 1.5], to 1e-9 away from the corners (the rows at the two
# crossings are the limits either way).
# Then logicals in arithmetic (LogicalArith.ssc): y = (t - 1) (t > 1),
# z = 2 + (t > 0.5), to 1e-9 away from the switching times.
. "$(dirname "$0")/lib.sh"
"$LMDLC" build "$here/../simscape/+functions/Builtins.ssc" -I "$here/../simscape" \
  -o "$work/sim" || fail "build"
"$work/sim" --stop-time 4 --output-step 0.25 --no-event-emit -o "$work/out.csv" || fail "run"
check "$work/out.csv" '
  ex = t; ey = t >= 2 - 1e-9 ? 10 : 0; ez = -1 + abs(t - 7.5)
  u = (t - 1) / 2; ew = t <= 1 ? 0 : t >= 3 ? 7.5 : 7.5 * u * u * (3 - 2 * u)
  if (abs(v("x") - ex) > 1e-9 || abs(v("z") - ez) > 1e-9 || abs(v("w") - ew) > 1e-9) {
    bad = 1; why = "t=" t ": x " v("x") " z " v("z") " w " v("w")
  }
  if (t > 2.01 || t < 1.99) { if (abs(v("y") - ey) > 1e-9) { bad = 1; why = "t=" t ": y " v("y") } }'
inc="$here/../simscape"
"$LMDLC" build "$inc/+functions/Limit.ssc" -I "$inc" -o "$work/limit" || fail "build Limit"
"$work/limit" --stop-time 3 --output-step 0.25 -o "$work/limit.csv" || fail "run Limit"
check "$work/limit.csv" '
  e = t - 1; e = e < -0.5 ? -0.5 : e > 1.5 ? 1.5 : e
  if (abs(v("y") - e) > 1e-9) { bad = 1; why = "t=" t ": y " v("y") " vs " e }'
"$LMDLC" build "$inc/+functions/LogicalArith.ssc" -I "$inc" -o "$work/la" || fail "build LogicalArith"
"$work/la" --stop-time 2 --output-step 0.25 -o "$work/la.csv" || fail "run LogicalArith"
check "$work/la.csv" '
  if (abs(t - 1) > 1e-6 && abs(t - 0.5) > 1e-6) {
    ey = t > 1 ? t - 1 : 0; ez = t > 0.5 ? 3 : 2
    if (abs(v("y") - ey) > 1e-9 || abs(v("z") - ez) > 1e-9) { bad = 1; why = "t=" t ": y " v("y") " z " v("z") }
  }'
echo ok
