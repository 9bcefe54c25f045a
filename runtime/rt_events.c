/*
 * rt_events.c - modes, zero crossings, event location and event handling.
 *
 * Between events every relation's truth value is frozen in a mode bit, so
 * the right-hand side stays smooth and the steppers (implicit ones
 * especially) see no jumps.  After each accepted step the relations are
 * evaluated with the modes still frozen; one whose value differs from its
 * mode has crossed during the step.
 *
 * Location.  For each relation that crossed, its zero-crossing function
 * g(t), oriented to be >= 0 on the mode's side, is bracketed on
 * [t0, t1] and the bracket shrunk with the Illinois variant of regula
 * falsi until it is narrower than the time tolerance.  The states inside
 * the step come from cubic Hermite interpolation on x and dx at both ends,
 * which is cheap and as smooth as the solution.  Which side of the
 * crossing a trial time lies on is decided by relation_values, not by the
 * sign of g, so strict and non-strict relations are told apart exactly as
 * the model defines them; g only steers the secant.  The earliest
 * crossing wins.  The event time is the right end of its bracket: the
 * first time known to be past the crossing, so the flipped mode agrees
 * with the state it starts from.
 *
 * Moving to the event.  The stepper integrates again from the step's
 * start to the event time, so the event state is as accurate as any other
 * (interpolation error would otherwise grow with the step).  If the
 * re-integrated state turns out not to be past the crossing (the
 * interpolant was slightly off), it is an ordinary accepted point and the
 * next, short step finds the crossing again; after RT_MAX_NEAR_MISSES of
 * those the interpolated state is used, so this cannot loop.
 *
 * At the event: the row before (old modes), the flip, a fixed-point
 * iteration of the modes (a flip can change algebraic values that other
 * relations read), the log line for every relation that changed, the row
 * after, and a stepper reset, since its history describes the old
 * right-hand side.  Too many events in a short window is chattering: the
 * run stops with a message rather than crawling forever.
 */
#include "rt_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RT_EVENT_RTOL 1e-12         /* event time tolerance, relative */

static double time_tol(const RtSim *s, double t)
{
    double tol = RT_EVENT_RTOL * fmax(fabs(t), s->opt.stop_time);
    tol = fmax(tol, 4 * DBL_EPSILON * fabs(t));
    return tol > 0 ? tol : DBL_MIN;
}

/* The relations' truth values (0/1) and crossing functions at an
   evaluated state. */
static void relations_at(RtSim *s, const RtEval *e)
{
    const RtModel *m = s->m;
    m->relation_values(e, s->truth);
    for (int i = 0; i < m->n_relations; i++)
        s->truth[i] = s->truth[i] != 0;
    if (m->zero_crossings)
        m->zero_crossings(e, s->g);
    else
        for (int i = 0; i < m->n_relations; i++)
            s->g[i] = s->truth[i] ? 1 : -1;
}

/* Evaluates at (t, x) with the frozen modes into dx/s->alg, then the
   relations. */
static int probe(RtSim *s, double t, const double *x, double *dx)
{
    if (rt_eval_checked(s, t, x, dx, s->alg, s->modes, &s->fail) != 0)
        return -1;
    RtEval e = rt_eval_make(s, t, x, dx, s->alg, s->modes);
    relations_at(s, &e);
    return 0;
}

/* g oriented so that it is >= 0 while relation i keeps its mode. */
static double oriented(const RtSim *s, int i)
{
    return s->modes[i] ? s->g[i] : -s->g[i];
}

static int first_changed(const RtSim *s)
{
    for (int i = 0; i < s->m->n_relations; i++)
        if (s->truth[i] != s->modes[i])
            return i;
    return -1;
}

int rt_modes_settle(RtSim *s, double t, const double *x, int during_init)
{
    const RtModel *m = s->m;
    int limit = m->n_relations + RT_MAX_MODE_ITER_EXTRA;
    int last = -1;
    for (int it = 0; it < limit; it++) {
        if (rt_eval_checked(s, t, x, s->dx, s->alg, s->modes, &s->fail) != 0) {
            s->fail.during_init = during_init;
            return -1;
        }
        if (m->n_relations <= 0 || !m->relation_values)
            return 0;
        RtEval e = rt_eval_make(s, t, x, s->dx, s->alg, s->modes);
        relations_at(s, &e);
        int changed = first_changed(s);
        if (changed < 0)
            return 0;
        last = changed;
        memcpy(s->modes, s->truth, (size_t)m->n_relations * sizeof *s->modes);
    }
    rt_fail_simple(&s->fail, RT_FAILKIND_MODES, t, last);
    s->fail.during_init = during_init;
    return -1;
}

