/*
 * rt_events.c - modes, zero crossings, event location and event handling.
 *
 * Between events every relation's truth value is frozen in a mode bit, so
 * the right-hand side stays smooth and the steppers (implicit ones
 * especially) see no jumps.  After each accepted step the relations are
 * evaluated with the modes still frozen; one whose value differs from its
 * mode has crossed during the step.
 *
 * Location.  The crossing is kept in a bracket [L, R] of points on the
 * integrated trajectory, no relation changed at L, some changed at R;
 * it starts as the step.  For each relation changed at R, its
 * zero-crossing function g, oriented to be >= 0 on the mode's side, is
 * located on the cubic Hermite interpolant of x and dx between L and R
 * with the Illinois variant of regula falsi, to the time tolerance; the
 * earliest crossing wins.  Which side of a crossing a trial time lies on
 * is decided by relation_values, not by the sign of g, so strict and
 * non-strict relations are told apart exactly as the model defines them;
 * g only steers the secant.
 *
 * Confirming on the trajectory.  The interpolant is only as good as the
 * step is short, so the stepper integrates again from L to both ends of
 * the located bracket, and each result becomes the new L or R.  A point
 * that contradicts the interpolant (the crossing came earlier or later)
 * just narrows the bracket for another, better pass on a shorter
 * interval.  When the bracket is narrower than the tolerance the event is
 * at R: the first point known to be past the crossing, so the flipped
 * mode agrees with the state it starts from, and a state as accurate as
 * any other the solver produced.  The passes are bounded; the worst case
 * is a wider bracket, never a state on the wrong side.
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
        if (!m->relations[i].table1) /* a segment mode keeps its segment */
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

/* g oriented so that it is >= 0 while relation i keeps its mode (a
   segment mode's crossing function is, already). */
static double oriented(const RtSim *s, int i)
{
    if (s->m->relations[i].table1)
        return s->g[i];
    return s->modes[i] ? s->g[i] : -s->g[i];
}

static int first_changed(const RtSim *s)
{
    for (int i = 0; i < s->m->n_relations; i++)
        if (s->truth[i] != s->modes[i])
            return i;
    return -1;
}

/* Relation i cannot matter now: its guard's frozen mode is off.  If the
   guard turns on within the same step, the guard's own event sets i's
   mode when it settles the modes. */
static int inert(const RtSim *s, const int *modes, int i)
{
    const RtRelationInfo *r = &s->m->relations[i];
    int g = r->guard;
    if (g < 0 || g >= s->m->n_relations)
        return 0;
    return modes[g] != r->guard_value;
}

/* The first relation that changed and matters, or -1. */
static int first_changed_active(const RtSim *s)
{
    for (int i = 0; i < s->m->n_relations; i++)
        if (s->truth[i] != s->modes[i] && !inert(s, s->modes, i))
            return i;
    return -1;
}

int rt_modes_settle(RtSim *s, double t, const double *x, int during_init)
{
    const RtModel *m = s->m;
    int limit = m->n_relations + RT_MAX_MODE_ITER_EXTRA;
    int last = -1;
    /* a table queried outside its grid fails only in the settled modes */
    s->table_tolerant = 1;
    for (int it = 0; it < limit; it++) {
        s->table_pending.kind = RT_FAILKIND_NONE;
        if (rt_eval_checked(s, t, x, s->dx, s->alg, s->modes, &s->fail) != 0) {
            s->table_tolerant = 0;
            s->fail.during_init = during_init;
            return -1;
        }
        int changed = -1;
        if (m->n_relations > 0 && m->relation_values) {
            RtEval e = rt_eval_make(s, t, x, s->dx, s->alg, s->modes);
            relations_at(s, &e);
            changed = first_changed(s);
        }
        if (changed < 0) {
            s->table_tolerant = 0;
            if (s->table_pending.kind == RT_FAILKIND_NONE)
                return 0;
            s->fail = s->table_pending;
            s->fail.during_init = during_init;
            return -1;
        }
        last = changed;
        memcpy(s->modes, s->truth, (size_t)m->n_relations * sizeof *s->modes);
    }
    s->table_tolerant = 0;
    rt_fail_simple(&s->fail, RT_FAILKIND_MODES, t, last);
    s->fail.during_init = during_init;
    return -1;
}

/* The state at t between two points of the trajectory, by cubic Hermite
   interpolation. */
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

/* A point of the trajectory: time, state and derivative (own storage,
   since probes overwrite s->x, s->dx and s->alg). */
typedef struct Point {
    double t;               /* time */
    double *x;              /* state, n_states */
    double *f;              /* its derivative */
} Point;

/* The bracket of the crossing on the trajectory: no relation has changed
   at L, at least one has at R. */
typedef struct Bracket {
    Point L;                /* no relation has changed here */
    Point R;                /* at least one has */
} Bracket;

static void point_set(int n, Point *p, double t, const double *x,
                      const double *f)
{
    p->t = t;
    if (n > 0) {
        memcpy(p->x, x, (size_t)n * sizeof *x);
        memcpy(p->f, f, (size_t)n * sizeof *f);
    }
}

static int probe_interpolated(RtSim *s, const Bracket *br, double t)
{
    hermite(s->m->n_states, br->L.t, br->L.x, br->L.f, br->R.t, br->R.x,
            br->R.f, t, s->xt);
    return probe(s, t, s->xt, s->dxt);
}

/* Shrinks [a, b] around relation i's crossing on the interpolant
   (Illinois), to the time tolerance.  ha and hb are its oriented g at the
   ends of the bracket. */
