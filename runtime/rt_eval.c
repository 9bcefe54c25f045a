/*
 * rt_eval.c - one evaluation of the model, with every check.
 *
 * Every call of the generated eval goes through rt_eval_checked, so one
 * place decides what counts as a failed evaluation: a non-zero return
 * (a singular block, a loop that did not converge, a domain error), or a
 * state, derivative or algebraic value that is NaN or infinite.  Catching
 * non-finite values here, at the first evaluation that produces them,
 * names the culprit instead of letting NaN spread into the solver.
 *
 * alg is in/out: it carries the Newton guesses into the blocks.  After a
 * failed evaluation it may hold garbage, so it is restored from the last
 * accepted state, and the next attempt (a smaller step) starts from good
 * guesses.
 *
 * Asserts are checked after every accepted step; those that read only
 * parameters also once before initialization (rt_check_param_asserts),
 * so a --param value out of range is reported as such, not as whatever
 * failure it leads to (a singular system, a wrong branch).
 */
#include "rt_internal.h"
#include "rt_table.h"

#include <math.h>
#include <string.h>

RtEval rt_eval_make(RtSim *s, double t, const double *x, double *dx,
                    double *alg, const int *modes)
{
    RtEval e;
    memset(&e, 0, sizeof e);
    e.m = s->m;
    e.t = t;
    e.x = x;
    e.dx = s->m->n_states > 0 ? dx : NULL;
    e.alg = alg;
    e.p = s->p;
    e.modes = modes;
    e.fail_block = -1;
    e.rt = s->blocks;
    e.ev = s->ev;
    e.delays = s->delays;
    return e;
}

/* The first column that is not finite, to name an algebraic culprit:
   algebraic variables have no names of their own in the interface. */
static const char *nonfinite_column(RtSim *s, const RtEval *e)
{
    const RtModel *m = s->m;
    if (!m->columns)
        return NULL;
    m->columns(e, s->cols);
    for (int i = 0; i < m->n_columns; i++)
        if (!isfinite(s->cols[i]))
            return m->column_names[i];
    return NULL;
}

static void nonfinite(RtFailure *f, double t, const char *name, int is_der)
{
    rt_fail_simple(f, RT_FAILKIND_NONFINITE, t, -1);
    f->name = name;
    f->is_der = is_der;
}

int rt_eval_try(RtSim *s, double t, const double *x, double *dx,
                double *alg, const int *modes, RtFailure *f)
{
    const RtModel *m = s->m;
    RtEval e = rt_eval_make(s, t, x, dx, alg, modes);
    for (int i = 0; i < m->n_states; i++) {
        if (!isfinite(x[i])) {
            nonfinite(f, t, m->state_names[i], 0);
            return -1;
        }
    }
    if (s->table_tolerant)
        s->table_pending.kind = RT_FAILKIND_NONE;   /* the latest evaluation's */
    int rc = m->eval(&e);
    if (rt_delays_check(s, t, f) != 0)
        return -1;  /* a delay out of its range, whatever followed */
    if (rc != RT_OK) {
        rt_fail_eval(f, t, rc, e.fail_block);
        return -1;
    }
    if (e.table_error && m->tables) {
        /* a segment mode, or a query known from parameters, left the grid of
           a table with extrapolation = error */
        RtFailure *tf = s->table_tolerant ? &s->table_pending : f;
        rt_fail_simple(tf, RT_FAILKIND_TABLE, t, (int)(e.table_error - m->tables));
        tf->axis = e.table_axis;
        tf->query = e.table_query;
        if (!s->table_tolerant)
            return -1;
    }
    for (int i = 0; i < m->n_states; i++) {
        if (!isfinite(dx[i])) {
            nonfinite(f, t, m->state_names[i], 1);
            return -1;
        }
    }
    for (int j = 0; j < m->n_alg; j++) {
        if (!isfinite(alg[j])) {
            nonfinite(f, t, nonfinite_column(s, &e), 0);
            return -1;
        }
    }
    return 0;
}

int rt_eval_checked(RtSim *s, double t, const double *x, double *dx,
                    double *alg, const int *modes, RtFailure *f)
{
    if (rt_eval_try(s, t, x, dx, alg, modes, f) == 0)
        return 0;
    if (alg != s->alg_good && s->m->n_alg > 0)
        memcpy(alg, s->alg_good, (size_t)s->m->n_alg * sizeof *alg);
    return -1;
}

void rt_accept_alg(RtSim *s)
{
    size_t n = (size_t)(s->m->n_alg > 0 ? s->m->n_alg : 0);
    if (n > 0 && s->alg_prev)
        memcpy(s->alg_prev, s->alg_good, n * sizeof *s->alg);
    if (n > 0)
        memcpy(s->alg_good, s->alg, n * sizeof *s->alg);
}

int rt_check_asserts(RtSim *s)
{
    const RtModel *m = s->m;
    if (!m->check_asserts || m->n_asserts <= 0)
        return 0;
    RtEval e = rt_eval_make(s, s->t, s->x, s->dx, s->alg, s->modes);
    int k = m->check_asserts(&e);
    if (k < 0)
        return 0;
    rt_fail_simple(&s->fail, RT_FAILKIND_ASSERT, s->t, k);
    return -1;
}

int rt_check_grids(RtSim *s)
{
    const RtModel *m = s->m;
    for (int i = 0; i < m->n_tables && m->tables; i++) {
        const RtTableInfo *tb = &m->tables[i];
        for (int a = 0; a < tb->axes; a++) {
            int k = rt_grid_check(s->p + tb->grid[a], tb->n[a]);
            if (k < 0)
                continue;
            rt_fail_simple(&s->fail, RT_FAILKIND_GRID, 0, i);
            s->fail.axis = a;
            s->fail.count = k;
            s->fail.before_start = 1;
            return -1;
        }
    }
    return 0;
}

int rt_check_param_asserts(RtSim *s)
{
    const RtModel *m = s->m;
    if (!m->check_param_asserts || m->n_asserts <= 0)
        return 0;
    int k = m->check_param_asserts(s->p);
    if (k < 0)
        return 0;
    rt_fail_simple(&s->fail, RT_FAILKIND_ASSERT, 0, k);
    s->fail.before_start = 1;
    return -1;
}
