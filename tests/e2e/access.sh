#!/bin/sh
# Access = private and ExternalAccess: --param refuses what the model keeps
# to itself, with the reason (exit 1); the public parameter is set; the
# variables of a child declared with ExternalAccess = none are no columns,
# its event variables neither; the others' event variables are columns
# after the variables.
. "$(dirname "$0")/lib.sh"
build access.lmdl sim
refused() {
  "$work/sim" --stop-time 0.1 --param "$1" -o "$work/no.csv" 2>"$work/err" && fail "--param $1 accepted"
  grep -qF "$2" "$work/err" || { cat "$work/err"; fail "--param $1: no '$2'"; }
}
refused open.r=1 "'open.r' is private to its component (parameters(Access = private)), so --param cannot change it"
refused seen.x0=1 "'seen.x0' belongs to a component declared with ExternalAccess = observe or none"
refused hidden.x0=1 "'hidden.x0' belongs to a component declared with ExternalAccess = observe or none"
# x = x0 (1 - exp(-r t)), r = 2 1/s, with open.x0 set to 5 m
"$work/sim" --stop-time 1 --output-step 0.1 --rtol 1e-10 --atol 1e-12 --param open.x0=5 \
    -o "$work/out.csv" || fail "simulator"
check "$work/out.csv" '
  if (abs(v("open.x") - 5 * (1 - exp(-2 * t))) > 1e-7) { bad = 1; why = "open.x at t=" t }
  if (abs(v("seen.x") - 2 * (1 - exp(-2 * t))) > 1e-7) { bad = 1; why = "seen.x at t=" t }
  # x passes x0 / 2 at ln(2) / r = 0.3466 s, whatever x0 (the two
  # rows of that event left out)
  if (t < 0.34 || t > 0.35) {
    if (v("open.half") != (t > 0.3466)) { bad = 1; why = "open.half at t=" t }
    if (v("seen.half") != (t > 0.3466)) { bad = 1; why = "seen.half at t=" t } }'
# ExternalAccess = none: hidden.x is simulated but is no column
[ "$(head -1 "$work/out.csv")" = "time,open.x,seen.x,open.half,seen.half" ] ||
  fail "header: $(head -1 "$work/out.csv")"
for name in hidden.x hidden.half; do
  "$work/sim" --vars $name -o "$work/no.csv" 2>"$work/err" && fail "--vars $name accepted"
  grep -qF "unknown column '$name'" "$work/err" || { cat "$work/err"; fail "no refusal of $name"; }
done
echo ok
