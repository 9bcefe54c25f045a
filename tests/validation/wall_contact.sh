#!/bin/sh
# The wall-contact example (examples/wall_contact/wall_contact.lmdl): which
# end touches its wall, and when, against an independent integration of
#   J theta'' = eps cos(theta) (r23 F3 - r12 F1)   (docs/lever.md)
# in awk, RK4 with a fixed step of 1e-5 s, from rest at theta = 0, until
# an end reaches its wall: with T2 fixed at 0, x3 = r23 sin(theta) and
# x1 = -r12 sin(theta), and both walls are at `gap` on the +x side.  The
# crossing step is refined by bisection on the length of the last RK4
# step.  Checked: the first `penetration > 0,true` event of the event log
# (the wall's max() clamp logs events of its own; they are skipped): its
# instance (wall3 when r23 F3 - r12 F1 > 0, wall1 when < 0) and its time
# to 1e-5 s; the other wall never touches; and theta follows the
# reference up to the contact.  Each case runs twice: with the default
# solver tolerances, as the README runs it (contact time to 1e-5 s, theta
# to 1e-5 rad), and with --rtol 1e-10 --atol 1e-12 (1e-8 s, 1e-8 rad).
. "$(dirname "$0")/lib.sh"
build ../../examples/wall_contact/wall_contact.lmdl sim

# reference F1 F3 r12 r23 gap J: prints "TIME WALL"
reference() {
  awk -v F1=$1 -v F3=$2 -v r12=$3 -v r23=$4 -v gap=$5 -v J=$6 '
    function acc(th) { return cos(th) * (r23 * F3 - r12 * F1) / J }
    function g(th) { return (r23 * sin(th) > -r12 * sin(th) ? r23 * sin(th) : -r12 * sin(th)) - gap }
    function rk4(th, w, h,   k1, k2, k3, k4, l1, l2, l3, l4) {
      k1 = w;              l1 = acc(th)
      k2 = w + h / 2 * l1; l2 = acc(th + h / 2 * k1)
      k3 = w + h / 2 * l2; l3 = acc(th + h / 2 * k2)
      k4 = w + h * l3;     l4 = acc(th + h * k3)
      TH = th + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4); W = w + h / 6 * (l1 + 2 * l2 + 2 * l3 + l4)
    }
    BEGIN {
      h = 1e-5; t = 0; th = 0; w = 0
      while (t < 10) {
        rk4(th, w, h)
        if (g(TH) >= 0) break
        t += h; th = TH; w = W
      }
      if (t >= 10) { print "none"; exit }
      lo = 0; hi = h
      for (i = 0; i < 60; i++) { m = (lo + hi) / 2; rk4(th, w, m); if (g(TH) < 0) lo = m; else hi = m }
      rk4(th, w, hi)
      printf "%.15g %s\n", t + hi, (TH > 0 ? "wall3" : "wall1")
    }'
}

# case NAME F1 F3 r12 r23 gap(m) [--param ...]
n=0
case_() {
  name=$1 F1=$2 F3=$3 r12=$4 r23=$5 gap=$6; shift 6
  for tight in no yes; do
    if [ $tight = yes ]; then tol=1e-8; solver="--rtol 1e-10 --atol 1e-12"; name="$name, tight"
    else tol=1e-5; solver=; fi
    one "$@"
  done
}
one() {
  n=$((n + 1))
  ref=$(reference $F1 $F3 $r12 $r23 $gap 0.01)
  tr=${ref% *} wr=${ref#* }
  [ "$ref" != none ] || fail "$name: the reference never touches"
  other=wall1; [ $wr = wall1 ] && other=wall3
  # to a little after contact
  stop=$(awk -v t=$tr 'BEGIN { print t + 0.01 }')
  "$work/sim" --stop-time $stop --output-step 0.0005 $solver "$@" -o "$work/$n.csv" --events "$work/$n.ev" \
    || fail "$name: simulator"
  got=$(first_event "$work/$n.ev" '*' 'penetration > 0' true)
  [ -n "$got" ] || fail "$name: no penetration event in $(cat "$work/$n.ev")"
  te=${got% *} we=${got#* }
  sign=$(awk -v a=$F1 -v b=$F3 -v r1=$r12 -v r3=$r23 'BEGIN { k = r3 * b - r1 * a; print (k > 0 ? "> 0" : "< 0") }')
  echo "  $name: r23*F3 - r12*F1 $sign: first contact $we at $te s; reference $wr at $tr s"
  [ "$we" = "$wr" ] || fail "$name: $we touched first, expected $wr"
  near "$name: contact time (s)" "$te" "$tr" $tol
  grep -q "^[^,]*,$other,penetration > 0,true" "$work/$n.ev" && fail "$name: $other touched too"
  # theta before contact, against the same RK4 (to each output row's
  # time, with a partial last step for the rows at event times)
  awk -F, -v F1=$F1 -v F3=$F3 -v r12=$r12 -v r23=$r23 -v tc=$tr -v tol=$tol '
    function abs(v) { return v < 0 ? -v : v }
    function acc(th) { return cos(th) * (r23 * F3 - r12 * F1) / 0.01 }
    function rk4(th, w, h,   k1, k2, k3, k4, l1, l2, l3, l4) {
      k1 = w;              l1 = acc(th)
      k2 = w + h / 2 * l1; l2 = acc(th + h / 2 * k1)
      k3 = w + h / 2 * l2; l3 = acc(th + h / 2 * k2)
      k4 = w + h * l3;     l4 = acc(th + h * k3)
      TH = th + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4); W = w + h / 6 * (l1 + 2 * l2 + 2 * l3 + l4)
    }
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; h = 1e-5; k = 0; th = 0; w = 0; next }
    { tt = $1 + 0; if (tt > tc - 1e-4) exit
      while ((k + 1) * h <= tt) { rk4(th, w, h); th = TH; w = W; k++ }
      rk4(th, w, tt - k * h)
      e = abs($col["lever.theta"] - TH); if (e > worst) worst = e; rows++
      if ($col["wall1.f"] != 0 || $col["wall3.f"] != 0) { if (!wf) print "a wall force before contact at t=" tt; wf = 1 } }
    END { printf "  %s: theta before contact (%d rows): largest error %.3g rad (tolerance %g)\n", name, rows, worst, tol
          exit !(worst <= tol && rows > 50 && !wf) }' \
    name="$name" "$work/$n.csv" || fail "$name: theta before contact"
}

case_ default         10 15 0.1  0.1  0.01
case_ "F3=5"         10 5  0.1  0.1  0.01  --param F3=5
case_ "F3=5, r12=12 cm" 10 5 0.12 0.1 0.01 --param F3=5 --param 'r12=12 cm'
case_ "F1=3, r23=70 mm, gap=15 mm" 3 15 0.1 0.07 0.015 --param F1=3 --param 'r23=70 mm' --param 'gap=15 mm'
echo ok
