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
#include <sys/types.h>
#include <gsl/gsl_odeiv2.h>

#define RT_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* Exit statuses (docs/tools.md). */
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
    RT_CHATTER_NAMED = 4,           /* relations a chattering or settling
                                       failure names, at most */
    RT_CHANGE_RING = 4 * RT_CHATTER_EVENTS, /* logged changes kept to name
                                       the relations of chattering */
    RT_STEP_PROBES = 2,             /* interior points of every step where
                                       the relations are checked on the
                                       step's interpolant (rt_events.c) */
    RT_COLLAPSE_STEPS = 100,        /* accepted steps, each with a failed
                                       evaluation (fewer than
                                       RT_COLLAPSE_CLEAN clean ones between
                                       two), ... */
    RT_COLLAPSE_CLEAN = 10,
};
#define RT_COLLAPSE_RATIO 1e-3      /* ... shrinking below this fraction of
                                       the first: the failure is reported */
#define RT_CHATTER_WINDOW 1e-6      /* ... within this fraction of stop time;
                                       two compound transitions (resets) of
                                       one mode chart that close: the Zeno
                                       limit of a bouncing model */

/* Without --solver, models with at least this many states and a Jacobian
   sparsity pattern get cvode, the others msbdf: measured on the lever and
   mass chains, msbdf is up to 1.4x faster below 40 states and cvode 3x
   (200 states) to 100x (2,000) faster above (docs/performance.md). */
enum { RT_CVODE_MIN_STATES = 64 };

typedef struct RtSim RtSim;
typedef struct RtStepper RtStepper;       /* below */

/* A relation that crossed at an event where a mode chart made a compound
   transition (a reset) and still held afterwards, the reset having
   turned its approach around or stopped it (a bounce's x <= 0): it must
   be seen to leave its condition before the state goes deeper into it
   (rt_events.c). */
typedef struct RtResetWatch {
    int chart;                  /* the chart that reset, or -1: unwatched */
    int mode;                   /* the relation's value it is watched in */
    double g;                   /* its oriented crossing function (>= 0
                                   inside) right after the reset */
    double t;                   /* the reset's time */
} RtResetWatch;

/* A file the run reads, which it must not write (rt_inputs.c). */
typedef struct RtInput {
    const char *path;           /* as given */
    const char *what;           /* "the model file", "the sets file" */
    int known;                  /* it existed when it was added: dev, ino */
    dev_t dev;                  /* its device ... */
    ino_t ino;                  /* ... and inode */
} RtInput;

/* The simulator options (docs/tools.md), validated. */
typedef struct RtOptions {
    double stop_time;           /* --stop-time, s */
    double output_step;         /* --output-step, s (> 0) */
    double rtol, atol;          /* --rtol, --atol (atol per unit nominal) */
    const char *solver;         /* --solver name, for messages */
    const gsl_odeiv2_step_type *stepper; /* the gsl_odeiv2 stepper, or
                                           NULL for --solver cvode */
    const RtStepper *backend;   /* gsl_odeiv2 or CVODE; NULL: gsl_odeiv2 */
    int solver_given;           /* --solver was on the command line */
    double max_step;            /* --max-step, s; 0: no bound */
    const char *out_path;       /* -o FILE; NULL writes stdout */
    const char *events_path;    /* --events FILE; NULL keeps no log */
    int quiet;                  /* --quiet: no progress bar, no warnings */
    int *vars;                  /* --vars as column indices, in order */
    int n_vars;                 /* their count; all columns without --vars */
    int no_event_emit;          /* --no-event-emit: rows on the output grid
                                   only, one per time (no left and right
                                   rows at events) */
    RtInput *inputs;            /* --input files and a sweep's sets file */
    int n_inputs;               /* their count */
    int steady_state;           /* --steady-state: start where every
                                   derivative is zero (rt_init.c) */
    double horizon;             /* how far a multistep solver may step past
                                   an output time: the stop time, or (an
                                   FMU without one) this, when > 0 */
    int linearize;              /* --linearize: RT_LINEARIZE_*, or 0 */
    const char *lin_inputs;     /* --linearize-inputs, or NULL: all */
    const char *lin_outputs;    /* --linearize-outputs, or NULL: the
                                   top model's outputs */
    int *lin_in, n_lin_in;      /* the inputs chosen (RtLinear's order) */
    int *lin_out, n_lin_out;    /* the output columns chosen */
} RtOptions;

