/*
 * rt_init.c - a consistent initial state (docs/language.md, "Initialization
 * and targets").
 *
 * The unknowns are the initial states x0; eval gives everything else, so
 * every equation holds by construction and only the targets are left to
 * meet.  Each target k contributes the residual
 *
 *     r_k(x0) = (column_k(x0) - value_k) / nominal_k
 *
 * and the solvers work on u = x0 / nominal, so all unknowns and residuals
 * are of order one and finite-difference Jacobians are well scaled.
 *
 * 1. High-priority targets are met exactly.  As many as there are states:
 *    a square root-finding problem, gsl_multiroot hybridsj.  Fewer:
 *    least squares in which they weigh RT_HIGH_WEIGHT times more than the
 *    low targets, followed by a minimum-norm Gauss-Newton projection onto
 *    them, which makes "exactly" mean to rounding, not to 1/weight^2.
 * 2. Low-priority targets are met in the least-squares sense
 *    (gsl_multifit_nlinear, trust region), together with a weak pull of
 *    every state towards its declared start, which decides the states no
 *    target constrains.  The pull is solved strong first (well posed) and
 *    then weak, from there, so it barely biases the states the targets do
 *    decide.
 * 3. Too many high targets, or high targets that conflict (the residual
 *    stays non-zero), give one warning naming each one's column; they are
 *    then treated as low and solved again from the declared start.
 *
 * Modes at the start are a fixed point: evaluate, take the relations'
 * values as the modes, repeat until nothing changes.  Solving the targets
 * can move the state across a relation, so solve and settle alternate
 * until the modes agree with the solution (bounded).
 *
 * Every target not met at the end is reported with its achieved value.
 *
 * 4. With --steady-state (Simscape's "start simulation from steady
 *    state"), the states are then moved to where every derivative
 *    vanishes, the initialized state as the first guess: the square
 *    problem dx(x) = 0 (scaled by the nominals) with hybridsj, or, when
 *    that fails (a state no derivative decides, as a free body's
 *    position), least squares with a pull towards the guess.  Targets
 *    give way to the steady state.  A state whose derivative stays
 *    non-zero fails the run, naming the states.
 *
 * Then the initial event (rt_init, at the end of this file).
 * An evaluation that fails at the final state, or modes that never
 * settle, fail the run (exit 3), with "initialization failed" in front.
 */
#include "rt_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_multiroots.h>

#define RT_HIGH_WEIGHT 1e5      /* high targets against low ones */
#define RT_PULL_STRONG 1e-2     /* pull towards the start, first pass */
#define RT_PULL_WEAK 1e-7       /* ... second pass */
#define RT_HIGH_TOL 1e-9        /* scaled residual of a met high target */
#define RT_MET_TOL 1e-6         /* scaled residual below which a target is met */
#define RT_STEADY_TOL 1e-8      /* |der(x)| / nominal(x), 1/s, at a steady state */
enum {
    RT_INIT_ROUNDS = 5,         /* solve/settle alternations */
    RT_ROOT_ITER = 200,         /* hybridsj iterations */
    RT_FIT_ITER = 200,          /* multifit iterations */
    RT_POLISH_ITER = 30,        /* Gauss-Newton projection iterations */
};

/* One least-squares or root problem over u. */
typedef struct Problem {
    RtSim *s;               /* the run: model, parameters, scratch */
    const int *rows;        /* targets, in residual order */
    int n_rows;             /* their count */
    double weight_high;     /* weight of high targets among rows */
    int demoted;            /* every target counts as low */
    double pull;            /* weight of the pull rows; 0: none */
    const double *tv, *tn;  /* target values and nominals */
    double *x;              /* scratch state */
    double *u;              /* scratch scaled state (contiguous) */
    int eval_failed;        /* an evaluation failed (s->pending says why) */
    int steady;             /* the residuals are the derivatives, not the
                               targets (--steady-state) */
} Problem;

