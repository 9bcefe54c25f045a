# lib.sh - helpers for the tests of lmdlc plot and of the simulator's
# RESULTS.meta (label plot; docs/plots.md).  Sourced by each
# tests/plot/NAME.sh with LMDLC set; gnuplot missing: skip (77).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/lmdl_plot.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot not installed"; exit 77; }
py=/usr/bin/python3
[ -x "$py" ] || py=python3

# sim MODEL SIM: compile MODEL (a path from the top of the tree) into SIM.
sim() {
  "$LMDLC" build "$root/$1" -o "$2" || fail "lmdlc build $1"
}

# plot EXPECTED ARGS...: lmdlc plot ARGS, stdout and stderr in
# $work/out and $work/err, must exit EXPECTED.
plot() {
  want=$1
  shift
  "$LMDLC" plot "$@" >"$work/out" 2>"$work/err"
  got=$?
  [ "$got" = "$want" ] || { sed 's/^/  stderr: /' "$work/err"; fail "plot $*: exit $got, expected $want"; }
}

# svg_text SVG: every text element of SVG (parsed as XML, so a broken
# file fails), one per line: "ylabel<TAB>TEXT" for the rotated ones,
# "text<TAB>TEXT" for the others (title, key, tic labels, x label).
svg_text() {
  "$py" "$here/svgtext.py" "$1" >"$work/texts" || fail "$1 is not well-formed SVG"
}

# has TEXT...: each line is one of $work/texts (svg_text).
has() {
  for line in "$@"; do
    grep -qxF -e "$line" "$work/texts" || { sed 's/^/  text: /' "$work/texts"; fail "no '$line' in the SVG"; }
  done
}

# expect_in FILE TEXT: FILE contains the fixed string TEXT.
expect_in() {
  grep -qF -e "$2" "$1" || { sed 's/^/  got: /' "$1"; fail "expected '$2' in $(basename "$1")"; }
}

# only_lmdlc_messages: every line of $work/err is lmdlc's own, none a
# warning or error of gnuplot's.
only_lmdlc_messages() {
  if grep -v '^lmdlc: ' "$work/err" | grep -q .; then
    sed 's/^/  stderr: /' "$work/err"
    fail "gnuplot printed something"
  fi
}
