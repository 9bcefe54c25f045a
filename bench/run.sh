#!/bin/sh
# bench/run.sh - every benchmark in one run; see bench/README.md.
#
#   sh bench/run.sh             the full run (about 10 minutes on 2 cores)
#   sh bench/run.sh --smoke     tiny sizes, under ~30 s (for CI)
#   sh bench/run.sh --tables CSV   only rewrite the Markdown from a results CSV
#
# Options:
#   --lmdlc PATH      the compiler to measure [$LMDLC, else build/lmdlc]
#   --work DIR        scratch directory [bench/work]
#   --results PREFIX  where the tables go [bench/results; smoke: WORK/smoke-results]
#
# Writes PREFIX.csv (section,case,n,equations,metric,value,unit,note) and
# PREFIX.md (the same figures as Markdown tables), every figure measured in
# this run.  Needs cc, GSL and awk; uses hyperfine, /usr/bin/time and
# valgrind when they are installed, and says so in the results when not.
# POSIX sh; awk does the arithmetic.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
LMDLC=${LMDLC:-$root/build/lmdlc}
CC=${CC:-cc}
mode=full
work=$here/work
prefix=
tables_only=

# usage [STATUS]: the comment above, to stdout for --help (status 0),
# else to stderr
usage() {
    fd=2
    [ "${1:-1}" != 0 ] || fd=1
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&$fd
    exit "${1:-1}"
}

while [ $# -gt 0 ]; do
    case $1 in
        --smoke) mode=smoke ;;
        --lmdlc) [ $# -ge 2 ] || usage; LMDLC=$2; shift ;;
        --work) [ $# -ge 2 ] || usage; work=$2; shift ;;
        --results) [ $# -ge 2 ] || usage; prefix=$2; shift ;;
        --tables) [ $# -ge 2 ] || usage; tables_only=$2; shift ;;
        -h|--help) usage 0 ;;
        *) echo "run.sh: unknown option '$1'" >&2; usage ;;
    esac
    shift
