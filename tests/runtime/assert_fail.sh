# assert_fail.sh SIM: exit 3, the rows before the failure kept (flushed to
# the file), and the message: location, time, instance, message and the
# parameters the condition reads.  A parameter-only assert broken by
# --param fails before initialization, writes no file, and names the
# value.
. "$(dirname "$0")/lib.sh"
run 3 "$1" --stop-time 1 --output-step 0.1 -o "$tmp/rows.csv"
[ "$(wc -l <"$tmp/rows.csv")" -eq 6 ] || fail "expected the header and 5 rows"
tail -n 1 "$tmp/rows.csv" | awk -F, '{ e = $2 - 0.4; exit !($1 == "0.4" && e * e < 1e-18) }' \
    || fail "last row: $(tail -n 1 "$tmp/rows.csv")"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "one line on stderr"
awk '{
        ok = match($0, /^assert\.lmdl:7:5: error: at t = [0-9.e-]+: assertion failed in limiter: x must stay below the limit \(limit = 0\.45 m\)$/)
        split($0, f, "at t = "); t = f[2] + 0
        printf "message: %s\n", $0
        exit !(ok && t > 0.45 && t <= 0.5)
    }' "$tmp/err" || fail "message"
# The limit moved by --param: the message shows the value in use.
run 3 "$1" --stop-time 1 --output-step 0.1 --param 'limit=200 mm'
expect_in "$tmp/err" "assertion failed in limiter: x must stay below the limit (limit = 0.2 m)"
# A parameter-only assert, broken by --param: before initialization.
run 3 "$1" --stop-time 1 --param limit=-1 -o "$tmp/none.csv"
[ "$(cat "$tmp/err")" = "assert.lmdl:8:5: error: invalid parameters: assertion failed in limiter: limit must be > 0 (limit = -1 m)" ] \
    || fail "message: $(cat "$tmp/err")"
[ -e "$tmp/none.csv" ] && fail "a file was written"
echo "assert_fail: as expected"
