#!/bin/sh
# lookup.sh - names in a file that holds several definitions are found
# through -I and LMDL_PATH: the directory's other .lmdl files are
# read when NAME.lmdl is not there, and only those that can define NAME
# are parsed (a broken neighbour reports nothing); an unknown component's
# error lists the places searched.
. "$(dirname "$0")/lib.sh"
cat >"$work/model.lmdl" <<'M'
component Bob
  components
    a = Anchor;
    s = SoftSpring;
    m = Mass(m = {2, 'kg'});
  end
  connections
    connect(a.P, s.B);
    connect(s.F, m.P);
  end
end
M
cd "$work" || fail "cd"
"$LMDLC" check model.lmdl -I "$here/lookup_lib" >out 2>err || fail "-I: $(cat err)"
[ -s err ] && fail "-I: unexpected messages: $(cat err)"
LMDL_PATH="/nonexistent:$here/lookup_lib" "$LMDLC" check model.lmdl >out 2>err \
  || fail "LMDL_PATH: $(cat err)"
grep -q "states:                   2" out || fail "not the model expected: $(cat out)"
sed 's/SoftSpring;/Nowhere;/' model.lmdl >bad.lmdl
"$LMDLC" check bad.lmdl -I "$here/lookup_lib" >out 2>err && fail "unknown component accepted"
grep -q "error: unknown component 'Nowhere'" err || fail "no error: $(cat err)"
grep -q "note: searched for the component in: the file itself; the model's directory .; -I $here/lookup_lib; " err \
  || fail "the places searched are not listed: $(cat err)"
grep -q "broken.lmdl" err && fail "the broken neighbour was parsed: $(cat err)"
echo "PASS: found through -I and LMDL_PATH; places listed"
