/*
 * rt_report.c - every message the simulator prints on stderr (an FMU
 * instance's go to its own stream, RtSim.msgs, and on to its logger).
 *
 * Messages follow the compiler's GCC format, so an editor can jump from a
 * failed run to the equation or assert involved:
 *
 *   model.lmdl:12:5: error: at t = 0.25: assertion failed in wall1: too deep
 *
 * When the source location is unknown the program name takes its place.
 * A failure report always gives the time, what failed, the instance path
 * (for blocks, the generated `what` text names the equations and their
 * variables) and the source location where the model provides one
 * (docs/tools.md).  Times use 10 significant digits: enough to find the row in
 * the CSV, short enough to read.
 *
 * Failures are recorded by the modules as RtFailure values (rt_fail_*),
 * and printed here once, by main, after the rows have been flushed.
 *
 * With LMDL_DIAGNOSTICS_FORMAT=json in the environment (the simulator's
 * --diagnostics-format=json sets it; lmdlc run and lmdlc sweep set it to
 * their own format) a message on stderr is one JSON object instead, with
 * the fields of lmdlc's (docs/tools.md, "Machine-readable diagnostics"): its
 * text is written to a memory stream between rt_msg_begin and rt_msg_end,
 * and its location goes to the location fields instead of the lead.  An
 * environment variable, not a flag in the runtime, so that the runtime
 * keeps no state of its own and a sweep's row children inherit it.
 * Messages to an embedder's stream (an FMU's log) stay text.
 */
#include "rt_internal.h"
#include "rt_json.h"
#include "rt_units.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

void rt_fail_eval(RtFailure *f, double t, int code, int block)
{
    memset(f, 0, sizeof *f);
    f->kind = RT_FAILKIND_EVAL;
    f->t = t;
    f->code = code;
    f->index = block;
}

void rt_fail_simple(RtFailure *f, RtFailKind kind, double t, int index)
{
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->t = t;
    f->index = index;
    f->chart = -1;
}

/* Where messages go: stderr, or an embedder's stream (an FMU's). */
static FILE *msg_out(const RtSim *s)
{
    return s->msgs ? s->msgs : stderr;
}

int rt_diag_json(void)
{
    const char *f = getenv(RT_DIAG_FORMAT_ENV);
    return f && !strcmp(f, "json");
}

static int known(const char *text)
{
    return text && *text;
}

/* ---- JSON Lines -------------------------------------------------------------- */

/* The number after the last ':' of s[0..*n), taken off *n; -1 if there
   is none. */
static long trailing_number(const char *s, size_t *n)
{
    size_t i = *n;
    while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
        i--;
    if (i == *n || i == 0 || s[i - 1] != ':' || *n - i > 9)
        return -1;
    long v = strtol(s + i, NULL, 10);
    *n = i - 1;
    return v;
}

static void json_number(FILE *fp, const char *key, long v)
{
    if (v > 0)
        fprintf(fp, ",\"%s\":%ld", key, v);
    else
        fprintf(fp, ",\"%s\":null", key);
}

/* "file", "line", "column", "end_line", "end_column" of a location
   "file:line:col" (or "file:line") and its end "line:col"; what is not
   known is null. */
static void json_location(FILE *fp, const char *location, const char *end)
{
    size_t n = known(location) ? strlen(location) : 0;
    long col = trailing_number(location, &n), line = trailing_number(location, &n);
    if (line < 0) {
        line = col;     /* "file:line" */
        col = -1;
    }
    if (n == 0 || line < 0) {
        fputs("\"file\":null,\"line\":null,\"column\":null,\"end_line\":null,"
              "\"end_column\":null", fp);
        return;
    }
    long eline = -1, ecol = -1;
    if (col < 0 || !known(end) || sscanf(end, "%ld:%ld", &eline, &ecol) != 2)
        eline = ecol = -1;
    fputs("\"file\":", fp);
    rt_json_string(fp, location, n);
    json_number(fp, "line", line);
    json_number(fp, "column", col);
    json_number(fp, "end_line", eline);
    json_number(fp, "end_column", ecol);
}

FILE *rt_msg_begin(RtMsg *g, FILE *to, const char *prog, const char *severity,
                   const char *location, const char *location_end)
{
    memset(g, 0, sizeof *g);
    g->to = to;
    g->severity = severity;
    g->location = location;
    g->location_end = location_end;
    if (to == stderr && rt_diag_json()) {
        g->fp = open_memstream(&g->text, &g->len);
        if (g->fp)
            return g->fp;
    }
    g->fp = to;
    fprintf(to, "%s: %s: ", known(location) ? location : prog, severity);
    return to;
}

