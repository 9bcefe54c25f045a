#!/bin/sh
# SIGTERM, SIGHUP or SIGINT to `lmdlc build` while the C compiler runs stops the
# compiler and everything it started, removes the temporary files, and
# lmdlc dies of the same signal (status 128 + N in the shell).  CC is a
# script that starts a child (as gcc starts cc1 and ld) and waits.
. "$(dirname "$0")/lib.sh"
cat >"$work/slowcc" <<'CC'
#!/bin/sh
sleep 60 &
echo "$$ $!" >"$PIDFILE.tmp"
mv "$PIDFILE.tmp" "$PIDFILE"
wait
CC
chmod +x "$work/slowcc"
mkdir "$work/out"
# alive PID: running, not a zombie (an orphan's zombie waits for init,
# which may take its time to reap it)
alive() {
  [ -r "/proc/$1/stat" ] || return 1
  ! grep -q '^[0-9]* (.*) Z ' "/proc/$1/stat"
}

# A background job of a non-interactive shell ignores SIGINT; perl (in
# Debian's essential perl-base) restores the default for that case.
sigs="TERM:15 HUP:1"
if command -v perl >/dev/null 2>&1; then
  sigs="$sigs INT:2"
  launch() { exec perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV' "$@"; }
else
  launch() { exec "$@"; }
fi
for pair in $sigs; do
  sig=${pair%:*}
  pidfile="$work/pids.$sig"
  PIDFILE=$pidfile CC="$work/slowcc" launch "$LMDLC" build "$model" -o "$work/out/sim" 2>"$work/err" &
  lmdlc=$!
  i=0
  while [ ! -s "$pidfile" ]; do
    i=$((i + 1))
    [ $i -le 500 ] || { kill -KILL $lmdlc; fail "$sig: the compiler never started"; }
    sleep 0.02
  done
  kill -$sig $lmdlc
  wait $lmdlc
  status=$?
  want=$((128 + ${pair#*:}))
  [ "$status" = "$want" ] || { cat "$work/err"; fail "$sig: lmdlc exited $status, expected $want"; }
  for p in $(cat "$pidfile"); do
    j=0
    while alive "$p" && [ $j -lt 100 ]; do j=$((j + 1)); sleep 0.02; done
    if alive "$p"; then
      kill -KILL "$p"
      fail "$sig: process $p of the compiler survived"
    fi
  done
  left=$(ls -A "$work/out")
  [ -z "$left" ] || fail "$sig: left behind: $left"
  echo "  SIG$sig: exit $status, the compiler's processes gone, nothing left"
done
echo ok
