/*
 * rt_events.c - modes, zero crossings, event location and event handling.
 *
 * Between events every relation's truth value is frozen in a mode bit, so
 * the right-hand side stays smooth and the steppers (implicit ones
 * especially) see no jumps.  After each accepted step the relations are
 * evaluated with the modes still frozen, at the step's end and at
 * RT_STEP_PROBES interior points of the step's cubic Hermite interpolant
 * (so that a relation that crosses and crosses back within one step is
 * seen when it is still crossed at a probe); one whose value differs from
 * its mode has crossed.  A crossing seen only at a probe is confirmed by
 * integrating from the step's start to the probe.
 *
 * Past a crossing.  A trial point past a crossing (a stage of the step
 * that straddles it, a location probe, the accepted end of that step) is
 * evaluated with the modes of the side it is not on, which may be
 * undefined there: sqrt(abs(x)) with abs read as x once x < 0.  Such a
 * point is evaluated first with the frozen modes; only if that fails
 * (NaN, a domain error, a block that does not converge) and some relation
 * differs from its mode there are those modes flipped to the relations'
 * values at the point and the evaluation tried again (rt_eval_past).
 * The value past the crossing is then the continuation of the side the
 * run takes after the event, which is what it must be; before the
 * crossing nothing changes, so located event states are as accurate as
 * before.
 *
 * Location.  The crossing is kept in a bracket [L, R] of points on the
 * integrated trajectory, no relation changed at L, some changed at R;
 * it starts as the step (or its start and the confirmed probe).  For each
 * relation changed at R, its zero-crossing function g, oriented to be
 * >= 0 on the mode's side, is located on the cubic Hermite interpolant of
 * x and dx between L and R with the Illinois variant of regula falsi, to
 * the time tolerance; the earliest crossing wins.  Which side of a
 * crossing a trial time lies on is decided by relation_values, not by
 * the sign of g, so strict and non-strict relations are told apart
 * exactly as the model defines them; g only steers the secant.
 *
 * Confirming on the trajectory.  The interpolant is only as good as the
 * step is short, so the stepper integrates again from L to both ends of
 * the located bracket, and each result becomes the new L or R.  A point
 * that contradicts the interpolant (the crossing came earlier or later)
 * just narrows the bracket for another, better pass on a shorter
 * interval.  When the bracket is narrower than the tolerance the event is
 * at R: the first point known to be past the crossing.  The passes are
 * bounded; the worst case is a wider bracket, never a state on the wrong
 * side.
 *
 * At the event (time te = R.t): the left-limit row (the state at L,
 * evaluated with the modes before the event, written with time te); the
 * fixed-point iteration of the modes from R's state (a flip can change
 * algebraic values that other relations read), bounded, with an error
 * that names the relations still changing; a log line for every relation
 * that changed; the assertions; the right-limit row (everything computed
 * with the settled modes); and a stepper restart, since its history
 * describes the old right-hand side.  An event within the time
 * tolerance of an output time is that output time's event: its rows and
 * log lines carry that time, and the output time gets no third row
 * (rows_time).  A crossing of relations that appear only in assertions
 * is located the same way, and the assertions are checked there: a
 * failure is reported at the crossing time, after a row with the left
 * limit; otherwise the run goes on from there without rows or log lines.
 * Too many events in a short window is chattering: the run stops with a
 * message naming the relations involved rather than crawling forever.
 * Compound transitions (resets) accumulating at a finite time are the
 * Zeno limit: two of one chart in a short window, or a reset that left
 * the state in its condition followed by a step deeper into it
 * (watch_resets), which would otherwise go on through the condition.
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

static size_t nrel(const RtSim *s)
{
    return (size_t)(s->m->n_relations > 0 ? s->m->n_relations : 0);
}

void rt_events_alloc(RtSim *s)
{
    size_t nr = nrel(s);
    size_t nev = (size_t)(s->m->n_evars > 0 ? s->m->n_evars : 0);
    s->ev = rt_xcalloc(nev, sizeof *s->ev);
    s->ev_next = rt_xcalloc(nev, sizeof *s->ev_next);
    s->md_pre = rt_xcalloc(nr, sizeof *s->md_pre);
    size_t nc = (size_t)(s->m->n_charts > 0 ? s->m->n_charts : 0);
    s->chart_moved = rt_xcalloc(nc, sizeof *s->chart_moved);
    s->chart_reset_t = rt_xcalloc(nc, sizeof *s->chart_reset_t);
    for (size_t c = 0; c < nc; c++)
        s->chart_reset_t[c] = NAN;
    s->md_trial = rt_xcalloc(nr, sizeof *s->md_trial);
    s->md_cross = rt_xcalloc(nr, sizeof *s->md_cross);
    s->watch = rt_xcalloc(nr, sizeof *s->watch);
    for (size_t i = 0; i < nr; i++)
        s->watch[i].chart = -1;
    s->gdip = rt_xcalloc(4 * nr + 1, sizeof *s->gdip);
    s->bracket = rt_xcalloc(4 * (size_t)(s->m->n_states > 0 ? s->m->n_states : 0) + 1,
                            sizeof *s->bracket);
    s->md_old = rt_xcalloc(nr, sizeof *s->md_old);
    s->truth_trial = rt_xcalloc(nr, sizeof *s->truth_trial);
    s->last_change = rt_xcalloc(nr, sizeof *s->last_change);
    s->change_rels = rt_xcalloc(RT_CHANGE_RING, sizeof *s->change_rels);
    s->change_times = rt_xcalloc(RT_CHANGE_RING, sizeof *s->change_times);
    s->event_row_t = NAN;
    s->out_last = NAN;
    s->out_next = NAN;
    s->log_t = NAN;
}

void rt_events_free(RtSim *s)
{
    rt_delays_free(s);
    void *bufs[] = {s->watch, s->md_cross, s->chart_reset_t, s->gdip, s->ev, s->ev_next, s->md_pre, s->chart_moved, s->bracket, s->md_trial, s->md_old, s->truth_trial, s->last_change,
                    s->change_rels, s->change_times};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        free(bufs[i]);
}

void rt_events_reset(RtSim *s)
{
    rt_delays_free(s);
    size_t nev = (size_t)(s->m->n_evars > 0 ? s->m->n_evars : 0);
    if (nev > 0)
        memset(s->ev, 0, nev * sizeof *s->ev);
    for (int c = 0; c < s->m->n_charts; c++)
        s->chart_reset_t[c] = NAN;
    for (int i = 0; i < s->m->n_relations; i++)
        s->watch[i].chart = -1;
    s->n_changes = 0;
    s->event_row_t = NAN;
    s->out_last = NAN;
    s->out_next = NAN;
}

/* Relation i cannot matter now: its guard's mode (in `modes`) is off.  If
   the guard turns on within the same step, the guard's own event sets
   i's mode when it settles the modes. */
