/*
 * lmdl_fmi.h - what `lmdlc fmu` generates besides the model, for the FMI
 * layer (runtime/fmi/): the FMU's identity and its value references.
 *
 * The generated model C defines `const RtModel rt_model` as for a
 * simulator; the FMU adds `const LmdlFmiModel lmdl_fmi_model`, which
 * gives the GUID of modelDescription.xml (fmi2Instantiate checks it) and
 * what each value reference means.  Both are written from the same plan
 * as modelDescription.xml (tools/fmu_vars.c), so the three agree.
 *
 * Real value references are 0 .. n_reals-1, Boolean ones 0 .. n_bools-1
 * (docs/fmi.md lists the layout); each names one slot of the run.
 */
#ifndef LMDL_FMI_H
#define LMDL_FMI_H

#define LMDL_FMI_ABI 2

/* What a Real value reference reads or sets:
   X(kind, what it is, for messages) */
#define LMDL_FMI_KINDS(X)                                                  \
    X(LMDL_FMI_COLUMN, "a variable")      /* index: the column (its value) */ \
    X(LMDL_FMI_STATE, "a state")          /* index: x[index], no column */ \
    X(LMDL_FMI_DERIVATIVE, "a derivative") /* index: dx[index] */          \
    X(LMDL_FMI_PARAM, "a parameter")      /* index: p[index] */            \
    X(LMDL_FMI_INPUT, "an input")         /* index: p[index], the slot a
                                             top-level input lowers to */

#define X_LMDL_FMI_ENUM(k, what) k,
enum { LMDL_FMI_KINDS(X_LMDL_FMI_ENUM) LMDL_FMI_KIND_COUNT };

/* The log categories of modelDescription.xml and fmi2SetDebugLogging:
   X(id, name, description). */
#define LMDL_FMI_LOG_CATEGORIES(X)                                         \
    X(LMDL_FMI_LOG_EVENTS, "logEvents",                                   \
      "events: the relation that changed, where, and its new value")      \
    X(LMDL_FMI_LOG_WARNING, "logStatusWarning",                           \
      "warnings: initial targets not met")                                \
    X(LMDL_FMI_LOG_ERROR, "logStatusError",                               \
      "errors: illegal calls, failed evaluations, steps and asserts")     \
    X(LMDL_FMI_LOG_FATAL, "logStatusFatal", "fatal errors")

#define X_LMDL_FMI_LOG_ENUM(id, name, what) id,
enum { LMDL_FMI_LOG_CATEGORIES(X_LMDL_FMI_LOG_ENUM) LMDL_FMI_LOG_COUNT };

typedef struct LmdlFmiVar {
    unsigned char kind;     /* LMDL_FMI_* */
    int index;              /* by kind, above */
} LmdlFmiVar;

typedef struct LmdlFmiModel {
    int abi;                        /* LMDL_FMI_ABI */
    const char *guid;               /* modelDescription.xml's guid */
    const char *model_identifier;   /* its modelIdentifier */
    int n_reals;                    /* Real value references */
    const LmdlFmiVar *reals;        /* per Real value reference */
    const int *state_vrs;           /* per state (rt_model.n_states): the Real
                                       value reference of its variable */
    const int *der_vrs;             /* ... and of its derivative's */
    int n_bools;                    /* Boolean value references */
    const int *bools;               /* per Boolean value reference: the
                                       parameter (is_bool) it is */
    int n_ints;                     /* Integer value references ... */
    const LmdlFmiVar *ints;         /* ... each a column holding a whole
                                       number: a mode chart's mode */
} LmdlFmiModel;

/* Defined by the C `lmdlc fmu` generates. */
extern const LmdlFmiModel lmdl_fmi_model;

#endif
