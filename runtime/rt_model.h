/*
 * rt_model.h - the interface between a generated model and the runtime.
 *
 * `lmdlc build` writes C that defines one `const RtModel rt_model` and
 * links it with liblmdl_rt.a, which owns main(): option parsing, CSV
 * output, parameter overrides, initialization, integration with
 * gsl_odeiv2, event location, assertion checks and error reports.  The
 * generated code holds only what is specific to the model: sizes, names
 * and the functions below.  All values are SI.
 *
 * Evaluation model.  The unknowns are split into states x (integrated)
 * and algebraic variables alg (computed from t, x and the parameters p by
 * evaluating the sorted blocks).  `eval` computes alg and dx/dt given the
 * frozen relation values `modes` (one per zero-crossing relation), so the
 * right-hand side is smooth between events.  Algebraic loops inside eval
 * call back into the runtime through rt_solve_block (Newton with the
 * generated analytic Jacobian, gsl_multiroot hybridsj).
 */
#ifndef LMDL_RT_MODEL_H
#define LMDL_RT_MODEL_H

#include "rt_kinds.h"
#include "rt_math.h"
#include "rt_units.h"

#define RT_ABI_VERSION 24

/* Failure codes returned by RtModel.eval and rt_solve_block. */
enum {
    RT_OK = 0,
    RT_FAIL_SINGULAR = 1,   /* a block's pivot vanished (singular system) */
    RT_FAIL_NEWTON = 2,     /* an algebraic loop did not converge */
    RT_FAIL_DOMAIN = 3,     /* a value became NaN or infinite */
};

typedef struct RtModel RtModel;

/* What eval and the other model functions see. */
typedef struct RtEval {
    const RtModel *m;   /* the model */
    double t;           /* time */
    const double *x;    /* states, m->n_states */
    double *dx;         /* out: dx/dt, m->n_states */
    double *alg;        /* in: previous values (Newton guesses); out: values */
    const double *p;    /* parameters, m->n_params */
    const int *modes;   /* frozen relation values, m->n_relations (0/1) */
    int fail_block;     /* out: block that failed, when eval returns != 0 */
    void *rt;           /* runtime-private workspace */
    /* out, set by rt_lookup: the first table with extrapolation = error
       queried outside its grid during this evaluation, or NULL ... */
    const struct RtTableInfo *table_error;
    int table_axis;     /* ... the axis (0 or 1) ... */
    double table_query; /* ... and the query */
    const double *ev;   /* event variables, m->n_evars: known
                           inputs of the equations, changed only at events */
    void *delays;       /* runtime-private: the delays' histories */
    int partial;        /* in: a solver's evaluation, which needs only dx
                           and what the relations read; the other
                           algebraic values may be left as they were */
    const double *ev_pre; /* update only: the event variables at the
                           previous event iteration (at the first, before
                           the event), which edge() reads on its "before"
                           side */
} RtEval;

/* A part of the column code (RtModel.column_parts). */
typedef void (*RtColumnsFn)(const RtEval *e, double *out);

/* Residuals F(z) of an algebraic loop over its unknowns z; 0 on success. */
typedef int (*RtBlockFn)(RtEval *e, const double *z, double *res);
/* Its Jacobian dF/dz, row-major n*n; 0 on success. */
typedef int (*RtBlockJac)(RtEval *e, const double *z, double *jac);

/* Solves block `block` (n unknowns, z holds the guess on entry and the
   solution on return).  Returns RT_OK, or RT_FAIL_NEWTON/RT_FAIL_SINGULAR
   and sets e->fail_block.  Provided by the runtime. */
int rt_solve_block(RtEval *e, int block, int n, double *z, RtBlockFn f,
                   RtBlockJac jac);

/* Solves the linear block A z = b in place (A row-major n*n, destroyed;
   b becomes z), by LU with partial pivoting.  Returns RT_OK, or
   RT_FAIL_SINGULAR and sets e->fail_block when a pivot vanishes. */
