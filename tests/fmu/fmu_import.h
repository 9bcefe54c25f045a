/*
 * fmu_import.h - an FMI 2.0 importer for the tests (tests/fmu/), written
 * from the standard alone: it unzips an FMU with libzip, reads its
 * modelDescription.xml with a small XML reader of its own, dlopens
 * binaries/linux64/ID.so and looks up every function of the standard.
 *
 * The FMI types are declared here again, from the standard, rather than
 * taken from the runtime's lmdl_fmi2.h: an importer has its own copy of
 * the interface, and a mismatch between the two is what the tests are
 * for.
 */
#ifndef FMU_IMPORT_H
#define FMU_IMPORT_H

#include <stddef.h>

typedef void *fmi2Component;
typedef void *fmi2ComponentEnvironment;
typedef void *fmi2FMUstate;
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef char fmi2Byte;
typedef const char *fmi2String;

enum { fmi2False = 0, fmi2True = 1 };
typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;
typedef enum {
    fmi2DoStepStatus,
    fmi2PendingStatus,
    fmi2LastSuccessfulTime,
    fmi2Terminated
} fmi2StatusKind;

typedef struct {
    void (*logger)(fmi2ComponentEnvironment, fmi2String, fmi2Status, fmi2String, fmi2String, ...);
    void *(*allocateMemory)(size_t, size_t);
    void (*freeMemory)(void *);
    void (*stepFinished)(fmi2ComponentEnvironment, fmi2Status);
    fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;

typedef struct {
    fmi2Boolean newDiscreteStatesNeeded;
    fmi2Boolean terminateSimulation;
    fmi2Boolean nominalsOfContinuousStatesChanged;
    fmi2Boolean valuesOfContinuousStatesChanged;
    fmi2Boolean nextEventTimeDefined;
    fmi2Real nextEventTime;
} fmi2EventInfo;

/* Every function of FMI 2.0: X(name, return type, parameters). */
#define FMI2_FUNCTIONS(X)                                                                  \
    X(fmi2GetTypesPlatform, const char *, (void))                                         \
    X(fmi2GetVersion, const char *, (void))                                               \
    X(fmi2SetDebugLogging, fmi2Status, (fmi2Component, fmi2Boolean, size_t, const fmi2String[])) \
    X(fmi2Instantiate, fmi2Component, (fmi2String, fmi2Type, fmi2String, fmi2String,     \
                                       const fmi2CallbackFunctions *, fmi2Boolean, fmi2Boolean)) \
    X(fmi2FreeInstance, void, (fmi2Component))                                            \
    X(fmi2SetupExperiment, fmi2Status, (fmi2Component, fmi2Boolean, fmi2Real, fmi2Real,   \
                                        fmi2Boolean, fmi2Real))                           \
    X(fmi2EnterInitializationMode, fmi2Status, (fmi2Component))                           \
    X(fmi2ExitInitializationMode, fmi2Status, (fmi2Component))                            \
    X(fmi2Terminate, fmi2Status, (fmi2Component))                                         \
    X(fmi2Reset, fmi2Status, (fmi2Component))                                             \
    X(fmi2GetReal, fmi2Status, (fmi2Component, const fmi2ValueReference[], size_t, fmi2Real[])) \
    X(fmi2GetInteger, fmi2Status, (fmi2Component, const fmi2ValueReference[], size_t, fmi2Integer[])) \
    X(fmi2GetBoolean, fmi2Status, (fmi2Component, const fmi2ValueReference[], size_t, fmi2Boolean[])) \
    X(fmi2GetString, fmi2Status, (fmi2Component, const fmi2ValueReference[], size_t, fmi2String[])) \
    X(fmi2SetReal, fmi2Status, (fmi2Component, const fmi2ValueReference[], size_t, const fmi2Real[])) \
    X(fmi2SetInteger, fmi2Status, (fmi2Component, const fmi2ValueReference[], size_t,     \
                                   const fmi2Integer[]))                                  \
    X(fmi2SetBoolean, fmi2Status, (fmi2Component, const fmi2ValueReference[], size_t,     \
                                   const fmi2Boolean[]))                                  \
    X(fmi2SetString, fmi2Status, (fmi2Component, const fmi2ValueReference[], size_t,      \
                                  const fmi2String[]))                                    \
    X(fmi2GetFMUstate, fmi2Status, (fmi2Component, fmi2FMUstate *))                       \
    X(fmi2SetFMUstate, fmi2Status, (fmi2Component, fmi2FMUstate))                         \
    X(fmi2FreeFMUstate, fmi2Status, (fmi2Component, fmi2FMUstate *))                      \
    X(fmi2SerializedFMUstateSize, fmi2Status, (fmi2Component, fmi2FMUstate, size_t *))    \
    X(fmi2SerializeFMUstate, fmi2Status, (fmi2Component, fmi2FMUstate, fmi2Byte[], size_t)) \
    X(fmi2DeSerializeFMUstate, fmi2Status, (fmi2Component, const fmi2Byte[], size_t,      \
                                            fmi2FMUstate *))                              \
    X(fmi2GetDirectionalDerivative, fmi2Status, (fmi2Component, const fmi2ValueReference[], \
                                                 size_t, const fmi2ValueReference[], size_t, \
                                                 const fmi2Real[], fmi2Real[]))           \
    X(fmi2EnterEventMode, fmi2Status, (fmi2Component))                                    \
    X(fmi2NewDiscreteStates, fmi2Status, (fmi2Component, fmi2EventInfo *))                \
    X(fmi2EnterContinuousTimeMode, fmi2Status, (fmi2Component))                           \
    X(fmi2CompletedIntegratorStep, fmi2Status, (fmi2Component, fmi2Boolean, fmi2Boolean *, \
                                                fmi2Boolean *))                           \
    X(fmi2SetTime, fmi2Status, (fmi2Component, fmi2Real))                                 \
    X(fmi2SetContinuousStates, fmi2Status, (fmi2Component, const fmi2Real[], size_t))     \
    X(fmi2GetDerivatives, fmi2Status, (fmi2Component, fmi2Real[], size_t))                \
    X(fmi2GetEventIndicators, fmi2Status, (fmi2Component, fmi2Real[], size_t))            \
    X(fmi2GetContinuousStates, fmi2Status, (fmi2Component, fmi2Real[], size_t))           \
    X(fmi2GetNominalsOfContinuousStates, fmi2Status, (fmi2Component, fmi2Real[], size_t)) \
    X(fmi2SetRealInputDerivatives, fmi2Status, (fmi2Component, const fmi2ValueReference[], \
                                                size_t, const fmi2Integer[], const fmi2Real[])) \
    X(fmi2GetRealOutputDerivatives, fmi2Status, (fmi2Component, const fmi2ValueReference[], \
                                                 size_t, const fmi2Integer[], fmi2Real[])) \
    X(fmi2DoStep, fmi2Status, (fmi2Component, fmi2Real, fmi2Real, fmi2Boolean))           \
    X(fmi2CancelStep, fmi2Status, (fmi2Component))                                        \
    X(fmi2GetStatus, fmi2Status, (fmi2Component, const fmi2StatusKind, fmi2Status *))     \
    X(fmi2GetRealStatus, fmi2Status, (fmi2Component, const fmi2StatusKind, fmi2Real *))   \
    X(fmi2GetIntegerStatus, fmi2Status, (fmi2Component, const fmi2StatusKind, fmi2Integer *)) \
    X(fmi2GetBooleanStatus, fmi2Status, (fmi2Component, const fmi2StatusKind, fmi2Boolean *)) \
    X(fmi2GetStringStatus, fmi2Status, (fmi2Component, const fmi2StatusKind, fmi2String *))

#define X_FMI2_FIELD(name, ret, params) ret(*name) params;
typedef struct Fmi2Api {
    FMI2_FUNCTIONS(X_FMI2_FIELD)
} Fmi2Api;

/* A ScalarVariable of modelDescription.xml. */
typedef struct FmuVariable {
    char *name;
    unsigned vr;            /* valueReference */
    char type;              /* 'R' Real, 'B' Boolean, 'I' Integer */
    char causality[24];
    int derivative;         /* Real derivative="": 1-based index, or 0 */
    int has_start;
    double start;
} FmuVariable;

typedef struct Fmu {
    char dir[256];          /* where it is unzipped */
    int keep_dir;           /* dir was given (an unzipped FMU): keep it */
    void *so;               /* dlopen handle */
    Fmi2Api api;            /* every function */
    char guid[64];
    char ident[128];        /* modelIdentifier (ME and CS must agree) */
    char resources[512];    /* file URI of resources/ */
    int nvars;
    FmuVariable *vars;      /* in index order */
    int nstates;            /* <Derivatives> entries */
    int *state_vars;        /* per state: the state's variable (0-based) */
    int *der_vars;          /* per state: its derivative's variable */
    int nindicators;        /* numberOfEventIndicators */
} Fmu;

/* Unzips (unless it is a directory: an FMU unzipped), reads and loads
   `path`; exits with a message on failure. */
void fmu_load(Fmu *f, const char *path);
void fmu_unload(Fmu *f);
/* The variable called name, or -1. */
int fmu_find(const Fmu *f, const char *name);

/* The logger: records every message (see fmu_log_*), and prints it on
   stderr when FMU_TEST_VERBOSE is set. */
void fmu_logger(fmi2ComponentEnvironment env, fmi2String name, fmi2Status status,
                fmi2String category, fmi2String message, ...);
extern const fmi2CallbackFunctions fmu_callbacks;
/* Messages logged so far, and the last one. */
int fmu_log_count(void);
const char *fmu_log_last(void);
/* The n-th message logged (0-based) and its status. */
const char *fmu_log_message(int n, int *status);

#endif
