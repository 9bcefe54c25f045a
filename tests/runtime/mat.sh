# mat.sh CONTACT_SIM ASSERT_SIM WIDE_SIM: `-o FILE.mat` writes MAT v4 in
# OpenModelica's layout, read back with scipy (Debian's python3-scipy,
# /usr/bin/python3 or $LMDL_PYTHON) and compared with the CSV of the same
# run, every value exactly: a run with events (two rows at each), one
# with --param and --vars, a failed run (the rows before the failure),
# and runs stopped by SIGTERM at random times (a whole file each time).
. "$(dirname "$0")/lib.sh"
contact=$1 assert=$2 wide=$3
py=${LMDL_PYTHON:-/usr/bin/python3}
check="$py $(dirname "$0")/mat_check.py"
"$py" -c 'import scipy.io' || fail "$py has no scipy (apt-get install python3-scipy)"

run 0 "$contact" --stop-time 1.5 --output-step 0.01 -o "$tmp/r.csv"
run 0 "$contact" --stop-time 1.5 --output-step 0.01 -o "$tmp/r.mat"
$check "$tmp/r.mat" --csv "$tmp/r.csv" --param wall.k=10000 --param h=1 || fail "contact"

opts="--stop-time 1 --param h=0.5 --param wall.c=20 --vars wall.contact,v"
run 0 "$contact" $opts -o "$tmp/p.csv"
run 0 "$contact" $opts -o "$tmp/p.mat"
$check "$tmp/p.mat" --csv "$tmp/p.csv" --param h=0.5 --param wall.c=20 || fail "--param, --vars"

run 3 "$assert" --stop-time 1 --output-step 0.1 -o "$tmp/f.csv"
run 3 "$assert" --stop-time 1 --output-step 0.1 -o "$tmp/f.mat"
$check "$tmp/f.mat" --csv "$tmp/f.csv" || fail "failed run"

for round in 1 2 3; do
    delay=$(awk -v r="$round" 'BEGIN { srand(); x = rand(); srand(x * 1e6 + r); printf "%.3f", 0.02 + 0.1 * rand() }')
    rm -f "$tmp/k.mat"
    "$wide" --quiet --stop-time 1000 --output-step 0.001 -o "$tmp/k.mat" &
    pid=$!
    # the delay counts from the file's creation: a start slowed down (the
    # sanitizers, a loaded machine) must not be killed before it has one
    for i in $(seq 100); do [ -e "$tmp/k.mat" ] && break; sleep 0.05; done
    sleep "$delay"
    kill -s TERM "$pid"
    wait "$pid"
    [ $? -ge 128 ] || fail "the wide simulator was not killed"
    $check "$tmp/k.mat" --rows-only || fail "SIGTERM after ${delay}s"
done
