/*
 * dae.h - the flat DAE: run-time parameters, scalar variables, residual
 * equations over a hash-consed expression DAG, and assertions.
 *
 * Expressions are built only through the dae_* constructors, which fold
 * constants and drop neutral terms, and which share structurally equal
 * nodes: building the same expression twice gives the same pointer.  The
 * same constructors serve symbolic differentiation (time derivatives for
 * der() and index reduction, partial derivatives for Jacobians), so the
 * simplification rules live in one place.
 *
 * abs, sign, min and max are lowered to if-expressions over relations at
 * construction, so every zero crossing is an explicit relation node; min
 * and max of constants and parameters, which cross nothing, are fmin and
 * fmax calls instead (builtin.h, FN_NAMED).
 *
 * Folding never hides a value that is not a finite number.  An operation
 * on constants whose result is not finite (1/0, log(0), 0/0) stays an
 * operation, and `0*e`, `e*0` and `e - e` become 0 only when e is known
 * to be finite (DXF_FINITE, set when the node is made, so asking costs
 * nothing): a finite constant; an expression of parameters whose value
 * at the parameters' default values (dae_table_param_value) is finite; a
 * variable, an event variable or time, assumed finite (a non-finite value
 * there is a run-time failure the simulator reports); or +, -, *, neg,
 * an if, a relation, a delay, a table lookup, an everywhere-finite
 * function (builtin_finite: sin, cos, atan, atan2, tanh; abs, sign, min
 * and max are ifs), a division by a constant or parameter expression
 * finite and nonzero at the defaults, or a power with a whole exponent
 * >= 0, whose operands are all known finite.  Any other division or
 * power, and log, sqrt, exp, tan ... of something that reads a variable,
 * is not known finite, so 0 * log(z) stays, and once z = 0 is
 * substituted it is 0 * log(0), an error.  `0/e` becomes 0 only when e is a
 * constant or parameter expression that is finite and nonzero at the
 * defaults; by a variable it stays, as x/x does.  Derivatives drop the
 * terms of a zero derivative without building them.
 * dae_nonfinite_part() finds what is left for the passes to report.
 *
 * A tablelookup is two kinds of node: DX_SEGMENT, the segment
 * of the grid its query is in (a mode, piecewise constant, like a
 * relation), and DX_LOOKUP, the table's value or one of its partial
 * derivatives in the segments of its DX_SEGMENT children.  The derivative
 * of a lookup is a lookup of one order more, in the same segments, so
 * der(), Jacobians and index reduction go through tables exactly.  A
 * lookup whose queries read only parameters is a parameter expression
 * like any other: folding and the checks evaluate its segments and value
 * at the defaults with the simulator's code (rt_table.c).
 */
#ifndef LMDL_DAE_H
#define LMDL_DAE_H

#include "arena.h"
#include "builtin.h"
#include "source.h"
#include "units.h"
#include "rt_kinds.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* X(kind, printed, arity, C operator, precedence): how lmdlc prints the
   node (`lmdlc flatten`), how many children it has (-1: one or two),
   the C operator generated code uses for it (NULL: a call, a literal or
   a conditional), and its precedence when printed (higher binds
   tighter; 9 for atoms and calls). */