int rt_solve_linear(RtEval *e, int block, int n, double *A, double *b);

typedef struct RtParamInfo {
    const char *name;       /* instance path, e.g. "lever.r12" */
    double value;           /* default value, SI */
    short dim[RT_DIM_COUNT]; /* SI dimension: m kg s A K mol cd exponents,
                                in twelfths (rt_units.h, RT_DIM_DEN) */
    unsigned char structural; /* fixed at compile time: --param refuses it */
    unsigned char is_bool;  /* a true/false parameter */
    unsigned char access;   /* RT_PARAM_*: whether --param may set it */
    const char *unit;       /* the unit its declaration is written in
                               ("mm", "degC"): --param reads a bare number
                               in it; NULL or "" for SI */
    unsigned char unit_relative; /* a degC/degF unit is a difference
                                    (Conversion = relative) */
} RtParamInfo;

/* A generated model's parameter: RtParamInfo with its strings as offsets
   into RtModel.texts, so the table holds no pointers (rt_param_info
   gives the RtParamInfo). */
typedef struct RtParamRow {
    unsigned name;
    short dim[RT_DIM_COUNT];
    unsigned char structural, is_bool, access;
    unsigned unit;          /* 0: none (SI) */
    unsigned char unit_relative;
} RtParamRow;

/* What a column is, for binary results, plots and FMI's modelDescription. */
enum {
    RT_COL_VARIABLE = 0,    /* a component's variable, or an across variable */
    RT_COL_OUTPUT = 1,      /* an output of the top-level model */
};

typedef struct RtColumnInfo {
    short dim[RT_DIM_COUNT]; /* SI dimension: m kg s A K mol cd exponents,
                                in twelfths (rt_units.h, RT_DIM_DEN) */
    const char *description; /* the declaration's comment, "" if none */
    unsigned char kind;      /* RT_COL_* */
    unsigned char complete;  /* its value needs a complete evaluation (it
                                reads an algebraic value past
                                n_alg_solver): rows with it need one */
} RtColumnInfo;

typedef struct RtTargetInfo {
    int column;             /* the column (variable) the target is on */
    unsigned char high;     /* 1: priority.high, 0: priority.low */
    int state1;             /* 1 + the state this variable is, or 0: when
                               every target is on a state, initialization
                               sets them and solves nothing */
} RtTargetInfo;

typedef struct RtRelationInfo {
    const char *instance;   /* instance path, "" for the top model */
    const char *condition;  /* source text of the relation, for the log */
    const char *location;   /* "file:line:col" */
    int guard;              /* relation this one only matters under, or -1 */
    int guard_value;        /* the guard's value under which it matters */
    int table1;             /* a segment mode: 1 + its table (RtModel.tables);
                               0 for a relation */
    int axis;               /* a segment mode: the table's axis (0 or 1) */
    unsigned char assert_only; /* appears only in assertions: its crossing
                               is located and the assertions checked
                               there, but it is no event (no rows, no log
                               line, no restart of the equations) */
    unsigned char reads_alg; /* its operands read algebraic values: a probe
                               inside a step evaluates the model for it */
    const char *location_end; /* "line:col" just past the construct that
                               location starts (the exclusive end, for
                               --diagnostics-format=json), or NULL
                               (unknown) */
    unsigned char time_only; /* reads nothing but time, parameters and
                               event variables: its crossing is a
                               breakpoint, found before the solver steps
                               over it (interface 13) */
} RtRelationInfo;
/* A relation whose guard has the other value cannot change the equations
   (it sits in a branch not taken, like a wall's force clamp while out of
   contact): the runtime updates its mode silently, without an event.

   Segment modes.  A tablelookup whose query depends on the state has, per
   axis, a mode that is not true/false but the query's segment of the
   grid (rt_grid_segment: 0 before the grid, n after it, k between points
   k-1 and k).  eval reads it frozen, so the table is one polynomial
   between events; relation_values gives the segment the query is in, and
   zero_crossings the distance to the frozen segment's nearer bound
   (rt_grid_crossing: >= 0 inside), so an event is located where the
   query crosses a grid point, whatever the table's size: one mode per
   lookup and axis, not one relation per point. */

