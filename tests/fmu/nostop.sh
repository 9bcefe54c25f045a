#!/bin/sh
# nostop.sh - Co-Simulation when the importer gives no stop time
# (fmi2SetupExperiment with stopTimeDefined false, as FMI 2.0 allows):
# the solver must still step freely past the communication points, not
# be cut short at each one (which kept msbdf at low order and off its
# tolerance: the free fall's position drifted 3e-6 per communication step,
# 1e-4 at 0.1 s).  impact_stop.lmdl's mass falls freely from x = 1 m
# until 0.45 s: x(t) = 1 - g t^2 / 2, g = 9.81 m/s^2.  Stepped every 2 ms
# to 0.1 s, with and without a stop time, x must be within 2e-5 m of it
# everywhere (lmdlc run's own error is 6e-6; cut short at every point it
# was 9.9e-5 at 0.1 s), and the two runs within 2e-5 of each other.
. "$(dirname "$0")/lib.sh"
fmu "$root/tests/validation/impact_stop.lmdl" "$work/impact.fmu"
for how in stop nostop; do
  if [ $how = nostop ]; then set -- --no-stop 1; else set --; fi
  "$FMU_TEST" "$work/impact.fmu" cs --stop 0.1 --step 0.002 --vars m.x "$@" >"$work/$how.csv" \
    || fail "fmu_test cs ($how)"
  awk -F, -v how=$how 'NR > 1 { e = $2 - (1 - 9.81 * $1 * $1 / 2); if (e < 0) e = -e; if (e > w) w = e }
    END { printf "%s: largest |x - (1 - g t^2/2)| = %.3g m over %d rows\n", how, w, NR - 1
          if (!(w < 2e-5) || NR < 50) exit 1 }' "$work/$how.csv" || fail "$how: off the free fall"
done
same_rows "$work/stop.csv" "$work/nostop.csv" 2e-5 0.002
echo PASS
