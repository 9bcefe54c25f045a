/*
 * rt_main.c - the simulator's main() and its command line (docs/tools.md).
 *
 * Generated code defines only `const RtModel rt_model`; this is the rest
 * of the executable.  The run is one readable sequence:
 *
 *   options -> parameters -> columns (--vars) -> files -> header
 *   -> initialization -> integration -> report
 *
 * With --sweep, rt_sweep.c runs the rest of that sequence once per row,
 * each row in a forked child that comes back here (docs/sweeps.md).
 *
 * Everything that can be refused is refused before any file changes, so
 * a mistyped --param never truncates last run's results: the options,
 * parameters and columns first, then both output files are opened
 * without truncation and checked (openable, not one file twice, the
 * event log not the results' units file RESULTS.meta), and
 * only then truncated (open_outputs).  A bad command line exits 1; a
 * failed simulation exits 3 after its rows have been flushed, with one
 * report on stderr.
 *
 * Options take their value as the next argument or after '='
 * (--stop-time 2, --stop-time=2); -o also takes -oFILE.
 */
#include "rt_internal.h"
#include "rt_number.h"
#include "rt_sidecar.h"
#include "rt_sweep.h"
#include "rt_units.h"
#include "rt_usage.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#define RT_MAX_ROWS 1e8     /* --output-step that would write more: refused */

static const struct {
    const char *name;
    const gsl_odeiv2_step_type *const *type;
} steppers[] = {
    {"rk2", &gsl_odeiv2_step_rk2},       {"rk4", &gsl_odeiv2_step_rk4},
    {"rkf45", &gsl_odeiv2_step_rkf45},   {"rkck", &gsl_odeiv2_step_rkck},
    {"rk8pd", &gsl_odeiv2_step_rk8pd},   {"rk1imp", &gsl_odeiv2_step_rk1imp},
    {"rk2imp", &gsl_odeiv2_step_rk2imp}, {"rk4imp", &gsl_odeiv2_step_rk4imp},
    {"bsimp", &gsl_odeiv2_step_bsimp},   {"msadams", &gsl_odeiv2_step_msadams},
    {"msbdf", &gsl_odeiv2_step_msbdf},
};
enum { N_STEPPERS = sizeof steppers / sizeof steppers[0] };

/* The options that take a value, for parsing and for suggestions. */
static const char *const value_options[] = {
    "--stop-time", "--output-step", "--rtol", "--atol", "--solver",
    "--param", "--vars", "--events", "--max-step",
    "--sweep", "--sweep-summary", "--sweep-row", "--input",
    "--linearize", "--linearize-inputs", "--linearize-outputs",
};
static const char *const all_options[] = {
    "--stop-time", "--output-step", "--rtol", "--atol", "--solver",
    "--param", "--vars", "--events", "--max-step", "--quiet", "--no-event-emit", "--help",
    "--steady-state",
    "-o",
    "--sweep", "--sweep-summary", "--sweep-row", "--sweep-collect",
    "--sweep-check", "--diagnostics-format", "--input",
    "--linearize", "--linearize-inputs", "--linearize-outputs",
};

static const char format_option[] = "--diagnostics-format";

/* What the command line said, before it is checked against the model. */
typedef struct CmdLine {
    RtOptions opt;
    int have_step;          /* --output-step was given */
    char **params;          /* --param values, in order */
    int n_params;
    const char *vars;       /* --vars value, or NULL */
    RtSweepOptions sweep;   /* --sweep and its options (rt_sweep.c) */
    int help;
} CmdLine;

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void usage(const RtModel *m, const char *prog)
{
    printf("Usage: %s [OPTIONS]\n"
           "Simulates %s and writes the results as CSV.\n\n",
           prog, m->name ? m->name : "the model");
    fputs(RT_USAGE_OPTIONS "\n" RT_USAGE_EXIT, stdout);
    /* every one of them: a parameter left out could not be found here */
    int shown = 0;
    for (int i = 0; i < m->n_params; i++) {
        RtParamInfo info = rt_param_info(m, i);
        const RtParamInfo *pi = &info;
        if (pi->structural || rt_param_fixed(pi))
            continue;
        if (!shown++)
            printf("\nRun-time parameters (--param NAME=VALUE reads a bare number in "
                   "the unit shown):\n");
        if (pi->is_bool) {
            printf("  %-30s %s\n", pi->name, pi->value != 0 ? "true" : "false");
        } else {
            char text[160];
            rt_param_in_declared_unit(pi, pi->value, text, sizeof text);
            printf("  %-30s %s\n", pi->name, text);
        }
    }
}

