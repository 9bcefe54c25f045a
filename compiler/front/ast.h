/*
 * ast.h - the syntax tree of .lmdl files.
 *
 * The tree is a faithful picture of the text: nothing is resolved or
 * evaluated here.  Every node carries a source span.  Nodes are tagged
 * unions; each kind's comment names the union member that is live.  The
 * kind enums and their printable names come from one X-macro list each.
 * All nodes of a parse live in the parse's arena.
 */
#ifndef LMDL_AST_H
#define LMDL_AST_H

#include "arena.h"
#include "source.h"
#include "sym.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct AstExpr AstExpr;
struct SemaDef;

#define AST_EXPR_KINDS(X)                                                  \
    X(EXPR_NUM, "num")           /* number literal: u.num */              \
    X(EXPR_BOOL, "bool")         /* true or false: u.boolean */           \
    X(EXPR_STR, "str")           /* string literal: u.str */              \
    X(EXPR_NAME, "name")         /* dotted name a.b.c: u.name */          \
    X(EXPR_TIME, "time")         /* the simulation time: no payload */    \
    X(EXPR_REF, "ref")           /* '*', the reference node: none */      \
    X(EXPR_DER, "der")           /* der(arg): u.der */                    \
    X(EXPR_CALL, "call")         /* f(args): u.call */                    \
    X(EXPR_UNARY, "unary")       /* op arg: u.unary */                    \
    X(EXPR_BINARY, "binary")     /* lhs op rhs: u.binary */               \
    X(EXPR_IF, "if")             /* if c, a else b end: u.cond */         \
    X(EXPR_QUANTITY, "quantity") /* {value, 'unit'}: u.quantity */        \
    X(EXPR_RECORD, "record")     /* {value = ..., priority = ...}: u.record */ \
    X(EXPR_MATRIX, "matrix")     /* [a b; c d]: u.matrix */               \
    X(EXPR_RANGE, "range")       /* first:last, first:step:last: u.range */ \
    X(EXPR_OPTION, "option")     /* NAME = value, a call's named argument: \
                                    u.option */                          \
    X(EXPR_END, "end")           /* `end` in an index, x(end): the last   \
                                    index of its dimension; no payload */ \
    X(EXPR_COLON, "colon")       /* ':' alone as an index, M(j, :): all of \
                                    its dimension; no payload */          \
    X(EXPR_MATLAB, "matlab")     /* pkg.f: a name of a package that no    \
                                    definition or enumeration gives, so   \
                                    MATLAB code (u.name, as written): an  \
                                    error where its value is needed */

#define AST_OPS(X)                                                         \
    X(OP_OR, "||")                                                         \
    X(OP_AND, "&&")                                                        \
    X(OP_EQ, "==")                                                         \
    X(OP_NE, "~=")                                                         \
    X(OP_LT, "<")                                                          \
    X(OP_LE, "<=")                                                         \
    X(OP_GT, ">")                                                          \
    X(OP_GE, ">=")                                                         \
    X(OP_ADD, "+")                                                         \
    X(OP_SUB, "-")                                                         \
    X(OP_MUL, "*")                                                         \
    X(OP_DIV, "/")                                                         \
    X(OP_POW, "^")                                                         \
    X(OP_NEG, "-")               /* unary minus */                        \
    X(OP_PLUS, "+")              /* unary plus */                         \
    X(OP_NOT, "~")               /* logical not, written ~ or ! */         \
    X(OP_EMUL, ".*")             /* element-wise product */               \
    X(OP_EDIV, "./")             /* element-wise quotient */              \
    X(OP_EPOW, ".^")             /* element-wise power */                 \
    X(OP_TRANSPOSE, "'")         /* postfix transpose, ' or .' */

#define X_ENUM(k, s) k,
typedef enum AstExprKind { AST_EXPR_KINDS(X_ENUM) EXPR_KIND_COUNT } AstExprKind;
typedef enum AstOp { AST_OPS(X_ENUM) OP_COUNT } AstOp;

