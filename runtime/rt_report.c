/*
 * rt_report.c - every message the simulator prints on stderr.
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
}

void rt_warn(const RtSim *s, const char *fmt, ...)
{
    if (s->opt.quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: warning: ", s->prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* "PROG: warning: LEAD 'col1', 'col2' TAIL", naming targets by column. */
void rt_warn_targets(const RtSim *s, const char *lead, const int *targets,
                     int n, const char *tail)
{
    const RtModel *m = s->m;
    if (s->opt.quiet)
        return;
    fprintf(stderr, "%s: warning: %s", s->prog, lead);
    for (int i = 0; i < n; i++) {
        int col = m->targets[targets[i]].column;
        fprintf(stderr, "%s'%s'", i ? ", " : "", col >= 0 && col < m->n_columns
                ? m->column_names[col] : "?");
    }
    fprintf(stderr, "%s\n", tail);
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
    fprintf(stderr, "%s: error: at t = %.10g: ", known(location) ? location
            : s->prog, f->t);
    if (f->during_init)
        fputs("initialization failed: ", stderr);
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
    fputs(what[code], stderr);
    if (b) {
        fprintf(stderr, " in block %d", f->index);
        if (known(b->what))
            fprintf(stderr, ": %s", b->what);
    }
    fputc('\n', stderr);
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
        fprintf(stderr, "%s%s%s is not a number (NaN or infinite)\n",
                f->is_der ? "der(" : "'", f->name ? f->name : "a variable",
                f->is_der ? ")" : "'");
        return;
    case RT_FAILKIND_ASSERT: {
        const RtAssertInfo *a = f->index >= 0 && f->index < m->n_asserts
                                ? &m->asserts[f->index] : NULL;
        lead(s, a ? a->location : NULL, f);
        fprintf(stderr, "assertion failed in %s: %s\n",
                instance_name(s, a ? a->instance : NULL),
                a && a->message ? a->message : "(no message)");
        return;
    }
    case RT_FAILKIND_SOLVER: {
        const char *explicit_hint = s->opt.stepper == gsl_odeiv2_step_msbdf
            || s->opt.stepper == gsl_odeiv2_step_bsimp
            || s->opt.backend == &rt_stepper_cvode ? ""
            : "; if the model is stiff, try --solver msbdf";
        lead(s, NULL, f);
        if (f->code == GSL_FAILURE)
            fprintf(stderr, "the %s solver cannot meet the tolerances even "
                    "with a step of %.3g s: the solution may be growing "
                    "without bound, or changing abruptly without an "
                    "event%s\n", s->opt.solver, f->h, explicit_hint);
        else
            fprintf(stderr, "the %s solver failed: %s (step size %.3g s)%s\n",
                    s->opt.solver, gsl_strerror(f->code), f->h, explicit_hint);
        return;
    }
    case RT_FAILKIND_STEPS:
        lead(s, NULL, f);
        fprintf(stderr, "the %s solver took more than %d steps between two "
                "output times; the model may be too stiff for it (try "
                "--solver msbdf)\n", s->opt.solver, RT_MAX_STEPS_PER_OUTPUT);
        return;
    case RT_FAILKIND_CHATTER:
    case RT_FAILKIND_MODES: {
        const RtRelationInfo *r = f->index >= 0 && f->index < m->n_relations
                                  ? &m->relations[f->index] : NULL;
        lead(s, r ? r->location : NULL, f);
        if (f->kind == RT_FAILKIND_CHATTER)
            fprintf(stderr, "chattering: %ld events within %.3g s, the last "
                    "on '%s' in %s\n", f->count,
                    RT_CHATTER_WINDOW * s->opt.stop_time,
                    r && r->condition ? r->condition : "?",
                    instance_name(s, r ? r->instance : NULL));
        else
            fprintf(stderr, "the conditions do not settle: '%s' in %s keeps "
                    "changing its value when the others change theirs\n",
                    r && r->condition ? r->condition : "?",
                    instance_name(s, r ? r->instance : NULL));
        return;
    }
    case RT_FAILKIND_IO:
        lead(s, NULL, f);
        fprintf(stderr, "cannot write '%s'\n", f->name ? f->name : "output");
        return;
    }
}
