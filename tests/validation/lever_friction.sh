#!/bin/sh
# examples/lever_friction: the lever's friction pivot breaks away when the
# push's torque r23 F3 = 0.1 m x 20 t N reaches the breakaway torque
# 1 N m, at t = 0.5 s (within 1e-9); T3 reaches the stop at 10 mm (the
# crossing's row within 1e-9 m); the pivot ends stuck (mode 1, w == 0
# exactly) in contact; with msbdf, rk8pd and cvode.
. "$(dirname "$0")/lib.sh"
"$LMDLC" build "$here/../../examples/lever_friction/lever_friction.lmdl" -o "$work/sim" \
  || fail "build"
for solver in msbdf rk8pd cvode; do
  "$work/sim" --solver $solver --stop-time 1 --output-step 0.01 --rtol 1e-10 \
    --events "$work/ev.csv" -o "$work/out.csv" || fail "$solver run"
  awk -F, -v solver=$solver 'function abs(v) { return v < 0 ? -v : v }
    NR == FNR {
      if ($2 == "pivot" && $3 == "mc" && $4 == "forward" && !tb) tb = $1 + 0
      if ($2 == "stop" && $3 == "x > upper_bnd" && $4 == "true" && !tc) tc = $1
      next }
    FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { if ($1 == tc && !xc_seen) { xc = $c["lever.T3.x"] + 0; xc_seen = 1 }
      mode = $c["pivot.mc"]; w = $c["inertia.w"] + 0 }
    END {
      if (abs(tb - 0.5) > 1e-9) { print solver ": breakaway at " tb; bad = 1 }
      if (abs(xc - 0.01) > 1e-9) { print solver ": T3 at " xc " at the contact"; bad = 1 }
      if (mode != 1 || w != 0) { print solver ": the end: mode " mode ", w " w; bad = 1 }
      printf "%s: breakaway at %.12f s, contact at %s s\n", solver, tb, tc
      exit bad }' "$work/ev.csv" "$work/out.csv" || fail "$solver"
done
echo ok
