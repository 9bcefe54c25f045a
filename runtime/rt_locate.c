/*
 * rt_locate.c - finding a crossing within an interval of the trajectory,
 * locating it in time, and the breakpoints of relations on time alone.
 *
 * Detection.  After each interval [L, R] the integration has processed,
 * the relations are evaluated at R and (all but those of assertions
 * alone, which are checked at R only) at RT_STEP_PROBES interior points
 * of the cubic Hermite interpolant of L and R (so that a relation that
 * crosses and crosses back within one interval is seen when it is still
 * crossed at a probe), and, for the relations that read only states, time
 * and parameters, at the deepest dip of their crossing function's cubic
 * (rt_ev_dip).  A crossing seen only at a probe is confirmed on the
 * trajectory.
 *
 * Location.  The crossing is kept in a bracket [L, R] of points on the
 * trajectory, no relation changed at L, some changed at R; it starts as
 * the interval (or its start and the confirmed probe).  For each relation
 * changed at R, its zero-crossing function g, oriented to be >= 0 on the
 * mode's side, is located with the Illinois variant of regula falsi, to
 * the time tolerance; the earliest crossing wins.  Which side of a
 * crossing a trial time lies on is decided by relation_values, not by the
 * sign of g, so strict and non-strict relations are told apart exactly
 * as the model defines them; g only steers the secant.
 *
 * The trajectory.  A solver with an interpolant of its steps (msbdf,
 * msadams, cvode: RtStepper.dense) gives the state at any time of its
 * last step, on its own trajectory and to the method's order: location
 * runs on it, and the located state is the one the rows before the event
 * lie on.  A one-step method has none: location runs on the cubic Hermite
 * of the bracket's ends, and each located bracket is confirmed by
 * integrating again from L to both its ends (a one-step method keeps no
 * history, so a new step from L is as good as the first); a point that
 * contradicts the interpolant just narrows the bracket for another,
 * better pass on a shorter interval.  When the bracket is narrower than
 * the tolerance the event is at R: the first point known to be past the
 * crossing.  The passes are bounded; the worst case is a wider bracket,
 * never a state on the wrong side.
 *
 * Time events.  A relation that reads nothing but time, parameters and
 * event variables (RtRelationInfo.time_only: a Step's `time >=
 * step_time`, `edge(time > T)`) needs no state to be decided, so its
 * crossing is found before the solver steps over it: the step about to be
 * taken is scanned like an interval, on time alone, and the located
 * first time past the crossing becomes the step's end (a breakpoint).
 * The event is then at the end of a step, on a solver state, and its left
 * and right rows share that state: nothing jumps.
 */
#include "rt_events.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