static int n_residuals(const Problem *pb)
{
    int n = pb->s->m->n_states;
    return (pb->steady ? n : pb->n_rows) + (pb->pull > 0 ? n : 0);
}

/* The residuals at scaled state u. */
static int residuals(Problem *pb, const double *u, double *r)
{
    RtSim *s = pb->s;
    const RtModel *m = s->m;
    int n = m->n_states;
    for (int j = 0; j < n; j++)
        pb->x[j] = u[j] * s->nominal[j];
    if (rt_eval_checked(s, s->t, pb->x, s->dx, s->alg, s->modes, &s->pending) != 0) {
        pb->eval_failed = 1;
        return -1;
    }
    int rows = pb->steady ? n : pb->n_rows;
    if (pb->steady) {
        for (int j = 0; j < n; j++)
            r[j] = s->dx[j] / s->nominal[j];
    } else {
        RtEval e = rt_eval_make(s, s->t, pb->x, s->dx, s->alg, s->modes);
        rt_columns(m, &e, s->cols);
        for (int i = 0; i < pb->n_rows; i++) {
            int k = pb->rows[i];
            double w = !pb->demoted && m->targets[k].high ? pb->weight_high : 1;
            r[i] = w * (s->cols[m->targets[k].column] - pb->tv[k]) / pb->tn[k];
        }
    }
    /* the pull is towards the declared start, or for the steady state
       towards the initialized state (x_guess) */
    const double *anchor = pb->steady ? pb->s->x_guess : s->x_start;
    if (pb->pull > 0)
        for (int j = 0; j < n; j++)
            r[rows + j] = pb->pull * (u[j] - anchor[j] / s->nominal[j]);
    return 0;
}

static int vec_residuals(Problem *pb, const gsl_vector *u, gsl_vector *f)
{
    int n = pb->s->m->n_states, nr = n_residuals(pb);
    double *r = rt_xcalloc((size_t)nr, sizeof *r);
    for (int j = 0; j < n; j++)
        pb->u[j] = gsl_vector_get(u, (size_t)j);
    int rc = residuals(pb, pb->u, r);
    for (int i = 0; i < nr && rc == 0; i++)
        gsl_vector_set(f, (size_t)i, r[i]);
    free(r);
    return rc == 0 ? GSL_SUCCESS : GSL_EBADFUNC;
}

/* Forward differences of the residuals at u, J[i][j] row-major. */
static int fd_jacobian(Problem *pb, const double *u, const double *r0,
                       double *J)
{
    int n = pb->s->m->n_states, nr = n_residuals(pb);
    double *uu = rt_xcalloc((size_t)n, sizeof *uu);
    double *r = rt_xcalloc((size_t)nr, sizeof *r);
    int rc = 0;
    memcpy(uu, u, (size_t)n * sizeof *uu);
    for (int j = 0; j < n && rc == 0; j++) {
        double h = sqrt(DBL_EPSILON) * fmax(fabs(u[j]), 1);
        uu[j] = u[j] + h;
        h = uu[j] - u[j];
        rc = residuals(pb, uu, r);
        uu[j] = u[j];
        for (int i = 0; i < nr && rc == 0; i++)
            J[(size_t)i * (size_t)n + (size_t)j] = (r[i] - r0[i]) / h;
    }
    free(uu);
    free(r);
    return rc;
}

static double max_abs(const double *v, int n)
{
    double big = 0;
    for (int i = 0; i < n; i++)
        big = fmax(big, fabs(v[i]));
    return big;
}

/* --- square: hybridsj over the high targets -------------------------- */

static int root_f(const gsl_vector *u, void *params, gsl_vector *f)
{
    return vec_residuals(params, u, f);
}