done
case $LMDLC in /*) ;; *) LMDLC=$(pwd)/$LMDLC ;; esac

# ---- the Markdown tables, from the CSV --------------------------------------------
tables() {
    awk -F, '
    NR == 1 { next }
    {
        k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $5
        v[k] = $6; note[k] = $8; unit[k] = $7
        if ($4 != "-" && $4 != "") eq[$2 SUBSEP $3] = $4
        if (!(($1 SUBSEP $2 SUBSEP $3) in seen)) {
            seen[$1 SUBSEP $2 SUBSEP $3] = 1
            order[$1, ++cnt[$1]] = $2 SUBSEP $3
        }
        if ($1 == "env") { env[$5] = $6 ($8 != "" ? " (" $8 ")" : ""); raw[$5] = $6 }
    }
    function has(s, c, n, m) { return (s SUBSEP c SUBSEP n SUBSEP m) in v }
    function get(s, c, n, m) { return has(s, c, n, m) ? v[s, c, n, m] : "" }
    # the CPU time of emit-c: from hyperfine when it ran, else from the
    # timed runs, whose 10 ms steps make it a figure from 0.1 s on
    function cpu(c, n,    h, t) {
        h = get("compile", c, n, "emit_c_cpu"); t = get("compile", c, n, "emit_c_cpu_timed")
        return (h != "" && h != "nan") ? h : (t != "" && t + 0 >= 0.1) ? t : ""
    }
    function num(x, d) { if (x == "" || x == "nan") return "-"; return sprintf("%." d "g", x) }
    function ms(x) { if (x == "" || x == "nan") return "-"; return sprintf("%.4g", x * 1000) }
    function mb(x) { if (x == "" || x < 0) return "-"; return sprintf("%.1f", x / 1024) }
    function eqs(c, n) { return ((c SUBSEP n) in eq) ? eq[c, n] : "-" }
    function passsum(c, n,   j, t, q) { t = 0; q = split("parse resolve elaborate units flatten simplify structure codegen", pp, " "); for (j = 1; j <= q; j++) t += get("compile", c, n, "pass_" pp[j]); return t }
    function mi(x) { return (x == "" || x == "nan") ? "-" : sprintf("%.4g", x / 1e6) }
    function status(ok) { return ok ? "**met**" : "**not met**" }
    function targets_head(title) { print "## " title; print ""; print "| target | measured | status |"; print "|---|---|---|" }
    function fail_text(s, c, n, m) { return "fails: " note[s, c, n, m] }
    END {
        print "# lmdl benchmark results"
        print ""
        printf "Mode `%s`, lmdlc at commit %s; %s cores, %s; load average %s at the start, %s at the end; %s s in all. ", raw["mode"], env["commit"], raw["nproc"], raw["cpu"], raw["load_start"], raw["load_end"], raw["duration"]
        print "Every figure is a median of the runs given in the CSV notes, measured in this one run; ratios are of medians. The machine is shared, so wall times carry its load; Ir (instruction) counts under callgrind do not."
        print ""

        # ---- targets
        targets_head("Targets, first set: compile time, growth, simulator speed")
        x = get("compile", "wall_contact", 1, "emit_c")
        if (x != "") printf "| `lmdlc emit-c` of the wall-contact example < 10 ms | %s ms (CPU %s ms; the passes %s ms; starting `lmdlc --version` alone %s ms) | %s |\n", ms(x), ms(cpu("wall_contact", 1)), ms(passsum("wall_contact", 1)), ms(get("compile", "floor", "-", "lmdlc_version")), status(x < 0.010)
        x = get("build", "wall_contact", 1, "build")
        if (x != "") printf "| whole `lmdlc build` of the wall-contact example < 0.5 s | %s s (C compiler %s s) | %s |\n", num(x, 3), num(get("build", "wall_contact", 1, "pass_cc"), 3), status(x < 0.5)
        for (i = 1; i <= cnt["compile"]; i++) {
            split(order["compile", i], p, SUBSEP)
            if (p[1] != "mass_chain" || eqs(p[1], p[2]) + 0 < 90000) continue
            x = get("compile", p[1], p[2], "emit_c")
            if (x != "") printf "| `lmdlc emit-c` of a 10^5-equation model < 2 s | %s s (mass chain, N = %s, %s equations, peak RSS %s MB) | %s |\n", num(x, 3), p[2], eqs(p[1], p[2]), mb(get("compile", p[1], p[2], "emit_c_rss")), status(x < 2)
            else if (has("compile", p[1], p[2], "check_failed")) printf "| `lmdlc emit-c` of a 10^5-equation model < 2 s | %s (N = %s) | **not met** |\n", fail_text("compile", p[1], p[2], "check_failed"), p[2]
        }
        for (i = 1; i <= cnt["compile"]; i++) {
            split(order["compile", i], p, SUBSEP)
            if (has("compile", p[1], p[2], "ratio10_emit_c")) lastn[p[1]] = p[2]
        }
        for (c in lastn) {
            x = get("compile", c, lastn[c], "ratio10_emit_c"); y = get("compile", c, lastn[c], "ratio10_emit_c_cpu_timed")
            printf "| near-linear growth: emit-c time(N)/time(N/10) near 10 (met: wall and CPU ratios under 13) | %s, N = %s: %s (CPU time %s) | %s |\n", c, lastn[c], num(x, 3), num(y, 3), status(x < 13 && (y == "" || y < 13))
        }
        worst = ""; wcase = ""
        for (i = 1; i <= cnt["sim"]; i++) {
            split(order["sim", i], p, SUBSEP)
            for (s = 1; s <= 2; s++) {
                sv = s == 1 ? "rk8pd" : "msbdf"
                x = get("sim", p[1], p[2], "ratio_" sv)
                if (x == "" || x == "nan") continue
                if (worst == "" || x + 0 > worst + 0) { worst = x; wcase = p[1] " N=" p[2] " " sv }
            }
        }
        if (worst != "") printf "| generated simulators within 1.2x of hand-written C | worst %sx (%s); every case below | %s |\n", num(worst, 3), wcase, status(worst < 1.2)
        print ""

        # ---- targets, second set
        targets_head("Targets, second set: speed against hand-written C, large models")
        nt = split("wall_contact_10s:1 lever_chain:100 lever_chain:1000", tc, " ")
        for (j = 1; j <= nt; j++) {
            split(tc[j], q, ":")
            for (s = 1; s <= 2; s++) {
                sv = s == 1 ? "msbdf" : "rk8pd"
                x = get("sim", q[1], q[2], "ratio_" sv)
                if (x == "" || x == "nan") continue
                printf "| %s N = %s, %s: <= 1.10x the hand-written reference | %sx (%s ms against %s ms; start and initialization alone %s ms) | %s |\n", q[1], q[2], sv, num(x, 3), ms(get("sim", q[1], q[2], "gen_" sv)), ms(get("sim", q[1], q[2], "ref_" sv)), ms(get("sim", q[1], q[2], "gen_init_" sv)), status(x <= 1.10)
            }
        }
        for (i = 1; i <= cnt["rhs"]; i++) {
            split(order["rhs", i], p, SUBSEP)
            gt = get("rhs", p[1], p[2], "gen_ir_per_try"); ri = get("rhs", p[1], p[2], "ref_ir_per_eval")
            if (gt > 0 && ri > 0) printf "| %s N = %s: instructions per eval plus checks <= 1.5x the reference right-hand side | %s against %s Ir: %sx | %s |\n", p[1], p[2], num(gt, 4), num(ri, 4), num(gt / ri, 3), status(gt / ri <= 1.5)
        }
        for (i = 1; i <= cnt["output"]; i++) {
            split(order["output", i], p, SUBSEP)
            c = p[1]; n = p[2]
            x = get("output", c, n, "ratio_csv"); y = get("output", c, n, "ratio_mat")
            if (x != "") printf "| every column of the N = %s chain <= 1.5x one column (CSV) | %sx (%s ms against %s ms; %s columns) | %s |\n", n, num(x, 3), ms(get("output", c, n, "wall_csv")), ms(get("output", c, n, "wall_one")), get("output", c, n, "columns"), status(x <= 1.5)
            if (y != "") printf "| every column of the N = %s chain <= 1.5x one column (MAT) | %sx (%s ms) | %s |\n", n, num(y, 3), ms(get("output", c, n, "wall_mat")), status(y <= 1.5)
        }
        x = get("stiff", "lever_chain", 1000, "cvode"); g = get("stiff", "lever_chain", 1000, "growth_cvode")
        if (x != "") printf "| lever chain N = 1,000, stiff solver: <= 2 s per simulated second | cvode %s s (msbdf %s s) | %s |\n", num(x, 3), num(get("stiff", "lever_chain", 1000, "msbdf"), 3), status(x <= 2)
        if (g != "") printf "| lever chain N = 100 -> 1,000 growth, stiff solver: <= 15x | cvode %sx (msbdf %sx) | %s |\n", num(g, 3), num(get("stiff", "lever_chain", 1000, "growth_msbdf"), 3), status(g <= 15)
        x = get("build", "lever_chain", 1000, "build")
        if (x != "") printf "| `lmdlc build` of the N = 1,000 chain <= 3 s | %s s (C compiler %s s, %s MB of C) | %s |\n", num(x, 3), num(get("build", "lever_chain", 1000, "pass_cc"), 3), num(get("compile", "lever_chain", 1000, "c_bytes") / 1048576, 3), status(x <= 3)
        for (i = 1; i <= cnt["build"]; i++) {
            split(order["build", i], p, SUBSEP)
            if (eqs(p[1], p[2]) + 0 < 90000) continue
            x = get("build", p[1], p[2], "build")
            if (x != "") printf "| end-to-end `lmdlc build` of about 10^5 equations (reported) | %s s (%s N = %s, %s equations; C compiler %s s; peak RSS %s MB) | reported |\n", num(x, 3), p[1], p[2], eqs(p[1], p[2]), num(get("build", p[1], p[2], "pass_cc"), 3), mb(get("build", p[1], p[2], "build_rss"))
            else if (has("build", p[1], p[2], "build_failed")) printf "| end-to-end `lmdlc build` of about 10^5 equations (reported) | %s | reported |\n", fail_text("build", p[1], p[2], "build_failed")
        }
        x = get("compile", "lever_chain", 10000, "ratio10_emit_c")
        if (x != "") printf "| `emit-c` growth from N = 1,000 to 10,000 levers <= 11x (wall) | %sx (CPU %sx) | %s |\n", num(x, 3), num(get("compile", "lever_chain", 10000, "ratio10_emit_c_cpu_timed"), 3), status(x <= 11)
        for (i = 1; i <= cnt["compile"]; i++) {
            split(order["compile", i], p, SUBSEP)
            if (p[1] != "mass_chain" || eqs(p[1], p[2]) + 0 < 90000) continue
            x = get("compile", p[1], p[2], "emit_c")
            if (x != "") printf "| `emit-c` of 10^5 equations <= 1.5 s | %s s (CPU %s s; mass chain N = %s, %s equations) | %s |\n", num(x, 3), num(get("compile", p[1], p[2], "emit_c_cpu_timed"), 3), p[2], eqs(p[1], p[2]), status(x <= 1.5)
        }
        print ""

        # ---- targets, third set
        targets_head("Targets, third set: explicit runs at the hand-C limit, linear compile growth, cheap output")
        nt = split("lever_chain:100:1.1 lever_chain:1000:1.2", tc, " ")
        for (j = 1; j <= nt; j++) {
            split(tc[j], q, ":")
            x = get("sim", q[1], q[2], "ratio_rk8pd")
            if (x != "" && x != "nan") printf "| %s N = %s, rk8pd: <= %sx the hand-written reference | %sx (%s ms against %s ms) | %s |\n", q[1], q[2], q[3], num(x, 3), ms(get("sim", q[1], q[2], "gen_rk8pd")), ms(get("sim", q[1], q[2], "ref_rk8pd")), status(x <= q[3] + 0)
        }
        for (i = 1; i <= cnt["output"]; i++) {
            split(order["output", i], p, SUBSEP)
            c = p[1]; n = p[2]
            x = get("output", c, n, "ratio_csv"); y = get("output", c, n, "ratio_mat")
            if (x != "") printf "| every column of the N = %s chain <= 2x one column (CSV) | %sx | %s |\n", n, num(x, 3), status(x <= 2)
            if (y != "") printf "| every column of the N = %s chain <= 1.2x one column (MAT) | %sx | %s |\n", n, num(y, 3), status(y <= 1.2)
        }
        for (i = 1; i <= cnt["compile"]; i++) {
            split(order["compile", i], p, SUBSEP)
            if (!has("compile", p[1], p[2], "ratio10_emit_c")) continue
            if (p[2] + 0 != 10000) continue
            x = get("compile", p[1], p[2], "ratio10_emit_c"); y = get("compile", p[1], p[2], "ratio10_emit_c_cpu_timed")
            printf "| emit-c growth <= 10.5x per 10x: %s N = 1,000 -> 10,000 | %sx (CPU %sx) | %s |\n", p[1], num(x, 3), num(y, 3), status(x <= 10.5)
        }
        for (i = 1; i <= cnt["compile"]; i++) {
            split(order["compile", i], p, SUBSEP)
            if (p[1] != "mass_chain" || eqs(p[1], p[2]) + 0 < 90000) continue
            x = get("compile", p[1], p[2], "emit_c")
            if (x != "") printf "| `emit-c` of 10^5 equations <= 1 s | %s s (CPU %s s) | %s |\n", num(x, 3), num(get("compile", p[1], p[2], "emit_c_cpu_timed"), 3), status(x <= 1)
        }
        print ""

        # ---- compile cost
        print "## Compile cost"
        print ""
        print "N is the number of stages (levers or masses); equations are before simplification. Ratios are time(N)/time(N/10): 10 is linear."
        print ""
        print "| model | N | equations | emit-c (s) | x N/10 | emit-c CPU (s) | x N/10 | emit-c peak RSS (MB) | C (MB) | build (s) | x N/10 | C compiler (s) | C compiler share | build peak RSS (MB) |"
        print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
        for (i = 1; i <= cnt["compile"]; i++) {
            split(order["compile", i], p, SUBSEP)
            c = p[1]; n = p[2]
            if (c == "floor") continue
            if (has("compile", c, n, "check_failed")) {
                printf "| %s | %s | %s | %s | | | | | | | | | | |\n", c, n, eqs(c, n), fail_text("compile", c, n, "check_failed")
                continue
            }
            if (has("compile", c, n, "emit_c_failed")) {
                printf "| %s | %s | %s | %s | | | | | | | | | | |\n", c, n, eqs(c, n), fail_text("compile", c, n, "emit_c_failed")
                continue
            }
            b = get("build", c, n, "build"); cc = get("build", c, n, "pass_cc"); bt = get("build", c, n, "build_timed")
            share = (bt != "" && cc != "" && bt > 0) ? sprintf("%.0f%%", 100 * cc / bt) : "-"
            share = (share != "-") ? share : (b != "" && cc != "" && b > 0) ? sprintf("%.0f%%", 100 * cc / b) : "-"
            bt = has("build", c, n, "build_failed") ? fail_text("build", c, n, "build_failed") : num(b, 3)
            printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c, n, eqs(c, n), num(get("compile", c, n, "emit_c"), 3), num(get("compile", c, n, "ratio10_emit_c"), 3), num(cpu(c, n), 3), num(get("compile", c, n, "ratio10_emit_c_cpu_timed"), 3), mb(get("compile", c, n, "emit_c_rss")), num(get("compile", c, n, "c_bytes") / 1048576, 3), bt, num(get("build", c, n, "ratio10_build"), 3), num(cc, 3), share, mb(get("build", c, n, "build_rss"))
        }
        print ""

        # ---- passes
        np = split("parse resolve elaborate units flatten simplify structure codegen", pass, " ")
        print "## Passes of `lmdlc emit-c --time-passes` (ms, medians)"
        print ""
        hdr = "| model | N |"; sep = "|---|---|"
        for (j = 1; j <= np; j++) { hdr = hdr " " pass[j] " |"; sep = sep "---|" }
        print hdr " slowest growth x N/10 |"; print sep "---|"
        for (i = 1; i <= cnt["compile"]; i++) {
            split(order["compile", i], p, SUBSEP)
            c = p[1]; n = p[2]
            if (!has("compile", c, n, "pass_parse")) continue
            line = "| " c " | " n " |"; worst = ""; wp = ""
            for (j = 1; j <= np; j++) {
                line = line " " ms(get("compile", c, n, "pass_" pass[j])) " |"
                r = get("compile", c, n, "ratio10_pass_" pass[j])
                if (r != "" && get("compile", c, n, "pass_" pass[j]) > 0.005 && (worst == "" || r + 0 > worst + 0)) { worst = r; wp = pass[j] }
            }
            print line " " (worst == "" ? "-" : wp " " num(worst, 3)) " |"
        }
        print ""

        # ---- callgrind
        if (cnt["callgrind"] > 0) {
            print "## Instructions of `lmdlc emit-c` (callgrind Ir, millions; inclusive per pass)"
            print ""
            hdr = "| model | N | equations | total |"; sep = "|---|---|---|---|"
            for (j = 1; j <= np; j++) { hdr = hdr " " pass[j] " |"; sep = sep "---|" }
            print hdr " most Ir (self) |"; print sep "---|"
            for (i = 1; i <= cnt["callgrind"]; i++) {
                split(order["callgrind", i], p, SUBSEP)
                c = p[1]; n = p[2]
                if (!has("callgrind", c, n, "ir_total")) continue
                line = "| " c " | " n " | " eqs(c, n) " | " num(get("callgrind", c, n, "ir_total") / 1e6, 4) " |"
                for (j = 1; j <= np; j++) line = line " " num(get("callgrind", c, n, "ir_" pass[j]) / 1e6, 4) " |"
                print line " " note["callgrind", c, n, "top_self"] " |"
                if (has("callgrind", c, n, "growth_total")) {
                    gn = note["callgrind", c, n, "growth_total"]; sub(/;.*/, "", gn)
                    line = "| growth | " gn " | | " num(get("callgrind", c, n, "growth_total"), 3) "x |"
                    for (j = 1; j <= np; j++) line = line " " num(get("callgrind", c, n, "growth_" pass[j]), 3) "x |"
                    gl = note["callgrind", c, n, "growth_total"]; sub(/^.*would be /, "", gl)
                    print line " linear: " gl "x |"
                }
            }
            print ""
        }

        # ---- arrays
        if (cnt["arrays"] > 0) {
            print "## Arrays: the chain as for-loops vs written out"
            print ""
            print "The same model (bench/gen/array_chain.sh N loop|unrolled): N masses and N-1 springs between two walls, as the arrays m(i), s(i) in for-loops or as m1 ... mN written out. Wall times are medians of runs that alternate the two forms; Ir is callgrind of one run each. The target: the loop form no slower than the written-out one."
            print ""
            print "| N | equations | emit-c loop (s) | emit-c written out (s) | ratio | Ir loop (M) | Ir written out (M) | ratio | elaborate Ir loop / written out (M) | parse Ir loop / written out (M) |"
            print "|---|---|---|---|---|---|---|---|---|---|"
            for (i = 1; i <= cnt["arrays"]; i++) {
                split(order["arrays", i], p, SUBSEP)
                if (p[1] != "loop") continue
                n = p[2]
                wl = get("arrays", "loop", n, "emit_c"); wu = get("arrays", "unrolled", n, "emit_c")
                il = get("arrays", "loop", n, "ir_total"); iu = get("arrays", "unrolled", n, "ir_total")
                printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s / %s | %s / %s |\n", n, eqs("loop", n), num(wl, 3), num(wu, 3), (wl > 0 && wu > 0) ? num(wl / wu, 3) : "-", mi(il), mi(iu), (il > 0 && iu > 0) ? num(il / iu, 3) : "-", mi(get("arrays", "loop", n, "ir_elaborate")), mi(get("arrays", "unrolled", n, "ir_elaborate")), mi(get("arrays", "loop", n, "ir_parse")), mi(get("arrays", "unrolled", n, "ir_parse"))
            }
            print ""
        }

        # ---- largest N
        if (cnt["findmax"] > 0) {
            print "## Largest N that compiles (emit-c, doubling N; one run each)"
            print ""
            print "| model | N | equations | result | wall (s) | note |"
            print "|---|---|---|---|---|---|"
            for (i = 1; i <= cnt["findmax"]; i++) {
                split(order["findmax", i], p, SUBSEP)
                c = p[1]; n = p[2]
                if (has("findmax", c, n, "ok")) printf "| %s | %s | %s | ok | %s | %s |\n", c, n, eqs(c, n), num(get("findmax", c, n, "ok"), 3), note["findmax", c, n, "ok"]
                if (has("findmax", c, n, "first_fail")) printf "| %s | %s | %s | **fails** | %s | %s |\n", c, n, eqs(c, n), num(get("findmax", c, n, "first_fail"), 3), note["findmax", c, n, "first_fail"]
            }
            print ""
        }

        # ---- simulation
        print "## Simulation: generated simulator vs hand-written C (bench/reference/)"
        print ""
        print "The references are independent programs (bench/README.md): the same gsl_odeiv2 stepper by name and tolerances (rtol 1e-6, atol 1e-9), their own first step, stepping and event location, the same output grid (500 rows unless said); both write the same columns as CSV (the reference with %.17g). For cvode the reference runs msbdf. Differences are over the rows with a common time."
        print ""
        print "| problem | N | solver | generated (ms) | hand-written (ms) | ratio | generated, start and initialization only (ms) | max abs diff | max rel diff | rows compared |"
        print "|---|---|---|---|---|---|---|---|---|---|"
        for (i = 1; i <= cnt["sim"]; i++) {
            split(order["sim", i], p, SUBSEP)
            c = p[1]; n = p[2]
            for (s = 1; s <= 3; s++) {
                sv = s == 1 ? "msbdf" : s == 2 ? "rk8pd" : "cvode"
                if (has("sim", c, n, "gen_failed_" sv)) { printf "| %s | %s | %s | %s | | | | | | |\n", c, n, sv, fail_text("sim", c, n, "gen_failed_" sv); continue }
                if (!has("sim", c, n, "ratio_" sv)) continue
                printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c, n, sv, ms(get("sim", c, n, "gen_" sv)), ms(get("sim", c, n, "ref_" sv)), num(get("sim", c, n, "ratio_" sv), 3), ms(get("sim", c, n, "gen_init_" sv)), num(get("sim", c, n, "maxdiff_" sv), 3), num(get("sim", c, n, "maxreldiff_" sv), 3), get("sim", c, n, "rows_compared_" sv)
            }
        }
        print ""

        # ---- stiff
        if (cnt["stiff"] > 0) {
            print "## Stiff solvers: msbdf against cvode (lever chain, one simulated second)"
            print ""
            print "Medians of runs that alternate between the two solvers; differences against rk8pd at rtol 1e-10, atol 1e-12 over the compared columns."
            print ""
            print "| N | equations | msbdf (s) | cvode (s) | msbdf / cvode | growth msbdf | growth cvode | max abs diff msbdf / cvode | load before / after |"
            print "|---|---|---|---|---|---|---|---|---|"
            for (i = 1; i <= cnt["stiff"]; i++) {
                split(order["stiff", i], p, SUBSEP)
                c = p[1]; n = p[2]
                if (has("stiff", c, n, "failed_msbdf") || has("stiff", c, n, "failed_cvode")) { printf "| %s | %s | %s %s | | | | | | |\n", n, eqs(c, n), fail_text("stiff", c, n, "failed_msbdf"), fail_text("stiff", c, n, "failed_cvode"); continue }
                printf "| %s | %s | %s | %s | %s | %s | %s | %s / %s | %s / %s |\n", n, eqs(c, n), num(get("stiff", c, n, "msbdf"), 3), num(get("stiff", c, n, "cvode"), 3), num(get("stiff", c, n, "ratio"), 3), num(get("stiff", c, n, "growth_msbdf"), 3), num(get("stiff", c, n, "growth_cvode"), 3), num(get("stiff", c, n, "msbdf_vs_rk8pd"), 3), num(get("stiff", c, n, "cvode_vs_rk8pd"), 3), get("stiff", c, n, "load_before"), get("stiff", c, n, "load_after")
                last = n
            }
            print ""
            x = get("stiff", "lever_chain", last, "cvode"); g = get("stiff", "lever_chain", last, "growth_cvode")
            if (last == 1000) printf "Targets: N = 1,000 with the stiff solver <= 2 s per simulated second: cvode %s s (%s); growth N = 100 -> 1,000 <= 15x: cvode %sx (%s).\n\n", num(x, 3), status(x <= 2), num(g, 3), status(g != "" && g <= 15)
        }

        # ---- output
        if (cnt["output"] > 0) {
            print "## Output: every column against one (lever chain, rk8pd, files)"
            print ""
            print "The same simulator writing one column (`--vars ma1.x`), every column as CSV and every column as MAT, the three runs alternating round by round; Ir is one callgrind run of each."
            print ""
            print "| N | columns | rows | one column (ms) | every column, CSV (ms) | ratio | every column, MAT (ms) | ratio | CSV / MAT (MB) | Ir one / CSV / MAT (M) | load before / after |"
            print "|---|---|---|---|---|---|---|---|---|---|---|"
            for (i = 1; i <= cnt["output"]; i++) {
                split(order["output", i], p, SUBSEP)
                c = p[1]; n = p[2]
                printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s / %s | %s / %s / %s | %s / %s |\n", n, get("output", c, n, "columns"), get("output", c, n, "rows"), ms(get("output", c, n, "wall_one")), ms(get("output", c, n, "wall_csv")), num(get("output", c, n, "ratio_csv"), 3), ms(get("output", c, n, "wall_mat")), num(get("output", c, n, "ratio_mat"), 3), num(get("output", c, n, "bytes_csv") / 1048576, 3), num(get("output", c, n, "bytes_mat") / 1048576, 3), mi(get("output", c, n, "ir_one")), mi(get("output", c, n, "ir_csv")), mi(get("output", c, n, "ir_mat")), get("output", c, n, "load_before"), get("output", c, n, "load_after")
            }
            print ""
            for (i = 1; i <= cnt["output"]; i++) {
                split(order["output", i], p, SUBSEP)
                c = p[1]; n = p[2]
                w = get("output", c, n, "wall_write_mat")
                if (w != "") printf "The bytes of the MAT file written alone (dd): %s ms, against %s ms for the one-column run: the MAT run can be no faster than their sum, %sx the one-column run.\n\n", ms(w), ms(get("output", c, n, "wall_one")), num((w + get("output", c, n, "wall_one")) / get("output", c, n, "wall_one"), 3)
                x = get("output", c, n, "dtoa_rt_dtoa_ns")
                if (x != "") printf "Formatting per value, on the %s values of the every-column CSV (bench/dtoa, best of 9 rounds, the same text from both): `rt_dtoa` %s ns, {fmt} 9 (Dragonbox, `libfmt-dev`) %s ns; the shortest decimal alone, without its text: %s ns, against %s ns for Dragonbox.\n\n", get("output", c, n, "dtoa_values"), num(x, 3), num(get("output", c, n, "dtoa_fmt_ns"), 3), num(get("output", c, n, "dtoa_rt_decimal_ns"), 3), num(get("output", c, n, "dtoa_fmt_decimal_ns"), 3)
                else if (get("output", c, n, "dtoa_failed") != "") printf "Formatting per value: the comparison with {fmt} failed (%s).\n\n", note["output", c, n, "dtoa_failed"]
                else printf "Formatting per value against {fmt}: not measured (it needs a C++ compiler and `libfmt-dev`).\n\n"
            }
        }

        # ---- rhs
        if (cnt["rhs"] > 0) {
            print "## Cost per right-hand-side evaluation (callgrind, rk8pd)"
            print ""
            print "Ir per evaluation is the inclusive instruction count of the model function (`eval` in the generated simulator, `rhs` in the reference) per call, and for the generated simulator also with the checks around it (`rt_eval_try`; the target is 1.5x the reference); operations are the arithmetic in its code (a static count of the generated straight-line code, both parts of eval; counted by hand in the reference)."
            print ""
            print "| problem | N | evaluations gen / ref | Ir per eval gen / ref | ratio | Ir per eval + checks | ratio | operations gen / ref | Ir per operation gen / ref | Ir whole run gen / ref | ratio |"
            print "|---|---|---|---|---|---|---|---|---|---|---|"
            for (i = 1; i <= cnt["rhs"]; i++) {
                split(order["rhs", i], p, SUBSEP)
                c = p[1]; n = p[2]
                gi = get("rhs", c, n, "gen_ir_per_eval"); ri = get("rhs", c, n, "ref_ir_per_eval")
                gt = get("rhs", c, n, "gen_ir_per_try")
                go = get("rhs", c, n, "gen_ops"); ro = get("rhs", c, n, "ref_flops")
                gw = get("rhs", c, n, "gen_ir_total"); rw = get("rhs", c, n, "ref_ir_total")
                printf "| %s | %s | %s / %s | %s / %s | %s | %s | %s | %s / %s | %s / %s | %s / %s | %s |\n", c, n, get("rhs", c, n, "gen_evals"), get("rhs", c, n, "ref_evals"), num(gi, 4), num(ri, 4), (gi > 0 && ri > 0) ? num(gi / ri, 3) : "-", num(gt, 4), (gt > 0 && ri > 0) ? num(gt / ri, 3) : "-", go, ro, (go > 0) ? num(gi / go, 3) : "-", (ro > 0) ? num(ri / ro, 3) : "-", num(gw / 1e6, 4) "M", num(rw / 1e6, 4) "M", (gw > 0 && rw > 0) ? num(gw / rw, 3) : "-"
            }
            print ""
            print "Where the instructions of the generated simulator go (callgrind, millions of Ir, inclusive): initialization (`rt_init`), the model function `eval`, the checks around it (`rt_eval_try` minus `eval`: finiteness of the derivatives, and of the algebraic values an accepted or complete evaluation computed), CSV rows, event detection after each step, and the linear-block solves inside `eval`."
            print ""
            print "| problem | N | whole run | init | eval | checks | CSV rows | events | of eval: linear blocks |"
            print "|---|---|---|---|---|---|---|---|---|"
            for (i = 1; i <= cnt["rhs"]; i++) {
                split(order["rhs", i], p, SUBSEP)
                c = p[1]; n = p[2]
                ev = get("rhs", c, n, "gen_ir_eval"); ck = get("rhs", c, n, "gen_ir_checked")
                printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c, n, mi(get("rhs", c, n, "gen_ir_total")), mi(get("rhs", c, n, "gen_ir_init")), mi(ev), (ck != "" && ev != "") ? mi(ck - ev) : "-", mi(get("rhs", c, n, "gen_ir_csv")), mi(get("rhs", c, n, "gen_ir_events")), mi(get("rhs", c, n, "gen_ir_linear"))
            }
            print ""
        }

        # ---- environment
        print "## Environment"
        print ""
        print "| | |"
        print "|---|---|"
        ne = split("nproc cpu mem_total load_start load_after_compile load_end lmdlc commit cc gsl tools duration mode", ek, " ")
        for (j = 1; j <= ne; j++) if (ek[j] in env) printf "| %s | %s |\n", ek[j], env[ek[j]]
    }' "$1"
}

