/*
 * fmu_vars.h - an FMU's variables, made from the plan (fmu_vars.c), for
 * modelDescription.xml (fmu_xml.c) and the value-reference table the
 * shared object reads (fmu.c, runtime/lmdl_fmi.h).
 *
 * Order of the ScalarVariables (their 1-based index is what ModelStructure
 * refers to): every column, named as in the CSV header; the states
 * that have no column (a derivative chosen as a state, der(x)); the
 * derivatives that have none (der(NAME) of a state); then every run-time
 * parameter and top-level input, in the parameter table's order.  Real
 * value references count up in that order (columns of one value share
 * one), Boolean ones (true/false parameters) and Integer ones (mode
 * charts' modes) separately.
 */
#ifndef LMDL_FMU_VARS_H
#define LMDL_FMU_VARS_H

#include "plan.h"

/* The FMI 2.0 causalities and variabilities this FMU uses:
   X(id, the attribute's value). */
#define FMU_CAUSALITIES(X)                                                 \
    X(FMU_PARAMETER, "parameter")  /* a run-time parameter */             \
    X(FMU_INPUT, "input")          /* a top-level input */                \
    X(FMU_OUTPUT, "output")        /* a top-level output */               \
    X(FMU_LOCAL, "local")          /* every other variable */

#define FMU_VARIABILITIES(X)                                               \
    X(FMU_FIXED, "fixed")          /* a structural parameter */           \
    X(FMU_TUNABLE, "tunable")      /* a run-time parameter */             \
    X(FMU_DISCRETE, "discrete")    /* a true/false top-level input */     \
    X(FMU_CONTINUOUS, "continuous") /* inputs and computed variables */

#define X_FMU_ENUM(id, text) id,
typedef enum FmuCausality { FMU_CAUSALITIES(X_FMU_ENUM) } FmuCausality;
typedef enum FmuVariability { FMU_VARIABILITIES(X_FMU_ENUM) } FmuVariability;
extern const char *const fmu_causality_names[];
extern const char *const fmu_variability_names[];

typedef struct FmuVar {
    char *name;             /* the CSV header's name, or der(...) */
    const char *description; /* the declaration's comment, or NULL */
    bool boolean;           /* Boolean (else Real, or Integer) */
    bool integer;           /* Integer: a mode chart's mode (1-based) */
    unsigned vr;            /* value reference, per type */
    FmuCausality causality;
    FmuVariability variability;
    bool has_start;         /* parameters and inputs: their default */
    double start;           /* SI */
    Dim dim;                /* for the unit */
    int derivative_of;      /* 1-based index of the state it is the
                               derivative of, or 0 */
    int kind;               /* LMDL_FMI_* (Real variables) */
    int index;              /* column, state, or parameter, by kind */
    int *deps;              /* outputs and derivatives: the 1-based
                               indices of the states and inputs it depends
                               on, ascending */
    int ndeps;              /* entries in deps */
    int *init_deps;         /* with FmuModel.init_deps, outputs, states and
                               derivatives: the 1-based indices of the
                               parameters and inputs their values at
                               initialization depend on, ascending */
    int ninit_deps;         /* entries in init_deps */
} FmuVar;

typedef struct FmuModel {
    const char *name;       /* the model */
    char ident[160];        /* modelIdentifier */
    char guid[40];          /* "{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}" */
    FmuVar *vars;           /* ScalarVariables, in order */
    int nvars;              /* entries in vars */
    int nreals, nbools, nints; /* value references of each type */
    int nstates;            /* continuous states */
    int *state_var;         /* per state: its variable (0-based) */
    int *der_var;           /* per state: its derivative's variable */
    int nrels;              /* event indicators */
    bool init_deps;         /* the initial unknowns' dependencies are known
                               (FmuVar.init_deps); else on every known */
} FmuModel;

/* The variables of the plan's model, with their dependencies. */
FmuModel *fmu_model_make(const Plan *p, const char *model, const char *c_text);
void fmu_model_free(FmuModel *fm);

/* The modelIdentifier for a model name (a C identifier; docs/fmi.md). */
void fmu_identifier(const char *model, char *out, size_t len);

#endif
