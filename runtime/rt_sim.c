/*
 * rt_sim.c - an RtSim's buffers, sized for its model: made once before a
 * run, freed once after it.
 *
 * The simulator's main() (rt_main.c) makes one; an FMU instance
 * (runtime/fmi/) makes one per fmi2Instantiate, so the run's whole state
 * lives in the RtSim and several instances of one model can coexist in
 * one process.  The caller zeroes the RtSim first; the parameters start
 * at their defaults.
 */
#include "rt_internal.h"

#include <stdlib.h>
#include <string.h>

void rt_sim_alloc(RtSim *s, const RtModel *m)
{
    size_t n = (size_t)(m->n_states > 0 ? m->n_states : 0);
    size_t na = (size_t)(m->n_alg > 0 ? m->n_alg : 0);
    size_t nr = (size_t)(m->n_relations > 0 ? m->n_relations : 0);
    size_t np = (size_t)(m->n_params > 0 ? m->n_params : 0);
    size_t nc = (size_t)(m->n_columns > 0 ? m->n_columns : 0);
    s->m = m;
    s->p = rt_xcalloc(rt_param_slots(m) + 1, sizeof *s->p);
    s->overridden = rt_xcalloc(np, sizeof *s->overridden);
    if (m->param_values && np)
        memcpy(s->p, m->param_values, np * sizeof *s->p);
    else
        for (size_t i = 0; i < np; i++)
            s->p[i] = rt_param_info(m, i).value;
    double **vecs[] = {&s->x, &s->dx, &s->x_start, &s->nominal, &s->xt, &s->full_x,
                       &s->dxt, &s->x0, &s->dx0, &s->xj, &s->fj, &s->f0j, &s->fx,
                       &s->end_x, &s->end_dx};
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
        *vecs[i] = rt_xcalloc(n, sizeof(double));
    s->alg = rt_xcalloc(na, sizeof *s->alg);
    s->alg_good = rt_xcalloc(na, sizeof *s->alg_good);
    s->alg_jac = rt_xcalloc(na, sizeof *s->alg_jac);
    s->modes = rt_xcalloc(nr, sizeof *s->modes);
    s->truth = rt_xcalloc(nr, sizeof *s->truth);
    s->g = rt_xcalloc(nr, sizeof *s->g);
    s->cols = rt_xcalloc(nc, sizeof *s->cols);
    s->event_times = rt_xcalloc(RT_CHATTER_EVENTS, sizeof *s->event_times);
    s->warn_failing = rt_xcalloc((size_t)(m->n_asserts > 0 ? m->n_asserts : 0) + 1, 1);
    s->warned = rt_xcalloc((size_t)(m->n_asserts > 0 ? m->n_asserts : 0) + 1, 1);
    s->blocks = rt_blockwork_new(m);
    rt_events_alloc(s);
}

void rt_sim_free(RtSim *s)
{
    rt_integrate_teardown(s);
    rt_csv_close(s);
    rt_blockwork_free(s->blocks);
    rt_events_free(s);
    rt_progress_done(s->progress);
    void *bufs[] = {s->warn_failing, s->warned, s->p, s->overridden, s->x, s->dx, s->x_start, s->nominal,
                    s->xt, s->full_x, s->dxt, s->x0, s->dx0, s->xj, s->fj, s->f0j, s->fx,
                    s->end_x, s->end_dx, s->alg, s->alg_good, s->alg_jac, s->modes, s->truth, s->g,
                    s->cols, s->event_times, s->opt.vars, s->x_guess};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        free(bufs[i]);
}
