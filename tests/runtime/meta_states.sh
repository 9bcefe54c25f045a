# meta_states.sh LMDLC ROOT: the state records of RESULTS.meta.  A state
# record carries the unit of the column named like the state; generated
# simulators find that column in their state_column table, hand-written
# ones by name.  The check reads the file alone: each state's unit is
# the one its column's record gives (a state whose name no column has,
# der(...), has none).  The models: the custom-component lever, whose
# state lever.theta is shown by the name of an eliminated alias; an
# array chain (m(4).x); and the 10-lever chain of bench/gen.
. "$(dirname "$0")/lib.sh"
lmdlc=$1 root=$2
sh "$root/bench/gen/lever_chain.sh" 10 "$tmp/chain.lmdl" || fail "generate the chain"
set -- "$root/examples/custom_component/lever_spring.lmdl" \
       "$root/tests/e2e/arrays_chain.lmdl" "$tmp/chain.lmdl"
for model in "$@"; do
    name=$(basename "$model" .lmdl)
    "$lmdlc" build "$model" -o "$tmp/$name" || fail "build $name"
    run 0 "$tmp/$name" --quiet --stop-time 0.01 -o "$tmp/$name.csv"
    # every state record against the column records, and how many have a
    # column at all
    out=$(awk -F, '
        $1 == "column" { unit[$2] = $3 }
        $1 == "state" { n++; if ($2 in unit) { found++; if ($3 != unit[$2]) bad = bad " " $2 "(" $3 " not " unit[$2] ")" }
                        else if ($3 != "") bad = bad " " $2 "(unit " $3 " without a column)" }
        END { print n + 0, found + 0, bad }' "$tmp/$name.csv.meta")
    set -- $out
    [ "$1" -gt 0 ] || fail "$name: no state records"
    [ "$2" -eq "$1" ] || fail "$name: $(($1 - $2)) of $1 states have no column"
    [ $# -eq 2 ] || fail "$name: states whose unit is not their column's:${out#* * }"
done
echo ok
