#!/bin/sh
# cli.sh - lmdlc fmu's command line and files.
#
# -o is required and must end in .fmu (exit 1, nothing written); an
# output that is the model itself (by name or through a link) is refused
# (exit 1) and the model is untouched; a model with an error is reported
# (exit 2) and no FMU appears; an existing FMU is replaced only by a
# complete one, and no temporary file stays behind; two runs on the same
# model give the same modelDescription.xml and the same GUID.
. "$(dirname "$0")/lib.sh"
cp "$wall" "$work/m.lmdl"
cd "$work"
"$LMDLC" fmu m.lmdl >out 2>&1; [ $? = 1 ] || fail "no -o: not exit 1"
"$LMDLC" fmu m.lmdl -o m.zip >out 2>&1; [ $? = 1 ] || fail "-o m.zip: not exit 1"
grep -q "NAME.fmu" out || fail "no hint for the .fmu name: $(cat out)"
[ -e m.zip ] && fail "m.zip written"
ln -s m.lmdl link.fmu
cp m.lmdl before
"$LMDLC" fmu m.lmdl -o link.fmu >out 2>&1; [ $? = 1 ] || fail "-o a link to the model: not exit 1"
grep -q "refusing to write" out || fail "no refusal message: $(cat out)"
cmp -s m.lmdl before || fail "the model was changed"
printf 'component Bad\n  variables\n    x = {0, %s};\n  end\nend\n' "'m'" >bad.lmdl
"$LMDLC" fmu bad.lmdl -o bad.fmu >out 2>&1; [ $? = 2 ] || fail "a bad model: not exit 2"
[ -e bad.fmu ] && fail "bad.fmu written"
echo old >w.fmu
"$LMDLC" fmu m.lmdl -o w.fmu || fail "lmdlc fmu"
"$FMU_TEST" w.fmu cs --stop 0.01 >/dev/null || fail "w.fmu does not run"
"$LMDLC" fmu m.lmdl -o w2.fmu || fail "lmdlc fmu again"
/usr/bin/python3 - w.fmu w2.fmu <<'PY' || fail "two builds differ"
import sys, zipfile
a, b = (zipfile.ZipFile(p).read("modelDescription.xml") for p in sys.argv[1:])
sys.exit(a != b)
PY
left=$(ls -A | grep -v -e '^m.lmdl$' -e '^link.fmu$' -e '^before$' -e '^out$' -e '^bad.lmdl$' \
       -e '^w.fmu$' -e '^w2.fmu$')
[ -z "$left" ] || fail "files left behind: $left"
echo PASS
