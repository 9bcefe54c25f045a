/*
 * rt_integrate.c - the run after initialization: steps, rows, checks;
 * and the gsl_odeiv2 stepper.
 *
 * A model with states is integrated one interval at a time, because
 * after each the runtime has work to do: evaluate the interval's end (its
 * algebraic values and derivative), look for relations that changed
 * (rt_events.c, rt_locate.c), check the asserts, sample the delays.  An
 * interval is a solver step, or its part up to an output time: the
 * multistep methods (msbdf, msadams, cvode) step freely past output
 * times, since a step clipped for a row rescales their history and keeps
 * them at low order, and a row inside a step is the solver's interpolant
 * there (RtStepper.dense).  The one-step methods have no interpolant of
 * their order and keep no history: their steps end at output times, so
 * their rows are solver states.  Every step ends at the stop time, at a
 * delay's breakpoint and at the crossing of a relation on time alone
 * (rt_time_events_limit); nothing else changes the solver's step size.
 *
 * The steps come from a stepper (RtStepper in rt_internal.h): step
 * towards t1 with the solver's step-size control, restart from a state.
 * This loop and the event location use nothing else, so they are the
 * same for gsl_odeiv2 (here) and for CVODE (rt_cvode.c).
 *
 * The gsl_odeiv2 stepper comes from a driver, which owns the stepper,
 * control and evolve objects; msadams and msbdf need that driver to
 * reach the control object.  The control is the scaled one: --atol
 * applies per unit of each state's nominal, since one absolute tolerance
 * in metres, radians per second and pascals at once would mean nothing.
 *
 * Evaluation failures inside the solver (a Newton block that fails on a
 * predictor far from the solution, say) are recoverable: the right-hand
 * side reports a failure and the solver retries with a smaller step.
 * Only when the step cannot shrink further does the run fail, and then
 * the failure of the last evaluation, if that is what stopped it, is the
 * one reported, with its block.  Failures at an accepted state are final.
 *
 * The implicit steppers of both libraries get a forward-difference
 * Jacobian over eval, with increments scaled by each state's magnitude or
 * nominal, by colors when the model has a sparsity pattern.
 *
 * A model without states is purely algebraic: it is evaluated at each
 * output time, and relation changes in between are located by the same
 * event code, on time alone.
 */
#include "rt_internal.h"
#include "rt_events.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

/* A trial point of the solver may lie past a crossing the step straddles:
   rt_eval_past evaluates it with the flipped modes where the frozen ones
   fail there (rt_events.c).  The frozen modes are tried in place first,
   so that the usual evaluation copies no modes; a failure starts over
   from the accepted guesses on a scratch copy, as rt_eval_past would. */
static int eval_trial(RtSim *s, double t, const double *y, double *f, double *alg,
                      RtFailure *fail)
{
    int nr = s->m->n_relations;
    if (nr == 0)
        return rt_eval_past(s, t, y, f, alg, s->modes, fail);
    RtFailure frozen;
    if (rt_eval_try(s, t, y, f, alg, s->modes, &frozen) == 0)
        return 0;
    rt_restore_alg(s, alg);
    memcpy(s->md_trial, s->modes, (size_t)nr * sizeof *s->md_trial);
    return rt_eval_past(s, t, y, f, alg, s->md_trial, fail);
}

/* The solver's evaluations compute what the derivatives and the
   relations need, no more (rt_eval.c). */
int rt_rhs(RtSim *s, double t, const double *y, double *dydt)
{
    s->solver_eval = 1;
    int watched = y == s->end_watch && !s->table_tolerant;
    unsigned long solves = watched ? rt_blockwork_solves(s->blocks) : 0;
    int rc = eval_trial(s, t, y, dydt, s->alg, &s->pending);
    s->solver_eval = 0;
    s->last_eval_failed = rc != 0;
    if (rc == 0 && watched && rt_blockwork_solves(s->blocks) == solves) {
        size_t n = (size_t)s->m->n_states;
        memcpy(s->end_x, y, n * sizeof *y);
        memcpy(s->end_dx, dydt, n * sizeof *dydt);
        s->end_t = t;
        s->end_serial = s->eval_serial;
    }
    return rc != 0 ? -1 : 0;
}

