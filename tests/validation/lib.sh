# lib.sh - helpers for the validation tests (tests/validation/NAME.sh).
# The first three are those of tests/e2e/lib.sh; near compares two
# numbers, first_event reads the event log.  POSIX sh and awk only.
# Sourced with LMDLC set (ctest sets it, and LMDL_CACHE); runs in a
# scratch directory.
set -u
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# build MODEL SIM: compile a model (a path relative to this directory)
# into the simulator $work/SIM.
build() {
  "$LMDLC" build "$here/$1" -o "$work/$2" || fail "lmdlc build $1"
}

# check CSV AWKBODY: runs awk over CSV with col["name"] mapped to field
# numbers; the body sets bad=1 (and why) on a mismatch.
check() {
  awk -F, -v q="'" "
    function abs(v) { return v < 0 ? -v : v }
    function v(name) { if (!(name in col)) { print \"no column \" name; exit 2 } return \$col[name] + 0 }
    NR == 1 { for (i = 1; i <= NF; i++) col[\$i] = i; next }
    { t = \$1 + 0; $2 }
    END { if (bad) { print \"mismatch: \" why; exit 1 } }" "$1" || fail "check on $1"
}

# near NAME GOT REF TOL: |GOT - REF| <= TOL, else fail; prints the error.
near() {
  awk -v n="$1" -v g="$2" -v r="$3" -v tol="$4" 'BEGIN {
    e = g - r; if (e < 0) e = -e
    printf "  %s: %.17g, reference %.17g, error %.3g (tolerance %g)\n", n, g, r, e, tol
    exit !(e <= tol) }' || fail "$1 = $2, expected $3 within $4"
}

# first_event EVENTS INSTANCE CONDITION VALUE: prints "TIME INSTANCE" of
# the first event with that condition and value (INSTANCE '*' for any).
first_event() {
  awk -F, -v inst="$2" -v cond="$3" -v val="$4" '
    NR > 1 && (inst == "*" || $2 == inst) && $3 == cond && $4 == val { print $1, $2; exit }' "$1"
}
