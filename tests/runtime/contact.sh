# contact.sh SIM SOLVER: the four event times of the undamped bounce
# (in, out, in, out) against the analytic ones, the event log, and the two rows at each event.
. "$(dirname "$0")/lib.sh"
sim=$1 solver=$2
run 0 "$sim" --stop-time 1.5 --output-step 0.01 --solver "$solver" \
    --rtol 1e-9 --atol 1e-12 --events "$tmp/events.csv" -o "$tmp/rows.csv"
ev=$tmp/events.csv
[ "$(head -n 1 "$ev")" = "time,instance,condition,value" ] || fail "event log header"
[ "$(wc -l <"$ev")" -eq 5 ] || { cat "$ev" >&2; fail "expected 4 events"; }
awk -F, '
    BEGIN {
        g = 9.81; h = 1; w = 100
        t1 = sqrt(2 * h / g); vc = sqrt(2 * g * h)
        phi = atan2(vc * w, g)
        t[1] = t1; t[2] = t1 + (2 * 3.141592653589793 - 2 * phi) / w
        t[3] = t[2] + 2 * vc / g; t[4] = t[3] + t[2] - t[1]
        want[1] = "true"; want[2] = "false"; want[3] = "true"; want[4] = "false"
    }
    NR > 1 {
        k = NR - 1; e = $1 - t[k]; if (e < 0) e = -e
        printf "event %d: t = %.12f, analytic %.12f, error %.3g (tolerance 1e-7)\n", k, $1, t[k], e
        if (e > 1e-7 || $2 != "wall" || $3 != "x < 0" || $4 != want[k]) bad = 1
    }
    END { exit bad }' "$ev" || fail "event times or log fields"
# Two rows at each event time: the first the left limit (the state at the
# bracket's left end, less than the 1e-12 event time tolerance before,
# with the old mode), the second the right limit (the new mode).
awk -F, '
    NR == FNR { if (FNR > 1) { te[FNR - 1] = $1; val[FNR - 1] = ($4 == "true") } ; next }
    FNR == 1 { next }
    { for (k in te) if ($1 == te[k]) { n[k]++; m[k, n[k]] = $6; x[k, n[k]] = $2 } }
    END {
        for (k in te) {
            if (n[k] != 2) { printf "event %d: %d rows\n", k, n[k]; bad = 1; continue }
            if (m[k, 1] != 1 - val[k] || m[k, 2] != val[k]) { print "event " k ": modes " m[k,1] " " m[k,2]; bad = 1 }
            d = x[k, 1] - x[k, 2]; if (d < 0) d = -d
            if (d > 1e-9) { print "event " k ": state moved by " d; bad = 1 }
        }
        exit bad
    }' "$ev" "$tmp/rows.csv" || fail "rows at events"
# Rows are in time order, and every output time is there.
awk -F, 'NR > 2 && $1 < prev { bad = 1 } NR > 1 { prev = $1 } END { exit bad }' \
    "$tmp/rows.csv" || fail "rows out of order"
[ "$(wc -l <"$tmp/rows.csv")" -eq $((1 + 151 + 8)) ] || fail "row count"
echo "contact ($solver): 4 events, two rows each"
