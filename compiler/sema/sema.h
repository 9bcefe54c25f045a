/*
 * sema.h - pass 2, name resolution, and the program it produces.
 *
 * A Program is every definition reachable from the model file, found by
 * the lookup order of docs/language.md ("Finding definitions"), with a
 * member table per definition.  Resolution checks every name written in the model:
 * definitions, declarations, dotted references, function calls, instance
 * arguments, branches and connection ends.  It decides nothing that needs
 * parameter values; that is elaboration's job.
 */
#ifndef LMDL_SEMA_H
#define LMDL_SEMA_H

#include "ast.h"

#define SEMA_MEMBER_KINDS(X)                                               \
    X(MEM_NODE, "node")                                                    \
    X(MEM_INPUT, "input")                                                  \
    X(MEM_OUTPUT, "output")                                                \
    X(MEM_PARAMETER, "parameter")                                          \
    X(MEM_VARIABLE, "variable")                                            \
    X(MEM_INTERMEDIATE, "intermediate")                                    \
    X(MEM_INSTANCE, "component")                                           \
    X(MEM_ACROSS, "across variable")                                       \
    X(MEM_THROUGH, "through variable")

typedef enum SemaMemberKind { SEMA_MEMBER_KINDS(X_ENUM) MEM_KIND_COUNT } SemaMemberKind;

extern const char *const sema_member_kind_names[];

typedef struct SemaDef SemaDef;

/* Who may use a member from outside its component (section attributes). */
typedef enum SemaAccess {
    ACCESS_PUBLIC,          /* anyone (the default) */
    ACCESS_PRIVATE,         /* Access = private or protected: only the
                               component itself (and, protected, what
                               extends it) */
} SemaAccess;

/* What the outside may do with a member (ExternalAccess = ...), in order
   of what is hidden. */
typedef enum SemaExternal {
    EXT_MODIFY,             /* everything (the default) */
    EXT_OBSERVE,            /* read and log, but not set from outside (no
                               argument, no --param of its parameters) */
    EXT_NONE,               /* nothing: not named from outside, not logged */
} SemaExternal;

/* How a component takes part in the propagation of domain parameters
   (component (Propagation = ...)). */
typedef enum SemaPropagation {
    SEMA_PROP_PROPAGATES,   /* the default: the networks of its nodes of one
                               domain share their domain parameters */
    SEMA_PROP_BLOCKS,       /* blocks (or none): each node's network keeps
                               its own */
    SEMA_PROP_SOURCE,       /* source: as propagates (its node declarations
                               set the parameters, as any may) */
} SemaPropagation;

/* One declared name of a definition. */
typedef struct SemaMember {
    SemaMemberKind kind;    /* what it is */
    Sym *name;              /* its name */
    AstDecl *decl;          /* declaration, unless kind == MEM_INSTANCE */
    AstInstance *inst;      /* instantiation, if kind == MEM_INSTANCE */
    SemaDef *type;          /* node: the domain; instance: the component */
    int scope;              /* conditional arm it is declared in; 0 = always */
    int order;              /* declaration order within the definition */
    SemaAccess access;      /* its section's Access */
    SemaExternal external;  /* its section's ExternalAccess */
    int rank;               /* indices of an array of components or nodes
                               declared in a for-loop (`m(i) = ...`): 1;
                               0 for every other member */
    bool event;             /* an event variable (variables(Event = true)) */
    bool relative;          /* Conversion = relative: a temperature given in
                               an affine unit is a difference (no offset) */
    struct SemaMember *next_same_name; /* same name in another arm */
} SemaMember;

/* A resolved definition. */
struct SemaDef {
    AstDef *ast;            /* its syntax */
    int file;               /* source file it came from */
    SymMap members;         /* Sym* -> SemaMember*, union over all arms */
    PtrVec member_list;     /* SemaMember*, in declaration order */
    int *scope_parent;      /* parent arm of each arm; arm 0 is the body */
    const void **scope_item;/* the if (AstItem) each arm is a clause of */
    int *scope_order;       /* members declared before each arm's if */
    int nscopes;            /* entries in scope_parent */
    bool resolved;          /* its body has been checked */
    bool cyclic;            /* a parameter's value reads itself (reported) */
    bool inheriting;        /* its base is being resolved (a cycle, when met) */
    struct SemaDef *base;   /* the component it extends (< Base), or NULL */
    SemaPropagation propagation; /* component (Propagation = ...) */
    bool hidden;            /* component (Hidden = true): a base for others */
    bool has_arrays;        /* uses for-loops, vectors, indices or the array
                               functions: its instances differ by more than
                               their arms, so checks made once per variant
                               are made per instance */
};

typedef struct SemaOptions {
    const char *const *include_dirs;  /* -I, in order */
    int ninclude;
    const char *stdlib_dir;           /* the standard library root */
} SemaOptions;

typedef struct Program {
    Arena *arena;           /* AST and sema data of every file */
    SemaOptions opts;       /* search path */
    int main_file;          /* source id of the model file */
    PtrVec files;           /* SemaFile* (private) */
    SymMap resolved;        /* Sym* -> SemaDef*: names found on the path */
    SymMap enums;           /* Sym* ("pkg.Class") -> its enumeration (private
                               to resolve_enums.c; empty when there is none) */
    PtrVec all_defs;        /* SemaDef*, every definition loaded */
    PtrVec stdlib_names;    /* char*: stems of the library's files */
    PtrVec stdlib_paths;    /* char*: their paths, same order */
    SymMap stdlib_once;     /* Sym* -> non-NULL: a stem that no two library
                               files share (resolve_lookup.c, asked at every
                               use of a library component) */
    SemaDef *top;           /* the top-level model, once chosen */
    PtrVec fn_stack;        /* SemaDef*: functions whose bodies are being
                               checked, outermost first (recursion) */
    PtrVec roots;           /* char*: the search path's directories, in
                               lookup order (packages are folders below) */
    bool roots_made;        /* roots is filled */
} Program;

/* Loads and parses the model file; -1 when it cannot be read. */
Program *sema_program_new(Arena *a, const SemaOptions *opts);
AstFile *sema_add_main(Program *p, int file);

/* Looks a definition up from file `from` (the order of docs/language.md,
   "Finding definitions"); NULL when not found (no error is reported). */
SemaDef *sema_lookup(Program *p, Sym *name, int from);
/* The same for a package-qualified name a.b.C (an EXPR_NAME). */
SemaDef *sema_lookup_qualified(Program *p, const AstExpr *name, int from);

/* Resolves the top model (`top` NULL = the last component of the main
   file) and everything it reaches.  Errors go to diag. */
SemaDef *sema_resolve(Program *p, const char *top);

/* Resolves every definition of the main file (lmdlc check on a library). */
void sema_resolve_all(Program *p);

/* Resolves one definition's body (idempotent). */
void sema_resolve_def(Program *p, SemaDef *d);

SemaMember *sema_member(const SemaDef *d, const Sym *name);

/* A note after "unknown component/domain/function": the places searched,
   in order (docs/language.md, "Finding definitions"). */
void sema_note_searched(Program *p, const char *what);

/* Names for "did you mean" over every known definition. */
const char *sema_suggest_def(Program *p, const char *name);

void sema_program_free(Program *p);

#endif