if [ -n "$tables_only" ]; then
    tables "$tables_only"
    exit $?
fi

# ---- configuration ---------------------------------------------------------
# Sizes are stages: levers for lever_chain, masses for mass_chain.
if [ "$mode" = smoke ]; then
    EMIT_SIZES="10 30"          # emit-c time, passes, memory
    BIG_MASS=                   # the ~10^5-equation mass chain
    BUILD_SIZES=""              # lmdlc build of the chains (the C compiler is slow)
    CG_SIZES=""                 # callgrind of emit-c
    FIND_MAX=no                 # doubling search for the largest N
    ARRAY_SIZES="30"            # the chain as for-loops vs written out
    SIM_RK="10"                 # simulations with rk8pd
    SIM_BDF=""                  # simulations with msbdf and cvode
    SIM_BDF_BIG=""              # lever chain with msbdf only (slow: dense)
    BIG_BUILD=no                # lmdlc build of the ~10^5-equation chain
    OUT_N=10                    # output: every column against one
    OUT_RUNS=3                  # alternating rounds of the three runs
    STIFF_N="10 20"             # lever chain: msbdf against cvode, paired
    STIFF_RUNS=3                # pairs of runs per N
    RHS_N=""                    # callgrind of the chain simulators
    MIN_RUNS=3                  # hyperfine --min-runs
    REPEAT=2                    # timed runs for passes and memory
    HF_RUNS=--runs              # hyperfine: exactly MIN_RUNS runs
    TIMEOUT=60                  # per command, s
    : "${prefix:=$work/smoke-results}"