static int inert(const RtSim *s, const int *modes, int i)
{
    const RtRelationInfo *r = &s->m->relations[i];
    int g = r->guard;
    if (g < 0 || g >= s->m->n_relations)
        return 0;
    return modes[g] != r->guard_value;
}

/* The relations' truth values (0/1; a segment mode's segment) into truth,
   at an evaluated state. */
static void truth_at(const RtSim *s, const RtEval *e, int *truth)
{
    const RtModel *m = s->m;
    m->relation_values(e, truth);
    for (int i = 0; i < m->n_relations; i++)
        if (!m->relations[i].table1) /* a segment mode keeps its segment */
            truth[i] = truth[i] != 0;
}

/* The truth values into s->truth and crossing functions into s->g. */
static void relations_at(RtSim *s, const RtEval *e)
{
    const RtModel *m = s->m;
    truth_at(s, e, s->truth);
    if (m->zero_crossings)
        m->zero_crossings(e, s->g);
    else
        for (int i = 0; i < m->n_relations; i++)
            s->g[i] = s->truth[i] ? 1 : -1;
}

int rt_eval_past(RtSim *s, double t, const double *x, double *dx,
                 double *alg, int *md, RtFailure *f)
{
    const RtModel *m = s->m;
    int limit = m->n_relations + RT_MAX_MODE_ITER_EXTRA;
    /* f is written only when the point fails for good: a failure cured by
       flipping is no failure of the run */
    RtFailure first, now;
    first.kind = RT_FAILKIND_NONE;
    for (int it = 0; it <= limit; it++) {
        if (rt_eval_try(s, t, x, dx, alg, md, &now) == 0)
            return 0;
        if (first.kind == RT_FAILKIND_NONE)
            first = now;
        int flipped = 0;
        if (m->n_relations > 0 && m->relation_values) {
            RtEval e = rt_eval_make(s, t, x, dx, alg, md);
            truth_at(s, &e, s->truth_trial);
            for (int i = 0; i < m->n_relations; i++) {
                if (s->truth_trial[i] != md[i]) {
                    md[i] = s->truth_trial[i];
                    flipped = 1;
                }
            }
        }
        rt_restore_alg(s, alg);
        if (!flipped)
            break;
    }
    rt_restore_alg(s, alg);
    *f = first;     /* the failure with the modes as they were */
    return -1;
}

/* Evaluates at (t, x) into dx and s->alg, past a crossing if need be,
   then the relations (their operands read the modes the evaluation
   used).  A search probe (partial) needs the relations only, which a
   solver's evaluation computes (rt_eval.c); the probe at the event's
   point is complete. */
static int probe_as(RtSim *s, double t, const double *x, double *dx, int partial)
{
    memcpy(s->md_trial, s->modes, nrel(s) * sizeof *s->md_trial);
    s->solver_eval = partial;
    s->alg_dirty = 1;
    int rc = rt_eval_past(s, t, x, dx, s->alg, s->md_trial, &s->fail);
    s->solver_eval = 0;
    if (rc != 0)
        return -1;
    RtEval e = rt_eval_make(s, t, x, dx, s->alg, s->md_trial);
    relations_at(s, &e);
    return 0;
}

