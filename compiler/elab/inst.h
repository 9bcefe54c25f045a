/*
 * inst.h - pass 3, elaborate: the instance tree with its parameters
 * evaluated, conditional sections decided and connections joined.
 *
 * The tree is what elaborate (elaborate.c) hands to the unit check
 * (units_check.h) and to flatten (flatten.h).  Lowering an expression in
 * an instance's context (lower.h) serves all three.
 *
 * Memory.  The tree lives in the instance arena (Model.arena), freed once
 * flatten has made the DAE.  Two things elaboration builds outlive it:
 * the expression DAG (parameter values, targets, input bindings are
 * lowered here) and the run-time parameters.  Both live in a second arena
 * (Model.dae_arena) that flatten hands over to the Dae it creates, with
 * every string they need (parameter names, instance paths, node-set
 * names) copied there, so the DAE points into nothing else.
 */
#ifndef LMDL_INST_H
#define LMDL_INST_H

#include "dae.h"
#include "sema.h"

typedef struct ElabInst ElabInst;

/* arrays: the value of a for-loop's variable while its body is
   elaborated; a chain, innermost loop first. */
typedef struct ElabEnv {
    Sym *var;               /* the loop variable */
    double value;           /* its value in this iteration */
    const struct ElabEnv *up; /* the enclosing loop's, or NULL */
} ElabEnv;

/* The state of one member of one instance. */
typedef struct ElabSlot {
    SemaMember *m;          /* its declaration */
    bool active;            /* declared in an active arm */
    Dim dim;                /* its dimension (not for nodes, instances),
                               computed by the unit check (units/) */
    bool is_bool;           /* a true/false value (the unit check's too) */
    int param;              /* MEM_PARAMETER: DAE parameter index */
    int var;                /* MEM_VARIABLE, MEM_OUTPUT: variable index
                               (Model.vars, and the DaeVar flatten makes);
                               an event variable's: Model.evars */
    DaeExpr *input;         /* MEM_INPUT: its value (binding, source, default);
                               of a vector input, its first element */
    DaeExpr **input_el;     /* MEM_INPUT: a vector input's elements (vec,
                               rows, cols), column-major; else NULL */
    SrcSpan bound_at;       /* MEM_INPUT: where it was bound or connected */
    int node;               /* MEM_NODE: node id */
    ElabInst *child;        /* MEM_INSTANCE: the child */
    AstArg *override;       /* MEM_VARIABLE/OUTPUT: parent's target override */
    DaeExpr *lowered;       /* MEM_INTERMEDIATE: cached lowering */
    DaeExpr **lowered_el;   /* ... of a vector or matrix intermediate: its
                               elements, column-major, or NULL */
    int lowered_rows, lowered_cols; /* ... and its size */
    int lowering;           /* MEM_INTERMEDIATE: 1 while being lowered */
    /* the unit check (units/) */
    bool untyped;           /* MEM_INPUT/OUTPUT declared `NAME;`: dim inferred */
    bool any_unit;          /* MEM_PARAMETER {v, '*'}: dim is its binding's */
    bool fits_any;          /* an unbound '*' parameter whose default is 0:
                               like the literal 0, it fits any unit */
    int dim_state;          /* dim: 0 not known, 1 being computed (or
                               inferred), 2 known */
    struct ElabSlot *driver;/* MEM_INPUT, or a composite's own MEM_OUTPUT:
                               the signal source connected to it, or NULL */
    ElabInst *driver_owner; /* the instance of driver */
    /* arrays */
    bool vec;               /* a parameter, variable, input or output whose
                               value is a vector or matrix: rows * cols
                               scalars, param or var the first (an input's:
                               input_el), in column-major order */
    int rows, cols;         /* its size when vec */
    struct ElabSlot **elems;/* an array of components or nodes (m->rank):
                               element k is elems[k - 1], NULL if undeclared */
    int nelems, capelems;   /* elements (the largest index) and capacity */
    int elem_index;         /* of an element: its index (1 ...); else 0 */
} ElabSlot;

/* The scalars a slot stands for: a vector's or matrix's elements, else 1. */
static inline int elab_slot_numel(const ElabSlot *s)
{
    return s->vec ? s->rows * s->cols : 1;
}

/* A signal connection, checked by the unit check once the units of its
   ends are known (inferred, for an untyped end). */
typedef struct ElabLink {
    ElabSlot *src, *dst;    /* source and sink */
    ElabInst *src_owner, *dst_owner; /* their instances */
    const char *src_text;   /* their names as written, for messages */
    const char *dst_text;
    SrcSpan at;             /* the sink's end in the connect() */
} ElabLink;