else
    EMIT_SIZES="10 100 1000 10000"
    BIG_MASS=14286              # 7N+4 = 100006 equations
    BUILD_SIZES="10 100 1000"
    CG_SIZES="100 1000"
    FIND_MAX=yes
    ARRAY_SIZES="1000 10000"
    SIM_RK="10 100 1000"
    SIM_BDF="10 100"
    SIM_BDF_BIG="1000"
    BIG_BUILD=yes
    OUT_N=100
    OUT_RUNS=11
    STIFF_N="100 1000"
    STIFF_RUNS=5
    RHS_N="100"
    MIN_RUNS=10
    REPEAT=5
    HF_RUNS=--min-runs          # hyperfine: at least MIN_RUNS runs and ~3 s
    TIMEOUT=300                 # "a few minutes"
    : "${prefix:=$here/results}"
fi
# any of these can be set from the environment, e.g. BENCH_EMIT_SIZES="10 100"
EMIT_SIZES=${BENCH_EMIT_SIZES-$EMIT_SIZES}
ARRAY_SIZES=${BENCH_ARRAY_SIZES-$ARRAY_SIZES}
BIG_MASS=${BENCH_BIG_MASS-$BIG_MASS}
BUILD_SIZES=${BENCH_BUILD_SIZES-$BUILD_SIZES}
CG_SIZES=${BENCH_CG_SIZES-$CG_SIZES}
FIND_MAX=${BENCH_FIND_MAX-$FIND_MAX}
SIM_RK=${BENCH_SIM_RK-$SIM_RK}
SIM_BDF=${BENCH_SIM_BDF-$SIM_BDF}
SIM_BDF_BIG=${BENCH_SIM_BDF_BIG-$SIM_BDF_BIG}
BIG_BUILD=${BENCH_BIG_BUILD-$BIG_BUILD}
OUT_N=${BENCH_OUT_N-$OUT_N}
OUT_RUNS=${BENCH_OUT_RUNS-$OUT_RUNS}
STIFF_N=${BENCH_STIFF_N-$STIFF_N}
STIFF_RUNS=${BENCH_STIFF_RUNS-$STIFF_RUNS}
RHS_N=${BENCH_RHS_N-$RHS_N}
MIN_RUNS=${BENCH_MIN_RUNS-$MIN_RUNS}
REPEAT=${BENCH_REPEAT-$REPEAT}
MEMCAP_KB=${MEMCAP_KB:-12000000}  # address space per command (12 GB)
LIMIT_S=${LIMIT_S:-180}          # find-max: "a few minutes"; stops doubling past this

csv=$prefix.csv
md=$prefix.md
for d in models c bin out tmp callgrind hf; do
    mkdir -p "$work/$d" || exit 1
done
# simulators and C from an earlier run may come from another compiler
rm -f "$work"/bin/* "$work"/c/*
mkdir -p "$(dirname "$prefix")" || exit 1
log=$work/run.log
: > "$log"

say() {
    printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" | tee -a "$log" >&2
}

have() {
    command -v "$1" >/dev/null 2>&1
}

die() {
    say "error: $*"
    exit 1
}

[ -x "$LMDLC" ] || die "no compiler at $LMDLC (build it, or give --lmdlc)"
have "$CC" || die "no C compiler '$CC'"
HYPERFINE=no; have hyperfine && HYPERFINE=yes
GNUTIME=no; [ -x /usr/bin/time ] && GNUTIME=yes
VALGRIND=no; have valgrind && have callgrind_annotate && VALGRIND=yes
# the formatter comparison (bench/dtoa): a C++ compiler and {fmt}'s headers
CXX=${CXX:-c++}
FMTLIB=no
have "$CXX" && [ -f /usr/include/fmt/compile.h ] && FMTLIB=yes

t_start=$(date +%s)
echo "section,case,n,equations,metric,value,unit,note" > "$csv"

# rec SECTION CASE N EQUATIONS METRIC VALUE UNIT [NOTE]
rec() {
    printf '%s,%s,%s,%s,%s,%s,%s,%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7" \
        "$(printf '%s' "${8:-}" | tr ',\n' '; ')" >> "$csv"
}

# The median of the numbers on stdin ("nan" when there are none).
median() {
    sort -g | awk '{ v[NR] = $1 } END {
        if (NR == 0) { print "nan"; exit }
        if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# calc EXPR: an awk expression, printed %.6g.
calc() {
    awk "BEGIN { printf \"%.6g\\n\", ($1) }"
}

ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        if (a == "" || b == "" || a == "nan" || b == "nan" || b + 0 == 0) print "nan"
        else printf "%.4g\n", a / b }'
}

now() {
    date +%s.%N
}

loadavg() {
    cut -d' ' -f1-3 /proc/loadavg 2>/dev/null | tr ' ' '/'
}

# ---- the machine ---------------------------------------------------------------
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$root" status --porcelain -- compiler runtime grammar library 2>/dev/null | wc -l | tr -d ' ')
rec env machine - - nproc "$(nproc 2>/dev/null || echo unknown)" cores
rec env machine - - cpu "$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)" -
rec env machine - - mem_total "$(awk '/MemTotal/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo)" -
rec env machine - - load_start "$(loadavg)" "1/5/15 min"
rec env machine - - mode "$mode" -
rec env machine - - lmdlc "$LMDLC" -
rec env machine - - commit "${LMDL_COMMIT:-$commit}" - "${LMDL_COMMIT_NOTE:-$dirty files changed in compiler/ runtime/ grammar/ library/ of $root}"
rec env machine - - cc "$("$CC" --version 2>/dev/null | head -n 1)" - "lmdlc build uses -O2"
rec env machine - - gsl "$(gsl-config --version 2>/dev/null || echo unknown)" -
rec env machine - - tools "hyperfine=$HYPERFINE; /usr/bin/time=$GNUTIME; valgrind=$VALGRIND; fmt=$FMTLIB" -
say "mode $mode; lmdlc $LMDLC (commit $commit); load $(loadavg)"

# ---- running things --------------------------------------------------------------

# limited CMD...: runs CMD under the time and memory caps.
limited() {
    ( ulimit -v "$MEMCAP_KB" 2>/dev/null; exec timeout "$TIMEOUT" "$@" )
}

# timed TAG CMD...: one run under the caps.  Sets tr_rc, tr_wall (s),
# tr_rss (KB, the largest process; -1 if unknown); appends the
# --time-passes lines to $work/tmp/TAG.passes as "name ms".
timed() {
    tag=$1
    shift
    tf=$work/tmp/time.out
    ef=$work/tmp/$tag.err
    : > "$tf"
    t0=$(now)
    if [ "$GNUTIME" = yes ]; then
        ( ulimit -v "$MEMCAP_KB" 2>/dev/null
          exec /usr/bin/time -f 'TIME %U %S %M' -o "$tf" timeout "$TIMEOUT" "$@" ) \
            > /dev/null 2> "$ef"
    else
        limited "$@" > /dev/null 2> "$ef"
    fi
    tr_rc=$?
    t1=$(now)
    tr_wall=$(calc "$t1 - $t0")
    tr_rss=$(awk '/^TIME/ { print $4 }' "$tf")
    tr_cpu=$(awk '/^TIME/ { printf "%.6g", $2 + $3 }' "$tf")
    [ -n "$tr_cpu" ] || tr_cpu=nan
    [ -n "$tr_rss" ] || tr_rss=-1
    awk '/^lmdlc: / { print $2, $3 }' "$ef" >> "$work/tmp/$tag.passes"
}

# why RC ERRFILE: a short reason for a failed run.
why() {
    case $1 in
        124) echo "timeout after $TIMEOUT s" ;;
        134|137|139) echo "killed by signal $(($1 - 128)) (memory cap $((MEMCAP_KB / 1000000)) GB): $(grep -v '^lmdlc: ' "$2" | tail -n 1 | cut -c1-120)" ;;
        *) echo "status $1: $(grep -v '^lmdlc: ' "$2" | head -n 1 | cut -c1-200)" ;;
    esac
}

# wallmed TAG MINRUNS CMD...: the median wall time (s) of CMD, by hyperfine
# when installed (at least MINRUNS runs and about 3 s), else by MINRUNS
# timed runs.  Sets wm_med and wm_runs.  Arguments must not contain blanks.
wallmed() {
    tag=$1
    runs=$2
    shift 2
    if [ "$HYPERFINE" = yes ]; then
        hf=$work/hf/$tag
        hyperfine -N --style none --warmup 1 $HF_RUNS "$runs" --export-csv "$hf.csv" \
            --export-json "$hf.json" "$*" > "$hf.txt" 2>&1
        wm_med=$(awk -F, 'NR == 2 { print $(NF - 4) }' "$hf.csv" 2>/dev/null)
        wm_runs=$(awk '/"times"/ { f = 1; next } f && /\]/ { exit } f { n++ } END { print n + 0 }' "$hf.json" 2>/dev/null)
        wm_cpu=$(awk -F, 'NR == 2 { printf "%.6g", $(NF - 3) + $(NF - 2) }' "$hf.csv" 2>/dev/null)
        [ -n "$wm_med" ] || wm_med=nan
    else
        : > "$work/tmp/$tag.walls"
        i=0
        while [ "$i" -lt "$runs" ]; do
            timed "$tag" "$@"
            echo "$tr_wall" >> "$work/tmp/$tag.walls"
            i=$((i + 1))
        done
        wm_med=$(median < "$work/tmp/$tag.walls")
        wm_cpu=nan
        wm_runs=$runs
    fi
}

# ---- models -----------------------------------------------------------------------

gen_model() {
    f=$work/models/$1_$2.lmdl
    [ -f "$f" ] || sh "$here/gen/$1.sh" "$2" "$f" || die "cannot generate $1 $2"
    echo "$f"
}

# raw equation count of a generated chain, without running lmdlc
chain_eqs() {
    awk -v c="$1" -v n="$2" 'BEGIN { print (c == "mass_chain") ? 7 * n + 4 : 21 * n + 4 }'
}

eqs_of() {
    e=$(awk -F, -v c="$1" -v n="$2" '$1 == "compile" && $2 == c && $3 == n && $5 == "check_ok" { print $4; exit }' "$csv")
    echo "${e:--}"
}

# ---- compile cost -------------------------------------------------------------------

# passes_rec SECTION CASE N EQS TAG: the medians of the --time-passes lines.
passes_rec() {
    pf=$work/tmp/$5.passes
    [ -s "$pf" ] || return 0
    for p in $(awk '!s[$1]++ { print $1 }' "$pf"); do
        m=$(awk -v p="$p" '$1 == p { print $2 }' "$pf" | median)
        k=$(awk -v p="$p" '$1 == p' "$pf" | wc -l | tr -d ' ')
        rec "$1" "$2" "$3" "$4" "pass_$p" "$(calc "$m / 1000")" s "median of $k runs"
    done
}

# repeat_timed TAG K CMD...: K timed runs; walls and peak RSS to TAG.walls
# and TAG.rss.  Stops at the first failure (tr_rc).
repeat_timed() {
    tag=$1
    k=$2
    shift 2
    i=0
    while [ "$i" -lt "$k" ]; do
        timed "$tag" "$@"
        [ "$tr_rc" -eq 0 ] || return 1
        echo "$tr_wall" >> "$work/tmp/$tag.walls"
        echo "$tr_rss" >> "$work/tmp/$tag.rss"
        echo "$tr_cpu" >> "$work/tmp/$tag.cpu"
        i=$((i + 1))
    done
}

# compile_case CASE N FILE [build]: check, emit-c, and build when asked.
# Returns 1 when the model does not compile.
compile_case() {
    c=$1
    n=$2
    f=$3
    do_build=${4:-}
    say "compile $c N=$n"
    chk=$work/out/check_${c}_$n.txt
    timed "check_${c}_$n" "$LMDLC" check "$f"
    if [ "$tr_rc" -ne 0 ]; then
        reason=$(why "$tr_rc" "$work/tmp/check_${c}_$n.err")
        rec compile "$c" "$n" "$(chain_eqs "$c" "$n")" check_failed 1 - "lmdlc check: $reason; after $tr_wall s; peak RSS $tr_rss KB"
        say "  check failed: $reason"
        return 1
    fi
    ( limited "$LMDLC" check "$f" ) > "$chk" 2>&1
    eqs=$(awk '/before simplification:/ { print $3 }' "$chk")
    [ -n "$eqs" ] || eqs=-
    rec compile "$c" "$n" "$eqs" check_ok 1 - "$(awk '
        /components:/ { printf "%s components; ", $2 }
        /after simplification:/ { printf "%s equations after simplification; ", $3 }
        /^  states:/ { printf "%s states; ", $2 }
        /differential index:/ { printf "index %s; ", $3 }
        /blocks:/ { sub(/^ *blocks: */, ""); printf "blocks %s", $0 }' "$chk")"
    rec compile "$c" "$n" "$eqs" check_wall "$tr_wall" s "one run"

    # emit-c: passes and memory from timed runs; the wall median from
    # hyperfine when a run is short
    tag=emit_${c}_$n
    rm -f "$work/tmp/$tag.passes" "$work/tmp/$tag.walls" "$work/tmp/$tag.rss" "$work/tmp/$tag.cpu"
    out_c=$work/c/${c}_$n.c
    if ! repeat_timed "$tag" 1 "$LMDLC" emit-c --time-passes "$f" -o "$out_c"; then
        rec compile "$c" "$n" "$eqs" emit_c_failed 1 - "$(why "$tr_rc" "$work/tmp/$tag.err")"
        return 1
    fi
    if [ "$(awk -v w="$tr_wall" 'BEGIN { print (w < 2) }')" = 1 ]; then
        repeat_timed "$tag" $((REPEAT - 1)) "$LMDLC" emit-c --time-passes "$f" -o "$out_c"
        wallmed "$tag" "$MIN_RUNS" "$LMDLC" emit-c "$f" -o "$out_c"
        rec compile "$c" "$n" "$eqs" emit_c "$wm_med" s "median of $wm_runs runs (hyperfine=$HYPERFINE)"
        # hyperfine's CPU (a mean); without hyperfine, emit_c_cpu_timed below
        [ "$wm_cpu" = nan ] || rec compile "$c" "$n" "$eqs" emit_c_cpu "$wm_cpu" s "user+system; mean of the same runs (hyperfine)"
    else
        repeat_timed "$tag" 2 "$LMDLC" emit-c --time-passes "$f" -o "$out_c"
        rec compile "$c" "$n" "$eqs" emit_c "$(median < "$work/tmp/$tag.walls")" s "median of $(wc -l < "$work/tmp/$tag.walls" | tr -d ' ') runs"
    fi
    rec compile "$c" "$n" "$eqs" emit_c_cpu_timed "$(median < "$work/tmp/$tag.cpu")" s "user+system; median of the --time-passes runs"
    rec compile "$c" "$n" "$eqs" emit_c_rss "$(median < "$work/tmp/$tag.rss")" KB "peak RSS; median of $(wc -l < "$work/tmp/$tag.rss" | tr -d ' ') runs"
    rec compile "$c" "$n" "$eqs" c_bytes "$(wc -c < "$out_c" | tr -d ' ')" B "generated C"
    passes_rec compile "$c" "$n" "$eqs" "$tag"

    [ -n "$do_build" ] || return 0
    tag=build_${c}_$n
    rm -f "$work/tmp/$tag.passes" "$work/tmp/$tag.walls" "$work/tmp/$tag.rss" "$work/tmp/$tag.cpu"
    sim=$work/bin/${c}_$n
    if ! repeat_timed "$tag" 1 "$LMDLC" build --time-passes "$f" -o "$sim"; then
        rec build "$c" "$n" "$eqs" build_failed 1 - "$(why "$tr_rc" "$work/tmp/$tag.err")"
        rm -f "$sim"
        return 0
    fi
    if [ "$(awk -v w="$tr_wall" 'BEGIN { print (w < 5) }')" = 1 ]; then
        repeat_timed "$tag" $((REPEAT - 1)) "$LMDLC" build --time-passes "$f" -o "$sim"
        wallmed "$tag" $REPEAT "$LMDLC" build "$f" -o "$sim"
        rec build "$c" "$n" "$eqs" build "$wm_med" s "median of $wm_runs runs (hyperfine=$HYPERFINE)"
        rec build "$c" "$n" "$eqs" build_cpu "$wm_cpu" s "user+system incl. the C compiler; mean of the same runs"
    else
        repeat_timed "$tag" 2 "$LMDLC" build --time-passes "$f" -o "$sim"
        rec build "$c" "$n" "$eqs" build "$(median < "$work/tmp/$tag.walls")" s "median of $(wc -l < "$work/tmp/$tag.walls" | tr -d ' ') runs"
    fi
    rec build "$c" "$n" "$eqs" build_timed "$(median < "$work/tmp/$tag.walls")" s "wall; median of the --time-passes runs"
    rec build "$c" "$n" "$eqs" build_cpu_timed "$(median < "$work/tmp/$tag.cpu")" s "user+system incl. the C compiler; median of the --time-passes runs"
    rec build "$c" "$n" "$eqs" build_rss "$(median < "$work/tmp/$tag.rss")" KB "peak RSS of lmdlc or the C compiler; median"
    passes_rec build "$c" "$n" "$eqs" "$tag"
    return 0
}