/* One component of a dotted name, with its own span for messages. */
typedef struct AstNamePart {
    Sym *sym;           /* the identifier */
    SrcSpan span;       /* where it is written */
    AstExpr **index;    /* m(i).P, x(i, j): the indices of this part, or NULL */
    int nindex;         /* entries in index; 0 when the part is not indexed */
} AstNamePart;

/* One `name = expr` of a record literal. */
typedef struct AstField {
    Sym *name;          /* field name (value, priority, nominal, ...) */
    SrcSpan name_span;  /* where the name is written */
    AstExpr *value;     /* field value */
} AstField;

struct AstExpr {
    AstExprKind kind;   /* which member of u is live */
    SrcSpan span;       /* the whole expression */
    bool parens;        /* written inside parentheses */
    union {
        struct { double value; const char *text; } num;     /* EXPR_NUM */
        bool boolean;                                       /* EXPR_BOOL */
        const char *str;        /* EXPR_STR: contents, quotes undone */
        struct { AstNamePart *parts; int n; } name;         /* EXPR_NAME */
        struct { AstExpr *arg; } der;                       /* EXPR_DER */
        struct {
            Sym *func;              /* the function's (last) name */
            SrcSpan func_span;      /* where the name is written */
            PtrVec args;            /* AstExpr* */
            AstExpr *qual;          /* a package-qualified name (pkg.f), or NULL */
            AstExpr *callee;        /* the name as written (dotted, or indexed when it
                                       names a member to index) */
            struct SemaDef *fn;     /* a user function, set by resolution */
        } call;                                             /* EXPR_CALL */
        struct { AstOp op; AstExpr *arg; } unary;           /* EXPR_UNARY */
        struct { AstOp op; AstExpr *lhs, *rhs; } binary;    /* EXPR_BINARY */
        struct { AstExpr *cond, *then, *els; } cond;        /* EXPR_IF */
        struct { AstExpr *value; const char *unit; SrcSpan unit_span;
                 bool absolute; /* a declaration's whole value (or an
                                   argument's): an affine unit (degC) is
                                   an absolute temperature there */
                 bool relative; /* ... of a member with Conversion =
                                   relative: degC is a difference there */ }
            quantity;                                       /* EXPR_QUANTITY */
        struct { AstField *fields; int n; } record;         /* EXPR_RECORD */
        struct { PtrVec rows; } matrix; /* EXPR_MATRIX: PtrVec* per row, each
                                           of AstExpr* */
        struct { AstExpr *first, *step, *last; } range;     /* EXPR_RANGE:
                                                               step NULL = 1 */
        struct { Sym *name; SrcSpan name_span; AstExpr *value; } option;
                                                            /* EXPR_OPTION */
    } u;
};

/* `NAME = expr;` in nodes, inputs, outputs, parameters, variables,
   intermediates, across and through sections. */
typedef struct AstDecl {
    Sym *name;          /* declared name */
    SrcSpan name_span;  /* where the name is written */
    SrcSpan span;       /* the whole declaration */
    AstExpr *value;     /* right-hand side */
    const char *comment;/* trailing `% ...` comment on its line, or NULL */
    bool untyped;       /* `NAME;` without a value (inputs, outputs): value
                           is a 0 standing in, its unit inferred */
    int output;         /* of `[a, b] = f(x);` (definitions, let,
                           intermediates): which output of the call in value
                           this name takes, from 0; -1 for `NAME = expr;` */
    PtrVec index;       /* `H(i) = DOMAIN;` in a for-loop: AstExpr* indices */
} AstDecl;

/* A bare name with its span: a function's argument or output. */
typedef struct AstIdent {
    Sym *sym;           /* the name */
    SrcSpan span;       /* where it is written */
} AstIdent;

/* `name = expr` in an instantiation's argument list. */
typedef struct AstArg {
    Sym *name;          /* parameter, input or variable of the child */
    SrcSpan name_span;  /* where the name is written */
    AstExpr *value;     /* the binding */
    Sym *field;         /* x.priority = ...: the field of a variable's target
                           (merged by ast_instance into a record), or NULL */
} AstArg;

