#!/bin/sh
# --solver cvode (SUNDIALS BDF + KLU on the colored sparse Jacobian)
# against rk8pd at tight tolerances, on a chain of 20 levers
# (bench/gen/lever_chain.sh: 40 states, a sparsity pattern) and on the
# wall-contact example (events, located by the runtime's own code).
#   lever chain: every column within 1e-6 of its largest magnitude;
#   wall contact: the same events in the same order (instance, condition,
#   value), each time within 1e-8 s, and every column within 1e-6 of its
#   largest magnitude at the output times.
# Measured at 1e-10 / 1e-12: 2.4e-7 (chain), 4e-8 and 3e-10 s (contact).
. "$(dirname "$0")/lib.sh"
sh "$here/../../bench/gen/lever_chain.sh" 20 "$work/chain.lmdl" || fail "lever_chain.sh"
"$LMDLC" emit-c "$work/chain.lmdl" -o "$work/chain.c" || fail "emit-c chain"
grep -q "static const int jac_color" "$work/chain.c" || fail "no sparsity pattern emitted"
"$LMDLC" build "$work/chain.lmdl" -o "$work/chain" || fail "build chain"
build ../../examples/wall_contact/wall_contact.lmdl wall

tight="--rtol 1e-10 --atol 1e-12"
# maxrel A B: the largest difference in any common column over the rows of
# equal time, relative to the column's largest magnitude in A
maxrel() {
  awk -F, '
    FNR == 1 { if (NR == 1) for (i = 1; i <= NF; i++) name[i] = $i; next }
    NR == FNR { if (!($1 in row)) row[$1] = $0
                for (i = 2; i <= NF; i++) { v = $i < 0 ? -$i : $i; if (v > mag[i]) mag[i] = v }
                next }
    ($1 in row) && !($1 in seen) {
      seen[$1] = 1; n++; split(row[$1], a, ",")
      for (i = 2; i <= NF; i++) { d = a[i] - $i; if (d < 0) d = -d
        r = mag[i] > 0 ? d / mag[i] : d; if (r > m) { m = r; at = name[i] } } }
    END { printf "%.3g %d %s\n", m, n, at }' "$1" "$2"
}

"$work/chain" --quiet --solver rk8pd $tight -o "$work/chain_rk8pd.csv" || fail "chain rk8pd"
"$work/chain" --quiet --solver cvode $tight -o "$work/chain_cvode.csv" || fail "chain cvode"
set -- $(maxrel "$work/chain_rk8pd.csv" "$work/chain_cvode.csv")
echo "lever chain 20: cvode vs rk8pd: max relative difference $1 over $2 rows (in $3)"
[ "$2" -eq 501 ] && awk -v d="$1" 'BEGIN { exit !(d <= 1e-6) }' || fail "chain: cvode differs by $1"

for s in rk8pd cvode; do
  "$work/wall" --quiet --solver $s $tight --events "$work/ev_$s.csv" -o "$work/wall_$s.csv" \
    || fail "wall contact $s"
done
set -- $(maxrel "$work/wall_rk8pd.csv" "$work/wall_cvode.csv")
echo "wall contact: cvode vs rk8pd: max relative difference $1 over $2 rows (in $3)"
[ "$2" -ge 500 ] && awk -v d="$1" 'BEGIN { exit !(d <= 1e-6) }' || fail "wall contact: cvode differs by $1"
[ "$(wc -l < "$work/ev_rk8pd.csv")" -gt 3 ] || fail "wall contact: too few events"
[ "$(wc -l < "$work/ev_rk8pd.csv")" -eq "$(wc -l < "$work/ev_cvode.csv")" ] || fail "different event counts"
paste -d '\n' "$work/ev_rk8pd.csv" "$work/ev_cvode.csv" | awk -F, '
  NR <= 2 { next }
  NR % 2 { t = $1; rest = substr($0, length($1) + 1); next }
  { d = $1 - t; if (d < 0) d = -d; if (d > m) m = d
    if (substr($0, length($1) + 1) != rest) { print "event " NR / 2 - 1 " differs: " $0; bad = 1 } }
  END { printf "wall contact: %d events, times within %.3g s\n", NR / 2 - 1, m; exit bad || m > 1e-8 }' \
  || fail "wall contact: events differ"

# The default without --solver: msbdf below 64 states (the chain of 20
# has 40), cvode from 64 with a sparsity pattern (a chain of 32): the rows
# are those of the solver named, to the bit.
sh "$here/../../bench/gen/lever_chain.sh" 32 "$work/chain32.lmdl" || fail "lever_chain.sh 32"
"$LMDLC" build "$work/chain32.lmdl" -o "$work/chain32" || fail "build chain 32"
for c in chain chain32; do
  for s in default msbdf cvode; do
    opt="--solver $s"; [ $s = default ] && opt=""
    "$work/$c" --quiet $opt -o "$work/${c}_$s.csv" || fail "$c $s"
  done
done
cmp -s "$work/chain_default.csv" "$work/chain_msbdf.csv" || fail "40 states: the default is not msbdf"
cmp -s "$work/chain_msbdf.csv" "$work/chain_cvode.csv" && fail "40 states: msbdf and cvode rows are the same"
cmp -s "$work/chain32_default.csv" "$work/chain32_cvode.csv" || fail "64 states: the default is not cvode"
cmp -s "$work/chain32_msbdf.csv" "$work/chain32_cvode.csv" && fail "64 states: msbdf and cvode rows are the same"
echo "default solver: msbdf at 40 states, cvode at 64"
echo ok