struct ElabInst {
    const char *path;       /* "" for the top, "lever", "a.b" */
    const char *dae_path;   /* the same, in the DAE's arena */
    SemaDef *def;           /* its component */
    ElabInst *parent;       /* NULL for the top */
    AstInstance *ast;       /* the parent's instantiation, NULL for the top */
    bool *arm_active;       /* per scope of def */
    ElabSlot *slots;        /* per member, indexed by SemaMember.order */
    PtrVec children;        /* ElabInst*, in declaration order */
    const char *arm_key;    /* arms as a string, to check each variant once */
    int ninteg;             /* integ() states named after it so far */
    SemaExternal external;  /* what the outside may do with it: its own
                               ExternalAccess or an ancestor's, the most
                               hidden */
    const ElabEnv *env;     /* arrays: the loop variables in effect for what
                               is read in this instance's context (set while a
                               for-loop's body is elaborated or walked) */
    const ElabEnv *parent_env; /* arrays: the parent's loop variables when it
                               made this instance (an element m(i)): those its
                               arguments are read with (in the arena) */
};

/* A conserving node of one instance; union-find over connections. */
typedef struct ElabNode {
    int parent;             /* union-find parent */
    int rank;               /* union-find rank */
    SemaDef *domain;        /* its domain */
    ElabInst *inst;         /* owner */
    Sym *name;              /* port name */
    bool reference;         /* joined to '*' */
    int set;                /* index of its set (once connections are joined) */
} ElabNode;

/* A domain parameter as one node reads it (NODE.param): a run-time
   parameter whose value is the network's (docs/simscape.md, "Domain
   parameters"), set once the node sets are known. */
typedef struct ElabNodeParam {
    int node;               /* the node */
    SemaMember *member;     /* the domain's parameter */
    int param;              /* the run-time parameter (of a vector
                               parameter: the first of n in a row) */
    int n;                  /* elements: 1, or a vector's */
    SrcSpan at;             /* the first read */
} ElabNodeParam;

/* A connected node set, made when elaboration joins the connections. */
typedef struct ElabSet {
    SemaDef *domain;        /* its domain */
    PtrVec nodes;           /* ElabNode*, in creation order */
    bool reference;         /* joined to '*': across variables are 0 */
    int *across_var;        /* variable of each across member, by order */
    const char *name;       /* first port's name, for messages (DAE arena) */
} ElabSet;

/* A scalar unknown, as elaboration knows it; flatten makes its DaeVar. */
typedef struct ElabVar {
    const char *name;       /* primary instance path */
    PtrVec names;           /* char*: every name (a node set's: every port) */
    DaeVarKind kind;        /* where it comes from */
    SrcSpan span;           /* declaration */
    ElabInst *owner;        /* its instance (a node set's first port's) */
    Dim dim;                /* dimension */
    DaePriority priority;   /* target priority */
    DaeExpr *start;         /* declared value / target */
    DaeExpr *nominal;       /* nominal magnitude, or NULL */
    const char *description;/* the declaration's trailing comment, or NULL */
    PtrVec hidden;          /* char*: those of names that belong to a child
                               declared with ExternalAccess = none (the same
                               pointers): not CSV columns */
    bool on_request;        /* an integ() state: a column only on request */
} ElabVar;

/* One connect() of nodes, as written: where it is and what it joins, for
   the notes of structural errors and the unconnected-node warning. */
typedef struct ElabConnect {
    SrcSpan span;           /* the statement */
    ElabInst *in;           /* the component it is written in */
    int n;                  /* node ends ('*' is not one) */
    int *node;              /* node id of each end */
    bool *own;              /* each end is a node of `in` itself (not of a
                               child), i.e. it is joined from inside */
} ElabConnect;

/* A name defined by a let or in an inlined function's body, bound to its
   value while lowering reaches it, innermost first.  A barrier (name
   NULL) stands below a function's arguments: nothing outside is seen. */
typedef struct ElabLocal {
    Sym *name;              /* the name, or NULL for a barrier */
    AstDecl *decl;          /* its definition (NULL for an argument) */
    int rows, cols;         /* its size (a function's argument or a let's
                               name may be a vector or matrix) */
    DaeExpr **el;           /* its value, lowered: rows * cols elements,
                               column-major */
    ElabInst *in;           /* the instance it is lowered in */
    struct ElabLocal *up;   /* the next one out */
} ElabLocal;

struct UnitLocal;

/* A dimension elaboration leaves open: the unit check (units/) computes it
   once the tree is built, and stores it where `dim` points (dimensions are
   data of the tree, filled in by a pass of their own). */
