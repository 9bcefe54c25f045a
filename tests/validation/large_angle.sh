#!/bin/sh
# The model 1 and model 2 assert: |length_P13| <= r12 + r23
# (large_angle.lmdl: |length_P13| = t^2 passes 0.2 m at t = sqrt(0.2) s).
# Models 1 and 2 stop with exit status 3 and a message naming the time
# (sqrt(0.2) s within 1e-6: the assert's relation is a zero crossing,
# located like an event), the instance path rig.lever, the assert's message and its
# source location, Lever.lmdl:LINE:COLUMN, taken from the library file.
# The rows before the failure are kept and match |length_P13| = t^2 to
# 1e-7 m.  Model 3 in the same situation does not fire: exit 0, and
# length_P13 = 0.2 sin(5 t^2) m to 1e-6 m up to t = 0.6 s, past 90 degrees.
. "$(dirname "$0")/lib.sh"
lever="${LMDL_STDLIB:-$here/../../library}/Lever.lmdl"
[ -f "$lever" ] || fail "no $lever"
# where ASSERT MESSAGE-FRAGMENT: LINE:COLUMN of the assert whose message has it
where() {
  awk -v m="$1" 'index($0, "assert(") && index($0, m) { print NR ":" index($0, "assert("); n++ }
    END { exit n != 1 }' "$lever" || fail "no single assert with '$1' in $lever"
}
loc1=$(where "rotational_port = true, linearized = false")
loc2=$(where "use the full-angle model (linearized = false)")
echo "  model 1 assert at Lever.lmdl:$loc1, model 2 at Lever.lmdl:$loc2"

for k in 1 2; do
  "$LMDLC" build "$here/large_angle.lmdl" --top LargeAngle$k -o "$work/sim$k" || fail "build model $k"
  "$work/sim$k" --stop-time 0.6 --output-step 0.01 --rtol 1e-10 --atol 1e-12 \
      -o "$work/$k.csv" 2>"$work/err$k"
  status=$?
  msg=$(cat "$work/err$k")
  echo "  model $k: exit $status: $msg"
  [ "$status" = 3 ] || fail "model $k: exit status $status, expected 3"
  eval loc=\$loc$k
  grep -q "Lever\.lmdl:$loc: error: " "$work/err$k" || fail "model $k: no location Lever.lmdl:$loc in: $msg"
  grep -q "assertion failed in rig\.lever: " "$work/err$k" || fail "model $k: no instance path rig.lever in: $msg"
  grep -q "the lever operates at a very large angle" "$work/err$k" || fail "model $k: no message in: $msg"
  ta=$(sed -n 's/.* at t = \([0-9.e+-]*\): .*/\1/p' "$work/err$k" | head -1)
  [ -n "$ta" ] || fail "model $k: no time in: $msg"
  awk -v t="$ta" 'BEGIN { r = sqrt(0.2); exit !(t >= r - 1e-6 && t <= r + 1e-6) }' \
    || fail "model $k: failed at t = $ta, expected sqrt(0.2) +/- 1e-6"
  check "$work/$k.csv" '
    L = v("rig.lever.length_P13"); if (abs(abs(L) - t * t) > 1e-7) { bad = 1; why = "L13 " L " at t=" t }
    if (abs(L) > 0.2) { bad = 1; why = "a row past the limit at t=" t }
    n++; last = t }
    END { if (last < 0.447 || n != 46) { bad = 1; why = n " rows kept, the last at " last " (expected 46: to 0.44, and the left limit at the failure)" }'
done

"$LMDLC" build "$here/large_angle.lmdl" --top LargeAngle3 -o "$work/sim3" || fail "build model 3"
"$work/sim3" --stop-time 0.6 --output-step 0.01 --rtol 1e-10 --atol 1e-12 -o "$work/3.csv" 2>"$work/err3" \
  || fail "model 3 failed: $(cat "$work/err3")"
[ -s "$work/err3" ] && fail "model 3 printed: $(cat "$work/err3")"
check "$work/3.csv" '
  L = v("rig.lever.length_P13"); ref = 0.2 * sin(5 * t * t)
  if (abs(L - ref) > 1e-6) { bad = 1; why = "model 3 L13 " L " != " ref " at t=" t }
  if (abs(v("rig.lever.theta") - 5 * t * t) > 1e-6) { bad = 1; why = "model 3 theta at t=" t }
  last = t; th = v("rig.lever.theta") }
  END { if (last < 0.6) { bad = 1; why = "model 3 stopped at " last }
        if (th < 3.14159 / 2) { bad = 1; why = "model 3 did not pass 90 degrees: " th }
        else printf "  model 3: ran to t = %g s, theta = %.9g rad, |length_P13| <= 0.2 m\n", last, th'
echo ok
