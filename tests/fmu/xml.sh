#!/bin/sh
# xml.sh - modelDescription.xml: well formed, valid, consistent, golden.
#
# For the wall-contact FMU and tests/fmu/pushed.lmdl (a top-level input
# and two outputs): `xmllint --noout` (well formed), `xmllint --schema
# fmi2_subset.xsd` (the standard's element order, required attributes and
# value sets, for the parts lmdlc emits), and check_md.py (the rules a
# schema cannot state: units defined, starts, derivatives, ModelStructure).
# pushed.lmdl's file is compared with pushed.lmdl.xml (UPDATE_GOLDEN=1
# rewrites it; read the diff): its outputs depend on the states x and v,
# der(v) on the input F only; at initialization p on m, der(v) on m and
# F, the rest on nothing (x and v start at constants).  The archive holds exactly
# modelDescription.xml, the binary and the sources SourceFiles lists.
# A model with fractional unit powers (tests/simscape/+units/HalfPower.ssc)
# is valid too: its Unit m^0.5 has no BaseUnit (FMI's exponents are
# integers), its Unit m has one.  So is the battery block's, whose
# V_range starts at inf: xs:double spells it INF.
. "$(dirname "$0")/lib.sh"
command -v xmllint >/dev/null || { echo "SKIP: no xmllint (libxml2-utils)"; exit 77; }
fmu "$wall" "$work/wall.fmu"
(cd "$here" && "$LMDLC" fmu pushed.lmdl -o "$work/pushed.fmu") || fail "lmdlc fmu pushed.lmdl"
"$LMDLC" fmu "$here/../simscape/+units/HalfPower.ssc" -I "$here/../simscape" \
  -o "$work/half.fmu" || fail "lmdlc fmu HalfPower.ssc"
"$LMDLC" fmu "$here/../simscape/+battery/Discharge.ssc" -I "$here/../simscape" \
  -o "$work/bat.fmu" || fail "lmdlc fmu Discharge.ssc"
for f in wall pushed half bat; do
  mkdir "$work/$f"
  "$FMU_TEST" "$work/$f.fmu" cs --stop 0.01 >/dev/null || fail "$f.fmu does not run"
  /usr/bin/python3 - "$work/$f.fmu" "$work/$f" <<'PY' || fail "unzip $f.fmu"
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
z.extractall(sys.argv[2])
print("\n".join(sorted(z.namelist())), file=open(sys.argv[2] + ".list", "w"))
PY
  md=$work/$f/modelDescription.xml
  xmllint --noout "$md" || fail "$f: not well-formed XML"
  xmllint --noout --schema "$here/fmi2_subset.xsd" "$md" || fail "$f: not valid"
  /usr/bin/python3 "$here/check_md.py" "$md" || fail "$f: the rules of the standard"
  # the archive: the description, one binary, and the sources it lists
  id=$(sed -n 's/.*<ModelExchange modelIdentifier="\([^"]*\)".*/\1/p' "$md")
  { echo modelDescription.xml; echo "binaries/linux64/$id.so"
    sed -n '/<ModelExchange/,/<\/ModelExchange>/s/.*<File name="\([^"]*\)".*/sources\/\1/p' "$md"
    (cd "$work/$f" && ls sources/*.h); } | sort >"$work/$f.want"
  diff "$work/$f.want" "$work/$f.list" || fail "$f: the archive's files"
done
grep -q '<Unit name="m^0.5"/>' "$work/half/modelDescription.xml" \
  || fail "half: the unit m^0.5 is not a Unit without BaseUnit"
grep -q '<BaseUnit m="1" factor="1" offset="0"/>' "$work/half/modelDescription.xml" \
  || fail "half: the unit m has no BaseUnit"
grep -q 'start="INF"' "$work/bat/modelDescription.xml" \
  || fail "bat: V_range(2) is not start=\"INF\""
if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
  cp "$work/pushed/modelDescription.xml" "$here/pushed.lmdl.xml"
fi
diff -u "$here/pushed.lmdl.xml" "$work/pushed/modelDescription.xml" \
  || fail "pushed.lmdl's modelDescription.xml differs from the golden"
echo PASS
