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
 * The solver's own evaluations (s->solver_eval: the stepper's stages and
 * its Jacobian's) are partial: eval computes only what the derivatives
 * and the relations read (compiler/plan/plan_eval.c), and only the
 * derivatives are checked, since only they reach the solver.  The
 * accepted state is then evaluated (or the solver's own evaluation of
 * it taken, rt_integrate.c) and what that computed is checked before
 * anything else reads it, so a value that is not finite is still
 * reported, by name, at the first accepted state that has it.  A check
 * is one pass of sums: v - v is 0 for a finite v and NaN otherwise, so
 * the sum of those differences is 0 exactly when every value is finite;
 * only a failed check looks for the culprit.
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

/* Whether v[0 .. n) are all finite (see the top of the file), for
   n >= 16: four sums of four lanes each, so that the additions do not
   wait on each other (one sum was bound by the adder's latency: 4% of
   the 1,000-lever chain's run); where the CPU has AVX2, a clone of the
   function uses it, chosen once when the program loads. */
typedef double RtV4 __attribute__((vector_size(32)));

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
__attribute__((target_clones("avx2", "default")))
#endif
static int all_finite_wide(const double *v, int n)
{
    RtV4 acc0 = {0, 0, 0, 0}, acc1 = acc0, acc2 = acc0, acc3 = acc0;
    int i = 0;
    for (; i + 16 <= n; i += 16) {
        RtV4 a, b, c, d;
        memcpy(&a, v + i, sizeof a);
        memcpy(&b, v + i + 4, sizeof b);
        memcpy(&c, v + i + 8, sizeof c);
        memcpy(&d, v + i + 12, sizeof d);
        acc0 += a - a;
        acc1 += b - b;
        acc2 += c - c;
        acc3 += d - d;
    }
    acc0 += acc1 + acc2 + acc3;
    double sum = acc0[0] + acc0[1] + acc0[2] + acc0[3];
    for (; i < n; i++)
        sum += v[i] - v[i];
    return sum == 0;
}

/* ... for any n: a few values (a small model's derivatives) summed
   here, without the call and the lanes' reduction. */
static inline int all_finite(const double *v, int n)
{
    if (n >= 16)
        return all_finite_wide(v, n);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += v[i] - v[i];
    return sum == 0;
}

int rt_all_finite(const double *v, size_t n)
{
    return all_finite(v, (int)n);
}

/* The first of v[0 .. n) that is not finite, or -1. */
static int first_nonfinite(const double *v, int n)
{
    if (all_finite(v, n))
        return -1;
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return i;
    return -1;
}

/* The first column that is not finite, to name an algebraic culprit:
   algebraic variables have no names of their own in the interface. */
static const char *nonfinite_column(RtSim *s, const RtEval *e)
{
    const RtModel *m = s->m;
    if (!m->columns && !m->column_from)
        return NULL;
    rt_columns(m, e, s->cols);
    for (int i = 0; i < m->n_columns; i++)
        if (!isfinite(s->cols[i]))
            return rt_column_name(m, i);
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
    int bad = e.partial ? -1 : first_nonfinite(x, m->n_states);
    if (bad >= 0) {
        nonfinite(f, t, rt_state_name(m, bad), 0);
        return -1;
    }
    if (s->table_tolerant)
        s->table_pending.kind = RT_FAILKIND_NONE;   /* the latest evaluation's */
    s->eval_serial++;
    if (alg == s->alg)
        s->alg_partial = 1;     /* until this evaluation has succeeded */
    int rc = m->eval(&e);
    if (s->delays && rt_delays_check(s, t, f) != 0)
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
    if (m->n_states > 0 && (bad = first_nonfinite(dx, m->n_states)) >= 0) {
        nonfinite(f, t, rt_state_name(m, bad), 1);
        return -1;
    }
    /* the solver's evaluations check dx only; an accepted state's what
       it computed; a complete one everything */
    size_t nchk = s->solver_eval == 1 ? 0 : rt_alg_written(s, s->solver_eval == 2);
    if (nchk > 0 && !all_finite(alg, (int)nchk)) {
        nonfinite(f, t, nonfinite_column(s, &e), 0);
        return -1;
    }
    if (alg == s->alg)
        s->alg_partial = e.partial;
    return 0;
}

