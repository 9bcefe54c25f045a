# evalcount.sh SIM SOLVER: the step's end is not evaluated twice.  An
# explicit stepper's last evaluation in a step is at the step's end; the
# runtime takes it as the accepted state's.  With guessed=1 the model
# solves a block from guesses, so the runtime evaluates the end again:
# one evaluation more per step (500 steps: one per output interval), and
# the same states, bit for bit.  Both runs against x = cos(2 pi t) within
# 1e-5.
. "$(dirname "$0")/lib.sh"
sim=$1 solver=$2
for g in 0 1; do
    run 0 "$sim" --stop-time 2 --solver "$solver" --param guessed=$g
    check_max "x ($solver, guessed=$g)" 1e-5 "$tmp/out.csv" \
        'err = $c["x"] - cos(6.283185307179586 * $c["time"])'
    cut -d, -f1-3 "$tmp/out.csv" >"$tmp/states$g.csv"
    sed -n 's/^evaluations \([0-9]*\) repeated .*/\1/p' "$tmp/err" >"$tmp/evals$g"
done
cmp -s "$tmp/states0.csv" "$tmp/states1.csv" || fail "the states differ with guessed=1"
e0=$(cat "$tmp/evals0") e1=$(cat "$tmp/evals1")
echo "evaluations: $e0, with a block solved from guesses $e1"
[ -n "$e0" ] && [ -n "$e1" ] || fail "no evaluation counts"
[ "$((e1 - e0))" -ge 500 ] || fail "$((e1 - e0)) evaluations saved, expected one per step (500)"