# ---- callgrind of emit-c --------------------------------------------------------------

PASS_FUNCS="sema_add_main:parse sema_resolve:resolve elab_model:elaborate units_check:units flatten_model:flatten simplify_dae:simplify struct_analyze:structure cg_generate:codegen"

callgrind_emit() {
    c=$1
    n=$2
    f=$3
    eqs=$4
    say "callgrind emit-c $c N=$n"
    cg=$work/callgrind/emit_${c}_$n.out
    ( limited valgrind --tool=callgrind --callgrind-out-file="$cg" "$LMDLC" emit-c "$f" \
        -o "$work/tmp/cg.c" ) > "$work/tmp/cg.log" 2>&1
    total=$(awk '/Collected :/ { print $NF }' "$work/tmp/cg.log")
    if [ -z "$total" ]; then
        rec callgrind "$c" "$n" "$eqs" ir_failed 1 - "$(tail -n 1 "$work/tmp/cg.log")"
        return 0
    fi
    rec callgrind "$c" "$n" "$eqs" ir_total "$total" Ir "lmdlc emit-c"
    callgrind_annotate --threshold=100 --inclusive=yes "$cg" > "$cg.incl.txt" 2>/dev/null
    callgrind_annotate "$cg" > "$cg.self.txt" 2>/dev/null
    for pf in $PASS_FUNCS; do
        fn=${pf%%:*}
        ir=$(awk -v fn="$fn" '{ s = $0; sub(/ \[.*$/, "", s) } s ~ (":" fn "$") { gsub(",", "", $1); print $1; exit }' "$cg.incl.txt")
        [ -n "$ir" ] && rec callgrind "$c" "$n" "$eqs" "ir_${pf#*:}" "$ir" Ir "inclusive Ir of $fn"
    done
    top=$(awk '/file:function/ { f = 1; next } f && /^ *[0-9]/ { gsub(",", "", $1); fn = $0; sub(/ \[.*$/, "", fn); sub(/^.*:/, "", fn); printf "%s%s %.0f%%", sep, fn, 100 * $1 / tot; sep = "; "; if (++k == 3) exit }
        /PROGRAM TOTALS/ { t = $1; gsub(",", "", t); tot = t }' "$cg.self.txt")
    rec callgrind "$c" "$n" "$eqs" top_self 1 - "$top"
}

# ---- simulations ----------------------------------------------------------------------------

# the columns both simulators write
sim_vars() {
    case $1 in
        wall_contact*) echo "inertia.theta,inertia.w,wall1.f,wall3.f" ;;
        mass_chain) echo "m1.x,m1.v,m$2.x,m$2.v,wl.f,wr.f" ;;
        lever_chain) echo "ma1.x,ma1.v,mb1.x,ma$2.x,ma$2.v" ;;
    esac
}

