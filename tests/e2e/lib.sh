# lib.sh - helpers for end-to-end tests: compile a model with lmdlc, run
# the simulator, and compare columns of its CSV with references in awk.
# Sourced by each tests/e2e/NAME.sh with LMDLC set; runs in a scratch dir.
set -u
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# build MODEL SIM: compile a model into a simulator.
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
