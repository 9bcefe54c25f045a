#!/bin/sh
# Model 3 at +/-90 degrees (ninety.lmdl).
#  1. Nothing on R (Free, F = +1 N and -1 N): x3 = +/- t^2/2 m reaches
#     r23 = 0.1 m at t = sqrt(0.2) s, where the system is singular.  The run
#     must end in a clear error: exit status 3 (never a hang, status 124
#     under `timeout 60`; never a crash), a message with the time (within
#     1e-3 s of sqrt(0.2)), the instance `lever` and the Lever.lmdl
#     location of the equation involved.  The rows before it match
#     x3 = +/- t^2/2 and theta = asin(x3/r23) to 1e-6.
#  2. An Inertia on R (Turning, F = +1 N and -1 N): the lever turns past
#     +/-90 degrees to +/-pi.  References: the energy integral
#     J w^2/2 = r23 F sin(theta) to 1e-6 J relative to r23|F| (every row);
#     the time to 90 degrees,
#       t90 = sqrt(J/(2 r23 |F|)) * int_0^(pi/2) sin(u)^(-1/2) du
#           = sqrt(0.05) * sqrt(pi) Gamma(1/4) / (2 Gamma(3/4)) = 0.5863... s,
#     to 1e-5 s; and the turn-around at theta = pi, at 2 t90, to 1e-3 s.
. "$(dirname "$0")/lib.sh"
"$LMDLC" build "$here/ninety.lmdl" --top Free -o "$work/free" || fail "build Free"
"$LMDLC" build "$here/ninety.lmdl" --top Turning -o "$work/turning" || fail "build Turning"

for F in 1 -1; do
  timeout 60 "$work/free" --param F=$F --stop-time 1 --output-step 0.01 --rtol 1e-10 --atol 1e-12 \
      -o "$work/free$F.csv" 2>"$work/err$F"
  status=$?
  msg=$(cat "$work/err$F")
  echo "  nothing on R, F = $F N: exit $status: $msg"
  [ "$status" = 124 ] && fail "F = $F: the run hung (killed after 60 s)"
  [ "$status" = 3 ] || fail "F = $F: exit status $status, expected 3"
  grep -q "Lever\.lmdl:[0-9]*:[0-9]*: error: " "$work/err$F" || fail "F = $F: no Lever.lmdl location in: $msg"
  grep -q "lever" "$work/err$F" || fail "F = $F: no instance in: $msg"
  grep -Eqi "singular|did not converge|failed|cannot" "$work/err$F" || fail "F = $F: the message names no failure: $msg"
  ta=$(sed -n 's/.* at t = \([0-9.e+-]*\): .*/\1/p' "$work/err$F" | head -1)
  [ -n "$ta" ] || fail "F = $F: no time in: $msg"
  awk -v t="$ta" 'BEGIN { r = sqrt(0.2); d = t - r; exit !(d > -1e-3 && d < 1e-3) }' \
    || fail "F = $F: failed at t = $ta, expected near sqrt(0.2) = 0.4472"
  check "$work/free$F.csv" "F = $F"'
    x = F * t * t / 2; th = atan2(x / 0.1, sqrt(1 - (x / 0.1) ^ 2))
    if (abs(v("lever.T3.x") - x) > 1e-6) { bad = 1; why = "x3 " v("lever.T3.x") " != " x " at t=" t }
    if (abs(v("lever.theta") - th) > 1e-6 && t < 0.44) { bad = 1; why = "theta " v("lever.theta") " != " th " at t=" t }
    last = t }
    END { if (last < 0.43) { bad = 1; why = "the rows stop at " last }'
done

for F in 1 -1; do
  timeout 60 "$work/turning" --param F=$F --stop-time 1.4 --output-step 0.001 --rtol 1e-10 --atol 1e-12 \
      -o "$work/turn$F.csv" 2>"$work/terr" || fail "with an Inertia, F = $F: exit $?: $(cat "$work/terr")"
  check "$work/turn$F.csv" "F = $F"'
    th = v("lever.theta"); w = v("inertia.w"); s = F < 0 ? -1 : 1
    e = 0.005 * w * w - 0.1 * F * sin(th)
    if (abs(e) > 1e-6 * 0.1) { bad = 1; why = "energy off by " e " J at t=" t }
    if (abs(v("lever.T3.x") - 0.1 * sin(th)) > 1e-9) { bad = 1; why = "x3 at t=" t }
    if (!t90 && s * th > 3.14159265358979 / 2) t90 = pt + (t - pt) * (3.14159265358979 / 2 - s * pth) / (s * th - s * pth)
    if (!tpi && t90 && s * w < 0) tpi = pt + (t - pt) * (s * pw) / (s * pw - s * w)
    if (s * th > thmax) thmax = s * th
    pt = t; pth = th; pw = w }
    END {
      ref = sqrt(0.05) * sqrt(3.14159265358979) * 3.6256099082219083 / (2 * 1.2254167024651776)
      printf "  with an Inertia, F = %d N: 90 degrees at t = %.9f s (reference %.9f, error %.2g), |theta| max %.6f rad, turns back at %.4f s (reference %.4f)\n", F, t90, ref, t90 - ref, thmax, tpi, 2 * ref
      if (!t90) { bad = 1; why = "theta never passed 90 degrees (max " thmax ")" }
      else if (abs(t90 - ref) > 1e-5) { bad = 1; why = "90 degrees at " t90 ", expected " ref }
      if (abs(thmax - 3.14159265358979) > 1e-3) { bad = 1; why = "|theta| max " thmax ", expected pi" }
      if (abs(tpi - 2 * ref) > 1e-3) { bad = 1; why = "turned back at " tpi ", expected " 2 * ref }'
done
echo ok
