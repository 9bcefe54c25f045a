# kill.sh SIM [ROUNDS]: kills the 3,300-column simulator (wide.c) with
# SIGTERM and SIGKILL, alternately, at random times while it writes rows
# to a file; every row in the file must then be whole: 3,301 fields, each
# a number, ended by a newline.  Each row is about 70 KB, far more than
# one stdio buffer, so a row written in pieces tears when the process dies
# between them (the runtime before one-write rows failed here at once).
#
# SIGTERM is held off while a row is written, so after it the last row is
# whole too.  SIGKILL cannot be held off, and Linux ends a write to a file
# early when SIGKILL comes between two of its pages (generic_perform_write
# checks for it), so after SIGKILL the last line may be unterminated:
# that one line is reported and left out, every line before it must be
# whole.  Rounds whose file has no row (killed before the first) do not
# count; ROUNDS [12] must.  The delay starts when the first row is there.
. "$(dirname "$0")/lib.sh"
sim=$1
rounds=${2:-12}
counted=0
round=0
while [ "$counted" -lt "$rounds" ]; do
    round=$((round + 1))
    [ "$round" -le $((rounds * 3)) ] || fail "only $counted of $round rounds wrote a row"
    if [ $((round % 2)) -eq 0 ]; then sig=KILL; else sig=TERM; fi
    # 20 to 120 ms: anywhere in the stream of rows
    delay=$(awk -v r="$round" 'BEGIN { srand(); x = rand(); srand(x * 1e6 + r); printf "%.3f", 0.02 + 0.1 * rand() }')
    rm -f "$tmp/k.csv"
    "$sim" --quiet --stop-time 1000 --output-step 0.001 -o "$tmp/k.csv" 2>"$tmp/err" &
    pid=$!
    # the delay counts from the first row: a start slowed down by a busy
    # machine (the CI runs tests in parallel) would otherwise leave most
    # rounds killed before their first row
    for i in $(seq 400); do
        [ -e "$tmp/k.csv" ] && [ "$(wc -l < "$tmp/k.csv")" -ge 2 ] && break
        sleep 0.05
    done
    sleep "$delay"
    kill -s "$sig" "$pid" 2>/dev/null
    wait "$pid"
    status=$?
    [ "$status" -ge 128 ] || fail "round $round: the simulator was not killed (exit $status)"
    rows=$(($(wc -l < "$tmp/k.csv") - 1))
    [ "$rows" -ge 1 ] || continue
    counted=$((counted + 1))
    note=""
    if [ "$(tail -c 1 "$tmp/k.csv" | od -An -c | tr -d ' ')" != '\n' ]; then
        [ "$sig" = KILL ] || fail "round $round (SIG$sig after ${delay}s): the last row is cut short"
        note=" (and one row cut short by SIGKILL, left out)"
        head -c "$(($(wc -c < "$tmp/k.csv") - $(tail -n 1 "$tmp/k.csv" | wc -c)))" "$tmp/k.csv" > "$tmp/k2.csv"
        mv "$tmp/k2.csv" "$tmp/k.csv"
        rows=$(($(wc -l < "$tmp/k.csv") - 1))
    fi
    # every line has every field; the last ones (where a tear would be)
    # have only numbers
    awk -F, -v sig="$sig" -v last="$rows" '
        NF != 3301 { printf "line %d has %d fields, not 3301\n", NR, NF; bad = 1; exit }
        NR > last - 2 && NR > 1 {
            for (i = 1; i <= NF; i++)
                if ($i !~ /^-?[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?$/) {
                    printf "line %d field %d is not a number: %s\n", NR, i, $i; bad = 1; exit
                }
        }
        END { exit bad }' "$tmp/k.csv" \
        || fail "round $round (SIG$sig after ${delay}s, $rows rows): a torn row"
    echo "round $round: SIG$sig after ${delay}s: $rows whole rows$note"
done