enum { RT_LINEARIZE_TEXT = 1, RT_LINEARIZE_JSON = 2, RT_LINEARIZE_MAT = 3 };

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
    RT_FAILKIND_DELAY,      /* a delay read out of its range: index = the
                               delay, h = its tau */
    RT_FAILKIND_ZENO,       /* a mode chart's compound transitions (resets)
                               accumulate: index = the chart, h = the
                               interval between the last two; or, with
                               culprits[0], the state went deeper into
                               that relation's condition after the
                               reset (t: the reset's time, h: when seen) */
    RT_FAILKIND_STEADY,     /* --steady-state found no point where every
                               derivative vanishes: culprits = the states
                               whose derivatives stay, largest first */
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
    int culprits[RT_CHATTER_NAMED]; /* CHATTER, MODES: the relations that
                                       kept changing, most recent first */
    int n_culprits;         /* entries in culprits */
    int chart;              /* MODES: a mode chart that kept switching, or -1 */
} RtFailure;

typedef struct RtBlockWork RtBlockWork;   /* rt_newton.c */
typedef struct RtProgress RtProgress;     /* rt_progress.c */
typedef struct RtOutput RtOutput;         /* rt_csv.c */
typedef struct RtMat RtMat;               /* rt_mat.c */

typedef struct RtCvode RtCvode;           /* rt_cvode.c */
typedef struct RtDelays RtDelays;         /* rt_delay.c */
typedef struct RtDense RtDense;           /* rt_dense.c */

struct RtSim {
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
    int alg_partial;            /* alg holds a partial evaluation's values:
                                   past a[n_alg_solver], those of an earlier
                                   state (rt_eval.c) */
    int rows_known;             /* rows_complete has been worked out */
    int rows_complete;          /* a written column needs a complete
                                   evaluation (RtColumnInfo.complete) */
    double full_t;              /* the last accepted state completely */
    double *full_x;             /* evaluated: its time and state */
    int alg_dirty;              /* a probe has written alg since the last
                                   accepted state (rt_events.c) */
    double *x_start;            /* declared start values */
    double *x_guess;            /* --steady-state: the initialized state, its
                                   first guess and anchor (rt_init.c) */
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
    RtCvode *cvode;             /* CVODE's objects, for --solver cvode */
    double *jac_values;         /* FD Jacobian in the model's sparsity
                                   pattern order (jac_rows), nnz entries */
    double h;                   /* the solver's suggested next step */
    double h_start;             /* the first step of a run (and of a
                                   multistep method after a restart) */
    int free_steps;             /* the solver steps past output times
                                   (msbdf, msadams, cvode): rows between
                                   its steps come from its interpolant */
    double step_t0;             /* the last accepted step [step_t0, ft],
                                   on which the interpolant holds ... */
    double ft;                  /* ... its end, the solver's frontier (the
                                   run has processed it up to s->t; ft <=
                                   s->t: no step is ahead) ... */
    double *fx;                 /* ... and the state there */
    int ft_bp;                  /* ft is a delay's breakpoint: the solver
                                   restarts once the run reaches it */
    RtDense *dense;             /* the interpolant of gsl_odeiv2's
                                   multistep methods (rt_dense.c) */
    int n_time_rel;             /* relations on time alone
                                   (RtRelationInfo.time_only): their
                                   crossings are breakpoints */
    int n_event_rel;            /* relations that are not assertions'
                                   alone: the only ones a step's interior
                                   is probed for (assertions are checked
                                   at step ends) */
    int probes_evaluate;        /* rt_ev_probes_evaluate, once */

    FILE *out;                  /* results CSV */
    FILE *events;               /* event log, or NULL */
    RtOutput *output;           /* line buffer and MAT writer (rt_csv.c) */