static int probe(RtSim *s, double t, const double *x, double *dx)
{
    return probe_as(s, t, x, dx, 1);
}

/* The sign that orients relation i's crossing function to be >= 0 while
   it keeps its mode (a segment mode's crossing function is, already). */
static double orientation(const RtSim *s, int i)
{
    return s->m->relations[i].table1 || s->modes[i] ? 1 : -1;
}

/* g oriented so that it is >= 0 while relation i keeps its mode. */
static double oriented(const RtSim *s, int i)
{
    return orientation(s, i) * s->g[i];
}

/* The first relation that changed and matters, or -1. */
static int first_changed_active(const RtSim *s)
{
    for (int i = 0; i < s->m->n_relations; i++)
        if (s->truth[i] != s->modes[i] && !inert(s, s->modes, i))
            return i;
    return -1;
}

/* Every relation that changed and matters appears only in assertions. */
static int only_asserts_changed(const RtSim *s)
{
    for (int i = 0; i < s->m->n_relations; i++)
        if (s->truth[i] != s->modes[i] && !inert(s, s->modes, i)
            && !s->m->relations[i].assert_only)
            return 0;
    return 1;
}

/* Names the relations that changed in the last iterations of a fixed
   point that did not settle (last_change holds each one's last
   iteration), most recent first. */
static void name_unsettled(RtSim *s, RtFailure *f, int last_it)
{
    f->n_culprits = 0;
    for (int it = last_it; it >= 0 && it > last_it - 4; it--)
        for (int i = 0; i < s->m->n_relations && f->n_culprits < RT_CHATTER_NAMED; i++)
            if (s->last_change[i] == it)
                f->culprits[f->n_culprits++] = i;
    f->index = f->n_culprits > 0 ? f->culprits[0] : -1;
}

/* Applies the discrete updates of one event iteration (pre: the
   relations' values at the previous iteration; s->modes: now).  Returns
   whether an event variable or a state changed; logs every mode entered
   (unless `initial`) and applies the state resets of the modes entered
   (at the initial event: of the initial modes). */
static int discrete_step(RtSim *s, double t, double *x, int initial, int first, int *rc)
{
    const RtModel *m = s->m;
    size_t nev = (size_t)(m->n_evars > 0 ? m->n_evars : 0);
    int changed = 0;
    *rc = 0;
    if (!m->update || nev == 0)
        return 0;
    memcpy(s->ev_next, s->ev, nev * sizeof *s->ev);
    RtEval e = rt_eval_make(s, t, x, s->dx, s->alg, s->modes);
    m->update(&e, s->md_pre, initial && first, s->ev_next);
    for (int c = 0; c < m->n_charts; c++) {
        int k = m->charts[c].evar;
        s->chart_moved[c] = (initial && first) || s->ev_next[k] != s->ev[k];
    }
    for (size_t i = 0; i < nev; i++)
        changed |= s->ev_next[i] != s->ev[i];
    memcpy(s->ev, s->ev_next, nev * sizeof *s->ev);
    for (int c = 0; c < m->n_charts && *rc == 0; c++) {
        if (!s->chart_moved[c])
            continue;
        const RtChartInfo *ci = &m->charts[c];
        int mode = (int)s->ev[ci->evar];
        if (ci->next > 0 && ci->next < m->n_evars && s->ev[ci->next] > 0 && !initial) {
            /* a compound transition (a reset through an instantaneous
               mode): the bounces of a Zeno limit come ever closer */
            double last = s->chart_reset_t[c];
            s->chart_reset_t[c] = t;
            if (t - last < RT_CHATTER_WINDOW * s->opt.stop_time) {
                rt_fail_simple(&s->fail, RT_FAILKIND_ZENO, t, c);
                s->fail.h = t - last;
                *rc = -1;
                return changed;
            }
        }
        if (!initial && mode >= 1 && mode <= ci->n_modes)
            *rc = rt_csv_event_text(s, isnan(s->log_t) ? t : s->log_t, ci->instance, ci->name,
                                    ci->mode_names[mode - 1], ci->location);
        if (m->reset && m->n_states > 0) {
            /* the entered mode's constraints on states, from the values just
               before (e reads the new mode, the old states) */
            int n = m->n_states;
            memcpy(s->xj, x, (size_t)n * sizeof *x);
            RtEval er = rt_eval_make(s, t, x, s->dx, s->alg, s->modes);
            m->reset(&er, c, s->xj);
            if (memcmp(s->xj, x, (size_t)n * sizeof *x) != 0) {
                memcpy(x, s->xj, (size_t)n * sizeof *x);
                changed = 1;
            }
        }
    }
    return changed;
}

/* The fixed point shared by initialization (discrete = 0: the modes
   only) and the event iteration. */