static int rhs(double t, const double y[], double dydt[], void *params)
{
    return rt_rhs(params, t, y, dydt) == 0 ? GSL_SUCCESS : GSL_FAILURE;
}

/* One evaluation for the Jacobian, from the accepted algebraic values, so
   perturbed points do not drift the guesses of the real evaluations. */
static int jac_eval(RtSim *s, double t, const double *y, double *f)
{
    const RtModel *m = s->m;
    if (m->n_alg > 0)
        memcpy(s->alg_jac, s->alg, (size_t)m->n_alg * sizeof *s->alg_jac);
    s->solver_eval = 1;
    int rc = eval_trial(s, t, y, f, s->alg_jac, &s->pending);
    s->solver_eval = 0;
    s->last_eval_failed = rc != 0;
    return rc != 0 ? -1 : 0;
}

/* The colored Jacobian: every column of one color is perturbed at once,
   and each row's change is credited to the one column of that color that
   can reach it. */
int rt_jacobian_sparse(RtSim *s, double t, const double *y)
{
    const RtModel *m = s->m;
    int n = m->n_states;
    double root_eps = sqrt(DBL_EPSILON);
    if (jac_eval(s, t, y, s->f0j) != 0)
        return -1;
    memcpy(s->xj, y, (size_t)n * sizeof *s->xj);
    for (int c = 0; c < m->n_colors; c++) {
        for (int j = 0; j < n; j++) {
            if (m->color[j] != c)
                continue;
            double h = root_eps * fmax(fabs(y[j]), s->nominal[j]);
            s->xj[j] = y[j] + (y[j] < 0 ? -h : h);
        }
        int rc = jac_eval(s, t, s->xj, s->fj);
        for (int j = 0; j < n; j++) {
            if (m->color[j] != c)
                continue;
            double h = s->xj[j] - y[j];
            s->xj[j] = y[j];
            if (rc != 0)
                continue;
            for (int k = m->jac_colptr[j]; k < m->jac_colptr[j + 1]; k++) {
                int i = m->jac_rows[k];
                s->jac_values[k] = (s->fj[i] - s->f0j[i]) / h;
            }
        }
        if (rc != 0)
            return -1;
    }
    return 0;
}

int rt_jacobian_dense(RtSim *s, double t, const double *y, double *J,
                      size_t row_stride, size_t col_stride)
{
    int n = s->m->n_states;
    double root_eps = sqrt(DBL_EPSILON);
    if (jac_eval(s, t, y, s->f0j) != 0)
        return -1;
    memcpy(s->xj, y, (size_t)n * sizeof *s->xj);
    for (int j = 0; j < n; j++) {
        double h = root_eps * fmax(fabs(y[j]), s->nominal[j]);
        s->xj[j] = y[j] + (y[j] < 0 ? -h : h);
        h = s->xj[j] - y[j];            /* the increment actually taken */
        int rc = jac_eval(s, t, s->xj, s->fj);
        s->xj[j] = y[j];
        if (rc != 0)
            return -1;
        for (int i = 0; i < n; i++)
            J[(size_t)i * row_stride + (size_t)j * col_stride] = (s->fj[i] - s->f0j[i]) / h;
    }
    return 0;
}