/* A number option: the whole text must be one number (rt_number.h). */
static int parse_number(const char *prog, const char *opt, const char *text,
                        double *out)
{
    const char *why = NULL;
    if (rt_number_parse(text, 1, out, &why) != RT_NUM_OK) {
        rt_usage_error(prog, "%s expects a number, not '%s': %s", opt, text,
                       why);
        return -1;
    }
    return 0;
}

static int set_value(CmdLine *c, const char *prog, const char *opt,
                     const char *val)
{
    RtOptions *o = &c->opt;
    if (!strcmp(opt, "--stop-time"))
        return parse_number(prog, opt, val, &o->stop_time);
    if (!strcmp(opt, "--output-step")) {
        c->have_step = 1;
        return parse_number(prog, opt, val, &o->output_step);
    }
    if (!strcmp(opt, "--rtol"))
        return parse_number(prog, opt, val, &o->rtol);
    if (!strcmp(opt, "--max-step")) {
        if (parse_number(prog, opt, val, &o->max_step) != 0)
            return -1;
        if (!(o->max_step > 0)) {
            rt_usage_error(prog, "--max-step must be positive, not %g", o->max_step);
            return -1;
        }
        return 0;
    }
    if (!strcmp(opt, "--atol"))
        return parse_number(prog, opt, val, &o->atol);
    if (!strcmp(opt, "--solver")) {
        o->solver_given = 1;
        if (!strcmp(val, "cvode")) {    /* SUNDIALS, not gsl_odeiv2 */
            o->solver = "cvode";
            o->stepper = NULL;
            o->backend = &rt_stepper_cvode;
            return 0;
        }
        for (int i = 0; i < N_STEPPERS; i++) {
            if (!strcmp(val, steppers[i].name)) {
                o->solver = steppers[i].name;
                o->stepper = *steppers[i].type;
                return 0;
            }
        }
        rt_usage_error(prog, "unknown solver '%s'; the solvers are rk2 rk4 "
                       "rkf45 rkck rk8pd rk1imp rk2imp rk4imp bsimp msadams "
                       "msbdf cvode", val);
        return -1;
    }
    if (!strcmp(opt, "--param")) {
        c->params[c->n_params++] = (char *)val;
        return 0;
    }
    if (!strcmp(opt, "--vars")) {
        c->vars = val;
        return 0;
    }
    if (!strcmp(opt, "--events")) {
        o->events_path = val;
        return 0;
    }
    if (!strcmp(opt, "--input")) {
        rt_inputs_add(o, val, "an input of the model");
        return 0;
    }
    if (!strcmp(opt, "--linearize")) {
        static const char *const formats[] = {"text", "json", "mat"};
        for (int i = 0; i < 3; i++) {
            if (!strcmp(val, formats[i])) {
                o->linearize = RT_LINEARIZE_TEXT + i;
                return 0;
            }
        }
        rt_usage_error(prog, "--linearize is text, json or mat, not '%s'", val);
        return -1;
    }
    if (!strcmp(opt, "--linearize-inputs")) {
        o->lin_inputs = val;
        return 0;
    }
    if (!strcmp(opt, "--linearize-outputs")) {
        o->lin_outputs = val;
        return 0;
    }
    if (!strncmp(opt, "--sweep", 7))
        return rt_sweep_option(&c->sweep, prog, opt, val);
    o->out_path = val;  /* -o */
    return 0;
}

static int takes_value(const char *opt)
{
    for (size_t i = 0; i < sizeof value_options / sizeof value_options[0]; i++)
        if (!strcmp(opt, value_options[i]))
            return 1;
    return 0;
}