void rt_restore_alg(RtSim *s, double *alg)
{
    size_t n = rt_alg_written(s, s->solver_eval);
    if (alg != s->alg_good && n > 0)
        memcpy(alg, s->alg_good, n * sizeof *alg);
}

int rt_eval_checked(RtSim *s, double t, const double *x, double *dx,
                    double *alg, const int *modes, RtFailure *f)
{
    if (rt_eval_try(s, t, x, dx, alg, modes, f) == 0)
        return 0;
    rt_restore_alg(s, alg);
    return -1;
}

/* After a partial evaluation only its prefix of alg is new; after a
   complete one, the whole, and the state is the one failures are
   located from (rt_integrate.c). */
void rt_accept_alg(RtSim *s)
{
    size_t n = rt_alg_written(s, s->alg_partial);
    s->alg_dirty = 0;
    if (n > 0)
        memcpy(s->alg_good, s->alg, n * sizeof *s->alg);
    if (!s->alg_partial) {
        s->full_t = s->t;
        if (s->m->n_states > 0)
            memcpy(s->full_x, s->x, (size_t)s->m->n_states * sizeof *s->x);
    }
}

/* The assertions that only warn: each one's first failure is a warning
   naming it, its time and its message; the run goes on. */
static void check_warnings(RtSim *s, const RtEval *e)
{
    const RtModel *m = s->m;
    m->check_warnings(e, s->warn_failing);
    for (int k = 0; k < m->n_asserts; k++) {
        if (!s->warn_failing[k] || s->warned[k])
            continue;
        s->warned[k] = 1;
        RtAssertInfo a = rt_assert_info(m, k);
        rt_warn(s, "%s: at t = %.10g, the assertion in %s does not hold: %s (a warning "
                "only; given once)", a.location, s->t, a.instance[0] ? a.instance
                : "the top model", a.message);
    }
}

int rt_check_asserts(RtSim *s)
{
    const RtModel *m = s->m;
    if (m->check_warnings && m->n_asserts > 0) {
        RtEval w = rt_eval_make(s, s->t, s->x, s->dx, s->alg, s->modes);
        check_warnings(s, &w);
    }
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
    if (m->n_asserts <= 0)
        return 0;
    int k = rt_param_asserts(m, s->p);
    if (k < 0)
        return 0;
    rt_fail_simple(&s->fail, RT_FAILKIND_ASSERT, 0, k);
    s->fail.before_start = 1;
    return -1;
}

/* A table's value for generated code (rt_model.h): the interpolant of
   rt_table.c, and the first query outside a grid with extrapolation =
   error recorded in the evaluation, for its report. */
double rt_lookup(const RtTableInfo *tb, const double *p, RtEval *e, int s1, int s2,
                 double x1, double x2, int d1, int d2)
{
    if (e && tb->extrap == RT_EXTRAP_ERROR && !e->table_error) {
        int out1 = s1 <= 0 || s1 >= tb->n[0];
        int out2 = tb->axes == 2 && (s2 <= 0 || s2 >= tb->n[1]);
        if (out1 || out2) {
            e->table_error = tb;
            e->table_axis = out1 ? 0 : 1;
            e->table_query = out1 ? x1 : x2;
        }
    }
    if (tb->axes == 1)
        return rt_table1(p + tb->grid[0], tb->n[0], p + tb->data, tb->interp, tb->extrap,
                         s1, x1, d1);
    return rt_table2(p + tb->grid[0], tb->n[0], p + tb->grid[1], tb->n[1], p + tb->data,
                     tb->interp, tb->extrap, s1, s2, x1, x2, d1, d2);
}