typedef struct ElabDimTodo {
    Dim *dim;               /* where it goes: a DaeParam's, an ElabVar's, a
                               DaeTable's */
    bool *is_bool;          /* whether the value is true/false, or NULL */
    ElabInst *in;           /* the instance of slot, or the context of expr */
    ElabSlot *slot;         /* the dimension of this declared member, or NULL */
    AstExpr *expr;          /* the dimension of this expression, read in `in` */
    const ElabEnv *env;     /* expr: the loop variables it was read with */
    struct ElabLocal *locals; /* expr: the let and function names it saw */
} ElabDimTodo;

/* The state of one integ(e): der(var) == integrand, var(0) = 0. */
typedef struct ElabInteg {
    int var;                /* its variable (Model.vars) */
    DaeExpr *integrand;     /* e, lowered */
    ElabInst *in;           /* the instance it is written in */
    SrcSpan span;           /* the integ() call */
} ElabInteg;

/* A composite's own output driven by a child's (an EQ_CONNECTION). */
typedef struct ElabConnEq {
    DaeExpr *lhs, *rhs;     /* lhs == rhs */
    ElabInst *in;           /* the composite */
    SrcSpan span;           /* the connection */
} ElabConnEq;

typedef struct Model {
    Program *prog;          /* resolved definitions */
    long index_end;         /* while lowering an index: what `end` stands
                               for (the size of the dimension indexed),
                               or -1 outside indices */
    ElabInst *top;          /* the top instance */
    Arena *arena;           /* the instance tree */
    Arena dae_arena;        /* what becomes the DAE's: the DAG, parameters */
    DaeExprTable exprs;     /* the expression DAG, until flatten takes it */
    DaeExprTable *t;        /* where lowering builds: &exprs, then the DAE's */
    PtrVec params;          /* DaeParam* (in dae_arena), until flatten */
    PtrVec *plist;          /* where parameters are: &params, then the Dae's
                               (tables' hidden parameters are made in flatten) */
    PtrVec vars;            /* ElabVar*, indexed like the DAE's variables */
    PtrVec evars;           /* ElabVar*: event variables, indexed like the
                               DAE's */
    ElabNode *nodes;        /* every node */
    int nnodes, capnodes;   /* used and allocated */
    PtrVec insts;           /* ElabInst*, creation (preorder) order */
    PtrVec sets;            /* ElabSet*, once connections are joined */
    bool sets_made;         /* sets is complete */
    int *set_group;         /* per set: its propagation group (union-find
                               over sets; connect.c, domain parameters) */
    int *group_next;        /* per set: the next set of its group, from the
                               group's root, or -1 */
    PtrMap group_values;    /* (group, domain parameter) -> its LowerValue* */
    PtrMap node_params;     /* (node, domain parameter) -> 1 + its run-time
                               parameter: NODE.param as a component reads it */
    PtrVec node_param_list; /* ElabNodeParam*, in creation order */
    PtrMap domain_insts;    /* SemaDef* (domain) -> ElabInst*, to lower its
                               declarations and equations */
    PtrMap units_memo;      /* AstExpr* (quantity, string) -> RtUnit*, read
                               once (elab_literal_unit, elab_value_unit) */
    PtrVec dim_todo;        /* ElabDimTodo*: dimensions for the unit check */
    int dim_done;           /* how many of dim_todo it has filled in */
    PtrMap checked;         /* arm_key+def -> checked marker (units) */
    PtrVec conn_eqs;        /* ElabConnEq*: connections that drive own outputs */
    PtrVec connects;        /* ElabConnect*: every connect() of nodes */
    PtrVec integs;          /* ElabInteg*: the states integ() made */
    PtrVec links;           /* ElabLink*: signal connections, checked by the
                               unit check */
    ElabLocal *locals;      /* names lowering sees before members, or NULL */
    struct UnitLocal *ulocals; /* the same for the unit check (units_check.c) */
    PtrMap fn_dims;         /* "function/arg dims" -> its output dims, checked */
    int fn_depth;           /* function bodies being inlined */
    long fn_inlined;        /* user function calls inlined so far */
    PtrMap fn_memo;         /* Sym* (function and its lowered arguments) ->
                               DaeExpr** (its outputs): a call inlined once */
    long loop_iterations;   /* for-loop iterations of every walk so far */
    bool loop_limit_reported; /* LIMIT_LOOP_ITERATIONS was passed */
    PtrMap integ_of;        /* integrand (DaeExpr*) -> 1 + index in integs:
                               one state per distinct integrand */
    double *pvalues;        /* default value of every parameter so far */
    int cap_pvalues;        /* allocated entries of pvalues */
} Model;

/* pass 3 (elaborate.c) */
Model *elab_model(Program *p, SemaDef *top, Arena *a);
/* Library mode (a component checked on its own, never flattened): the
   two sides of every vector equation lowered and their sizes compared,
   as flatten does for a closed model (balance.c).  Lowering here may add
   tables the DAE would not use, so a model that is flattened skips it. */