/* gsl_odeiv2's Jacobian: dense row-major, and df/dt. */
static int jac(double t, const double y[], double *dfdy, double dfdt[],
               void *params)
{
    RtSim *s = params;
    const RtModel *m = s->m;
    size_t n = (size_t)m->n_states;
    double root_eps = sqrt(DBL_EPSILON);
    if (m->n_colors > 0) {
        if (rt_jacobian_sparse(s, t, y) != 0)
            return GSL_FAILURE;
        memset(dfdy, 0, sizeof(double) * n * n);
        for (size_t j = 0; j < n; j++)
            for (int k = m->jac_colptr[j]; k < m->jac_colptr[j + 1]; k++)
                dfdy[(size_t)m->jac_rows[k] * n + j] = s->jac_values[k];
    } else if (rt_jacobian_dense(s, t, y, dfdy, n, 1) != 0) {
        return GSL_FAILURE;
    }
    double tt = t + root_eps * fmax(fabs(t), s->opt.output_step);
    double ht = tt - t;
    if (jac_eval(s, tt, y, s->fj) != 0)
        return GSL_FAILURE;
    for (size_t i = 0; i < n; i++)
        dfdt[i] = (s->fj[i] - s->f0j[i]) / ht;
    return GSL_SUCCESS;
}

/* ---- the gsl_odeiv2 stepper -------------------------------------------- */

/* The gsl_odeiv2 steppers that keep a history of past steps, and so step
   freely past output times, with rows from their interpolant
   (rt_dense.c). */
static int gsl_multistep(const RtSim *s)
{
    return s->opt.stepper == gsl_odeiv2_step_msbdf || s->opt.stepper == gsl_odeiv2_step_msadams;
}

static int gsl_setup(RtSim *s)
{
    s->sys.function = rhs;
    s->sys.jacobian = jac;
    s->sys.dimension = (size_t)s->m->n_states;
    s->sys.params = s;
    s->drv = gsl_odeiv2_driver_alloc_scaled_new(&s->sys, s->opt.stepper, s->h,
                                                s->opt.atol, s->opt.rtol, 1.0,
                                                0.0, s->nominal);
    if (!s->drv) {
        rt_message(stderr, s->prog, "error", "cannot set up the %s solver", s->opt.solver);
        return -1;
    }
    if (gsl_multistep(s)) {
        s->dense = rt_dense_new(s->m->n_states);
        s->free_steps = 1;
    }
    return 0;
}

static void gsl_teardown(RtSim *s)
{
    if (s->drv)
        gsl_odeiv2_driver_free(s->drv);
    s->drv = NULL;
    rt_dense_free(s->dense);
    s->dense = NULL;
}

static void gsl_restart(RtSim *s, double t, const double *x)
{
    (void)t;
    (void)x;        /* evolve takes the state with every step */
    if (s->drv)
        gsl_odeiv2_driver_reset(s->drv);
    if (s->dense) {
        /* a multistep method starts again at order 1: with its first step
           a short one, as at the start, not the last one of the high
           order (a first step of 0.5 s from 1 s over 10 sin(2 pi t)
           predicted and corrected nothing, so its error estimate was 0) */
        rt_dense_clear(s->dense);
        s->h = fmin(s->h, s->h_start);
    }
    s->collapse_steps = 0;
}

/* One evolve step towards t1 from (*t, x).  A multistep method's
   interpolant gets the step's ends: evolve keeps the start state (y0)
   and both derivatives (msbdf and msadams use dydt_in and compute
   dydt_out exactly). */
static int gsl_step(RtSim *s, double *t, double t1, double *h, double *x)
{
    gsl_odeiv2_driver *d = s->drv;
    double t_before = *t;
    s->pending.kind = RT_FAILKIND_NONE;
    s->last_eval_failed = 0;
    s->end_watch = s->m->n_delays <= 0 ? x : NULL;
    int st = gsl_odeiv2_evolve_apply(d->e, d->c, d->s, &s->sys, t, t1, h, x);
    s->end_watch = NULL;
    if (st != GSL_SUCCESS) {
        s->h = *h;
        return rt_step_failed(s, st, t_before);
    }
    if (s->dense) {
        rt_dense_push(s->dense, t_before, d->e->y0, d->e->dydt_in);
        rt_dense_push(s->dense, *t, x, d->e->dydt_out);
        rt_dense_order(s->dense, (int)gsl_odeiv2_step_order(d->s));
    }
    return 0;
}

static int gsl_dense(RtSim *s, double t, double *x)
{
    return s->dense ? rt_dense_eval(s->dense, t, x) : -1;
}