static int iterate_modes(RtSim *s, double t, double *x, int discrete, int initial,
                         int during_init)
{
    const RtModel *m = s->m;
    int limit = m->n_relations + RT_MAX_MODE_ITER_EXTRA
                + (discrete ? m->n_evars + 2 * m->n_charts : 0);
    size_t nr = nrel(s);
    int chart_last = -1;
    for (int i = 0; i < m->n_relations; i++)
        s->last_change[i] = -1;
    for (int it = 0; it < limit; it++) {
        memcpy(s->md_trial, s->modes, nr * sizeof *s->md_trial);
        if (rt_eval_past(s, t, x, s->dx, s->alg, s->md_trial, &s->fail) != 0) {
            s->fail.during_init = during_init;
            return -1;
        }
        int changed = 0;
        if (m->n_relations > 0 && m->relation_values) {
            RtEval e = rt_eval_make(s, t, x, s->dx, s->alg, s->md_trial);
            truth_at(s, &e, s->truth);
            for (int i = 0; i < m->n_relations; i++) {
                if (s->truth[i] != s->modes[i]) {
                    s->last_change[i] = it;
                    changed = 1;
                }
            }
        }
        memcpy(s->md_pre, s->modes, nr * sizeof *s->md_pre);
        if (changed)
            memcpy(s->modes, s->truth, nr * sizeof *s->modes);
        if (discrete) {
            int rc;
            if (discrete_step(s, t, x, initial, it == 0, &rc)) {
                changed = 1;
                for (int c = 0; c < m->n_charts; c++)
                    if (s->chart_moved[c])
                        chart_last = c;
            }
            if (rc != 0)
                return -1;
        }
        if (!changed) {
            if (memcmp(s->md_trial, s->modes, nr * sizeof *s->modes) == 0)
                return 0;
            /* the relations agree with modes under which the equations
               cannot be evaluated: that failure is the one */
            if (rt_eval_checked(s, t, x, s->dx, s->alg, s->modes, &s->fail) == 0
                && s->table_pending.kind != RT_FAILKIND_NONE)
                s->fail = s->table_pending;
            s->fail.during_init = during_init;
            return -1;
        }
    }
    rt_fail_simple(&s->fail, RT_FAILKIND_MODES, t, -1);
    name_unsettled(s, &s->fail, limit - 1);
    s->fail.chart = chart_last;
    s->fail.during_init = during_init;
    return -1;
}

/* A table queried outside its grid (extrapolation = error) fails only in
   the settled modes: while they settle, the query may come from the
   modes' old guess of its segment (rt_eval_try keeps it pending). */
static int iterate(RtSim *s, double t, double *x, int discrete, int initial,
                   int during_init)
{
    s->table_tolerant = 1;
    s->table_pending.kind = RT_FAILKIND_NONE;
    int rc = iterate_modes(s, t, x, discrete, initial, during_init);
    s->table_tolerant = 0;
    if (rc == 0 && s->table_pending.kind != RT_FAILKIND_NONE) {
        s->fail = s->table_pending;
        s->fail.during_init = during_init;
        return -1;
    }
    return rc;
}

int rt_modes_settle(RtSim *s, double t, const double *x, int during_init)
{
    return iterate(s, t, (double *)x, 0, 0, during_init);
}