void elab_check_sizes(Model *m);
void elab_free(Model *m);

/* ---- walking the tree (walk.c) ---- */

/* Calls fn for every section of an instance's active arms, in source
   order (an arm is active when in->arm_active[clause->arm]), once per
   iteration of the for-loops around it, with in->env set. */
typedef void (*ElabSectionFn)(Model *m, ElabInst *in, AstItem *section, void *ctx);
void elab_each_section(Model *m, ElabInst *in, ElabSectionFn fn, void *ctx);

/* Unrolls a for-loop: calls fn(ctx) once per value of its range, with
   in->env binding the loop variable (and restores it); stops early when
   fn returns false.  False when the range is not valid (an error,
   reported when `report`). */
bool elab_unroll(Model *m, ElabInst *in, const AstFor *f, bool report,
                 bool (*fn)(void *ctx), void *ctx);

/* ---- queries on the tree (scope.c) ---- */

/* Default values of the parameters made so far, indexed like the DAE's. */
const double *elab_param_values(Model *m);
ElabSlot *elab_slot(ElabInst *in, Sym *name);
/* Whether an instance's equations may be vector equations: its component
   writes arrays (has_arrays), or one of its members has a vector value
   only this instance gives it (a parameter bound to a vector, an output
   declared with that parameter's value). */
bool elab_inst_arrays(const ElabInst *in);
int elab_find(Model *m, int node);
/* The run-time parameter of domain parameter `member` as node `node`
   reads it (connect.c): the value a node declaration of its network
   sets (NAME = DOMAIN(param = value)), else the domain's default. */
int elab_node_param(Model *m, int node, SemaMember *member, SrcSpan at);
/* The name of element k (0-based, column-major) of a rows x cols array
   called `name`: x(2), or M(1,2) of a matrix. */
const char *elab_element_name(Model *m, const char *name, int k, int rows, int cols);
/* A domain read as an instance (one per domain), so its declarations and
   equations lower like a component's. */
ElabInst *elab_domain_inst(Model *m, SemaDef *dom);
/* The slot of domain member dm in it, with its size (vec, rows, cols):
   a vector domain variable or parameter has its declared value's,
   computed on the first call (a parameter's value is lowered only when
   something reads it). */
ElabSlot *elab_domain_slot(Model *m, SemaDef *dom, SemaMember *dm);
/* Slot s of instance owner with its size known: a domain's parameter is
   sized when first read (elab_domain_slot); every other slot already is. */
ElabSlot *elab_sized(Model *m, ElabInst *owner, ElabSlot *s);
const char *elab_qualify(Model *m, ElabInst *in, const char *name);
/* A copy of s in the arena that becomes the DAE's. */
const char *elab_dae_str(Model *m, const char *s);

/* Every parameter e reads decides structure (a size, an index, a range). */
void elab_mark_structural(Model *m, DaeExpr *e);
/* Parameter `index` decides structure, and so do those it is computed from. */
void elab_mark_param_structural(Model *m, int index);
/* The value of loop variable `var` in env, or NULL when it is not one. */
const ElabEnv *elab_env_find(const ElabEnv *env, const Sym *var);
/* A copy of the chain env in the instance arena (env lives on the stack). */
const ElabEnv *elab_env_copy(Model *m, const ElabEnv *env);
/* A new parameter named `name` with value e (appended to m->plist); its
   index.  Its dimension is recorded by the caller (elab_dim_of_*). */
int elab_new_param(Model *m, const char *name, SrcSpan sp, DaeExpr *e);
/* Parameter `index`. */
DaeParam *elab_param(Model *m, int index);
/* Every parameter's value computed again from its expression (after a
   node's domain parameter got its network's value). */
void elab_reevaluate_params(Model *m);
/* The unit of a {value, 'unit'} literal, read once; NULL after an error. */
const RtUnit *elab_literal_unit(Model *m, AstExpr *quantity);
/* The unit asked of value(x, 'unit'[, mode]), read once; *offset is the
   offset of an affine temperature unit (0 otherwise, and in 'linear'
   mode), so that the value is x / scale - offset.  NULL after an error. */
const RtUnit *elab_value_unit(Model *m, AstExpr *call, double *offset);
/* Records that *dim (and *is_bool, unless NULL) is the dimension of
   member s of `owner`, or of expression e read in `in`: the unit check
   fills it in (units_fill_dims). */
void elab_dim_of_slot(Model *m, Dim *dim, bool *is_bool, ElabInst *owner, ElabSlot *s);
void elab_dim_of_expr(Model *m, Dim *dim, bool *is_bool, ElabInst *in, AstExpr *e);

#endif