const RtStepper rt_stepper_gsl = {
    "gsl_odeiv2", gsl_setup, gsl_teardown, gsl_step, gsl_restart, gsl_dense,
};

/* ---- the run ------------------------------------------------------------ */

int rt_integrate_setup(RtSim *s)
{
    int n = s->m->n_states;
    if (!s->opt.solver_given && n >= RT_CVODE_MIN_STATES && s->m->n_colors > 0) {
        s->opt.solver = "cvode";
        s->opt.stepper = NULL;
        s->opt.backend = &rt_stepper_cvode;
    }
    if (!s->opt.backend)
        s->opt.backend = &rt_stepper_gsl;
    if (n <= 0)
        return 0;
    if (s->m->n_colors > 0)
        s->jac_values = rt_xcalloc((size_t)s->m->jac_colptr[n],
                                   sizeof *s->jac_values);
    double span = s->opt.stop_time > 0 ? fmin(s->opt.stop_time, s->opt.output_step)
                                       : s->opt.output_step;
    s->h = s->h_start = 1e-3 * span;
    s->ft = s->step_t0 = s->t;
    memcpy(s->fx, s->x, (size_t)n * sizeof *s->fx);
    for (int i = 0; i < s->m->n_relations; i++)
        s->n_time_rel += s->m->relations[i].time_only != 0;
    for (int i = 0; i < s->m->n_relations; i++)
        s->n_event_rel += !s->m->relations[i].assert_only;
    s->probes_evaluate = rt_ev_probes_evaluate(s);
    return s->opt.backend->setup(s);
}

void rt_integrate_teardown(RtSim *s)
{
    if (s->opt.backend)
        s->opt.backend->teardown(s);
    free(s->jac_values);
    s->jac_values = NULL;
}

void rt_solver_reset(RtSim *s)
{
    int n = s->m->n_states;
    if (!s->opt.backend || n <= 0)
        return;
    s->opt.backend->restart(s, s->t, s->x);
    /* no step ahead: the next one starts here */
    s->ft = s->step_t0 = s->t;
    s->ft_bp = 0;
    memcpy(s->fx, s->x, (size_t)n * sizeof *s->fx);
}

int rt_trajectory(RtSim *s, double t0, const double *x0, double t, double *x)
{
    if (s->free_steps && t >= s->step_t0 && t <= s->ft && s->opt.backend->dense(s, t, x) == 0)
        return 0;
    return rt_reintegrate(s, t0, x0, t, x) != 0 ? -1 : 1;
}

double rt_output_time(const RtOptions *o, long k, long *n_rows)
{
    double T = o->stop_time, dt = o->output_step;
    long last = (long)floor(T / dt + 1e-9);   /* the last multiple */
    int extra = fabs(T - (double)last * dt) > 1e-9 * dt; /* T is not one */
    if (n_rows)
        *n_rows = last + 1 + extra;
    if (k >= last + extra)
        return T;
    return (double)k * dt;
}

/* A step that the solver gave up on: blame the evaluation if the last
   one failed, else the solver. */
int rt_step_failed(RtSim *s, int gsl_status, double t)
{
    if (s->last_eval_failed && s->pending.kind != RT_FAILKIND_NONE) {
        s->fail = s->pending;
        return -1;
    }
    rt_fail_simple(&s->fail, RT_FAILKIND_SOLVER, t, -1);
    s->fail.code = gsl_status;
    s->fail.h = s->h;
    return -1;
}

/* An accepted step of dt: is the step size collapsing on a failed
   evaluation?  Evolve halves the step after each failure and may then
   succeed with a tiny one, again and again, creeping towards a point
   where a block cannot be solved (the basin of its Newton iteration
   shrinking to nothing): a run that would take a million steps, 45 s
   with bsimp on tests/runtime/collapse.c, to end in the step limit.  An
   episode of RT_COLLAPSE_STEPS accepted steps that each needed a failed
   evaluation, with fewer than RT_COLLAPSE_CLEAN clean steps between two,
   whose step has shrunk below RT_COLLAPSE_RATIO of its first, reports
   that evaluation's failure with its block. */
