# algebraic.sh SIM: a model without states, evaluated at each output time,
# with its relation change located between output times.
. "$(dirname "$0")/lib.sh"
run 0 "$1" --stop-time 1 --output-step 0.1 --events "$tmp/ev.csv"
[ "$(head -n 1 "$tmp/out.csv")" = 'time,y,s,q,"odd,""name"""' ] || fail "header quoting: $(head -n 1 "$tmp/out.csv")"
# 11 output rows plus two at the event.
[ "$(wc -l <"$tmp/out.csv")" -eq 14 ] || fail "row count $(wc -l <"$tmp/out.csv")"
# The event's left-limit row holds the values at the bracket's left end,
# within the event time tolerance (1e-12 relative) before the event time
# it is written with: 1e-12 there, 1e-15 at the output times.
check_max "y = t^2" 1e-15 "$tmp/out.csv" 'err = $c["y"] - $c["time"] * $c["time"]; if ($c["time"] * 10 != int($c["time"] * 10 + 0.5)) err /= 1000'
check_max "s = sin(2 pi t)" 1e-15 "$tmp/out.csv" 'err = $c["s"] - sin(6.283185307179586 * $c["time"]); if ($c["time"] * 10 != int($c["time"] * 10 + 0.5)) err /= 10000'
check_max "q" 0 "$tmp/out.csv" 'err = $c["q"] - ($c["time"] * $c["time"] > 0.5 ? 1 : 0); d = $c["time"] * $c["time"] - 0.5; if (d * d < 1e-18) err = 0' 
awk -F, 'NR == 2 {
        e = $1 - sqrt(0.5); if (e < 0) e = -e
        printf "event at %.17g, analytic %.17g, error %.3g (tolerance 1e-11)\n", $1, sqrt(0.5), e
        exit !(e <= 1e-11 && $2 == "" && $3 == "y > 0.5" && $4 == "true")
    }' "$tmp/ev.csv" || fail "event"