/* ---- tables (tablelookup) ------------------------------------------------ */

/* RT_INTERP_* and RT_EXTRAP_* are in rt_kinds.h. */

/* A table: its grids and data are run-time parameters (so --param
   reaches them), consecutive in p[]. */
typedef struct RtTableInfo {
    const char *instance;   /* instance path, "" for the top model */
    const char *call;       /* the tablelookup call's source text */
    const char *location;   /* "file:line:col" */
    int axes;               /* 1 or 2 */
    int n[2];               /* points of each grid */
    int grid[2];            /* the first parameter of each grid */
    int data;               /* the first parameter of the data: n[0] values,
                               or n[0] * n[1] in column-major order */
    unsigned char interp;   /* RT_INTERP_* */
    unsigned char extrap;   /* RT_EXTRAP_* */
    short dim[2][RT_DIM_COUNT]; /* the units of the grids (and queries) */
    const char *location_end; /* "line:col" where location's span ends,
                               or NULL (RtRelationInfo.location_end) */
} RtTableInfo;

/* The segment of x on grid g of n points (0 .. n), and the crossing
   function of segment seg at x: >= 0 while x is in it.  Provided by the
   runtime. */
int rt_grid_segment(const double *g, int n, double x);
double rt_grid_crossing(const double *g, int n, int seg, double x);
/* The value (d1 = d2 = 0) or a partial derivative of table tb at
   (x1, x2) in segments (s1, s2), parameters p.  With e (eval and the loop
   functions; NULL elsewhere), a query outside the grid of a table with
   extrapolation = error is recorded in e->table_error, and the run stops
   there (the value is the nearest end's meanwhile). */
double rt_lookup(const RtTableInfo *tb, const double *p, RtEval *e, int s1, int s2,
                 double x1, double x2, int d1, int d2);

typedef struct RtAssertInfo {
    const char *instance;   /* instance path */
    const char *message;    /* the user's message */
    const char *location;   /* "file:line:col" */
    int n_params;           /* parameters the condition reads ... */
    const int *params;      /* ... their indices, shown with a failure */
    unsigned char params_only; /* reads nothing but parameters */
    const char *location_end; /* "line:col" where location's span ends,
                               or NULL (RtRelationInfo.location_end) */
    unsigned char warn;     /* assert(..., Warn = true) or Action = warn: a
                               warning, the run goes on (check_warnings) */
} RtAssertInfo;

/* The value of delay k's argument at time e->t - tau, interpolated in
   the history the runtime keeps; generated eval code calls it
   for every delay(u, tau).  A tau that is negative or beyond the delay's
   bound fails the evaluation (NAN, and the runtime reports it). */
double rt_delay(const RtEval *e, int k, double tau);

typedef struct RtDelayInfo {
    const char *instance;   /* instance path */
    const char *location;   /* "file:line:col" of the delay() call */
    const char *location_end; /* "line:col" where location's span ends,
                               or NULL (RtRelationInfo.location_end) */
} RtDelayInfo;

/* A mode chart: its active mode is event variable `evar` (the 1-based
   index of the mode, in declaration order). */
typedef struct RtChartInfo {
    const char *instance;   /* instance path, "" for the top model */
    const char *name;       /* the chart's name, for the event log */
    const char *location;   /* "file:line:col" */
    int evar;               /* event variable of its mode */
    int n_modes;            /* its modes ... */
    const char *const *mode_names; /* ... and their names */
    int next;               /* event variable of the mode a compound
                               transition goes on to (0 when none is
                               under way) */
    const char *location_end; /* "line:col" where location's span ends,
                               or NULL (RtRelationInfo.location_end) */
} RtChartInfo;

