/*
 * fmi_instance.c - an FMU instance's life: fmi2Instantiate to
 * fmi2FreeInstance, the checks every function starts with, logging, and
 * initialization through the runtime (rt_init.c).
 *
 * The registry.  fmi2Component is a pointer the importer hands back; an
 * importer that calls a function after fmi2FreeInstance, twice in a row,
 * or with a pointer that never was an instance must get fmi2Error, not a
 * crash.  So every live instance is listed in a registry (a mutex guards
 * it: instances may live in different threads), and a pointer is used
 * only after it is found there.  The last instances freed are kept as
 * tombstones (their pointer value, logger and name; nothing of theirs is
 * touched), so that a call on one of them can still say what went wrong
 * through the importer's logger.
 *
 * Messages.  The runtime writes its reports and warnings (rt_report.c)
 * to RtSim.msgs, which here is a memory stream; fmi_flush_msgs hands them
 * to the logger line by line, errors as errors, the rest as warnings.  An
 * illegal call (a function in a state the standard does not allow, a
 * NULL pointer, an out-of-range value reference) returns fmi2Error with
 * a message and changes nothing, so the instance stays where it was; a
 * failed computation (an evaluation, the initialization, a step) moves
 * it to the error state.  Errors are logged whether logging is on or not
 * (the importer cannot act on fmi2Error without knowing why); warnings
 * and events only when logging is on and their category enabled.
 *
 * The GSL error handler is switched off in fmi2Instantiate, since the
 * runtime checks every GSL status itself: that is process-wide state of
 * libgsl, shared with anything else in the process that uses GSL
 * (docs/fmi.md).
 */
#include "fmi_internal.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

/* ---- the registry ------------------------------------------------------- */

enum { FMI_TOMBS = 16 };

/* A freed instance: enough to log a call on it, nothing to follow. */
typedef struct Tomb {
    const void *ptr;            /* the freed fmi2Component */
    fmi2CallbackLogger logger;  /* its logger */
    fmi2ComponentEnvironment env; /* its environment */
    char name[64];              /* its instance name, cut */
} Tomb;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static FmiInstance **live;      /* the live instances */
static size_t n_live, cap_live; /* used and allocated entries */
static Tomb tombs[FMI_TOMBS];   /* the last ones freed, a ring */
static unsigned n_tombs;        /* tombstones written so far */

static void registry_add(FmiInstance *in)
{
    pthread_mutex_lock(&registry_lock);
    if (n_live == cap_live) {
        cap_live = cap_live ? 2 * cap_live : 8;
        FmiInstance **grown = rt_xcalloc(cap_live, sizeof *live);
        if (n_live)
            memcpy(grown, live, n_live * sizeof *live);
        free(live);
        live = grown;
    }
    live[n_live++] = in;
    /* a new instance at a freed one's address is no longer dead */
    for (unsigned i = 0; i < FMI_TOMBS; i++)
        if (tombs[i].ptr == in)
            tombs[i].ptr = NULL;
    pthread_mutex_unlock(&registry_lock);
}

static void registry_remove(FmiInstance *in)
{
    pthread_mutex_lock(&registry_lock);
    for (size_t i = 0; i < n_live; i++) {
        if (live[i] == in) {
            live[i] = live[--n_live];
            break;
        }
    }
    Tomb *t = &tombs[n_tombs++ % FMI_TOMBS];
    t->ptr = in;
    t->logger = in->logger;
    t->env = in->env;
    snprintf(t->name, sizeof t->name, "%s", in->name);
    if (n_live == 0) {
        free(live);
        live = NULL;
        cap_live = 0;
    }
    pthread_mutex_unlock(&registry_lock);
}

/* 1: c is a live instance; 0: it is not (*tomb filled if it was freed). */
static int registry_find(const void *c, Tomb *tomb)
{
    int found = 0;
    pthread_mutex_lock(&registry_lock);
    for (size_t i = 0; i < n_live && !found; i++)
        found = live[i] == c;
    for (unsigned i = 0; i < FMI_TOMBS && !found && c; i++)
        if (tombs[i].ptr == c)
            *tomb = tombs[i];
    pthread_mutex_unlock(&registry_lock);
    return found;
}

/* ---- logging ------------------------------------------------------------- */

#define X_FMI_LOG_NAME(id, name, what) name,
static const char *const log_names[] = {LMDL_FMI_LOG_CATEGORIES(X_FMI_LOG_NAME)};

