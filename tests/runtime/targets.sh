# targets.sh CASE SIM: initialization against targets.
. "$(dirname "$0")/lib.sh"
case=$1 sim=$2
case $case in
target)
    run 0 "$sim" --stop-time 1 --output-step 0.1 --rtol 1e-10 --atol 1e-12
    check_max "x0 = 2 from y = 2x = 4" 1e-12 "$tmp/out.csv" 'if ($c["time"] == 0) err = $c["x"] - 2'
    check_max "x = 2 exp(-t)" 1e-8 "$tmp/out.csv" 'err = $c["x"] - 2 * exp(-$c["time"])'
    if [ -s "$tmp/err" ]; then fail "unexpected warnings: $(cat "$tmp/err")"; fi
    ;;
mixed)
    run 0 "$sim" --stop-time 0.1
    check_max "a = 2" 1e-10 "$tmp/out.csv" 'err = $c["a"] - 2'
    check_max "b = 1" 1e-10 "$tmp/out.csv" 'err = $c["b"] - 1'
    check_max "c = 5 (untouched)" 1e-10 "$tmp/out.csv" 'err = $c["c"] - 5'
    check_max "s = 3 (high, exact)" 1e-12 "$tmp/out.csv" 'err = $c["s"] - 3'
    if [ -s "$tmp/err" ]; then fail "unexpected warnings: $(cat "$tmp/err")"; fi
    ;;
toomany)
    run 0 "$sim" --stop-time 0.1
    expect_in "$tmp/err" "warning: too many high-priority targets on 'y', 'z': 2 high-priority targets for 1 state; treating them as low priority"
    expect_in "$tmp/err" "the low-priority target on 'y' is not met: it is 2.615384615"
    check_max "x = 17/13" 1e-9 "$tmp/out.csv" 'err = $c["x"] - 17 / 13'
    run 0 "$sim" --stop-time 0.1 --quiet
    if [ -s "$tmp/err" ]; then fail "--quiet still warns: $(cat "$tmp/err")"; fi
    ;;
conflict)
    run 0 "$sim" --stop-time 0.1
    expect_in "$tmp/err" "warning: the high-priority targets on 's', 's2' conflict (they cannot all be met); treating them as low priority"
    check_max "s = 7/5" 1e-9 "$tmp/out.csv" 'err = $c["s"] - 1.4'
    check_max "a = 0.7" 1e-6 "$tmp/out.csv" 'err = $c["a"] - 0.7'
    check_max "b = 0.7" 1e-6 "$tmp/out.csv" 'err = $c["b"] - 0.7'
    ;;
*)
    fail "unknown case $case"
    ;;
esac