static int root_df(const gsl_vector *u, void *params, gsl_matrix *Jm)
{
    Problem *pb = params;
    int n = pb->s->m->n_states;
    double *uu = rt_xcalloc((size_t)n, sizeof *uu);
    double *r0 = rt_xcalloc((size_t)n, sizeof *r0);
    double *J = rt_xcalloc((size_t)n * (size_t)n, sizeof *J);
    for (int j = 0; j < n; j++)
        uu[j] = gsl_vector_get(u, (size_t)j);
    int rc = residuals(pb, uu, r0);
    if (rc == 0)
        rc = fd_jacobian(pb, uu, r0, J);
    for (int i = 0; i < n && rc == 0; i++)
        for (int j = 0; j < n; j++)
            gsl_matrix_set(Jm, (size_t)i, (size_t)j, J[(size_t)i * (size_t)n + (size_t)j]);
    free(uu);
    free(r0);
    free(J);
    return rc == 0 ? GSL_SUCCESS : GSL_EBADFUNC;
}

static int root_fdf(const gsl_vector *u, void *params, gsl_vector *f,
                    gsl_matrix *J)
{
    int rc = root_f(u, params, f);
    return rc != GSL_SUCCESS ? rc : root_df(u, params, J);
}

/* Meets the high targets exactly when there are as many as states.
   Returns 1 when met (u holds the solution), 0 when not. */
static int solve_square(Problem *pb, double *u)
{
    int n = pb->s->m->n_states;
    gsl_multiroot_fdfsolver *rs =
        gsl_multiroot_fdfsolver_alloc(gsl_multiroot_fdfsolver_hybridsj, (size_t)n);
    gsl_multiroot_function_fdf fdf = {root_f, root_df, root_fdf, (size_t)n, pb};
    gsl_vector_view uv = gsl_vector_view_array(u, (size_t)n);
    int met = 0;
    if (rs && gsl_multiroot_fdfsolver_set(rs, &fdf, &uv.vector) == GSL_SUCCESS) {
        for (int it = 0; it < RT_ROOT_ITER; it++) {
            if (gsl_multiroot_test_residual(rs->f, 1e-3 * RT_HIGH_TOL) == GSL_SUCCESS)
                break;
            if (gsl_multiroot_fdfsolver_iterate(rs) != GSL_SUCCESS)
                break;
        }
        double worst = 0;
        for (int i = 0; i < n; i++)
            worst = fmax(worst, fabs(gsl_vector_get(rs->f, (size_t)i)));
        met = worst <= RT_HIGH_TOL;
        if (met)
            for (int j = 0; j < n; j++)
                u[j] = gsl_vector_get(rs->x, (size_t)j);
    }
    if (rs)
        gsl_multiroot_fdfsolver_free(rs);
    return met;
}

/* --- least squares: multifit over every target and the pull ----------- */

static int fit_f(const gsl_vector *u, void *params, gsl_vector *f)
{
    return vec_residuals(params, u, f);
}

/* Minimizes the problem's residuals from u, in place.  Evaluation
   failures stop the solver at its last good point, which is kept. */
static void solve_fit(Problem *pb, double *u)
{
    int n = pb->s->m->n_states, nr = n_residuals(pb);
    gsl_multifit_nlinear_parameters par = gsl_multifit_nlinear_default_parameters();
    par.trs = gsl_multifit_nlinear_trs_lm;
    /* Central differences: where residuals stay non-zero at the optimum
       (low targets that cannot all be met), a forward-difference
       Jacobian's error of sqrt(eps) moves the optimum itself. */
    par.fdtype = GSL_MULTIFIT_NLINEAR_CTRDIFF;
    par.h_df = cbrt(DBL_EPSILON);
    gsl_multifit_nlinear_workspace *w =
        gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &par,
                                   (size_t)nr, (size_t)n);
    if (!w)
        return;
    gsl_multifit_nlinear_fdf fdf;
    memset(&fdf, 0, sizeof fdf);
    fdf.f = fit_f;
    fdf.df = NULL;              /* GSL's forward differences */
    fdf.fvv = NULL;
    fdf.n = (size_t)nr;
    fdf.p = (size_t)n;
    fdf.params = pb;
    gsl_vector_view uv = gsl_vector_view_array(u, (size_t)n);
    if (gsl_multifit_nlinear_init(&uv.vector, &fdf, w) == GSL_SUCCESS) {
        int info;
        gsl_multifit_nlinear_driver(RT_FIT_ITER, 1e-14, 1e-14, 1e-14, NULL,
                                    NULL, &info, w);
        gsl_vector *best = gsl_multifit_nlinear_position(w);
        for (int j = 0; j < n; j++)
            u[j] = gsl_vector_get(best, (size_t)j);
    }
    gsl_multifit_nlinear_free(w);
}

