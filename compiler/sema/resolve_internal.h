/*
 * resolve_internal.h - what the files of the resolve pass share (resolve.c
 * lists them); no other pass includes it: the pass's interface is
 * sema.h.  Functions shared between the files carry the prefix rs_.
 */
#ifndef LMDL_RESOLVE_INTERNAL_H
#define LMDL_RESOLVE_INTERNAL_H

#include "sema.h"

#include "diag.h"

/* One loaded file and the definitions in it. */
typedef struct SemaFile {
    int file;           /* source id */
    AstFile *ast;       /* its tree */
    SymMap defs;        /* Sym* -> SemaDef* */
    PtrVec imports;     /* AstImport*: its imports that name something */
} SemaFile;

/* ---- finding definitions (resolve_lookup.c, resolve_packages.c) ---- */

/* The loaded unit of a source file, or NULL. */
SemaFile *rs_unit_of(Program *p, int file);
/* The unit for a path, loading it if needed; NULL if it is not a file. */
SemaFile *rs_unit_for_path(Program *p, const char *path);
/* The length of a source file's name without its extension (.lmdl or
   Simscape's .ssc), or 0 for another file. */
size_t rs_source_stem(const char *file);
/* NAME in DIR/NAME.lmdl or DIR/NAME.ssc, or NULL. */
SemaDef *rs_find_in_dir(Program *p, const char *dir, Sym *name);
/* sema_lookup, reporting at `at` a plain name that is ambiguous. */
SemaDef *rs_lookup_at(Program *p, Sym *name, int from, SrcSpan at);
/* Checks a new file's imports and keeps those that name something. */
void rs_check_imports(Program *p, SemaFile *u);
/* A plain name through the imports of the file it is written in. */
SemaDef *rs_find_imported(Program *p, SemaFile *u, Sym *name);
/* "translational.Mass" for every library file, for suggestions. */
const char *rs_suggest_qualified(Program *p, const char *name);
/* "+a/+b/c.ssc or a/b/c.lmdl" for the name a.b.c: the files below a
   root that would define it, for messages. */
const char *rs_package_path(Arena *a, const AstExpr *name);

/* ---- member tables (resolve_members.c) ---- */

/* Whether arm inner is arm outer or lies inside it. */
bool rs_scope_within(const SemaDef *d, int inner, int outer);
/* The declaration of `name` visible from arm `scope`, or NULL. */
SemaMember *rs_visible(const SemaDef *d, const Sym *name, int scope);
SemaMember *rs_visible_somewhere(const SemaDef *d, const Sym *name, int scope);
/* A new arm of d inside arm parent, a clause of the if `item`. */
int rs_new_scope(Program *p, SemaDef *d, int parent, const void *item);
/* Whether arms a and b can never be active together. */
bool rs_exclusive(const SemaDef *d, int a, int b);
/* Declares the members of one arm and of the arms nested in it. */
void rs_collect_members(Program *p, SemaDef *d, PtrVec *items, int scope);
/* resolve_inherit.c: the component's attributes, and its base's items
   in front of its own (component NAME < Base). */
void rs_inherit(Program *p, SemaDef *d);
/* resolve_enums.c: the value of an enumeration member written as the
   dotted name e (pkg.Class.member), true when e names one (an unknown
   member of a known enumeration is reported, and true); false when e is
   no enumeration's. */
bool rs_enum_value(Program *p, AstExpr *e, double *value);
/* The file +a/+b/C.EXT (or a/b/C.EXT) of the first k parts of dotted
   name e, a.b.C, on the search path, or NULL. */
const char *rs_package_file(Program *p, const AstExpr *e, int k, const char *ext);
/* Whether the first part of dotted name e is a package on the search path
   (a folder +a or a). */
bool rs_names_package(Program *p, const AstExpr *e);
/* resolve_setup.c: a legacy `function setup` as assertions and values. */
void rs_lower_setup(Program *p, SemaDef *d);

/* resolve_order.c: puts each arm's declarations after the parameters
   their values read (Simscape's any-order parameters); a cycle is an
   error and sets d->cyclic. */
void rs_order_members(Program *p, SemaDef *d);
/* Whether a definition of kind dk may have a section of kind k. */
bool rs_section_allowed(AstDefKind dk, AstSectionKind k);
/* The value of a section's attribute `name` as written ("private",
   "true"), or NULL when the section does not give it. */