/* `NAME = COMPONENT(args);` in a components section. */
typedef struct AstInstance {
    Sym *name;          /* instance name */
    SrcSpan name_span;  /* where it is written */
    Sym *type;          /* component to instantiate (the last part of a
                           package-qualified name) */
    SrcSpan type_span;  /* where the type name is written */
    AstExpr *type_qual; /* the name pkg.Comp when qualified, or NULL */
    PtrVec args;        /* AstArg* */
    SrcSpan span;       /* the whole declaration */
    const char *comment;/* trailing comment, or NULL */
    PtrVec index;       /* `m(i) = C(...);` in a for-loop: AstExpr* indices */
} AstInstance;

/* `VAR : FROM -> TO;`; FROM or TO is EXPR_REF for '*'. */
typedef struct AstBranch {
    AstExpr *var;       /* the component variable carried (EXPR_NAME) */
    AstExpr *from;      /* node.through where the flow enters */
    AstExpr *to;        /* node.through where it leaves */
    SrcSpan span;       /* the whole branch */
} AstBranch;

/* `connect(a, b, ...);` */
typedef struct AstConnect {
    PtrVec ends;        /* AstExpr*: EXPR_NAME or EXPR_REF */
    SrcSpan span;       /* the whole statement */
} AstConnect;

#define AST_STMT_KINDS(X)                                                  \
    X(STMT_EQUATION, "equation") /* lhs == rhs: u.eq */                   \
    X(STMT_ASSERT, "assert")     /* assert(cond, 'msg'): u.assert_ */     \
    X(STMT_IF, "if")             /* if-equation: u.if_ */                 \
    X(STMT_LET, "let")           /* let defs in stmts end: u.let_ */ \
    X(STMT_FOR, "for")           /* for-loop of equations: u.for_ */      \
    X(STMT_WHEN, "when")         /* when P ... elsewhen Q ... end (events \
                                    section): u.if_, each clause's body   \
                                    AstDecl* assignments NAME = expr; */ \
    X(STMT_ASSIGN, "assign")     /* setup: NAME = expr: u.eq (lhs the name) */ \
    X(STMT_CALL, "call")         /* setup: f(args), as pm_error(...): u.eq \
                                    (lhs the call, rhs NULL) */

typedef enum AstStmtKind { AST_STMT_KINDS(X_ENUM) STMT_KIND_COUNT } AstStmtKind;

/* `for VAR = RANGE ... end` around equations or sections: the body is
   AstStmt* or AstItem*, by context. */
typedef struct AstFor {
    Sym *var;           /* the loop variable */
    SrcSpan var_span;   /* where it is written */
    AstExpr *range;     /* the values it takes: a row vector, a:b or a:s:b */
    PtrVec body;        /* AstStmt* or AstItem* */
} AstFor;

/* One arm of an if: cond is NULL for the else arm. */
typedef struct AstClause {
    AstExpr *cond;      /* guard, or NULL for else */
    PtrVec body;        /* AstStmt* or AstItem*, by context */
    SrcSpan span;       /* from the keyword to the end of the body */
    int arm;            /* of a conditional section: its scope (arm) in the
                           definition, set once by resolution; -1 before,
                           and for an if-equation */
} AstClause;

typedef struct AstStmt {
    AstStmtKind kind;   /* which member of u is live */
    SrcSpan span;       /* the whole statement */
    union {
        struct { AstExpr *lhs, *rhs; } eq;                  /* STMT_EQUATION */
        struct { AstExpr *cond; const char *msg; SrcSpan msg_span; PtrVec opts; }
            assert_;    /* STMT_ASSERT; opts: AstArg* (Warn = true) */
        struct { PtrVec clauses; } if_;  /* STMT_IF: AstClause*, else last */
        struct { PtrVec defs; PtrVec body; }
            let_;       /* STMT_LET: AstDecl* in order, then AstStmt* */
        AstFor for_;                     /* STMT_FOR: a body of AstStmt* */
    } u;
} AstStmt;

