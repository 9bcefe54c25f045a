# lib.sh - helpers for the security tests (tests/security/NAME.sh, label
# security): each runs lmdlc ($LMDLC) on decay.lmdl in a scratch
# directory with its own cache, as an attacker sharing the machine would
# find it.  Tests that need to create files owned by another user skip
# (status 77) unless run as root, as they are in CI.
set -u
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cp "$here/decay.lmdl" "$work/decay.lmdl"
model="$work/decay.lmdl"

# expect_in FILE TEXT: FILE contains the fixed string TEXT.
expect_in() {
  grep -qF -e "$2" "$1" || { sed 's/^/  got: /' "$1"; fail "expected '$2' in $(basename "$1")"; }
}
# expect_not_in FILE TEXT
expect_not_in() {
  if grep -qF -e "$2" "$1"; then sed 's/^/  got: /' "$1"; fail "did not expect '$2'"; fi
}
# mode PATH: the permission bits, in octal (stat is GNU coreutils here)
mode() { stat -c %a "$1"; }

# runs_decay CACHE: `lmdlc run` with that cache gives the real results
# (x = exp(-t) at t = 1 within 1e-7).
runs_decay() {
  LMDL_CACHE=$1 "$LMDLC" run "$model" --stop-time 1 --output-step 0.5 --rtol 1e-9 >"$work/out.csv" 2>"$work/err" \
    || { cat "$work/err"; fail "lmdlc run with cache $1: exit $?"; }
  awk -F, 'NR == 4 { d = $2 - exp(-1); exit !($1 == 1 && d < 1e-7 && d > -1e-7) } END { if (NR != 4) exit 1 }' \
    "$work/out.csv" || { cat "$work/out.csv"; fail "not the decay results"; }
}