/* Where a column copied from a table comes from (RtModel.column_from). */
enum {
    RT_FROM_CODE = 0,       /* columns() computes it */
    RT_FROM_X = 1,          /* x[index] */
    RT_FROM_ALG = 2,        /* alg[index] */
    RT_FROM_P = 3,          /* p[index] */
    RT_FROM_COLUMN = 4,     /* another column */
    RT_FROM_ZERO = 5,       /* 0 */
    RT_FROM_NEG = 6,        /* minus another column */
};

/* An assertion that compares one parameter with a constant. */
typedef struct RtParamCheck {
    int assert_index;       /* in RtModel.asserts */
    int slot;               /* p[slot] */
    unsigned char op;       /* RT_CMP_* */
    double value;           /* the constant */
} RtParamCheck;

enum {
    RT_CMP_GT, RT_CMP_GE, RT_CMP_LT, RT_CMP_LE, RT_CMP_EQ, RT_CMP_NE,
    RT_CMP_PLUS_MINUS,      /* p == value || p == -value */
};

typedef struct RtBlockInfo {
    int size;               /* unknowns in the block */
    const char *what;       /* equations and variables involved, readable */
    const char *location;   /* "file:line:col" of its first equation */
    const char *location_end; /* "line:col" where location's span ends,
                               or NULL (RtRelationInfo.location_end) */
} RtBlockInfo;

/* The rows of a generated model's assertions and blocks: their strings
   as offsets into RtModel.texts, so the tables hold no pointers and the
   loader has nothing to relocate in them (interface 21; a hand-written
   model gives RtAssertInfo and RtBlockInfo instead).  rt_assert_info and
   rt_block_info (rt_tables.c) give either as the Info. */
typedef struct RtAssertRow {
    unsigned instance, message, location;
    unsigned location_end;  /* 0: none */
    int n_params;           /* parameters the condition reads ... */
    int params;             /* ... from RtModel.assert_reads[params] on */
    unsigned char params_only, warn; /* RtAssertInfo's */
} RtAssertRow;

typedef struct RtBlockRow {
    int size;
    unsigned what, location;
    unsigned location_end;  /* 0: none */
} RtBlockRow;

/* The symbolic Jacobians of linearization, generated by `lmdlc
   linearize` only (RtModel.linear; rt_linearize.c).  The sorted system
   is F(w, x, u) = 0, with w the unknowns its blocks solve, x the states
   and u the top model's inputs; the unknowns and states are numbered
   together (the compiler's structural variables), inputs are -1 - k. */
typedef struct RtLinear {
    int n_vars;             /* unknowns and states */
    const int *state_var;   /* per state: its variable */
    const int *der_var;     /* per state: the variable of its derivative */
    const short (*state_dim)[RT_DIM_COUNT]; /* per state: its SI dimension */
    int n_inputs;           /* the top model's inputs ... */
    const int *input_param; /* ... their parameters */
    int n_rows;             /* equations, block by block */
    int n_blocks;
    const int *block_start; /* block b: rows block_start[b] .. [b+1] - 1 */
    const int *row_var;     /* per row: the variable it solves */
    const int *entry_start; /* per row: its entries (n_rows + 1) */
    const int *entry_col;   /* per entry: a variable, or -1 - k: input k */
    /* dF/d(column) of every entry, at an evaluated point (e->alg full) */
    void (*jac)(const RtEval *e, double *val);
    const int *out_start;   /* per output column: its gradient's entries
                               (n_columns + 1) */
    const int *out_col;     /* per entry, as entry_col */
    void (*out_jac)(const RtEval *e, double *val);
} RtLinear;

struct RtModel {
    int abi;                /* RT_ABI_VERSION */
    const char *name;       /* top-level component */

