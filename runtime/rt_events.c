/*
 * rt_events.c - modes, the event iteration, and what happens at an event.
 *
 * Between events every relation's truth value is frozen in a mode bit, so
 * the right-hand side stays smooth and the steppers (implicit ones
 * especially) see no jumps.  After each interval the integration has
 * processed (a solver step, or the part of one up to an output time) the
 * relations are evaluated with the modes still frozen, at its end and at
 * RT_STEP_PROBES interior points; one whose value differs from its mode
 * has crossed.  The relations of assertions alone are looked at only at
 * the interval's end (an assertion that fails and recovers within one
 * step is not seen), so a model whose only relations are assertions'
 * pays one evaluation of them per step.  Finding and locating the crossing is rt_locate.c's; what
 * follows it is this file's.
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
 * At the event (time te = R.t of the located bracket [L, R]): the
 * left-limit row (the state at L, evaluated with the modes before the
 * event, written with time te; for a relation on time alone L and R
 * share R's state, since nothing but time decides it); the fixed-point
 * iteration of the modes and of the discrete part (when clauses, mode
 * charts, their resets) from R's state, bounded, with an error that
 * names what keeps changing; a log line for every relation that changed;
 * the assertions; the right-limit row (everything computed with the
 * settled modes); and a stepper restart, since its history describes the
 * old right-hand side.  An event within the time tolerance of an output
 * time is that output time's event: its rows and log lines carry that
 * time, and the output time gets no third row (rows_time).  With
 * --no-event-emit only that output time's row is written, the right
 * limit.  A crossing of relations that appear only in assertions is
 * located the same way, and the assertions are checked there: a failure
 * is reported at the crossing time, after a row with the left limit;
 * otherwise the run goes on from there without rows or log lines.  Too
 * many events, and resets that accumulate, are rt_zeno.c's.
 *
 * The event iteration (rt_event_iterate).  Each iteration evaluates the
 * equations, takes the relations' values as the modes, and runs the
 * model's update with the relations' and the event variables' values now
 * and at the previous iteration (edge(b): b now and not then), so a when
 * clause on an event variable another clause set fires in the next
 * iteration.  At the initial event the charts enter their initial modes
 * in the first iteration, which counts as a change: their transitions are
 * then tried like at any event, so one whose predicate holds at the start
 * is taken (Simscape: the initial mode first, then the transitions).
 */
#include "rt_events.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RT_EVENT_RTOL 1e-12         /* event time tolerance, relative */

double rt_ev_time_tol(const RtSim *s, double t)
{
    double tol = RT_EVENT_RTOL * fmax(fabs(t), s->opt.stop_time);
    tol = fmax(tol, 4 * DBL_EPSILON * fabs(t));
    return tol > 0 ? tol : DBL_MIN;
}

size_t rt_ev_nrel(const RtSim *s)
{
    return (size_t)(s->m->n_relations > 0 ? s->m->n_relations : 0);
}

