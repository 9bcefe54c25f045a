# aliases.sh LMDLC DTOA_TEST ROOT: results of models whose columns share
# values.  Columns of one variable, of the same expression, or minus
# another column's value (a through variable seen from its other node)
# share one value: the CSV writer formats it once and copies its text,
# with the sign changed for the negated ones, and the MAT writer stores it
# in one row of data_2 that their dataInfo entries point at (negative for
# the negated), as OpenModelica's files do.  On the 10-lever chain of
# bench/gen and on the wall-contact example (events: two rows at each):
#   - every CSV field is exactly rt_dtoa's text of its value (the copies,
#     negated or not, are what formatting would have written);
#   - the MAT file shares rows, some negated, and every variable's values
#     equal the CSV column's bit for bit (the sign of zero too);
#   - --vars with a negated column before its positive one, and alone,
#     writes the same text as the full run's columns.
. "$(dirname "$0")/lib.sh"
lmdlc=$1 dtoa=$2 root=$3
py=${LMDL_PYTHON:-/usr/bin/python3}
check="$py $(dirname "$0")/mat_check.py"
"$py" -c 'import scipy.io' || fail "$py has no scipy (apt-get install python3-scipy)"

sh "$root/bench/gen/lever_chain.sh" 10 "$tmp/chain.lmdl" || fail "generate the chain"
"$lmdlc" build "$tmp/chain.lmdl" -o "$tmp/chain" || fail "build the chain"
"$lmdlc" build "$root/examples/wall_contact/wall_contact.lmdl" -o "$tmp/wall" || fail "build the wall"
for sim in chain wall; do
    run 0 "$tmp/$sim" --quiet --stop-time 0.5 -o "$tmp/$sim.csv"
    run 0 "$tmp/$sim" --quiet --stop-time 0.5 -o "$tmp/$sim.mat"
    "$dtoa" --csv "$tmp/$sim.csv" || fail "$sim: a CSV field is not its value's text"
    $check "$tmp/$sim.mat" --csv "$tmp/$sim.csv" --aliases || fail "$sim: MAT against CSV"
done

# two columns of the chain that are minus each other, the negated one
# first: the pair from the MAT file's dataInfo
pair=$("$py" - "$tmp/chain.mat" <<'PY'
import sys
import scipy.io
m = scipy.io.loadmat(sys.argv[1], chars_as_strings=False)
names = ["".join(r).rstrip(" \0") for r in m["name"].T]
info = m["dataInfo"]
for j in range(len(names)):
    if info[0, j] == 2 and info[1, j] < 0:
        k = next(k for k in range(len(names)) if info[0, k] == 2 and info[1, k] == -info[1, j])
        print(names[j] + "," + names[k])
        break
PY
)
[ -n "$pair" ] || fail "no negated pair in the chain's MAT file"
run 0 "$tmp/chain" --quiet --stop-time 0.5 --vars "$pair" -o "$tmp/pair.csv"
"$dtoa" --csv "$tmp/pair.csv" || fail "--vars $pair: a field is not its value's text"
a=${pair%,*} b=${pair#*,}
cols() { awk -F, -v a="$2" -v b="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
                                      { print $1 "," $c[a] "," $c[b] }' "$1"; }
cols "$tmp/chain.csv" "$a" "$b" > "$tmp/want.csv"
cols "$tmp/pair.csv" "$a" "$b" > "$tmp/got.csv"
cmp -s "$tmp/want.csv" "$tmp/got.csv" || fail "--vars $pair differs from the full run's columns"
awk -F, 'NR > 1 && $2 != "0" && $2 != "-0" && ($2 ~ /^-/) == ($3 ~ /^-/) { bad = 1 }
         END { exit bad }' "$tmp/got.csv" || fail "$pair: not of opposite signs"
run 0 "$tmp/chain" --quiet --stop-time 0.5 --vars "$a" -o "$tmp/one.csv"
cut -d, -f1,2 "$tmp/want.csv" | cmp -s - "$tmp/one.csv" || fail "--vars $a alone differs"
echo "aliases: the chain's and the wall's CSV and MAT agree; --vars $pair keeps their text"