#define DAE_EXPR_KINDS(X)                                                  \
    X(DX_CONST, "const", 0, NULL, 9) /* number: u.value */                 \
    X(DX_PARAM, "param", 0, NULL, 9) /* run-time parameter: u.index */     \
    X(DX_VAR, "var", 0, NULL, 9)     /* derivative u.var.order of variable \
                                        u.var.index */                     \
    X(DX_TIME, "time", 0, NULL, 9)   /* simulation time: none */           \
    X(DX_ADD, "+", 2, "+", 4)        /* a + b: u.bin */                    \
    X(DX_SUB, "-", 2, "-", 4)        /* a - b: u.bin */                    \
    X(DX_MUL, "*", 2, "*", 5)        /* a * b: u.bin */                    \
    X(DX_DIV, "/", 2, "/", 5)        /* a / b: u.bin */                    \
    X(DX_POW, "^", 2, NULL, 7)       /* a ^ b: u.bin; C calls pow() */     \
    X(DX_NEG, "neg", 1, "-", 6)      /* -a: u.bin.a */                     \
    X(DX_FUNC, "func", -1, NULL, 9)  /* fn(a) or fn(a, b): u.fn */         \
    X(DX_IF, "if", 3, NULL, 0)       /* if c then a else b: u.cond */      \
    X(DX_LT, "<", 2, "<", 3)         /* relations, 0 or 1: u.bin */        \
    X(DX_LE, "<=", 2, "<=", 3)                                             \
    X(DX_GT, ">", 2, ">", 3)                                               \
    X(DX_GE, ">=", 2, ">=", 3)                                             \
    X(DX_EQ, "==", 2, "==", 3)                                             \
    X(DX_NE, "~=", 2, "!=", 3)                                             \
    X(DX_AND, "&&", 2, "&&", 2)      /* logic, 0 or 1: u.bin */            \
    X(DX_OR, "||", 2, "||", 1)                                             \
    X(DX_NOT, "~", 1, "!", 6)        /* u.bin.a */                         \
    X(DX_SEGMENT, "segment", 1, NULL, 9) /* the segment of u.seg.x on grid \
                                        u.seg.axis of table u.seg.tab: a  \
                                        mode, piecewise constant */       \
    X(DX_LOOKUP, "tablelookup", -1, NULL, 9) /* a table's value (orders 0) \
                                        or partial derivative of orders   \
                                        u.look.d1, d2 in the segments     \
                                        u.look.s1, s2 (s2 NULL in 1-D) */ \
    /* the discrete part */                                                   \
    X(DX_EVAR, "evar", 0, NULL, 9)   /* event variable u.evar.index:        \
                                        piecewise constant, a known input  \
                                        of the continuous equations */     \
    X(DX_INITIAL, "initialevent", 0, NULL, 9) /* true in the initial event \
                                        only (when predicates): none */    \
    X(DX_EDGE, "edge", 1, NULL, 9)   /* edge(b): b turned true at this      \
                                        event iteration (when predicates): \
                                        u.bin.a */                         \
    X(DX_DELAY, "delay", 3, NULL, 9) /* delay(u, tau): u at time - tau, from \
                                        the runtime's history: u.cond     \
                                        {c = u, a = tau, b = History or   \
                                        NULL} (DaeDelay: its bound) */

#define X_DXENUM(k, s, n, c, p) k,
typedef enum DaeExprKind { DAE_EXPR_KINDS(X_DXENUM) DX_KIND_COUNT } DaeExprKind;

/* The table's columns, indexed by kind. */
extern const char *const dae_kind_names[];
extern const int dae_kind_arity[];
extern const char *const dae_kind_cop[];
extern const int dae_kind_prec[];

/* What a node depends on, set at construction from its children, so
   that no question about a shared DAG needs a walk over it. */
enum {
    DXF_VAR = 1,            /* mentions a variable (any derivative order) */
    DXF_TIME = 2,           /* mentions time */
    DXF_REL = 4,            /* contains a relation (a zero crossing) */
    DXF_EVAR = 8,           /* mentions an event variable (or an event) */
    DXF_FINITE = 16,        /* known to be a finite number (see above: what
                               lets 0 * e and e - e fold to 0) */
};

typedef struct DaeExpr DaeExpr;

/* A table of a tablelookup call: grids and data are consecutive run-time
   parameters, so --param reaches them (the grids are checked to be
   monotonic again after it). */
typedef struct DaeTable {
    int index;              /* its place in DaeExprTable.tables */
    int axes;               /* 1 or 2 */
    int n[2];               /* points of each grid */
    int grid[2];            /* the first parameter of each grid */
    int data;               /* the first parameter of the data (n[0] values,
                               or n[0] * n[1], column-major) */
    int interp;             /* RT_INTERP_* (rt_kinds.h) */
    int extrap;             /* RT_EXTRAP_* */
    Dim dim[2];             /* the grids' units */
    const char *instance;   /* instance path of the call */
    SrcSpan span;           /* the call */
} DaeTable;

struct DaeExpr {
    uint8_t kind;           /* DaeExprKind: which member of u is live */
    uint8_t flags;          /* DXF_* */
    uint32_t id;            /* creation order: a stable sort key */
    uint32_t hash;          /* structural hash */
    uint32_t vars;          /* one bit per variable below (a Bloom filter:
                               a clear bit proves a variable is absent) */
    DaeExpr *next;          /* hash-table chain */
    union {
        double value;                           /* DX_CONST */
        int index;                              /* DX_PARAM */
        struct { int index, order; } var;       /* DX_VAR */
        struct { DaeExpr *a, *b; } bin;         /* operators, relations */
        struct { DaeFunc fn; DaeExpr *a, *b; } fn;  /* DX_FUNC (b for atan2) */
        struct { DaeExpr *c, *a, *b; } cond;    /* DX_IF */
        struct { const DaeTable *tab; DaeExpr *x; int axis; } seg; /* DX_SEGMENT */
        struct { DaeExpr *s1, *s2; int d1, d2; } look;   /* DX_LOOKUP */
        struct { int index; double start; } evar; /* DX_EVAR: start is its
                                    value before the first event at the
                                    parameters' defaults (dae_eval) */
    } u;
};

