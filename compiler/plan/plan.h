/*
 * plan.h - pass 8: how the sorted system is computed (plan.c).
 *
 * Between the structural analysis (structure.h: which equations solve
 * which unknowns, in which order) and code generation (codegen.h: C text),
 * the plan makes every decision about the computation:
 *
 *  - each block's solution method: explicit (one equation, its unknown
 *    linear: x = -r(0) / (dr/dx)), symbolic linear (a linear loop
 *    eliminated at compile time), LU (a linear loop solved at run time by
 *    rt_solve_linear) or Newton (rt_solve_block with the analytic
 *    Jacobian), with the expressions each needs;
 *  - where each pivot is checked: never (a nonzero constant), once after
 *    the parameters are set (it depends on parameters only), or at every
 *    evaluation;
 *  - which blocks go into which part of eval (bounded parts keep the C
 *    compiler linear);
 *  - the relations that get a mode (a zero crossing), their guards and
 *    crossing functions; those of assertion conditions too, so that a
 *    failing assertion is located like an event;
 *  - when each assertion is checked: once, after the parameters are set
 *    (it reads parameters only), or after every step;
 *  - the sparsity of d(dx/dt)/dx and its column coloring;
 *  - the output columns and the targets.
 *
 * codegen prints the plan and decides nothing.  `lmdlc check
 * --dump-blocks` prints it too (plan_dump), so what it shows is what is
 * generated.
 */
#ifndef LMDL_PLAN_H
#define LMDL_PLAN_H

#include "dae.h"
#include "structure.h"

#include <stdio.h>

/* X(method, name for --dump-blocks) */
#define PLAN_METHODS(X)                                                    \
    X(PLAN_EXPLICIT, "explicit")       /* one unknown, linear: solved, pivot */ \
    X(PLAN_SYMBOLIC, "symbolic linear") /* pivots[n], values[n] */        \
    X(PLAN_LU, "linear, LU")           /* A[n*n], r0[n] */                \
    X(PLAN_NEWTON, "nonlinear, Newton") /* res[n], jac[n*n] */

#define X_PLANENUM(k, s) k,
typedef enum PlanMethod { PLAN_METHODS(X_PLANENUM) PLAN_METHOD_COUNT } PlanMethod;
extern const char *const plan_method_names[];

/* Where a pivot is checked against zero. */
typedef enum PlanCheck {
    CHECK_NEVER,            /* a nonzero constant */
    CHECK_ONCE,             /* parameters only: once, after they are set */
    CHECK_EVAL,             /* depends on the state: at every evaluation */
} PlanCheck;

/* One block of the BLT order, with its method. */
typedef struct PlanBlock {
    PlanMethod method;      /* which members below are set */
    int n;                  /* unknowns (StBlock.n) */
    const int *vars;        /* StVar of each unknown (StBlock.vars) */
    const int *eqs;         /* StEq of each equation (StBlock.eqs) */
    /* PLAN_EXPLICIT: the unknown's value, its coefficient */
    DaeExpr *solved;        /* -r(0) / pivot */
    DaeExpr *pivot;         /* dr/dx, which must not vanish */
    /* PLAN_SYMBOLIC: unknown i = values[i], solved for i = n-1 .. 0
       (back substitution), after checking pivots[i] */
    DaeExpr **pivots;       /* n */
    DaeExpr **values;       /* n */
    /* PLAN_LU: F(z) = A z + r0, solved as A z = -r0 */
    DaeExpr **A;            /* n * n, row-major */
    DaeExpr **r0;           /* n */
    /* PLAN_NEWTON: residuals and their analytic Jacobian */
    DaeExpr **res;          /* n */
    DaeExpr **jac;          /* n * n, row-major */
    /* where each pivot is checked: pivot_check[0] for an explicit block,
       pivot_check[i] for pivots[i] of a symbolic one */
    PlanCheck *pivot_check;
} PlanBlock;

/* One statement of eval: the value of unknown i of a block solved
   explicitly or symbolically, or a whole block (LU, Newton: i == -1). */
typedef struct PlanStmt {
    int block;              /* index in Plan.blocks */
    int i;                  /* its unknown (symbolic: solved for i = n-1
                               down to 0), or -1 for the whole block */
    DaeExpr *value;         /* a solver's value as printed, with the
                               unknowns only it reads inlined (plan_eval.c),
                               or NULL: the block's */
} PlanStmt;

