/*
 * fmi_cs.c - Co-Simulation: fmi2DoStep integrates with the runtime.
 *
 * A step is the simulator's integration between two output times
 * (rt_advance in rt_integrate.c): the same stepper (msbdf) with the same
 * tolerances, events located inside the step and handled as the
 * simulator does (rt_events.c), asserts checked after every solver step.
 * So an FMU stepped at the simulator's output times reproduces its rows.
 * Inputs are held over a step (the importer sets them before it); a
 * parameter or input changed between steps is taken up like an event:
 * the modes are settled at the current state and the solver restarts.
 *
 * A failed assert ends the run: fmi2DoStep returns fmi2Discard with the
 * assert's message, fmi2GetBooleanStatus(fmi2Terminated) says true and
 * fmi2GetRealStatus(fmi2LastSuccessfulTime) gives the time reached (where
 * the assert failed), at which the variables can still be read.  Any
 * other failure (the solver, a block, a NaN) is fmi2Error.
 *
 * Steps are synchronous (canRunAsynchronuously is false), so there is no
 * step in progress to cancel or query, and inputs are not interpolated
 * (canInterpolateInputs false, maxOutputDerivativeOrder 0): those
 * functions return fmi2Error or fmi2Discard, as the standard says, with a
 * message.
 */
#include "fmi_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A parameter or input changed since the last step: an event at the
   current state (the simulator's event iteration: modes, event variables,
   mode charts and their resets), and the solver's history forgotten. */
static int resync(FmiInstance *in)
{
    RtSim *s = &in->sim;
    int nr = s->m->n_relations;
    int *old = rt_xcalloc((size_t)nr, sizeof *old);
    if (nr > 0)
        memcpy(old, s->modes, (size_t)nr * sizeof *old);
    int rc = rt_event_iterate(s, s->t, s->x, 0, 0);
    if (rc == 0) {
        rt_accept_alg(s);
        fmi_log_mode_changes(in, old);
        rt_delays_event(s, s->t);
        rc = rt_delays_sample(s, s->t, s->x, s->dx, s->alg);
        rt_solver_reset(s);
        in->resync = 0;
    }
    free(old);
    return rc;
}

fmi2Status fmi2DoStep(fmi2Component c, fmi2Real currentCommunicationPoint,
                      fmi2Real communicationStepSize,
                      fmi2Boolean noSetFMUStatePriorToCurrentCommunicationPoint)
{
    (void)noSetFMUStatePriorToCurrentCommunicationPoint;
    FmiInstance *in = fmi_check(c, "fmi2DoStep", FMI_FOR_CS, FMI_STEP);
    if (!in)
        return fmi2Error;
    RtSim *s = &in->sim;
    double t0 = currentCommunicationPoint, h = communicationStepSize;
    if (!(h > 0) || !isfinite(h) || !isfinite(t0)) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2DoStep: the step size must be positive "
                "and finite, not %g (from %g)", h, t0);
        return fmi2Error;
    }
    /* the communication point is where the FMU is (to rounding) */
    if (fabs(t0 - s->t) > 1e-12 * fmax(1, fabs(s->t))) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2DoStep: the communication point %.17g "
                "is not the FMU's time %.17g (steps follow each other; fmi2SetFMUstate "
                "goes back)", t0, s->t);
        return fmi2Error;
    }
    if (in->resync && resync(in) != 0)
        return fmi_fail(in, fmi2Error, FMI_ERROR);
    double t1 = t0 + h;
    fmi_invalidate(in);
    /* the communication points are the output times: an event within the
       time tolerance of one is logged at it, as the simulator does */
    s->out_last = s->t;
    s->out_next = t1;
    /* without a stop time, the solver may step past the communication
       point up to twice the time from the start, so that a multistep
       method is not cut short at every point, which keeps it at low
       order and off its tolerance (a function of the point alone, so a
       run restored from an FMU state steps as the first did) */
    s->opt.horizon = in->stop_defined ? 0 : t1 + (t1 - in->t_start);
    int rc = rt_advance(s, t1);
    s->out_next = NAN;
    /* a step ends on a partial evaluation (what the solver needs), an
       event on a complete one */
    in->evaluated = !s->alg_partial;
    if (rc == 0) {
        in->last_good = s->t;
        return fmi2OK;
    }
    if (s->fail.kind == RT_FAILKIND_ASSERT) {
        in->terminate = 1;
        in->last_good = s->t;
        return fmi_fail(in, fmi2Discard, FMI_STEP_FAILED);
    }
    in->last_good = s->t;
    return fmi_fail(in, fmi2Error, FMI_ERROR);
}

