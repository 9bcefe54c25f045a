/*
 * rt_events.h - what the three files of the event machinery share, and
 * nothing the rest of the runtime uses (that is rt_internal.h's
 * rt_events_* and rt_event_iterate): rt_events.c (modes, the event
 * iteration, handling an event), rt_locate.c (detecting and locating
 * crossings, time events) and rt_zeno.c (chattering, resets that
 * accumulate).
 */
#ifndef LMDL_RT_EVENTS_H
#define LMDL_RT_EVENTS_H

#include "rt_internal.h"

#include <stddef.h>

/* A point of the trajectory: time, state and derivative (own storage,
   since probes overwrite s->x, s->dx and s->alg). */
typedef struct RtEvPoint {
    double t;               /* time */
    double *x;              /* state, n_states */
    double *f;              /* its derivative */
} RtEvPoint;

/* The bracket of the crossing on the trajectory: no relation has changed
   at L, at least one has at R. */
typedef struct RtEvBracket {
    RtEvPoint L;                /* no relation has changed here */
    RtEvPoint R;                /* at least one has */
} RtEvBracket;

/* rt_events.c.  time_tol: the event time tolerance at t; nrel: the
   relations' count as a size; inert: relation i cannot matter under the
   modes (its guard is off); truth_at: the relations' truth values (0/1,
   a segment mode's segment) at an evaluated point; probe_as: evaluates
   at (t, x) into dx and s->alg, past a crossing if need be, then the
   relations into s->truth and s->g (partial: a search probe's
   evaluation); probe: a partial one; orientation: the sign that makes
   relation i's crossing function >= 0 while it keeps its mode; oriented:
   that function at the last probe; first_changed: the first relation
   that changed at the last probe and matters, or -1. */
double rt_ev_time_tol(const RtSim *s, double t);
size_t rt_ev_nrel(const RtSim *s);
int rt_ev_inert(const RtSim *s, const int *modes, int i);
void rt_ev_truth_at(const RtSim *s, const RtEval *e, int *truth);
/* The truth values into s->truth and the crossing functions into s->g,
   at an evaluated point. */
void rt_ev_relations_at(RtSim *s, const RtEval *e);
int rt_ev_probe_as(RtSim *s, double t, const double *x, double *dx, int partial);
int rt_ev_probe(RtSim *s, double t, const double *x, double *dx);
double rt_ev_orientation(const RtSim *s, int i);
double rt_ev_oriented(const RtSim *s, int i);
int rt_ev_first_changed(const RtSim *s);

/* rt_locate.c.  point_set: copies a point; probe_interpolated: the
   relations at t on the bracket's trajectory, by an evaluation;
   probe_step: the relations at t on the interval's cubic interpolant
   without an evaluation (none reads an algebraic value); dip: the
   earliest deepest dip below zero of a crossing function inside the
   bracket, or -1 (of the relations on time alone, with only_time);
   probes_evaluate: probes need evaluations;
   integrate_and_probe: the trajectory moved from L to t and probed there
   (1 changed, 0 not, -1 failure), with *restarted telling that the
   solver integrated again; refine: the bracket narrowed to the time
   tolerance. */
void rt_ev_point_set(int n, RtEvPoint *p, double t, const double *x, const double *f);
int rt_ev_probe_interpolated(RtSim *s, const RtEvBracket *br, double t);
void rt_ev_probe_step(RtSim *s, const RtEvBracket *br, double t);
double rt_ev_dip(RtSim *s, const RtEvBracket *br, int only_time);
int rt_ev_probes_evaluate(const RtSim *s);
int rt_ev_integrate_and_probe(RtSim *s, const RtEvPoint *L, double t, int *restarted);
int rt_ev_refine(RtSim *s, RtEvBracket *br);

/* rt_zeno.c.  note_change: remembers a logged change; chattering: the
   guard on too many events (-1 with s->fail); watch_resets: after an
   event at te that reset, the relations the reset left in their
   condition; watch_check: at a step's end without an event, a watched
   relation deeper in its condition (-1 with s->fail: the Zeno limit). */
void rt_ev_note_change(RtSim *s, double t, int relation);
int rt_ev_chattering(RtSim *s, double te, int relation);
void rt_ev_watch_resets(RtSim *s, double te);
int rt_ev_watch_check(RtSim *s);

#endif