void rt_ev_point_set(int n, RtEvPoint *p, double t, const double *x,
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
static const double *relation_state(RtSim *s, const RtEvBracket *br, double t)
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

/* The state at t inside the bracket, on the trajectory: the solver's
   interpolant where it has one (it holds the last step, which holds the
   bracket), else the cubic Hermite of the bracket's ends. */
static const double *bracket_state(RtSim *s, const RtEvBracket *br, double t)
{
    if (t == br->L.t)
        return br->L.x;
    if (t == br->R.t)
        return br->R.x;
    if (!(s->free_steps && t >= s->step_t0 && t <= s->ft
          && s->opt.backend->dense(s, t, s->xt) == 0))
        hermite(s->m->n_states, br->L.t, br->L.x, br->L.f, br->R.t, br->R.x, br->R.f, t,
                s->xt);
    return s->xt;
}

int rt_ev_probe_interpolated(RtSim *s, const RtEvBracket *br, double t)
{
    return rt_ev_probe(s, t, bracket_state(s, br, t), s->dxt);
}

/* The relations at t on time alone (RtRelationInfo.time_only: their
   values need no state or evaluation; the others' are not used). */
static int probe_time(RtSim *s, const RtEvBracket *br, double t)
{
    RtEval e = rt_eval_make(s, t, br->R.x, s->dxt, s->alg_good, s->modes);
    rt_ev_relations_at(s, &e);
    return 0;
}

/* Relation i can start an event, and (only_time) it is on time alone. */
static int counts(const RtSim *s, int i, int only_time)
{
    return !rt_ev_inert(s, s->modes, i) && (!only_time || s->m->relations[i].time_only);
}

/* ... and it is looked for inside a step: an assertion's alone is
   checked at the step's end only (and located when it changed there). */
static int dips(const RtSim *s, int i, int only_time)
{
    return counts(s, i, only_time) && !s->m->relations[i].assert_only
           && !s->m->relations[i].reads_alg;
}

/* The relations at an interior point t of the accepted step [L, R], on
   its interpolant and without an evaluation, when none reads an
   algebraic value: the state by cubic Hermite.  A detector only: what it
   finds is confirmed on the trajectory. */
void rt_ev_probe_step(RtSim *s, const RtEvBracket *br, double t)
{
    const double *x = relation_state(s, br, t);
    RtEval e = rt_eval_make(s, t, x, s->dxt, s->alg_good, s->modes);
    rt_ev_truth_at(s, &e, s->truth);
}

/* The crossing functions on the step's interpolant at time t, into g
   (relations that read algebraic values get those of the step's end:
   only the others are used). */
static void crossings_on(RtSim *s, const RtEvBracket *br, double t, double *g)
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
double rt_ev_dip(RtSim *s, const RtEvBracket *br, int only_time)
{
    const RtModel *m = s->m;
    int nr = m->n_relations;
    if (!m->zero_crossings || m->n_states <= 0)
        return -1;
    int any = 0;
    for (int i = 0; i < nr && !any; i++)
        any = dips(s, i, only_time);
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
        if (!dips(s, i, only_time))
            continue;
        double o = rt_ev_orientation(s, i);
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
int rt_ev_probes_evaluate(const RtSim *s)
{
    if (s->m->n_states <= 0)
        return 1;
    for (int i = 0; i < s->m->n_relations; i++)
        if (s->m->relations[i].reads_alg)
            return 1;
    return 0;
}

/* The relations at t in the bracket into s->truth and s->g: on the
   trajectory (rt_ev_probe_interpolated), or on time alone (probe_time). */
typedef int (*ProbeAt)(RtSim *s, const RtEvBracket *br, double t);

/* Shrinks [a, b] around relation i's crossing (Illinois), to the time
   tolerance.  ha and hb are its oriented g at the ends of the bracket. */
static int locate(RtSim *s, const RtEvBracket *br, int i, double ha, double hb,
                  double *ta, double *tb, ProbeAt at)
{
    double a = br->L.t, b = br->R.t;
    double tol = rt_ev_time_tol(s, b);
    int side = 0;
    for (int it = 0; it < RT_MAX_LOCATE_ITER && b - a > tol; it++) {
        double c = ha > 0 && hb < 0 ? b - hb * (b - a) / (hb - ha)
                                    : 0.5 * (a + b);
        /* Stay inside by half a tolerance, so every probe shrinks the
           bracket even when the secant lands on an end. */
        double lo = a + 0.5 * tol, hi = b - 0.5 * tol;
        c = lo >= hi ? 0.5 * (a + b) : fmin(fmax(c, lo), hi);
        if (at(s, br, c) != 0)
            return -1;
        double hc = rt_ev_oriented(s, i);
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

/* The earliest crossing between L and R (of the relations on time alone
   only, with only_time), as a bracket [*ta, *tb] no wider than the time
   tolerance. */
static int earliest_crossing(RtSim *s, const RtEvBracket *br, double *ta, double *tb,
                             ProbeAt at, int only_time)
{
    int nr = s->m->n_relations;
    int *crossed = rt_xcalloc((size_t)nr, sizeof *crossed);
    double *h0 = rt_xcalloc((size_t)nr, sizeof *h0);
    double *h1 = rt_xcalloc((size_t)nr, sizeof *h1);
    int rc = at(s, br, br->R.t);
    for (int i = 0; i < nr && rc == 0; i++) {
        crossed[i] = s->truth[i] != s->modes[i] && counts(s, i, only_time);
        h1[i] = rt_ev_oriented(s, i);
    }
    if (rc == 0)
        rc = at(s, br, br->L.t);
    for (int i = 0; i < nr && rc == 0; i++)
        h0[i] = rt_ev_oriented(s, i);
    *ta = br->L.t;
    *tb = br->R.t;
    int found = 0;
    for (int i = 0; i < nr && rc == 0; i++) {
        if (!crossed[i])
            continue;
        double a, b;
        rc = locate(s, br, i, h0[i], h1[i], &a, &b, at);
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

/* Moves the trajectory from L to t (the solver's interpolant, or by
   integrating again, which *restarted tells), and probes there.  Returns
   1 if a relation has changed at t, 0 if not, -1 on failure. */
int rt_ev_integrate_and_probe(RtSim *s, const RtEvPoint *L, double t, int *restarted)
{
    int rc = rt_trajectory(s, L->t, L->x, t, s->xt);
    if (rc > 0)
        *restarted = 1;
    if (rc < 0 || rt_ev_probe(s, t, s->xt, s->dxt) != 0)
        return -1;
    return rt_ev_first_changed(s) >= 0;
}

/* Narrows the bracket until it is no wider than the time tolerance, with
   every point on the integrated trajectory: locate on the interpolant,
   then integrate to both ends of the located bracket to confirm it.  A
   point that contradicts the interpolant becomes the new end, and the
   next pass, on a shorter interval, interpolates better.  Bounded; the
   worst case leaves a wider bracket, never a wrong one. */
int rt_ev_refine(RtSim *s, RtEvBracket *br)
{
    int n = s->m->n_states, restarted = 0;
    for (int pass = 0; pass < RT_MAX_EVENT_REFINE; pass++) {
        if (br->R.t - br->L.t <= rt_ev_time_tol(s, br->R.t))
            return 0;
        double a, b;
        if (earliest_crossing(s, br, &a, &b, rt_ev_probe_interpolated, 0) != 0)
            return -1;
        if (n == 0) {
            /* No states: the located times are exact. */
            br->L.t = a;
            br->R.t = b;
            return 0;
        }
        if (a > br->L.t) {
            int rc = rt_ev_integrate_and_probe(s, &br->L, a, &restarted);
            if (rc < 0)
                return -1;
            if (rc) {
                rt_ev_point_set(n, &br->R, a, s->xt, s->dxt);
                continue;
            }
            rt_ev_point_set(n, &br->L, a, s->xt, s->dxt);
        }
        if (b < br->R.t) {
            int rc = rt_ev_integrate_and_probe(s, &br->L, b, &restarted);
            if (rc < 0)
                return -1;
            if (!rc) {
                rt_ev_point_set(n, &br->L, b, s->xt, s->dxt);
                continue;
            }
            rt_ev_point_set(n, &br->R, b, s->xt, s->dxt);
        }
    }
    return 0;
}

/* Whether a relation on time alone that matters has changed at the last
   probe. */
static int time_changed(const RtSim *s)
{
    for (int i = 0; i < s->m->n_relations; i++)
        if (s->truth[i] != s->modes[i] && counts(s, i, 1))
            return 1;
    return 0;
}

double rt_time_events_limit(RtSim *s, double t1)
{
    const RtModel *m = s->m;
    int n = m->n_states;
    if (s->n_time_rel <= 0 || !m->relation_values || n <= 0)
        return t1;
    /* the step about to be taken: the solver's next step, as far as known
       (CVODE chooses the first after a restart itself: all of it) */
    double t0 = s->t, h = s->h > 0 ? fmin(s->h, t1 - t0) : t1 - t0;
    if (s->opt.max_step > 0)
        h = fmin(h, s->opt.max_step);
    if (!(h > 0))
        return t1;
    double *store = s->bracket;
    RtEvBracket br = {{t0, store, store + n}, {t0 + h, store + 2 * n, store + 3 * n}};
    rt_ev_point_set(n, &br.L, t0, s->x, s->dx);
    rt_ev_point_set(n, &br.R, t0 + h, s->x, s->dx);
    /* the first probe that sees a change, earliest first, or the dip */
    double tc = -1;
    for (int k = 1; k <= RT_STEP_PROBES + 1 && tc < 0; k++) {
        double tp = k == RT_STEP_PROBES + 1 ? t0 + h : t0 + h * k / (RT_STEP_PROBES + 1);
        probe_time(s, &br, tp);
        if (time_changed(s))
            tc = tp;
    }
    if (tc < 0) {
        double td = rt_ev_dip(s, &br, 1);
        if (td > t0) {
            probe_time(s, &br, td);
            if (time_changed(s))
                tc = td;
        }
    }
    if (tc < 0)
        return t1;
    br.R.t = tc;
    double a, b;
    earliest_crossing(s, &br, &a, &b, probe_time, 1);
    return fmin(t1, b);
}