/* --- projection onto the high targets -------------------------------- */

/* Minimum-norm Gauss-Newton on the high rows alone (pb lists only them,
   unweighted, no pull): du = -J^+ r through the SVD of J^T, so states the
   high targets do not involve stay where the fit put them.  Returns 1
   when the high targets are met. */
static int project_high(Problem *pb, double *u)
{
    int n = pb->s->m->n_states, nh = pb->n_rows;
    double *r = rt_xcalloc((size_t)nh, sizeof *r);
    double *rt = rt_xcalloc((size_t)nh, sizeof *rt);
    double *J = rt_xcalloc((size_t)nh * (size_t)n, sizeof *J);
    double *ut = rt_xcalloc((size_t)n, sizeof *ut);
    double *du = rt_xcalloc((size_t)n, sizeof *du);
    gsl_matrix *A = gsl_matrix_alloc((size_t)n, (size_t)nh);
    gsl_matrix *V = gsl_matrix_alloc((size_t)nh, (size_t)nh);
    gsl_vector *S = gsl_vector_alloc((size_t)nh);
    gsl_vector *work = gsl_vector_alloc((size_t)nh);
    int met = 0;
    if (residuals(pb, u, r) != 0)
        goto done;
    for (int it = 0; it < RT_POLISH_ITER; it++) {
        double worst = max_abs(r, nh);
        if (worst <= 1e-3 * RT_HIGH_TOL)
            break;
        if (fd_jacobian(pb, u, r, J) != 0)
            goto done;
        for (int i = 0; i < nh; i++)
            for (int j = 0; j < n; j++)
                gsl_matrix_set(A, (size_t)j, (size_t)i, J[(size_t)i * (size_t)n + (size_t)j]);
        gsl_linalg_SV_decomp(A, V, S, work);    /* J^T = U S V^T */
        double s0 = gsl_vector_get(S, 0);
        for (int j = 0; j < n; j++)
            du[j] = 0;
        for (int k = 0; k < nh; k++) {
            double sk = gsl_vector_get(S, (size_t)k);
            if (!(sk > 1e-12 * s0))
                continue;
            double c = 0;                   /* (V^T r)_k / s_k */
            for (int i = 0; i < nh; i++)
                c += gsl_matrix_get(V, (size_t)i, (size_t)k) * r[i];
            c /= sk;
            for (int j = 0; j < n; j++)
                du[j] -= gsl_matrix_get(A, (size_t)j, (size_t)k) * c;
        }
        /* Halve the step until the worst residual improves. */
        double lambda = 1;
        int improved = 0;
        for (int half = 0; half < 20 && !improved; half++, lambda *= 0.5) {
            for (int j = 0; j < n; j++)
                ut[j] = u[j] + lambda * du[j];
            if (residuals(pb, ut, rt) == 0 && max_abs(rt, nh) < worst)
                improved = 1;
        }
        if (!improved)
            break;
        memcpy(u, ut, (size_t)n * sizeof *u);
        memcpy(r, rt, (size_t)nh * sizeof *r);
    }
    met = max_abs(r, nh) <= RT_HIGH_TOL;
done:
    gsl_matrix_free(A);
    gsl_matrix_free(V);
    gsl_vector_free(S);
    gsl_vector_free(work);
    free(r);
    free(rt);
    free(J);
    free(ut);
    free(du);
    return met;
}

/* --- the target solve ------------------------------------------------ */

typedef struct Targets {
    double *tv, *tn;        /* values and nominals (> 0) */
    int *high, n_high;      /* high-priority targets */
    int *all, n_all;        /* every target */
    int demoted;            /* the high ones now count as low */
} Targets;

