/*
 * fmi_me.c - Model Exchange: the importer integrates, the FMU evaluates.
 *
 * The continuous states are the runtime's x, in its order; their
 * derivatives come from eval with the modes frozen, exactly as the
 * simulator's steppers see them, so the right-hand side is smooth between
 * events.  The event indicators are the relations' zero-crossing
 * functions (rt_model.h): relation i holds when indicator i is > 0 (or
 * >= 0 for a non-strict relation), so a change of sign is the relation
 * changing.  A relation whose guard is off (a wall's force clamp while
 * out of contact) cannot change the equations; the simulator follows it
 * silently, and here its indicator is held at the sign of its mode, so
 * the importer sees no event for it either.  When its guard turns on,
 * that event settles every mode, and its indicator is live again.
 *
 * Event mode: fmi2NewDiscreteStates runs the simulator's event iteration
 * (rt_event_iterate): the relations' values at the current state become
 * the modes, when clauses and mode charts update the event variables, and
 * a mode entered applies its state resets, to a fixed point, so one call
 * finishes the iteration: newDiscreteStatesNeeded is always false, and
 * valuesOfContinuousStatesChanged says whether a reset moved the states.
 * The delays' histories take both limits of the event, and a jump that
 * will arrive through a delay with a constant tau is the next time event
 * (nextEventTime).  Otherwise there are no time events.
 *
 * fmi2CompletedIntegratorStep accepts the state (its algebraic values
 * become the next Newton guesses; the delays take a sample of it) and
 * checks the asserts: a failed one is logged with its message and asks
 * the importer to terminate.  The importer's steps are not limited to the
 * shortest delay, as the simulator's are: a trial point beyond a delay's
 * last sample reads it extrapolated (docs/fmi.md).
 */
#include "fmi_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Evaluation failed in a function that returns states' functions: a
   trial point in continuous-time mode is fmi2Discard (try a smaller
   step), anything else an error. */
static fmi2Status failed(FmiInstance *in)
{
    if (in->state == FMI_CONT)
        return fmi_fail(in, fmi2Discard, FMI_CONT);
    return fmi_fail(in, fmi2Error, in->state & (FMI_TERMINATED | FMI_ERROR) ? in->state
                                                                           : FMI_ERROR);
}

static int size_ok(FmiInstance *in, const char *fn, const void *a, size_t n, int want,
                   const char *what)
{
    if (n != (size_t)want) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: %zu %s, but the model has %d", fn, n,
                what, want);
        return 0;
    }
    if (n > 0 && !a) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: a NULL array", fn);
        return 0;
    }
    return 1;
}

fmi2Status fmi2EnterEventMode(fmi2Component c)
{
    FmiInstance *in = fmi_check(c, "fmi2EnterEventMode", FMI_FOR_ME, FMI_EVENT | FMI_CONT);
    if (!in)
        return fmi2Error;
    in->state = FMI_EVENT;
    return fmi2OK;
}

fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo *info)
{
    FmiInstance *in = fmi_check(c, "fmi2NewDiscreteStates", FMI_FOR_ME, FMI_EVENT);
    if (!in)
        return fmi2Error;
    if (!info) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2NewDiscreteStates: NULL event info");
        return fmi2Error;
    }
    RtSim *s = &in->sim;
    int nr = s->m->n_relations, n = s->m->n_states;
    int *old = rt_xcalloc((size_t)nr, sizeof *old);
    double *x_before = rt_xcalloc((size_t)n, sizeof *x_before);
    if (nr > 0)
        memcpy(old, s->modes, (size_t)nr * sizeof *old);
    if (n > 0)
        memcpy(x_before, s->x, (size_t)n * sizeof *x_before);
    fmi_invalidate(in);
    if (s->delays) {
        /* the left limit, with the modes before the event (past the
           crossing if need be) */
        RtFailure f;
        memcpy(s->md_trial, s->modes, (size_t)nr * sizeof *s->md_trial);
        if (rt_eval_past(s, s->t, s->x, s->dx, s->alg, s->md_trial, &f) == 0)
            rt_delays_sample(s, s->t, s->x, s->dx, s->alg);
    }
    int rc = rt_event_iterate(s, s->t, s->x, 0, 0);
    if (rc == 0) {
        in->evaluated = 1;      /* the iteration ends on an evaluation */
        rt_accept_alg(s);
        fmi_log_mode_changes(in, old);
        rt_delays_event(s, s->t);
        rc = rt_delays_sample(s, s->t, s->x, s->dx, s->alg);
    }
    int moved = n > 0 && memcmp(x_before, s->x, (size_t)n * sizeof *x_before) != 0;
    free(old);
    free(x_before);
    if (rc != 0)
        return fmi_fail(in, fmi2Error, FMI_ERROR);
    double next = rt_delays_breakpoint(s, s->t);
    memset(info, 0, sizeof *info);
    info->newDiscreteStatesNeeded = fmi2False;
    info->terminateSimulation = fmi2False;
    info->nominalsOfContinuousStatesChanged = fmi2False;
    info->valuesOfContinuousStatesChanged = moved ? fmi2True : fmi2False;
    info->nextEventTimeDefined = isfinite(next) ? fmi2True : fmi2False;
    info->nextEventTime = isfinite(next) ? next : 0;
    return fmi2OK;
}

fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c)
{
    FmiInstance *in = fmi_check(c, "fmi2EnterContinuousTimeMode", FMI_FOR_ME, FMI_EVENT);
    if (!in)
        return fmi2Error;
    in->state = FMI_CONT;
    return fmi2OK;
}