    double *event_times;        /* ring of the last RT_CHATTER_EVENTS */
    unsigned char *warn_failing;/* per assertion: failing now (check_warnings) */
    unsigned char *warned;      /* per assertion: its warning was given */
    long n_events;              /* events so far */
    int *change_rels;           /* ring of the last RT_CHANGE_RING logged
                                   relation changes ... */
    double *change_times;       /* ... and their times */
    long n_changes;             /* changes logged so far */
    int *truth_trial;           /* scratch: relation values in
                                   rt_eval_past */
    double *bracket;            /* scratch: an event's bracket, 4 states */
    double *gdip;               /* scratch: 4 x n_relations crossing values
                                   for the dip check of a step */
    double *ev;                 /* event variables */
    RtDelays *delays;           /* the delays' histories, or NULL */
    double *ev_next;            /* scratch: their next values */
    double *ev_pre;             /* scratch: their values at the previous
                                   event iteration (RtEval.ev_pre) */
    int *md_pre;                /* scratch: the relations' values at the
                                   previous event iteration */
    int *chart_moved;           /* scratch: per chart, entered a mode in
                                   this iteration */
    double *chart_reset_t;      /* per chart: time of its last compound
                                   transition (NAN: none yet) */
    RtResetWatch *watch;        /* per relation: watched after a reset that
                                   left it in its condition (rt_events.c) */
    int *md_cross;              /* scratch: the relations' values at an
                                   event's point, before its iteration */
    int *md_trial;              /* scratch modes: an evaluation past a
                                   crossing (rt_eval_past) */
    int *md_old;                /* scratch: the modes before an event */
    int *last_change;           /* per relation: event iteration of its
                                   last change, to name what does not
                                   settle */
    double event_row_t;         /* time of the last event's rows (NAN
                                   before any): an output time equal to it
                                   writes no third row */
    double out_last;            /* the latest output time reached (a row of
                                   rt_run, an FMU's communication point;
                                   NAN: none), and ... */
    double out_next;            /* ... the one being advanced to: an event
                                   within the time tolerance of either is
                                   that output time's event */
    double log_t;               /* the time the event log gives the event
                                   under way (its rows' time; NAN: none) */

    /* Embedding (an FMU instance, runtime/fmi/): where messages go
       instead of stderr, and a function told of every logged event (a
       relation's change, a mode chart entering a mode), as the event
       log's fields and the source location. */
    FILE *msgs;                 /* NULL: stderr */
    void (*on_event)(void *ctx, double t, const char *instance, const char *condition,
                     const char *value, const char *location);
    void *on_event_ctx;         /* its first argument */

    RtFailure fail;             /* the first failure of the run */
    int table_tolerant;         /* while modes settle: a query outside a
                                   table's grid (extrapolation = error) is
                                   kept in table_pending, not yet a failure,
                                   since the segment it was read in may be
                                   the modes' old guess */
    RtFailure table_pending;    /* that query, from the latest evaluation */
    RtFailure pending;          /* a failure inside a solver trial step */
    int last_eval_failed;       /* the solver's latest evaluation failed */
    int solver_eval;            /* evaluations are partial (RtEval.partial,
                                   rt_eval.c): 1 the solver's, 2 an accepted
                                   state's (its algebraic values checked) */
    /* The solver's own evaluation at a step's end, kept so that the step's
       end need not be evaluated again (rt_integrate.c): gsl_step watches
       the state array it steps (end_watch), and an evaluation of the
       solver at that array that solved no block from guesses leaves
       copies of its state and derivative, its time, and its number among
       all evaluations (eval_serial counts them in rt_eval_try).  Never
       with delays (end_watch stays NULL). */
    const double *end_watch;
    double *end_x, *end_dx;
    double end_t;
    unsigned long eval_serial, end_serial;
    long collapse_steps;        /* accepted steps in a row with a failed
                                   evaluation inside */
    double collapse_h0;         /* the first of them */
    int collapse_clean;         /* clean steps since the last of them */
};

/* A stepper: what the integration loop (rt_integrate.c) and the event
   location (rt_events.c) need of an ODE solver, so both work unchanged
   on gsl_odeiv2 and on CVODE. */
struct RtStepper {
    const char *what;           /* "gsl_odeiv2" or "CVODE", for messages */
    /* Creates the solver for s->m, s->opt and s->nominal, with s->h as
       the first step; -1 after a message on stderr. */
    int (*setup)(RtSim *s);
    /* Frees it (also after a failed or skipped setup). */
    void (*teardown)(RtSim *s);
    /* One accepted step from (*t, x) towards t1, never past it, with the
       solver's step-size control: *t and x advance, *h is the step to try
       next (on entry, a suggestion the solver may ignore).  Returns 0, or
       -1 with s->fail set. */
    int (*step)(RtSim *s, double *t, double t1, double *h, double *x);
    /* Forgets the solver's history: the next step starts afresh from
       (t, x), after an event or to integrate again from a saved state. */
    void (*restart)(RtSim *s, double t, const double *x);
    /* The state at t within the last accepted step [s->step_t0, s->ft]
       from the solver's own interpolant, of the method's order, into x:
       0, or -1 when it has none (a one-step method; no step since the
       last restart).  A solver with one steps freely past output times
       (s->free_steps). */
    int (*dense)(RtSim *s, double t, double *x);
};