fmi2Status fmi2CancelStep(fmi2Component c)
{
    FmiInstance *in = fmi_check(c, "fmi2CancelStep", FMI_FOR_CS, FMI_ANY_LIVE);
    if (!in)
        return fmi2Error;
    fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2CancelStep: no step is in progress: this "
            "FMU runs fmi2DoStep synchronously (canRunAsynchronuously=\"false\")");
    return fmi2Error;
}

fmi2Status fmi2SetRealInputDerivatives(fmi2Component c, const fmi2ValueReference vr[],
                                       size_t nvr, const fmi2Integer order[],
                                       const fmi2Real value[])
{
    (void)vr, (void)order, (void)value;
    FmiInstance *in = fmi_check(c, "fmi2SetRealInputDerivatives", FMI_FOR_CS, FMI_ANY_LIVE);
    if (!in)
        return fmi2Error;
    if (nvr == 0)
        return fmi2OK;
    fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2SetRealInputDerivatives: not supported: this "
            "FMU holds its inputs over a step (canInterpolateInputs=\"false\")");
    return fmi2Error;
}

fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c, const fmi2ValueReference vr[],
                                        size_t nvr, const fmi2Integer order[],
                                        fmi2Real value[])
{
    (void)vr, (void)order, (void)value;
    FmiInstance *in = fmi_check(c, "fmi2GetRealOutputDerivatives", FMI_FOR_CS, FMI_ANY_LIVE);
    if (!in)
        return fmi2Error;
    if (nvr == 0)
        return fmi2OK;
    fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2GetRealOutputDerivatives: not supported "
            "(maxOutputDerivativeOrder=\"0\")");
    return fmi2Error;
}

enum { FMI_CS_STATUS = FMI_STEP | FMI_STEP_FAILED | FMI_TERMINATED };

/* A status this FMU does not have (those of asynchronous steps): the
   standard's answer is fmi2Discard. */
static fmi2Status no_status(FmiInstance *in, const char *fn, int kind, const void *value)
{
    if (!value) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: NULL result pointer", fn);
        return fmi2Error;
    }
    fmi_log(in, fmi2Discard, FMI_LOG_WARNING, "%s: status kind %d is not available (steps "
            "are synchronous: there is no pending or asynchronous status)", fn, kind);
    return fmi2Discard;
}

fmi2Status fmi2GetStatus(fmi2Component c, const fmi2StatusKind s, fmi2Status *value)
{
    FmiInstance *in = fmi_check(c, "fmi2GetStatus", FMI_FOR_CS, FMI_CS_STATUS);
    if (!in)
        return fmi2Error;
    return no_status(in, "fmi2GetStatus", (int)s, value);
}

fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind s, fmi2Real *value)
{
    FmiInstance *in = fmi_check(c, "fmi2GetRealStatus", FMI_FOR_CS, FMI_CS_STATUS);
    if (!in)
        return fmi2Error;
    if (s != fmi2LastSuccessfulTime || !value)
        return no_status(in, "fmi2GetRealStatus", (int)s, value);
    *value = in->last_good;
    return fmi2OK;
}

fmi2Status fmi2GetIntegerStatus(fmi2Component c, const fmi2StatusKind s, fmi2Integer *value)
{
    FmiInstance *in = fmi_check(c, "fmi2GetIntegerStatus", FMI_FOR_CS, FMI_CS_STATUS);
    if (!in)
        return fmi2Error;
    return no_status(in, "fmi2GetIntegerStatus", (int)s, value);
}

fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind s, fmi2Boolean *value)
{
    FmiInstance *in = fmi_check(c, "fmi2GetBooleanStatus", FMI_FOR_CS, FMI_CS_STATUS);
    if (!in)
        return fmi2Error;
    if (s != fmi2Terminated || !value)
        return no_status(in, "fmi2GetBooleanStatus", (int)s, value);
    *value = in->terminate ? fmi2True : fmi2False;
    return fmi2OK;
}

fmi2Status fmi2GetStringStatus(fmi2Component c, const fmi2StatusKind s, fmi2String *value)
{
    FmiInstance *in = fmi_check(c, "fmi2GetStringStatus", FMI_FOR_CS, FMI_CS_STATUS);
    if (!in)
        return fmi2Error;
    return no_status(in, "fmi2GetStringStatus", (int)s, value);
}