#define X_FMI_STATE_NAME(s, bit, name) {s, name},
static const struct {
    FmiState state;
    const char *name;
} state_names[] = {FMI_STATES(X_FMI_STATE_NAME)};

static const char *state_name(FmiState s)
{
    for (size_t i = 0; i < sizeof state_names / sizeof state_names[0]; i++)
        if (state_names[i].state == s)
            return state_names[i].name;
    return "?";
}

/* The logger's message is a printf format (FMI 2.0, 2.1.5): a '%' of the
   text is doubled, so that it reaches the reader as written. */
static void emit(fmi2CallbackLogger logger, fmi2ComponentEnvironment env,
                 const char *name, fmi2Status status, int category, const char *text)
{
    size_t n = strlen(text), pct = 0;
    for (size_t i = 0; i < n; i++)
        pct += text[i] == '%';
    char *msg = rt_xcalloc(n + pct + 1, 1);
    for (size_t i = 0, j = 0; i < n; i++) {
        msg[j++] = text[i];
        if (text[i] == '%')
            msg[j++] = '%';
    }
    logger(env, name, status, log_names[category], msg);
    free(msg);
}

static void vlog(FmiInstance *in, fmi2Status status, int category, const char *fmt,
                 va_list ap)
{
    if (!in->logger)
        return;
    int important = status == fmi2Error || status == fmi2Fatal;
    if (!important && !in->log_on[category])
        return;
    char small[512];
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(small, sizeof small, fmt, aq);
    va_end(aq);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        emit(in->logger, in->env, in->name, status, category, small);
        return;
    }
    char *big = rt_xcalloc((size_t)n + 1, 1);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    emit(in->logger, in->env, in->name, status, category, big);
    free(big);
}

void fmi_log(FmiInstance *in, fmi2Status status, int category, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(in, status, category, fmt, ap);
    va_end(ap);
}

static void msgs_open(FmiInstance *in)
{
    in->msg_text = NULL;
    in->msg_len = 0;
    in->sim.msgs = open_memstream(&in->msg_text, &in->msg_len);
}

static void msgs_close(FmiInstance *in)
{
    if (in->sim.msgs)
        fclose(in->sim.msgs);
    free(in->msg_text);
    in->sim.msgs = NULL;
    in->msg_text = NULL;
    in->msg_len = 0;
}

void fmi_flush_msgs(FmiInstance *in, fmi2Status status)
{
    if (!in->sim.msgs || fflush(in->sim.msgs) != 0 || in->msg_len == 0)
        return;
    for (char *line = in->msg_text; line && *line;) {
        char *end = strchr(line, '\n');
        if (end)
            *end = 0;
        if (*line) {
            int err = strstr(line, ": error: ") != NULL;
            fmi_log(in, err ? status : fmi2Warning, err ? FMI_LOG_ERROR : FMI_LOG_WARNING,
                    "%s", line);
        }
        line = end ? end + 1 : NULL;
    }
    /* a fresh stream: the text is logged */
    msgs_close(in);
    msgs_open(in);
}

fmi2Status fmi_fail(FmiInstance *in, fmi2Status status, FmiState state)
{
    rt_report_failure(&in->sim);
    fmi_flush_msgs(in, status);
    in->sim.fail.kind = RT_FAILKIND_NONE;
    in->state = state;
    return status;
}

void fmi_log_event(void *ctx, double t, const char *instance, const char *condition,
                   const char *value, const char *location)
{
    FmiInstance *in = ctx;
    fmi_log(in, fmi2OK, FMI_LOG_EVENTS, "event at t = %.17g: %s: '%s' became %s (%s)", t,
            instance && *instance ? instance : FMI_MODEL->name, condition, value,
            location ? location : "");
}

void fmi_log_mode_changes(FmiInstance *in, const int *old)
{
    const RtModel *m = FMI_MODEL;
    for (int i = 0; i < m->n_relations; i++) {
        const RtRelationInfo *r = &m->relations[i];
        int g = r->guard;
        /* as in the simulator's log: a relation whose guard was off, and
           one of assertions only, change silently */
        int quiet = (g >= 0 && g < m->n_relations && old[g] != r->guard_value)
                    || r->assert_only;
        if (in->sim.modes[i] != old[i] && !quiet)
            rt_csv_event(&in->sim, in->sim.t, i, in->sim.modes[i]);
    }
}

/* ---- the check every function starts with -------------------------------- */