/* A relation with a mode: a zero crossing of the equations. */
typedef struct PlanRelation {
    DaeExpr *rel;           /* the relation node */
    DaeExpr *crossing;      /* g: > 0 exactly when it holds (>= 0 if not
                               strict); for a table's segment mode
                               (DX_SEGMENT), the query, which the runtime
                               measures against the segment's bounds */
    int guard;              /* the relation it only matters under, or -1 */
    int guard_value;        /* the guard's value under which it matters */
    DaeRelOrigin *origin;   /* where it was written, or NULL */
    bool assert_only;       /* found only in assertion conditions: located
                               like the others, but no event */
    bool reads_alg;         /* its operands read an unknown that is no state */
    bool time_only;         /* the relation functions read nothing but time,
                               parameters, event variables and the modes
                               of other relations: a time event */
    DaeExpr *live;          /* the relation as the relation functions
                               evaluate it: rel, or, when its operands
                               could be written in states alone (the
                               explicit statements they read inlined,
                               plan_eval.c), that (then reads_alg is
                               clear); crossing follows it */
} PlanRelation;

/* One output column: a name of a variable, or an intermediate. */
typedef struct PlanColumn {
    const char *name;       /* its header */
    int var;                /* its DaeVar, or -1 for an intermediate */
    int same_as;            /* an earlier column of the same variable that
                               holds the value, or -1 (this one computes it) */
    DaeExpr *expr;          /* an intermediate's value (var == -1) */
    Dim dim;                /* its dimension */
    const char *description;/* its declaration's comment, or NULL */
    bool output;            /* an output of the top-level model */
    bool complete;          /* reads what only complete evaluations
                               compute (plan_eval.c) */
    DaeExpr *value;         /* the variable's value over the solver's, when
                               its statement is inlined (plan_eval.c): a
                               row computes it without a complete
                               evaluation; or NULL */
} PlanColumn;

/* How a one-parameter assertion compares its parameter with a constant
   (PlanParamCheck.op): name, meaning.  Generated code writes RT_CMP_NAME,
   in the same order (rt_model.h). */
#define PLAN_CMPS(X)                                                          \
    X(GT)           /* p > value */                                          \
    X(GE)           /* p >= value */                                         \
    X(LT)           /* p < value */                                          \
    X(LE)           /* p <= value */                                         \
    X(EQ)           /* p == value */                                         \
    X(NE)           /* p ~= value */                                         \
    X(PLUS_MINUS)   /* p == value || p == -value */

#define X_PLAN_CMP(n) PLAN_CMP_##n,
typedef enum PlanCmp { PLAN_CMPS(X_PLAN_CMP) } PlanCmp;
#undef X_PLAN_CMP

/* An assertion of parameters that compares one parameter with a
   constant: a row of the table the runtime checks (plan_tables.c). */
typedef struct PlanParamCheck {
    int assert_index;       /* in Dae.asserts */
    int param;              /* the parameter */
    PlanCmp op;             /* how it compares */
    double value;           /* the constant */
} PlanParamCheck;

/* A target of initialization. */
typedef struct PlanTarget {
    int var;                /* DaeVar */
    int column;             /* its first output column */
    bool high;              /* priority.high */
    int state1;             /* 1 + the state it is directly, or 0 */
} PlanTarget;

/* The symbolic Jacobians of linearization (plan_linear.c): the sorted
   system F(w, x, u) = 0 as rows in block order, each with the partial
   derivatives of its residual; and each column's gradient.  An entry's
   column is a StVar (an unknown or a state), or -1 - k for input k. */
typedef struct PlanLinear {
    int ninputs;            /* the top model's inputs ... */
    int *input_param;       /* ... their parameters, in order */
    int nrows;              /* equations, in the blocks' order */
    int nblocks;            /* blocks (Plan.nblocks) */
    int *block_start;       /* block b: rows block_start[b] .. [b+1] - 1 */
    int *row_var;           /* per row: the StVar its block solves there */
    int *entry_start;       /* per row: its entries (nrows + 1) */
    int *entry_col;         /* nentries */
    DaeExpr **entry_val;    /* nentries */
    int nentries;
    int *out_start;         /* per column: its gradient's entries
                               (ncolumns + 1) */
    int *out_col;           /* nout_entries */
    DaeExpr **out_val;      /* nout_entries */
    int nout_entries;
    int *der_var;           /* per state: the StVar of its derivative */
} PlanLinear;