/* The state at t inside the step, by cubic Hermite interpolation. */
static void hermite(int n, double t0, const double *x0, const double *f0,
                    double t1, const double *x1, const double *f1, double t,
                    double *out)
{
    double h = t1 - t0, u = h != 0 ? (t - t0) / h : 1, v = 1 - u;
    double h00 = (1 + 2 * u) * v * v, h10 = u * v * v;
    double h01 = u * u * (3 - 2 * u), h11 = -u * u * v;
    for (int i = 0; i < n; i++)
        out[i] = h00 * x0[i] + h10 * h * f0[i] + h01 * x1[i] + h11 * h * f1[i];
}

/* The step being searched: its two ends, kept apart from s->x and s->dx,
   which the probes overwrite. */
typedef struct Step {
    double t0, t1;
    const double *x0, *f0, *x1, *f1;
} Step;

static int probe_in_step(RtSim *s, const Step *st, double t)
{
    hermite(s->m->n_states, st->t0, st->x0, st->f0, st->t1, st->x1, st->f1,
            t, s->xt);
    return probe(s, t, s->xt, s->dxt);
}

/* Shrinks [a, b] around relation i's crossing (Illinois); *te gets the
   right end.  ha and hb are its oriented g at a and b. */
static int locate(RtSim *s, const Step *st, int i, double ha, double hb,
                  double *te)
{
    double a = st->t0, b = st->t1;
    double tol = time_tol(s, b);
    int side = 0;
    for (int it = 0; it < RT_MAX_LOCATE_ITER && b - a > tol; it++) {
        double c = ha > 0 && hb < 0 ? b - hb * (b - a) / (hb - ha)
                                    : 0.5 * (a + b);
        /* Stay inside by half a tolerance, so every probe shrinks the
           bracket even when the secant lands on an end. */
        double lo = a + 0.5 * tol, hi = b - 0.5 * tol;
        c = lo >= hi ? 0.5 * (a + b) : fmin(fmax(c, lo), hi);
        if (probe_in_step(s, st, c) != 0)
            return -1;
        double hc = oriented(s, i);
        if (s->truth[i] != s->modes[i]) {
            b = c;
            hb = hc;
            if (side < 0)
                ha *= 0.5;
            side = -1;
        } else {
            a = c;
            ha = hc;
            if (side > 0)
                hb *= 0.5;
            side = 1;
        }
    }
    *te = b;
    return 0;
}

/* The earliest crossing in the step.  s->truth and s->g hold the
   relations at t1 on entry. */
static int earliest_crossing(RtSim *s, const Step *st, double *te)
{
    const RtModel *m = s->m;
    int nr = m->n_relations;
    int *crossed = rt_xcalloc((size_t)nr, sizeof *crossed);
    double *h1 = rt_xcalloc((size_t)nr, sizeof *h1);
    int rc = 0;
    for (int i = 0; i < nr; i++) {
        crossed[i] = s->truth[i] != s->modes[i];
        h1[i] = oriented(s, i);
    }
    *te = st->t1;
    if (m->n_states > 0) {
        if (probe(s, st->t0, st->x0, s->dxt) != 0)
            rc = -1;
    } else if (probe(s, st->t0, s->xt, s->dxt) != 0) {
        rc = -1;
    }
    double *h0 = rt_xcalloc((size_t)nr, sizeof *h0);
    for (int i = 0; i < nr && rc == 0; i++)
        h0[i] = oriented(s, i);
    for (int i = 0; i < nr && rc == 0; i++) {
        if (!crossed[i])
            continue;
        double t;
        rc = locate(s, st, i, h0[i], h1[i], &t);
        if (rc == 0 && t < *te)
            *te = t;
    }
    free(h0);
    free(h1);
    free(crossed);
    return rc;
}

/* The chattering guard: RT_CHATTER_EVENTS events in a short window. */
static int chattering(RtSim *s, double te, int relation)
{
    s->event_times[s->n_events % RT_CHATTER_EVENTS] = te;
    s->n_events++;
    if (s->n_events < RT_CHATTER_EVENTS)
        return 0;
    double oldest = s->event_times[s->n_events % RT_CHATTER_EVENTS];
    if (te - oldest > RT_CHATTER_WINDOW * s->opt.stop_time)
        return 0;
    rt_fail_simple(&s->fail, RT_FAILKIND_CHATTER, te, relation);
    s->fail.count = RT_CHATTER_EVENTS;
    return -1;
}