# sim_case CASE N SOLVER GEN_SIM REF_BIN "EXTRA ARGS" [REF_SOLVER]: the
# reference runs REF_SOLVER [SOLVER] (it has no cvode: msbdf stands in)
sim_case() {
    c=$1
    n=$2
    s=$3
    gsim=$4
    rbin=$5
    extra=$6
    rs=${7:-$3}
    eqs=$(eqs_of "${c%_10s}" "$n")
    say "simulate $c N=$n $s"
    vars=$(sim_vars "$c" "$n")
    tag=sim_${c}_${n}_$s
    gout=$work/out/$tag.gen.csv
    rout=$work/out/$tag.ref.csv
    t0=$(now)
    # shellcheck disable=SC2086
    limited "$gsim" --quiet --solver "$s" $extra --vars "$vars" -o "$gout" > /dev/null 2> "$work/tmp/$tag.gen.err"
    grc=$?
    g_first=$(calc "$(now) - $t0")
    t0=$(now)
    # shellcheck disable=SC2086
    limited "$rbin" --n "$n" --solver "$rs" $extra -o "$rout" > /dev/null 2> "$work/tmp/$tag.ref.err"
    rrc=$?
    r_first=$(calc "$(now) - $t0")
    if [ "$grc" -ne 0 ]; then
        rec sim "$c" "$n" "$eqs" "gen_failed_$s" 1 - "$(why "$grc" "$work/tmp/$tag.gen.err")"
        say "  generated simulator failed: $(why "$grc" "$work/tmp/$tag.gen.err")"
        return 0
    fi
    if [ "$rrc" -ne 0 ]; then
        rec sim "$c" "$n" "$eqs" "ref_failed_$s" 1 - "$(why "$rrc" "$work/tmp/$tag.ref.err")"
        return 0
    fi
    awk -f "$here/csvdiff.awk" "$gout" "$rout" > "$work/tmp/diff.txt"
    read -r d_abs d_rel d_rows d_col < "$work/tmp/diff.txt"
    rec sim "$c" "$n" "$eqs" "maxdiff_$s" "$d_abs" - "largest |generated - reference| in the columns $vars; in $d_col"
    rec sim "$c" "$n" "$eqs" "maxreldiff_$s" "$d_rel" - "the largest difference over the largest |value| of its column"
    rec sim "$c" "$n" "$eqs" "rows_compared_$s" "$d_rows" rows "generated $(($(wc -l < "$gout") - 1)) rows; reference $(($(wc -l < "$rout") - 1))"
    # a run over 20 s gets 3 timed runs (the first above and 2 more), not
    # hyperfine; the others MIN_RUNS runs each, the generated simulator and
    # the reference alternating run by run, so that both see the same load
    # (hyperfine, when installed, times each on its own)
    long_g=$(awk -v w="$g_first" 'BEGIN { print (w > 20) }')
    long_r=$(awk -v w="$r_first" 'BEGIN { print (w > 20) }')
    if [ "$long_g" = 0 ] && [ "$long_r" = 0 ] && [ "$HYPERFINE" = no ]; then
        # (timed sets tag: the case's own is kept in stag)
        stag=$tag
        : > "$work/tmp/$stag.walls"
        : > "$work/tmp/${stag}_ref.walls"
        i=0
        while [ "$i" -lt "$MIN_RUNS" ]; do
            # shellcheck disable=SC2086
            timed "${stag}_gen" "$gsim" --quiet --solver "$s" $extra --vars "$vars" -o /dev/null
            echo "$tr_wall" >> "$work/tmp/$stag.walls"
            # shellcheck disable=SC2086
            timed "${stag}_ref" "$rbin" --n "$n" --solver "$rs" $extra -o /dev/null
            echo "$tr_wall" >> "$work/tmp/${stag}_ref.walls"
            i=$((i + 1))
        done
        tag=$stag
        g_med=$(median < "$work/tmp/$tag.walls")
        g_runs=$MIN_RUNS
        wm_med=$(median < "$work/tmp/${tag}_ref.walls")
        wm_runs=$MIN_RUNS
    else
        # a run over 20 s gets 3 timed runs (the first above and 2 more), not hyperfine
        if [ "$(awk -v w="$g_first" 'BEGIN { print (w > 20) }')" = 1 ]; then
            echo "$g_first" > "$work/tmp/$tag.walls"
            rm -f "$work/tmp/$tag.rss"
            # shellcheck disable=SC2086
            repeat_timed "$tag" 2 "$gsim" --quiet --solver "$s" $extra --vars "$vars" -o /dev/null
            g_med=$(median < "$work/tmp/$tag.walls")
            g_runs=$(wc -l < "$work/tmp/$tag.walls" | tr -d ' ')
        else
            # shellcheck disable=SC2086
            wallmed "${tag}_gen" "$MIN_RUNS" "$gsim" --quiet --solver "$s" $extra --vars "$vars" -o /dev/null
            g_med=$wm_med
            g_runs=$wm_runs
        fi
        if [ "$(awk -v w="$r_first" 'BEGIN { print (w > 20) }')" = 1 ]; then
            echo "$r_first" > "$work/tmp/${tag}_ref.walls"
            rm -f "$work/tmp/${tag}_ref.rss"
            # shellcheck disable=SC2086
            repeat_timed "${tag}_ref" 2 "$rbin" --n "$n" --solver "$rs" $extra -o /dev/null
            wm_med=$(median < "$work/tmp/${tag}_ref.walls")
            wm_runs=$(wc -l < "$work/tmp/${tag}_ref.walls" | tr -d ' ')
        else
            # shellcheck disable=SC2086
            wallmed "${tag}_ref" "$MIN_RUNS" "$rbin" --n "$n" --solver "$rs" $extra -o /dev/null
        fi
    fi
    rec sim "$c" "$n" "$eqs" "gen_$s" "$g_med" s "median of $g_runs runs (alternating with the reference unless hyperfine=yes or over 20 s)"
    rec sim "$c" "$n" "$eqs" "ref_$s" "$wm_med" s "median of $wm_runs runs; the reference with $rs"
    rec sim "$c" "$n" "$eqs" "ratio_$s" "$(ratio "$g_med" "$wm_med")" x "generated / hand-written"
    # the same simulator with one row at t = 1e-9: start-up and initialization
    # shellcheck disable=SC2086
    wallmed "${tag}_init" 3 "$gsim" --quiet --solver "$s" --stop-time 1e-9 --output-step 1e-9 --vars "$vars" -o /dev/null
    rec sim "$c" "$n" "$eqs" "gen_init_$s" "$wm_med" s "--stop-time 1e-9: process start and initialization; median of $wm_runs runs"
}

