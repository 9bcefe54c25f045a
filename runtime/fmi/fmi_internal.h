/*
 * fmi_internal.h - what the files of the FMI layer share: the instance
 * (fmi2Component), the states of the standard's state machine and the
 * checks every function starts with.
 *
 * One FmiInstance is one fmi2Component.  Everything a run needs is in it
 * (its RtSim, its message stream, its callbacks), so several instances of
 * one FMU in one process are independent.  The only process-wide data is
 * the registry of live instances (fmi_instance.c), which lets every
 * function refuse a pointer that is not, or no longer, an instance
 * instead of following it.
 *
 * Files: fmi_instance.c (registry, logging, life cycle, initialization),
 * fmi_values.c (get and set, parameters, directional derivatives),
 * fmi_me.c (Model Exchange), fmi_cs.c (Co-Simulation), fmi_state.c
 * (FMU states and their serialization).
 */
#ifndef LMDL_FMI_INTERNAL_H
#define LMDL_FMI_INTERNAL_H

#include "lmdl_fmi.h"
#include "lmdl_fmi2.h"
#include "rt_internal.h"

#include <stdarg.h>
#include <stdio.h>

/* The states of FMI 2.0's state machines (sections 3.2.3 and 4.2.4),
   X(state, bit, name for messages).  Model Exchange uses event and
   continuous-time mode, Co-Simulation stepComplete and stepFailed; this
   FMU never runs asynchronously, so stepInProgress and stepCanceled never
   occur. */
#define FMI_STATES(X)                                                      \
    X(FMI_INSTANTIATED, 0x001, "instantiated")                            \
    X(FMI_INIT, 0x002, "initialization mode")                             \
    X(FMI_EVENT, 0x004, "event mode")                                     \
    X(FMI_CONT, 0x008, "continuous-time mode")                            \
    X(FMI_STEP, 0x010, "stepComplete")                                    \
    X(FMI_STEP_FAILED, 0x020, "stepFailed")                               \
    X(FMI_TERMINATED, 0x040, "terminated")                                \
    X(FMI_ERROR, 0x080, "error")                                          \
    X(FMI_FATAL, 0x100, "fatal")

#define X_FMI_STATE_ENUM(s, bit, name) s = bit,
typedef enum FmiState { FMI_STATES(X_FMI_STATE_ENUM) } FmiState;

/* Groups of states, for the checks. */
enum {
    FMI_ANY_LIVE = FMI_INSTANTIATED | FMI_INIT | FMI_EVENT | FMI_CONT | FMI_STEP
                   | FMI_STEP_FAILED | FMI_TERMINATED | FMI_ERROR,
    FMI_READABLE = FMI_INIT | FMI_EVENT | FMI_CONT | FMI_STEP | FMI_STEP_FAILED
                   | FMI_TERMINATED | FMI_ERROR,
};

/* Which interface a function belongs to. */
enum {
    FMI_FOR_ME = 1,
    FMI_FOR_CS = 2,
    FMI_FOR_BOTH = 3,
};

/* Log categories: lmdl_fmi.h's, which modelDescription.xml lists. */
enum {
    FMI_LOG_EVENTS = LMDL_FMI_LOG_EVENTS,
    FMI_LOG_WARNING = LMDL_FMI_LOG_WARNING,
    FMI_LOG_ERROR = LMDL_FMI_LOG_ERROR,
    FMI_LOG_FATAL = LMDL_FMI_LOG_FATAL,
    FMI_LOG_COUNT = LMDL_FMI_LOG_COUNT,
};

typedef struct FmiInstance {
    char *name;                 /* instanceName, copied */
    fmi2Type type;              /* Model Exchange or Co-Simulation */
    fmi2CallbackLogger logger;  /* may be NULL: then nothing is logged */
    fmi2ComponentEnvironment env; /* the importer's pointer for the logger */
    unsigned char log_on[FMI_LOG_COUNT]; /* per category: loggingOn, then
                                           fmi2SetDebugLogging */
    FmiState state;             /* where the state machine is */

    RtSim sim;                  /* the run: parameters, state, modes, solver */
    char *msg_text;             /* what the runtime wrote to sim.msgs */
    size_t msg_len;             /* its length */

    /* fmi2SetupExperiment */
    int tol_defined;            /* a tolerance was given */
    double tol;                 /* its value (the solver's rtol in CS) */
    double t_start;             /* start time */
    int stop_defined;           /* a stop time was given */
    double t_stop;              /* its value */

    int initialized;            /* rt_init ran for the current parameters */
    int evaluated;              /* dx and alg are for the current t, x, p, modes */
    int cols_valid;             /* sim.cols too */
    int solver_ready;           /* CS: rt_integrate_setup done */
    int resync;                 /* CS: a parameter or input changed since the
                                   last step: settle the modes and restart the
                                   solver before the next one */
    int terminate;              /* CS: the model asked to stop (an assert) */
    double last_good;           /* CS: end of the last successful step */
    struct FmiSnapshot *snaps;  /* the FMU states taken and not freed */
    double *p_keep;             /* parameters before a refused fmi2SetReal */
    unsigned char *ov_keep;     /* ... and their overridden flags */
} FmiInstance;

/* The model of this shared object (generated). */
#define FMI_MODEL (&rt_model)
#define FMI_INFO (&lmdl_fmi_model)

/* fmi_instance.c */
/* The instance behind c if it is live, of the interface `iface` and in
   one of the `allowed` states; else logs why (when it can) and returns
   NULL.  fn is the function's name, for the message. */
FmiInstance *fmi_check(fmi2Component c, const char *fn, int iface, int allowed);
/* Logs a message (printf-like) in a category with a status; errors are
   logged whether logging is on or not, the rest only when their category
   is on. */
void fmi_log(FmiInstance *in, fmi2Status status, int category, const char *fmt, ...)
    RT_PRINTF(4, 5);
/* Logs what the runtime wrote to sim.msgs since the last call, line by
   line: lines with "error:" as `status`, the others as warnings. */
void fmi_flush_msgs(FmiInstance *in, fmi2Status status);
/* Logs the run's failure (sim.fail) as an error and moves to `state`;
   returns `status`. */
fmi2Status fmi_fail(FmiInstance *in, fmi2Status status, FmiState state);
/* Initialization (rt_init) for the current parameters, if not done yet:
   0, or -1 after logging the failure. */
int fmi_initialize(FmiInstance *in);
/* The evaluated state: dx, alg (and with columns, sim.cols) for the
   current t, x, p and modes.  0, or -1 with sim.fail set (not logged). */
int fmi_evaluate(FmiInstance *in, int columns);
/* Forget evaluations (after t, x, p or modes changed). */
void fmi_invalidate(FmiInstance *in);
/* Whether the guard of relation i is off: its changes do not matter. */
int fmi_relation_inert(const FmiInstance *in, int i);
/* The event hook (RtSim.on_event): logs one event. */
void fmi_log_event(void *ctx, double t, const char *instance, const char *condition,
                   const char *value, const char *location);

/* Relation changes between modes `old` and the current ones, logged as
   events (a relation whose guard was off changes silently, as in the
   simulator's event log). */
void fmi_log_mode_changes(FmiInstance *in, const int *old);

/* fmi_state.c: frees every FMU state the instance still has. */
void fmi_snapshots_free(FmiInstance *in);

/* fmi_values.c */
/* A value reference as the table gives it, or NULL after logging. */
const LmdlFmiVar *fmi_real_var(FmiInstance *in, const char *fn, fmi2ValueReference vr);

#endif