/* Takes (te, s->xt, s->dxt, s->alg), past the crossing with the old
   modes, as the event state and handles the event there. */
static int handle_event(RtSim *s, double te)
{
    const RtModel *m = s->m;
    int nr = m->n_relations, n = m->n_states;
    s->t = te;
    if (n > 0) {
        memcpy(s->x, s->xt, (size_t)n * sizeof *s->x);
        memcpy(s->dx, s->dxt, (size_t)n * sizeof *s->dx);
    }
    rt_accept_alg(s);
    if (rt_csv_row(s, te, s->x, s->dx, s->alg) != 0)
        return -1;
    int *old = rt_xcalloc((size_t)nr, sizeof *old);
    memcpy(old, s->modes, (size_t)nr * sizeof *old);
    memcpy(s->modes, s->truth, (size_t)nr * sizeof *s->modes);
    int rc = rt_modes_settle(s, te, s->x, 0);
    int last = -1;
    if (rc == 0) {
        rt_accept_alg(s);
        for (int i = 0; i < nr && rc == 0; i++) {
            if (s->modes[i] != old[i]) {
                last = i;
                rc = rt_csv_event(s, te, i, s->modes[i]);
            }
        }
    } else if (s->fail.kind == RT_FAILKIND_MODES) {
        /* Modes that never settle at one instant are chattering too. */
        s->fail.kind = RT_FAILKIND_CHATTER;
        s->fail.count = m->n_relations + RT_MAX_MODE_ITER_EXTRA;
    }
    free(old);
    if (rc == 0 && last >= 0)
        rc = chattering(s, te, last);
    if (rc == 0)
        rc = rt_csv_row(s, te, s->x, s->dx, s->alg);
    rt_solver_reset(s);
    return rc;
}

int rt_events_after_step(RtSim *s, double t0, const double *x0,
                         const double *dx0)
{
    const RtModel *m = s->m;
    int n = m->n_states, nr = m->n_relations;
    if (nr <= 0 || !m->relation_values)
        return 0;
    RtEval e = rt_eval_make(s, s->t, s->x, s->dx, s->alg, s->modes);
    relations_at(s, &e);
    if (first_changed(s) < 0) {
        s->near_misses = 0;
        return 0;
    }
    /* The step's end moves to scratch: probes overwrite s->alg and the
       search needs x1 and dx1 intact. */
    double *x1 = rt_xcalloc((size_t)n, sizeof *x1);
    double *f1 = rt_xcalloc((size_t)n, sizeof *f1);
    if (n > 0) {
        memcpy(x1, s->x, (size_t)n * sizeof *x1);
        memcpy(f1, s->dx, (size_t)n * sizeof *f1);
    }
    Step st = {t0, s->t, x0, dx0, x1, f1};
    double te;
    int rc = earliest_crossing(s, &st, &te);
    if (rc == 0 && n > 0) {
        rc = rt_reintegrate(s, t0, x0, te, s->xt);
        if (rc == 0)
            rc = probe(s, te, s->xt, s->dxt);
        if (rc == 0 && first_changed(s) < 0) {
            if (++s->near_misses <= RT_MAX_NEAR_MISSES) {
                /* Not past the crossing yet: an ordinary accepted point. */
                s->t = te;
                memcpy(s->x, s->xt, (size_t)n * sizeof *s->x);
                memcpy(s->dx, s->dxt, (size_t)n * sizeof *s->dx);
                rt_accept_alg(s);
                goto done;
            }
            rc = probe_in_step(s, &st, te);
        }
    } else if (rc == 0) {
        rc = probe(s, te, s->xt, s->dxt);
    }
    if (rc == 0 && first_changed(s) < 0) {
        /* Even the interpolant is not past the crossing: give up on this
           one and go on from the step's end, which is. */
        s->t = st.t1;
        memcpy(s->xt, x1, (size_t)n * sizeof *x1);
        rc = probe(s, st.t1, s->xt, s->dxt);
        te = st.t1;
    }
    if (rc == 0) {
        s->near_misses = 0;
        rc = handle_event(s, te);
    }
done:
    free(x1);
    free(f1);
    return rc;
}