void rt_msg_place(RtMsg *g, const char *file, long line)
{
    if (g->fp != g->to) {
        g->file = file;
        g->line = line;
    } else if (line > 0) {
        fprintf(g->fp, "%s:%ld: ", file, line);
    } else {
        fprintf(g->fp, "%s: ", file);
    }
}

void rt_msg_end(RtMsg *g)
{
    if (!g->fp)
        return;
    if (g->fp == g->to) {
        fflush(g->to);
        g->fp = NULL;
        return;
    }
    fclose(g->fp);
    g->fp = NULL;
    size_t n = g->len;
    while (n > 0 && (g->text[n - 1] == '\n' || g->text[n - 1] == '\r'))
        n--;
    fputc('{', g->to);
    if (g->file) {
        fputs("\"file\":", g->to);
        rt_json_string(g->to, g->file, strlen(g->file));
        json_number(g->to, "line", g->line);
        fputs(",\"column\":null,\"end_line\":null,\"end_column\":null", g->to);
    } else {
        json_location(g->to, g->location, g->location_end);
    }
    fprintf(g->to, ",\"severity\":\"%s\",\"message\":", g->severity);
    rt_json_string(g->to, g->text, n);
    fputs(",\"notes\":[]}\n", g->to);
    fflush(g->to);
    free(g->text);
    g->text = NULL;
}

void rt_message(FILE *to, const char *prog, const char *severity, const char *fmt, ...)
{
    RtMsg g;
    FILE *o = rt_msg_begin(&g, to, prog, severity, NULL, NULL);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(o, fmt, ap);
    va_end(ap);
    fputc('\n', o);
    rt_msg_end(&g);
}

/* ---- messages ------------------------------------------------------------------ */

void rt_warn(const RtSim *s, const char *fmt, ...)
{
    if (s->opt.quiet)
        return;
    RtMsg g;
    FILE *o = rt_msg_begin(&g, msg_out(s), s->prog, "warning", NULL, NULL);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(o, fmt, ap);
    va_end(ap);
    fputc('\n', o);
    rt_msg_end(&g);
}

/* "PROG: warning: LEAD 'col1', 'col2' TAIL", naming targets by column. */
void rt_warn_targets(const RtSim *s, const char *lead, const int *targets,
                     int n, const char *tail)
{
    const RtModel *m = s->m;
    if (s->opt.quiet)
        return;
    RtMsg g;
    FILE *o = rt_msg_begin(&g, msg_out(s), s->prog, "warning", NULL, NULL);
    fputs(lead, o);
    for (int i = 0; i < n; i++) {
        int col = m->targets[targets[i]].column;
        fprintf(o, "%s'%s'", i ? ", " : "", col >= 0 && col < m->n_columns
                ? rt_column_name(m, col) : "?");
    }
    fprintf(o, "%s\n", tail);
    rt_msg_end(&g);
}

void rt_usage_error(const char *prog, const char *fmt, ...)
{
    RtMsg g;
    FILE *o = rt_msg_begin(&g, stderr, prog, "error", NULL, NULL);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(o, fmt, ap);
    va_end(ap);
    fputc('\n', o);
    /* the hint is for a person, not a diagnostic */
    if (o == stderr)
        fprintf(stderr, "Try '%s --help' for the options.\n", prog);
    rt_msg_end(&g);
}

void rt_sets_error(const char *prog, const char *path, long line, const char *fmt, ...)
{
    RtMsg g;
    FILE *o = rt_msg_begin(&g, stderr, prog, "error", NULL, NULL);
    rt_msg_place(&g, path, line);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(o, fmt, ap);
    va_end(ap);
    fputc('\n', o);
    if (o == stderr)
        fprintf(stderr, "Try '%s --help' for the options.\n", prog);
    rt_msg_end(&g);
}

/* Starts a failure's message: "LOCATION: error: at t = T: " or
   "PROG: error: at t = T: ". */
static FILE *lead(RtMsg *g, const RtSim *s, const char *location, const char *location_end,
                  const RtFailure *f)
{
    FILE *o = rt_msg_begin(g, msg_out(s), s->prog, "error", location, location_end);
    fprintf(o, "at t = %.10g: ", f->t);
    if (f->during_init)
        fputs("initialization failed: ", o);
    return o;
}

static const char *instance_name(const RtSim *s, const char *inst)
{
    return known(inst) ? inst : (known(s->m->name) ? s->m->name : "the model");
}

