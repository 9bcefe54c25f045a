#!/bin/sh
# A sweep checks the whole sets file and its options before it runs a
# row: each mistake below exits 1 with a message naming it (the column,
# the line, the row) and leaves no results, event log or summary behind.
. "$(dirname "$0")/lib.sh"
build "$work/sim"
n=0

# refused SETS-TEXT EXPECTED-MESSAGE [OPTIONS...]: a sweep over a sets
# file holding SETS-TEXT (printf format), with OPTIONS (default: -o,
# --events and --sweep-summary files) run in a fresh directory, exits 1,
# says EXPECTED-MESSAGE, and writes nothing.
refused() {
  n=$((n + 1))
  d=$work/case$n
  mkdir "$d"
  # shellcheck disable=SC2059
  printf "$1" > "$d/sets.csv"
  sets_text=$1
  want=$2
  shift 2
  [ $# -gt 0 ] || set -- -o "$d/out-{row}.csv" --events "$d/ev-{row}.csv" \
    --sweep-summary "$d/summary.csv"
  # shellcheck disable=SC2086
  (cd "$d" && "$work/sim" --sweep "$d/sets.csv" $opts "$@") \
    >"$d/stdout" 2>"$d/err"
  st=$?
  [ "$st" = 1 ] || fail "case $n: exit status $st, expected 1 ($want): $(cat "$d/err")"
  grep -F -q -e "$want" "$d/err" || fail "case $n: expected '$want' in: $(cat "$d/err")"
  # shellcheck disable=SC2059
  printf "$sets_text" | cmp -s - "$d/sets.csv" || fail "case $n: the sets file was changed"
  left=$(ls "$d" | grep -v -e '^sets.csv$' -e '^err$' -e '^stdout$')
  [ -z "$left" ] || fail "case $n ($want) wrote: $left"
  [ ! -s "$d/stdout" ] || fail "case $n wrote to stdout"
}

# the header
refused 'F,lever.r13\n1,2\n' "sets.csv:1: column 2 'lever.r13' is not a parameter of LeverMass; did you mean 'lever.r12'?"
refused 'F,lever.rotational_port\n1,true\n' "column 2 'lever.rotational_port' is a structural parameter"
refused 'F,mass.m,F\n1,2,3\n' "sets.csv:1: 'F' is in column 1 and again in column 3"
refused 'F,,mass.m\n1,2,3\n' "column 2 has no name"
refused '' "sets.csv: the file is empty"
refused 'F,mass.m\n' "no rows under the header"
# the rows
refused 'F,mass.m\n1,2\n2,3\n3\n' "sets.csv:4: row 3 has 1 field, but the header has 2"
refused 'F,mass.m\n1,2\n2,3,4\n' "sets.csv:3: row 2 has 3 fields, but the header has 2"
refused 'F,mass.m\n1,2\nabc,3\n' "--param F: expected a number, optionally with a unit, not 'abc'"
refused 'F,mass.m\n1,2\n2,3\n"1,5",2\n' "--param F: bad unit ',5'"
refused 'F,mass.m\n1,2 m\n' "--param mass.m: 'm' has the dimension m, but the parameter is in kg"
refused 'F,mass.m\n1,2 furlongs\n' "--param mass.m: bad unit 'furlongs'"
refused 'id,F\na,1\n../x,2\n' "sets.csv:3: row 2: the label '../x' must be"
refused 'id,F\na,1\nb,2\na,3\n' "the label 'a' of row 3 is also row 1's"
# the CSV itself
refused 'F,mass.m\n1,"2\n' "sets.csv:2: a quoted field that never ends"
refused 'F,mass.m\n1,2"kg"\n' "sets.csv:2: a quote inside an unquoted field"
refused 'F,mass.m\n1,"2" kg\n' "sets.csv:2: text after the closing quote"
# the output names
refused 'F\n1\n2\n' "-o 'out.csv' has no {row} in it: all 2 rows would write that one file" -o out.csv
refused 'F\n1\n2\n' "--events 'ev.csv' has no {row} in it" -o 'out-{row}.csv' --events ev.csv
refused 'F\n1\n2\n' "a sweep writes each row's results to its own file" --events 'ev-{row}.csv'
refused 'F\n1\n2\n' "-o and --events name the same files" -o 'x-{row}.csv' --events 'x-{row}.csv'
refused 'F\n1\n2\n' "--events 'x-{row}.csv.meta' is the units file of each row's results" \
  -o 'x-{row}.csv' --events 'x-{row}.csv.meta'
refused 'F\n1\n2\n' "--events 'x-{row}.csv.summary' is the summary line of each row's results" \
  -o 'x-{row}.csv' --events 'x-{row}.csv.summary' --sweep-row 1
refused 'F\n1\n2\n' "'out-1.csv.meta' would be both the units file of row 1 and the summary" \
  -o 'out-{row}.csv' --sweep-summary out-1.csv.meta
refused 'F\n1\n2\n' "--sweep-row writes its summary line next to its results" -o 'out-{row}.csv' \
  --sweep-row 1 --sweep-summary summary.csv
refused 'F\n1\n2\n' "'out-2.csv' would be both the results of row 2 and the summary" -o 'out-{row}.csv' \
  --sweep-summary out-2.csv
# no file of the sweep is the sets file, and no two are one
refused 'F\n1\n' "refusing to write the results of row 1 'sets.csv': it is the sets file" \
  -o sets.csv
refused 'F\n1\n2\n' "refusing to write the summary 'sets.csv': it is the sets file" \
  -o 'out-{row}.csv' --sweep-summary sets.csv
refused 'row,F\nsets,1\n' "refusing to write the results of row 1 'sets.csv'" -o '{row}.csv'
refused 'row,F\nx,1\nx.meta,2\n' "'x.meta' would be both the units file of row 1 and the results of row 2" \
  -o '{row}'
refused 'F\n1\n2\n' "--sweep-row 3: " -o 'out-{row}.csv' --sweep-row 3
refused 'F\n1\n2\n' "--sweep-row expects a row number" -o 'out-{row}.csv' --sweep-row 0
refused 'F\n1\n2\n' "it does not go with --sweep-collect" -o 'out-{row}.csv' --sweep-row 1 --sweep-collect

# two rows' results that are one file through a hard link
d=$work/hardlink
mkdir "$d"
printf 'row,F\na,1\nb,2\n' > "$d/sets.csv"
: > "$d/out-a.csv"
ln "$d/out-a.csv" "$d/out-b.csv"
"$work/sim" --sweep "$d/sets.csv" -o "$d/out-{row}.csv" --sweep-summary "$d/s.csv" \
  2>"$d/err" && fail "hard-linked row results: exit 0"
grep -F -q "'$d/out-a.csv' (the results of row 1) and '$d/out-b.csv' (the results of row 2) are the same file" "$d/err" \
  || fail "hard-linked row results: $(cat "$d/err")"
[ ! -e "$d/s.csv" ] || fail "hard-linked row results: the summary was written"

# outside a sweep
"$work/sim" --sweep-row 1 -o "$work/x.csv" 2>"$work/err" && fail "--sweep-row without --sweep"
grep -q 'need --sweep SETS.csv' "$work/err" || fail "message: $(cat "$work/err")"
[ ! -e "$work/x.csv" ] || fail "--sweep-row without --sweep wrote its results"
"$work/sim" --sweep-colect 2>"$work/err"
[ $? = 1 ] && grep -q "did you mean '--sweep-collect'" "$work/err" || fail "no suggestion: $(cat "$work/err")"
echo "ok ($n cases)"
