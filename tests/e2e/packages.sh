#!/bin/sh
# Packages and imports: a mass on two springs of 100 N/m from the package
# mech (one named plainly through `import mech.*`, one qualified),
# x = 0.1 cos(sqrt(200) t); and a plain name that two packages of the
# library define is an error naming both files.
. "$(dirname "$0")/lib.sh"
"$LMDLC" build -I "$here/packages" "$here/packages.lmdl" -o "$work/sim" || fail "build"
"$work/sim" --stop-time 1 --output-step 0.01 --rtol 1e-10 --atol 1e-12 \
    -o "$work/out.csv" || fail "simulator"
check "$work/out.csv" '
  ref = 0.1 * cos(sqrt(200) * t);
  if (abs(v("m.x") - ref) > 1e-7) { bad = 1; why = "m.x at t=" t ": " v("m.x") " vs " ref }'

# A library in which two packages define Mass.
lib=$work/lib
cp -R "$here/../../library" "$lib"
mkdir "$lib/extra"
cp "$lib/translational/Mass.lmdl" "$lib/extra/Mass.lmdl"
cat >"$work/amb.lmdl" <<'LMDL'
component Amb
  components
    m = Mass;
    q = translational.Mass;
  end
end
LMDL
LMDL_STDLIB=$lib "$LMDLC" check "$work/amb.lmdl" >/dev/null 2>"$work/err" && fail "ambiguous name accepted"
grep -qF "amb.lmdl:3:9: error: 'Mass' is ambiguous: two packages of the library define it, $lib/extra/Mass.lmdl and $lib/translational/Mass.lmdl; write the package-qualified name or import the one you mean" "$work/err" \
  || { cat "$work/err"; fail "no ambiguity error"; }
[ "$(grep -c 'error:' "$work/err")" = 1 ] || { cat "$work/err"; fail "the qualified name is ambiguous too"; }
# an import decides it
sed -i '1i import translational.Mass;' "$work/amb.lmdl"
LMDL_STDLIB=$lib "$LMDLC" check "$work/amb.lmdl" >/dev/null 2>"$work/err" || { cat "$work/err"; fail "import did not decide"; }
echo ok