    int n_params;
    const RtParamInfo *params;      /* hand-written models; or: */
    const RtParamRow *param_rows;   /* generated ones, with: */
    const double *param_values;     /* ... their values, in index order
                                       (the start copies these alone) */
    /* Recomputes every parameter defined by an expression of others
       (e.g. lever.r12 bound to the top-level r12), in dependency order,
       skipping those with overridden[i] != 0. */
    void (*derive_params)(double *p, const unsigned char *overridden);
    /* ... and then the n_consts constants the model's functions read:
       expressions of parameters alone, and copies of parameters, computed
       once into p[n_params .. n_params + n_consts - 1], so p has that
       many slots (rt_param_slots). */
    int n_consts;
    /* Checks the pivots that depend on parameters only, once the
       parameters are set (before initialization): returns the first block
       whose pivot vanishes, or -1.  NULL: nothing to check. */
    int (*check_params)(const double *p);

    int n_states;
    const char *const *state_names;   /* hand-written models; or: */
    const unsigned *state_name_at;    /* generated ones: in texts */
    /* Each state's column, the first one named like the state, or -1
       (a derivative's state, der(...), has none); NULL in hand-written
       models, whose states are looked up by name. */
    const int *state_column;
    /* Declared start values and nominal magnitudes of the states. */
    void (*start)(const double *p, double *x0, double *nominal);

    int n_alg;
    /* Declared values of the algebraic variables (first Newton guesses). */
    void (*alg_start)(const double *p, double *alg);

    /* Computes alg and dx (dx may be NULL when n_states == 0); with
       e->partial set only dx and alg[0 .. n_alg_solver), which hold what
       the derivatives and the relations read. */
    int (*eval)(RtEval *e);
    int n_alg_solver;

    int n_columns;
    const char *const *column_names; /* CSV header after "time" (hand-
                                        written models); or: */
    const unsigned *column_name_at;  /* generated ones: in texts */
    const RtColumnInfo *column_info; /* per column, or per column_info_of
                                        entry; NULL in hand-written models */
    /* The last n_hidden columns are never written (targets may read
       them); the n_on_request before them are written only when --vars
       names them (intermediates, integ() states). */
    int n_on_request;
    int n_hidden;
    /* Fills every column value from an evaluated state. */
    void (*columns)(const RtEval *e, double *out);
    /* ... in parts: part k fills the computed columns c with
       column_part_end[k - 1] <= c < column_part_end[k] (0 parts in
       hand-written models: columns() alone). */
    int n_column_parts;
    const RtColumnsFn *column_parts;
    const int *column_part_end;

    int n_targets;
    const RtTargetInfo *targets;
    /* Target values and nominal scales of every target. */
    void (*target_values)(const double *p, double *value, double *nominal);

    int n_relations;
    const RtRelationInfo *relations;
    /* Zero-crossing functions: relation i is true when g[i] > 0 (or >= 0
       for a non-strict relation; see relation_values). */
    void (*zero_crossings)(const RtEval *e, double *g);
    /* The relations' truth values at an evaluated state: 0 or 1 (a segment
       mode, RtRelationInfo.table1: its segment). */
    void (*relation_values)(const RtEval *e, int *truth);

    int n_asserts;
    const RtAssertInfo *asserts;    /* hand-written models; or: */
    const RtAssertRow *assert_rows; /* generated ones, with ... */
    const int *assert_reads;        /* ... the parameters they read */
    /* Index of the first failing assertion, or -1. */
    int (*check_asserts)(const RtEval *e);
    /* The same over the assertions that read only parameters (given p),
       checked once the parameters are final, before initialization. */
    int (*check_param_asserts)(const double *p);

    int n_blocks;
    const RtBlockInfo *blocks;      /* hand-written models; or: */
    const RtBlockRow *block_rows;   /* generated ones */
    /* The strings of param_rows, assert_rows, block_rows, state_name_at
       and column_name_at: an offset k is the string at texts + k (offset
       0 is ""). */
    const char *texts;