extern const RtStepper rt_stepper_gsl;    /* rt_integrate.c */

/* rt_dense.c: the interpolant of a multistep method from its accepted
   steps, for gsl_odeiv2's msbdf and msadams, whose histories are private
   to GSL: the Hermite polynomial of the states and derivatives at the
   last m step ends since the last restart (2m conditions), m chosen
   from the method's current order q so that its degree 2m - 1 is at
   least q + 1.  new/free; clear (a restart); push: an accepted step's
   end (t increasing); order: the method's order now; eval: the state at
   t in the last step (0), or -1 with fewer than two points. */
enum { RT_DENSE_NODES = 4 };        /* step ends kept: degree 7 at most */
RtDense *rt_dense_new(int n);
void rt_dense_free(RtDense *d);
void rt_dense_clear(RtDense *d);
void rt_dense_push(RtDense *d, double t, const double *x, const double *f);
void rt_dense_order(RtDense *d, int q);
int rt_dense_eval(RtDense *d, double t, double *x);
extern const RtStepper rt_stepper_cvode;  /* rt_cvode.c */

/* rt_report.c: every message the simulator prints. */
void rt_warn(const RtSim *s, const char *fmt, ...) RT_PRINTF(2, 3);
void rt_usage_error(const char *prog, const char *fmt, ...) RT_PRINTF(2, 3);
/* A usage error about a line of a file (the sets file): "PROG: error:
   PATH:LINE: ..." (line 0: "PATH: ..."). */
void rt_sets_error(const char *prog, const char *path, long line, const char *fmt, ...)
    RT_PRINTF(4, 5);
/* One message "PROG: SEVERITY: ..." to `to`, in the format of the
   environment. */
void rt_message(FILE *to, const char *prog, const char *severity, const char *fmt, ...)
    RT_PRINTF(4, 5);

/* The environment variable that selects JSON Lines for the messages on
   stderr ("json"; anything else is text). */
#define RT_DIAG_FORMAT_ENV "LMDL_DIAGNOSTICS_FORMAT"
int rt_diag_json(void);

/* A message being written (rt_report.c): rt_msg_begin returns the stream
   its text goes to; the text ends with a newline, then rt_msg_end.  In
   text, "WHERE: SEVERITY: text" straight to the stream (WHERE the
   location when known, else the program); as JSON, one object. */
typedef struct RtMsg {
    FILE *to;                   /* the stream it goes to */
    FILE *fp;                   /* where its text is written: to, or a
                                   memory stream (JSON); NULL when ended */
    char *text;                 /* the memory stream's buffer ... */
    size_t len;                 /* ... and its length */
    const char *severity;       /* "error", "warning" or "note" */
    const char *location;       /* "file:line:col", or NULL */
    const char *location_end;   /* "line:col", or NULL */
    const char *file;           /* rt_msg_place's file, or NULL */
    long line;                  /* ... and line (0: unknown) */
} RtMsg;
FILE *rt_msg_begin(RtMsg *g, FILE *to, const char *prog, const char *severity,
                   const char *location, const char *location_end);
/* The message is about line `line` of file (not a model source): text
   "FILE:LINE: " in front of the message, JSON the file and line fields. */
void rt_msg_place(RtMsg *g, const char *file, long line);
void rt_msg_end(RtMsg *g);
void rt_warn_targets(const RtSim *s, const char *lead, const int *targets,
                     int n, const char *tail);
void rt_report_failure(const RtSim *s);
void rt_fail_eval(RtFailure *f, double t, int code, int block);
void rt_fail_simple(RtFailure *f, RtFailKind kind, double t, int index);

/* A list of names: an array of pointers, or offsets into one text (a
   generated model's states and columns, RtModel.texts). */
typedef struct RtNames {
    const char *const *ptr; /* the names; or NULL, and name i is ... */
    const char *text;       /* ... text + at[i] */
    const unsigned *at;
} RtNames;

static inline const char *rt_name(RtNames names, int i)
{
    return names.ptr ? names.ptr[i] : names.text + names.at[i];
}