FmiInstance *fmi_check(fmi2Component c, const char *fn, int iface, int allowed)
{
    Tomb tomb = {0};
    if (!registry_find(c, &tomb)) {
        if (tomb.ptr && tomb.logger) {
            char msg[160];
            snprintf(msg, sizeof msg, "%s: this instance was freed by fmi2FreeInstance; "
                     "it cannot be used any more", fn);
            emit(tomb.logger, tomb.env, tomb.name, fmi2Error, FMI_LOG_ERROR, msg);
        }
        return NULL;
    }
    FmiInstance *in = c;
    if (!(iface & (in->type == fmi2ModelExchange ? FMI_FOR_ME : FMI_FOR_CS))) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: a %s function, but this instance was "
                "made for %s", fn, iface == FMI_FOR_ME ? "Model Exchange" : "Co-Simulation",
                in->type == fmi2ModelExchange ? "Model Exchange" : "Co-Simulation");
        return NULL;
    }
    if (!(in->state & allowed)) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: not allowed in %s (the FMI 2.0 "
                "calling sequence)", fn, state_name(in->state));
        return NULL;
    }
    return in;
}

/* ---- evaluation and initialization --------------------------------------- */

void fmi_invalidate(FmiInstance *in)
{
    in->evaluated = 0;
    in->cols_valid = 0;
}

int fmi_evaluate(FmiInstance *in, int columns)
{
    RtSim *s = &in->sim;
    if (!in->evaluated) {
        if (rt_eval_checked(s, s->t, s->x, s->dx, s->alg, s->modes, &s->fail) != 0)
            return -1;
        in->evaluated = 1;
        in->cols_valid = 0;
    }
    if (columns && !in->cols_valid && s->m->n_columns > 0) {
        RtEval e = rt_eval_make(s, s->t, s->x, s->dx, s->alg, s->modes);
        rt_columns(s->m, &e, s->cols);
        in->cols_valid = 1;
    }
    return 0;
}

int fmi_relation_inert(const FmiInstance *in, int i)
{
    const RtRelationInfo *r = &FMI_MODEL->relations[i];
    return r->guard >= 0 && r->guard < FMI_MODEL->n_relations
           && in->sim.modes[r->guard] != r->guard_value;
}

int fmi_initialize(FmiInstance *in)
{
    if (in->initialized)
        return 0;
    RtSim *s = &in->sim;
    fmi_invalidate(in);
    s->t = in->t_start;
    s->fail.kind = RT_FAILKIND_NONE;
    /* rt_init ends with the initial event (event variables, mode
       charts); then the delays' histories start (u(0), their first
       sample) */
    if (rt_check_param_asserts(s) != 0 || rt_init(s) != 0 || rt_delays_start(s) != 0) {
        fmi_fail(in, fmi2Error, FMI_ERROR);
        return -1;
    }
    fmi_flush_msgs(in, fmi2Error);  /* warnings: unmet targets */
    rt_accept_alg(s);
    in->initialized = 1;
    in->evaluated = 1;      /* rt_init ends on an evaluation at the state */
    return 0;
}

/* ---- the life cycle ------------------------------------------------------- */

const char *fmi2GetTypesPlatform(void)
{
    return fmi2TypesPlatform;
}

const char *fmi2GetVersion(void)
{
    return fmi2Version;
}

/* The solver settings before fmi2SetupExperiment: the simulator's. */
static void default_experiment(FmiInstance *in)
{
    in->tol_defined = 0;
    in->tol = 1e-6;
    in->t_start = 0;
    in->stop_defined = 0;
    in->t_stop = 0;
}

/* Back to what fmi2Instantiate made: default parameters, no run. */
static void reset_run(FmiInstance *in)
{
    RtSim *s = &in->sim;
    const RtModel *m = s->m;
    rt_integrate_teardown(s);
    for (int i = 0; i < m->n_params; i++) {
        s->p[i] = rt_param_info(m, i).value;
        s->overridden[i] = 0;
    }
    rt_derive(m, s->p, s->overridden);
    s->t = 0;
    s->h = 0;
    s->n_events = 0;
    s->fail.kind = RT_FAILKIND_NONE;
    s->pending.kind = RT_FAILKIND_NONE;
    if (m->n_relations > 0)
        memset(s->modes, 0, sizeof *s->modes * (size_t)m->n_relations);
    rt_events_reset(s);
    default_experiment(in);
    in->initialized = 0;
    in->solver_ready = 0;
    in->resync = 0;
    in->terminate = 0;
    in->last_good = 0;
    fmi_invalidate(in);
    in->state = FMI_INSTANTIATED;
}