/* The expression table: owner of every node of one DAE. */
typedef struct DaeExprTable {
    Arena *arena;           /* node storage */
    DaeExpr **buckets;      /* hash buckets */
    size_t nbuckets;        /* power of two */
    uint32_t count;         /* nodes made */
    PtrMap origin;          /* relation node -> DaeRelOrigin*, for the event log */
    PtrMap delays;          /* DX_DELAY node -> DaeDelay* */
    uint32_t *mark;         /* per node id: visit stamp of the last walk */
    size_t nmark;           /* entries in mark */
    uint32_t stamp;         /* the current walk's stamp */
    const DaeExpr **stack;  /* a walk's stack, kept between walks */
    size_t nstack;          /* its capacity */
    double *pvalue;         /* default value of each parameter (NAN until
                               recorded): what folding knows of parameters */
    int npvalue, cap_pvalue;/* entries covered (every DX_PARAM's index is
                               below npvalue) and allocated */
    PtrMap dvalue;          /* node -> 1 + index in dvals: its value at the
                               defaults, once asked (parameter expressions) */
    double *dvals;          /* those values */
    size_t ndvals, cap_dvals; /* used and allocated */
    PtrVec tables;          /* DaeTable*, in creation order */
    DaeExpr **leaves;       /* the nodes of variables (orders 0 and 1) and
                               parameters by index, once made: asked for
                               far more often than made, without a hash
                               probe (DAE_LEAF_* slots per index) */
    size_t cap_leaves;      /* indices covered */
    DaeExpr *unit_consts[3];/* the constants -1, 0 and 1, once made: half
                               of all lookups in a big model */
    PtrMap diff_memo;       /* dae_diff_time and dae_diff_var's, for a
                               caller without its own (emptied after each) */
} DaeExprTable;

void dae_table_init(DaeExprTable *t, Arena *a);
void dae_table_free(DaeExprTable *t);
/* Records the default value of parameter `index` (elaboration, as each
   parameter is made, before any expression reads it). */
void dae_table_param_value(DaeExprTable *t, int index, double v);
/* Drops the memo of values at the defaults (it is rebuilt when needed):
   simplification, its main user, calls it when done. */
void dae_table_forget_values(DaeExprTable *t);

DaeExpr *dae_const(DaeExprTable *t, double v);
DaeExpr *dae_param(DaeExprTable *t, int index);
DaeExpr *dae_var(DaeExprTable *t, int index, int order);
DaeExpr *dae_time(DaeExprTable *t);
DaeExpr *dae_binary(DaeExprTable *t, DaeExprKind k, DaeExpr *a, DaeExpr *b);
DaeExpr *dae_neg(DaeExprTable *t, DaeExpr *a);
DaeExpr *dae_not(DaeExprTable *t, DaeExpr *a);
DaeExpr *dae_func(DaeExprTable *t, DaeFunc fn, DaeExpr *a, DaeExpr *b);
DaeExpr *dae_if(DaeExprTable *t, DaeExpr *c, DaeExpr *a, DaeExpr *b);
DaeExpr *dae_abs(DaeExprTable *t, DaeExpr *a);
DaeExpr *dae_sign(DaeExprTable *t, DaeExpr *a);
DaeExpr *dae_min(DaeExprTable *t, DaeExpr *a, DaeExpr *b);
DaeExpr *dae_max(DaeExprTable *t, DaeExpr *a, DaeExpr *b);
/* tablelookup: a new table (filled in by the caller), the segment of x on
   one of its grids, and the value or derivative in segments s1, s2 (NULL
   for a 1-D table); a derivative beyond the interpolant's degree is 0. */
