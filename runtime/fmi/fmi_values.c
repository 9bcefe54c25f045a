/*
 * fmi_values.c - fmi2Get/fmi2Set of every type, parameter changes and
 * directional derivatives.
 *
 * A value reference means what the generated table (lmdl_fmi.h) says: a
 * column, a state or a derivative (read only), a parameter or an input
 * (settable).  Reading a column or a derivative evaluates the model at
 * the instance's time, state, parameters and modes first, once: the
 * evaluation is kept until one of them changes.  In initialization mode
 * reading runs the initialization, so what is read is the initial value
 * for the parameters set so far.
 *
 * Setting parameters is what --param does: the values are set and marked
 * overridden, derive_params recomputes every parameter defined from
 * others, and the parameter-only asserts and pivots are checked.  A
 * value they refuse makes fmi2SetReal return fmi2Error with the assert's
 * message, and every parameter is put back as it was before the call (so
 * a refused call changes nothing).  Which variables may be set when is
 * the standard's: inputs in every mode but terminated, tunable parameters
 * in instantiated, initialization and event mode (Model Exchange) or
 * between steps (Co-Simulation).  Structural parameters chose the
 * model's equations when it was compiled: setting one to another value is
 * refused.
 *
 * Directional derivatives are central differences over the knowns
 * (states, inputs, and in initialization mode parameters), with the
 * modes frozen, as the simulator's Jacobian is computed.
 */
#include "fmi_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define X_LMDL_FMI_WHAT(k, what) what,
static const char *const kind_what[] = {LMDL_FMI_KINDS(X_LMDL_FMI_WHAT)};

const LmdlFmiVar *fmi_real_var(FmiInstance *in, const char *fn, fmi2ValueReference vr)
{
    if (vr >= (fmi2ValueReference)FMI_INFO->n_reals) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: value reference %u is out of range: "
                "the Real variables are 0 to %d", fn, vr, FMI_INFO->n_reals - 1);
        return NULL;
    }
    return &FMI_INFO->reals[vr];
}

/* The most values one call may name: many times the FMU's variables (a
   value reference may repeat), and far below what would overflow an
   allocation. */
#define FMI_MAX_VALUES ((size_t)1 << 24)

/* NULL arrays with a nonzero count, and counts no call can mean (an
   importer's size_t gone negative), are errors, not crashes or exits. */
static int arrays_ok(FmiInstance *in, const char *fn, size_t n, const void *a, const void *b)
{
    if (n > 0 && (!a || !b)) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: %zu values, but a NULL array", fn, n);
        return 0;
    }
    if (n > FMI_MAX_VALUES) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: %zu values: at most %zu can be named "
                "in one call", fn, n, FMI_MAX_VALUES);
        return 0;
    }
    return 1;
}

/* A failed evaluation while reading: in continuous-time mode the
   importer may try a smaller step (fmi2Discard); elsewhere it is an
   error of the run. */
static fmi2Status eval_failed(FmiInstance *in)
{
    if (in->state == FMI_CONT)
        return fmi_fail(in, fmi2Discard, FMI_CONT);
    if (in->state & (FMI_TERMINATED | FMI_ERROR))
        return fmi_fail(in, fmi2Error, in->state);
    return fmi_fail(in, fmi2Error, FMI_ERROR);
}

/* Reading needs the initial values in initialization mode. */
static int ready_to_read(FmiInstance *in)
{
    return in->state != FMI_INIT || fmi_initialize(in) == 0;
}

/* The value of one Real variable; -1 after an evaluation failed. */
static int real_value(FmiInstance *in, const LmdlFmiVar *v, double *out)
{
    RtSim *s = &in->sim;
    switch (v->kind) {
    case LMDL_FMI_COLUMN:
        if (fmi_evaluate(in, 1) != 0)
            return -1;
        *out = s->cols[v->index];
        return 0;
    case LMDL_FMI_STATE:
        *out = s->x[v->index];
        return 0;
    case LMDL_FMI_DERIVATIVE:
        if (fmi_evaluate(in, 0) != 0)
            return -1;
        *out = s->dx[v->index];
        return 0;
    default:
        *out = s->p[v->index];
        return 0;
    }
}

fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                       fmi2Real value[])
{
    FmiInstance *in = fmi_check(c, "fmi2GetReal", FMI_FOR_BOTH, FMI_READABLE);
    if (!in || !arrays_ok(in, "fmi2GetReal", nvr, vr, value))
        return fmi2Error;
    if (!ready_to_read(in))
        return fmi2Error;
    for (size_t i = 0; i < nvr; i++) {
        const LmdlFmiVar *v = fmi_real_var(in, "fmi2GetReal", vr[i]);
        if (!v)
            return fmi2Error;
        if (real_value(in, v, &value[i]) != 0)
            return eval_failed(in);
    }
    return fmi2OK;
}

fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                          fmi2Boolean value[])
{
    FmiInstance *in = fmi_check(c, "fmi2GetBoolean", FMI_FOR_BOTH, FMI_READABLE);
    if (!in || !arrays_ok(in, "fmi2GetBoolean", nvr, vr, value))
        return fmi2Error;
    for (size_t i = 0; i < nvr; i++) {
        if (vr[i] >= (fmi2ValueReference)FMI_INFO->n_bools) {
            fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2GetBoolean: value reference %u is "
                    "out of range: this FMU has %d Boolean variables", vr[i],
                    FMI_INFO->n_bools);
            return fmi2Error;
        }
        value[i] = in->sim.p[FMI_INFO->bools[vr[i]]] != 0 ? fmi2True : fmi2False;
    }
    return fmi2OK;
}

/* Integer and String variables: this FMU has none. */
static fmi2Status none_of(fmi2Component c, const char *fn, const char *type, int allowed,
                          size_t nvr, const fmi2ValueReference vr[], const void *values)
{
    FmiInstance *in = fmi_check(c, fn, FMI_FOR_BOTH, allowed);
    if (!in || !arrays_ok(in, fn, nvr, vr, values))
        return fmi2Error;
    if (nvr == 0)
        return fmi2OK;
    fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: value reference %u is out of range: this "
            "FMU has no %s variables", fn, vr[0], type);
    return fmi2Error;
}

/* The Integer variables are mode charts' modes (columns of whole
   numbers): read like Real ones, never set. */
static int int_in_range(FmiInstance *in, const char *fn, fmi2ValueReference vr)
{
    if (vr < (fmi2ValueReference)FMI_INFO->n_ints)
        return 1;
    fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: value reference %u is out of range: this "
            "FMU has %d Integer variables", fn, vr, FMI_INFO->n_ints);
    return 0;
}

fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                          fmi2Integer value[])
{
    FmiInstance *in = fmi_check(c, "fmi2GetInteger", FMI_FOR_BOTH, FMI_READABLE);
    if (!in || !arrays_ok(in, "fmi2GetInteger", nvr, vr, value))
        return fmi2Error;
    if (nvr && !ready_to_read(in))
        return fmi2Error;
    for (size_t i = 0; i < nvr; i++) {
        if (!int_in_range(in, "fmi2GetInteger", vr[i]))
            return fmi2Error;
        double d;
        if (real_value(in, &FMI_INFO->ints[vr[i]], &d) != 0)
            return eval_failed(in);
        value[i] = isfinite(d) && fabs(d) < 2e9 ? (fmi2Integer)lround(d) : 0;
    }
    return fmi2OK;
}

fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                         fmi2String value[])
{
    return none_of(c, "fmi2GetString", "String", FMI_READABLE, nvr, vr, value);
}

/* ---- setting ------------------------------------------------------------- */

enum { FMI_SETTABLE = FMI_INSTANTIATED | FMI_INIT | FMI_EVENT | FMI_CONT | FMI_STEP };

