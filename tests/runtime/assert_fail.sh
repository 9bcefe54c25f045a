# assert_fail.sh SIM: exit 3, the rows before the failure kept (flushed to
# the file), and the message: location, time, instance, message.
. "$(dirname "$0")/lib.sh"
run 3 "$1" --stop-time 1 --output-step 0.1 -o "$tmp/rows.csv"
[ "$(wc -l <"$tmp/rows.csv")" -eq 6 ] || fail "expected the header and 5 rows"
tail -n 1 "$tmp/rows.csv" | awk -F, '{ e = $2 - 0.4; exit !($1 == "0.4" && e * e < 1e-18) }' \
    || fail "last row: $(tail -n 1 "$tmp/rows.csv")"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "one line on stderr"
awk '{
        ok = match($0, /^assert\.lmdl:7:5: error: at t = [0-9.e-]+: assertion failed in limiter: x must stay below 0\.45$/)
        split($0, f, "at t = "); t = f[2] + 0
        printf "message: %s\n", $0
        exit !(ok && t > 0.45 && t <= 0.5)
    }' "$tmp/err" || fail "message"