DaeTable *dae_table_new(DaeExprTable *t);
DaeExpr *dae_segment(DaeExprTable *t, const DaeTable *tab, int axis, DaeExpr *x);
DaeExpr *dae_lookup(DaeExprTable *t, DaeExpr *s1, DaeExpr *s2, int d1, int d2);
/* A relation or a segment: a node whose value a mode freezes. */
bool dae_is_mode(const DaeExpr *e);
#define dae_add(t, a, b) dae_binary(t, DX_ADD, a, b)
#define dae_sub(t, a, b) dae_binary(t, DX_SUB, a, b)
#define dae_mul(t, a, b) dae_binary(t, DX_MUL, a, b)
#define dae_div(t, a, b) dae_binary(t, DX_DIV, a, b)

bool dae_is_const(const DaeExpr *e, double v);
bool dae_is_relation(const DaeExpr *e);
static inline bool dae_is_leaf(const DaeExpr *e)
{
    return e->kind == DX_CONST || e->kind == DX_PARAM || e->kind == DX_VAR
           || e->kind == DX_TIME || e->kind == DX_EVAR || e->kind == DX_INITIAL;
}
DaeExpr *dae_evar(DaeExprTable *t, int index, double start);
DaeExpr *dae_initial(DaeExprTable *t);
DaeExpr *dae_edge(DaeExprTable *t, DaeExpr *b);
DaeExpr *dae_delay(DaeExprTable *t, DaeExpr *u, DaeExpr *tau, DaeExpr *history);

/* Where a delay was written and its bound (DaeExprTable.delays). */
typedef struct DaeDelay {
    const char *instance;   /* instance path */
    SrcSpan span;           /* the call */
    DaeExpr *max;           /* MaximumDelay (parameters only); for a
                               parametric tau without one, tau itself */
} DaeDelay;

/* Rebuilds e with every DX_VAR mapped through `map` (which returns the
   replacement node for a variable leaf). */
typedef DaeExpr *(*DaeVarMap)(void *ctx, DaeExprTable *t, const DaeExpr *leaf);
DaeExpr *dae_substitute(DaeExprTable *t, DaeExpr *e, DaeVarMap map, void *ctx,
                        PtrMap *memo);
/* The same for the leaves whose DXF_* flags meet `leaves` (DXF_EVAR:
   event variables and initialevent); a subtree without such a leaf is
   returned as it is, unvisited. */
DaeExpr *dae_map_leaves(DaeExprTable *t, DaeExpr *e, uint8_t leaves, DaeVarMap map,
                        void *ctx, PtrMap *memo);

/* The derivatives below memoise in `memo`, which the caller may keep
   across calls of the same kind; NULL: a memo of the table's own, for
   one derivative at a time. */
/* Time derivative: d/dt, with der(var^(k)) = var^(k+1). */
DaeExpr *dae_diff_time(DaeExprTable *t, DaeExpr *e, PtrMap *memo);
/* Partial derivative with respect to variable (index, order). */
DaeExpr *dae_diff_var(DaeExprTable *t, DaeExpr *e, int index, int order,
                      PtrMap *memo);

/* Partial derivative with respect to parameter `param` (a top-level
   input's, for linearization): a parameter bound to an expression of
   others is followed through its DaeParam.expr (params: DaeParam*). */
DaeExpr *dae_diff_param(DaeExprTable *t, const PtrVec *params, DaeExpr *e, int param,
                        PtrMap *memo);

/* The children of e, in a fixed order (a function's arguments; an if's
   condition, then, else; an operator's operands); returns how many. */
int dae_children(const DaeExpr *e, DaeExpr *kids[3]);
/* What evaluating e reads: its children, then, for a lookup, its
   segments' queries (read also where the segments are frozen modes);
   returns how many. */
int dae_operands(const DaeExpr *e, DaeExpr *ops[5]);

/* Whether e mentions a variable, time or an event variable: whether it
   can change during a run (the cached flags: O(1)). */
static inline bool dae_depends_on_state(const DaeExpr *e)
{
    return (e->flags & (DXF_VAR | DXF_TIME | DXF_EVAR)) != 0;
}
/* Whether e can change between events: it mentions a variable or time.
   A relation only on event variables changes at events only, and needs
   no mode or zero crossing. */
static inline bool dae_is_continuous(const DaeExpr *e)
{
    return (e->flags & (DXF_VAR | DXF_TIME)) != 0;
}
static inline bool dae_has_var(const DaeExpr *e)
{
    return (e->flags & DXF_VAR) != 0;
}
/* Whether e mentions variable `index` at derivative `order`.  Each node is
   visited at most once, and only where the Bloom bits allow the variable,
   so a deep shared DAG costs its size at worst. */