static int collapsing(RtSim *s, double dt)
{
    if (s->pending.kind == RT_FAILKIND_NONE) {
        /* a few clean steps do not end the episode; many in a row, or a
           step back at the size it began with, do */
        if (++s->collapse_clean >= RT_COLLAPSE_CLEAN || dt >= s->collapse_h0)
            s->collapse_steps = 0;
        return 0;
    }
    s->collapse_clean = 0;
    if (s->collapse_steps++ == 0)
        s->collapse_h0 = dt;
    if (s->collapse_steps < RT_COLLAPSE_STEPS || !(dt < RT_COLLAPSE_RATIO * s->collapse_h0))
        return 0;
    s->fail = s->pending;
    if (s->fail.kind == RT_FAILKIND_EVAL) {
        s->fail.collapsed = 1;  /* a delay's failure keeps its tau in h */
        s->fail.h = dt;
    }
    return -1;
}

/* One accepted step of the solver in use, watched for a collapsing step
   size. */
static int step(RtSim *s, double *t, double t1, double *h, double *x)
{
    double t_before = *t;
    if (s->opt.max_step > 0 && *h > s->opt.max_step)
        *h = s->opt.max_step;   /* --max-step (CVODE: CVodeSetMaxStep) */
    double lim = rt_delays_step_limit(s);
    if (lim > 0 && t1 > *t + lim)
        t1 = *t + lim;          /* a step reads only accepted history */
    if (s->opt.backend->step(s, t, t1, h, x) != 0)
        return -1;
    return collapsing(s, *t - t_before);
}

int rt_reintegrate(RtSim *s, double t0, const double *x0, double t1,
                   double *x)
{
    int n = s->m->n_states;
    memcpy(x, x0, (size_t)n * sizeof *x);
    if (!(t1 > t0))
        return 0;
    s->opt.backend->restart(s, t0, x0);
    double t = t0, h = fmin(s->h, t1 - t0);
    for (long k = 0; t < t1; k++) {
        if (k >= RT_MAX_STEPS_PER_OUTPUT) {
            rt_fail_simple(&s->fail, RT_FAILKIND_STEPS, t, -1);
            return -1;
        }
        if (step(s, &t, t1, &h, x) != 0)
            return -1;
    }
    return 0;
}

/* An evaluation at the current state failed, where none failed at
   (t0, x0): at the accepted end of a step, or, for a value that only
   complete evaluations compute (no derivative or relation reads it), at
   a row.  The first failing time is located by bisection on the
   trajectory (the solver integrates again from (t0, x0), with
   complete evaluations), so that the report says when it happened, not
   when the step or the rows reached it.  The failure reported is the
   one at the earliest failing point found. */
static int locate_failure(RtSim *s, double t0, const double *x0)
{
    double lo = t0, hi = s->t;
    RtFailure f = s->fail;
    for (int it = 0; it < 60; it++) {
        double tol = 1e-12 * fmax(fabs(hi), s->opt.stop_time);
        if (!(hi - lo > tol))
            break;
        double tm = 0.5 * (lo + hi);
        if (rt_trajectory(s, t0, x0, tm, s->xt) < 0)
            break;
        RtFailure g;
        g.kind = RT_FAILKIND_NONE;
        if (eval_trial(s, tm, s->xt, s->dxt, s->alg, &g) != 0) {
            hi = tm;
            f = g;
        } else {
            lo = tm;
        }
    }
    s->fail = f;
    return -1;
}

/* The next step of the solver, from its frontier (which the run has
   reached, s->t == s->ft).  It ends no later than the stop time (or tout
   beyond it), a delay's breakpoint or the crossing of a relation on time
   alone (all three are breakpoints: the step ends exactly there); a
   one-step method's also at tout, the next output time, since it has no
   interpolant for the rows between.  A multistep method is never clipped
   at output times: a step cut short for a row rescales its history and
   keeps it at low order (msbdf had missed its tolerance 355 times over on
   a free fall; tests/e2e/accuracy.sh).  Nothing else changes the
   solver's step size.  Returns 0, or -1 with s->fail set. */