# cg_calls FILE FUNCTION: "calls inclusive_Ir" of FUNCTION in a callgrind
# caller tree.
cg_calls() {
    callgrind_annotate --threshold=100 --tree=caller --inclusive=yes "$1" 2>/dev/null | awk -v fn="$2" '
        / < / { line[++k] = $0; next }
        / \* / {
            s = $0; sub(/ \[.*$/, "", s)
            if (s ~ (":" fn "$") && !found) {
                for (i = 1; i <= k; i++) {
                    t = line[i]
                    if (match(t, /\([0-9,]+x\)/)) { u = substr(t, RSTART + 1, RLENGTH - 3); gsub(",", "", u); sum += u }
                }
                ir = $1; gsub(",", "", ir); found = 1
            }
        }
        { k = 0 }
        END { if (found) print sum, ir; else print "nan nan" }'
}

# rhs_cost CASE N SOLVER GEN_SIM REF_BIN C_FILE REF_FLOPS: evaluations
# and instructions per right-hand side under callgrind.
rhs_cost() {
    c=$1
    n=$2
    s=$3
    gsim=$4
    rbin=$5
    cfile=$6
    flops=$7
    eqs=$(eqs_of "$c" "$n")
    say "callgrind of the simulators: $c N=$n $s"
    vars=$(sim_vars "$c" "$n")
    gcg=$work/callgrind/sim_${c}_$n.gen.out
    rcg=$work/callgrind/sim_${c}_$n.ref.out
    limited valgrind --tool=callgrind --callgrind-out-file="$gcg" "$gsim" --quiet --solver "$s" \
        --vars "$vars" -o /dev/null > /dev/null 2> "$work/tmp/rhs.gen.log" || return 0
    limited valgrind --tool=callgrind --callgrind-out-file="$rcg" "$rbin" --n "$n" --solver "$s" \
        -o /dev/null > /dev/null 2> "$work/tmp/rhs.ref.log" || return 0
    for side in gen ref; do
        if [ $side = gen ]; then cgf=$gcg; fn=eval; else cgf=$rcg; fn=rhs; fi
        cg_calls "$cgf" "$fn" > "$work/tmp/calls.txt"
        read -r calls ir < "$work/tmp/calls.txt"
        rec rhs "$c" "$n" "$eqs" "${side}_evals" "$calls" calls "calls of $fn; solver $s"
        rec rhs "$c" "$n" "$eqs" "${side}_ir_per_eval" "$(ratio "$ir" "$calls")" Ir "inclusive Ir of $fn per call"
        rec rhs "$c" "$n" "$eqs" "${side}_ir_total" "$(awk '/Collected :/ { print $NF }' "$work/tmp/rhs.$side.log")" Ir "the whole run"
    done
    cg_calls "$gcg" rt_eval_try > "$work/tmp/calls.txt"
    read -r calls ir < "$work/tmp/calls.txt"
    rec rhs "$c" "$n" "$eqs" gen_ir_per_try "$(ratio "$ir" "$calls")" Ir "inclusive Ir of rt_eval_try (eval with its checks) per call"
    # where the generated simulator's instructions go
    for pf in rt_init:init rt_eval_try:checked eval:eval rt_csv_row:csv rt_events_after_step:events rt_solve_linear:linear rt_solve_block:newton; do
        cg_calls "$gcg" "${pf%%:*}" > "$work/tmp/calls.txt"
        read -r calls ir < "$work/tmp/calls.txt"
        [ "$ir" = nan ] || rec rhs "$c" "$n" "$eqs" "gen_ir_${pf#*:}" "$ir" Ir "inclusive Ir of ${pf%%:*}; $calls calls"
    done
    # arithmetic in the generated evaluation code: a static count of binary
    # operators, negations, comparisons and calls, without the singularity
    # checks (mostly constant) and without what Newton blocks do at run time
    ops=$(awk '
        /^static int eval(_[0-9]+)?\(/ { f = 1; next }
        f && /^}/ { f = 0 }
        f && !/fail_block/ {
            s = $0
            n += gsub(/ [-+*\/] /, "", s)
            n += gsub(/\(-/, "", s)
            n += gsub(/(sin|cos|tan|exp|log|sqrt|fabs|pow|atan2|fmax|fmin)\(/, "", s)
            n += gsub(/ [<>]=? /, "", s)
        }
        END { print n + 0 }' "$cfile")
    rec rhs "$c" "$n" "$eqs" gen_ops "$ops" ops "arithmetic in the generated eval code (static count)"
    rec rhs "$c" "$n" "$eqs" ref_flops "$flops" ops "arithmetic of the hand-written rhs (counted by hand)"
}

# ---- 1. models and compile cost ---------------------------------------------------------------

say "== compile cost"
# the floor: starting a process that does nothing
wallmed floor_true "$MIN_RUNS" /bin/true
rec compile floor - - true_process "$wm_med" s "/bin/true; median of $wm_runs runs"
wallmed floor_version "$MIN_RUNS" "$LMDLC" --version
rec compile floor - - lmdlc_version "$wm_med" s "lmdlc --version; median of $wm_runs runs"
wc_model=$root/examples/wall_contact/wall_contact.lmdl
compile_case wall_contact 1 "$wc_model" build
for c in lever_chain mass_chain; do
    for n in $EMIT_SIZES; do
        b=
        case " $BUILD_SIZES " in *" $n "*) b=build ;; esac
        compile_case "$c" "$n" "$(gen_model "$c" "$n")" $b || break
    done
done
[ -z "$BIG_MASS" ] || compile_case mass_chain "$BIG_MASS" "$(gen_model mass_chain "$BIG_MASS")"
# the end-to-end build of about 10^5 equations: one run (minutes of cc)
if [ -n "$BIG_MASS" ] && [ "$BIG_BUILD" = yes ]; then
    say "build mass_chain N=$BIG_MASS (one run)"
    tag=build_mass_chain_$BIG_MASS
    rm -f "$work/tmp/$tag.passes"
    timed "$tag" "$LMDLC" build --time-passes "$(gen_model mass_chain "$BIG_MASS")" -o "$work/bin/mass_chain_$BIG_MASS"
    e=$(eqs_of mass_chain "$BIG_MASS")
    if [ "$tr_rc" -eq 0 ]; then
        rec build mass_chain "$BIG_MASS" "$e" build "$tr_wall" s "one run"
        rec build mass_chain "$BIG_MASS" "$e" build_cpu_timed "$tr_cpu" s "user+system incl. the C compiler; one run"
        rec build mass_chain "$BIG_MASS" "$e" build_rss "$tr_rss" KB "peak RSS of lmdlc or the C compiler"
        passes_rec build mass_chain "$BIG_MASS" "$e" "$tag"
    else
        rec build mass_chain "$BIG_MASS" "$e" build_failed 1 - "$(why "$tr_rc" "$work/tmp/$tag.err")"
    fi
    rm -f "$work/bin/mass_chain_$BIG_MASS"
fi
rec env machine - - load_after_compile "$(loadavg)" "1/5/15 min"

# growth: time(N)/time(N/10)
awk -F, '
    ($1 == "compile" || $1 == "build") && ($5 == "emit_c" || $5 == "build" || $5 == "emit_c_cpu_timed" || $5 == "build_cpu_timed" || $5 ~ /^pass_/) && $2 != "wall_contact" {
        k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $5; v[k] = $6; e[$2 SUBSEP $3] = $4
    }
    END {
        for (k in v) {
            split(k, p, SUBSEP)
            kl = p[1] SUBSEP p[2] SUBSEP (p[3] / 10) SUBSEP p[4]
            if (!(kl in v) || v[kl] + 0 <= 0) continue
            if (p[4] ~ /_cpu_timed$/ && v[kl] + 0 < 0.05) continue
            printf "%s,%s,%s,%s,ratio10_%s,%.4g,x,time(N=%s)/time(N=%s)\n", p[1], p[2], p[3], e[p[2] SUBSEP p[3]], p[4], v[k] / v[kl], p[3], p[3] / 10
        }
    }' "$csv" | sort > "$work/tmp/ratios.csv"
cat "$work/tmp/ratios.csv" >> "$csv"

# ---- arrays: the same chain as for-loops and written out ------------------------------

# The two forms alternate, so a change in the machine's load hits both.
for n in $ARRAY_SIZES; do
    say "== arrays N=$n (for-loops vs written out)"
    for form in loop unrolled; do
        f=$work/models/array_chain_${form}_$n.lmdl
        [ -f "$f" ] || sh "$here/gen/array_chain.sh" "$n" "$form" "$f" || die "cannot generate array_chain $n $form"
        ( limited "$LMDLC" check "$f" ) > "$work/out/check_array_${form}_$n.txt" 2>&1
        e=$(awk '/before simplification:/ { print $3 }' "$work/out/check_array_${form}_$n.txt")
        rec arrays "$form" "$n" "${e:--}" check_ok 1 - "lmdlc check"
        rm -f "$work/tmp/array_${form}_$n.walls"
    done
    r=0
    while [ "$r" -lt "$REPEAT" ]; do
        for form in loop unrolled; do
            timed "array_${form}_$n" "$LMDLC" emit-c "$work/models/array_chain_${form}_$n.lmdl" -o "$work/tmp/array.c"
            [ "$tr_rc" -eq 0 ] && echo "$tr_wall" >> "$work/tmp/array_${form}_$n.walls"
        done
        r=$((r + 1))
    done
    for form in loop unrolled; do
        e=$(awk -F, -v f="$form" -v n="$n" '$1 == "arrays" && $2 == f && $3 == n { print $4; exit }' "$csv")
        rec arrays "$form" "$n" "$e" emit_c "$(median < "$work/tmp/array_${form}_$n.walls")" s "median of $REPEAT runs, alternating with the other form"
        if [ "$VALGRIND" = yes ] && [ "$n" -le 3000 ]; then
            cg=$work/callgrind/array_${form}_$n.out
            ( limited valgrind --tool=callgrind --callgrind-out-file="$cg" "$LMDLC" emit-c \
                "$work/models/array_chain_${form}_$n.lmdl" -o "$work/tmp/cg.c" ) > "$work/tmp/cg.log" 2>&1
            total=$(awk '/Collected :/ { print $NF }' "$work/tmp/cg.log")
            [ -n "$total" ] && rec arrays "$form" "$n" "$e" ir_total "$total" Ir "lmdlc emit-c"
            callgrind_annotate --threshold=100 --inclusive=yes "$cg" > "$cg.incl.txt" 2>/dev/null
            for pf in sema_add_main:parse elab_model:elaborate; do
                fn=${pf%%:*}
                ir=$(awk -v fn="$fn" '{ s = $0; sub(/ \[.*$/, "", s) } s ~ (":" fn "$") { gsub(",", "", $1); print $1; exit }' "$cg.incl.txt")
                [ -n "$ir" ] && rec arrays "$form" "$n" "$e" "ir_${pf#*:}" "$ir" Ir "inclusive Ir of $fn"
            done
        fi
    done
done

# ---- 2. the largest N that compiles within LIMIT_S ---------------------------------------------

if [ "$FIND_MAX" = yes ]; then
    say "== largest N (emit-c within $LIMIT_S s and $((MEMCAP_KB / 1000000)) GB)"
    for c in lever_chain mass_chain; do
        n=2000
        best=
        while :; do
            f=$(gen_model "$c" "$n")
            say "find-max $c N=$n"
            rm -f "$work/tmp/max_${c}_$n.passes"
            timed "max_${c}_$n" "$LMDLC" emit-c --time-passes "$f" -o "$work/tmp/max.c"
            rm -f "$work/tmp/max.c"
            [ "$n" -le 20000 ] || rm -f "$f"
            eq=$(chain_eqs "$c" "$n")
            if [ "$tr_rc" -ne 0 ]; then
                rec findmax "$c" "$n" "$eq" first_fail "$tr_wall" s "$(why "$tr_rc" "$work/tmp/max_${c}_$n.err"); peak RSS $tr_rss KB"
                break
            fi
            slow=$(sort -k2 -g "$work/tmp/max_${c}_$n.passes" | tail -n 1 | awk '{ printf "%s %.1f s", $1, $2 / 1000 }')
            if [ "$(awk -v w="$tr_wall" -v l="$LIMIT_S" 'BEGIN { print (w > l) }')" = 1 ]; then
                rec findmax "$c" "$n" "$eq" first_fail "$tr_wall" s "over $LIMIT_S s; peak RSS $tr_rss KB; slowest pass $slow"
                break
            fi
            rec findmax "$c" "$n" "$eq" ok "$tr_wall" s "peak RSS $tr_rss KB; slowest pass $slow"
            best=$n
            n=$((n * 2))
        done
        [ -z "$best" ] || rec findmax "$c" "$best" - largest_ok "$best" stages "largest N of the doubling search"
    done
fi

# ---- 3. callgrind instruction counts of emit-c ------------------------------------------------

if [ "$VALGRIND" = yes ]; then
    say "== callgrind of emit-c"
    callgrind_emit wall_contact 1 "$wc_model" "$(eqs_of wall_contact 1)"
    for c in lever_chain mass_chain; do
        lo=
        for n in $CG_SIZES; do
            callgrind_emit "$c" "$n" "$(gen_model "$c" "$n")" "$(chain_eqs "$c" "$n")"
            if [ -n "$lo" ]; then
                awk -F, -v c="$c" -v a="$lo" -v b="$n" '
                    $1 == "callgrind" && $2 == c && $5 ~ /^ir_/ && $5 != "ir_failed" { v[$3 SUBSEP $5] = $6; e[$3] = $4 }
                    END { for (k in v) { split(k, p, SUBSEP); if (p[1] != b) continue
                          kl = a SUBSEP p[2]; if (!(kl in v) || v[kl] + 0 <= 0) continue
                          m = p[2]; sub(/^ir_/, "", m)
                          printf "callgrind,%s,%s,%s,growth_%s,%.4g,x,Ir(N=%s)/Ir(N=%s); linear would be %.4g\n", c, b, e[b], m, v[k] / v[kl], b, a, b / a } }' "$csv" |
                    sort > "$work/tmp/growth.csv"
                cat "$work/tmp/growth.csv" >> "$csv"
            fi
            lo=$n
        done
    done
fi

# ---- 4. simulation cost ------------------------------------------------------------------------

say "== simulation cost"
for p in wall_contact mass_chain lever_chain; do
    "$CC" -O2 -o "$work/bin/ref_$p" "$here/reference/$p.c" -lgsl -lgslcblas -lm \
        2> "$work/tmp/ref_$p.err" || die "cannot compile reference/$p.c: $(head -n 3 "$work/tmp/ref_$p.err")"
done
wc_sim=$work/bin/wall_contact_1
[ -x "$wc_sim" ] || ( limited "$LMDLC" build "$wc_model" -o "$wc_sim" ) || die "cannot build the wall-contact simulator"

# the wall contact as shipped (1 s, 500 rows), and over 10 s (5000 rows)
for s in msbdf rk8pd; do
    sim_case wall_contact 1 "$s" "$wc_sim" "$work/bin/ref_wall_contact" ""
done
sim_case wall_contact 1 cvode "$wc_sim" "$work/bin/ref_wall_contact" "" msbdf
sim_case wall_contact_10s 1 rk8pd "$wc_sim" "$work/bin/ref_wall_contact" "--stop-time 10 --output-step 0.002"
sim_case wall_contact_10s 1 msbdf "$wc_sim" "$work/bin/ref_wall_contact" "--stop-time 10 --output-step 0.002"

# chain_sim CASE N: makes sure the simulator and its C exist
chain_sim() {
    sim=$work/bin/$1_$2
    f=$(gen_model "$1" "$2")
    [ -s "$work/c/$1_$2.c" ] || ( limited "$LMDLC" emit-c "$f" -o "$work/c/$1_$2.c" ) 2> /dev/null
    [ -x "$sim" ] && return 0
    say "build $1 N=$2 for simulation"
    ( limited "$LMDLC" build "$f" -o "$sim" ) > "$work/tmp/chain_build.log" 2>&1 && return 0
    rec sim "$1" "$2" "$(chain_eqs "$1" "$2")" build_failed 1 - "$(tail -n 1 "$work/tmp/chain_build.log")"
    return 1
}
for c in mass_chain lever_chain; do
    for n in $SIM_RK; do
        chain_sim "$c" "$n" && sim_case "$c" "$n" rk8pd "$work/bin/${c}_$n" "$work/bin/ref_$c" ""
    done
    for n in $SIM_BDF; do
        chain_sim "$c" "$n" && sim_case "$c" "$n" msbdf "$work/bin/${c}_$n" "$work/bin/ref_$c" ""
        chain_sim "$c" "$n" && sim_case "$c" "$n" cvode "$work/bin/${c}_$n" "$work/bin/ref_$c" "" msbdf
    done
done
for n in $SIM_BDF_BIG; do
    chain_sim lever_chain "$n" && sim_case lever_chain "$n" msbdf "$work/bin/lever_chain_$n" "$work/bin/ref_lever_chain" ""
done

# ---- 5. stiff solvers: msbdf against cvode --------------------------------------------------

# The lever chain per simulated second (--stop-time 1), the two solvers
# alternating run by run so that both see the same load.
say "== stiff solvers: msbdf and cvode on the lever chain"
stiff_first=
for n in $STIFF_N; do
    chain_sim lever_chain "$n" || continue
    sim=$work/bin/lever_chain_$n
    vars=$(sim_vars lever_chain "$n")
    eqs=$(chain_eqs lever_chain "$n")
    say "stiff: lever chain N=$n, $STIFF_RUNS pairs (load $(loadavg))"
    rec stiff lever_chain "$n" "$eqs" load_before "$(loadavg)" "1/5/15 min"
    : > "$work/tmp/stiff_msbdf.walls"
    : > "$work/tmp/stiff_cvode.walls"
    ok=yes
    i=0
    while [ "$i" -lt "$STIFF_RUNS" ] && [ $ok = yes ]; do
        for s in msbdf cvode; do
            timed "stiff_$s" "$sim" --quiet --solver "$s" --vars "$vars" -o /dev/null
            if [ "$tr_rc" -ne 0 ]; then
                rec stiff lever_chain "$n" "$eqs" "failed_$s" 1 - "$(why "$tr_rc" "$work/tmp/stiff_$s.err")"
                ok=no
            fi
            echo "$tr_wall" >> "$work/tmp/stiff_$s.walls"
        done
        i=$((i + 1))
    done
    [ $ok = yes ] || continue
    m_med=$(median < "$work/tmp/stiff_msbdf.walls")
    c_med=$(median < "$work/tmp/stiff_cvode.walls")
    rec stiff lever_chain "$n" "$eqs" msbdf "$m_med" s "median of $STIFF_RUNS runs alternating with cvode; one simulated second"
    rec stiff lever_chain "$n" "$eqs" cvode "$c_med" s "median of $STIFF_RUNS runs alternating with msbdf; one simulated second"
    rec stiff lever_chain "$n" "$eqs" ratio "$(ratio "$m_med" "$c_med")" x "msbdf / cvode"
    rec stiff lever_chain "$n" "$eqs" load_after "$(loadavg)" "1/5/15 min"
    # agreement of the two, and of cvode with rk8pd at tight tolerances
    for s in msbdf cvode; do
        limited "$sim" --quiet --solver "$s" --vars "$vars" -o "$work/out/stiff_${n}_$s.csv" 2> /dev/null
    done
    limited "$sim" --quiet --solver rk8pd --rtol 1e-10 --atol 1e-12 --vars "$vars" -o "$work/out/stiff_${n}_rk8pd.csv" 2> /dev/null
    awk -f "$here/csvdiff.awk" "$work/out/stiff_${n}_rk8pd.csv" "$work/out/stiff_${n}_cvode.csv" > "$work/tmp/diff.txt"
    read -r d_abs d_rel d_rows d_col < "$work/tmp/diff.txt"
    rec stiff lever_chain "$n" "$eqs" cvode_vs_rk8pd "$d_abs" - "largest |cvode - rk8pd (rtol 1e-10)| in $vars; in $d_col; $d_rows rows"
    awk -f "$here/csvdiff.awk" "$work/out/stiff_${n}_rk8pd.csv" "$work/out/stiff_${n}_msbdf.csv" > "$work/tmp/diff.txt"
    read -r d_abs d_rel d_rows d_col < "$work/tmp/diff.txt"
    rec stiff lever_chain "$n" "$eqs" msbdf_vs_rk8pd "$d_abs" - "largest |msbdf - rk8pd (rtol 1e-10)| in $vars; in $d_col; $d_rows rows"
    if [ -z "$stiff_first" ]; then
        stiff_first=$n
        stiff_m0=$m_med
        stiff_c0=$c_med
    else
        rec stiff lever_chain "$n" "$eqs" growth_msbdf "$(ratio "$m_med" "$stiff_m0")" x "time(N=$n)/time(N=$stiff_first)"
        rec stiff lever_chain "$n" "$eqs" growth_cvode "$(ratio "$c_med" "$stiff_c0")" x "time(N=$n)/time(N=$stiff_first)"
    fi
done

# ---- 6. output: every column against one ------------------------------------------------------

# The lever chain with rk8pd, writing one column, every column as CSV and
# every column as MAT to files, the three runs alternating round by round.
if [ -n "$OUT_N" ] && chain_sim lever_chain "$OUT_N"; then
    n=$OUT_N
    sim=$work/bin/lever_chain_$n
    eqs=$(chain_eqs lever_chain "$n")
    say "== output: lever chain N=$n, every column against one ($OUT_RUNS rounds)"
    rec output lever_chain "$n" "$eqs" load_before "$(loadavg)" "1/5/15 min"
    for k in one csv mat; do : > "$work/tmp/out_$k.walls"; done
    r=0
    while [ "$r" -lt "$OUT_RUNS" ]; do
        for k in one csv mat; do
            case $k in
                one) timed out_one "$sim" --quiet --solver rk8pd --vars ma1.x -o "$work/out/out_one.csv" ;;
                csv) timed out_csv "$sim" --quiet --solver rk8pd -o "$work/out/out_all.csv" ;;
                mat) timed out_mat "$sim" --quiet --solver rk8pd -o "$work/out/out_all.mat" ;;
            esac
            [ "$tr_rc" -eq 0 ] && echo "$tr_wall" >> "$work/tmp/out_$k.walls"
        done
        r=$((r + 1))
    done
    one=$(median < "$work/tmp/out_one.walls")
    for k in one csv mat; do
        rec output lever_chain "$n" "$eqs" "wall_$k" "$(median < "$work/tmp/out_$k.walls")" s "median of $(wc -l < "$work/tmp/out_$k.walls" | tr -d ' ') runs, alternating"
    done
    rec output lever_chain "$n" "$eqs" ratio_csv "$(ratio "$(median < "$work/tmp/out_csv.walls")" "$one")" x "every column as CSV / one column"
    rec output lever_chain "$n" "$eqs" ratio_mat "$(ratio "$(median < "$work/tmp/out_mat.walls")" "$one")" x "every column as MAT / one column"
    rec output lever_chain "$n" "$eqs" columns "$(head -n 1 "$work/out/out_all.csv" | awk -F, '{ print NF - 1 }')" - "columns besides time"
    rec output lever_chain "$n" "$eqs" rows "$(($(wc -l < "$work/out/out_all.csv") - 1))" - "rows"
    rec output lever_chain "$n" "$eqs" bytes_csv "$(wc -c < "$work/out/out_all.csv" | tr -d ' ')" B "every column as CSV"
    rec output lever_chain "$n" "$eqs" bytes_mat "$(wc -c < "$work/out/out_all.mat" | tr -d ' ')" B "every column as MAT"
    rec output lever_chain "$n" "$eqs" load_after "$(loadavg)" "1/5/15 min"
    # The floor of the MAT run: its bytes written alone, in 64 KB blocks,
    # to the same directory (dd from /dev/zero), less a dd that writes
    # nothing (the process and the timing around it), alternating.
    mb=$(wc -c < "$work/out/out_all.mat" | tr -d ' ')
    : > "$work/tmp/out_dd.walls"
    : > "$work/tmp/out_dd0.walls"
    r=0
    while [ "$r" -lt "$OUT_RUNS" ]; do
        rm -f "$work/out/out_dd.bin"
        timed out_dd dd if=/dev/zero of="$work/out/out_dd.bin" bs=65536 count=$(((mb + 65535) / 65536))
        [ "$tr_rc" -eq 0 ] && echo "$tr_wall" >> "$work/tmp/out_dd.walls"
        rm -f "$work/out/out_dd.bin"
        timed out_dd0 dd if=/dev/zero of="$work/out/out_dd.bin" bs=65536 count=0
        [ "$tr_rc" -eq 0 ] && echo "$tr_wall" >> "$work/tmp/out_dd0.walls"
        r=$((r + 1))
    done
    rm -f "$work/out/out_dd.bin"
    rec output lever_chain "$n" "$eqs" wall_write_mat "$(calc "$(median < "$work/tmp/out_dd.walls") - $(median < "$work/tmp/out_dd0.walls")")" s "the MAT file's bytes written alone (dd, 64 KB blocks, less a dd of nothing), medians of $(wc -l < "$work/tmp/out_dd.walls" | tr -d ' ') runs each"
    # Formatting per value: rt_dtoa against {fmt} (Dragonbox) on the values
    # of the every-column CSV (bench/dtoa/dtoa_vs_fmt.cpp).
    if [ "$FMTLIB" = yes ]; then
        dbin=$work/bin/dtoa_vs_fmt
        if "$CC" -O2 -I"$root/runtime/common" -c "$here/dtoa/dtoa_core.c" -o "$work/tmp/dtoa_core.o" \
            && "$CXX" -O2 -std=c++17 -I"$root/runtime/common" "$here/dtoa/dtoa_vs_fmt.cpp" \
                "$work/tmp/dtoa_core.o" -lfmt -o "$dbin" 2> "$work/tmp/dtoa.err" \
            && "$dbin" "$work/out/out_all.csv" 9 > "$work/tmp/dtoa.out" 2>> "$work/tmp/dtoa.err"; then
            for k in values rt_dtoa_ns fmt_ns rt_decimal_ns fmt_decimal_ns; do
                rec output lever_chain "$n" "$eqs" "dtoa_$k" "$(awk -v k="$k" '$1 == k { print $2 }' "$work/tmp/dtoa.out")" \
                    "$([ "$k" = values ] && echo - || echo ns)" "best of 9 rounds (bench/dtoa); the two texts identical"
            done
        else
            rec output lever_chain "$n" "$eqs" dtoa_failed 1 - "$(head -n 1 "$work/tmp/dtoa.err")"
        fi
    fi
    if [ "$VALGRIND" = yes ]; then
        for k in one csv mat; do
            case $k in
                one) a="--vars ma1.x -o $work/out/cg_one.csv" ;;
                csv) a="-o $work/out/cg_all.csv" ;;
                mat) a="-o $work/out/cg_all.mat" ;;
            esac
            # shellcheck disable=SC2086
            ( limited valgrind --tool=callgrind --callgrind-out-file="$work/callgrind/out_$k.out" \
                "$sim" --quiet --solver rk8pd $a ) > "$work/tmp/cg_out.log" 2>&1
            ir=$(awk '/Collected :/ { print $NF }' "$work/tmp/cg_out.log")
            [ -n "$ir" ] && rec output lever_chain "$n" "$eqs" "ir_$k" "$ir" Ir "the whole run (callgrind)"
        done
    fi
    rm -f "$work/out/out_all.csv" "$work/out/out_all.mat" "$work/out/cg_all.csv" "$work/out/cg_all.mat"