static void report_eval(RtMsg *g, const RtSim *s, const RtFailure *f)
{
    const RtModel *m = s->m;
    RtBlockInfo info = {0};
    const RtBlockInfo *b = NULL;
    if (f->index >= 0 && f->index < m->n_blocks && (m->blocks || m->block_rows)) {
        info = rt_block_info(m, f->index);
        b = &info;
    }
    static const char *const what[] = {
        [RT_FAIL_SINGULAR] = "the system is singular",
        [RT_FAIL_NEWTON] = "the algebraic loop did not converge",
        [RT_FAIL_DOMAIN] = "a value is not a number (NaN or infinite)",
    };
    int code = f->code >= RT_FAIL_SINGULAR && f->code <= RT_FAIL_DOMAIN
               ? f->code : RT_FAIL_DOMAIN;
    FILE *o = lead(g, s, b ? b->location : NULL, b ? b->location_end : NULL, f);
    fputs(what[code], o);
    if (b) {
        fprintf(o, " in block %d", f->index);
        if (known(b->what))
            fprintf(o, ": %s", b->what);
    }
    if (f->collapsed)
        fprintf(o, "; the %s solver's step size collapsed to %.3g s "
                "trying to get past it", s->opt.solver, f->h);
    fputc('\n', o);
}

/* A value with its unit, as the table's axis has it. */
static void put_quantity(FILE *o, double v, const short *dim, int digits)
{
    char unit[96];
    rt_unit_format(dim, unit, sizeof unit);
    fprintf(o, "%.*g%s%s", digits, v, strcmp(unit, "1") ? " " : "",
            strcmp(unit, "1") ? unit : "");
}

/* A tablelookup queried outside its grid with extrapolation = error, or
   a grid that --param made non-monotonic. */
static void report_table(RtMsg *msg, const RtSim *s, const RtFailure *f)
{
    const RtModel *m = s->m;
    const RtTableInfo *tb = f->index >= 0 && f->index < m->n_tables ? &m->tables[f->index]
                                                                   : NULL;
    if (!tb) {
        fputs("a table lookup failed\n", lead(msg, s, NULL, NULL, f));
        return;
    }
    const double *g = s->p + tb->grid[f->axis];
    int n = tb->n[f->axis];
    const char *pname = tb->grid[f->axis] + (int)f->count < m->n_params
                        ? rt_param_info(m, tb->grid[f->axis] + f->count).name : "?";
    if (f->kind == RT_FAILKIND_GRID) {
        FILE *o = rt_msg_begin(msg, msg_out(s), s->prog, "error", tb->location,
                               tb->location_end);
        fprintf(o, "invalid parameters: the grid of tablelookup in %s is not strictly "
                "monotonic: %s = ", instance_name(s, tb->instance), pname);
        put_quantity(o, g[f->count], tb->dim[f->axis], 10);
        fprintf(o, " does not follow %s = ",
                rt_param_info(m, tb->grid[f->axis] + f->count - 1).name);
        put_quantity(o, g[f->count - 1], tb->dim[f->axis], 10);
        fputc('\n', o);
        return;
    }
    FILE *o = lead(msg, s, tb->location, tb->location_end, f);
    fprintf(o, "tablelookup in %s: the query%s ", instance_name(s, tb->instance),
            tb->axes == 2 ? (f->axis ? " x2" : " x1") : "");
    /* enough digits to show a query just past the end of the grid */
    put_quantity(o, f->query, tb->dim[f->axis], 15);
    fputs(" is outside the grid [", o);
    put_quantity(o, g[0] < g[n - 1] ? g[0] : g[n - 1], tb->dim[f->axis], 10);
    fputs(", ", o);
    put_quantity(o, g[0] < g[n - 1] ? g[n - 1] : g[0], tb->dim[f->axis], 10);
    fputs("] (extrapolation = error)\n", o);
}

/* The hint to try an implicit solver is for the explicit ones only (a
   solver added later is not assumed explicit). */
static int solver_is_explicit(const char *name)
{
    static const char *const explicit_solvers[] = {
        "rk2", "rk4", "rkf45", "rkck", "rk8pd", "msadams",
    };
    for (size_t i = 0; i < sizeof explicit_solvers / sizeof *explicit_solvers; i++)
        if (name && !strcmp(name, explicit_solvers[i]))
            return 1;
    return 0;
}

/* " (lever.r12 = -1 m, ...)": the parameters an assert reads, as the run
   had them. */
