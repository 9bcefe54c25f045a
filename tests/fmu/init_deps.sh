#!/bin/sh
# init_deps.sh - the dependencies of the InitialUnknowns are never smaller
# than the truth.
#
# For the wall-contact FMU, tests/fmu/pushed.lmdl (no targets: the states
# start at their values) and tests/fmu/init_solve.lmdl (a target on a
# variable that is no state, so initialization solves for the states;
# a parameter whose default is an expression of another): each tunable
# parameter and each input is changed in turn (to 1.3 v + 0.7), the FMU
# initialized (Co-Simulation, the row at t = 0), and every initial
# unknown whose value changed must list that parameter or input in its
# dependencies.  A change the model refuses (an assert) is skipped; at
# least one change per model must show an effect, so the check is not
# vacuous.  The expected sets themselves are in pushed.lmdl.xml (golden).
. "$(dirname "$0")/lib.sh"
fmu "$wall" "$work/wall.fmu"
(cd "$here" && "$LMDLC" fmu pushed.lmdl -o "$work/pushed.fmu" \
   && "$LMDLC" fmu init_solve.lmdl -o "$work/init_solve.fmu") || fail "lmdlc fmu"
for f in wall pushed init_solve; do
  /usr/bin/python3 - "$FMU_TEST" "$work/$f.fmu" <<'PY' || fail "$f: InitialUnknowns dependencies"
import subprocess, sys, zipfile
import xml.etree.ElementTree as ET
fmu_test, path = sys.argv[1], sys.argv[2]
root = ET.fromstring(zipfile.ZipFile(path).read("modelDescription.xml"))
svs = root.find("ModelVariables").findall("ScalarVariable")
init = root.find("ModelStructure").find("InitialUnknowns").findall("Unknown")
unknowns = {int(u.get("index")): u.get("dependencies") for u in init}
if any(d is None for d in unknowns.values()):
    sys.exit("an initial unknown without dependencies")
names = [svs[i - 1].get("name") for i in sorted(unknowns)]

def initial(sets):
    cmd = [fmu_test, path, "cs", "--stop", "0.001", "--step", "0.001",
           "--vars", ",".join(names)]
    for s in sets:
        cmd += ["--set", s]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None
    return [float(v) for v in r.stdout.splitlines()[1].split(",")[1:]]

base = initial([])
if base is None:
    sys.exit("the FMU does not initialize")
changed = checked = 0
for i, sv in enumerate(svs, 1):
    known = sv.get("causality") == "input" or (sv.get("causality") == "parameter"
                                               and sv.get("variability") == "tunable")
    if not known or sv[0].tag != "Real":
        continue
    start = float(sv[0].get("start"))
    got = initial(["%s=%.17g" % (sv.get("name"), 1.3 * start + 0.7)])
    if got is None:
        continue        # refused (an assert on the parameter)
    checked += 1
    for name, k, a, b in zip(names, sorted(unknowns), base, got):
        if abs(a - b) > 1e-12 * (1 + abs(a)):
            changed += 1
            if str(i) not in unknowns[k].split():
                sys.exit("%s changes with %s (%.17g -> %.17g), but its dependencies are "
                         "'%s'" % (name, sv.get("name"), a, b, unknowns[k]))
if not changed:
    sys.exit("no change had an effect: the check is vacuous")
print("%s: %d parameters and inputs changed, %d initial values moved, each listed"
      % (root.get("modelName"), checked, changed))
PY
done
echo PASS