static int parse_cmdline(CmdLine *c, const char *prog, int argc, char **argv)
{
    RtOptions *o = &c->opt;
    o->stop_time = 1;
    o->rtol = 1e-6;
    o->atol = 1e-9;
    o->solver = "msbdf";
    o->stepper = gsl_odeiv2_step_msbdf;
    c->params = rt_xcalloc((size_t)argc, sizeof *c->params);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            c->help = 1;
            continue;
        }
        if (!strcmp(arg, "--quiet")) {
            o->quiet = 1;
            continue;
        }
        if (!strcmp(arg, "--no-event-emit")) {
            o->no_event_emit = 1;
            continue;
        }
        if (!strcmp(arg, "--steady-state")) {
            o->steady_state = 1;
            continue;
        }
        if (rt_sweep_flag(&c->sweep, arg))
            continue;
        if (!strcmp(arg, format_option)) {
            i++;            /* taken by take_format */
            continue;
        }
        if (!strncmp(arg, format_option, sizeof format_option - 1)
            && arg[sizeof format_option - 1] == '=')
            continue;
        if (!strncmp(arg, "-o", 2)) {
            const char *val = arg[2] ? arg + 2 : (i + 1 < argc ? argv[++i] : NULL);
            if (arg[2] == '=')
                val = arg + 3;
            if (!val) {
                rt_usage_error(prog, "-o expects a file name");
                return -1;
            }
            o->out_path = val;
            continue;
        }
        char name[32];
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        if (len < sizeof name) {
            memcpy(name, arg, len);
            name[len] = 0;
        } else {
            name[0] = 0;
        }
        if (!takes_value(name)) {
            if (arg[0] == '-') {
                const char *hint = rt_names_suggest(rt_names_of(all_options),
                    (int)(sizeof all_options / sizeof all_options[0]), arg, len);
                if (hint)
                    rt_usage_error(prog, "unknown option '%.*s'; did you mean "
                                   "'%s'?", (int)len, arg, hint);
                else
                    rt_usage_error(prog, "unknown option '%.*s'", (int)len, arg);
            } else {
                rt_usage_error(prog, "unexpected argument '%s'", arg);
            }
            return -1;
        }
        const char *val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!val) {
            rt_usage_error(prog, "%s expects a value", name);
            return -1;
        }
        if (set_value(c, prog, name, val) != 0)
            return -1;
    }
    return 0;
}

static int check_options(CmdLine *c, const char *prog)
{
    RtOptions *o = &c->opt;
    if (o->stop_time < 0) {
        rt_usage_error(prog, "--stop-time must not be negative");
        return -1;
    }
    if (!c->have_step)
        o->output_step = o->stop_time > 0 ? o->stop_time / 500 : 1;
    if (!(o->output_step > 0)) {
        rt_usage_error(prog, "--output-step must be positive");
        return -1;
    }
    if (o->stop_time / o->output_step > RT_MAX_ROWS) {
        rt_usage_error(prog, "--output-step %g would write more than %.0e rows",
                       o->output_step, RT_MAX_ROWS);
        return -1;
    }
    if (!(o->rtol > 0 && o->rtol < 1)) {
        /* rtol >= 1 would accept any answer as accurate */
        rt_usage_error(prog, "--rtol must be between 0 and 1 (exclusive), not "
                       "%g", o->rtol);
        return -1;
    }
    if (!(o->atol > 0)) {
        /* atol = 0 would ask for a relative error where a state is 0. */
        rt_usage_error(prog, "--atol must be positive, not %g", o->atol);
        return -1;
    }
    return 0;
}

/* The list without its names "time" (the first column of every file,
   named or not), when no column of the model is called so; malloc'ed.
   The columns are searched only when the list names "time": a model's
   31,000 names cost more than the rest of reading the list. */
static char *without_time(const RtModel *m, int shown, const char *vars)
{
    char *out = rt_xcalloc(strlen(vars) + 1, 1);
    size_t n = 0;
    int dropped = 0;
    for (const char *at = vars;;) {
        const char *comma = rt_names_end(at);
        size_t len = comma ? (size_t)(comma - at) : strlen(at);
        if (!(len == 4 && !memcmp(at, "time", 4))) {
            if (n)
                out[n++] = ',';
            memcpy(out + n, at, len);
            n += len;
        } else {
            dropped = 1;
        }
        if (!comma)
            break;
        at = comma + 1;
    }
    out[n] = 0;
    for (int i = 0; dropped && i < shown; i++)
        if (!strcmp(rt_column_name(m, i), "time")) {
            free(out);
            return rt_xstrdup(vars);
        }
    return out;
}

