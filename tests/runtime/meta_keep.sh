# meta_keep.sh SIM: RESULTS.meta is replaced (a new file renamed over it)
# unless it already is what the run would write: a regular file with one
# name and the mode a new file gets, holding the same text.  A run again
# with the same columns leaves it as it is (the same inode); new columns,
# a symbolic link or a hard link at its name, or another mode get a new
# file, and the link's target and the other name keep their text.
. "$(dirname "$0")/lib.sh"
sim=$1
umask 022
inode() { ls -i "$1" | awk '{print $1}'; }
run 0 "$sim" --stop-time 0.01 -o "$tmp/r.csv"
[ -f "$tmp/r.csv.meta" ] || fail "no r.csv.meta"
cp "$tmp/r.csv.meta" "$tmp/want"
first=$(inode "$tmp/r.csv.meta")
run 0 "$sim" --stop-time 0.01 -o "$tmp/r.csv"
[ "$(inode "$tmp/r.csv.meta")" = "$first" ] || fail "the same run replaced r.csv.meta"
cmp -s "$tmp/r.csv.meta" "$tmp/want" || fail "r.csv.meta changed"
# other columns: a new file with the new text
run 0 "$sim" --stop-time 0.01 --vars x -o "$tmp/r.csv"
[ "$(inode "$tmp/r.csv.meta")" = "$first" ] && fail "new columns kept the old r.csv.meta"
grep -q "^column,x," "$tmp/r.csv.meta" || fail "r.csv.meta lacks the new column"
grep -c "^column," "$tmp/r.csv.meta" | grep -qx 2 || fail "r.csv.meta has columns not asked for"
# a symbolic link at the name, to a file with the same text: replaced,
# its target untouched
cp "$tmp/want" "$tmp/target"
rm "$tmp/r.csv.meta"
ln -s "$tmp/target" "$tmp/r.csv.meta"
run 0 "$sim" --stop-time 0.01 -o "$tmp/r.csv"
[ -L "$tmp/r.csv.meta" ] && fail "the symbolic link was kept"
cmp -s "$tmp/r.csv.meta" "$tmp/want" || fail "r.csv.meta after the link"
# a hard link: a new file, the other name keeps the old one
ln "$tmp/r.csv.meta" "$tmp/other"
before=$(inode "$tmp/other")
run 0 "$sim" --stop-time 0.01 -o "$tmp/r.csv"
[ "$(inode "$tmp/r.csv.meta")" = "$before" ] && fail "a hard-linked r.csv.meta was kept"
cmp -s "$tmp/other" "$tmp/want" || fail "the other name's text changed"
# another mode: a new file with the usual one
chmod 600 "$tmp/r.csv.meta"
run 0 "$sim" --stop-time 0.01 -o "$tmp/r.csv"
ls -l "$tmp/r.csv.meta" | grep -q '^-rw-r--r--' || fail "r.csv.meta kept mode 600"
echo ok