/* A message for a refused fmi2Instantiate, through the given logger. */
static void refuse(const fmi2CallbackFunctions *f, fmi2String name, const char *fmt, ...)
    RT_PRINTF(3, 4);
static void refuse(const fmi2CallbackFunctions *f, fmi2String name, const char *fmt, ...)
{
    if (!f->logger)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    emit(f->logger, f->componentEnvironment, name ? name : "?", fmi2Error, FMI_LOG_ERROR,
         msg);
}

fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID,
                              fmi2String fmuResourceLocation,
                              const fmi2CallbackFunctions *functions, fmi2Boolean visible,
                              fmi2Boolean loggingOn)
{
    (void)fmuResourceLocation;  /* the FMU needs no resources */
    (void)visible;              /* and has no window */
    if (!functions)
        return NULL;
    if (!instanceName || !*instanceName) {
        refuse(functions, instanceName, "fmi2Instantiate: the instance name is empty");
        return NULL;
    }
    if (fmuType != fmi2ModelExchange && fmuType != fmi2CoSimulation) {
        refuse(functions, instanceName, "fmi2Instantiate: unknown FMU type %d", (int)fmuType);
        return NULL;
    }
    if (!fmuGUID || strcmp(fmuGUID, FMI_INFO->guid) != 0) {
        refuse(functions, instanceName, "fmi2Instantiate: the GUID '%s' is not this FMU's "
               "('%s'): the modelDescription.xml belongs to another FMU",
               fmuGUID ? fmuGUID : "(null)", FMI_INFO->guid);
        return NULL;
    }
    if (FMI_MODEL->abi != RT_ABI_VERSION || FMI_INFO->abi != LMDL_FMI_ABI) {
        refuse(functions, instanceName, "fmi2Instantiate: the model was generated for "
               "another runtime interface (%d, FMI table %d; this runtime: %d, %d)",
               FMI_MODEL->abi, FMI_INFO->abi, RT_ABI_VERSION, LMDL_FMI_ABI);
        return NULL;
    }
    gsl_set_error_handler_off();
    FmiInstance *in = rt_xcalloc(1, sizeof *in);
    in->name = rt_xcalloc(strlen(instanceName) + 1, 1);
    strcpy(in->name, instanceName);
    in->type = fmuType;
    in->logger = functions->logger;
    in->env = functions->componentEnvironment;
    for (int i = 0; i < FMI_LOG_COUNT; i++)
        in->log_on[i] = loggingOn != fmi2False;
    RtSim *s = &in->sim;
    rt_sim_alloc(s, FMI_MODEL);
    s->prog = in->name;
    s->opt.solver = "msbdf";
    s->opt.stepper = gsl_odeiv2_step_msbdf;
    s->opt.rtol = 1e-6;
    s->opt.atol = 1e-9;
    s->on_event = fmi_log_event;
    s->on_event_ctx = in;
    msgs_open(in);
    size_t np = (size_t)(FMI_MODEL->n_params > 0 ? FMI_MODEL->n_params : 0);
    in->p_keep = rt_xcalloc(rt_param_slots(FMI_MODEL) + 1, sizeof *in->p_keep);
    in->ov_keep = rt_xcalloc(np, sizeof *in->ov_keep);
    reset_run(in);
    registry_add(in);
    return in;
}

void fmi2FreeInstance(fmi2Component c)
{
    FmiInstance *in = fmi_check(c, "fmi2FreeInstance", FMI_FOR_BOTH, FMI_ANY_LIVE | FMI_FATAL);
    if (!in)
        return;
    registry_remove(in);
    fmi_snapshots_free(in);
    msgs_close(in);
    rt_sim_free(&in->sim);
    free(in->p_keep);
    free(in->ov_keep);
    free(in->name);
    free(in);
}

fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean loggingOn, size_t nCategories,
                               const fmi2String categories[])
{
    FmiInstance *in = fmi_check(c, "fmi2SetDebugLogging", FMI_FOR_BOTH, FMI_ANY_LIVE);
    if (!in)
        return fmi2Error;
    if (nCategories > 0 && !categories) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2SetDebugLogging: %zu categories, but "
                "no array of them", nCategories);
        return fmi2Error;
    }
    unsigned char named[FMI_LOG_COUNT] = {0};
    for (size_t i = 0; i < nCategories; i++) {
        int k = -1;
        for (int j = 0; j < FMI_LOG_COUNT && categories[i]; j++)
            if (!strcmp(categories[i], log_names[j]))
                k = j;
        if (k < 0) {
            fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2SetDebugLogging: unknown category "
                    "'%s'; the categories are logEvents, logStatusWarning, logStatusError "
                    "and logStatusFatal", categories[i] ? categories[i] : "(null)");
            return fmi2Error;
        }
        named[k] = 1;
    }
    /* no categories: all of them */
    for (int j = 0; j < FMI_LOG_COUNT; j++)
        if (nCategories == 0 || named[j])
            in->log_on[j] = loggingOn != fmi2False;
    return fmi2OK;
}

fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean toleranceDefined,
                               fmi2Real tolerance, fmi2Real startTime,
                               fmi2Boolean stopTimeDefined, fmi2Real stopTime)
{
    FmiInstance *in = fmi_check(c, "fmi2SetupExperiment", FMI_FOR_BOTH, FMI_INSTANTIATED);
    if (!in)
        return fmi2Error;
    if (toleranceDefined && !(tolerance > 0 && tolerance < 1)) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2SetupExperiment: the tolerance must lie "
                "between 0 and 1 (exclusive), not %g", tolerance);
        return fmi2Error;
    }
    if (!isfinite(startTime) || (stopTimeDefined && !(isfinite(stopTime)
                                                      && stopTime >= startTime))) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2SetupExperiment: the start time (%g) "
                "must be finite and the stop time (%g) finite and not before it", startTime,
                stopTime);
        return fmi2Error;
    }
    in->tol_defined = toleranceDefined != fmi2False;
    in->tol = in->tol_defined ? tolerance : 1e-6;
    in->t_start = startTime;
    in->stop_defined = stopTimeDefined != fmi2False;
    in->t_stop = in->stop_defined ? stopTime : 0;
    return fmi2OK;
}

fmi2Status fmi2EnterInitializationMode(fmi2Component c)
{
    FmiInstance *in = fmi_check(c, "fmi2EnterInitializationMode", FMI_FOR_BOTH,
                                FMI_INSTANTIATED);
    if (!in)
        return fmi2Error;
    RtOptions *o = &in->sim.opt;
    /* As the simulator's defaults: rtol 1e-6 with atol 1e-9 per unit of
       nominal; a tolerance given is the rtol, with atol 1e-3 of it.  With
       a stop time, the time tolerances and the first step follow it as
       they do for --stop-time (and the default 500 output steps). */
    o->rtol = in->tol;
    o->atol = 1e-3 * in->tol;
    double span = in->stop_defined ? in->t_stop - in->t_start : 0;
    o->stop_time = in->stop_defined ? in->t_stop : 0;
    o->output_step = span > 0 ? span / 500 : 1e-3;
    in->sim.t = in->t_start;
    in->initialized = 0;
    fmi_invalidate(in);
    in->state = FMI_INIT;
    return fmi2OK;
}

fmi2Status fmi2ExitInitializationMode(fmi2Component c)
{
    FmiInstance *in = fmi_check(c, "fmi2ExitInitializationMode", FMI_FOR_BOTH, FMI_INIT);
    if (!in)
        return fmi2Error;
    if (fmi_initialize(in) != 0)
        return fmi2Error;
    if (in->type == fmi2CoSimulation) {
        rt_integrate_teardown(&in->sim);    /* after fmi2SetFMUstate, say */
        if (rt_integrate_setup(&in->sim) != 0) {
            fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2ExitInitializationMode: cannot set "
                    "up the %s solver", in->sim.opt.solver);
            in->state = FMI_ERROR;
            return fmi2Error;
        }
        in->solver_ready = 1;
        in->last_good = in->sim.t;
        in->state = FMI_STEP;
    } else {
        in->state = FMI_EVENT;
    }
    return fmi2OK;
}

fmi2Status fmi2Terminate(fmi2Component c)
{
    FmiInstance *in = fmi_check(c, "fmi2Terminate", FMI_FOR_BOTH,
                                FMI_EVENT | FMI_CONT | FMI_STEP | FMI_STEP_FAILED);
    if (!in)
        return fmi2Error;
    in->state = FMI_TERMINATED;
    return fmi2OK;
}

fmi2Status fmi2Reset(fmi2Component c)
{
    FmiInstance *in = fmi_check(c, "fmi2Reset", FMI_FOR_BOTH, FMI_ANY_LIVE);
    if (!in)
        return fmi2Error;
    reset_run(in);
    return fmi2OK;
}
