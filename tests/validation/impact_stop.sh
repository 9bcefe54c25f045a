#!/bin/sh
# ImpactStop: a mass dropped from h0 = 1 m (g = 9.81 m/s^2) onto an
# ideal stop with restitution e = 0.8.  Closed form: it meets the stop
# with v0 = sqrt(2 g h0) at t1 = v0/g, leaves with e^k v0 after the k-th
# impact, so the k-th apex height is e^(2k) h0 and the impacts follow
# t(k+1) = t(k) + 2 e^k v0 / g.  The first 10 impact times (the log's
# `mc,impact` lines) and apex heights (x in the rows at the apexes, where
# `v <= 0` turns true) must match to 1e-8 relative, with rk8pd, msbdf and
# cvode.  The Zeno limit (bounces accumulating at t1 (1 + 2e/(1 - e)) =
# 4.0637 s) ends at rest: the stop enters its rest mode once an impact is
# slower than v_rest = 1e-3 m/s (the 38th: e^k v0 < 1e-3), holds the mass at the
# bound with the force m g, and the run ends normally.
. "$(dirname "$0")/lib.sh"
build impact_stop.lmdl sim
for solver in rk8pd msbdf cvode; do
  "$work/sim" --solver $solver --stop-time 6 --output-step 0.5 --rtol 1e-12 --atol 1e-12 \
    --events "$work/ev.csv" -o "$work/out.csv" 2>"$work/err" \
    || fail "$solver: $(cat "$work/err")"
  awk -F, -v solver=$solver 'function abs(v) { return v < 0 ? -v : v }
    FNR == NR {
      if ($3 == "mc" && $4 == "impact") imp[++ni] = $1 + 0
      if ($3 == "v <= 0" && $4 == "true") apex_t[++na] = $1
      if ($3 == "mc" && $4 == "rest") rest = $1 + 0
      next }
    FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { if (!($1 in x)) x[$1] = $c["m.x"] + 0; mode = $c["stop.mc"] + 0; f = $c["stop.f"] + 0 }
    END {
      g = 9.81; e = 0.8; h0 = 1; v0 = sqrt(2 * g * h0); t = v0 / g
      for (k = 1; k <= 10; k++) {
        err = abs(imp[k] - t) / t; if (err > worst_t) worst_t = err
        if (err > 1e-8) { printf "%s: impact %d at %.15g, expected %.15g\n", solver, k, imp[k], t; bad = 1 }
        # apex k follows impact k (v <= 0 holds from the start, so the
        # first line of it is the first apex)
        h = e ^ (2 * k) * h0; got = x[apex_t[k]]
        err = abs(got - h) / h; if (err > worst_h) worst_h = err
        if (err > 1e-8) { printf "%s: apex %d %.15g, expected %.15g\n", solver, k, got, h; bad = 1 }
        t += 2 * e ^ k * v0 / g
      }
      tinf = v0 / g * (1 + 2 * e / (1 - e))
      printf "%s: 10 impacts, worst relative error %.2g (times), %.2g (apexes); %d impacts, at rest from t = %.6g (Zeno limit %.6g)\n", solver, worst_t, worst_h, ni, rest, tinf
      if (!(rest > 4 && rest < tinf)) { print "no rest before the Zeno limit"; bad = 1 }
      if (mode != 3 || abs(f - g) > 1e-6) { print "the last row is not at rest with f = m g: mode " mode ", f " f; bad = 1 }
      exit bad
    }' "$work/ev.csv" "$work/out.csv" || fail "$solver: bounces"
done
echo ok
