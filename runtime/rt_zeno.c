/*
 * rt_zeno.c - events that do not stop coming: chattering, and resets that
 * accumulate (the Zeno limit).
 *
 * Chattering.  RT_CHATTER_EVENTS events within RT_CHATTER_WINDOW of the
 * stop time stop the run with a message naming the relations involved
 * (the logged changes are kept in a ring for that), rather than letting
 * it crawl forever.
 *
 * The Zeno limit.  Compound transitions (resets) accumulating at a finite
 * time: two of one chart in that window (rt_events.c, discrete_step), or a
 * reset that left the state in its condition followed by a step deeper
 * into it (below), which would otherwise go on through the condition.
 */
#include "rt_events.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Remembers a logged change, for the chattering message. */
void rt_ev_note_change(RtSim *s, double t, int relation)
{
    long k = s->n_changes++ % RT_CHANGE_RING;
    s->change_rels[k] = relation;
    s->change_times[k] = t;
}

/* The chattering guard: RT_CHATTER_EVENTS events in a short window.  The
   failure names the distinct relations logged within the window, most
   recent first. */
int rt_ev_chattering(RtSim *s, double te, int relation)
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
void rt_ev_watch_resets(RtSim *s, double te)
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
    memcpy(s->md_trial, s->modes, rt_ev_nrel(s) * sizeof *s->md_trial);
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
            || r->assert_only || r->table1 || rt_ev_inert(s, s->modes, i))
            continue;   /* did not cross here, or no longer holds */
        double o = rt_ev_orientation(s, i);
        if (o * (g1[i] - g0[i]) > 0)
            continue;   /* still moving in: the reset did not change that */
        s->watch[i] = (RtResetWatch){chart, s->modes[i], o * g0[i], te};
    }
}

/* At the end of a step without events: a watched relation (above)
   deeper in its condition than its reset left it. */
int rt_ev_watch_check(RtSim *s)
{
    if (s->m->n_charts <= 0)
        return 0;   /* watches follow the resets of mode charts */
    for (int i = 0; i < s->m->n_relations; i++) {
        const RtResetWatch *w = &s->watch[i];
        if (w->chart < 0 || s->modes[i] != w->mode || s->truth[i] != w->mode
            || !(rt_ev_orientation(s, i) * s->g[i] > w->g))
            continue;
        rt_fail_simple(&s->fail, RT_FAILKIND_ZENO, w->t, w->chart);
        s->fail.culprits[0] = i;
        s->fail.n_culprits = 1;
        s->fail.h = s->t;
        return -1;
    }
    return 0;
}
