# oscillator.sh SIM SOLVER TOL [OPTIONS...]: x = A cos(w t), v = -A w sin(w t)
# with A = 0.5, w = 2 pi, over two periods, within TOL.
. "$(dirname "$0")/lib.sh"
sim=$1 solver=$2 tol=$3
shift 3
run 0 "$sim" --stop-time 2 --solver "$solver" "$@"
check_max "x ($solver)" "$tol" "$tmp/out.csv" \
    'err = $c["x"] - 0.5 * cos(6.283185307179586 * $c["time"])'
check_max "v ($solver)" "$(awk "BEGIN { print $tol * 6.283185307179586 }")" "$tmp/out.csv" \
    'err = $c["v"] + 0.5 * 6.283185307179586 * sin(6.283185307179586 * $c["time"])'