typedef struct Plan {
    Arena arena;            /* everything below */
    Dae *d;                 /* the system */
    Structure *s;           /* its structure */
    PlanBlock *blocks;      /* s->blocks.n, in evaluation order */
    int nblocks;            /* entries in blocks */
    int nloops;             /* blocks that are not explicit */
    /* eval's statements (plan_eval.c): first the nsolver that the
       solver's evaluations compute (what the derivatives and the
       relations read), then those that only rows and events need, each
       group in the blocks' order */
    PlanStmt *stmts;        /* nstmts */
    int nstmts;             /* entries in stmts */
    int nsolver;            /* stmts[0 .. nsolver) */
    int ninlined;           /* stmts[nsolver .. nsolver + ninlined): the
                               solver's values computed inside their one
                               reader (plan_inline.c), stored by complete
                               evaluations */
    bool *block_solver;     /* per block: some statement of it is the
                               solver's */
    int *copy_of;           /* per StVar: the StVar whose value it is,
                               when its statement is a plain copy (x = y,
                               y computed before it or a state), which is
                               then not computed and reads print y; or -1 */
    int ncopies;            /* StVars that are copies */
    int *slot;              /* per StVar: its index in x[] (a state, as
                               StVar.slot) or a[]; a[] holds first the
                               unknowns of the solver's statements, in
                               their order, then the others */
    int nalg_solver;        /* a[0 .. nalg_solver) is what the solver's
                               evaluations write */
    int *rel_states;        /* the states the relation functions read,
                               ascending (the runtime interpolates only
                               those to probe them) */
    int nrel_states;        /* entries in rel_states */
    int nparts;             /* parts of eval */
    int nparts_solver;      /* parts 0 .. nparts_solver - 1 hold the
                               solver's statements, the others the rest */
    int *part_start;        /* part k computes stmts part_start[k] ..
                               part_start[k+1] - 1 (nparts + 1 entries) */
    /* the largest subexpressions of parameters alone that eval, the
       loops, the relations and the columns read (plan_eval.c): computed
       once, after the parameters are set, into p[n_params + k] */
    PtrVec consts;          /* DaeExpr*, children before their parents */
    PtrMap const_index;     /* node -> 1 + k: its slot p[n_params + k] */
    int *solver_copy;       /* per parameter: 1 + k when the solver's
                               evaluations and the relations read it from
                               a copy in p[n_params + k], or 0 */
    int nconst_slots;       /* slots after the parameters: the constants
                               and the copies, in the order the solver's
                               evaluations first read them */
    PtrMap recips;          /* a quotient a / b of eval with b constant ->
                               1 / b, a constant: printed a * (1 / b) */
    int nonce;              /* pivots checked once, after the parameters */
    bool *assert_once;      /* per assertion (Dae.asserts): it reads
                               parameters only, so it is checked once,
                               before initialization, not after every step */
    PlanParamCheck *param_checks; /* the one-parameter assertions among
                               those, checked from a table (plan_tables.c) */
    int nparam_checks;      /* entries in param_checks */
    bool *assert_in_table;  /* per assertion: it is in param_checks */
    PlanRelation *rels;     /* relations with a mode, in order of discovery */
    int nrels;              /* entries in rels */
    PtrMap rel_index;       /* relation node -> 1 + its index in rels */
    /* the sparsity of d(dx/dt)/dx: column j (state j) changes only the
       rows jac_rows[jac_colptr[j] .. jac_colptr[j+1]-1]; ncolors == 0:
       dense */
    int ncolors;            /* colors, or 0 */
    int *color;             /* per state */
    int *jac_colptr;        /* nstates + 1 */
    int *jac_rows;          /* jac_colptr[nstates] */
    int ncolumns;           /* output columns: every name of every variable
                               and the event variables, then the
                               intermediates and the integ() states
                               (n_on_request), then the names hidden by
                               ExternalAccess = none (n_hidden) */
    PlanColumn *columns;    /* ncolumns, in that order */
    int *column_info_of;    /* per column: its info (unit, description,
                               kind), one of ninfos distinct ones */
    int ninfos;             /* distinct infos */
    int *info_column;       /* per info: the first column that has it */
    int n_on_request;       /* columns written only when --vars names them */
    int n_hidden;           /* columns never written (targets may read them) */
    int ndropped;           /* intermediates left out: they read a
                               derivative the model does not compute */
    int *first_column;      /* per DaeVar: the column that computes it */
    PlanTarget *targets;    /* variables with a target, in variable order */
    int ntargets;           /* entries in targets */
    PtrVec delays;          /* DX_DELAY nodes, each a history buffer of the
                               runtime, in order of discovery */
    PtrMap delay_index;     /* DX_DELAY node -> 1 + its index in delays */
    int **stvar;            /* per DaeVar, per order: StVar, or -1 */
    PlanLinear *lin;        /* linearization's Jacobians (plan_linear), or
                               NULL: made for lmdlc linearize only */
    int *norders;           /* per DaeVar: entries in stvar[v] */
} Plan;