static void param_values(FILE *o, const RtSim *s, const RtAssertInfo *a)
{
    const RtModel *m = s->m;
    int shown = 0;
    for (int i = 0; i < a->n_params && a->params; i++) {
        int k = a->params[i];
        if (k < 0 || k >= m->n_params)
            continue;
        RtParamInfo info = rt_param_info(m, k);
        const RtParamInfo *pi = &info;
        fprintf(o, "%s%s = ", shown++ ? ", " : " (", pi->name);
        if (pi->is_bool) {
            fputs(s->p[k] != 0 ? "true" : "false", o);
        } else {
            char unit[96];
            rt_unit_format(pi->dim, unit, sizeof unit);
            fprintf(o, "%.10g%s%s", s->p[k], strcmp(unit, "1") ? " " : "",
                    strcmp(unit, "1") ? unit : "");
        }
    }
    if (shown)
        fputc(')', o);
}

/* "'x > 0' in relay, 'v < 0' in relay (ball.lmdl:9:5)": the relations
   that kept changing (the first one's location leads the message). */
static void culprits(FILE *o, const RtSim *s, const RtFailure *f)
{
    const RtModel *m = s->m;
    int n = f->n_culprits;
    if (n == 0 && f->index >= 0) {
        n = 1;
    }
    for (int k = 0; k < n; k++) {
        int i = f->n_culprits ? f->culprits[k] : f->index;
        const RtRelationInfo *r = i >= 0 && i < m->n_relations ? &m->relations[i] : NULL;
        fprintf(o, "%s'%s' in %s", k == 0 ? "" : k == n - 1 ? " and " : ", ",
                r && r->condition ? r->condition : "?",
                instance_name(s, r ? r->instance : NULL));
        if (k > 0 && r && known(r->location))
            fprintf(o, " (%s)", r->location);
    }
    if (n == 0)
        fputs("'?'", o);
}

