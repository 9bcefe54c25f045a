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
 * (TOOLS.md).  Times use 10 significant digits: enough to find the row in
 * the CSV, short enough to read.
 *
 * Failures are recorded by the modules as RtFailure values (rt_fail_*),
 * and printed here once, by main, after the rows have been flushed.
 */
#include "rt_internal.h"
#include "rt_units.h"

#include <stdarg.h>
#include <stdio.h>
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

void rt_warn(const RtSim *s, const char *fmt, ...)
{
    if (s->opt.quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(msg_out(s), "%s: warning: ", s->prog);
    vfprintf(msg_out(s), fmt, ap);
    fputc('\n', msg_out(s));
    va_end(ap);
}

/* "PROG: warning: LEAD 'col1', 'col2' TAIL", naming targets by column. */
void rt_warn_targets(const RtSim *s, const char *lead, const int *targets,
                     int n, const char *tail)
{
    const RtModel *m = s->m;
    if (s->opt.quiet)
        return;
    fprintf(msg_out(s), "%s: warning: %s", s->prog, lead);
    for (int i = 0; i < n; i++) {
        int col = m->targets[targets[i]].column;
        fprintf(msg_out(s), "%s'%s'", i ? ", " : "", col >= 0 && col < m->n_columns
                ? m->column_names[col] : "?");
    }
    fprintf(msg_out(s), "%s\n", tail);
}

void rt_usage_error(const char *prog, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: error: ", prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fprintf(stderr, "Try '%s --help' for the options.\n", prog);
}

static int known(const char *text)
{
    return text && *text;
}

/* "LOCATION: error: at t = T: " or "PROG: error: at t = T: ". */
static void lead(const RtSim *s, const char *location, const RtFailure *f)
{
    fprintf(msg_out(s), "%s: error: at t = %.10g: ", known(location) ? location
            : s->prog, f->t);
    if (f->during_init)
        fputs("initialization failed: ", msg_out(s));
}

static const char *instance_name(const RtSim *s, const char *inst)
{
    return known(inst) ? inst : (known(s->m->name) ? s->m->name : "the model");
}

static void report_eval(const RtSim *s, const RtFailure *f)
{
    const RtModel *m = s->m;
    const RtBlockInfo *b = f->index >= 0 && f->index < m->n_blocks && m->blocks
                           ? &m->blocks[f->index] : NULL;
    static const char *const what[] = {
        [RT_FAIL_SINGULAR] = "the system is singular",
        [RT_FAIL_NEWTON] = "the algebraic loop did not converge",
        [RT_FAIL_DOMAIN] = "a value is not a number (NaN or infinite)",
    };
    int code = f->code >= RT_FAIL_SINGULAR && f->code <= RT_FAIL_DOMAIN
               ? f->code : RT_FAIL_DOMAIN;
    lead(s, b ? b->location : NULL, f);
    fputs(what[code], msg_out(s));
    if (b) {
        fprintf(msg_out(s), " in block %d", f->index);
        if (known(b->what))
            fprintf(msg_out(s), ": %s", b->what);
    }
    if (f->collapsed)
        fprintf(msg_out(s), "; the %s solver's step size collapsed to %.3g s "
                "trying to get past it", s->opt.solver, f->h);
    fputc('\n', msg_out(s));
}

/* A value with its unit, as the table's axis has it. */
static void put_quantity(const RtSim *s, double v, const short *dim, int digits)
{
    char unit[96];
    rt_unit_format(dim, unit, sizeof unit);
    fprintf(msg_out(s), "%.*g%s%s", digits, v, strcmp(unit, "1") ? " " : "",
            strcmp(unit, "1") ? unit : "");
}

/* A tablelookup queried outside its grid with extrapolation = error, or
   a grid that --param made non-monotonic. */
static void report_table(const RtSim *s, const RtFailure *f)
{
    const RtModel *m = s->m;
    const RtTableInfo *tb = f->index >= 0 && f->index < m->n_tables ? &m->tables[f->index]
                                                                   : NULL;
    if (!tb) {
        lead(s, NULL, f);
        fputs("a table lookup failed\n", msg_out(s));
        return;
    }
    const double *g = s->p + tb->grid[f->axis];
    int n = tb->n[f->axis];
    const char *pname = tb->grid[f->axis] + (int)f->count < m->n_params
                        ? m->params[tb->grid[f->axis] + f->count].name : "?";
    if (f->kind == RT_FAILKIND_GRID) {
        fprintf(msg_out(s), "%s: error: invalid parameters: the grid of tablelookup "
                "in %s is not strictly monotonic: %s = ", known(tb->location)
                ? tb->location : s->prog, instance_name(s, tb->instance), pname);
        put_quantity(s, g[f->count], tb->dim[f->axis], 10);
        fprintf(msg_out(s), " does not follow %s = ", m->params[tb->grid[f->axis]
                + f->count - 1].name);
        put_quantity(s, g[f->count - 1], tb->dim[f->axis], 10);
        fputc('\n', msg_out(s));
        return;
    }
    lead(s, tb->location, f);
    fprintf(msg_out(s), "tablelookup in %s: the query%s ", instance_name(s, tb->instance),
            tb->axes == 2 ? (f->axis ? " x2" : " x1") : "");
    /* enough digits to show a query just past the end of the grid */
    put_quantity(s, f->query, tb->dim[f->axis], 15);
    fputs(" is outside the grid [", msg_out(s));
    put_quantity(s, g[0] < g[n - 1] ? g[0] : g[n - 1], tb->dim[f->axis], 10);
    fputs(", ", msg_out(s));
    put_quantity(s, g[0] < g[n - 1] ? g[n - 1] : g[0], tb->dim[f->axis], 10);
    fputs("] (extrapolation = error)\n", msg_out(s));
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
static void param_values(const RtSim *s, const RtAssertInfo *a)
{
    const RtModel *m = s->m;
    int shown = 0;
    for (int i = 0; i < a->n_params && a->params; i++) {
        int k = a->params[i];
        if (k < 0 || k >= m->n_params)
            continue;
        const RtParamInfo *pi = &m->params[k];
        fprintf(msg_out(s), "%s%s = ", shown++ ? ", " : " (", pi->name);
        if (pi->is_bool) {
            fputs(s->p[k] != 0 ? "true" : "false", msg_out(s));
        } else {
            char unit[96];
            rt_unit_format(pi->dim, unit, sizeof unit);
            fprintf(msg_out(s), "%.10g%s%s", s->p[k], strcmp(unit, "1") ? " " : "",
                    strcmp(unit, "1") ? unit : "");
        }
    }
    if (shown)
        fputc(')', msg_out(s));
}

/* "'x > 0' in relay, 'v < 0' in relay (ball.lmdl:9:5)": the relations
   that kept changing (the first one's location leads the message). */
static void culprits(const RtSim *s, const RtFailure *f)
{
    const RtModel *m = s->m;
    int n = f->n_culprits;
    if (n == 0 && f->index >= 0) {
        n = 1;
    }
    for (int k = 0; k < n; k++) {
        int i = f->n_culprits ? f->culprits[k] : f->index;
        const RtRelationInfo *r = i >= 0 && i < m->n_relations ? &m->relations[i] : NULL;
        fprintf(msg_out(s), "%s'%s' in %s", k == 0 ? "" : k == n - 1 ? " and " : ", ",
                r && r->condition ? r->condition : "?",
                instance_name(s, r ? r->instance : NULL));
        if (k > 0 && r && known(r->location))
            fprintf(msg_out(s), " (%s)", r->location);
    }
    if (n == 0)
        fputs("'?'", msg_out(s));
}

void rt_report_failure(const RtSim *s)
{
    const RtFailure *f = &s->fail;
    const RtModel *m = s->m;
    switch (f->kind) {
    case RT_FAILKIND_NONE:
        return;
    case RT_FAILKIND_EVAL:
        report_eval(s, f);
        return;
    case RT_FAILKIND_NONFINITE:
        lead(s, NULL, f);
        fprintf(msg_out(s), "%s%s%s is not a number (NaN or infinite)\n",
                f->is_der ? "der(" : "'", f->name ? f->name : "a variable",
                f->is_der ? ")" : "'");
        return;
    case RT_FAILKIND_ASSERT: {
        const RtAssertInfo *a = f->index >= 0 && f->index < m->n_asserts
                                ? &m->asserts[f->index] : NULL;
        if (f->before_start)
            fprintf(msg_out(s), "%s: error: invalid parameters: ", a && known(a->location)
                    ? a->location : s->prog);
        else
            lead(s, a ? a->location : NULL, f);
        fprintf(msg_out(s), "assertion failed in %s: %s",
                instance_name(s, a ? a->instance : NULL),
                a && a->message ? a->message : "(no message)");
        if (a)
            param_values(s, a);
        fputc('\n', msg_out(s));
        return;
    }
    case RT_FAILKIND_SOLVER: {
        const char *explicit_hint = solver_is_explicit(s->opt.solver)
            ? "; if the model is stiff, try --solver msbdf" : "";
        lead(s, NULL, f);
        if (f->code == GSL_FAILURE)
            fprintf(msg_out(s), "the %s solver cannot meet the tolerances even "
                    "with a step of %.3g s: the solution may be growing "
                    "without bound, or changing abruptly without an "
                    "event%s\n", s->opt.solver, f->h, explicit_hint);
        else
            fprintf(msg_out(s), "the %s solver failed: %s (step size %.3g s)%s\n",
                    s->opt.solver, gsl_strerror(f->code), f->h, explicit_hint);
        return;
    }
    case RT_FAILKIND_STEPS:
        lead(s, NULL, f);
        fprintf(msg_out(s), "the %s solver took more than %d steps between two "
                "output times%s\n", s->opt.solver, RT_MAX_STEPS_PER_OUTPUT,
                solver_is_explicit(s->opt.solver) ? "; the model may be too "
                "stiff for it (try --solver msbdf)" : ": the solution changes "
                "much faster than the output step");
        return;
    case RT_FAILKIND_CHATTER:
    case RT_FAILKIND_MODES: {
        const RtRelationInfo *r = f->index >= 0 && f->index < m->n_relations
                                  ? &m->relations[f->index] : NULL;
        lead(s, r ? r->location : NULL, f);
        if (f->kind == RT_FAILKIND_CHATTER)
            fprintf(msg_out(s), "chattering: %ld events within %.3g s, on ", f->count,
                    RT_CHATTER_WINDOW * s->opt.stop_time);
        else
            fputs("the conditions do not settle at one instant: ", msg_out(s));
        if (f->kind == RT_FAILKIND_MODES && f->chart >= 0 && f->chart < m->n_charts) {
            const RtChartInfo *c = &m->charts[f->chart];
            fprintf(msg_out(s), "mode chart '%s' in %s keeps switching modes%s",
                    c->name, instance_name(s, c->instance), f->n_culprits ? ", and " : "\n");
            if (!f->n_culprits)
                return;
        }
        culprits(s, f);
        fputs(f->kind == RT_FAILKIND_CHATTER ? "\n" : f->n_culprits > 1
              ? " keep changing each other's values\n"
              : " keeps changing its value when the others change theirs\n", msg_out(s));
        return;
    }
    case RT_FAILKIND_DELAY: {
        const RtDelayInfo *dl = f->index >= 0 && f->index < m->n_delays ? &m->delays[f->index]
                                                                       : NULL;
        lead(s, dl ? dl->location : NULL, f);
        if (!(f->h >= 0))
            fprintf(msg_out(s), "delay in %s: its tau is %.10g s; a delay must not be "
                    "negative\n", instance_name(s, dl ? dl->instance : NULL), f->h);
        else
            fprintf(msg_out(s), "delay in %s: its tau of %.10g s exceeds its MaximumDelay "
                    "of %.10g s\n", instance_name(s, dl ? dl->instance : NULL), f->h,
                    rt_delays_tmax(s, f->index));
        return;
    }
    case RT_FAILKIND_ZENO: {
        const RtChartInfo *c = f->index >= 0 && f->index < m->n_charts ? &m->charts[f->index]
                                                                       : NULL;
        lead(s, c ? c->location : NULL, f);
        if (f->n_culprits > 0) {
            const RtRelationInfo *r = f->culprits[0] >= 0 && f->culprits[0] < m->n_relations
                                      ? &m->relations[f->culprits[0]] : NULL;
            fprintf(msg_out(s), "mode chart '%s' in %s reset without taking the state "
                    "out of '%s'", c ? c->name : "?", instance_name(s, c ? c->instance : NULL),
                    r && r->condition ? r->condition : "?");
            if (r && known(r->location))
                fprintf(msg_out(s), " (%s)", r->location);
            fprintf(msg_out(s), ": by t = %.10g the state was deeper in it without having "
                    "left it, so the compound transition cannot fire again; the resets "
                    "accumulate below the tolerances (a Zeno limit) or no longer take "
                    "the state out; give it a mode that ends the resets, as ImpactStop's "
                    "rest\n", f->h);
            return;
        }
        fprintf(msg_out(s), "mode chart '%s' in %s resets ever faster (the last two "
                "compound transitions %.3g s apart), accumulating at a finite time "
                "(a Zeno limit); give it a mode that ends the resets, as ImpactStop's "
                "rest\n", c ? c->name : "?", instance_name(s, c ? c->instance : NULL), f->h);
        return;
    }
    case RT_FAILKIND_IO:
        lead(s, NULL, f);
        fprintf(msg_out(s), "cannot write '%s'\n", f->name ? f->name : "output");
        return;
    case RT_FAILKIND_TABLE: case RT_FAILKIND_GRID:
        report_table(s, f);
        return;
    }
}