/* The sections, in one table read by the scanner (keywords), the parser
   (messages), resolution (what a section declares, where it is allowed)
   and `lmdlc doc` (headings and order):
   X(kind, word, token, member, where, entry, title, column, value, rank)
     kind    the AstSectionKind; the comment says what its entries are
     word    its keyword
     token   its token in grammar/parser.y
     member  the SemaMemberKind its entries declare (sema.h), or -1
     where   SEC_IN_COMPONENT, SEC_IN_DOMAIN or SEC_IN_BOTH
     entry   what a ';' ends in it ("expected ';' after the ...")
     title   its heading in `lmdlc doc`
     column  the heading of the name column in `lmdlc doc --markdown`, or
             NULL for a section shown as code
     value   the heading of the value column there
     rank    its place in `lmdlc doc`, which lists sections by rank */
#define AST_SECTION_KINDS(X)                                               \
    X(SEC_NODES, "nodes", NODES, MEM_NODE, SEC_IN_COMPONENT,               \
      "node declaration", "Nodes", "node", "domain", 0) /* AstDecl* */    \
    X(SEC_INPUTS, "inputs", INPUTS, MEM_INPUT, SEC_IN_COMPONENT,           \
      "input declaration", "Inputs", "input", "default", 2) /* AstDecl* */ \
    X(SEC_OUTPUTS, "outputs", OUTPUTS, MEM_OUTPUT, SEC_IN_COMPONENT,       \
      "output declaration", "Outputs", "output", "default", 3) /* AstDecl* */ \
    X(SEC_PARAMETERS, "parameters", PARAMETERS, MEM_PARAMETER,             \
      SEC_IN_BOTH, "parameter declaration", "Parameters",             \
      "parameter", "default", 1) /* AstDecl* */                           \
    X(SEC_VARIABLES, "variables", VARIABLES, MEM_VARIABLE,                 \
      SEC_IN_COMPONENT, "variable declaration", "Variables", "variable",   \
      "default", 4) /* AstDecl* */                                        \
    X(SEC_INTERMEDIATES, "intermediates", INTERMEDIATES, MEM_INTERMEDIATE, \
      SEC_IN_COMPONENT, "intermediate declaration", "Intermediates",       \
      "name", "default", 5) /* AstDecl* */                                \
    X(SEC_ACROSS, "across", ACROSS, MEM_ACROSS, SEC_IN_DOMAIN,             \
      "variable declaration", "Across variables", "variable", "default",   \
      0) /* AstDecl* */                                                   \
    X(SEC_THROUGH, "through", THROUGH, MEM_THROUGH, SEC_IN_DOMAIN,         \
      "variable declaration", "Through variables", "variable", "default",  \
      1) /* AstDecl* */                                                   \
    X(SEC_COMPONENTS, "components", COMPONENTS, MEM_INSTANCE,              \
      SEC_IN_COMPONENT, "component instance", "Components", "instance",    \
      "component", 6) /* AstInstance* */                                  \
    X(SEC_BRANCHES, "branches", BRANCHES, -1, SEC_IN_COMPONENT, "branch",  \
      "Branches", NULL, NULL, 7) /* AstBranch* */                         \
    X(SEC_CONNECTIONS, "connections", CONNECTIONS, -1, SEC_IN_COMPONENT,   \
      "connection", "Connections", NULL, NULL, 8) /* AstConnect* */       \
    X(SEC_EQUATIONS, "equations", EQUATIONS, -1, SEC_IN_BOTH, "equation",  \
      "Equations", NULL, NULL, 9) /* AstStmt* */                          \
    X(SEC_EVENTS, "events", EVENTS, -1, SEC_IN_COMPONENT, "assignment",    \
      "Events", NULL, NULL, 10) /* AstStmt* (STMT_WHEN) */                \
    X(SEC_MODECHARTS, "modecharts", MODECHARTS, -1, SEC_IN_COMPONENT,      \
      "mode chart", "Mode charts", NULL, NULL, 11) /* AstModeChart* */    \
    X(SEC_ANNOTATIONS, "annotations", ANNOTATIONS, -1, SEC_IN_BOTH,        \
      "annotation", "Annotations", NULL, NULL, 12) /* none: the scanner    \
      skips its body, which is ignored */

