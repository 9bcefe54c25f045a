# meta_quote.sh LMDLC: a RESULTS.meta record longer than the buffer a
# record starts in (512 bytes) and with a field that needs quotes: a
# variable's 600-byte description with a comma and a double quote is one
# field, quoted, its quote doubled (RFC 4180), and the records after it
# are whole.
. "$(dirname "$0")/lib.sh"
lmdlc=$1
words=$(printf 'word%.0s ' $(seq 120))
desc="${words}and, \"quoted\" text"
cat > "$tmp/q.lmdl" <<MODEL
component Quoted
  variables
    x = {1, 'm'}; % $desc
  end
  equations
    der(x) == -x / {1, 's'};
  end
end
MODEL
"$lmdlc" build "$tmp/q.lmdl" -o "$tmp/q" || fail "build"
run 0 "$tmp/q" --quiet --stop-time 0.1 -o "$tmp/q.csv"
want="column,x,m,variable,\"${words}and, \"\"quoted\"\" text\""
got=$(grep '^column,x,' "$tmp/q.csv.meta")
[ "$got" = "$want" ] || fail "the record is: $got"
[ "$(tail -n 1 "$tmp/q.csv.meta")" = "state,x,m,state," ] || fail "the state record: $(tail -n 1 "$tmp/q.csv.meta")"
echo ok