/* Least squares over every target (high ones weighted unless demoted),
   strong pull then weak pull. */
static void fit_all(Targets *tg, Problem *pb, double *u)
{
    pb->rows = tg->all;
    pb->n_rows = tg->n_all;
    pb->demoted = tg->demoted;
    pb->pull = RT_PULL_STRONG;
    solve_fit(pb, u);
    pb->pull = RT_PULL_WEAK;
    solve_fit(pb, u);
}

static void restart_from_start(RtSim *s, double *u)
{
    for (int j = 0; j < s->m->n_states; j++)
        u[j] = s->x_start[j] / s->nominal[j];
}

static void solve_targets(RtSim *s, Targets *tg)
{
    int n = s->m->n_states;
    if (n == 0 || tg->n_all == 0)
        return;
    Problem pb = {s, NULL, 0, RT_HIGH_WEIGHT, tg->demoted, 0, tg->tv, tg->tn,
                  rt_xcalloc((size_t)n, sizeof(double)),
                  rt_xcalloc((size_t)n, sizeof(double)), 0, 0};
    double *u = rt_xcalloc((size_t)n, sizeof *u);
    for (int j = 0; j < n; j++)
        u[j] = s->x[j] / s->nominal[j];
    if (!tg->demoted && tg->n_high > n) {
        char tail[160];
        snprintf(tail, sizeof tail, ": %d high-priority targets for %d "
                 "state%s; treating them as low priority", tg->n_high, n,
                 n == 1 ? "" : "s");
        rt_warn_targets(s, "too many high-priority targets on ", tg->high,
                        tg->n_high, tail);
        tg->demoted = 1;
        restart_from_start(s, u);
    }
    if (!tg->demoted && tg->n_high == n) {
        pb.rows = tg->high;
        pb.n_rows = tg->n_high;
        pb.demoted = 0;
        pb.weight_high = 1;
        if (solve_square(&pb, u))
            goto done;
        rt_warn_targets(s, "the high-priority targets on ", tg->high,
                        tg->n_high, " conflict (they cannot all be met); "
                        "treating them as low priority");
        tg->demoted = 1;
        restart_from_start(s, u);
    }
    pb.weight_high = RT_HIGH_WEIGHT;
    fit_all(tg, &pb, u);
    if (!tg->demoted && tg->n_high > 0) {
        pb.rows = tg->high;
        pb.n_rows = tg->n_high;
        pb.weight_high = 1;
        pb.pull = 0;
        if (!project_high(&pb, u)) {
            rt_warn_targets(s, "the high-priority targets on ", tg->high,
                            tg->n_high, " conflict (they cannot all be met); "
                            "treating them as low priority");
            tg->demoted = 1;
            restart_from_start(s, u);
            pb.weight_high = RT_HIGH_WEIGHT;
            fit_all(tg, &pb, u);
        }
    }
done:
    for (int j = 0; j < n; j++)
        s->x[j] = u[j] * s->nominal[j];
    free(u);
    free(pb.x);
    free(pb.u);
}

/* Every target missed by more than RT_MET_TOL, with its achieved value. */
static void report_unmet(RtSim *s, const Targets *tg)
{
    const RtModel *m = s->m;
    RtEval e = rt_eval_make(s, s->t, s->x, s->dx, s->alg, s->modes);
    rt_columns(m, &e, s->cols);
    for (int k = 0; k < m->n_targets; k++) {
        int col = m->targets[k].column;
        double got = s->cols[col];
        if (fabs(got - tg->tv[k]) / tg->tn[k] <= RT_MET_TOL)
            continue;
        rt_warn(s, "initialization: the %s-priority target on '%s' is not "
                "met: it is %.10g, the target is %.10g",
                m->targets[k].high && !tg->demoted ? "high" : "low",
                rt_column_name(m, col), got, tg->tv[k]);
    }
}