enum { SEC_IN_COMPONENT = 1, SEC_IN_DOMAIN = 2, SEC_IN_BOTH = 3 };

#define X_SECENUM(k, w, tok, mem, where, entry, title, col, val, rank) k,
typedef enum AstSectionKind { AST_SECTION_KINDS(X_SECENUM) SEC_KIND_COUNT } AstSectionKind;

#define AST_ITEM_KINDS(X)                                                  \
    X(ITEM_SECTION, "section")   /* a section: u.section */               \
    X(ITEM_IF, "if")             /* conditional section: u.if_ */         \
    X(ITEM_FOR, "for")           /* sections repeated by a for-loop: u.for_ */ \
    X(ITEM_SETUP, "setup")       /* Simscape's legacy `function setup`:      \
                                    u.setup, rewritten by resolution */

typedef enum AstItemKind { AST_ITEM_KINDS(X_ENUM) ITEM_KIND_COUNT } AstItemKind;

typedef struct AstItem {
    AstItemKind kind;   /* which member of u is live */
    SrcSpan span;       /* keyword to matching end */
    union {
        struct {
            AstSectionKind kind;    /* which section */
            PtrVec entries;         /* by kind: see AST_SECTION_KINDS */
            PtrVec attrs;           /* AstArg*: variables(Event = true),
                                       parameters(Access = private) */
            bool initial;           /* equations(Initial = true), set by
                                       resolution: they hold at t = 0 only */
        } section;
        struct { PtrVec clauses; } if_;  /* AstClause* with AstItem* bodies */
        AstFor for_;                     /* ITEM_FOR: a body of AstItem* */
        struct { PtrVec body; } setup;   /* ITEM_SETUP: AstStmt* (STMT_ASSIGN,
                                            STMT_CALL, STMT_IF of them) */
    } u;
} AstItem;

typedef enum AstDefKind { DEF_DOMAIN, DEF_COMPONENT, DEF_FUNCTION } AstDefKind;

/* One `domain`, `component` or `function` definition. */
typedef struct AstDef {
    AstDefKind kind;        /* domain, component or function */
    Sym *name;              /* its name */
    SrcSpan name_span;      /* where the name is written */
    SrcSpan span;           /* keyword to matching end */
    const char *description;/* comment lines right after the header */
    PtrVec items;           /* AstItem*, in source order (not functions) */
    PtrVec inputs;          /* DEF_FUNCTION: AstIdent*, its arguments */
    PtrVec outputs;         /* DEF_FUNCTION: AstIdent*, its results */
    PtrVec defs;            /* DEF_FUNCTION: AstDecl*, its definitions */
    PtrVec attrs;           /* DEF_COMPONENT: AstArg*, Simscape's attributes
                               (Propagation = blocks, Hidden = true) */
    AstExpr *base;          /* DEF_COMPONENT: `< pkg.Base`, the component it
                               extends (EXPR_NAME), or NULL */
    PtrVec own_items;       /* DEF_COMPONENT with a base: its own items (items
                               gets the base's first, at resolution) */
} AstDef;

/* `import pkg.Name;` or `import pkg.*;` at the top of a file. */
typedef struct AstImport {
    AstExpr *name;          /* the dotted name (EXPR_NAME), without '.*' */
    bool all;               /* `import pkg.*`: every name of the package */
    SrcSpan span;           /* the whole statement */
    bool late;              /* written after a definition (an error) */
} AstImport;

/* One parsed file. */
typedef struct AstFile {
    int file;               /* source id */
    PtrVec defs;            /* AstDef*, in source order */
    PtrVec imports;         /* AstImport*, in source order */
} AstFile;

extern const char *const ast_expr_kind_names[];
extern const char *const ast_op_names[];
extern const char *const ast_section_names[];
/* The section table's columns, indexed by AstSectionKind. */
extern const int ast_section_where[];
extern const char *const ast_section_titles[];
extern const char *const ast_section_columns[];
extern const char *const ast_section_values[];
extern const int ast_section_ranks[];

