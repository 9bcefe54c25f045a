# lib.sh - helpers for the sweep tests (label sweep; docs/sweeps.md).
# Sourced by each tests/sweep/NAME.sh with LMDLC set.  The model is the
# class 1 lever driving a mass of tests/e2e (run-time F, lever.r12,
# mass.m; structural lever.rotational_port; an assert that a large F
# trips within 2 ms), so every run takes milliseconds.
set -u
here=$(cd "$(dirname "$0")" && pwd)
model=$here/../e2e/lever_mass.lmdl
work=$(mktemp -d "${TMPDIR:-/tmp}/lmdl_sweep.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# The options every run of these tests uses.
opts="--stop-time 0.01 --vars mass.x,mass.v,lever.f1"

# build SIM: compile the model into the simulator SIM.
build() {
  "$LMDLC" build "$model" -o "$1" || fail "lmdlc build"
}

# write_sets FILE: five rows with units, a quoted field, empty fields (the
# default stays) and one row (3) whose force trips the lever's assert.
write_sets() {
  printf '%s\n' 'F,lever.r12,mass.m' '1,200 mm,2' '2,"250 mm",2 kg' '1e5,,' \
    ',0.3,' '0.5,100 mm,1500 g' > "$1"
}

# plain_runs SIM DIR: each row of write_sets's file as a plain --param run
# (the values written out here by hand), into DIR/plain-K.csv, with its
# stderr in DIR/plain-K.err and its exit status in DIR/plain-K.status.
plain_runs() {
  sim=$1 d=$2
  for k in 1 2 3 4 5; do
    case $k in
      1) set -- --param F=1 --param 'lever.r12=200 mm' --param mass.m=2 ;;
      2) set -- --param F=2 --param 'lever.r12=250 mm' --param 'mass.m=2 kg' ;;
      3) set -- --param F=1e5 ;;
      4) set -- --param lever.r12=0.3 ;;
      5) set -- --param F=0.5 --param 'lever.r12=100 mm' --param 'mass.m=1500 g' ;;
    esac
    # shellcheck disable=SC2086
    "$sim" $opts "$@" -o "$d/plain-$k.csv" 2>"$d/plain-$k.err"
    echo $? > "$d/plain-$k.status"
  done
}

# expected_summary DIR: the summary a sweep over write_sets's file must
# write, assembled from the plain runs: the values as given, ok or the
# exit status, the first error line (CSV-quoted), and the last row's time
# and --vars columns.
expected_summary() {
  d=$1
  echo 'row,F,lever.r12,mass.m,status,message,time,mass.x,mass.v,lever.f1'
  for k in 1 2 3 4 5; do
    case $k in
      1) given='1,200 mm,2' ;; 2) given='2,250 mm,2 kg' ;; 3) given='1e5,,' ;;
      4) given=',0.3,' ;; 5) given='0.5,100 mm,1500 g' ;;
    esac
    st=$(cat "$d/plain-$k.status")
    if [ "$st" = 0 ]; then
      status=ok msg=
    else
      status=$st
      msg=$(grep -m1 ': error: ' "$d/plain-$k.err" | sed 's/"/""/g')
      case $msg in *[,\"]*) msg="\"$msg\"" ;; esac
    fi
    printf '%s,%s,%s,%s,%s\n' "$k" "$given" "$status" "$msg" "$(tail -n 1 "$d/plain-$k.csv")"
  done
}

# same_files A B: byte-identical, or fail.
same_files() {
  cmp "$1" "$2" >/dev/null 2>&1 || {
    diff "$1" "$2" | head -5 >&2
    fail "$1 and $2 differ"
  }
}
