#!/bin/sh
# The wall never pulls (examples/wall_contact/wall_contact.lmdl run past
# contact, to 0.3 s, through several bounces; default F3 = 15 N for wall3,
# --param F3=5 for wall1).  Reference: the Wall of docs/library.md,
#   f = max(stiffness*penetration + damping*side*P.v, 0) while
#   penetration > 0, else 0; reaction = side*f,
# computed in awk from the columns of each row.  Checked on every row:
#  - f >= -1e-9 N: never negative.  (The two rows at an event time are
#    evaluated with the branch from before and from after the event; the
#    clamp's crossing is located to ~1e-15 s, where the spring-damper
#    force is ~1e-10 N, so a row may show f = -9e-11 N; 1e-9 N is that
#    margin, far below the ~300 N of contact.)
#  - penetration <= 0: f = 0 (1e-9 N);
#  - penetration > 1e-12 m (beyond the event location): f equals the
#    formula to 1e-9 relative, and f > 0 wherever the spring-damper force
#    exceeds 1e-6 N: positive while it presses, zero once the clamp holds
#    it at 0 while the end still leaves the wall;
#  - reaction = side*f and the lever feels it: lever.fN = FN - f (1e-9).
# And the event log must show a bounce: at least two `penetration > 0,true`
# events of the wall, with a `false` between them, and none of the other
# wall.
. "$(dirname "$0")/lib.sh"
build ../../examples/wall_contact/wall_contact.lmdl sim

for w in wall3 wall1; do
  if [ $w = wall3 ]; then p=; F=15; end=3; other=wall1; else p="--param F3=5"; F=10; end=1; other=wall3; fi
  "$work/sim" --stop-time 0.3 $p -o "$work/$w.csv" --events "$work/$w.ev" || fail "$w: simulator"
  check "$work/$w.csv" "F = $F"'
    f = v("'$w'.f"); pen = v("'$w'.penetration"); vel = v("'$w'.P.v"); r = v("'$w'.reaction")
    arg = 1e6 * pen + 1e3 * vel; ref = arg > 0 ? arg : 0
    if (f < -1e-9) { bad = 1; why = "'$w'.f = " f " < 0 at t=" t }
    if (f < fmin) fmin = f
    if (pen <= 0 && abs(f) > 1e-9) { bad = 1; why = "'$w'.f = " f " out of contact at t=" t }
    if (pen > 1e-12) {
      if (abs(f - ref) > 1e-9 * (1 + abs(arg))) { bad = 1; why = "'$w'.f = " f ", formula " ref " at t=" t }
      if (arg > 1e-6 && !(f > 0)) { bad = 1; why = "'$w'.f = " f " while pressing (" arg " N) at t=" t }
      if (f > 0) pos++
      if (f > fmax) fmax = f
      inside++
    }
    if (abs(r - f) > 1e-9 * (1 + f)) { bad = 1; why = "reaction " r " != f " f " at t=" t }
    if (abs(v("lever.f'$end'") - (F - f)) > 1e-9 * (F + f)) { bad = 1; why = "lever.f'$end' " v("lever.f'$end'") " != " F " - " f " at t=" t }
    rows++ }
    END { printf "  '$w': %d rows, %d in contact (%d with f > 0), f from %.3g to %.6g N\n", rows, inside, pos, fmin, fmax
          if (pos < 20) { bad = 1; why = "only " pos " rows with contact force" }'
  awk -F, -v w=$w -v o=$other '
    $2 == w && $3 == "penetration > 0" { if ($4 == "true") { on++; if (off && on >= 2) bounce = 1 } else if (on) off++ }
    $2 == o && $3 == "penetration > 0" { other++ }
    END { printf "  %s: %d contacts, %d releases in 0.3 s; %s touched %d times\n", w, on, off, o, other
          exit !(bounce && !other) }' "$work/$w.ev" || fail "$w: no bounce, or $other touched: $(cat "$work/$w.ev")"
done
echo ok
