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
# time is the first column of every file: naming it is no error
run 0 "$sim" --stop-time 0.1 --output-step 0.1 --vars time,x -o "$tmp/t.csv"
[ "$(head -n 1 "$tmp/t.csv")" = "time,x" ] || fail "--vars time,x: $(head -n 1 "$tmp/t.csv")"
run 0 "$sim" --stop-time 0.1 --output-step 0.1 --vars time -o "$tmp/t.csv"
[ "$(head -n 1 "$tmp/t.csv")" = "time" ] || fail "--vars time: $(head -n 1 "$tmp/t.csv")"
# A list of up to 8 names is scanned for, a longer one looked up in a
# hash index of every column: both give the same columns.
run 0 "$sim" --stop-time 0.1 --output-step 0.1 --vars x,v,spring.a,x,v,spring.a,x,v,spring.a -o "$tmp/t.csv"
[ "$(head -n 1 "$tmp/t.csv")" = "time,x,v,spring.a,x,v,spring.a,x,v,spring.a" ] || fail "--vars, 9 names: $(head -n 1 "$tmp/t.csv")"
run 1 "$sim" --vars x,v,spring.a,x,v,spring.a,x,v,speed
expect_in "$tmp/err" "--vars: unknown column 'speed'"
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
expect_in "$tmp/err" "--atol must be positive"
# --rtol lies in (0, 1): 1 or more would accept any answer.
run 1 "$sim" --rtol 1
expect_in "$tmp/err" "--rtol must be between 0 and 1"
run 1 "$sim" --rtol 0
expect_in "$tmp/err" "--rtol must be between 0 and 1"
run 0 "$sim" --rtol 0.5 --stop-time 0.01
# Every number option uses the language's number syntax (rt_number.c).
run 1 "$sim" --stop-time 0x10
expect_in "$tmp/err" "--stop-time expects a number, not '0x10': hexadecimal numbers are not supported"
run 1 "$sim" --stop-time 0x1p3
expect_in "$tmp/err" "hexadecimal numbers are not supported"
run 1 "$sim" --stop-time inf
expect_in "$tmp/err" "--stop-time expects a number, not 'inf': infinities and NaN"
run 1 "$sim" --atol nan
expect_in "$tmp/err" "--atol expects a number, not 'nan'"
run 1 "$sim" --stop-time 1e
expect_in "$tmp/err" "the exponent after 'e' has no digits"
run 1 "$sim" --atol 1e-400
expect_in "$tmp/err" "--atol expects a number, not '1e-400': the number is too small"
run 1 "$sim" --stop-time 1e400
expect_in "$tmp/err" "the number is too large"
run 1 "$sim" --stop-time ' 1'
expect_in "$tmp/err" "--stop-time expects a number, not ' 1'"
run 1 "$sim" --stop-time 1s
expect_in "$tmp/err" "--stop-time expects a number, not '1s': unexpected text after the number"
run 0 "$sim" --stop-time +.5e-1 --output-step 5E-3
run 1 "$sim" --output-step 1e-12
run 1 "$sim" extra
expect_in "$tmp/err" "unexpected argument 'extra'"
run 1 "$sim" -o /nonexistent/dir/out.csv
expect_in "$tmp/err" "cannot open the results file '/nonexistent/dir/out.csv'"
# A refused command line changes no file (the event log's directory is
# missing: p.csv keeps its contents, and q.csv is not created).
echo "last run" >"$tmp/p.csv"
run 1 "$sim" -o "$tmp/p.csv" --events "$tmp/nodir/x.csv"
expect_in "$tmp/err" "cannot open the event log"
[ "$(cat "$tmp/p.csv")" = "last run" ] || fail "p.csv was changed by a refused run"
run 1 "$sim" -o "$tmp/q.csv" --events "$tmp/nodir/x.csv"
[ -e "$tmp/q.csv" ] && fail "q.csv was created by a refused run"
run 1 "$sim" --events "$tmp/p.csv" -o "$tmp/nodir/x.csv"
[ "$(cat "$tmp/p.csv")" = "last run" ] || fail "p.csv (the event log) was changed"
# -o and --events on one file: the same path, a hard link, a symbolic
# link, a new file; each refused, the file unchanged or not created.
ln "$tmp/p.csv" "$tmp/hard.csv"
ln -s "$tmp/p.csv" "$tmp/soft.csv"
for ev in "$tmp/p.csv" "$tmp/hard.csv" "$tmp/soft.csv" "$tmp/../$(basename "$tmp")/p.csv"; do
    run 1 "$sim" -o "$tmp/p.csv" --events "$ev"
    expect_in "$tmp/err" "-o and --events name the same file"
    [ "$(cat "$tmp/p.csv")" = "last run" ] || fail "p.csv was changed (--events $ev)"
done
run 1 "$sim" -o "$tmp/new.csv" --events "$tmp/./new.csv"
expect_in "$tmp/err" "-o and --events name the same file"
[ -e "$tmp/new.csv" ] && fail "new.csv was created by a refused run"
# --events naming the results' units file (RESULTS.meta, replaced after
# the results are opened): refused, through another spelling, a hard or
# a symbolic link too, whether it exists or not; nothing changed or made.
echo "old units" >"$tmp/p.csv.meta"
ln "$tmp/p.csv.meta" "$tmp/hard.meta"
ln -s "$tmp/p.csv.meta" "$tmp/soft.meta"
for ev in "$tmp/p.csv.meta" "$tmp/./p.csv.meta" "$tmp/hard.meta" "$tmp/soft.meta"; do
    run 1 "$sim" -o "$tmp/p.csv" --events "$ev"
    expect_in "$tmp/err" "is the units file of the results"
    [ "$(cat "$tmp/p.csv")" = "last run" ] || fail "p.csv was changed (--events $ev)"
    [ "$(cat "$tmp/p.csv.meta")" = "old units" ] || fail "p.csv.meta was changed (--events $ev)"
done
run 1 "$sim" -o "$tmp/new.csv" --events "$tmp/new.csv.meta"
expect_in "$tmp/err" "--events '$tmp/new.csv.meta' is the units file of the results"
[ -e "$tmp/new.csv" ] || [ -e "$tmp/new.csv.meta" ] && fail "a refused run created a file"
# Two device files are not one results file: /dev/null twice is fine.
run 0 "$sim" -o /dev/null --events /dev/null --stop-time 0.01
# A good run truncates the old results.
run 0 "$sim" -o "$tmp/p.csv" --events "$tmp/e.csv" --stop-time 0.01 --output-step 0.005
[ "$(wc -l <"$tmp/p.csv")" -eq 4 ] || fail "p.csv: $(cat "$tmp/p.csv")"
[ "$(cat "$tmp/e.csv")" = "time,instance,condition,value" ] || fail "e.csv"
echo "cli: all as expected"