/* Builders, called from grammar actions. */
AstExpr *ast_num(Arena *a, SrcSpan sp, const char *text, size_t len);
AstExpr *ast_bool(Arena *a, SrcSpan sp, bool v);
AstExpr *ast_str(Arena *a, SrcSpan sp, const char *s);
/* An assert's message written as MATLAB's message('id', 'arg', ...) (call
   its arguments): a string "id (arg, ...)"; an error (and "") for any
   other call, and for a name that is not called (call NULL). */
AstExpr *ast_message_call(Arena *a, SrcSpan sp, AstExpr *callee, const PtrVec *call);
AstExpr *ast_leaf(Arena *a, SrcSpan sp, AstExprKind kind);
AstExpr *ast_name(Arena *a, SrcSpan sp, Sym *s);
AstExpr *ast_name_append(Arena *a, AstExpr *name, SrcSpan sp, Sym *s);
AstExpr *ast_der(Arena *a, SrcSpan sp, AstExpr *arg);
AstExpr *ast_call(Arena *a, SrcSpan sp, AstExpr *callee, PtrVec args);
AstExpr *ast_unary(Arena *a, SrcSpan sp, AstOp op, AstExpr *arg);
AstExpr *ast_binary(Arena *a, SrcSpan sp, AstOp op, AstExpr *l, AstExpr *r);
AstExpr *ast_if(Arena *a, SrcSpan sp, AstExpr *c, AstExpr *t, AstExpr *e);
AstExpr *ast_quantity(Arena *a, SrcSpan sp, AstExpr *v, AstExpr *unit);
AstExpr *ast_record(Arena *a, SrcSpan sp, PtrVec fields);
AstExpr *ast_paren(AstExpr *e, SrcSpan sp);
/* Arrays: indexed names, matrices, ranges, named arguments. */
AstExpr *ast_name_index(Arena *a, AstExpr *name, SrcSpan sp, PtrVec index);
/* name(index).member */
AstExpr *ast_name_member(Arena *a, AstExpr *name, SrcSpan index_sp, PtrVec index,
                         SrcSpan member_sp, Sym *member);
AstExpr *ast_matrix(Arena *a, SrcSpan sp, PtrVec rows);
PtrVec *ast_matrix_row(Arena *a, PtrVec *row, AstExpr *e);
AstExpr *ast_range(Arena *a, SrcSpan sp, AstExpr *lhs, AstExpr *rhs);
AstExpr *ast_option(Arena *a, SrcSpan sp, Sym *name, SrcSpan name_sp, AstExpr *v);
AstField *ast_field(Arena *a, SrcSpan sp, Sym *name, AstExpr *value);

AstDecl *ast_decl(Arena *a, SrcSpan sp, SrcSpan name_sp, Sym *name, AstExpr *v);
AstDecl *ast_decl_indexed(Arena *a, SrcSpan sp, SrcSpan name_sp, Sym *name,
                          PtrVec index, AstExpr *v);
AstArg *ast_arg(Arena *a, SrcSpan name_sp, Sym *name, AstExpr *v);
/* NAME.FIELD = value, an instance argument that sets one field of a
   variable's target (x.priority = priority.high). */
AstArg *ast_arg_field(Arena *a, SrcSpan name_sp, Sym *name, Sym *field, SrcSpan field_sp,
                      AstExpr *v);
AstInstance *ast_instance(Arena *a, SrcSpan sp, SrcSpan name_sp, Sym *name,
                          SrcSpan type_sp, Sym *type, PtrVec args);
/* NAME = pkg.Comp(...): an instance of a package-qualified component. */
/* m(i) = pkg.C(args); */
AstInstance *ast_instance_indexed_qual(Arena *a, SrcSpan sp, SrcSpan name_sp, Sym *name,
                                       PtrVec index, AstExpr *type, PtrVec args);
AstInstance *ast_instance_qual(Arena *a, SrcSpan sp, SrcSpan name_sp, Sym *name,
                               AstExpr *type, PtrVec args);
