#!/bin/sh
# LookupTable1D with units (signal blocks follow the unit of
# what they are given): a grid in N driven by a Constant in N, smooth
# (1.5 N -> PCHIP's 10.9375 N); a grid in mm driven by a ramp of 1 mm/s,
# data in N, pushing a 1 kg mass, whose velocity is the integral of the
# piecewise linear force, linearly extrapolated after 2 mm (1e-9).  A
# query in another unit than the grid's is an error
# (tests/errors/lookup_block_unit).
. "$(dirname "$0")/lib.sh"
build lookup_units.lmdl sim
"$work/sim" --stop-time 3 --output-step 0.05 --rtol 1e-10 --atol 1e-12 -o "$work/out.csv" || fail "run"
check "$work/out.csv" '
  if (v("lt.y") != 10.9375) { bad = 1; why = "lt.y = " v("lt.y") }
  u = t; f = u <= 1 ? 5 * u : 5 + 15 * (u - 1)
  if (abs(v("r.y") - 0.001 * t) > 1e-14) { bad = 1; why = "r.y at t = " t ": " v("r.y") }
  if (abs(v("lm.y") - f) > 1e-9) { bad = 1; why = "lm.y at t = " t ": " v("lm.y") " want " f }
  w = t <= 1 ? 2.5 * t * t : t <= 2 ? 2.5 + 5 * (t - 1) + 7.5 * (t - 1) ^ 2 \
                            : 15 + 20 * (t - 2) + 7.5 * (t - 2) ^ 2
  if (abs(v("mass.v") - w) > 1e-7) { bad = 1; why = "mass.v at t = " t ": " v("mass.v") " want " w }'
echo ok
