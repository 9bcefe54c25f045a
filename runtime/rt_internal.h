/*
 * rt_internal.h - what the runtime's modules share with each other, and
 * nothing the generated code may rely on.
 *
 * One RtSim holds a whole run: the options, the parameter vector, the
 * current state and its evaluation, the modes, the output files and the
 * first failure.  The modules are a pipeline driven by rt_main.c:
 *
 *   options (rt_main) -> parameters (rt_params) -> initialization
 *   (rt_init) -> integration (rt_integrate, which calls rt_events after
 *   every accepted step) -> rows and the event log (rt_csv)
 *
 * Errors never exit from inside a module.  A module that fails fills
 * sim->fail (RtFailure: what, when, which block or assert) and returns -1;
 * main prints the one report (rt_report) and frees everything, so a
 * failed run still flushes its rows and leaks nothing.
 */
#ifndef LMDL_RT_INTERNAL_H
#define LMDL_RT_INTERNAL_H

#include "rt_model.h"

#include <stddef.h>
#include <stdio.h>
#include <gsl/gsl_odeiv2.h>

#define RT_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* Exit statuses (TOOLS.md). */
enum {
    RT_EXIT_OK = 0,
    RT_EXIT_USAGE = 1,      /* bad command line */
    RT_EXIT_SIM = 3,        /* simulation failure */
};

/* Bounds that keep every loop finite.  Each is far above what a healthy
   model needs, so hitting one means the model is at fault. */
enum {
    RT_MAX_STEPS_PER_OUTPUT = 1000000, /* solver steps between two rows */
    RT_MAX_MODE_ITER_EXTRA = 10,    /* mode fixed point: n_relations + this */
    RT_MAX_LOCATE_ITER = 200,       /* event location, per relation */
    RT_MAX_EVENT_REFINE = 12,       /* re-integrations to bracket an event */
    RT_CHATTER_EVENTS = 100,        /* this many events ... */
    RT_COLLAPSE_STEPS = 100,        /* accepted steps, each with a failed
                                       evaluation (fewer than
                                       RT_COLLAPSE_CLEAN clean ones between
                                       two), ... */
    RT_COLLAPSE_CLEAN = 10,
};
#define RT_COLLAPSE_RATIO 1e-3      /* ... shrinking below this fraction of
                                       the first: the failure is reported */
#define RT_CHATTER_WINDOW 1e-6      /* ... within this fraction of stop time */

/* The options of TOOLS.md, validated. */
typedef struct RtOptions {
    double stop_time;           /* --stop-time, s */
    double output_step;         /* --output-step, s (> 0) */
    double rtol, atol;          /* --rtol, --atol (atol per unit nominal) */
    const char *solver;         /* --solver name, for messages */
    const gsl_odeiv2_step_type *stepper; /* the gsl_odeiv2 stepper */
    const char *out_path;       /* -o FILE; NULL writes stdout */
    const char *events_path;    /* --events FILE; NULL keeps no log */
    int quiet;                  /* --quiet: no progress bar, no warnings */
    int *vars;                  /* --vars as column indices, in order */
    int n_vars;                 /* their count; all columns without --vars */
} RtOptions;

/* What went wrong, kept until main reports it (rt_report.c). */
typedef enum RtFailKind {
    RT_FAILKIND_NONE,
    RT_FAILKIND_EVAL,       /* eval failed: code = RT_FAIL_*, index = block */
    RT_FAILKIND_NONFINITE,  /* eval gave NaN/Inf: name, is_der */
    RT_FAILKIND_ASSERT,     /* index = the failing assert */
    RT_FAILKIND_SOLVER,     /* gsl_odeiv2 gave up: code = GSL status, h */
    RT_FAILKIND_STEPS,      /* more than RT_MAX_STEPS_PER_OUTPUT steps */
    RT_FAILKIND_CHATTER,    /* too many events: index = last relation */
    RT_FAILKIND_MODES,      /* modes never settle: index = a relation */
    RT_FAILKIND_IO,         /* writing a file failed: name = the file */
    RT_FAILKIND_TABLE,      /* a table with extrapolation = error queried
                               outside its grid: index = the table, axis,
                               query */
    RT_FAILKIND_GRID,       /* a grid that is not strictly monotonic after
                               --param (before the start): index = the
                               table, axis, count = the element */
} RtFailKind;

typedef struct RtFailure {
    RtFailKind kind;        /* NONE while all is well */
    double t;               /* simulation time of the failure */
    int code;               /* EVAL: RT_FAIL_*; SOLVER: GSL status */
    int index;              /* block, assert or relation, by kind; -1 */
    const char *name;       /* NONFINITE: column or state; IO: file */
    int is_der;             /* NONFINITE: name is a state's derivative */
    int during_init;        /* happened while initializing */
    int before_start;       /* ASSERT: a parameter-only assert, checked
                               before initialization */
    double h;               /* SOLVER: last step size tried; EVAL with
                               collapsed: the last accepted step */
    int collapsed;          /* EVAL: the step size collapsed on it */
    long count;             /* CHATTER: events in the window; GRID: the
                               0-based element that breaks the order */
    int axis;               /* TABLE, GRID: the table's axis (0 or 1) */
    double query;           /* TABLE: the query outside the grid */
} RtFailure;

typedef struct RtBlockWork RtBlockWork;   /* rt_newton.c */
typedef struct RtProgress RtProgress;     /* rt_progress.c */