void rt_events_alloc(RtSim *s)
{
    size_t nr = rt_ev_nrel(s);
    size_t nev = (size_t)(s->m->n_evars > 0 ? s->m->n_evars : 0);
    s->ev = rt_xcalloc(nev, sizeof *s->ev);
    s->ev_next = rt_xcalloc(nev, sizeof *s->ev_next);
    s->ev_pre = rt_xcalloc(nev, sizeof *s->ev_pre);
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
    void *bufs[] = {s->watch, s->md_cross, s->chart_reset_t, s->gdip, s->ev, s->ev_next, s->ev_pre, s->md_pre, s->chart_moved, s->bracket, s->md_trial, s->md_old, s->truth_trial, s->last_change,
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
int rt_ev_inert(const RtSim *s, const int *modes, int i)
{
    const RtRelationInfo *r = &s->m->relations[i];
    int g = r->guard;
    if (g < 0 || g >= s->m->n_relations)
        return 0;
    return modes[g] != r->guard_value;
}

/* The relations' truth values (0/1; a segment mode's segment) into truth,
   at an evaluated state: relation_values writes them so (rt_model.h), and
   the comparisons with the modes below are of ints. */
void rt_ev_truth_at(const RtSim *s, const RtEval *e, int *truth)
{
    s->m->relation_values(e, truth);
}

void rt_ev_relations_at(RtSim *s, const RtEval *e)
{
    const RtModel *m = s->m;
    rt_ev_truth_at(s, e, s->truth);
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
            rt_ev_truth_at(s, &e, s->truth_trial);
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
int rt_ev_probe_as(RtSim *s, double t, const double *x, double *dx, int partial)
{
    memcpy(s->md_trial, s->modes, rt_ev_nrel(s) * sizeof *s->md_trial);
    s->solver_eval = partial;
    s->alg_dirty = 1;
    int rc = rt_eval_past(s, t, x, dx, s->alg, s->md_trial, &s->fail);
    s->solver_eval = 0;
    if (rc != 0)
        return -1;
    RtEval e = rt_eval_make(s, t, x, dx, s->alg, s->md_trial);
    rt_ev_relations_at(s, &e);
    return 0;
}

int rt_ev_probe(RtSim *s, double t, const double *x, double *dx)
{
    return rt_ev_probe_as(s, t, x, dx, 1);
}

/* The sign that orients relation i's crossing function to be >= 0 while
   it keeps its mode (a segment mode's crossing function is, already). */
double rt_ev_orientation(const RtSim *s, int i)
{
    return s->m->relations[i].table1 || s->modes[i] ? 1 : -1;
}

/* g oriented so that it is >= 0 while relation i keeps its mode. */
double rt_ev_oriented(const RtSim *s, int i)
{
    return rt_ev_orientation(s, i) * s->g[i];
}

/* The first relation that changed and matters, or -1. */
/* Every relation's truth is its mode: the common case at a step's end,
   decided in one pass. */
static int none_changed(const RtSim *s)
{
    int nr = s->m->n_relations;
    return nr <= 0 || memcmp(s->truth, s->modes, (size_t)nr * sizeof *s->truth) == 0;
}

/* The first relation that changed and matters, or -1; with events_only,
   among those that can start an event (not an assertion's alone): what
   a step's interior probes look for. */
static int first_changed(const RtSim *s, int events_only)
{
    if (none_changed(s))
        return -1;
    for (int i = 0; i < s->m->n_relations; i++)
        if (s->truth[i] != s->modes[i] && !(events_only && s->m->relations[i].assert_only)
            && !rt_ev_inert(s, s->modes, i))
            return i;
    return -1;
}

int rt_ev_first_changed(const RtSim *s)
{
    return first_changed(s, 0);
}

/* Every relation that changed and matters appears only in assertions. */
static int only_asserts_changed(const RtSim *s)
{
    for (int i = 0; i < s->m->n_relations; i++)
        if (s->truth[i] != s->modes[i] && !rt_ev_inert(s, s->modes, i)
            && !s->m->relations[i].assert_only)
            return 0;
    return 1;
}

/* Every relation that changed and matters is on time alone. */
static int only_time_changed(const RtSim *s)
{
    for (int i = 0; i < s->m->n_relations; i++)
        if (s->truth[i] != s->modes[i] && !rt_ev_inert(s, s->modes, i)
            && !s->m->relations[i].time_only)
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
    if (first)
        memcpy(s->ev_pre, s->ev, nev * sizeof *s->ev);   /* before the event */
    RtEval e = rt_eval_make(s, t, x, s->dx, s->alg, s->modes);
    e.ev_pre = s->ev_pre;
    m->update(&e, s->md_pre, initial && first, s->ev_next);
    for (int c = 0; c < m->n_charts; c++) {
        int k = m->charts[c].evar;
        s->chart_moved[c] = (initial && first) || s->ev_next[k] != s->ev[k];
        /* entering the initial modes is a change: their transitions are
           tried in the next iteration, as at any event */
        changed |= initial && first;
    }
    for (size_t i = 0; i < nev; i++)
        changed |= s->ev_next[i] != s->ev[i];
    memcpy(s->ev_pre, s->ev, nev * sizeof *s->ev);  /* the next one's "before" */
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
    size_t nr = rt_ev_nrel(s);
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
            rt_ev_truth_at(s, &e, s->truth);
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

/* The left-limit row of an event at te: the state at L with the modes
   before the event, written with time te. */
static int left_row(RtSim *s, const RtEvPoint *L, double te)
{
    memcpy(s->md_trial, s->modes, rt_ev_nrel(s) * sizeof *s->md_trial);
    if (rt_eval_past(s, L->t, L->x, s->dxt, s->alg, s->md_trial, &s->fail) != 0)
        return -1;
    /* --no-event-emit: rows on the output grid only (the evaluation
       still serves the delays' sample of the left limit) */
    return s->opt.no_event_emit ? 0 : rt_csv_row(s, te, L->x, s->dxt, s->alg);
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
    double tol = rt_ev_time_tol(s, te);
    *left_done = fabs(te - s->out_last) <= tol && s->event_row_t != s->out_last;
    if (*left_done)
        return s->out_last;
    if (fabs(s->out_next - te) <= tol)
        return s->out_next;
    return te;
}

/* The state at R becomes the current one (and the stepper starts afresh
   there, since it may have gone further). */
static void move_to(RtSim *s, const RtEvPoint *R)
{
    s->t = R->t;
    if (s->m->n_states > 0)
        memcpy(s->x, R->x, (size_t)s->m->n_states * sizeof *s->x);
}

/* Relations that appear only in assertions crossed at R: the assertions
   are checked there.  A failure is reported at R's time after a row with
   the left limit; otherwise the modes follow and the run goes on from R,
   without rows or log lines. */
static int assert_crossing(RtSim *s, const RtEvBracket *br)
{
    const RtModel *m = s->m;
    move_to(s, &br->R);
    if (rt_ev_probe_as(s, s->t, s->x, s->dx, 0) != 0)
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
        if (s->truth[i] != s->modes[i] && (m->relations[i].assert_only || rt_ev_inert(s, s->modes, i)))
            s->modes[i] = s->truth[i];
    if (rt_eval_checked(s, s->t, s->x, s->dx, s->alg, s->modes, &s->fail) != 0)
        return -1;
    rt_accept_alg(s);
    rt_solver_reset(s);
    return 0;
}

/* Handles the event whose bracket has been refined: rows, the fixed
   point of the modes at R, log lines, assertions, restart. */
static int handle_event(RtSim *s, const RtEvBracket *br)
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
    memcpy(s->md_old, s->modes, rt_ev_nrel(s) * sizeof *s->md_old);
    memcpy(s->md_cross, s->truth, rt_ev_nrel(s) * sizeof *s->md_cross);
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
                rt_ev_note_change(s, te, i);
                rc = rt_csv_event(s, tr, i, s->modes[i]);
            }
        }
    }
    if (rc == 0 && last >= 0)
        rc = rt_ev_chattering(s, te, last);
    if (rc == 0)
        rc = rt_check_asserts(s);
    /* the right limit; with --no-event-emit only as the row of the
       output time the event is at (which then gets no other) */
    if (rc == 0)
        rc = s->opt.no_event_emit && tr != s->out_next ? 0 : rt_csv_row(s, tr, s->x, s->dx, s->alg);
    if (rc == 0)
        rc = rt_delays_sample(s, te, s->x, s->dx, s->alg);
    if (rc == 0)
        rt_ev_watch_resets(s, te);
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
    if (!none_changed(s))
        for (int i = 0; i < s->m->n_relations; i++)
            if (s->truth[i] != s->modes[i] && rt_ev_inert(s, s->modes, i))
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
    rt_ev_relations_at(s, &e);
}