/* Plans the computation.  Reports a block that cannot be solved (its
   unknown cancels out) through diag and returns NULL then. */
Plan *plan_make(Dae *d, Structure *s);
void plan_free(Plan *p);

/* The plan's part of mode charts (plan_modes.c): each reset's
   state and value, and every block checked in every combination of the
   modes it involves; false after a reported error. */
bool plan_modes(Plan *p);
/* The delays the computation reads (plan_modes.c): Plan.delays; false
   after a reported error (a delay in a differentiated equation). */
bool plan_delays(Plan *p);
/* Whether e reads a delay (plan_modes.c), each node looked at once. */
bool plan_contains_delay(const DaeExpr *e, PtrMap *seen);

/* What eval computes, for the solver and for the rest, in which parts,
   and the constants of parameters it reads (plan_eval.c). */
void plan_eval(Plan *p);

/* Helpers of plan_eval.c that plan_inline.c shares: the expressions
   statement st evaluates into roots (at most plan_stmt_cap(b) of them),
   and whether e is a constant of parameters that is not a leaf. */
int plan_stmt_exprs(const Plan *p, PlanStmt st, DaeExpr **roots, int cap);
/* Calls fn for every variable the runtime reads after a solver's
   evaluation: the states' derivatives, what the relation functions, the
   assertions and the delays' arguments read (plan_eval.c). */
void plan_each_root(const Plan *p, DaeVarVisit fn, void *ctx);
int plan_stmt_cap(const PlanBlock *b);
/* A buffer for plan_stmt_exprs that fits every block's statements (free it). */
DaeExpr **plan_roots_buffer(const Plan *p);
bool plan_is_constant(const DaeExpr *e);
/* The solver's statements that are inlined (moved[j] of all[0 .. nst),
   solver[j] telling the solver's); then, once the slots are laid out,
   the values of the others with the moved ones (Plan.ninlined) inlined
   and their constants gathered, and the columns of moved unknowns
   (plan_inline.c). */
void plan_pick_inlined(const Plan *p, const PlanStmt *all, int nst, const bool *solver,
                       bool *moved);
void plan_inline_values(Plan *p);

/* The tables of the generated code (plan_tables.c): the one-parameter
   assertions and the distinct column infos. */
void plan_tables(Plan *p);

/* The value of column c as an expression of the system's unknowns: its
   variable, an eliminated variable's alias expression, or an
   intermediate's value.  Columns with the same one (hash-consed) always
   hold the same number (plan.c). */
DaeExpr *plan_column_value(const Plan *p, const PlanColumn *c);

/* The symbolic Jacobians for linearization: Plan.lin (plan_linear.c). */
void plan_linear(Plan *p);

/* The StVar of (var, order), or -1 when the system has none (a
   derivative nothing needs). */
int plan_stvar(const Plan *p, int var, int order);
/* ... the StVar whose value a read of (var, order) gets: a copy followed
   to what it copies (Plan.copy_of). */
int plan_read_stvar(const Plan *p, int var, int order);

/* Whether statement st computes unknown i of its block b. */
static inline bool plan_stmt_writes(const PlanBlock *b, PlanStmt st, int i)
{
    return st.i < 0 || st.i == i || b->method == PLAN_EXPLICIT;
}

/* Whether StVar sv (no copy) is a value every evaluation computes: an
   unknown of the solver's statements (after plan_eval's slots). */
static inline bool plan_solver_value(const Plan *p, int sv)
{
    const StVar *x = p->s->vars.items[sv];
    return !x->state && p->slot[sv] < p->nalg_solver;
}

/* The blocks line of `lmdlc check`: "  blocks: N (k algebraic loops: ...)". */
void plan_report(FILE *fp, const Plan *p);
/* The plan as `lmdlc check --dump-blocks` prints it. */
void plan_dump(FILE *fp, const Plan *p);

#endif