static int next_step(RtSim *s, double tout)
{
    double bp = rt_delays_breakpoint(s, s->t);
    double end = s->opt.horizon > 0 ? s->opt.horizon : s->opt.stop_time;
    double t1 = s->free_steps ? fmax(end, tout) : tout;
    t1 = fmin(t1, bp);
    t1 = rt_time_events_limit(s, t1);
    s->step_t0 = s->ft = s->t;
    if (t1 - s->t <= 1e-12 * fmax(fabs(t1), s->opt.stop_time)) {
        /* a relation on time alone changes right after s->t (a strict one
           whose threshold the last step ended at): its event is here,
           at the same state, with no step of the solver to take */
        s->step_t0 = s->ft = t1;
        s->ft_bp = 0;
        return 0;
    }
    if (step(s, &s->ft, t1, &s->h, s->fx) != 0)
        return -1;
    s->ft_bp = s->ft == bp;
    return 0;
}

/* Whether the interval's end (s->t, s->x) is the state of the latest
   evaluation, the solver's at its step's end (RtSim.end_watch): its
   algebraic values are in s->alg, and its derivative is kept.
   The same evaluation again would compute the same: same time, state,
   parameters and modes, no block solved from guesses, no delay.  Its
   algebraic values still get an accepted state's check (rt_eval.c).  The
   derivative's buffer becomes s->dx, by exchange, and the kept copy is
   spent. */
static int end_evaluated(RtSim *s)
{
    size_t n = (size_t)s->m->n_states;
    if (s->end_serial != s->eval_serial || s->end_t != s->t
        || memcmp(s->end_x, s->x, n * sizeof *s->x) != 0
        || !rt_all_finite(s->alg, rt_alg_written(s, 1)))
        return 0;
    double *keep = s->dx;
    s->dx = s->end_dx;
    s->end_dx = keep;
    s->end_t = NAN;
    return 1;
}

/* From s->t to tout, one interval at a time: the rest of the solver's
   last step up to tout (the state there from its interpolant), or a new
   step.  Each interval's end is evaluated and checked like an accepted
   state, its events located and handled (an event restarts the solver
   there, so the rest of its step is dropped), the asserts checked and the
   delays sampled. */
static int advance_ode(RtSim *s, double tout)
{
    int n = s->m->n_states;
    long steps = 0;
    while (s->t < tout) {
        if (++steps > RT_MAX_STEPS_PER_OUTPUT) {
            rt_fail_simple(&s->fail, RT_FAILKIND_STEPS, s->t, -1);
            return -1;
        }
        double t0 = s->t;
        /* the interval's start, kept by exchanging the buffers: x and dx
           are written whole below (the state, then the evaluation) */
        double *keep = s->x0;
        s->x0 = s->x;
        s->x = keep;
        keep = s->dx0;
        s->dx0 = s->dx;
        s->dx = keep;
        if (!(s->ft > s->t) && next_step(s, tout) != 0) {
            memcpy(s->x, s->x0, (size_t)n * sizeof *s->x);
            memcpy(s->dx, s->dx0, (size_t)n * sizeof *s->dx);
            return -1;
        }
        if (s->ft <= tout) {
            s->t = s->ft;
            memcpy(s->x, s->fx, (size_t)n * sizeof *s->x);
        } else {
            /* a row inside the step, from the solver's interpolant; a
               step too short for one (CVODE's Euler step over less than
               rounding, the event just ahead) leaves its start, as good */
            s->t = tout;
            if (!(tout >= s->step_t0) || s->opt.backend->dense(s, tout, s->x) != 0)
                memcpy(s->x, s->x0, (size_t)n * sizeof *s->x);
            /* the Newton guesses of the interval's start, not those of the
               solver's trial points further on */
            size_t na = rt_alg_written(s, 1);
            if (na > 0)
                memcpy(s->alg, s->alg_good, na * sizeof *s->alg);
        }
        /* the interval's end may lie past a crossing: evaluated like a
           trial point, and the event code takes it from there; what the
           derivatives, the relations, the assertions and the delays read
           is enough (rt_complete computes the rest for a row) */
        s->solver_eval = 2;
        int bad = end_evaluated(s) ? 0 : eval_trial(s, s->t, s->x, s->dx, s->alg, &s->fail);
        s->solver_eval = 0;
        if (bad)
            return locate_failure(s, t0, s->x0);
        rt_accept_alg(s);
        if (rt_events_after_step(s, t0, s->x0, s->dx0) != 0)
            return -1;
        if (rt_check_asserts(s) != 0)
            return -1;
        if (rt_delays_sample(s, s->t, s->x, s->dx, s->alg) != 0)
            return -1;
        /* a breakpoint of a delayed jump: the stepper restarts there */
        if (s->ft_bp && s->t == s->ft)
            rt_solver_reset(s);
        rt_progress_update(s->progress, s->t);
    }
    return 0;
}

