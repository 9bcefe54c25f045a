#!/bin/sh
# lmdlc sweep --engine slurm --run on a real Slurm: a single-node cluster
# (Debian's slurm-wlm with munge) started by this test on localhost, all
# of it inside the scratch directory (its own munge key and socket, its
# own slurm.conf through $SLURM_CONF, ports of its own), stopped at the
# end.  The job array runs every row; each row's results and the merged
# summary are byte-identical to the sequential --sweep, and each task left
# its Slurm log.  Skipped (77) where the daemons are not installed (CI
# installs them, scripts/bootstrap.sh does not) or a cluster cannot be
# started, or cannot run a job, here (a container without what slurmd
# needs): only a cluster that runs a trivial job can fail this test.
. "$(dirname "$0")/lib.sh"
find_bin() {
  command -v "$1" 2>/dev/null || { [ -x "/usr/sbin/$1" ] && echo "/usr/sbin/$1"; }
}
skip() { echo "SKIP: $*"; exit 77; }
for b in munged mungekey slurmctld slurmd sbatch sinfo srun; do
  find_bin "$b" >/dev/null || skip "$b is not installed (Debian: slurm-wlm, munge)"
done
command -v timeout >/dev/null || skip "no timeout(1)"
c=$work/cluster
# munged wants everyone to be able to reach its socket (search, not read)
mkdir -p "$c/state" "$c/spool" && chmod 711 "$work" "$c"
stop() {
  for p in slurmd slurmctld munged; do
    [ -s "$c/$p.pid" ] || continue
    pid=$(cat "$c/$p.pid")
    kill "$pid" 2>/dev/null
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
  done
  rm -rf "$work"
}
trap stop EXIT

"$(find_bin mungekey)" -c -k "$c/munge.key" >/dev/null 2>&1 || skip "mungekey failed"
"$(find_bin munged)" -S "$c/munge.sock" --key-file="$c/munge.key" --log-file="$c/munged.log" \
  --pid-file="$c/munged.pid" --seed-file="$c/munged.seed" 2>"$c/munged.err" \
  || skip "munged would not start: $(cat "$c/munged.err")"
host=$(uname -n | cut -d. -f1)
user=$(id -un)
port=$((20000 + $$ % 20000))
cat > "$c/slurm.conf" <<CONF
ClusterName=lmdltest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=$user
SlurmdUser=$user
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$c/munge.sock
CredType=cred/munge
StateSaveLocation=$c/state
SlurmdSpoolDir=$c/spool
SlurmctldPidFile=$c/slurmctld.pid
SlurmdPidFile=$c/slurmd.pid
SlurmctldLogFile=$c/slurmctld.log
SlurmdLogFile=$c/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=lmdl Nodes=ALL Default=YES MaxTime=10 State=UP
CONF
SLURM_CONF=$c/slurm.conf
export SLURM_CONF
"$(find_bin slurmctld)" -f "$SLURM_CONF" 2>"$c/ctld.err" || skip "slurmctld would not start"
"$(find_bin slurmd)" -f "$SLURM_CONF" -N "$host" 2>"$c/slurmd.err" || skip "slurmd would not start"
i=0
until [ "$(sinfo -h -o %t 2>/dev/null)" = idle ]; do
  i=$((i + 1))
  [ $i -lt 60 ] || skip "the node never became idle: $(tail -n 3 "$c/slurmd.log" 2>/dev/null)"
  sleep 0.5
done
timeout 60 srun --quiet -N1 -n1 true >"$c/probe.out" 2>&1 \
  || skip "the cluster cannot run a job here: $(tail -n 2 "$c/probe.out")"

d="$work/r \$x 'q\""
mkdir "$d"
write_sets "$d/sets.csv"
cd "$work" || fail "cd"
# shellcheck disable=SC2086
timeout 90 "$LMDLC" sweep "$model" --sets "$d/sets.csv" --engine slurm --script "$work/job.sh" \
  -o "$d/out-{row}.csv" $opts --run > "$work/summary.csv" 2>"$work/run.err"
st=$?
[ "$st" = 3 ] || fail "lmdlc sweep --run on Slurm: exit $st, expected 3: $(cat "$work/run.err")"
# shellcheck disable=SC2086
"$d/lever_mass.sim" --sweep "$d/sets.csv" $opts -o "$work/seq-{row}.csv" --quiet \
  --sweep-summary "$work/seq.csv" 2>/dev/null
for k in 1 2 3 4 5; do
  same_files "$d/out-$k.csv" "$work/seq-$k.csv"
  ls "$work"/lmdl-lever_mass-*_"$k".out >/dev/null 2>&1 || fail "no Slurm log for task $k"
done
same_files "$work/summary.csv" "$work/seq.csv"
echo ok
