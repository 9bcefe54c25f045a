#!/bin/sh
# scratch_clean.sh - an e2e script leaves nothing in $TMPDIR: limits.sh,
# run with a TMPDIR of its own, must leave it empty (it once set a trap
# of its own, which replaced lib.sh's, and its scratch directory stayed).
. "$(dirname "$0")/lib.sh"
mkdir "$work/tmp"
TMPDIR=$work/tmp sh "$here/limits.sh" > "$work/out" 2>&1 || { cat "$work/out"; fail "limits.sh failed"; }
left=$(ls -A "$work/tmp")
[ -z "$left" ] || fail "limits.sh left in TMPDIR: $left"
echo "PASS: limits.sh leaves TMPDIR empty"