bool dae_mentions_var(DaeExprTable *t, const DaeExpr *e, int index, int order);
/* The Bloom bit of variable `index` at derivative `order` (DaeExpr.vars). */
uint32_t dae_var_bit(int index, int order);
/* Calls fn once for each distinct variable leaf (index, order) under any
   of the n roots, each node visited at most once. */
typedef void (*DaeVarVisit)(void *ctx, int index, int order);
void dae_each_var(DaeExprTable *t, DaeExpr *const *roots, int n, DaeVarVisit fn, void *ctx);

/* The part of e whose value is not a finite number at the parameters'
   default values (dae_table_param_value), or NULL.  Only what is surely
   evaluated is looked at: each largest piece of e that reads no variable
   or time, the operands of relations and the condition of an if, but a
   branch of an if (or the second operand of && and ||) only when the
   condition is known at the defaults.  The part returned is the innermost
   operation whose operands are finite (log(0), not 0 * log(0)). */
const DaeExpr *dae_nonfinite_part(DaeExprTable *t, const DaeExpr *e);

/* Numeric evaluation of a parameter-only expression; NAN if e mentions a
   variable or time. */
double dae_eval_params(const DaeExpr *e, const double *params);
/* Numeric evaluation at a point: vars[v] is variable v (derivatives count
   as 0), time is the time.  With vars NULL, variables and time are NAN. */
double dae_eval(const DaeExpr *e, const double *params, const double *vars, double time);

/* Infix printing; names come from a callback. */
typedef struct DaeNames {
    const char *(*param)(void *ctx, int index);
    const char *(*var)(void *ctx, int index);
    void *ctx;
    const char *(*evar)(void *ctx, int index); /* or NULL: ev[k] */
    long budget;            /* the most nodes one expression prints, then
                               "..." (a DAG printed as a tree may be
                               exponentially larger); 0: 100,000 */
} DaeNames;
void dae_print_expr(FILE *fp, const DaeExpr *e, const DaeNames *names);

/* ---- the flat system ------------------------------------------------------ */

typedef enum DaePriority { PRIO_NONE, PRIO_LOW, PRIO_HIGH } DaePriority;

typedef struct DaeParam {
    const char *name;       /* instance path, "lever.r12" */
    SrcSpan span;           /* declaration */
    DaeExpr *expr;          /* default: constant or expression of earlier ones */
    double value;           /* default value, SI */
    Dim dim;                /* dimension */
    bool is_bool;           /* declared true/false */
    bool structural;        /* decides structure: fixed at compile time */
    bool input;             /* a top-level input's value (docs/fmi.md) */
    unsigned char access;   /* RT_PARAM_* (rt_kinds.h): whether --param may
                               set it */
    const char *unit;       /* the unit its declaration's value is written
                               in ('mm', 'degC'), in which --param reads a
                               bare number; NULL: SI */
    bool unit_relative;     /* ... a temperature difference there
                               (Conversion = relative) */
} DaeParam;

typedef enum DaeVarKind {
    VAR_COMPONENT,          /* a component's variable */
    VAR_OUTPUT,             /* a component's output */
    VAR_NODE,               /* an across variable of a connected node set */
} DaeVarKind;

typedef struct DaeVar {
    const char *name;       /* primary instance path */
    const char *display;    /* name for messages and state lists, or NULL:
                               a component's alias of a node variable */
    PtrVec names;           /* char*: every name of it (node ports, aliases) */
    bool *name_hidden;      /* per name: in a child declared with
                               ExternalAccess = none (not a column the user
                               sees); NULL when none is */
    bool on_request;        /* an integ() state: a column only on request */
    DaeVarKind kind;        /* where it comes from */
    SrcSpan span;           /* declaration */
    const char *instance;   /* instance path of the owner */
    Dim dim;                /* dimension */
    DaePriority priority;   /* target priority */
    DaeExpr *start;         /* declared value / target (parameters only) */
    DaeExpr *nominal;       /* nominal magnitude, or NULL */
    const char *description;/* the declaration's trailing comment, or NULL */
    bool inertial;          /* belongs to a mass or inertia: preferred state */
    bool differentiated;    /* appears under der() in some equation */
    /* set by simplification */
    bool eliminated;        /* replaced by alias_expr */
    DaeExpr *alias_expr;    /* its value in terms of remaining variables */
    struct DaeEq *eliminated_by; /* the equation that defined it */
    int set;                /* VAR_NODE: its node set (Dae.sets); else -1 */
} DaeVar;