/* Adds an import to the file; ndefs is the number of definitions before it. */
void ast_file_import(Arena *a, AstFile *f, SrcSpan sp, AstExpr *name, bool all,
                     int ndefs);
AstInstance *ast_instance_indexed(Arena *a, SrcSpan sp, SrcSpan name_sp, Sym *name,
                                  PtrVec index, SrcSpan type_sp, Sym *type,
                                  PtrVec args);
AstBranch *ast_branch(Arena *a, SrcSpan sp, AstExpr *var, AstExpr *from,
                      AstExpr *to);
AstConnect *ast_connect(Arena *a, SrcSpan sp, PtrVec ends);
AstStmt *ast_equation(Arena *a, SrcSpan sp, AstExpr *e);
/* assert(cond), assert(cond, 'msg'), assert(cond, 'msg', Warn = true):
   msg may be NULL (the condition's text is the message); opts are the
   named arguments (AstExpr* options, checked by resolution). */
AstStmt *ast_assert(Arena *a, SrcSpan sp, AstExpr *cond, AstExpr *msg, PtrVec opts);
AstStmt *ast_stmt_if(Arena *a, SrcSpan sp, PtrVec clauses);
AstClause *ast_clause(Arena *a, SrcSpan sp, AstExpr *cond, PtrVec body);
AstItem *ast_section(Arena *a, SrcSpan sp, AstSectionKind kind, PtrVec entries);
AstItem *ast_section_attrs(Arena *a, SrcSpan sp, AstSectionKind kind, PtrVec entries,
                           PtrVec attrs);
AstItem *ast_item_if(Arena *a, SrcSpan sp, PtrVec clauses);
AstItem *ast_item_for(Arena *a, SrcSpan sp, SrcSpan var_sp, Sym *var,
                      AstExpr *range, PtrVec items);
AstStmt *ast_stmt_for(Arena *a, SrcSpan sp, SrcSpan var_sp, Sym *var,
                      AstExpr *range, PtrVec body);
AstDef *ast_def(Arena *a, SrcSpan sp, AstDefKind kind, SrcSpan name_sp,
                Sym *name, PtrVec items);
/* Functions and local definitions (let, definitions). */
AstIdent *ast_ident(Arena *a, SrcSpan sp, Sym *name);
/* `component [(attrs)] NAME [< base]`: a component's header, whose body
   ast_def_body fills in. */
AstDef *ast_component_head(Arena *a, SrcSpan name_sp, Sym *name, PtrVec attrs, AstExpr *base);
AstDef *ast_def_body(AstDef *d, SrcSpan sp, PtrVec items);
/* Simscape's `function setup ... end` in a component. */
AstItem *ast_setup(Arena *a, SrcSpan sp, PtrVec body);
AstStmt *ast_assign(Arena *a, SrcSpan sp, AstExpr *name, AstExpr *value);
AstStmt *ast_call_stmt(Arena *a, SrcSpan sp, AstExpr *call);
AstDef *ast_function(Arena *a, SrcSpan sp, SrcSpan name_sp, Sym *name,
                     PtrVec outputs, PtrVec inputs, PtrVec defs);
/* `[a, b] = call;`: one AstDecl per name (AstIdent*), sharing the call. */
PtrVec ast_multi_decl(Arena *a, SrcSpan sp, PtrVec names, AstExpr *call);
AstDecl *ast_untyped_decl(Arena *a, SrcSpan sp, SrcSpan name_sp, Sym *name);
AstStmt *ast_let(Arena *a, SrcSpan sp, PtrVec defs, PtrVec body);

/* The positional arguments of a call (its NAME = value options left
   out): up to cap of them to out; returns how many there are. */
int ast_call_positional(const AstExpr *call, AstExpr **out, int cap);

/* ---- events and mode charts ---------------------------------- */

/* `mode NAME ... end` in a mode chart's modes section. */
typedef struct AstMode {
    Sym *name;              /* the mode */
    SrcSpan name_span;      /* where the name is written */
    SrcSpan span;           /* `mode` to its `end` */
    PtrVec entry;           /* AstDecl*: entry actions NAME = expr; */
    PtrVec eqs;             /* AstStmt*: its equations */
    SrcSpan eqs_span;       /* its (first) equations section, for messages */
} AstMode;

