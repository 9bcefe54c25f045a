#!/bin/sh
# An output that is not a regular file (a device such as /dev/null, a
# pipe) is written in place by emit-c, never replaced by a file (a rename
# over /dev/null, as root, turned it into a regular file: regression);
# build and plot, whose outputs only a file can hold, refuse it with
# exit 2 and leave it as it was.  Tested on a FIFO of our own, so a
# failure cannot harm the machine's /dev/null.
. "$(dirname "$0")/lib.sh"
cd "$work" || exit 1
mkfifo pipe || fail "mkfifo"
timeout 20 cat pipe > got.c &   # a writer that never comes must not hang the test
reader=$!
"$LMDLC" emit-c decay.lmdl -o pipe || fail "emit-c -o FIFO: exit $?"
wait $reader
[ -p pipe ] || fail "emit-c replaced the FIFO with a file"
grep -q "const RtModel rt_model" got.c || fail "the C did not go through the FIFO"
"$LMDLC" build decay.lmdl -o pipe 2>err
[ $? = 2 ] || fail "build -o FIFO: expected exit 2"
grep -q "not a regular file" err || fail "build -o FIFO: $(cat err)"
[ -p pipe ] || fail "build replaced the FIFO"
ls -a | grep -q '^\.pipe\.' && fail "build left a temporary file"
echo ok