static inline RtNames rt_names_of(const char *const *ptr)
{
    return (RtNames){ptr, NULL, NULL};
}

/* The model's column and state names. */
static inline RtNames rt_column_names(const RtModel *m)
{
    return (RtNames){m->column_names, m->texts, m->column_name_at};
}

static inline RtNames rt_state_names(const RtModel *m)
{
    return (RtNames){m->state_names, m->texts, m->state_name_at};
}

static inline const char *rt_column_name(const RtModel *m, int c)
{
    return rt_name(rt_column_names(m), c);
}

static inline const char *rt_state_name(const RtModel *m, int i)
{
    return rt_name(rt_state_names(m), i);
}

/* rt_names.c: names to indices without linear searches. */
typedef struct RtNameIndex RtNameIndex;
RtNameIndex *rt_names_new(RtNames names, int n);
int rt_names_find(const RtNameIndex *ix, const char *name, size_t len);
void rt_names_free(RtNameIndex *ix);
const char *rt_names_suggest(RtNames names, int n, const char *name, size_t len);
/* A comma-separated list of names among names[0 .. n) (a comma inside
   parentheses is part of a matrix element's name, M(1,2)): their
   indices, in order (*nsel of them; malloc'ed), or NULL with *bad and
   *badlen the first that is not one of them (an empty one too, unless
   skip_empty). */
/* The comma that ends the name at s in a list of names: the first
   outside parentheses, since a matrix element is named M(1,2); NULL for
   the last name. */
const char *rt_names_end(const char *s);
int *rt_names_list(RtNames names, int n, const char *list, int skip_empty,
                   int *nsel, const char **bad, size_t *badlen);

/* rt_params.c: --param PATH=VALUE. Returns 0, or -1 after a message. */
int rt_params_apply(RtSim *s, char **specs, int n_specs);
/* Why --param and sweeps may not set a parameter (its access), or NULL. */
const char *rt_param_fixed(const RtParamInfo *pi);
/* "5 mm": SI value v of parameter pi in the unit its declaration is
   written in (SI when it names none), for --help. */
void rt_param_in_declared_unit(const RtParamInfo *pi, double v, char *buf, size_t len);

/* rt_csv.c: the results file and the event log, whole lines; results rows
   in batches (each a write of whole rows). */
/* Writes n bytes to fd with write(2) alone (async-signal-safe); returns
   the bytes left unwritten, 0 on success (errno says why, EIO when write
   wrote nothing). */
size_t rt_write_all(int fd, const char *at, size_t n);
int rt_csv_header(RtSim *s);
int rt_csv_row(RtSim *s, double t, const double *x, const double *dx,
               const double *alg);
int rt_csv_events_header(RtSim *s);
/* A log line for relation `relation` taking `value` (true/false, or a
   segment mode's part of the grid). */
int rt_csv_event(RtSim *s, double t, int relation, int value);
/* A log line of any text (a mode chart entering a mode), from the source
   at `location`. */
int rt_csv_event_text(RtSim *s, double t, const char *instance, const char *condition,
                      const char *value, const char *location);
/* rt_csv_flush writes the rows that wait in the batch (before the files
   are closed); 0, or -1 with s->fail set. */
int rt_csv_flush(RtSim *s);
void rt_csv_close(RtSim *s);
/* One CSV record of n fields (RFC 4180 quoting when needed; NULL is
   empty) and its line break to a stdio stream. */
void rt_csv_record(FILE *fp, const char *const *fields, int n);
/* SIGINT, SIGTERM and SIGHUP held off while a row reaches its file: one
   that comes meanwhile takes effect at the release. */
void rt_hold_signals(void);
void rt_release_signals(void);

/* A MAT version 4 matrix's header: its type (RT_MAT_*; a big-endian
   machine's gets 1000 added), size and name, into out (the bytes
   rt_mat_header_size gives); returns how many it wrote.  rt_mat.c's
   results and rt_linearize.c's matrices. */
enum { RT_MAT_DOUBLE = 0, RT_MAT_INT32 = 20, RT_MAT_TEXT = 51 };
size_t rt_mat_header(unsigned char *out, int type, int rows, int cols, const char *name);
size_t rt_mat_header_size(const char *name);