/* `A -> B -> C : pred;` (transitions) or `A : pred;` (initial). */
typedef struct AstTransition {
    AstNamePart *path;      /* the modes, in order */
    int n;                  /* entries in path (1 in initial) */
    AstExpr *pred;          /* the predicate */
    SrcSpan span;           /* the whole statement */
} AstTransition;

/* `NAME = modechart ... end` in a modecharts section. */
typedef struct AstModeChart {
    Sym *name;              /* the chart */
    SrcSpan name_span;      /* where the name is written */
    SrcSpan span;           /* the whole chart */
    PtrVec modes;           /* AstMode*, in order */
    PtrVec transitions;     /* AstTransition*, in order (tested in order) */
    PtrVec initials;        /* AstTransition* with n = 1, in order */
} AstModeChart;

/* Builders (ast_events.c).  A mode and a chart are built part by part,
   as the grammar reads their sections. */
AstStmt *ast_when(Arena *a, SrcSpan sp, PtrVec clauses);
AstMode *ast_mode_new(Arena *a);
AstMode *ast_mode_entry(Arena *a, AstMode *m, PtrVec entry);
AstMode *ast_mode_equations(Arena *a, AstMode *m, SrcSpan sp, PtrVec eqs);
AstMode *ast_mode_finish(AstMode *m, SrcSpan sp, SrcSpan name_sp, Sym *name);
AstModeChart *ast_chart_new(Arena *a);
AstModeChart *ast_chart_modes(Arena *a, AstModeChart *c, PtrVec modes);
AstModeChart *ast_chart_transitions(Arena *a, AstModeChart *c, PtrVec ts);
AstModeChart *ast_chart_initials(Arena *a, AstModeChart *c, PtrVec ts);
AstModeChart *ast_chart_finish(AstModeChart *c, SrcSpan sp, SrcSpan name_sp, Sym *name);
/* A path A -> B -> C, grown one mode at a time. */
AstTransition *ast_path_new(Arena *a, SrcSpan sp, Sym *first);
AstTransition *ast_path_add(Arena *a, AstTransition *t, SrcSpan sp, Sym *next);
AstTransition *ast_path_finish(AstTransition *t, SrcSpan sp, AstExpr *pred);

/* Whether a section's entries are AstDecl (nodes, inputs, outputs,
   parameters, variables, intermediates, across, through): every other
   section holds instances, branches, connections or statements. */
bool ast_section_is_decls(AstSectionKind k);

/* Name helpers. */
bool ast_is_simple_name(const AstExpr *e);
/* {v, '*'} or {v, '*(UNIT)'}: a parameter of the unit it is bound to. */
bool ast_any_unit(const AstExpr *e);
/* Whether a declaration's value is written as an array: a matrix literal
   of more than one element, or zeros/ones of another size than 1 (a
   vector domain variable or parameter, a vector input). */
bool ast_written_as_array(const AstExpr *v);
/* Marks a declaration's or argument's whole value v (or its record's
   value field), if a quantity, as one whose member converts relatively
   (Conversion = relative: {10, 'degC'} is a difference of 10 K), or
   not. */
void ast_set_relative(AstExpr *v, bool relative);
/* Calls fn on the slot of each direct subexpression of e that is there. */
void ast_each_child(AstExpr *e, void (*fn)(AstExpr **slot, void *ctx), void *ctx);
char *ast_name_text(Arena *a, const AstExpr *e);   /* "a.b.c" */

/* Debug and golden output. */
/* Field `name` of a variable's long form {value = ..., nominal = ...};
   the whole of a short form is its `value`.  NULL when it has none. */
AstExpr *ast_record_field(AstExpr *e, const char *name);
void ast_dump_file(FILE *fp, const AstFile *f);
void ast_print_expr(FILE *fp, const AstExpr *e);   /* as .lmdl source */

#endif