static int locate(RtSim *s, const Bracket *br, int i, double ha, double hb,
                  double *ta, double *tb)
{
    double a = br->L.t, b = br->R.t;
    double tol = time_tol(s, b);
    int side = 0;
    for (int it = 0; it < RT_MAX_LOCATE_ITER && b - a > tol; it++) {
        double c = ha > 0 && hb < 0 ? b - hb * (b - a) / (hb - ha)
                                    : 0.5 * (a + b);
        /* Stay inside by half a tolerance, so every probe shrinks the
           bracket even when the secant lands on an end. */
        double lo = a + 0.5 * tol, hi = b - 0.5 * tol;
        c = lo >= hi ? 0.5 * (a + b) : fmin(fmax(c, lo), hi);
        if (probe_interpolated(s, br, c) != 0)
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
    *ta = a;
    *tb = b;
    return 0;
}

/* The earliest crossing between L and R on the interpolant, as a bracket
   [*ta, *tb] no wider than the time tolerance. */
static int earliest_crossing(RtSim *s, const Bracket *br, double *ta,
                             double *tb)
{
    int nr = s->m->n_relations;
    int *crossed = rt_xcalloc((size_t)nr, sizeof *crossed);
    double *h0 = rt_xcalloc((size_t)nr, sizeof *h0);
    double *h1 = rt_xcalloc((size_t)nr, sizeof *h1);
    int rc = probe(s, br->R.t, br->R.x, s->dxt);
    for (int i = 0; i < nr && rc == 0; i++) {
        crossed[i] = s->truth[i] != s->modes[i] && !inert(s, s->modes, i);
        h1[i] = oriented(s, i);
    }
    if (rc == 0)
        rc = probe(s, br->L.t, br->L.x, s->dxt);
    for (int i = 0; i < nr && rc == 0; i++)
        h0[i] = oriented(s, i);
    *ta = br->L.t;
    *tb = br->R.t;
    for (int i = 0; i < nr && rc == 0; i++) {
        if (!crossed[i])
            continue;
        double a, b;
        rc = locate(s, br, i, h0[i], h1[i], &a, &b);
        if (rc == 0 && b < *tb) {
            *ta = a;
            *tb = b;
        }
    }
    free(crossed);
    free(h0);
    free(h1);
    return rc;
}

/* Moves the trajectory from L to t by integrating, and probes there.
   Returns 1 if a relation has changed at t, 0 if not, -1 on failure. */
static int integrate_and_probe(RtSim *s, const Bracket *br, double t)
{
    if (rt_reintegrate(s, br->L.t, br->L.x, t, s->xt) != 0
        || probe(s, t, s->xt, s->dxt) != 0)
        return -1;
    return first_changed_active(s) >= 0;
}

/* Narrows the bracket until it is no wider than the time tolerance, with
   every point on the integrated trajectory: locate on the interpolant,
   then integrate to both ends of the located bracket to confirm it.  A
   point that contradicts the interpolant becomes the new end, and the
   next pass, on a shorter interval, interpolates better.  Bounded; the
   worst case leaves a wider bracket, never a wrong one. */
static int refine(RtSim *s, Bracket *br)
{
    int n = s->m->n_states;
    for (int pass = 0; pass < RT_MAX_EVENT_REFINE; pass++) {
        if (br->R.t - br->L.t <= time_tol(s, br->R.t))
            return 0;
        double a, b;
        if (earliest_crossing(s, br, &a, &b) != 0)
            return -1;
        if (n == 0) {
            /* No states: the located times are exact. */
            br->L.t = a;
            br->R.t = b;
            return 0;
        }
        if (a > br->L.t) {
            int rc = integrate_and_probe(s, br, a);
            if (rc < 0)
                return -1;
            if (rc) {
                point_set(n, &br->R, a, s->xt, s->dxt);
                continue;
            }
            point_set(n, &br->L, a, s->xt, s->dxt);
        }
        if (b < br->R.t) {
            int rc = integrate_and_probe(s, br, b);
            if (rc < 0)
                return -1;
            if (!rc) {
                point_set(n, &br->L, b, s->xt, s->dxt);
                continue;
            }
            point_set(n, &br->R, b, s->xt, s->dxt);
        }
    }
    return 0;
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

/* Handles the event at R, the first point known to be past the
   crossing: its state becomes the current one. */
static int handle_event(RtSim *s, const Point *R)
{
    const RtModel *m = s->m;
    int nr = m->n_relations, n = m->n_states;
    double te = R->t;
    s->t = te;
    if (n > 0)
        memcpy(s->x, R->x, (size_t)n * sizeof *s->x);
    if (probe(s, te, s->x, s->dx) != 0)
        return -1;
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
            const RtRelationInfo *ri = &m->relations[i];
            int g = ri->guard;
            /* a guarded relation speaks only while its guard was on */
            int quiet = g >= 0 && g < nr && old[g] != ri->guard_value;
            if (s->modes[i] != old[i] && !quiet) {
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
    if (first_changed(s) < 0)
        return 0;
    if (first_changed_active(s) < 0) {
        /* only relations in branches not taken: follow them silently */
        for (int i = 0; i < nr; i++)
            if (s->truth[i] != s->modes[i] && inert(s, s->modes, i))
                s->modes[i] = s->truth[i];
        return 0;
    }
    double *store = rt_xcalloc(4 * (size_t)n, sizeof *store);
    Bracket br = {{t0, store, store + n}, {s->t, store + 2 * n, store + 3 * n}};
    point_set(n, &br.L, t0, x0, dx0);
    point_set(n, &br.R, s->t, s->x, s->dx);
    int rc = refine(s, &br);
    if (rc == 0)
        rc = handle_event(s, &br.R);
    free(store);
    return rc;
}