typedef enum DaeEqKind {
    EQ_COMPONENT,           /* written in a component */
    EQ_DOMAIN,              /* a domain equation of a node set */
    EQ_CONSERVATION,        /* sum of through variables at a node set */
    EQ_CONNECTION,          /* output to output of the composite */
} DaeEqKind;

typedef struct DaeEq DaeEq;
struct DaeEq {
    DaeExpr *lhs, *rhs;     /* lhs == rhs */
    int chart;              /* a mode chart's position: the chart, else -1 */
    DaeEqKind kind;         /* origin kind */
    const char *instance;   /* instance path ("" for the top model) */
    SrcSpan span;           /* source of the equation */
    const char *what;       /* for node-set equations: the set's name */
    int set;                /* for node-set equations: Dae.sets; else -1 */
    DaeExpr *orig_lhs, *orig_rhs; /* as flattened, before simplification */
};

typedef struct DaeAssert {
    DaeExpr *cond;          /* must stay true */
    const char *message;    /* the user's message */
    const char *instance;   /* instance path */
    SrcSpan span;           /* the assert */
    bool warn;              /* Warn = true, Action = warn: a warning only */
} DaeAssert;

/* Where a relation came from, for the event log. */
typedef struct DaeRelOrigin {
    const char *instance;   /* instance path */
    SrcSpan span;           /* the condition's source */
} DaeRelOrigin;

/* An equation that repeats others: once the values they fixed are used,
   it reduces to 0 == 0 (or to parameters only).  Simplification finds
   it; the structural analysis reports it with the variables it leaves
   undetermined. */
enum { DAE_FIXED_NOTES = 4 };
typedef struct DaeRedundant {
    struct DaeEq *eq;       /* the equation */
    int fixed[DAE_FIXED_NOTES]; /* variables it mentions that other equations
                               had fixed (DaeVar indices) */
    int nfixed;             /* entries in fixed */
} DaeRedundant;

/* A component instance, kept so that errors can point at the user's own
   lines: where it is instantiated. */
typedef struct DaeInstance {
    const char *path;       /* instance path, the same pointer as the
                               DaeEq.instance and DaeVar.instance of its
                               equations and variables; "" for the top */
    SrcSpan decl;           /* its instantiation in its parent; none for the top */
    int parent;             /* index in Dae.instances; -1 for the top */
    bool user;              /* decl is written outside the standard library */
} DaeInstance;

/* A connected node set, for the same purpose: its ports are
   Dae.ports[port0 .. port0 + nports - 1]. */
typedef struct DaeNodeSet {
    const char *name;       /* its first port ("lever.T1") */
    int port0, nports;      /* its ports, in declaration order */
} DaeNodeSet;

/* A port of a node set: node `name` of instance `inst`. */
typedef struct DaePort {
    const char *name;       /* the node's name (interned: lives for the run) */
    int inst;               /* index in Dae.instances */
} DaePort;

/* A connect() statement that joins nodes. */
typedef struct DaeConnect {
    SrcSpan span;           /* the statement */
    int set;                /* the node set it is part of (Dae.sets) */
    bool user;              /* written outside the standard library */
} DaeConnect;

/* An intermediate, logged on request (--vars): a named expression of the
   state. */
typedef struct DaeObserved {
    const char *name;       /* instance path, "fric.vrel" */
    DaeExpr *expr;          /* its value (substituted by simplification) */
    Dim dim;                /* its dimension */
} DaeObserved;
/* ---- the discrete part -----------------------------------------

   Event variables are piecewise constant: the continuous equations read
   them as known inputs (DX_EVAR), like parameters that change at events,
   and only the discrete updates of the event iteration change them: when
   clauses, and the mode charts, whose active mode is an event variable
   too (the mode's 1-based index).  A mode chart's equations are, per
   position, if-expressions over its mode. */
typedef struct DaeEvar {
    const char *name;       /* instance path ("sh.y_held"; a chart: "fr.mc") */
    const char *instance;   /* its component */
    SrcSpan span;           /* declaration */
    Dim dim;                /* dimension */
    DaeExpr *start;         /* value before the first event (parameters only;
                               a chart: its initial mode) */
    const char *description;/* the declaration's trailing comment, or NULL */
    int chart;              /* the chart whose mode it is, or -1 */
    bool hidden;            /* no column: a chart's pending target mode */
    bool unseen;            /* its column is never written: it is under
                               ExternalAccess = none */
} DaeEvar;