/* Without states: evaluations at tout.  Each pass either reaches tout or
   stops at an event before it; the chattering guard bounds the number of
   events. */
static int advance_algebraic(RtSim *s, double tout)
{
    while (s->t < tout) {
        double t0 = s->t;
        /* with delays, sub-steps of an eighth of the shortest tau, so
           that their history is sampled finely enough */
        double lim = rt_delays_step_limit(s);
        double t1 = lim > 0 && t0 + lim / 8 < tout ? t0 + lim / 8 : tout;
        s->t = t1;
        if (eval_trial(s, t1, s->x, NULL, s->alg, &s->fail) != 0)
            return -1;
        rt_accept_alg(s);
        if (rt_events_after_step(s, t0, NULL, NULL) != 0)
            return -1;
        if (rt_delays_sample(s, s->t, s->x, NULL, s->alg) != 0)
            return -1;
    }
    if (rt_check_asserts(s) != 0)
        return -1;
    rt_progress_update(s->progress, tout);
    return 0;
}

/* Whether the written columns need complete evaluations for their rows
   (RtColumnInfo.complete; a model without the table: yes). */
static int rows_need_complete(RtSim *s)
{
    const RtModel *m = s->m;
    if (!s->rows_known) {
        s->rows_known = 1;
        s->rows_complete = !m->column_info;
        for (int i = 0; i < s->opt.n_vars && !s->rows_complete; i++)
            s->rows_complete = rt_column_info(m, s->opt.vars[i])->complete;
    }
    return s->rows_complete;
}

int rt_complete(RtSim *s)
{
    if (!s->alg_partial || s->m->n_states <= 0 || !rows_need_complete(s))
        return 0;
    if (eval_trial(s, s->t, s->x, s->dx, s->alg, &s->fail) != 0)
        return locate_failure(s, s->full_t, s->full_x);
    rt_accept_alg(s);
    return 0;
}

int rt_advance(RtSim *s, double tout)
{
    return s->m->n_states > 0 ? advance_ode(s, tout) : advance_algebraic(s, tout);
}

int rt_run(RtSim *s)
{
    long n_rows;
    rt_output_time(&s->opt, 0, &n_rows);
    if (rt_delays_start(s) != 0)
        return -1;
    if (rt_csv_row(s, s->t, s->x, s->dx, s->alg) != 0)
        return -1;
    s->out_last = s->t;
    for (long k = 1; k < n_rows; k++) {
        double tout = rt_output_time(&s->opt, k, NULL);
        s->out_next = tout;
        if (rt_advance(s, tout) != 0)
            return -1;
        /* an event at tout wrote its two rows there already */
        if (s->event_row_t != tout
            && (rt_complete(s) != 0
                || rt_csv_row(s, tout, s->x, s->m->n_states > 0 ? s->dx : NULL, s->alg) != 0))
            return -1;
        s->out_last = tout;
    }
    s->out_next = NAN;
    return 0;
}