fmi2Status fmi2CompletedIntegratorStep(fmi2Component c,
                                       fmi2Boolean noSetFMUStatePriorToCurrentPoint,
                                       fmi2Boolean *enterEventMode,
                                       fmi2Boolean *terminateSimulation)
{
    (void)noSetFMUStatePriorToCurrentPoint;  /* nothing is kept for a roll-back */
    FmiInstance *in = fmi_check(c, "fmi2CompletedIntegratorStep", FMI_FOR_ME, FMI_CONT);
    if (!in)
        return fmi2Error;
    if (!enterEventMode || !terminateSimulation) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2CompletedIntegratorStep: NULL result "
                "pointer");
        return fmi2Error;
    }
    *enterEventMode = fmi2False;
    *terminateSimulation = fmi2False;
    if (fmi_evaluate(in, 0) != 0)
        return fmi_fail(in, fmi2Error, FMI_ERROR);
    rt_accept_alg(&in->sim);
    rt_delays_sample(&in->sim, in->sim.t, in->sim.x, in->sim.dx, in->sim.alg);
    if (rt_check_asserts(&in->sim) != 0) {
        /* the model asks to stop: the assert's message, and terminate */
        fmi_fail(in, fmi2Error, FMI_CONT);
        *terminateSimulation = fmi2True;
    }
    return fmi2OK;
}

fmi2Status fmi2SetTime(fmi2Component c, fmi2Real time)
{
    FmiInstance *in = fmi_check(c, "fmi2SetTime", FMI_FOR_ME, FMI_EVENT | FMI_CONT);
    if (!in)
        return fmi2Error;
    if (!isfinite(time)) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2SetTime: the time must be finite, not %g",
                time);
        return fmi2Error;
    }
    in->sim.t = time;
    fmi_invalidate(in);
    return fmi2OK;
}

fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t nx)
{
    FmiInstance *in = fmi_check(c, "fmi2SetContinuousStates", FMI_FOR_ME, FMI_CONT);
    if (!in || !size_ok(in, "fmi2SetContinuousStates", x, nx, in->sim.m->n_states, "states"))
        return fmi2Error;
    if (nx > 0)
        memcpy(in->sim.x, x, nx * sizeof *x);
    fmi_invalidate(in);
    return fmi2OK;
}

enum { FMI_ME_READ = FMI_EVENT | FMI_CONT | FMI_TERMINATED | FMI_ERROR };

fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real derivatives[], size_t nx)
{
    FmiInstance *in = fmi_check(c, "fmi2GetDerivatives", FMI_FOR_ME, FMI_ME_READ);
    if (!in || !size_ok(in, "fmi2GetDerivatives", derivatives, nx, in->sim.m->n_states,
                        "derivatives"))
        return fmi2Error;
    if (fmi_evaluate(in, 0) != 0)
        return failed(in);
    if (nx > 0)
        memcpy(derivatives, in->sim.dx, nx * sizeof *derivatives);
    return fmi2OK;
}

fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real eventIndicators[], size_t ni)
{
    FmiInstance *in = fmi_check(c, "fmi2GetEventIndicators", FMI_FOR_ME, FMI_ME_READ);
    RtSim *s = in ? &in->sim : NULL;
    if (!in || !size_ok(in, "fmi2GetEventIndicators", eventIndicators, ni,
                        s->m->n_relations, "event indicators"))
        return fmi2Error;
    if (ni == 0)
        return fmi2OK;
    if (fmi_evaluate(in, 0) != 0)
        return failed(in);
    const RtModel *m = s->m;
    RtEval e = rt_eval_make(s, s->t, s->x, s->dx, s->alg, s->modes);
    if (m->zero_crossings) {
        m->zero_crossings(&e, s->g);
    } else {
        m->relation_values(&e, s->truth);
        for (size_t i = 0; i < ni; i++)
            s->g[i] = s->truth[i] ? 1 : -1;
    }
    for (size_t i = 0; i < ni; i++)
        eventIndicators[i] = fmi_relation_inert(in, (int)i) ? (s->modes[i] ? 1 : -1) : s->g[i];
    return fmi2OK;
}

fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t nx)
{
    FmiInstance *in = fmi_check(c, "fmi2GetContinuousStates", FMI_FOR_ME, FMI_ME_READ);
    if (!in || !size_ok(in, "fmi2GetContinuousStates", x, nx, in->sim.m->n_states, "states"))
        return fmi2Error;
    if (nx > 0)
        memcpy(x, in->sim.x, nx * sizeof *x);
    return fmi2OK;
}

fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, fmi2Real x_nominal[], size_t nx)
{
    FmiInstance *in = fmi_check(c, "fmi2GetNominalsOfContinuousStates", FMI_FOR_ME,
                                FMI_INSTANTIATED | FMI_ME_READ);
    RtSim *s = in ? &in->sim : NULL;
    if (!in || !size_ok(in, "fmi2GetNominalsOfContinuousStates", x_nominal, nx,
                        s->m->n_states, "states"))
        return fmi2Error;
    if (!in->initialized && s->m->start) {
        /* before initialization: the nominals the parameters give */
        s->m->start(s->p, s->xt, s->nominal);
        for (size_t j = 0; j < nx; j++) {
            double nom = fabs(s->nominal[j]);
            s->nominal[j] = isfinite(nom) && nom > 0 ? nom : 1;
        }
    }
    for (size_t j = 0; j < nx; j++)
        x_nominal[j] = s->m->start ? s->nominal[j] : 1;
    return fmi2OK;
}
