#!/bin/sh
# full_disk.sh OSC_SIM LMDLC MODEL: a full disk is a failed run, never a
# success with a short file.  /dev/full (every write fails with ENOSPC)
# stands for the disk: behind a results file of each format, an event
# log, standard output.  Where this machine lets a small tmpfs be mounted
# (as root in CI), a disk that fills up for real: the simulator's results
# and its units file, lmdlc's emit-c, each exits non-zero, and no file
# that existed before is replaced by a short one (outputs written through
# a rename are flushed to the disk first).
. "$(dirname "$0")/lib.sh"
sim=$1 lmdlc=$2 model=$3
[ -w /dev/full ] || { echo "no /dev/full: skipped"; exit 77; }
for f in r.csv r.mat; do
    ln -sf /dev/full "$tmp/$f"
    run 3 "$sim" --stop-time 1 -o "$tmp/$f"
    grep -q "cannot write '$tmp/$f'" "$tmp/err" || fail "-o $f on a full disk: $(cat "$tmp/err")"
done
run 3 "$sim" --stop-time 1 -o "$tmp/ok.csv" --events /dev/full
grep -q "cannot write '/dev/full'" "$tmp/err" || fail "--events on a full disk: $(cat "$tmp/err")"
"$sim" --stop-time 1 >/dev/full 2>"$tmp/err" && fail "results on standard output to a full disk: exit 0"
grep -q "cannot write 'standard output'" "$tmp/err" || fail "stdout on a full disk: $(cat "$tmp/err")"
"$lmdlc" emit-c "$model" -o /dev/full 2>"$tmp/err" && fail "emit-c -o /dev/full: exit 0"

# a real file system that fills up
small=$tmp/small
mkdir "$small"
if ! mount -t tmpfs -o size=64k lmdl_full "$small" 2>/dev/null; then
    echo "ok (no tmpfs mount here: the filling disk is not tested)"
    exit 0
fi
trap 'umount "$small" 2>/dev/null; rm -rf "$tmp"' EXIT
printf 'old results\n' >"$small/r.csv"
printf 'old C\n' >"$small/m.c"
dd if=/dev/zero of="$small/fill" bs=1k count=64 2>/dev/null
for f in r.csv r.mat; do
    "$sim" --stop-time 1 --output-step 0.001 -o "$small/$f" 2>"$tmp/err" \
        && fail "-o $f on a filling disk: exit 0"
done
"$lmdlc" emit-c "$model" -o "$small/m.c" 2>"$tmp/err" && fail "emit-c on a filling disk: exit 0"
grep -q "^old C$" "$small/m.c" || fail "emit-c replaced m.c with a short file"
ls -A "$small" | grep -q '^\.m\.c\.' && fail "emit-c left its temporary file"
umount "$small"
echo ok