/* --vars A,B,...: column indices, in the order given. */
static int select_columns(RtSim *s, const char *vars)
{
    const RtModel *m = s->m;
    int shown = m->n_columns - m->n_hidden;   /* --vars may name these */
    if (!vars) {
        s->opt.n_vars = shown - m->n_on_request;
        s->opt.vars = rt_xcalloc((size_t)m->n_columns + 1, sizeof *s->opt.vars);
        for (int i = 0; i < s->opt.n_vars; i++)
            s->opt.vars[i] = i;
        return 0;
    }
    const char *at;
    size_t len;
    char *asked = without_time(m, shown, vars);
    if (!*asked && !strcmp(vars, "time")) {     /* the time alone */
        free(asked);
        s->opt.n_vars = 0;
        s->opt.vars = rt_xcalloc(1, sizeof *s->opt.vars);
        return 0;
    }
    if (!*asked) {                  /* "time," or ",time": say the empty name */
        free(asked);
        asked = rt_xstrdup(vars);
    }
    s->opt.vars = rt_names_list(rt_column_names(m), shown, asked, 0, &s->opt.n_vars, &at, &len);
    if (s->opt.vars) {
        free(asked);
        return 0;
    }
    const char *hint = len ? rt_names_suggest(rt_column_names(m), shown, at, len) : NULL;
    if (!len)
        rt_usage_error(s->prog, "--vars: empty column name");
    else if (hint)
        rt_usage_error(s->prog, "--vars: unknown column '%.*s'; did "
                       "you mean '%s'?", (int)len, at, hint);
    else
        rt_usage_error(s->prog, "--vars: unknown column '%.*s'", (int)len, at);
    free(asked);
    return -1;
}

/* An output file, opened without changing it yet (see open_outputs). */
typedef struct Output {
    const char *path;       /* as given; NULL or "-" is standard output */
    const char *what;       /* for messages */
    int fd;                 /* -1 for standard output */
    int created;            /* it did not exist: remove it if refused */
    struct stat st;         /* what fd is */
} Output;