fi

if [ "$VALGRIND" = yes ]; then
    say "== cost per right-hand-side evaluation"
    # hand counts of the references' rhs (see reference/*.c):
    #   wall contact: sin, cos, 12 for the walls, 9 for the torque: 23
    #   mass chain: 4 per mass (spring: sub, mul; acceleration: sub, div) + 10 walls
    #   lever chain: 7 per stage (spring: add, mul, mul; acceleration: neg,
    #   mul, sub, div) + 2
    [ -s "$work/c/wall_contact_1.c" ] || ( limited "$LMDLC" emit-c "$wc_model" -o "$work/c/wall_contact_1.c" )
    rhs_cost wall_contact 1 rk8pd "$wc_sim" "$work/bin/ref_wall_contact" "$work/c/wall_contact_1.c" 23
    for n in $RHS_N; do
        chain_sim mass_chain "$n" &&
            rhs_cost mass_chain "$n" rk8pd "$work/bin/mass_chain_$n" "$work/bin/ref_mass_chain" \
                "$work/c/mass_chain_$n.c" "$(calc "4 * $n + 10")"
        chain_sim lever_chain "$n" &&
            rhs_cost lever_chain "$n" rk8pd "$work/bin/lever_chain_$n" "$work/bin/ref_lever_chain" \
                "$work/c/lever_chain_$n.c" "$(calc "7 * $n + 2")"
    done
fi

t_end=$(date +%s)
rec env machine - - load_end "$(loadavg)" "1/5/15 min"
rec env machine - - duration "$((t_end - t_start))" s "the whole run"

tables "$csv" > "$md" || die "cannot write $md"
say "wrote $csv and $md in $((t_end - t_start)) s"