typedef struct RtSim {
    const RtModel *m;           /* the model (&rt_model, or a test's) */
    RtOptions opt;              /* validated options */
    const char *prog;           /* program name for messages */

    double *p;                  /* parameters, SI, after overrides */
    unsigned char *overridden;  /* p[i] came from --param */

    double t;                   /* time of the current state */
    double *x;                  /* current state, n_states */
    double *dx;                 /* its derivative from the last eval */
    double *alg;                /* algebraic values (and Newton guesses) */
    double *alg_good;           /* alg at the last accepted state */
    double *x_start;            /* declared start values */
    double *nominal;            /* nominal magnitudes of the states (> 0) */
    int *modes;                 /* frozen relation values */
    int *truth;                 /* scratch: relation values */
    double *g;                  /* scratch: zero-crossing values */
    double *cols;               /* scratch: every column value */

    /* Scratch, n_states each: xt/dxt for event probes, x0/dx0 for the
       start of a step, xj/fj/f0j for the finite-difference Jacobian. */
    double *xt, *dxt, *x0, *dx0, *xj, *fj, *f0j;
    double *alg_jac;            /* guesses for Jacobian evaluations */

    RtBlockWork *blocks;        /* Newton solvers, one per block */
    RtProgress *progress;       /* progress bar state */

    gsl_odeiv2_system sys;      /* the ODE as GSL sees it */
    gsl_odeiv2_driver *drv;     /* stepper, control and evolve objects */
    double h;                   /* the solver's suggested next step */

    FILE *out;                  /* results CSV */
    FILE *events;               /* event log, or NULL */

    double *event_times;        /* ring of the last RT_CHATTER_EVENTS */
    long n_events;              /* events so far */

    RtFailure fail;             /* the first failure of the run */
    int table_tolerant;         /* while modes settle: a query outside a
                                   table's grid (extrapolation = error) is
                                   kept in table_pending, not yet a failure,
                                   since the segment it was read in may be
                                   the modes' old guess */
    RtFailure table_pending;    /* that query, from the latest evaluation */
    RtFailure pending;          /* a failure inside a solver trial step */
    int last_eval_failed;       /* the solver's latest evaluation failed */
    long collapse_steps;        /* accepted steps in a row with a failed
                                   evaluation inside */
    double collapse_h0;         /* the first of them */
    int collapse_clean;         /* clean steps since the last of them */
} RtSim;

/* rt_report.c: every message the simulator prints. */
void rt_warn(const RtSim *s, const char *fmt, ...) RT_PRINTF(2, 3);
void rt_usage_error(const char *prog, const char *fmt, ...) RT_PRINTF(2, 3);
void rt_warn_targets(const RtSim *s, const char *lead, const int *targets,
                     int n, const char *tail);
void rt_report_failure(const RtSim *s);
void rt_fail_eval(RtFailure *f, double t, int code, int block);
void rt_fail_simple(RtFailure *f, RtFailKind kind, double t, int index);

/* rt_names.c: names to indices without linear searches. */
typedef struct RtNameIndex RtNameIndex;
RtNameIndex *rt_names_new(const char *const *names, int n);
int rt_names_find(const RtNameIndex *ix, const char *name, size_t len);
void rt_names_free(RtNameIndex *ix);
const char *rt_names_suggest(const char *const *names, int n,
                             const char *name, size_t len);

/* rt_params.c: --param PATH=VALUE. Returns 0, or -1 after a message. */
int rt_params_apply(RtSim *s, char **specs, int n_specs);

/* rt_csv.c: the results file and the event log. */
void rt_csv_field(FILE *fp, const char *text);
int rt_csv_header(RtSim *s);
int rt_csv_row(RtSim *s, double t, const double *x, const double *dx,
               const double *alg);
int rt_csv_events_header(RtSim *s);
int rt_csv_event(RtSim *s, double t, int relation, int value);

/* rt_eval.c: evaluation with every check. */
RtEval rt_eval_make(RtSim *s, double t, const double *x, double *dx,
                    double *alg, const int *modes);
int rt_eval_checked(RtSim *s, double t, const double *x, double *dx,
                    double *alg, const int *modes, RtFailure *f);
void rt_accept_alg(RtSim *s);
int rt_check_asserts(RtSim *s);
int rt_check_param_asserts(RtSim *s);
/* The tables' grids strictly monotonic, once the parameters are final. */
int rt_check_grids(RtSim *s);

/* rt_init.c: consistent initial state, modes and targets. */
int rt_init(RtSim *s);

/* rt_events.c: modes, crossings, event location and handling. */
int rt_modes_settle(RtSim *s, double t, const double *x, int during_init);
int rt_events_after_step(RtSim *s, double t0, const double *x0,
                         const double *dx0);

/* rt_integrate.c: the run after initialization. */
int rt_integrate_setup(RtSim *s);
void rt_integrate_teardown(RtSim *s);
int rt_run(RtSim *s);
int rt_reintegrate(RtSim *s, double t0, const double *x0, double t1,
                   double *x);
void rt_solver_reset(RtSim *s);
double rt_output_time(const RtOptions *o, long k, long *n_rows);

/* rt_newton.c: per-block solver workspaces behind RtEval.rt. */
RtBlockWork *rt_blockwork_new(const RtModel *m);
void rt_blockwork_free(RtBlockWork *w);

/* rt_progress.c: the progress bar on a terminal. */
RtProgress *rt_progress_new(int enabled, double stop_time);
void rt_progress_update(RtProgress *p, double t);
void rt_progress_done(RtProgress *p);

/* Allocation that never returns NULL (a simulator out of memory stops). */
void *rt_xcalloc(size_t n, size_t size);

#endif
