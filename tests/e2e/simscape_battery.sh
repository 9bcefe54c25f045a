#!/bin/sh
# batteryecm.table_battery discharged at a constant current
# (tests/simscape/+battery/Discharge.ssc): I = 2.7 A out of p,
# AH = 27 A*hr, V0 = 3 + 1.2 SOC (a linear table), R0 = 0.03 Ohm, one RC
# section R1 = 0.005 Ohm, tau = 30 s, an adiabatic thermal mass
# C = 100 J/K from T0 = 298.15 K. With e = exp(-t/tau):
#   SOC = 1 - I t / (3600 AH)
#   v1  = -I R1 (1 - e)
#   v   = 3 + 1.2 SOC - I R0 + v1
#   T   = T0 + (I^2 R0 t + I^2 R1 (t - 2 tau (1 - e) + tau/2 (1 - e^2))) / C
#   num_cycles = I t / (2 * 3600 AH);  SOC output = SOC
# Tolerances: 1e-7 V, 1e-9 in SOC, 1e-6 K, run with --rtol 1e-10.
# Then a cell at rest (Rest.ssc) that discharges itself through
# Rleak(T) = 50 Ohm, reading 2-D tables at its constant 293.15 K, where
# V0 = a + b SOC with a = 3 V, b = 1.2 V, AH = 1 A*hr:
#   SOC = (SOC0 + a/b) exp(-b t / (Rleak AH)) - a/b,  v = a + b SOC
# to 5e-8 in SOC and 1e-7 V (the absolute tolerance 1e-9 of the state
# leaves some 1e-8 of global error over the 10 hours).
. "$(dirname "$0")/lib.sh"
inc="$here/../simscape"
"$LMDLC" build "$inc/+battery/Discharge.ssc" -I "$inc" -o "$work/sim" || fail "build"
"$work/sim" --stop-time 1800 --output-step 60 --rtol 1e-10 -o "$work/out.csv" || fail "run"
check "$work/out.csv" '
  I = 2.7; AH = 27 * 3600; R0 = 0.03; R1 = 0.005; tau = 30; C = 100
  e = exp(-t / tau)
  soc = 1 - I * t / AH
  v1 = -I * R1 * (1 - e)
  vv = 3 + 1.2 * soc - I * R0 + v1
  T = 298.15 + (I * I * R0 * t + I * I * R1 * (t - 2 * tau * (1 - e) + tau / 2 * (1 - e * e))) / C
  if (abs(v("cell.stateOfCharge") - soc) > 1e-9) { bad = 1; why = "SOC at " t }
  if (abs(v("cell.SOC") - soc) > 1e-9) { bad = 1; why = "the SOC output at " t }
  if (abs(v("cell.vrc(1)") - v1) > 1e-7) { bad = 1; why = "vrc(1) at " t }
  if (abs(v("cell.v") - vv) > 1e-7) { bad = 1; why = "v at " t ": " v("cell.v") " vs " vv }
  if (abs(v("cell.cell_temperature") - T) > 1e-6) { bad = 1; why = "T at " t ": " v("cell.cell_temperature") " vs " T }
  if (abs(v("cell.num_cycles") - I * t / (2 * AH)) > 1e-9) { bad = 1; why = "num_cycles at " t }'
"$LMDLC" build "$inc/+battery/Rest.ssc" -I "$inc" -o "$work/rest" || fail "build Rest"
"$work/rest" --stop-time 36000 --output-step 1200 --rtol 1e-10 -o "$work/rest.csv" || fail "run Rest"
check "$work/rest.csv" '
  soc = (0.9 + 2.5) * exp(-1.2 * t / (50 * 3600)) - 2.5
  if (abs(v("cell.stateOfCharge") - soc) > 5e-8) { bad = 1; why = "SOC at " t ": " v("cell.stateOfCharge") " vs " soc }
  if (abs(v("cell.v") - (3 + 1.2 * soc)) > 1e-7) { bad = 1; why = "v at " t }'
# --help lists every run-time parameter (it once stopped at 50 without
# saying so; the cell has hundreds, cell.AH far down the list)
"$work/sim" --help > "$work/help.txt" || fail "--help"
grep -q "^  cell.AH  *27 A\*hr" "$work/help.txt" || fail "--help does not list cell.AH"
echo ok