int rt_event_iterate(RtSim *s, double t, double *x, int initial, int during_init)
{
    return iterate(s, t, x, 1, initial, during_init);
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

/* The state at t on the step's interpolant, as far as the relation
   functions read it (RtModel.rel_states): in s->xt, or the end itself. */
static const double *relation_state(RtSim *s, const Bracket *br, double t)
{
    const RtModel *m = s->m;
    if (t == br->L.t)
        return br->L.x;
    if (t == br->R.t)
        return br->R.x;
    if (m->n_rel_states <= 0 || !m->rel_states) {
        hermite(m->n_states, br->L.t, br->L.x, br->L.f, br->R.t, br->R.x, br->R.f, t, s->xt);
        return s->xt;
    }
    double h = br->R.t - br->L.t, u = h != 0 ? (t - br->L.t) / h : 1, v = 1 - u;
    double h00 = (1 + 2 * u) * v * v, h10 = u * v * v * h;
    double h01 = u * u * (3 - 2 * u), h11 = -u * u * v * h;
    for (int k = 0; k < m->n_rel_states; k++) {
        int i = m->rel_states[k];
        s->xt[i] = h00 * br->L.x[i] + h10 * br->L.f[i] + h01 * br->R.x[i] + h11 * br->R.f[i];
    }
    return s->xt;
}

static int probe_interpolated(RtSim *s, const Bracket *br, double t)
{
    hermite(s->m->n_states, br->L.t, br->L.x, br->L.f, br->R.t, br->R.x,
            br->R.f, t, s->xt);
    return probe(s, t, s->xt, s->dxt);
}

/* The relations at an interior point t of the accepted step [L, R], on
   its interpolant and without an evaluation, when none reads an
   algebraic value: the state by cubic Hermite.  A detector only: what it
   finds is confirmed on the trajectory. */
static void probe_step(RtSim *s, const Bracket *br, double t)
{
    const double *x = relation_state(s, br, t);
    RtEval e = rt_eval_make(s, t, x, s->dxt, s->alg_good, s->modes);
    truth_at(s, &e, s->truth);
}

/* The crossing functions on the step's interpolant at time t, into g
   (relations that read algebraic values get those of the step's end:
   only the others are used). */
static void crossings_on(RtSim *s, const Bracket *br, double t, double *g)
{
    const double *x = relation_state(s, br, t);
    RtEval e = rt_eval_make(s, t, x, s->dxt, s->alg_good, s->modes);
    s->m->zero_crossings(&e, g);
}

/* The dip check, for the relations that read only states, time and
   parameters (RtRelationInfo.reads_alg clear), so cheap to evaluate on
   the interpolant: from the oriented crossing function's values and
   slopes at the step's ends (slopes by differences over sqrt(eps) of the
   step, on the interpolant), its cubic Hermite over the step; a minimum
   inside the step below zero, where both ends are not, is an excursion
   (a crossing that comes back, like a ball's bounce shorter than the
   step).  Returns the earliest such minimum's time, or -1. */
static double dip(RtSim *s, const Bracket *br)
{
    const RtModel *m = s->m;
    int nr = m->n_relations;
    if (!m->zero_crossings || m->n_states <= 0)
        return -1;
    int any = 0;
    for (int i = 0; i < nr && !any; i++)
        any = !m->relations[i].reads_alg && !inert(s, s->modes, i);
    if (!any)
        return -1;
    double t0 = br->L.t, t1 = br->R.t, h = t1 - t0, d = sqrt(DBL_EPSILON) * h;
    if (!(h > 0))
        return -1;
    double *g0 = s->gdip, *ga = g0 + nr, *gb = ga + nr, *g1 = gb + nr;
    crossings_on(s, br, t0, g0);
    crossings_on(s, br, t0 + d, ga);
    crossings_on(s, br, t1 - d, gb);
    crossings_on(s, br, t1, g1);
    double best = -1;
    for (int i = 0; i < nr; i++) {
        if (m->relations[i].reads_alg || inert(s, s->modes, i))
            continue;
        double o = orientation(s, i);
        double p0 = o * g0[i], p1 = o * g1[i];
        double s0 = o * (ga[i] - g0[i]) / d * h, s1 = o * (g1[i] - gb[i]) / d * h;
        if (!(p0 >= 0 && p1 >= 0))
            continue;       /* changed at an end: the end check sees it */
        /* the Hermite basis bounds the slopes' terms by 4/27 each, so the
           cubic cannot dip below zero where the ends stay above this */
        if (fmin(p0, p1) > (4.0 / 27.0) * (fabs(s0) + fabs(s1)))
            continue;
        /* p'(u) = A u^2 + B u + C */
        double A = 6 * p0 + 3 * s0 - 6 * p1 + 3 * s1, B = -6 * p0 - 4 * s0 + 6 * p1 - 2 * s1,
               C = s0;
        double roots[2];
        int nroot = 0;
        if (fabs(A) < 1e-300) {
            if (fabs(B) > 1e-300)
                roots[nroot++] = -C / B;
        } else {
            double disc = B * B - 4 * A * C;
            if (disc >= 0) {
                double q = -0.5 * (B + copysign(sqrt(disc), B));
                roots[nroot++] = q / A;
                if (q != 0)
                    roots[nroot++] = C / q;
            }
        }
        for (int k = 0; k < nroot; k++) {
            double u = roots[k];
            if (!(u > 0 && u < 1))
                continue;
            double v = 1 - u;
            double pu = (1 + 2 * u) * v * v * p0 + u * v * v * s0 + u * u * (3 - 2 * u) * p1
                        - u * u * v * s1;
            double tu = t0 + u * h;
            if (pu < 0 && (best < 0 || tu < best))
                best = tu;
        }
    }
    return best;
}

/* Whether the step's probes evaluate the model: without states (where
   the probe is exact and cheap), or when a relation reads algebraic
   values, which only an evaluation gives at the interpolated state. */
static int probes_evaluate(const RtSim *s)
{
    if (s->m->n_states <= 0)
        return 1;
    for (int i = 0; i < s->m->n_relations; i++)
        if (s->m->relations[i].reads_alg)
            return 1;
    return 0;
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
    int found = 0;
    for (int i = 0; i < nr && rc == 0; i++) {
        if (!crossed[i])
            continue;
        double a, b;
        rc = locate(s, br, i, h0[i], h1[i], &a, &b);
        /* the first located one even when it ends at R */
        if (rc == 0 && (!found || b < *tb)) {
            found = 1;
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
static int integrate_and_probe(RtSim *s, const Point *L, double t)
{
    if (rt_reintegrate(s, L->t, L->x, t, s->xt) != 0
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
            int rc = integrate_and_probe(s, &br->L, a);
            if (rc < 0)
                return -1;
            if (rc) {
                point_set(n, &br->R, a, s->xt, s->dxt);
                continue;
            }
            point_set(n, &br->L, a, s->xt, s->dxt);
        }
        if (b < br->R.t) {
            int rc = integrate_and_probe(s, &br->L, b);
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

/* Remembers a logged change, for the chattering message. */
static void note_change(RtSim *s, double t, int relation)
{
    long k = s->n_changes++ % RT_CHANGE_RING;
    s->change_rels[k] = relation;
    s->change_times[k] = t;
}

/* The chattering guard: RT_CHATTER_EVENTS events in a short window.  The
   failure names the distinct relations logged within the window, most
   recent first. */
static int chattering(RtSim *s, double te, int relation)
{
    s->event_times[s->n_events % RT_CHATTER_EVENTS] = te;
    s->n_events++;
    if (s->n_events < RT_CHATTER_EVENTS)
        return 0;
    double oldest = s->event_times[s->n_events % RT_CHATTER_EVENTS];
    if (te - oldest > RT_CHATTER_WINDOW * s->opt.stop_time)
        return 0;
    RtFailure *f = &s->fail;
    rt_fail_simple(f, RT_FAILKIND_CHATTER, te, relation);
    f->count = RT_CHATTER_EVENTS;
    long kept = s->n_changes < RT_CHANGE_RING ? s->n_changes : RT_CHANGE_RING;
    for (long j = 0; j < kept && f->n_culprits < RT_CHATTER_NAMED; j++) {
        long k = (s->n_changes - 1 - j) % RT_CHANGE_RING;
        if (s->change_times[k] < oldest)
            break;
        int r = s->change_rels[k], seen = 0;
        for (int q = 0; q < f->n_culprits; q++)
            seen |= f->culprits[q] == r;
        if (!seen)
            f->culprits[f->n_culprits++] = r;
    }
    return -1;
}

/* The left-limit row of an event at te: the state at L with the modes
   before the event, written with time te. */
static int left_row(RtSim *s, const Point *L, double te)
{
    memcpy(s->md_trial, s->modes, nrel(s) * sizeof *s->md_trial);
    if (rt_eval_past(s, L->t, L->x, s->dxt, s->alg, s->md_trial, &s->fail) != 0)
        return -1;
    return rt_csv_row(s, te, L->x, s->dxt, s->alg);
}

/* The time an event at te writes on its rows and log lines: an event
   within the time tolerance of an output time is that output time's
   event, and no third row shares the time.  Just after the latest one
   (a strict relation that turned true as the steps left it), whose row
   is then the event's left limit (*left_done), unless another event
   has written rows there already; just before the next one, to which
   the steps then go on without a row (rt_run); else te itself. */
static double rows_time(const RtSim *s, double te, int *left_done)
{
    double tol = time_tol(s, te);
    *left_done = fabs(te - s->out_last) <= tol && s->event_row_t != s->out_last;
    if (*left_done)
        return s->out_last;
    if (fabs(s->out_next - te) <= tol)
        return s->out_next;
    return te;
}

/* The state at R becomes the current one (and the stepper starts afresh
   there, since it may have gone further). */
static void move_to(RtSim *s, const Point *R)
{
    s->t = R->t;
    if (s->m->n_states > 0)
        memcpy(s->x, R->x, (size_t)s->m->n_states * sizeof *s->x);
}

/* Relations that appear only in assertions crossed at R: the assertions
   are checked there.  A failure is reported at R's time after a row with
   the left limit; otherwise the modes follow and the run goes on from R,
   without rows or log lines. */
static int assert_crossing(RtSim *s, const Bracket *br)
{
    const RtModel *m = s->m;
    move_to(s, &br->R);
    if (probe_as(s, s->t, s->x, s->dx, 0) != 0)
        return -1;
    RtEval e = rt_eval_make(s, s->t, s->x, s->dx, s->alg, s->md_trial);
    int k = m->check_asserts ? m->check_asserts(&e) : -1;
    if (k >= 0) {
        double te = s->t;
        int left_done;
        double tr = rows_time(s, te, &left_done);
        if (!left_done && left_row(s, &br->L, tr) != 0)
            return -1;
        rt_fail_simple(&s->fail, RT_FAILKIND_ASSERT, te, k);
        return -1;
    }
    for (int i = 0; i < m->n_relations; i++)
        if (s->truth[i] != s->modes[i] && (m->relations[i].assert_only || inert(s, s->modes, i)))
            s->modes[i] = s->truth[i];
    if (rt_eval_checked(s, s->t, s->x, s->dx, s->alg, s->modes, &s->fail) != 0)
        return -1;
    rt_accept_alg(s);
    rt_solver_reset(s);
    return 0;
}

/* ---- resets that leave the state in their condition -------------------- */

/* After an event whose iteration made a compound transition (a reset):
   a relation that crossed at the event and still holds after it keeps
   the state inside the transition's condition (a bounce's x <= 0: the
   event's point lies just past the crossing).  The transition fires
   when its predicate turns true, so it can fire again only once the
   state has left the condition.  When the reset turned the state's
   approach around or stopped it (the relation's oriented crossing
   function, >= 0 inside, no longer grows: v reversed, or 0), the
   relation is watched: leaving the condition is an event that ends the
   watch; a state found deeper inside at the end of a step, without
   having left, has passed a bounce the integration could not resolve
   (one below the tolerances, near the Zeno limit) or was not taken out
   at all (a restitution of 0), and would go on through the condition
   with the transition never firing again.  That ends the run as the
   Zeno limit (watch_check), never a silently wrong trajectory.  A
   relation whose approach the reset did not change (time > T) is not
   watched: such a transition fires once, as written. */
static void watch_resets(RtSim *s, double te)
{
    const RtModel *m = s->m;
    int nr = m->n_relations, n = m->n_states;
    int chart = -1;
    for (int c = 0; c < m->n_charts && chart < 0; c++)
        if (s->chart_reset_t[c] == te)
            chart = c;
    for (int i = 0; i < nr; i++) {
        RtResetWatch *w = &s->watch[i];
        /* left (or changed by this event), or the chart reset again */
        if (w->chart >= 0 && (s->modes[i] != w->mode || w->chart == chart))
            w->chart = -1;
    }
    if (chart < 0 || !m->zero_crossings || n <= 0)
        return;
    /* the oriented crossing functions at the reset state and a little
       later along its derivative (a partial evaluation there) */
    double *g0 = s->gdip, *g1 = g0 + nr;
    RtEval e = rt_eval_make(s, te, s->x, s->dx, s->alg, s->modes);
    m->zero_crossings(&e, g0);
    double d = sqrt(DBL_EPSILON) * fmax(fabs(te), s->opt.output_step);
    for (int k = 0; k < n; k++)
        s->xt[k] = s->x[k] + d * s->dx[k];
    if (m->n_alg > 0)
        memcpy(s->alg_jac, s->alg, (size_t)m->n_alg * sizeof *s->alg_jac);
    memcpy(s->md_trial, s->modes, nrel(s) * sizeof *s->md_trial);
    RtFailure f;
    s->solver_eval = 1;
    int rc = rt_eval_past(s, te + d, s->xt, s->dxt, s->alg_jac, s->md_trial, &f);
    s->solver_eval = 0;
    if (rc != 0)
        return;
    RtEval e1 = rt_eval_make(s, te + d, s->xt, s->dxt, s->alg_jac, s->modes);
    m->zero_crossings(&e1, g1);
    for (int i = 0; i < nr; i++) {
        const RtRelationInfo *r = &m->relations[i];
        if (s->md_cross[i] == s->md_old[i] || s->modes[i] != s->md_cross[i]
            || r->assert_only || r->table1 || inert(s, s->modes, i))
            continue;   /* did not cross here, or no longer holds */
        double o = orientation(s, i);
        if (o * (g1[i] - g0[i]) > 0)
            continue;   /* still moving in: the reset did not change that */
        s->watch[i] = (RtResetWatch){chart, s->modes[i], o * g0[i], te};
    }
}

/* At the end of a step without events: a watched relation (above)
   deeper in its condition than its reset left it. */
static int watch_check(RtSim *s)
{
    for (int i = 0; i < s->m->n_relations; i++) {
        const RtResetWatch *w = &s->watch[i];
        if (w->chart < 0 || s->modes[i] != w->mode || s->truth[i] != w->mode
            || !(orientation(s, i) * s->g[i] > w->g))
            continue;
        rt_fail_simple(&s->fail, RT_FAILKIND_ZENO, w->t, w->chart);
        s->fail.culprits[0] = i;
        s->fail.n_culprits = 1;
        s->fail.h = s->t;
        return -1;
    }
    return 0;
}

/* Handles the event whose bracket has been refined: rows, the fixed
   point of the modes at R, log lines, assertions, restart. */
static int handle_event(RtSim *s, const Bracket *br)
{
    const RtModel *m = s->m;
    int nr = m->n_relations;
    double te = br->R.t;
    int left_done;
    double tr = rows_time(s, te, &left_done);
    if ((!left_done && left_row(s, &br->L, tr) != 0)
        || rt_delays_sample(s, te, br->L.x, s->dxt, s->alg) != 0)
        return -1;
    move_to(s, &br->R);
    memcpy(s->md_old, s->modes, nrel(s) * sizeof *s->md_old);
    memcpy(s->md_cross, s->truth, nrel(s) * sizeof *s->md_cross);
    s->log_t = tr;
    int rc = rt_event_iterate(s, te, s->x, 0, 0);
    s->log_t = NAN;
    int last = -1;
    if (rc == 0) {
        rt_accept_alg(s);
        for (int i = 0; i < nr && rc == 0; i++) {
            const RtRelationInfo *ri = &m->relations[i];
            int g = ri->guard;
            /* a guarded relation speaks only while its guard was on, and
               one of assertions only never */
            int quiet = (g >= 0 && g < nr && s->md_old[g] != ri->guard_value)
                        || ri->assert_only;
            if (s->modes[i] != s->md_old[i] && !quiet) {
                last = i;
                note_change(s, te, i);
                rc = rt_csv_event(s, tr, i, s->modes[i]);
            }
        }
    }
    if (rc == 0 && last >= 0)
        rc = chattering(s, te, last);
    if (rc == 0)
        rc = rt_check_asserts(s);
    if (rc == 0)
        rc = rt_csv_row(s, tr, s->x, s->dx, s->alg);
    if (rc == 0)
        rc = rt_delays_sample(s, te, s->x, s->dx, s->alg);
    if (rc == 0)
        watch_resets(s, te);
    rt_delays_event(s, te);
    s->event_row_t = tr;
    rt_solver_reset(s);
    return rc;
}

/* Follows the relations that changed at the step's end but cannot
   matter (inert ones), and puts back the algebraic values of the end,
   which probes overwrote. */
static void no_event(RtSim *s)
{
    for (int i = 0; i < s->m->n_relations; i++)
        if (s->truth[i] != s->modes[i] && inert(s, s->modes, i))
            s->modes[i] = s->truth[i];
    size_t n = rt_alg_written(s, s->alg_partial);
    if (n > 0 && s->alg_dirty)
        memcpy(s->alg, s->alg_good, n * sizeof *s->alg);
    s->alg_dirty = 0;
}

/* The relations at the accepted step's end, with the frozen modes. */
static void relations_at_end(RtSim *s)
{
    RtEval e = rt_eval_make(s, s->t, s->x, s->dx, s->alg_good, s->modes);
    relations_at(s, &e);
}

int rt_events_after_step(RtSim *s, double t0, const double *x0,
                         const double *dx0)
{
    const RtModel *m = s->m;
    int n = m->n_states, nr = m->n_relations;
    if (nr <= 0 || !m->relation_values)
        return 0;
    double *store = s->bracket;
    Bracket br = {{t0, store, store + n}, {s->t, store + 2 * n, store + 3 * n}};
    point_set(n, &br.L, t0, x0, dx0);
    point_set(n, &br.R, s->t, s->x, s->dx);
    /* The interior probes, on the step's interpolant, earliest first
       and before them the deepest dip of a crossing function that reads
       only states, if any. */
    int hit = 0, rc = 0, full = probes_evaluate(s);
    double t1 = s->t;
    double tdip = dip(s, &br);
    for (int k = tdip > t0 ? 0 : 1; k <= RT_STEP_PROBES && !hit && t1 > t0; k++) {
        double tp = k == 0 ? tdip : t0 + (t1 - t0) * k / (RT_STEP_PROBES + 1);
        if (!(tp > t0 && tp < t1))
            continue;
        if (full) {
            if (probe_interpolated(s, &br, tp) != 0) {
                rc = -1;
                break;
            }
        } else {
            probe_step(s, &br, tp);
        }
        if (first_changed_active(s) < 0)
            continue;
        if (n == 0) {
            br.R.t = tp;
            hit = 1;
            break;
        }
        /* Seen on the interpolant.  If everything changed there has also
           changed at the step's end, the step is the bracket; otherwise
           the probe is confirmed on the trajectory (or the stepper
           restarts at the end it had reached). */
        memcpy(s->md_old, s->truth, nrel(s) * sizeof *s->md_old);
        relations_at_end(s);
        int subset = 1;
        for (int i = 0; i < nr && subset; i++)
            if (s->md_old[i] != s->modes[i] && !inert(s, s->modes, i))
                subset = s->truth[i] != s->modes[i];
        if (subset)
            break;
        int got = integrate_and_probe(s, &br.L, tp);
        if (got < 0) {
            rc = -1;
            break;
        }
        if (got) {
            point_set(n, &br.R, tp, s->xt, s->dxt);
            hit = 1;
        } else {
            rt_solver_reset(s);
        }
    }
    if (rc == 0 && !hit) {
        relations_at_end(s);
        if (first_changed_active(s) < 0) {
            no_event(s);
            return watch_check(s);
        }
    }
    if (rc == 0)
        rc = refine(s, &br);
    if (rc == 0) {
        /* What changed at R decides: relations of assertions only, or an
           event. */
        rc = probe_as(s, br.R.t, br.R.x, s->dxt, 0);
        if (rc == 0)
            rc = only_asserts_changed(s) ? assert_crossing(s, &br)
                                         : handle_event(s, &br);
    }
    return rc;
}
