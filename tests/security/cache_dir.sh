#!/bin/sh
# The cache directory of `lmdlc run` is used only when it is a real
# directory, owned by the user and writable by no one else; otherwise
# lmdlc refuses (exit 2) with a message that says how to fix it, and runs
# nothing from it.  Missing levels are created with mode 0700.
. "$(dirname "$0")/lib.sh"

# Created, each missing level 0700, from LMDL_CACHE, XDG_CACHE_HOME, HOME.
runs_decay "$work/new/a/b"
for d in "$work/new" "$work/new/a" "$work/new/a/b"; do
  [ "$(mode "$d")" = 700 ] || fail "$d has mode $(mode "$d"), expected 700"
done
mkdir "$work/xdg"
env -u LMDL_CACHE XDG_CACHE_HOME="$work/xdg" "$LMDLC" run "$model" --stop-time 0.1 >/dev/null \
  || fail "run with XDG_CACHE_HOME"
[ "$(mode "$work/xdg/lmdl")" = 700 ] || fail "XDG_CACHE_HOME/lmdl mode $(mode "$work/xdg/lmdl")"
env -u LMDL_CACHE -u XDG_CACHE_HOME HOME="$work/home" "$LMDLC" run "$model" --stop-time 0.1 >/dev/null \
  || fail "run with HOME"
[ "$(mode "$work/home/.cache")" = 700 ] && [ "$(mode "$work/home/.cache/lmdl")" = 700 ] \
  || fail "HOME/.cache/lmdl modes $(mode "$work/home/.cache") $(mode "$work/home/.cache/lmdl")"

# refused DIR TEXT: run with the cache DIR fails with exit 2 and TEXT,
# and puts no simulator in it.
refused() {
  LMDL_CACHE=$1 "$LMDLC" run "$model" --stop-time 0.1 >"$work/out.csv" 2>"$work/err"
  status=$?
  [ "$status" = 2 ] || { cat "$work/err"; fail "cache $1: exit $status, expected 2"; }
  expect_in "$work/err" "$2"
  expect_in "$work/err" "set LMDL_CACHE to a directory of your own"
  [ -s "$work/out.csv" ] && fail "cache $1: something ran"
  if ls "$1"/sim-* >/dev/null 2>&1; then fail "cache $1: a simulator was written"; fi
}

# World- and group-writable.
mkdir -m 0777 "$work/open"
refused "$work/open" "it is writable by everyone (mode 0777)"
expect_in "$work/err" "chmod go-w $work/open"
mkdir -m 0770 "$work/group"
refused "$work/group" "it is writable by its group (mode 0770)"
# A symbolic link, even to a good directory.
mkdir -m 0700 "$work/real"
ln -s "$work/real" "$work/link"
refused "$work/link" "it is a symbolic link"
# ... however its path ends: 'link/' and 'link/.' name where the link
# points, so the link must be seen before they are resolved.
refused "$work/link/" "refusing the cache directory '$work/link' (from LMDL_CACHE): it is a symbolic link"
refused "$work/link//" "it is a symbolic link"
refused "$work/link/./" "it is a symbolic link"
# A real directory written with a trailing slash is fine.
runs_decay "$work/real/"
# Not a directory.
: >"$work/file"
refused "$work/file" "it is not a directory"

# Owned by someone else (needs root to make one; CI runs as root).
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
  mkdir -m 0700 "$work/theirs"
  chown nobody "$work/theirs"
  refused "$work/theirs" "it belongs to user id $(id -u nobody), not to you (0)"
  # The fallback without HOME is /tmp/lmdl-cache-UID: lmdlc checks it like
  # any other.  Only tested when it is not there already (it may be the
  # machine's real cache).
  fallback=/tmp/lmdl-cache-0
  if [ ! -e "$fallback" ] && mkdir -m 0755 "$fallback" 2>/dev/null; then
    chown nobody "$fallback"
    env -u LMDL_CACHE -u XDG_CACHE_HOME -u HOME "$LMDLC" run "$model" --stop-time 0.1 \
      >"$work/out.csv" 2>"$work/err"
    status=$?
    rm -rf "$fallback"
    [ "$status" = 2 ] || fail "planted $fallback: exit $status"
    expect_in "$work/err" "refusing the cache directory '$fallback' (the default without HOME): it belongs to user id"
  fi
else
  echo "not root: the other-owner cases are skipped"
  exit 77
fi
echo ok
