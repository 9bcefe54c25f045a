# batch.sh SIM: results rows reach the file in batches of whole rows
# (rt_csv.c), and a terminating signal writes the rows that wait before
# the process dies.  The simulator (small rows, written fast) is stopped
# with SIGSTOP at a random time, the rows in the file counted, then sent
# SIGTERM and SIGCONT: it dies as soon as it runs again, so every row the
# file has then came from the signal handler's write of the waiting batch.
# Without that write (the batch lost, as stdio loses its buffer) no round
# gains a row; with it, nearly every one does: 64 KB or 0.1 s of rows wait
# at almost every moment.  Each round's file must also be whole rows, in
# CSV and in MAT.  Then one write per batch, not per row: 2,001 rows of a
# finished run reach the file in at most a tenth as many writes as rows
# (strace, when it is installed).
. "$(dirname "$0")/lib.sh"
sim=$1
rows_of() {
    case $1 in
        *.mat) "${LMDL_PYTHON:-/usr/bin/python3}" -c '
import scipy.io, sys
print(scipy.io.loadmat(sys.argv[1])["data_2"].shape[1])' "$1" ;;
        *) echo $(($(wc -l < "$1") - 1)) ;;
    esac
}
gained=0
rounds=0
for ext in csv csv csv csv mat mat; do
    if [ "$ext" = mat ] && ! "${LMDL_PYTHON:-/usr/bin/python3}" -c 'import scipy.io' 2>/dev/null; then
        fail "no scipy for the MAT rounds (apt-get install python3-scipy)"
    fi
    rounds=$((rounds + 1))
    f=$tmp/b$rounds.$ext
    "$sim" --quiet --stop-time 5e5 --output-step 0.01 -o "$f" 2>"$tmp/err" &
    pid=$!
    # from the file's creation (a loaded machine starts late)
    for i in $(seq 400); do [ -s "$f" ] && break; sleep 0.05; done
    sleep "$(awk -v r="$rounds" 'BEGIN { srand(); x = rand(); srand(x * 1e6 + r); printf "%.3f", 0.15 + 0.2 * rand() }')"
    kill -s STOP "$pid"
    sleep 0.1      # a write in progress has finished: the size is final
    # a MAT file stopped between its two writes of a batch (the rows at
    # the end, then the row count in the header) does not read back until
    # the run goes on: then this round's count before is unknown
    before=$(rows_of "$f" 2>/dev/null) || before=
    kill -s TERM "$pid"
    kill -s CONT "$pid"
    wait "$pid"
    status=$?
    [ "$status" -eq 143 ] || fail "round $rounds: exit $status, expected 143 (SIGTERM)"
    after=$(rows_of "$f") || fail "round $rounds: the $ext file does not read back"
    if [ "$ext" = csv ]; then
        [ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ] || fail "round $rounds: a row cut short"
        awk -F, 'NR > 1 && NF != 6 { print "line " NR " has " NF " fields"; bad = 1; exit } END { exit bad }' "$f" \
            || fail "round $rounds: a torn row"
    fi
    if [ -z "$before" ]; then
        echo "round $rounds ($ext): stopped inside a batch's write; $after rows after SIGTERM"
        continue
    fi
    [ "$after" -ge "$before" ] || fail "round $rounds: rows went from $before to $after"
    [ "$after" -gt "$before" ] && gained=$((gained + 1))
    echo "round $rounds ($ext): $before rows written by batches, $((after - before)) more by SIGTERM"
done
[ "$gained" -ge 1 ] || fail "no round's SIGTERM wrote the waiting rows (the batch was lost)"

# strace needs ptrace, which some containers forbid: then the count is skipped
if command -v strace >/dev/null 2>&1 && strace -o /dev/null true >/dev/null 2>&1; then
    # LeakSanitizer cannot run under ptrace (the sanitizer build)
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -f -e trace=write -o "$tmp/trace" "$sim" --quiet --stop-time 2 --output-step 0.001 -o "$tmp/w.csv" \
        || fail "the traced run failed"
    rows=$(($(wc -l < "$tmp/w.csv") - 1))
    writes=$(grep -c '^[0-9]* *write(' "$tmp/trace")
    echo "$rows rows in $writes writes"
    [ "$rows" -ge 2000 ] || fail "only $rows rows"
    # a batch is written every 0.1 s at least, so a run slowed down by
    # strace, the sanitizers or the machine's load makes more writes; one
    # per row would be 2,000
    [ "$writes" -le $((rows / 10)) ] || fail "$writes writes for $rows rows: not batched"
else
    echo "strace is not installed or cannot trace here: the count of writes is not checked"
fi
echo ok
