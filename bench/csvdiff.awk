# csvdiff.awk: the largest difference between two simulator CSV files in
# the columns they share, over the rows whose time both files hold (times
# compared as numbers: the simulators write shortest decimals, the
# references %.17g).
#   awk -f csvdiff.awk A.csv B.csv
# prints: max_abs max_rel rows_compared column_of_max
# (max_rel is max_abs over the largest magnitude of that column in A).
BEGIN { FS = "," }
FNR == 1 {
    if (NR == 1) { for (i = 1; i <= NF; i++) ca[$i] = i; nA = NF }
    else { for (i = 1; i <= NF; i++) if ($i in ca && $i != "time") cb[$i] = i }
    next
}
NR == FNR {
    key = sprintf("%.17g", $1 + 0)
    if (!(key in rowA)) rowA[key] = $0
    for (i = 2; i <= NF; i++) { v = $i < 0 ? -$i : $i; if (v > mag[i]) mag[i] = v }
    next
}
{
    key = sprintf("%.17g", $1 + 0)
    if (!(key in rowA) || (key in done)) next
    done[key] = 1
    n++
    split(rowA[key], a, ",")
    for (name in cb) {
        d = a[ca[name]] - $(cb[name]); if (d < 0) d = -d
        if (d > best) { best = d; bestname = name }
        m = mag[ca[name]]; r = m > 0 ? d / m : d
        if (r > bestrel) bestrel = r
    }
}
END { printf "%.3g %.3g %d %s\n", best, bestrel, n, bestname == "" ? "-" : bestname }