/* Whether parameter or input k may take `value` now; logs why not. */
static int may_set(FmiInstance *in, const char *fn, fmi2ValueReference vr, int kind, int k,
                   double value)
{
    RtParamInfo info = rt_param_info(FMI_MODEL, k);
    const RtParamInfo *pi = &info;
    if (!isfinite(value)) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: %s '%s' cannot be %g", fn,
                kind_what[kind], pi->name, value);
        return 0;
    }
    if (pi->structural) {
        if (value == in->sim.p[k])
            return 1;   /* its own value: nothing changes */
        char now[40];
        if (pi->is_bool)
            snprintf(now, sizeof now, "%s", in->sim.p[k] != 0 ? "true" : "false");
        else
            snprintf(now, sizeof now, "%.17g", in->sim.p[k]);
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: '%s' is a structural parameter: it chose "
                "the model's equations when the FMU was built, so it cannot change (it is "
                "%s); change it in the model and build the FMU again", fn, pi->name, now);
        return 0;
    }
    if (pi->access != RT_PARAM_PUBLIC) {
        if (value == in->sim.p[k])
            return 1;
        /* the reason --param gives (rt_param_fixed) */
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: '%s' %s, so it cannot be set",
                fn, pi->name, rt_param_fixed(pi));
        return 0;
    }
    if (kind == LMDL_FMI_PARAM && in->state == FMI_CONT) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: the tunable parameter '%s' (value "
                "reference %u) may change in event mode, not in continuous-time mode", fn,
                pi->name, vr);
        return 0;
    }
    return 1;
}

/* Sets parameters ks[i] (with their value references vrs[i] and kinds)
   to values[i], all or none: derived parameters follow, and the
   parameter-only asserts and pivots must hold. */
static fmi2Status set_params(FmiInstance *in, const char *fn, size_t n,
                             const fmi2ValueReference *vrs, const int *kinds, const int *ks,
                             const double *values)
{
    RtSim *s = &in->sim;
    const RtModel *m = s->m;
    for (size_t i = 0; i < n; i++)
        if (!may_set(in, fn, vrs[i], kinds[i], ks[i], values[i]))
            return fmi2Error;
    size_t np = (size_t)m->n_params, slots = rt_param_slots(m);
    memcpy(in->p_keep, s->p, slots * sizeof *s->p);
    memcpy(in->ov_keep, s->overridden, np * sizeof *s->overridden);
    for (size_t i = 0; i < n; i++) {
        s->p[ks[i]] = values[i];
        s->overridden[ks[i]] = 1;
    }
    rt_derive(m, s->p, s->overridden);
    /* a table's grid stays strictly monotonic, as the simulator requires
       of --param */
    int bad_grid = rt_check_grids(s) != 0;
    int bad_assert = !bad_grid && m->n_asserts > 0 ? rt_param_asserts(m, s->p) : -1;
    int bad_pivot = !bad_grid && bad_assert < 0 ? rt_param_pivots(m, s->p) : -1;
    if (bad_grid || bad_assert >= 0 || bad_pivot >= 0) {
        if (bad_grid) {
            /* rt_check_grids described it */
        } else if (bad_assert >= 0) {
            rt_fail_simple(&s->fail, RT_FAILKIND_ASSERT, s->t, bad_assert);
            s->fail.before_start = 1;
        } else {
            rt_fail_eval(&s->fail, s->t, RT_FAIL_SINGULAR, bad_pivot);
        }
        /* the report shows the refused values; then they go */
        fmi_fail(in, fmi2Error, in->state);
        memcpy(s->p, in->p_keep, slots * sizeof *s->p);
        memcpy(s->overridden, in->ov_keep, np * sizeof *s->overridden);
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: refused; the parameters are as they were",
                fn);
        return fmi2Error;
    }
    fmi_invalidate(in);
    if (in->state == FMI_INIT)
        in->initialized = 0;
    if (in->state == FMI_STEP)
        in->resync = 1;
    return fmi2OK;
}

fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                       const fmi2Real value[])
{
    FmiInstance *in = fmi_check(c, "fmi2SetReal", FMI_FOR_BOTH, FMI_SETTABLE);
    if (!in || !arrays_ok(in, "fmi2SetReal", nvr, vr, value))
        return fmi2Error;
    int *kinds = rt_xcalloc(nvr, sizeof *kinds);
    int *ks = rt_xcalloc(nvr, sizeof *ks);
    fmi2Status st = fmi2OK;
    for (size_t i = 0; i < nvr && st == fmi2OK; i++) {
        const LmdlFmiVar *v = fmi_real_var(in, "fmi2SetReal", vr[i]);
        if (!v) {
            st = fmi2Error;
        } else if (v->kind != LMDL_FMI_PARAM && v->kind != LMDL_FMI_INPUT) {
            fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2SetReal: value reference %u is %s, "
                    "computed by the model: only inputs and parameters can be set", vr[i],
                    kind_what[v->kind]);
            st = fmi2Error;
        } else if (rt_param_info(FMI_MODEL, v->index).is_bool) {
            fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2SetReal: '%s' is a Boolean: set it "
                    "with fmi2SetBoolean", rt_param_info(FMI_MODEL, v->index).name);
            st = fmi2Error;
        } else {
            kinds[i] = v->kind;
            ks[i] = v->index;
        }
    }
    if (st == fmi2OK)
        st = set_params(in, "fmi2SetReal", nvr, vr, kinds, ks, value);
    free(kinds);
    free(ks);
    return st;
}

fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                          const fmi2Boolean value[])
{
    FmiInstance *in = fmi_check(c, "fmi2SetBoolean", FMI_FOR_BOTH, FMI_SETTABLE);
    if (!in || !arrays_ok(in, "fmi2SetBoolean", nvr, vr, value))
        return fmi2Error;
    int *kinds = rt_xcalloc(nvr, sizeof *kinds);
    int *ks = rt_xcalloc(nvr, sizeof *ks);
    double *vals = rt_xcalloc(nvr, sizeof *vals);
    fmi2Status st = fmi2OK;
    for (size_t i = 0; i < nvr && st == fmi2OK; i++) {
        if (vr[i] >= (fmi2ValueReference)FMI_INFO->n_bools) {
            fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2SetBoolean: value reference %u is "
                    "out of range: this FMU has %d Boolean variables", vr[i],
                    FMI_INFO->n_bools);
            st = fmi2Error;
            break;
        }
        kinds[i] = LMDL_FMI_PARAM;
        ks[i] = FMI_INFO->bools[vr[i]];
        vals[i] = value[i] != fmi2False;
    }
    if (st == fmi2OK)
        st = set_params(in, "fmi2SetBoolean", nvr, vr, kinds, ks, vals);
    free(kinds);
    free(ks);
    free(vals);
    return st;
}

fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                          const fmi2Integer value[])
{
    FmiInstance *in = fmi_check(c, "fmi2SetInteger", FMI_FOR_BOTH, FMI_SETTABLE);
    if (!in || !arrays_ok(in, "fmi2SetInteger", nvr, vr, value))
        return fmi2Error;
    for (size_t i = 0; i < nvr; i++) {
        if (!int_in_range(in, "fmi2SetInteger", vr[i]))
            return fmi2Error;
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2SetInteger: value reference %u is a mode "
                "chart's mode, which the model computes: it cannot be set", vr[i]);
        return fmi2Error;
    }
    return fmi2OK;
}

fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                         const fmi2String value[])
{
    return none_of(c, "fmi2SetString", "String", FMI_SETTABLE, nvr, vr, value);
}

/* ---- directional derivatives ------------------------------------------------ */

/* The known a value reference names: 1 + state index, or -(1 + parameter
   index), or 0 when it cannot be a known now. */
static int known_of(FmiInstance *in, fmi2ValueReference vr)
{
    const RtModel *m = FMI_MODEL;
    for (int j = 0; j < m->n_states; j++)
        if ((fmi2ValueReference)FMI_INFO->state_vrs[j] == vr)
            return 1 + j;
    if (vr >= (fmi2ValueReference)FMI_INFO->n_reals)
        return 0;
    const LmdlFmiVar *v = &FMI_INFO->reals[vr];
    if (v->kind == LMDL_FMI_INPUT
        || (v->kind == LMDL_FMI_PARAM && in->state == FMI_INIT
            && !rt_param_info(m, v->index).structural))
        return -(1 + v->index);
    return 0;
}

/* Moves every known by h * dv (from the saved x0 and p0). */
static void move_knowns(FmiInstance *in, const int *known, size_t n, const double *dv,
                        double h, const double *x0, const double *p0)
{
    RtSim *s = &in->sim;
    const RtModel *m = s->m;
    memcpy(s->x, x0, (size_t)m->n_states * sizeof *s->x);
    memcpy(s->p, p0, rt_param_slots(m) * sizeof *s->p);
    for (size_t i = 0; i < n; i++) {
        if (known[i] > 0)
            s->x[known[i] - 1] += h * dv[i];
        else
            s->p[-known[i] - 1] += h * dv[i];
    }
    rt_derive(m, s->p, s->overridden);
    fmi_invalidate(in);
}

fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference vUnknown_ref[],
                                        size_t nUnknown, const fmi2ValueReference vKnown_ref[],
                                        size_t nKnown, const fmi2Real dvKnown[],
                                        fmi2Real dvUnknown[])
{
    const char *fn = "fmi2GetDirectionalDerivative";
    FmiInstance *in = fmi_check(c, fn, FMI_FOR_BOTH,
                                FMI_INIT | FMI_EVENT | FMI_CONT | FMI_STEP | FMI_TERMINATED);
    if (!in || !arrays_ok(in, fn, nUnknown, vUnknown_ref, dvUnknown)
        || !arrays_ok(in, fn, nKnown, vKnown_ref, dvKnown))
        return fmi2Error;
    if (!ready_to_read(in))
        return fmi2Error;
    RtSim *s = &in->sim;
    const RtModel *m = s->m;
    int *known = rt_xcalloc(nKnown, sizeof *known);
    const LmdlFmiVar **unk = rt_xcalloc(nUnknown, sizeof *unk);
    fmi2Status st = fmi2OK;
    double scale = 1, dvmax = 0;
    for (size_t i = 0; i < nKnown && st == fmi2OK; i++) {
        known[i] = known_of(in, vKnown_ref[i]);
        if (!known[i] || !isfinite(dvKnown[i])) {
            fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: value reference %u is not a known "
                    "here (a state, an input, or in initialization mode a tunable "
                    "parameter), or its increment is not finite", fn, vKnown_ref[i]);
            st = fmi2Error;
            break;
        }
        double v = known[i] > 0 ? s->x[known[i] - 1] : s->p[-known[i] - 1];
        scale = fmax(scale, fabs(v));
        dvmax = fmax(dvmax, fabs(dvKnown[i]));
    }
    for (size_t i = 0; i < nUnknown && st == fmi2OK; i++) {
        unk[i] = fmi_real_var(in, fn, vUnknown_ref[i]);
        if (!unk[i])
            st = fmi2Error;
    }
    if (st != fmi2OK || nUnknown == 0) {
        free(known);
        free(unk);
        return st;
    }
    if (dvmax == 0) {
        for (size_t i = 0; i < nUnknown; i++)
            dvUnknown[i] = 0;
        free(known);
        free(unk);
        return fmi2OK;
    }
    size_t ns = (size_t)m->n_states, na = (size_t)m->n_alg;
    double *x0 = rt_xcalloc(ns, sizeof *x0), *p0 = rt_xcalloc(rt_param_slots(m) + 1, sizeof *p0);
    double *a0 = rt_xcalloc(na, sizeof *a0), *plus = rt_xcalloc(nUnknown, sizeof *plus);
    memcpy(x0, s->x, ns * sizeof *x0);
    memcpy(p0, s->p, rt_param_slots(m) * sizeof *p0);
    memcpy(a0, s->alg, na * sizeof *a0);
    /* central differences, a step of cbrt(eps) of the knowns' size */
    double h = cbrt(DBL_EPSILON) * scale / dvmax;
    int failed = 0;
    for (int side = 0; side < 2 && !failed; side++) {
        move_knowns(in, known, nKnown, dvKnown, side ? -h : h, x0, p0);
        memcpy(s->alg, a0, na * sizeof *a0);
        for (size_t i = 0; i < nUnknown && !failed; i++) {
            double v = 0;
            failed = real_value(in, unk[i], &v) != 0;
            if (side == 0)
                plus[i] = v;
            else
                dvUnknown[i] = (plus[i] - v) / (2 * h);
        }
    }
    /* back to the point itself */
    memcpy(s->x, x0, ns * sizeof *x0);
    memcpy(s->p, p0, rt_param_slots(m) * sizeof *p0);
    memcpy(s->alg, a0, na * sizeof *a0);
    fmi_invalidate(in);
    if (failed)
        st = eval_failed(in);
    free(x0);
    free(p0);
    free(a0);
    free(plus);
    free(known);
    free(unk);
    return st;
}
