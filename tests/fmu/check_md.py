#!/usr/bin/python3
"""check_md.py MODELDESCRIPTION.xml - the rules of FMI 2.0 (section 2.2)
that a schema cannot state, for what lmdlc fmu writes:

- a value reference used twice within a type makes aliases: never a
  parameter or an input, no start, the same variability;
- every unit attribute names a Unit of UnitDefinitions;
- parameters and inputs have a start value, computed variables none;
- every derivative="" names an existing Real variable;
- ModelStructure/Outputs lists exactly the outputs, in index order;
- Derivatives lists variables with a derivative attribute, the states
  they name distinct;
- InitialUnknowns, in index order, holds every output, state and
  derivative (all computed at initialization);
- dependencies name only states and inputs (the knowns of Model
  Exchange), ascending, and every index is in range; those of the
  InitialUnknowns only parameters and inputs (the knowns of
  initialization: initial="exact");
- numberOfEventIndicators is present; ME and CS name one binary.
Prints what it checked; exit 1 on the first broken rule.
"""
import sys
import xml.etree.ElementTree as ET


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


root = ET.parse(sys.argv[1]).getroot()
if root.tag != "fmiModelDescription" or root.get("fmiVersion") != "2.0":
    fail("not an FMI 2.0 model description")
if root.get("numberOfEventIndicators") is None:
    fail("no numberOfEventIndicators")
ids = {e.get("modelIdentifier") for e in root if e.tag in ("ModelExchange", "CoSimulation")}
if len(ids) != 1:
    fail("ModelExchange and CoSimulation name %s" % ids)
units = {u.get("name") for u in root.iter("Unit")}
svs = root.find("ModelVariables").findall("ScalarVariable")
seen = {}
for i, sv in enumerate(svs, 1):
    typ = sv[0]
    key = (typ.tag, sv.get("valueReference"))
    if key in seen:
        # aliases (FMI 2.0, 2.2.7): one value; never settable, the same
        # variability, no start
        first = svs[seen[key] - 1]
        for a in (first, sv):
            if a.get("causality") in ("parameter", "input") or a[0].get("start") is not None:
                fail("%s: an alias (value reference %s %s) that is settable or has a start"
                     % (a.get("name"), key[0], key[1]))
        if first.get("variability") != sv.get("variability"):
            fail("%s and %s: aliases of different variability" % (first.get("name"), sv.get("name")))
    else:
        seen[key] = i
    if typ.get("unit") is not None and typ.get("unit") not in units:
        fail("%s: unit %s is not defined" % (sv.get("name"), typ.get("unit")))
    settable = sv.get("causality") in ("parameter", "input")
    if settable != (typ.get("start") is not None):
        fail("%s: start %s for causality %s" % (sv.get("name"), typ.get("start"),
                                                sv.get("causality")))
    d = typ.get("derivative")
    if d is not None and not (1 <= int(d) <= len(svs) and svs[int(d) - 1][0].tag == "Real"):
        fail("%s: derivative=%s is no Real variable" % (sv.get("name"), d))
ms = root.find("ModelStructure")


def unknowns(tag):
    e = ms.find(tag)
    return [] if e is None else e.findall("Unknown")


outputs = [i for i, sv in enumerate(svs, 1) if sv.get("causality") == "output"]
inputs = {i for i, sv in enumerate(svs, 1) if sv.get("causality") == "input"}
if [int(u.get("index")) for u in unknowns("Outputs")] != outputs:
    fail("Outputs is not every output in index order")
ders = [int(u.get("index")) for u in unknowns("Derivatives")]
states = []
for d in ders:
    if not 1 <= d <= len(svs) or svs[d - 1][0].get("derivative") is None:
        fail("Derivatives: %d has no derivative attribute" % d)
    states.append(int(svs[d - 1][0].get("derivative")))
if len(set(states)) != len(states):
    fail("two derivatives of one state")
init = [int(u.get("index")) for u in unknowns("InitialUnknowns")]
if init != sorted(set(init)) or set(init) != set(outputs) | set(states) | set(ders):
    fail("InitialUnknowns is not the outputs, states and derivatives, ascending")
knowns = set(states) | inputs
for tag in ("Outputs", "Derivatives"):
    for u in unknowns(tag):
        deps = [int(x) for x in u.get("dependencies", "").split()]
        if deps != sorted(set(deps)) or not set(deps) <= knowns:
            fail("%s %s: dependencies %s are not ascending states and inputs"
                 % (tag, u.get("index"), deps))
params = {i for i, sv in enumerate(svs, 1) if sv.get("causality") == "parameter"}
for u in unknowns("InitialUnknowns"):
    if u.get("dependencies") is None:
        continue
    deps = [int(x) for x in u.get("dependencies").split()]
    if deps != sorted(set(deps)) or not set(deps) <= params | inputs:
        fail("InitialUnknowns %s: dependencies %s are not ascending parameters and inputs"
             % (u.get("index"), deps))
print("%s: %d variables, %d states, %d outputs, %d inputs, %d units: the rules hold"
      % (root.get("modelName"), len(svs), len(states), len(outputs), len(inputs), len(units)))