static int modes_equal(const RtSim *s, const int *old)
{
    return s->m->n_relations <= 0
           || memcmp(old, s->modes, (size_t)s->m->n_relations * sizeof *old) == 0;
}

static int init_states(RtSim *s)
{
    const RtModel *m = s->m;
    int n = m->n_states;
    /* s->t is the start time: 0 for the simulator, an FMU's start time */
    /* pivots of parameters only fail here, as the first evaluation would */
    int singular = rt_param_pivots(m, s->p);
    if (singular >= 0) {
        rt_fail_eval(&s->fail, s->t, RT_FAIL_SINGULAR, singular);
        s->fail.during_init = 1;
        return -1;
    }
    if (m->start)
        m->start(s->p, s->x_start, s->nominal);
    else
        for (int j = 0; j < n; j++)
            s->nominal[j] = 1;
    for (int j = 0; j < n; j++) {
        double nom = fabs(s->nominal[j]);
        s->nominal[j] = isfinite(nom) && nom > 0 ? nom : 1;
        s->x[j] = s->x_start[j];
    }
    for (int j = 0; j < m->n_alg; j++)
        s->alg[j] = 0;          /* alg_start sets those that do not start at 0 */
    if (m->alg_start && m->n_alg > 0)
        m->alg_start(s->p, s->alg);
    rt_accept_alg(s);
    if (rt_modes_settle(s, s->t, s->x, 1) != 0)
        return -1;
    rt_accept_alg(s);

    /* Targets that are states themselves need no solve: set them (low
       ones first, so a high one on the same state wins). */
    int direct = m->n_targets > 0 && m->target_values;
    for (int k = 0; k < m->n_targets && direct; k++)
        direct = m->targets[k].state1 > 0 && m->targets[k].state1 <= n;
    if (direct) {
        double *tv = rt_xcalloc((size_t)m->n_targets, sizeof *tv);
        double *tn = rt_xcalloc((size_t)m->n_targets, sizeof *tn);
        m->target_values(s->p, tv, tn);
        for (int pass = 0; pass < 2; pass++)
            for (int k = 0; k < m->n_targets; k++)
                if (m->targets[k].high == pass)
                    s->x[m->targets[k].state1 - 1] = tv[k];
        free(tv);
        free(tn);
        int rc = rt_modes_settle(s, s->t, s->x, 1);
        rt_accept_alg(s);
        if (rc != 0)
            return -1;
        return rt_check_asserts(s);
    }
    if (m->n_targets > 0 && m->target_values && (m->columns || m->column_from)) {
        Targets tg;
        memset(&tg, 0, sizeof tg);
        size_t nt = (size_t)m->n_targets;
        tg.tv = rt_xcalloc(nt, sizeof *tg.tv);
        tg.tn = rt_xcalloc(nt, sizeof *tg.tn);
        tg.high = rt_xcalloc(nt, sizeof *tg.high);
        tg.all = rt_xcalloc(nt, sizeof *tg.all);
        m->target_values(s->p, tg.tv, tg.tn);
        for (int k = 0; k < m->n_targets; k++) {
            double nom = fabs(tg.tn[k]);
            tg.tn[k] = isfinite(nom) && nom > 0 ? nom : 1;
            tg.all[tg.n_all++] = k;
            if (m->targets[k].high)
                tg.high[tg.n_high++] = k;
        }
        int *old = rt_xcalloc((size_t)m->n_relations, sizeof *old);
        int rc = 0;
        for (int round = 0; round < RT_INIT_ROUNDS; round++) {
            solve_targets(s, &tg);
            if (m->n_relations > 0)
                memcpy(old, s->modes, (size_t)m->n_relations * sizeof *old);
            rc = rt_modes_settle(s, s->t, s->x, 1);
            if (rc != 0 || modes_equal(s, old))
                break;
        }
        if (rc == 0) {
            rt_accept_alg(s);
            report_unmet(s, &tg);
        }
        free(old);
        free(tg.tv);
        free(tg.tn);
        free(tg.high);
        free(tg.all);
        if (rc != 0)
            return -1;
    }
    return rt_check_asserts(s);
}