/* rt_mat.c: MAT version 4 results (OpenModelica's layout).  rt_mat_open
   writes everything but the rows to fd, for the selected columns that g
   gathers (NULL: none); rt_mat_slot opens the next row at time t with
   the terminating signals held and returns where g's distinct values go
   (NULL past the format's limit, said), rt_mat_commit adds it to the
   waiting rows (rt_mat_waiting bytes), which rt_mat_flush writes with
   pwrite(2) alone (a signal handler may call it; -1 if the file refused). */
typedef struct RtGather RtGather;
RtMat *rt_mat_open(RtSim *s, int fd, const RtGather *g);
double *rt_mat_slot(RtSim *s, RtMat *mat, double t);
void rt_mat_commit(RtMat *mat);
size_t rt_mat_waiting(const RtMat *mat);
int rt_mat_flush(RtMat *mat);
void rt_mat_free(RtMat *mat);

/* rt_eval.c: evaluation with every check.  rt_eval_try is
   rt_eval_checked without restoring alg after a failure (the failed
   values are what rt_eval_past reads the relations from). */
/* The evaluation of s at (t, x) (inline: built out of line and returned,
   the struct was copied through loads that straddled the stores that
   made it, a store-forwarding stall that took a fifth of the wall
   contact's run). */
static inline RtEval rt_eval_make(RtSim *s, double t, const double *x, double *dx,
                                  double *alg, const int *modes)
{
    RtEval e = {
        .m = s->m,
        .t = t,
        .x = x,
        .dx = s->m->n_states > 0 ? dx : NULL,
        .alg = alg,
        .p = s->p,
        .modes = modes,
        .fail_block = -1,
        .rt = s->blocks,
        .ev = s->ev,
        .delays = s->delays,
        .partial = s->solver_eval != 0,
    };
    return e;
}
/* rt_tables.c: the generated functions with the model's tables around
   them.  Every column, every derived parameter, the first singular
   pivot of parameters (or -1), the first failing parameter assertion
   (or -1). */
void rt_columns(const RtModel *m, const RtEval *e, double *out);
/* The columns cols[0 .. n) of a row, by their distinct values: the
   code's columns are all computed into out (and only when one of them is
   asked for), the others copied from their sources, the state, algebraic
   value or parameter that column_from names with the links between
   columns followed.  Columns with the same source share one value, and a
   column that is minus another's value is that value negated: field k is
   values[value_of[k]], negated when negated[k].  rt_gather_make groups
   the distinct values by the kind of their source once, so that a row is
   one tight loop per kind, and numbers them in the order of the fields
   that first have them: when no two fields share a value, value k is
   field k's. */
typedef struct RtGather RtGather;
RtGather *rt_gather_make(const RtModel *m, const int *cols, int n);
void rt_gather(const RtModel *m, const RtEval *e, double *out, const RtGather *g, double *values);
int rt_gather_values(const RtGather *g);     /* the distinct values; 0 for NULL */
const int *rt_gather_value_of(const RtGather *g);
const unsigned char *rt_gather_negated(const RtGather *g);
void rt_gather_free(RtGather *g);

/* rt_tables.c: assertion k and block k (k in range) with their strings,
   from the model's Info tables or its rows of offsets (rt_model.h) ... */
RtAssertInfo rt_assert_info(const RtModel *m, int k);
RtBlockInfo rt_block_info(const RtModel *m, int k);
/* ... and parameter k. */
RtParamInfo rt_param_info(const RtModel *m, int k);

/* Column c's RtColumnInfo, or NULL in a model without them. */
const RtColumnInfo *rt_column_info(const RtModel *m, int c);
void rt_derive(const RtModel *m, double *p, const unsigned char *overridden);
int rt_param_pivots(const RtModel *m, const double *p);
int rt_param_asserts(const RtModel *m, const double *p);

/* A complete evaluation of the current state, if the last one was
   partial (before a row; rt_integrate.c). */
int rt_complete(RtSim *s);
/* Puts back what the failed evaluation into alg may have overwritten
   (the part an evaluation of the current kind writes) from alg_good. */
void rt_restore_alg(RtSim *s, double *alg);
int rt_eval_checked(RtSim *s, double t, const double *x, double *dx,
                    double *alg, const int *modes, RtFailure *f);
int rt_eval_try(RtSim *s, double t, const double *x, double *dx,
                double *alg, const int *modes, RtFailure *f);