const char *rs_section_attr(const AstItem *it, const char *name);

/* ---- checking bodies ---- */

/* What an expression may refer to. */
typedef enum RefMode {
    REF_EQUATION,       /* anything visible, der and time allowed */
    REF_PARAMETER,      /* earlier parameters only */
    REF_CONDITION,      /* parameters only (events' and delay's options) */
    REF_GUARD,          /* parameters declared before a conditional section */
    REF_ARGUMENT,       /* the enclosing component's parameters */
    REF_VALUE,          /* a variable's target: parameters only */
    REF_FUNCTION,       /* a function's body: its locals, no der or time */
    REF_INDEX,          /* an index or a for-loop's range: parameters and
                           loop variables */
} RefMode;

/* A name defined by a let or in a function's body (an argument or a
   definition), innermost first.  A barrier stands below a function's
   names: nothing outside the function is visible from its body. */
typedef struct ResolveLocal {
    Sym *name;                  /* the name (NULL for a barrier) */
    SrcSpan span;               /* where it is defined */
    struct ResolveLocal *up;    /* the next one out */
} ResolveLocal;

/* The state of checking one definition's bodies. */
typedef struct Checker {
    Program *p;         /* the program */
    SemaDef *d;         /* definition being checked */
    int scope;          /* current arm */
    RefMode mode;       /* what references may name */
    int order;          /* for REF_PARAMETER: order of the parameter; for
                           REF_GUARD: of the first member after the if */
    const char *what;   /* "a parameter value", for messages */
    ResolveLocal *locals; /* let and function names in scope, or NULL */
    PtrVec loops;       /* Sym*: the variables of the enclosing for-loops */
    bool in_when;       /* in a when predicate: edge() and initialevent */
    PtrVec assigned;    /* EvAssign* (resolve_events.c): event variables
                           assigned so far */
} Checker;

/* resolve_expr.c */
void rs_check_expr(Checker *c, AstExpr *e);
const char *rs_def_kind_name(const SemaDef *d);
/* "unknown name" or "has no member", with a suggestion. */
void rs_unknown_member(Checker *c, const SemaDef *d, AstNamePart *part,
                       const char *owner, bool outside);
/* Index expressions: parameters and loop variables only. */
void rs_check_index_exprs(Checker *c, AstExpr **index, int n);
/* The indices written on one part of a name fit its member. */
bool rs_check_part(Checker *c, SemaMember *m, AstNamePart *part);
/* A loop variable named where a member is expected (reported). */
bool rs_loop_var_misused(Checker *c, AstExpr *e);
/* A for-loop's variable, which may hide nothing, pushed on c->loops. */
void rs_push_loop_var(Checker *c, const AstFor *f);
/* A for-loop's range: parameters and enclosing loops' variables. */
void rs_check_range(Checker *c, const AstFor *f);
/* The rest of a dotted name after member m: its final member or NULL. */
SemaMember *rs_resolve_tail(Checker *c, SemaMember *m, AstExpr *e, int i);
/* `{value = ..., priority = ..., nominal = ...}` */
void rs_check_record(Checker *c, AstExpr *e);
/* Whether e contains der(). */
bool rs_has_der(const AstExpr *e);

/* resolve_functions.c */
/* A name that is a local: true when e is decided there. */
/* Whether `name` is a local (let, argument, definition) in scope. */
bool rs_is_local(const Checker *c, const Sym *name);
bool rs_check_local_name(Checker *c, AstExpr *e);
/* `[a, b] = f(x)`: the call is to a user function with enough outputs. */
void rs_check_outputs(AstDecl *dc);
void rs_check_let(Checker *c, AstStmt *s);
/* The body of a function. */
void rs_resolve_function(Program *p, SemaDef *d);
/* A call of a user function; false when the name is no definition. */
bool rs_check_function_call(Checker *c, AstExpr *e);

/* resolve_sections.c */
void rs_check_stmts(Checker *c, PtrVec *v);
/* Checks the items of one arm, then the arms nested in it. */
void rs_check_items(Checker *c, PtrVec *items, int scope);

/* resolve_events.c */
void rs_check_when(Checker *c, AstStmt *s);
void rs_check_chart(Checker *c, AstModeChart *mc);
/* Two when statements (or a when and a chart) assigning one variable. */
void rs_check_assigned_once(Checker *c);

#endif
