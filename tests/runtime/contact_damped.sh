# contact_damped.sh SIM: with damping the force jumps at impact: the row
# before the event has a = -g, the row after a = -g + (-k*x - c*v)/m, where
# x is within the solver's tolerance of 0 (and just past it).
. "$(dirname "$0")/lib.sh"
run 0 "$1" --stop-time 0.46 --output-step 0.01 --param wall.c=20 --quiet
awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    NR > 2 && $1 == prev_t {
        before = prev_a; after = $c["a"]; v = $c["v"]; x = $c["x"]
        want = -9.81 - 20 * v - 1e4 * x
        e1 = before + 9.81; e2 = after - want
        printf "at t = %.10g: x = %.3g, a before %.10g (want -9.81), after %.10g (want %.10g)\n", $1, x, before, after, want
        if (e1 * e1 > 1e-20 || e2 * e2 > 1e-20 || x >= 0 || x < -1e-6 || $c["wall.contact"] != 1) bad = 1
        found = 1
    }
    { prev_t = $1; prev_a = $c["a"] }
    END { exit bad || !found }' "$tmp/out.csv" || fail "the jump at impact"