/* Whether v[0 .. n) are all finite, the evaluations' check. */
int rt_all_finite(const double *v, size_t n);
void rt_accept_alg(RtSim *s);
int rt_check_asserts(RtSim *s);
int rt_check_param_asserts(RtSim *s);
/* The tables' grids strictly monotonic, once the parameters are final. */
int rt_check_grids(RtSim *s);

/* rt_sim.c: an RtSim's buffers for model m (s zeroed first), and their
   release (also the solver's, the progress bar's and the --vars list). */
void rt_sim_alloc(RtSim *s, const RtModel *m);
/* How much of alg a partial evaluation writes (all of it for a model
   that does not say). */
static inline size_t rt_alg_prefix(const RtModel *m)
{
    int n = m->n_alg_solver > 0 ? m->n_alg_solver : m->n_alg;
    return (size_t)(n > 0 ? n : 0);
}
/* The algebraic values an evaluation of this kind writes. */
static inline size_t rt_alg_written(const RtSim *s, int partial)
{
    return partial ? rt_alg_prefix(s->m) : (size_t)(s->m->n_alg > 0 ? s->m->n_alg : 0);
}
/* The length of a parameter array: the parameters, then the constants
   derive_params computes from them (RtModel.n_consts).  Every copy of
   s->p copies them all, so a restored copy is consistent. */
static inline size_t rt_param_slots(const RtModel *m)
{
    return (size_t)(m->n_params > 0 ? m->n_params : 0)
           + (size_t)(m->n_consts > 0 ? m->n_consts : 0);
}
void rt_sim_free(RtSim *s);

/* rt_delay.c: the histories of delay(u, tau).  setup (once the
   parameters are final; idempotent), free; sample: a point of the
   trajectory (the start, accepted steps, both limits of an event); check:
   a read out of range since the last check fails f; step_limit: the
   shortest tau read lately (steps are clipped to it), 0 if none;
   start: u(0) as the history, initialization again if it was off, and
   the first sample; event: the breakpoints te + tau an event makes;
   breakpoint: the next one after t (INFINITY if none). */
void rt_delays_setup(RtSim *s);
void rt_delays_free(RtSim *s);
int rt_delays_sample(RtSim *s, double t, const double *x, const double *dx,
                     const double *alg);
int rt_delays_check(RtSim *s, double t, RtFailure *f);
double rt_delays_tmax(const RtSim *s, int k);
double rt_delays_step_limit(const RtSim *s);
int rt_delays_start(RtSim *s);
void rt_delays_event(RtSim *s, double te);
double rt_delays_breakpoint(RtSim *s, double t);
/* The histories as part of an FMU state (fmi_state.c): the bytes they
   take, written into out; checked (NULL, or the field out of range) and
   loaded back from bytes that passed the check. */
size_t rt_delays_state_size(const RtSim *s);
void rt_delays_state_save(const RtSim *s, unsigned char *out);
const char *rt_delays_state_check(const RtSim *s, const unsigned char *in, size_t size);
void rt_delays_state_load(RtSim *s, const unsigned char *in, size_t size);

/* rt_init.c: consistent initial state, modes and targets, at time s->t. */
int rt_init(RtSim *s);

/* rt_events.c: modes, crossings, event location and handling.
   rt_events_alloc/free: the scratch the event code keeps in RtSim.
   rt_eval_past: an evaluation at a point that may lie past a crossing
   (a solver's trial point, a probe): tried with the modes md, and where
   that fails and relations differ from their modes there, with those
   modes flipped (md holds the modes used).  rt_modes_settle: the modes
   at (t, x) to a fixed point (initialization).  rt_events_after_step:
   after every accepted step from (t0, x0, dx0) to (s->t, s->x): crossings
   at the end and at RT_STEP_PROBES interior points located and handled. */
void rt_events_alloc(RtSim *s);
void rt_events_free(RtSim *s);
/* Back to before a run (an FMU's fmi2Reset): the delays' histories go
   (rt_init makes them again for the parameters then), the event
   variables and the charts' Zeno clocks start over. */
void rt_events_reset(RtSim *s);
int rt_eval_past(RtSim *s, double t, const double *x, double *dx,
                 double *alg, int *md, RtFailure *f);
