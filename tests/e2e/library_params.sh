#!/bin/sh
# The library's parameter ranges are checked in the simulator too, right
# after --param and before initialization: exit 3, one message naming the
# instance, the parameter and its value, at the library's assert, and no
# results file.  (Before, lever.positive_angle=2 ran silently, =0 gave
# "the system is singular in block 14", and r12=-1 the large-angle
# message.)  In range, the run is unchanged: r12 through the top-level
# parameter, and positive_angle = -1.
. "$(dirname "$0")/lib.sh"
"$LMDLC" build "$here/../../examples/wall_contact/wall_contact.lmdl" -o "$work/sim" || fail "build"
# rejects PARAM TEXT: --param PARAM fails as described, with TEXT
rejects() {
  "$work/sim" --stop-time 0.1 --param "$1" -o "$work/out.csv" 2>"$work/err"
  status=$?
  [ "$status" = 3 ] || { cat "$work/err"; fail "--param $1: exit $status, expected 3"; }
  grep -qF -e "$2" "$work/err" || fail "--param $1: expected '$2' in: $(cat "$work/err")"
  grep -q "Lever.lmdl:[0-9]*:[0-9]*: error: invalid parameters: \|Wall.lmdl:[0-9]*:[0-9]*: error: invalid parameters: \|Inertia.lmdl:[0-9]*:[0-9]*: error: invalid parameters: " "$work/err" \
    || fail "--param $1: no library location in: $(cat "$work/err")"
  [ "$(wc -l <"$work/err")" = 1 ] || fail "--param $1: more than one line: $(cat "$work/err")"
  [ -e "$work/out.csv" ] && fail "--param $1: a results file was written"
  echo "  --param $1: $(cat "$work/err")"
}
rejects lever.positive_angle=2 "assertion failed in lever: Lever: positive_angle must be 1 or -1 (lever.positive_angle = 2)"
rejects lever.positive_angle=0 "Lever: positive_angle must be 1 or -1 (lever.positive_angle = 0)"
rejects r12=-1 "assertion failed in lever: Lever: r12 must be > 0 (lever.r12 = -1 m)"
rejects 'lever.r23=0 mm' "Lever: r23 must be > 0 (lever.r23 = 0 m)"
rejects wall3.side=0 "assertion failed in wall3: Wall: side must be 1 or -1 (wall3.side = 0)"
rejects wall1.stiffness=-1 "Wall: stiffness must be >= 0 (wall1.stiffness = -1 N/m)"
rejects wall1.damping=-1 "Wall: damping must be >= 0 (wall1.damping = -1 N*s/m)"
rejects inertia.J=0 "assertion failed in inertia: Inertia: J must be > 0 (inertia.J = 0 kg*m^2)"
# In range: accepted and run.
"$work/sim" --stop-time 0.05 --param lever.positive_angle=-1 --param 'r12=150 mm' -o "$work/ok.csv" \
  2>"$work/err" || fail "in-range parameters refused: $(cat "$work/err")"
[ "$(wc -l <"$work/ok.csv")" -gt 2 ] || fail "no rows"
# Mass and Spring, with the e2e lever model.
"$LMDLC" build "$here/lever_mass.lmdl" -o "$work/lm" || fail "build lever_mass"
"$work/lm" --param mass.m=-2 2>"$work/err" >/dev/null
[ $? = 3 ] || fail "mass.m=-2 accepted"
grep -qF "Mass: m must be > 0 (mass.m = -2 kg)" "$work/err" || fail "mass.m: $(cat "$work/err")"
echo ok
