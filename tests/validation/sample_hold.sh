#!/bin/sh
# SampleHold against the hand computation.  U = sin(2 pi t + 0.3) is
# sampled at the initial event (Y = U(0) = sin(0.3)) and whenever the trigger
# sin(2 pi 10 t - 0.5) turns positive, at t_k = 0.5/(20 pi) + k/10; so
# Y(t) = U(t_k) on (t_k, t_k+1), and x, its integral, is
# U(0) t_0 + sum_j<k U(t_j) (t_j+1 - t_j) + U(t_k) (t - t_k).  Checked:
# Y within 1e-9 at every row (an event is located within 1e-12 s and U
# moves by 2 pi per s), the left-limit row of each event holding the old
# sample and the right-limit row the new one; x within 1e-7; ten samples
# logged; with msbdf, rk8pd and cvode.
. "$(dirname "$0")/lib.sh"
build sample_hold.lmdl sim
for solver in msbdf rk8pd cvode; do
  "$work/sim" --solver $solver --stop-time 1 --output-step 0.025 --rtol 1e-10 \
    --events "$work/ev.csv" -o "$work/out.csv" || fail "$solver run"
  awk -F, 'function abs(v) { return v < 0 ? -v : v }
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { n++; t[n] = $1 + 0; y[n] = $c["sh.Y"] + 0; x[n] = $c["x"] + 0 }
    END {
      pi = 3.141592653589793; t0 = 0.5 / (20 * pi)
      for (i = 1; i <= n; i++) {
        # the samples taken by t: the initial one, then t_0, t_1, ...
        k = t[i] < t0 ? -1 : int((t[i] - t0) * 10 + 1e-9)
        at_sample = k >= 0 && abs(t[i] - (t0 + k / 10)) < 1e-9
        if (at_sample && i < n && t[i + 1] == t[i]) k--  # its left limit: the old one
        want = sin(k < 0 ? 0.3 : 2 * pi * (t0 + k / 10) + 0.3)
        if (abs(y[i] - want) > 1e-9) { printf "Y at t=%.15g: %.15g, expected %.15g\n", t[i], y[i], want; bad = 1 }
        ix = 0; last = 0; held = sin(0.3)
        for (j = 0; j <= k; j++) { tj = t0 + j / 10; ix += held * (tj - last); last = tj; held = sin(2 * pi * tj + 0.3) }
        ix += held * (t[i] - last)
        if (abs(x[i] - ix) > 1e-7) { printf "x at t=%.15g: %.15g, expected %.15g\n", t[i], x[i], ix; bad = 1 }
        if (at_sample && i > 1 && t[i] == t[i - 1]) pairs++
      }
      if (pairs != 10) { print pairs " pairs of event rows, expected 10"; bad = 1 }
      exit bad
    }' "$work/out.csv" || fail "$solver: values"
  up=$(grep -c ',sh,T > 0,true' "$work/ev.csv")
  [ "$up" = 10 ] || fail "$solver: $up samples on T > 0, expected 10"
done
echo ok
