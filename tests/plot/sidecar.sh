#!/bin/sh
# The simulator's RESULTS.meta (runtime/rt_sidecar.c): its exact text,
# its columns following -o's header (--vars order), nothing for standard
# output, /dev/null or a refused command line, written through a
# temporary file so a link at its name is replaced and not followed, with
# the usual mode; a failure to write it is a warning and the run goes on;
# a sweep writes one per row file, and each row plots with its units.
. "$(dirname "$0")/lib.sh"
cd "$work" || exit 1
umask 022
sim tests/e2e/mass_spring.lmdl ms
./ms --help | grep -qF 'to FILE.meta' || fail "--help does not mention FILE.meta"

./ms --stop-time 0.1 --vars mass.v,mass.x,spring.f -o out.csv || fail "simulator"
cat >want <<'META'
record,name,unit,kind,description
model,MassSpring,,,
column,time,s,time,time
column,mass.v,m/s,variable,velocity (alias of P.v)
column,mass.x,m,variable,position (alias of P.x)
column,spring.f,N,variable,
state,mass.x,m,state,
state,mass.v,m/s,state,
META
diff want out.csv.meta || fail "out.csv.meta is not as expected"
ls -l out.csv.meta | grep -q '^-rw-r--r--' || fail "out.csv.meta's mode is not 0666 less the umask"

# a description with a comma is quoted; top-level outputs are "output"
sim examples/wall_contact/wall_contact.lmdl wall
./wall --stop-time 0.01 --vars wall3.f -o w.csv || fail "wall"
grep -qxF 'column,wall3.f,N,variable,"contact force, always >= 0"' w.csv.meta ||
  { cat w.csv.meta; fail "the description with a comma"; }
cat >out.lmdl <<'LMDL'
component Outputs
  parameters
    tau = {1, 's'};
  end
  outputs
    y = {0, 'V'};   % the output voltage
  end
  variables
    x = {value = 1, priority = priority.high};
  end
  equations
    tau * der(x) == -x;
    y == {2, 'V'} * x;
  end
end
LMDL
"$LMDLC" build out.lmdl -o outputs || fail "build out.lmdl"
./outputs --stop-time 0.1 -o o.csv || fail "outputs"
grep -qxF 'column,y,V,output,the output voltage' o.csv.meta || { cat o.csv.meta; fail "the output"; }

# nothing beside standard output or a device
./ms --stop-time 0.1 -o - >stdout.csv || fail "-o -"
./ms --stop-time 0.1 -o /dev/null || fail "-o /dev/null"
[ -e ./-.meta ] || [ -e /dev/null.meta ] && fail "a RESULTS.meta beside standard output or /dev/null"
# nothing for a refused command line
./ms --param nosuch=1 -o refused.csv 2>/dev/null && fail "--param nosuch accepted"
[ -e refused.csv.meta ] && fail "a refused run wrote RESULTS.meta"

# a link at its name is replaced, the file it points to kept
echo victim >victim
ln -s victim link.csv.meta
./ms --stop-time 0.1 -o link.csv || fail "simulator with a link"
[ -L link.csv.meta ] && fail "link.csv.meta is still a link"
[ "$(cat victim)" = victim ] || fail "RESULTS.meta was written through a link"
grep -q '^model,MassSpring' link.csv.meta || fail "link.csv.meta not written"

# when it cannot be written: a warning, the results complete, exit 0
mkdir dir.csv.meta
./ms --stop-time 0.1 -o dir.csv 2>err || fail "a failed RESULTS.meta failed the run"
grep -qF "warning: cannot write the units of the results, 'dir.csv.meta'" err || { cat err; fail "no warning"; }
[ "$(wc -l <dir.csv)" = 502 ] || fail "dir.csv is incomplete"
if ls -A | grep -q '^dir\.csv\.meta\.'; then fail "a temporary file was left"; fi

# a sweep: one RESULTS.meta per row file, and each row plots with units
printf '%s\n' 'mass.m' '1' '2 kg' >sets.csv
./ms --stop-time 0.1 --sweep sets.csv -o 'row-{row}.csv' >summary.csv 2>/dev/null || fail "sweep"
for k in 1 2; do
  grep -q '^model,MassSpring' "row-$k.csv.meta" || fail "no row-$k.csv.meta"
  plot 0 "row-$k.csv" -o "row-$k.svg"
  svg_text "row-$k.svg"
  has "ylabel	position [m]" "text	MassSpring (row-$k.csv)"
done
echo ok