    /* The tables of tablelookup calls; their grids are checked to be
       strictly monotonic once the parameters are set. */
    int n_tables;
    const RtTableInfo *tables;
    /* The discrete part (all optional).  Event variables are
       piecewise constant: eval reads them (RtEval.ev) like parameters,
       and only the event iteration changes them, through update. */
    int n_evars;
    /* Their values before the first event, given the parameters. */
    void (*evar_start)(const double *p, double *ev);
    /* One event iteration's discrete updates: when clauses, mode chart
       transitions and entry actions.  From the values at this iteration
       (e: states, algebraic values, event variables; e->modes the
       relations' values now) and pre (the relations' values at the
       previous iteration; at the first, before the event), with initial
       set in the first iteration of the initial event, writes the next
       values of the event variables into ev_next (holding e->ev on
       entry).  All assignments of one branch read the values before any
       of them. */
    void (*update)(const RtEval *e, const int *pre, int initial, double *ev_next);
    int n_charts;
    const RtChartInfo *charts;
    /* The state resets of chart c's active mode (in e->ev), applied when
       it is entered: writes the states into x (holding e->x on entry). */
    void (*reset)(const RtEval *e, int chart, double *x);
    /* Delays: their arguments u at an evaluated point (into u), and their
       bounds (MaximumDelay) and History values (NAN: u's value at the
       start), given the parameters. */
    int n_delays;
    const RtDelayInfo *delays;
    void (*delay_args)(const RtEval *e, double *u);
    void (*delay_params)(const double *p, double *tmax, double *hist);

    /* The sparsity of d(dx/dt)/dx, for the implicit steppers' Jacobian by
       finite differences: column j (state j) may only change the rows
       jac_rows[jac_colptr[j] .. jac_colptr[j+1]-1].  Columns of one color
       share no row, so they are perturbed together, one evaluation per
       color instead of one per state.  n_colors == 0: dense. */
    int n_colors;
    const int *color;       /* n_states entries */
    const int *jac_colptr;  /* n_states + 1 entries */
    const int *jac_rows;    /* jac_colptr[n_states] entries */

    /* The states zero_crossings and relation_values read, ascending: the
       event search interpolates only those (n_rel_states == 0: all). */
    int n_rel_states;
    const int *rel_states;

    /* Values the runtime sets from tables, so that the generated
       functions hold code only for what needs computing (rt_tables.c;
       all optional):
       - column_from[c]: 0 when columns() computes column c, else where
         it is copied from: RT_FROM_* | index << 3; a chain of
         RT_FROM_COLUMN and RT_FROM_NEG links ends at a slot, 0 or a
         computed column, never in a cycle;
       - param_copies: n_param_copies pairs (dst, src), p[dst] = p[src]
         unless overridden, done before derive_params (src is never a
         derived parameter);
       - pivot_slots: n_pivot_slots pairs (slot, block): the pivot of
         block is p[slot], checked like check_params' pivots;
       - param_checks: assertions of one parameter against a constant,
         checked like check_param_asserts'. */
    const int *column_from;
    const int *column_info_of; /* per column: its entry of column_info
                                  (distinct entries written once), or NULL:
                                  column_info has one per column */
    int n_param_copies;
    const int *param_copies;
    int n_pivot_slots;
    const int *pivot_slots;
    int n_param_checks;
    const RtParamCheck *param_checks;

    /* The assertions that only warn: failing[k] = 1 for each of them that
       fails at e, 0 for the others (NULL: there are none). */
    void (*check_warnings)(const RtEval *e, unsigned char *failing);

    /* The Jacobians of --linearize, or NULL: a simulator built by
       `lmdlc linearize` has them, others not. */
    const RtLinear *linear;
};

/* The one model of a simulator executable, defined by generated code. */
extern const RtModel rt_model;

#endif
