# lib.sh - helpers for the validation tests (tests/validation/NAME.sh).
# build, check and fail are tests/e2e/lib.sh's; near compares two
# numbers, first_event reads the event log.  POSIX sh and awk only.
# Sourced with LMDLC set (ctest sets it, and LMDL_CACHE); runs in a
# scratch directory.
# build, check and fail come from the end-to-end tests' helpers.
. "$(dirname "$0")/../e2e/lib.sh"

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