/* The failure's message, begun in g (the caller ends it). */
static void report_failure(RtMsg *g, const RtSim *s)
{
    const RtFailure *f = &s->fail;
    const RtModel *m = s->m;
    FILE *o;
    switch (f->kind) {
    case RT_FAILKIND_NONE:
        return;
    case RT_FAILKIND_EVAL:
        report_eval(g, s, f);
        return;
    case RT_FAILKIND_NONFINITE:
        o = lead(g, s, NULL, NULL, f);
        fprintf(o, "%s%s%s is not a number (NaN or infinite)\n",
                f->is_der ? "der(" : "'", f->name ? f->name : "a variable",
                f->is_der ? ")" : "'");
        return;
    case RT_FAILKIND_ASSERT: {
        RtAssertInfo info = {0};
        const RtAssertInfo *a = NULL;
        if (f->index >= 0 && f->index < m->n_asserts && (m->asserts || m->assert_rows)) {
            info = rt_assert_info(m, f->index);
            a = &info;
        }
        if (f->before_start) {
            o = rt_msg_begin(g, msg_out(s), s->prog, "error", a ? a->location : NULL,
                             a ? a->location_end : NULL);
            fputs("invalid parameters: ", o);
        } else {
            o = lead(g, s, a ? a->location : NULL, a ? a->location_end : NULL, f);
        }
        fprintf(o, "assertion failed in %s: %s",
                instance_name(s, a ? a->instance : NULL),
                a && a->message ? a->message : "(no message)");
        if (a)
            param_values(o, s, a);
        fputc('\n', o);
        return;
    }
    case RT_FAILKIND_SOLVER: {
        const char *explicit_hint = solver_is_explicit(s->opt.solver)
            ? "; if the model is stiff, try --solver msbdf" : "";
        o = lead(g, s, NULL, NULL, f);
        if (f->code == GSL_FAILURE)
            fprintf(o, "the %s solver cannot meet the tolerances even "
                    "with a step of %.3g s: the solution may be growing "
                    "without bound, or changing abruptly without an "
                    "event%s\n", s->opt.solver, f->h, explicit_hint);
        else
            fprintf(o, "the %s solver failed: %s (step size %.3g s)%s\n",
                    s->opt.solver, gsl_strerror(f->code), f->h, explicit_hint);
        return;
    }
    case RT_FAILKIND_STEPS:
        o = lead(g, s, NULL, NULL, f);
        fprintf(o, "the %s solver took more than %d steps between two "
                "output times%s\n", s->opt.solver, RT_MAX_STEPS_PER_OUTPUT,
                solver_is_explicit(s->opt.solver) ? "; the model may be too "
                "stiff for it (try --solver msbdf)" : ": the solution changes "
                "much faster than the output step");
        return;
    case RT_FAILKIND_CHATTER:
    case RT_FAILKIND_MODES: {
        const RtRelationInfo *r = f->index >= 0 && f->index < m->n_relations
                                  ? &m->relations[f->index] : NULL;
        o = lead(g, s, r ? r->location : NULL, r ? r->location_end : NULL, f);
        if (f->kind == RT_FAILKIND_CHATTER)
            fprintf(o, "chattering: %ld events within %.3g s, on ", f->count,
                    RT_CHATTER_WINDOW * s->opt.stop_time);
        else
            fputs("the conditions do not settle at one instant: ", o);
        if (f->kind == RT_FAILKIND_MODES && f->chart >= 0 && f->chart < m->n_charts) {
            const RtChartInfo *c = &m->charts[f->chart];
            fprintf(o, "mode chart '%s' in %s keeps switching modes%s",
                    c->name, instance_name(s, c->instance), f->n_culprits ? ", and " : "\n");
            if (!f->n_culprits)
                return;
        }
        culprits(o, s, f);
        fputs(f->kind == RT_FAILKIND_CHATTER ? "\n" : f->n_culprits > 1
              ? " keep changing each other's values\n"
              : " keeps changing its value when the others change theirs\n", o);
        return;
    }
    case RT_FAILKIND_DELAY: {
        const RtDelayInfo *dl = f->index >= 0 && f->index < m->n_delays ? &m->delays[f->index]
                                                                       : NULL;
        o = lead(g, s, dl ? dl->location : NULL, dl ? dl->location_end : NULL, f);
        if (!(f->h >= 0))
            fprintf(o, "delay in %s: its tau is %.10g s; a delay must not be "
                    "negative\n", instance_name(s, dl ? dl->instance : NULL), f->h);
        else
            fprintf(o, "delay in %s: its tau of %.10g s exceeds its MaximumDelay "
                    "of %.10g s\n", instance_name(s, dl ? dl->instance : NULL), f->h,
                    rt_delays_tmax(s, f->index));
        return;
    }
    case RT_FAILKIND_ZENO: {
        const RtChartInfo *c = f->index >= 0 && f->index < m->n_charts ? &m->charts[f->index]
                                                                       : NULL;
        o = lead(g, s, c ? c->location : NULL, c ? c->location_end : NULL, f);
        if (f->n_culprits > 0) {
            const RtRelationInfo *r = f->culprits[0] >= 0 && f->culprits[0] < m->n_relations
                                      ? &m->relations[f->culprits[0]] : NULL;
            fprintf(o, "mode chart '%s' in %s reset without taking the state "
                    "out of '%s'", c ? c->name : "?", instance_name(s, c ? c->instance : NULL),
                    r && r->condition ? r->condition : "?");
            if (r && known(r->location))
                fprintf(o, " (%s)", r->location);
            fprintf(o, ": by t = %.10g the state was deeper in it without having "
                    "left it, so the compound transition cannot fire again; the resets "
                    "accumulate below the tolerances (a Zeno limit) or no longer take "
                    "the state out; give it a mode that ends the resets, as ImpactStop's "
                    "rest\n", f->h);
            return;
        }
        fprintf(o, "mode chart '%s' in %s resets ever faster (the last two "
                "compound transitions %.3g s apart), accumulating at a finite time "
                "(a Zeno limit); give it a mode that ends the resets, as ImpactStop's "
                "rest\n", c ? c->name : "?", instance_name(s, c ? c->instance : NULL), f->h);
        return;
    }
    case RT_FAILKIND_STEADY:
        o = lead(g, s, NULL, NULL, f);
        fputs("--steady-state: no steady state near the initial values: ", o);
        for (int k = 0; k < f->n_culprits; k++) {
            int j = f->culprits[k];
            fprintf(o, "%sder(%s) stays %.6g", k == 0 ? "" : k == f->n_culprits - 1
                    ? " and " : ", ", j >= 0 && j < m->n_states ? rt_state_name(m, j) : "?",
                    j >= 0 && j < m->n_states ? s->dx[j] : NAN);
        }
        fputs(" (SI) at the closest point found; a state that only integrates (a "
              "position moving at a constant speed, a charge under a constant "
              "current) has no steady state\n", o);
        return;
    case RT_FAILKIND_IO:
        o = lead(g, s, NULL, NULL, f);
        fprintf(o, "cannot write '%s'\n", f->name ? f->name : "output");
        return;
    case RT_FAILKIND_TABLE: case RT_FAILKIND_GRID:
        report_table(g, s, f);
        return;
    }
}

void rt_report_failure(const RtSim *s)
{
    RtMsg g = {0};
    report_failure(&g, s);
    rt_msg_end(&g);
}
