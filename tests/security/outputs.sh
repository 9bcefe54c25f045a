#!/bin/sh
# An output that is one of the inputs is refused with exit 1, and nothing
# is written (by emit-c, build, and the simulator of lmdlc run): the same path, a hard link, a symbolic link, or a file
# found on the search path (-I).  An output whose name begins with '-'
# is built, not read by the C compiler as an option.
. "$(dirname "$0")/lib.sh"
cd "$work" || exit 1
cp decay.lmdl keep.lmdl
ln decay.lmdl hard.lmdl
ln -s decay.lmdl soft.lmdl
mkdir lib
cat >lib/Leak.lmdl <<'LMDL'
component Leak
  % a component found through -I
  parameters
    tau = {1, 's'};
  end
  variables
    x = {value = 1, priority = priority.high};
  end
  equations
    tau * der(x) == -x;
  end
end
LMDL
cp lib/Leak.lmdl lib/keep
cat >top.lmdl <<'LMDL'
component Top
  components
    leak = Leak;
  end
end
LMDL
# refused WHAT ARGS...: lmdlc ARGS exits 1 with the refusal, and neither
# decay.lmdl nor lib/Leak.lmdl changed.
refused() {
  what=$1
  shift
  "$LMDLC" "$@" >"$work/out" 2>"$work/err"
  status=$?
  [ "$status" = 1 ] || { cat "$work/err"; fail "$what: exit $status, expected 1"; }
  expect_in "$work/err" "refusing to write"
  cmp -s decay.lmdl keep.lmdl || fail "$what: decay.lmdl was changed"
  cmp -s lib/Leak.lmdl lib/keep || fail "$what: lib/Leak.lmdl was changed"
  if ls -A | grep -q '^\.lmdlc-'; then fail "$what: a temporary directory was left"; fi
}
refused "emit-c -o the model" emit-c decay.lmdl -o decay.lmdl
expect_in "$work/err" "lmdlc: error: refusing to write 'decay.lmdl': it is an input of this model"
refused "build -o the model" build decay.lmdl -o decay.lmdl
refused "emit-c -o ./the model" emit-c decay.lmdl -o ./decay.lmdl
refused "emit-c -o a hard link" emit-c decay.lmdl -o hard.lmdl
expect_in "$work/err" "it is the input decay.lmdl (the same file through a link)"
refused "build -o a symbolic link" build decay.lmdl -o soft.lmdl
refused "emit-c -o a file from -I" emit-c top.lmdl -I lib -o lib/Leak.lmdl
refused "build -o a file from -I" build top.lmdl -I lib -o "$work/lib/Leak.lmdl"
[ -L soft.lmdl ] || fail "soft.lmdl was replaced"

# lmdlc run: the simulator is told every file lmdlc loaded (--input) and
# refuses to write any of them, through links and the units file too
export LMDL_CACHE="$work/cache"
refused "run -o the model" run decay.lmdl --stop-time 0.1 -o decay.lmdl
expect_in "$work/err" "refusing to write the results 'decay.lmdl': it is an input of the model"
refused "run --events the model" run decay.lmdl --stop-time 0.1 -o r.csv --events decay.lmdl
refused "run -o a hard link" run decay.lmdl --stop-time 0.1 -o hard.lmdl
expect_in "$work/err" "(the same file through a link)"
refused "run -o a symbolic link" run decay.lmdl --stop-time 0.1 -o soft.lmdl
refused "run -o a file from -I" run top.lmdl -I lib --stop-time 0.1 -o lib/Leak.lmdl
refused "run -o=the model" run decay.lmdl --stop-time 0.1 -o=./decay.lmdl
printf 'component UsesMass\n  components\n    m = Mass;\n  end\nend\n' >usesmass.lmdl
lib=$(cd "$here/../../library" && pwd)
cp "$lib/translational/Mass.lmdl" mass.keep
"$LMDLC" run usesmass.lmdl --stop-time 0.1 -o "$lib/translational/Mass.lmdl" 2>"$work/err" \
  && fail "run -o a library file: exit 0"
expect_in "$work/err" "refusing to write the results"
cmp -s mass.keep "$lib/translational/Mass.lmdl" || fail "the library's Mass.lmdl was changed"
# units file of the results: a model named x.meta, written as -o x
cp decay.lmdl r.meta
"$LMDLC" run r.meta --stop-time 0.1 -o r 2>"$work/err" && fail "run -o beside the model's name: exit 0"
expect_in "$work/err" "refusing to write the units file 'r.meta'"
cmp -s r.meta keep.lmdl || fail "r.meta was changed"

# -o -E: a file named -E, built and runnable.
"$LMDLC" build decay.lmdl -o -E 2>"$work/err" || { cat "$work/err"; fail "build -o -E"; }
./-E --stop-time 0.1 >/dev/null || fail "./-E does not run"
"$LMDLC" emit-c decay.lmdl -o -x.c || fail "emit-c -o -x.c"
grep -q rt_model ./-x.c || fail "-x.c"
echo ok
