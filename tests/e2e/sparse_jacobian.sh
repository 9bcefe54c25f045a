#!/bin/sh
# The colored finite-difference Jacobian (msbdf, rk4imp, bsimp, and cvode
# with KLU) gives the same trajectories as an explicit stepper that needs
# no Jacobian.
. "$(dirname "$0")/lib.sh"
build sparse_chain.lmdl sim
grep -q "jac_color" /dev/null 2>/dev/null
"$LMDLC" emit-c "$here/sparse_chain.lmdl" -o "$work/sim.c" || fail emit-c
grep -q "static const int jac_color" "$work/sim.c" || fail "no sparsity pattern emitted"
"$work/sim" --stop-time 2 --solver rk8pd --rtol 1e-11 --atol 1e-13 -o "$work/ref.csv" || fail rk8pd
for solver in msbdf rk4imp bsimp cvode; do
  "$work/sim" --stop-time 2 --solver $solver --rtol 1e-9 --atol 1e-12 -o "$work/$solver.csv" \
    || fail "$solver"
  paste -d, "$work/ref.csv" "$work/$solver.csv" | awk -F, -v s=$solver '
    NR == 1 { n = NF / 2; next }
    { for (i = 2; i <= n; i++) { d = $i - $(i + n); if (d < 0) d = -d; if (d > m) m = d } }
    END { if (m > 1e-5 || m == "") { print s ": max difference " m; exit 1 } }' \
    || fail "$solver differs from rk8pd"
done
echo ok
