# lib.sh - shared helpers for the runtime tests (POSIX sh and awk only, so
# a fresh CI machine needs nothing else).  Source it after setting nothing;
# it makes $tmp, removed on exit.

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lmdl_rt.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# run WANT CMD ARGS...: runs CMD with stdout in $tmp/out.csv and stderr in
# $tmp/err, and fails unless it exits with status WANT.
run() {
    want=$1
    shift
    "$@" >"$tmp/out.csv" 2>"$tmp/err"
    got=$?
    if [ "$got" != "$want" ]; then
        sed 's/^/  stderr: /' "$tmp/err" >&2
        fail "exit status $got, expected $want: $*"
    fi
}

# run_within SECONDS WANT CMD ARGS...: run, with a bound on the wall-clock
# time: a watchdog stops CMD after SECONDS, and that fails the test
# (instead of leaving it to ctest's TIMEOUT).  The watchdog's sleep may
# outlive the test by up to SECONDS; its output goes nowhere.
run_within() {
    limit=$1 want=$2
    shift 2
    rm -f "$tmp/timed_out"
    "$@" >"$tmp/out.csv" 2>"$tmp/err" &
    pid=$!
    (sleep "$limit"; : >"$tmp/timed_out"; kill "$pid") >/dev/null 2>&1 &
    dog=$!
    wait "$pid"
    got=$?
    kill "$dog" 2>/dev/null
    wait "$dog" 2>/dev/null
    [ -e "$tmp/timed_out" ] && fail "did not finish within $limit s: $*"
    if [ "$got" != "$want" ]; then
        sed 's/^/  stderr: /' "$tmp/err" >&2
        fail "exit status $got, expected $want: $*"
    fi
}

# check_max NAME TOL FILE AWK: evaluates the awk statements AWK on every
# data row of the CSV FILE, with c["col"] the field number of a column
# (so $c["time"] is the time) and `err` the error they compute; fails if
# the largest |err| exceeds TOL.  Prints the largest error either way.
check_max() {
    name=$1 tol=$2 file=$3 code=$4
    awk -F, -v name="$name" -v tol="$tol" "
        NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
        { err = 0; $code; if (err < 0) err = -err; if (err > worst) worst = err; n++ }
        END {
            printf \"%s: %d rows, max error %.3g (tolerance %g)\\n\", name, n, worst, tol
            exit !(n > 0 && worst <= tol)
        }" "$file" || fail "$name: error above $tol"
}

# expect_in FILE TEXT: FILE contains the fixed string TEXT.
expect_in() {
    grep -F -e "$2" "$1" >/dev/null || {
        sed 's/^/  got: /' "$1" >&2
        fail "expected '$2' in $(basename "$1")"
    }
}