/* --steady-state: moves the initialized state to where every derivative
   vanishes, alternating with the modes like the target solve; a state
   whose derivative stays is a failure naming it. */
static int solve_steady(RtSim *s)
{
    const RtModel *m = s->m;
    int n = m->n_states;
    if (n == 0)
        return 0;
    s->x_guess = rt_xcalloc((size_t)n, sizeof *s->x_guess);
    memcpy(s->x_guess, s->x, (size_t)n * sizeof *s->x);
    Problem pb = {s, NULL, 0, 1, 0, 0, NULL, NULL, rt_xcalloc((size_t)n, sizeof(double)),
                  rt_xcalloc((size_t)n, sizeof(double)), 0, 1};
    double *u = rt_xcalloc((size_t)n, sizeof *u);
    int *old = rt_xcalloc((size_t)m->n_relations + 1, sizeof *old);
    int rc = 0;
    for (int round = 0; round < RT_INIT_ROUNDS; round++) {
        for (int j = 0; j < n; j++)
            u[j] = s->x[j] / s->nominal[j];
        pb.pull = 0;
        if (!solve_square(&pb, u)) {
            /* a state no derivative decides: least squares, anchored */
            for (int j = 0; j < n; j++)
                u[j] = s->x_guess[j] / s->nominal[j];
            pb.pull = RT_PULL_STRONG;
            solve_fit(&pb, u);
            pb.pull = RT_PULL_WEAK;
            solve_fit(&pb, u);
        }
        for (int j = 0; j < n; j++)
            s->x[j] = u[j] * s->nominal[j];
        if (m->n_relations > 0)
            memcpy(old, s->modes, (size_t)m->n_relations * sizeof *old);
        rc = rt_modes_settle(s, s->t, s->x, 1);
        if (rc != 0 || modes_equal(s, old))
            break;
    }
    if (rc == 0 && rt_eval_checked(s, s->t, s->x, s->dx, s->alg, s->modes, &s->pending) != 0)
        rc = -1;
    if (rc == 0) {
        /* the states whose derivatives stay, largest first */
        RtFailure *f = &s->fail;
        int named = 0;
        for (;;) {
            int worst = -1;
            double big = RT_STEADY_TOL;
            for (int j = 0; j < n; j++) {
                double r = fabs(s->dx[j]) / s->nominal[j];
                int taken = 0;
                for (int k = 0; k < named; k++)
                    taken |= f->culprits[k] == j;
                if (!taken && !(r <= big)) {
                    big = r;
                    worst = j;
                }
            }
            if (worst < 0 || named == RT_CHATTER_NAMED)
                break;
            if (named == 0)
                rt_fail_simple(f, RT_FAILKIND_STEADY, s->t, worst);
            f->culprits[named++] = worst;
        }
        if (named > 0) {
            f->n_culprits = named;
            f->during_init = 1;
            rc = -1;
        } else {
            rt_accept_alg(s);
        }
    }
    free(old);
    free(u);
    free(pb.x);
    free(pb.u);
    return rc;
}

/* The event variables start at their declared values; after the
   continuous initialization comes the initial event:
   initialevent holds in its first iteration, every mode chart enters its
   initial mode (entry actions, state resets), and the event iteration
   runs to its fixed point before the first row. */
int rt_init(RtSim *s)
{
    const RtModel *m = s->m;
    if (!s->delays)
        rt_delays_setup(s);
    if (m->evar_start && m->n_evars > 0)
        m->evar_start(s->p, s->ev);
    if (init_states(s) != 0)
        return -1;
    if (s->opt.steady_state && (solve_steady(s) != 0 || rt_check_asserts(s) != 0))
        return -1;
    if (!m->update && m->n_charts <= 0)
        return 0;
    if (rt_event_iterate(s, s->t, s->x, 1, 1) != 0)
        return -1;
    rt_accept_alg(s);
    return rt_check_asserts(s);
}
