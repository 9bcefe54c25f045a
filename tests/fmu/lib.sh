# lib.sh - helpers for the FMU tests (tests/fmu/*.sh): a scratch
# directory, lmdlc fmu, and comparisons of CSV files and event logs in
# awk.  Sourced with LMDLC and FMU_TEST (the importer, fmu_test.c) set.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
wall=$root/examples/wall_contact/wall_contact.lmdl

# fmu MODEL OUT.fmu: lmdlc fmu.
fmu() {
  "$LMDLC" fmu "$1" -o "$2" || fail "lmdlc fmu $1"
}

# same_rows A.csv B.csv TOL: the same header and output times, every
# value within TOL * (1 + |reference|) of the reference A; prints the
# largest difference relative to that scale.  The simulator's two rows at
# each event (A's rows at times that are not multiples of the output step
# DT, default 0.1/500, to 1e-12 of it) are left out: an FMU is read at the
# output times.  Of the two rows of an event at an output time (the left
# and the right limit) the FMU's is either: the right one when the event
# came just before the communication point, the left one when it came
# just after it (within the event time tolerance, an output time's event
# for the simulator, docs/language.md, "Events").
same_rows() {
  awk -F, -v tol="$3" -v dt="${4:-0.0002}" '
    function abs(v) { return v < 0 ? -v : v }
    # the largest scaled difference of this row from the reference row r
    function diff(r,   m, f, i, d, w) {
      m = split(r, f, ",")
      if (m != NF) return -1
      if (abs($1 - f[1]) > 1e-12 * (1 + abs(f[1]))) return -2
      for (i = 2; i <= NF; i++) { d = abs($i - f[i]) / (1 + abs(f[i])); if (d > w) w = d }
      return w }
    NR == FNR { if (FNR > 1) { k = int($1 / dt + 0.5); if (abs($1 - k * dt) > 1e-12 * dt) next
                               if (n > 1 && $1 == last) { left[n] = ref[n]; n-- } }
                ref[++n] = $0; last = $1; next }
    { if (FNR > n) { print "extra row " FNR; bad = 1; exit }
      if (FNR == 1) { if ($0 != ref[1]) { print "headers differ: " $0 " / " ref[1]; bad = 1; exit } next }
      d = diff(ref[FNR])
      if (FNR in left) { dl = diff(left[FNR]); if (dl >= 0 && (d < 0 || dl < d)) d = dl }
      if (d == -1) { print "row " FNR ": field count"; bad = 1; exit }
      if (d == -2) { print "row " FNR ": time " $1 " / " ref[FNR]; bad = 1; exit }
      if (d > worst) worst = d
      if (d > tol) { print "row " FNR ": " $0 " / " ref[FNR]; bad = 1; exit }
      rows = FNR }
    END { if (!bad && rows != n) { print "missing rows: " rows " of " n; bad = 1 }
          printf "largest difference %.3g (tolerance %g) over %d rows\n", worst, tol, n
          exit bad }' "$1" "$2" || fail "rows of $2 against $1"
}

# event_times RUN_EVENTS.csv FMU_EVENTS TOL: the same events (instance,
# value), in order, at times within TOL s.  The simulator's log is CSV
# (time,instance,condition,value); the FMU's lines are its logger's
# "TIME: INSTANCE: 'CONDITION' became VALUE (LOCATION)".
event_times() {
  awk -v tol="$3" '
    function abs(v) { return v < 0 ? -v : v }
    NR == FNR { if (FNR > 1) { split($0, f, ","); t[++n] = f[1]; inst[n] = f[2]
                               val[n] = $NF ~ /true$/ ? "true" : "false" }
                next }
    { k++; split($0, f, ": "); ft = f[1] + 0; fi = f[2]
      fv = $0 ~ /became true/ ? "true" : "false"
      if (k > n) { print "extra event: " $0; bad = 1; exit }
      if (fi != inst[k] || fv != val[k]) { print "event " k ": " $0 " / " inst[k] " " val[k]; bad = 1; exit }
      d = abs(ft - t[k]); if (d > worst) worst = d
      if (d > tol) { printf "event %d at %.17g, simulator %.17g\n", k, ft, t[k]; bad = 1; exit } }
    END { if (!bad && k != n) { print "events: " k " of " n; bad = 1 }
          printf "%d events, largest time difference %.3g s (tolerance %g s)\n", n, worst, tol
          exit bad }' "$1" "$2" || fail "events of $2 against $1"
}