/* ... their truth alone (s->g not updated). */
static void truth_at_end(RtSim *s)
{
    RtEval e = rt_eval_make(s, s->t, s->x, s->dx, s->alg_good, s->modes);
    rt_ev_truth_at(s, &e, s->truth);
}

/* The bracket's ends: the step's start (t0, x0, dx0) and its end. */
static void step_ends(RtSim *s, RtEvBracket *br, double t0, const double *x0,
                      const double *dx0)
{
    int n = s->m->n_states;
    rt_ev_point_set(n, &br->L, t0, x0, dx0);
    rt_ev_point_set(n, &br->R, s->t, s->x, s->dx);
}

int rt_events_after_step(RtSim *s, double t0, const double *x0,
                         const double *dx0)
{
    const RtModel *m = s->m;
    int n = m->n_states, nr = m->n_relations;
    if (nr <= 0 || !m->relation_values)
        return 0;
    double *store = s->bracket;
    RtEvBracket br = {{t0, store, store + n}, {s->t, store + 2 * n, store + 3 * n}};
    /* The bracket holds copies of the step's ends; a model whose
       relations are all assertions' needs it only when one changed. */
    int probes = s->n_event_rel > 0 ? RT_STEP_PROBES : 0;
    if (probes > 0)
        step_ends(s, &br, t0, x0, dx0);
    /* The interior probes, on the step's interpolant, earliest first
       and before them the deepest dip of a crossing function that reads
       only states, if any.  Assertions are checked by their values at
       the step's end and located only when one changed there, so a model
       whose relations are all assertions' (a chain of levers, each with
       its angle assertion) is not probed inside its steps. */
    int hit = 0, rc = 0, full = s->probes_evaluate;
    double t1 = s->t;
    double tdip = probes > 0 ? rt_ev_dip(s, &br, 0) : -1;
    for (int k = tdip > t0 ? 0 : 1; k <= probes && !hit && t1 > t0; k++) {
        double tp = k == 0 ? tdip : t0 + (t1 - t0) * k / (RT_STEP_PROBES + 1);
        if (!(tp > t0 && tp < t1))
            continue;
        if (full) {
            if (rt_ev_probe_interpolated(s, &br, tp) != 0) {
                rc = -1;
                break;
            }
        } else {
            rt_ev_probe_step(s, &br, tp);
        }
        if (first_changed(s, 1) < 0)
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
        memcpy(s->md_old, s->truth, rt_ev_nrel(s) * sizeof *s->md_old);
        relations_at_end(s);
        int subset = 1;
        for (int i = 0; i < nr && subset; i++)
            if (s->md_old[i] != s->modes[i] && !rt_ev_inert(s, s->modes, i))
                subset = s->truth[i] != s->modes[i];
        if (subset)
            break;
        int restarted = 0, got = rt_ev_integrate_and_probe(s, &br.L, tp, &restarted);
        if (got < 0) {
            rc = -1;
            break;
        }
        if (got) {
            rt_ev_point_set(n, &br.R, tp, s->xt, s->dxt);
            hit = 1;
        } else if (restarted) {
            rt_solver_reset(s);
        }
    }
    /* Without probes or mode charts, the crossing functions' values at
       the step's end serve only the location of a change: computed then. */
    int lazy_g = probes == 0 && m->n_charts <= 0;
    if (rc == 0 && !hit) {
        if (lazy_g)
            truth_at_end(s);
        else
            relations_at_end(s);
        if (rt_ev_first_changed(s) < 0) {
            no_event(s);
            return rt_ev_watch_check(s);
        }
        if (lazy_g)
            relations_at_end(s);
    }
    if (probes == 0)
        step_ends(s, &br, t0, x0, dx0);
    if (rc == 0)
        rc = rt_ev_refine(s, &br);
    if (rc == 0) {
        /* What changed at R decides: relations of assertions only, or an
           event.  Relations on time alone do not depend on the state: the
           left limit is R's state too, and nothing jumps. */
        rc = rt_ev_probe_as(s, br.R.t, br.R.x, s->dxt, 0);
        if (rc == 0 && only_time_changed(s))
            rt_ev_point_set(n, &br.L, br.L.t, br.R.x, br.R.f);
        if (rc == 0)
            rc = only_asserts_changed(s) ? assert_crossing(s, &br)
                                         : handle_event(s, &br);
    }
    return rc;
}