int rt_modes_settle(RtSim *s, double t, const double *x, int during_init);
/* The event iteration at (t, x): the modes, and the discrete updates
   (when clauses, mode charts, their entry actions and state resets, which
   change x), to a fixed point; `initial` for the initial event (after
   initialization), when initialevent holds in the first iteration and
   every chart enters its initial mode.  Mode entries are logged unless
   initial.  0, or -1 with s->fail (MODES names what keeps changing). */
int rt_event_iterate(RtSim *s, double t, double *x, int initial, int during_init);
int rt_events_after_step(RtSim *s, double t0, const double *x0,
                         const double *dx0);
/* rt_locate.c: the end of the solver's next step from s->t, t1 or the
   first time past the crossing of a relation on time alone within the
   step the solver will try (a breakpoint: the step ends there). */
double rt_time_events_limit(RtSim *s, double t1);

/* rt_integrate.c: the run after initialization. */
int rt_integrate_setup(RtSim *s);
/* What the steppers share: the right-hand side as a solver sees it (0,
   or -1 with the failure in s->pending), the forward-difference
   Jacobian by colors into s->jac_values (the model's pattern order) or
   dense into J[i*row_stride + j*col_stride] (both leave f(t, y) in
   s->f0j; 0 or -1), and the failure of a step the solver gave up on
   (gsl_status: a GSL error code for the report). */
int rt_rhs(RtSim *s, double t, const double *y, double *dydt);
int rt_jacobian_sparse(RtSim *s, double t, const double *y);
int rt_jacobian_dense(RtSim *s, double t, const double *y, double *J,
                      size_t row_stride, size_t col_stride);
int rt_step_failed(RtSim *s, int gsl_status, double t);
void rt_integrate_teardown(RtSim *s);
int rt_run(RtSim *s);
/* Advances from s->t to tout (> s->t) with events located and handled and
   asserts checked on the way, writing no row at tout. 0, or -1 with
   s->fail set. */
int rt_advance(RtSim *s, double tout);
int rt_reintegrate(RtSim *s, double t0, const double *x0, double t1,
                   double *x);
/* The state at t on the trajectory from (t0, x0), t0 <= t <= s->ft:
   the solver's interpolant where it has one (0), else integrated again
   from (t0, x0) with a restart (1: the solver's history is gone); -1
   with s->fail set. */
int rt_trajectory(RtSim *s, double t0, const double *x0, double t, double *x);
void rt_solver_reset(RtSim *s);
double rt_output_time(const RtOptions *o, long k, long *n_rows);

/* rt_newton.c: per-block solver workspaces behind RtEval.rt. */
RtBlockWork *rt_blockwork_new(const RtModel *m);
void rt_blockwork_free(RtBlockWork *w);
/* How many block solves from guesses (rt_solve_block) w has done: an
   evaluation that did none computed the same at the same point,
   whatever its guesses. */
unsigned long rt_blockwork_solves(const RtBlockWork *w);

/* rt_progress.c: the progress bar on a terminal. */
RtProgress *rt_progress_new(int enabled, double stop_time);
void rt_progress_update(RtProgress *p, double t);
void rt_progress_done(RtProgress *p);
double rt_wall_clock(void);

/* Allocation that never returns NULL (a simulator out of memory stops). */
void *rt_xcalloc(size_t n, size_t size);

/* rt_linearize.c: --linearize.  select: the inputs and outputs named by
   --linearize-inputs and --linearize-outputs, checked before any file
   changes (0, or -1 after a message); rt_linearize: the linear model at
   the run's final point, written to fp (0, or -1 with s->fail set or
   after a message). */
int rt_linearize_select(RtSim *s);
int rt_linearize(RtSim *s, FILE *fp);
void *rt_xrealloc(void *p, size_t size);
/* Heap copies of a string, and of its first n bytes (with a NUL). */
char *rt_xstrdup(const char *s);
/* ---- the files a run reads (rt_inputs.c) ---- */
/* Adds path to the inputs, `what` naming it in messages. */
void rt_inputs_add(RtOptions *o, const char *path, const char *what);
/* The input that `path` is (the same name, or the same device and inode:
   through links when !replaced, its own directory entry when replaced,
   for a file a rename replaces), or NULL. */
const RtInput *rt_input_of(const RtOptions *o, const char *path, int replaced);
/* 0, or -1 after a usage error when path (`what`: "the results file") is
   an input. */
int rt_refuse_input(const char *prog, const RtOptions *o, const char *path, int replaced,
                    const char *what);
char *rt_xstrndup(const char *s, size_t n);

#endif
