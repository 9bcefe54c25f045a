#!/bin/sh
# lmdlc sweep --engine slurm without a cluster: the job-array script
# passes `bash -n`, asks for one task per row, and run as task 3
# (SLURM_ARRAY_TASK_ID=3 bash SCRIPT) writes row 3's results, the bytes of
# the sequential sweep's, and its summary line, which --sweep-collect
# merges (the rows not run yet are "missing", exit 3); once every task has
# run the collected summary is the sequential sweep's.  Paths hold a
# space, quotes, '$' and a newline.  The script is never written through
# an existing file or link unless --force, which replaces the link itself.
. "$(dirname "$0")/lib.sh"
d="$work/s p \$x 'q\"
nl"
mkdir "$d" || fail "mkdir"
write_sets "$d/sets.csv"
script="$d/job \$1.sh"
# shellcheck disable=SC2086
"$LMDLC" sweep "$model" --sets "$d/sets.csv" --engine slurm --script "$script" \
  -o "$d/out-{row}.csv" $opts > "$work/printed" || fail "lmdlc sweep --engine slurm"
bash -n "$script" || fail "bash -n"
grep -q '^#SBATCH --array=1-5$' "$script" || fail "no array: $(cat "$script")"
grep -q '^#SBATCH --job-name=lmdl-lever_mass$' "$script" || fail "no job name"
# shellcheck disable=SC2086
"$d/lever_mass.sim" --sweep "$d/sets.csv" $opts -o "$work/seq-{row}.csv" --quiet \
  --sweep-summary "$work/seq.csv" 2>/dev/null

(cd "$work" && SLURM_ARRAY_TASK_ID=3 bash "$script") 2>"$work/task3.err"
[ $? = 3 ] || fail "task 3 (the failing row) did not exit 3"
same_files "$d/out-3.csv" "$work/seq-3.csv"
[ "$(tail -n 1 "$d/out-3.csv.summary")" = "$(sed -n 4p "$work/seq.csv")" ] \
  || fail "row 3's summary line: $(cat "$d/out-3.csv.summary")"
# shellcheck disable=SC2086
"$d/lever_mass.sim" --sweep "$d/sets.csv" $opts -o "$d/out-{row}.csv" --sweep-collect \
  > "$work/partial.csv" 2>/dev/null
[ $? = 3 ] || fail "a partial collect did not exit 3"
[ "$(cut -d, -f5 "$work/partial.csv" | tr '\n' ' ')" = "status missing missing 3 missing missing " ] \
  || fail "partial collect: $(cat "$work/partial.csv")"
# the collect command lmdlc printed, the way a user pastes it
for k in 1 2 4 5; do
  (cd "$work" && SLURM_ARRAY_TASK_ID=$k bash "$script") || fail "task $k"
  same_files "$d/out-$k.csv" "$work/seq-$k.csv"
done
sed -n '/^# when every task has finished/,$p' "$work/printed" > "$work/collect.sh"
sh "$work/collect.sh" > "$work/collected.csv" 2>/dev/null
[ $? = 3 ] || fail "collect: expected exit 3 (row 3 failed)"
same_files "$work/collected.csv" "$work/seq.csv"
# no task id: refused by the script, nothing run
(cd "$work" && bash "$script") 2>"$work/err" && fail "ran without a task id"
grep -q 'SLURM_ARRAY_TASK_ID' "$work/err" || fail "message: $(cat "$work/err")"

# an existing script is kept; --force replaces it (and a link, not its target)
cp "$script" "$work/before"
"$LMDLC" sweep "$model" --sets "$d/sets.csv" --engine slurm --script "$script" \
  -o "$d/out-{row}.csv" --stop-time 0.02 >/dev/null 2>"$work/err"
[ $? = 1 ] && grep -q 'give --force' "$work/err" || fail "an existing script was not kept"
same_files "$script" "$work/before"
echo precious > "$work/target"
ln -s "$work/target" "$work/link.sh"
"$LMDLC" sweep "$model" --sets "$d/sets.csv" --engine slurm --script "$work/link.sh" \
  -o "$d/out-{row}.csv" >/dev/null 2>&1 && fail "wrote through a link"
"$LMDLC" sweep "$model" --sets "$d/sets.csv" --engine slurm --script "$work/link.sh" \
  --force -o "$d/out-{row}.csv" --jobs 2 >/dev/null || fail "--force"
[ "$(cat "$work/target")" = precious ] || fail "--force wrote through the link"
[ ! -L "$work/link.sh" ] && grep -q '^#SBATCH --array=1-5%2$' "$work/link.sh" \
  || fail "--force did not replace the link with the script"
# a Simscape file's model is named without its .ssc, as a .lmdl one is
mkdir "$work/ssc" || fail "mkdir ssc"
printf '%s\n' 'a' '1' > "$work/ssc/sets.csv"
"$LMDLC" sweep "$here/../simscape/+units/HalfPower.ssc" -I "$here/../simscape" \
  --sets "$work/ssc/sets.csv" --engine slurm --script "$work/ssc/job.sh" \
  -o "$work/ssc/out-{row}.csv" > /dev/null || fail "lmdlc sweep of a .ssc"
grep -q '^#SBATCH --job-name=lmdl-HalfPower$' "$work/ssc/job.sh" \
  || fail "job name of a .ssc: $(grep job-name "$work/ssc/job.sh")"
echo ok