static int output_open(const char *prog, Output *o)
{
    o->fd = -1;
    o->created = 0;
    if (!o->path || !strcmp(o->path, "-"))
        return 0;
    o->fd = open(o->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (o->fd >= 0)
        o->created = 1;
    else if (errno == EEXIST)
        o->fd = open(o->path, O_WRONLY | O_CLOEXEC);   /* no O_TRUNC yet */
    if (o->fd < 0 || fstat(o->fd, &o->st) != 0) {
        rt_usage_error(prog, "cannot open %s '%s': %s", o->what, o->path,
                       strerror(errno));
        if (o->fd >= 0)
            close(o->fd);
        o->fd = -1;
        return -1;
    }
    return 0;
}

static void output_abandon(Output *o)
{
    if (o->fd < 0)
        return;
    close(o->fd);
    if (o->created)
        unlink(o->path);
    o->fd = -1;
}

/* Whether the file st is the directory entry RESULTS.meta of the results
   file `out` (through any spelling of the path or a hard link: same
   device and inode), which rt_meta_write replaces.  A symbolic link
   named RESULTS.meta is replaced itself, not what it points to, so it is
   not followed. */
static int is_meta_of(const char *out, const struct stat *st)
{
    char *meta = rt_meta_path(out);
    struct stat mst;
    int same = lstat(meta, &mst) == 0 && mst.st_dev == st->st_dev && mst.st_ino == st->st_ino;
    free(meta);
    return same;
}

/* The results file and the event log.  A refused command line must
   change no file: each file is opened (or created) without truncation,
   both are checked (not one file twice, through links too), and only
   then are they truncated.  If anything is refused, files this run
   created are removed and existing ones were never touched. */
static int open_outputs(RtSim *s)
{
    Output res = {s->opt.out_path, "the results file", -1, 0, {0}};
    Output ev = {s->opt.events_path, "the event log", -1, 0, {0}};
    int have_ev = s->opt.events_path != NULL;
    if (have_ev && (!res.path || !strcmp(res.path, "-"))
        && !strcmp(ev.path, "-")) {
        rt_usage_error(s->prog, "the results and the event log cannot both go "
                       "to standard output");
        return -1;
    }
    /* none of them is a file the run reads (rt_inputs.c): not the
       results, not the event log, not the units file beside the results,
       which rt_meta_write replaces */
    char *meta = res.path && strcmp(res.path, "-") ? rt_meta_path(res.path) : NULL;
    int input = rt_refuse_input(s->prog, &s->opt, res.path, 0, "the results")
                || rt_refuse_input(s->prog, &s->opt, meta, 1, "the units file")
                || (have_ev && rt_refuse_input(s->prog, &s->opt, ev.path, 0,
                                               "the event log"));
    free(meta);
    if (input)
        return -1;
    if (output_open(s->prog, &res) != 0)
        return -1;
    if (have_ev && output_open(s->prog, &ev) != 0) {
        output_abandon(&res);
        return -1;
    }
    if (have_ev && res.fd >= 0 && ev.fd >= 0 && S_ISREG(res.st.st_mode)
        && res.st.st_dev == ev.st.st_dev && res.st.st_ino == ev.st.st_ino) {
        rt_usage_error(s->prog, "-o and --events name the same file ('%s'%s%s%s): "
                       "the event log would overwrite the results",
                       res.path, strcmp(res.path, ev.path) ? " and '" : "",
                       strcmp(res.path, ev.path) ? ev.path : "",
                       strcmp(res.path, ev.path) ? "'" : "");
        /* one file: the second open found it, so only res may have
           created it */
        close(ev.fd);
        output_abandon(&res);
        return -1;
    }
    if (have_ev && res.fd >= 0 && ev.fd >= 0 && S_ISREG(res.st.st_mode)
        && is_meta_of(res.path, &ev.st)) {
        rt_usage_error(s->prog, "--events '%s' is the units file of the results "
                       "('%s.meta', written beside '%s'): it would replace the "
                       "event log; name another file", ev.path, res.path, res.path);
        output_abandon(&ev);
        output_abandon(&res);
        return -1;
    }
    /* Everything is known good: now the files may change. */
    Output *outs[] = {&res, &ev};
    FILE **fps[] = {&s->out, &s->events};
    for (int i = 0; i < 1 + have_ev; i++) {
        Output *o = outs[i];
        if (o->fd < 0) {
            *fps[i] = stdout;
            continue;
        }
        int bad = S_ISREG(o->st.st_mode) && !o->created && ftruncate(o->fd, 0) != 0;
        if (!bad)
            *fps[i] = fdopen(o->fd, "w");
        if (!*fps[i]) {
            rt_usage_error(s->prog, "cannot %s %s '%s': %s", bad ? "truncate"
                           : "open", o->what, o->path, strerror(errno));
            close(o->fd);
            if (i == 0)
                close(ev.fd);
            return -1;
        }
    }
    return 0;
}

/* Closes a results file; a failed flush or close (a full disk, a failing
   device) fails the run. */
static int close_output(RtSim *s, FILE *fp, const char *path)
{
    if (!fp)
        return 0;
    int bad = fflush(fp) != 0;
    bad |= fp == stdout ? 0 : fclose(fp) != 0;
    if (bad && s->fail.kind == RT_FAILKIND_NONE) {
        rt_fail_simple(&s->fail, RT_FAILKIND_IO, s->t, -1);
        s->fail.name = path ? path : "standard output";
    }
    return bad ? -1 : 0;
}

/* --diagnostics-format json|text, before anything can be said: it sets
   the environment variable that rt_report.c reads, so that a sweep's row
   children have it too.  0, or -1 after a message. */
static int take_format(const char *prog, int argc, char **argv)
{
    size_t len = sizeof format_option - 1;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (!strcmp(argv[i], format_option))
            v = i + 1 < argc ? argv[++i] : "";
        else if (!strncmp(argv[i], format_option, len) && argv[i][len] == '=')
            v = argv[i] + len + 1;
        else
            continue;
        if (strcmp(v, "json") && strcmp(v, "text")) {
            rt_usage_error(prog, "--diagnostics-format is json or text, not '%s'", v);
            return -1;
        }
        setenv(RT_DIAG_FORMAT_ENV, v, 1);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const RtModel *m = &rt_model;
    const char *prog = argc > 0 && argv[0] && *argv[0] ? base_name(argv[0]) : "simulator";
    gsl_set_error_handler_off();
    if (take_format(prog, argc, argv) != 0)
        return RT_EXIT_USAGE;

    if (m->abi != RT_ABI_VERSION) {
        rt_message(stderr, prog, "error", "the model was generated for runtime "
                   "interface %d, but this runtime implements %d; build it "
                   "again with the same lmdlc", m->abi, RT_ABI_VERSION);
        return RT_EXIT_SIM;
    }

    CmdLine cl;
    memset(&cl, 0, sizeof cl);
    int status = RT_EXIT_OK;
    RtSim sim;
    memset(&sim, 0, sizeof sim);
    sim.prog = prog;
    if (parse_cmdline(&cl, prog, argc, argv) != 0) {
        free(cl.opt.inputs);
        free(cl.params);
        return RT_EXIT_USAGE;
    }
    if (cl.help) {
        usage(m, prog);
        free(cl.opt.inputs);
        free(cl.params);
        return RT_EXIT_OK;
    }
    if (check_options(&cl, prog) != 0) {
        free(cl.opt.inputs);
        free(cl.params);
        return RT_EXIT_USAGE;
    }
    sim.opt = cl.opt;
    rt_sim_alloc(&sim, m);
    if (rt_params_apply(&sim, cl.params, cl.n_params) != 0
        || select_columns(&sim, cl.vars) != 0 || rt_linearize_select(&sim) != 0) {
        status = RT_EXIT_USAGE;
        goto out;
    }
    if (cl.sweep.given && sim.opt.linearize) {
        rt_usage_error(prog, "--linearize linearizes one run: it cannot be used with --sweep");
        status = RT_EXIT_USAGE;
        goto out;
    }
    if (cl.sweep.given) {
        /* every row runs in a child that comes back here (rt_sweep.c) */
        status = rt_sweep_run(&sim, &cl.sweep, cl.vars);
        if (status != RT_SWEEP_CHILD)
            goto out;
        status = RT_EXIT_OK;
    }
    /* parameters out of range fail now, before any file is touched */
    if (rt_check_grids(&sim) != 0 || rt_check_param_asserts(&sim) != 0)
        goto out;
    /* From the truncation of the results file until its header is
       written, a terminating signal waits: a run stopped there leaves a
       file with a header and no rows (a MAT file that reads back), not an
       empty one. */
    rt_hold_signals();
    if (open_outputs(&sim) != 0) {
        rt_release_signals();
        status = RT_EXIT_USAGE;
        goto out;
    }
    /* --linearize: -o is where the linear model goes, and the run to
       the point writes no rows */
    FILE *lin_out = NULL;
    if (sim.opt.linearize) {
        lin_out = sim.out;
        sim.out = NULL;
    } else {
        rt_meta_write(&sim);    /* RESULTS.meta: the units, for lmdlc plot */
    }
    sim.progress = rt_progress_new(!sim.opt.quiet, sim.opt.stop_time);
    int header = sim.out ? rt_csv_header(&sim) : 0;
    rt_release_signals();
    if (header != 0 || rt_csv_events_header(&sim) != 0
        || rt_init(&sim) != 0 || rt_integrate_setup(&sim) != 0
        || rt_run(&sim) != 0)
        status = RT_EXIT_SIM;
    if (lin_out) {
        if (status == RT_EXIT_OK && rt_linearize(&sim, lin_out) != 0)
            status = RT_EXIT_SIM;
        rt_progress_done(sim.progress);
        sim.progress = NULL;
        if (close_output(&sim, lin_out, sim.opt.out_path) != 0)
            status = RT_EXIT_SIM;
    }
out:
    /* the rows still in the batch, also after a failure (rt_csv.c) */
    if (sim.out && rt_csv_flush(&sim) != 0)
        status = RT_EXIT_SIM;
    if (sim.out)
        close_output(&sim, sim.out, sim.opt.out_path);
    if (sim.events && sim.events != sim.out)
        close_output(&sim, sim.events, sim.opt.events_path);
    if (sim.fail.kind != RT_FAILKIND_NONE) {
        rt_progress_done(sim.progress);
        sim.progress = NULL;
        rt_report_failure(&sim);
        status = RT_EXIT_SIM;
    }
    rt_sim_free(&sim);
    free(sim.opt.inputs);
    free(sim.opt.lin_in);
    free(sim.opt.lin_out);
    free(cl.params);
    return status;
}