/* NAME = expr in a when branch or an entry action. */
typedef struct DaeAssign {
    int evar;               /* the event variable */
    DaeExpr *value;         /* its new value */
    SrcSpan span;           /* the assignment */
} DaeAssign;

/* One branch (when or elsewhen) of a when statement. */
typedef struct DaeBranch {
    DaeExpr *pred;          /* the event predicate (DX_EDGE, DX_INITIAL) */
    PtrVec assigns;         /* DaeAssign*, simultaneous */
    SrcSpan span;           /* the branch */
} DaeBranch;

typedef struct DaeWhen {
    PtrVec branches;        /* DaeBranch*, tried in order */
    const char *instance;   /* its component */
    SrcSpan span;           /* the statement */
} DaeWhen;

/* A state reset: at the entry into a mode, state `var` (order `order`)
   takes the value that makes `res` zero (the mode's equation that
   constrains only states; structure.c differentiates it for the
   integration). */
typedef struct DaeReset {
    DaeExpr *res;           /* the constraint's residual, as written */
    int var, order;         /* the state it sets (set by the mode analysis) */
    DaeExpr *value;         /* that state's new value (linear solve) */
    SrcSpan span;           /* the equation */
} DaeReset;

typedef struct DaeMode {
    const char *name;       /* the mode */
    SrcSpan span;           /* its declaration */
    PtrVec entry;           /* DaeAssign*: entry actions */
    PtrVec resets;          /* DaeReset*: constraints enforced at entry */
    PtrVec eqs;             /* DaeEq*: its equations' positions (one DaeEq
                               per position holds every mode's) */
} DaeMode;

typedef struct DaeTransition {
    int path[3];            /* modes (0-based): from, [instant,] to */
    int n;                  /* 2 or 3 */
    DaeExpr *pred;          /* level-triggered predicate */
    SrcSpan span;           /* the statement */
} DaeTransition;

typedef struct DaeChart {
    const char *name;       /* the chart's name */
    const char *instance;   /* its component */
    SrcSpan span;           /* the chart */
    int evar;               /* the event variable holding its mode */
    int next;               /* the hidden event variable holding the mode a
                               compound transition goes on to after its
                               instantaneous mode (1-based), or 0 */
    PtrVec modes;           /* DaeMode* */
    PtrVec transitions;     /* DaeTransition*, tested in order */
    int neqs;               /* equations of each mode */
} DaeChart;

/* Calls fn once for every distinct node of the equations' sides; fn
   returns whether to visit the node's children (dae_discrete.c). */
typedef bool (*DaeNodeFn)(void *ctx, DaeExpr *e);
struct Dae;
void dae_each_eq_node(struct Dae *d, DaeNodeFn fn, void *ctx);

/* Every expression of the discrete part, mapped through fn (simplify's
   substitution of eliminated variables). */
typedef DaeExpr *(*DaeExprMap)(void *ctx, DaeExpr *e);
struct Dae;
void dae_discrete_map(struct Dae *d, DaeExprMap fn, void *ctx);
const char *dae_evar_name(void *dae, int index);
/* e with event variable `evar` replaced by `value` (folded: a mode
   chart's if-expressions over its mode reduce to one mode's branch). */
DaeExpr *dae_subst_evar(DaeExprTable *t, DaeExpr *e, int evar, double value, PtrMap *memo);

typedef struct Dae {
    Arena arena;            /* everything below, strings included */
    DaeExprTable t;         /* the expression DAG */
    PtrVec params;          /* DaeParam* */
    PtrVec vars;            /* DaeVar* */
    PtrVec eqs;             /* DaeEq* */
    PtrVec asserts;         /* DaeAssert* */
    PtrVec observed;        /* DaeObserved*: the intermediates, for --vars */
    int ncomponents;        /* component instances */
    int raw_eqs, raw_vars;  /* counts before simplification */
    int nvars_left;         /* variables not eliminated */
    PtrVec redundant;       /* DaeRedundant*: equations that reduced to 0 == 0
                               (found by simplify, reported by structure) */
    DaeInstance *instances; /* every instance, in preorder (the top first) */
    int ninstances;         /* entries in instances */
    DaeNodeSet *sets;       /* node sets, numbered like elaboration's */
    int nsets;              /* entries in sets */
    DaePort *ports;         /* every set's ports, set after set */
    DaeConnect *connects;   /* every connect() of nodes */
    int nconnects;          /* entries in connects */
    PtrVec evars;           /* DaeEvar*: event variables */
    PtrVec whens;           /* DaeWhen* */
    PtrVec charts;          /* DaeChart* */
} Dae;

