# cli.sh SIM: the command line (oscillator model): defaults, --vars, -o,
# --help, and the refusals, each with exit 1.
. "$(dirname "$0")/lib.sh"
sim=$1
run 0 "$sim"
[ "$(head -n 1 "$tmp/out.csv")" = "time,x,v,spring.a" ] || fail "header"
[ "$(wc -l <"$tmp/out.csv")" -eq 502 ] || fail "default T/500 gives 501 rows"
[ "$(tail -n 1 "$tmp/out.csv" | cut -d, -f1)" = 1 ] || fail "last row at the stop time"
[ "$(sed -n 2p "$tmp/out.csv")" = "0,0.5,0,-19.739208802178716" ] || fail "row 0, shortest round-trip digits: $(sed -n 2p "$tmp/out.csv")"
run 0 "$sim" --stop-time=0.35 --output-step 0.1 --vars spring.a,x -o "$tmp/sel.csv"
[ -s "$tmp/out.csv" ] && fail "-o still wrote stdout"
[ "$(head -n 1 "$tmp/sel.csv")" = "time,spring.a,x" ] || fail "--vars order"
# 0, 0.1, 0.2, 0.3 (3 * 0.1, which is not the double nearest 0.3) and the
# stop time 0.35, each as the shortest decimal that reads back the same.
[ "$(cut -d, -f1 "$tmp/sel.csv" | tr '\n' ' ')" = "time 0 0.1 0.2 0.30000000000000004 0.35 " ] \
    || fail "output times: $(cut -d, -f1 "$tmp/sel.csv" | tr '\n' ' ')"
run 0 "$sim" --help
expect_in "$tmp/out.csv" "--stop-time T"
expect_in "$tmp/out.csv" "w                              6.283185307 1/s"
run 1 "$sim" --vars x,speed
expect_in "$tmp/err" "--vars: unknown column 'speed'"
run 1 "$sim" --vars spring.b
expect_in "$tmp/err" "did you mean 'spring.a'?"
run 1 "$sim" --solver euler
expect_in "$tmp/err" "unknown solver 'euler'"
run 1 "$sim" --stop-tim 2
expect_in "$tmp/err" "unknown option '--stop-tim'; did you mean '--stop-time'?"
run 1 "$sim" --stop-time
expect_in "$tmp/err" "--stop-time expects a value"
run 1 "$sim" --rtol fast
expect_in "$tmp/err" "--rtol expects a number, not 'fast'"
run 1 "$sim" --output-step 0
run 1 "$sim" --atol 0
expect_in "$tmp/err" "--rtol and --atol must be positive"
run 1 "$sim" --output-step 1e-12
run 1 "$sim" extra
expect_in "$tmp/err" "unexpected argument 'extra'"
run 1 "$sim" -o /nonexistent/dir/out.csv
expect_in "$tmp/err" "cannot open the results file '/nonexistent/dir/out.csv'"
echo "cli: all as expected"