/* A DAE that takes over an arena and the expression table built in it
   (the caller forgets both): flatten adopts what elaboration built. */
Dae *dae_new(const Arena *arena, const DaeExprTable *t);
void dae_free(Dae *d);
const char *dae_var_name(void *dae, int index);

/* The distinct parameters e reads, in the order first met: writes up to
   cap indices to out and returns how many there are. */
int dae_param_reads(const DaeExpr *e, int *out, int cap);
/* " (lever.r12 = -1 m, lever.r23 = 0.1 m)": the parameters e reads, with
   their values (SI, with units), for an assert's message; "" if none. */
void dae_param_values_text(const Dae *d, const DaeExpr *e, const double *values,
                           char *buf, size_t len);
/* The name to show a user: display if set, else name. */
const char *dae_shown_name(const DaeVar *v);
const char *dae_param_name(void *dae, int index);
DaeNames dae_names(Dae *d);
/* The equation as `lhs == rhs`, cut to len with "..." */
void dae_eq_text(Dae *d, const DaeEq *q, char *buf, size_t len);
/* An expression as lmdlc prints it, cut to len with "..." */
void dae_expr_text(Dae *d, const DaeExpr *e, char *buf, size_t len);
/* A variable as a user reads it: name, der(name), der(der(name)), ... */
void dae_fput_var(FILE *fp, const char *name, int order);

/* Where an equation comes from, described the way each message needs it
   (dae_print.c is the one place that knows the wording). */
typedef enum DaeOriginStyle {
    ORIGIN_PROSE,   /* "the balance of the through variable at node lever.T1",
                       "the domain equation of node ...", "this equation of
                       lever" (error messages) */
    ORIGIN_SHORT,   /* "balance at node lever.T1", "lever (file:line)" (notes) */
    ORIGIN_LISTING, /* "node lever.T1, file:line", "lever, file:line",
                       "(top), file:line" (`lmdlc flatten`) */
    ORIGIN_INDEX,   /* "node lever.T1", "lever, file:line" (index report) */
    ORIGIN_BLOCK,   /* " (node lever.T1)", " (in lever)", "" (block
                       descriptions of generated code) */
} DaeOriginStyle;
/* kind, instance, node (the set's name for a node-set equation) and span
   describe the origin; returns buf. */
const char *dae_origin_text(char *buf, size_t len, DaeOriginStyle style, DaeEqKind kind,
                            const char *instance, const char *node, SrcSpan span);
const char *dae_eq_origin(char *buf, size_t len, DaeOriginStyle style, const DaeEq *q);

/* Prints the system as `lmdlc flatten` shows it. */
void dae_print(FILE *fp, Dae *d, const char *model, bool simplified);
/* Notes naming the equations that had fixed each variable of r->fixed. */
void dae_note_fixed(const Dae *d, const DaeRedundant *r);
/* What an error involves, so that it can end with notes at the user's own
   lines: the instantiation of each instance involved (the nearest one
   written outside the standard library: for lever.pivot inside a library
   composite, the user's `lever = ...`) and each connect() of each node
   set involved.  Equations bring their instance, their node set and the
   sets of the node variables they mention; node sets bring the instances
   of their ports. */
typedef struct DaeCulprits {
    Dae *d;
    char *inst;             /* per Dae.instances: involved */
    char *set;              /* per Dae.sets: involved */
    PtrMap index;           /* instance path (pointer) -> index + 1 */
} DaeCulprits;
void dae_culprits_init(DaeCulprits *c, Dae *d);
void dae_culprit_eq(DaeCulprits *c, const DaeEq *q);
void dae_culprit_var(DaeCulprits *c, int var);
void dae_culprit_set(DaeCulprits *c, int set);
/* The notes, in source order (at most 12), then frees c; returns where
   the last note is (a line of the user's), or src_none. */
SrcSpan dae_note_culprits(DaeCulprits *c);
/* The notes for an error about equation q, with the equations that fixed
   the variables of r (which may be NULL). */
void dae_note_eq_places(Dae *d, const DaeEq *q, const DaeRedundant *r);

/* The distinct variables e mentions (any derivative order), in the order
   first met: writes up to cap indices and returns how many there are. */
int dae_var_reads(const DaeExpr *e, int *out, int cap);

/* Where a relation node came from (copied along substitutions). */
DaeRelOrigin *dae_rel_origin(DaeExprTable *t, const DaeExpr *rel);

#endif
