/*
 * units_internal.h - what the files of the unit check share: the
 * dimension of an expression (units_dim.c), the dimensions of the
 * declared members and the inferred ports (units_infer.c), and the checks
 * of the tree (units_check.c).  Not for use outside units/.
 */
#ifndef LMDL_UNITS_INTERNAL_H
#define LMDL_UNITS_INTERNAL_H

#include "units_check.h"

#include "diag.h"
#include "lower.h"

/* The dimension of an expression and what kind of value it is. */
typedef struct DimInfo {
    Dim dim;        /* dimension of a number */
    bool is_bool;   /* true/false value */
    bool zero;      /* the literal 0, compatible with any unit */
    bool ok;        /* computed (false after an error) */
    bool unknown;   /* depends on an untyped port whose unit is still being
                       inferred (a loop of them): fits anything for now */
} DimInfo;

/* A let's or a function's name with its dimension, innermost first (a
   barrier, name NULL, below a function's arguments). */
typedef struct UnitLocal {
    Sym *name;                  /* the name, or NULL for a barrier */
    DimInfo dim;                /* its dimension */
    struct UnitLocal *up;       /* the next one out */
} UnitLocal;

static inline DimInfo ud_ok_dim(Dim d)
{
    DimInfo r = {d, false, false, true, false};
    return r;
}

static inline DimInfo ud_ok_bool(void)
{
    DimInfo r = {dim_none(), true, false, true, false};
    return r;
}

static inline DimInfo ud_failed(void)
{
    DimInfo r = {dim_none(), false, false, false, false};
    return r;
}

static inline DimInfo ud_unknown(void)
{
    DimInfo r = {dim_none(), false, false, true, true};
    return r;
}

/* ---- units_dim.c ---- */

/* The dimension of e read in instance `in` (depth: of the unit
   inference that asks, which bounds its recursion). */
DimInfo ud_dim_of(Model *m, ElabInst *in, AstExpr *e, int depth);
/* The dimension of a declaration's value (an intermediate's, or a let's
   definition). */
DimInfo ud_decl_dim(Model *m, ElabInst *in, AstDecl *d, int depth);
/* Binds each of a let's definitions on m->ulocals, with its dimension. */
DimInfo ud_local_defs_dims(Model *m, ElabInst *in, PtrVec *defs, int depth);
/* The dimension of a literal declaration value in a domain. */
DimInfo ud_static_dim(Model *m, AstExpr *e);
/* d, refused at e when an exponent leaves the range. */
DimInfo ud_ranged(AstExpr *e, Dim d);
/* a and b may be equated or added (0 fits any unit). */
bool ud_same_dim(DimInfo a, DimInfo b);
/* a, or an error at e that `what` needs a number (true/false). */
DimInfo ud_need_number(DimInfo a, AstExpr *e, const char *what);
DimInfo ud_need_bool(DimInfo a, AstExpr *e, const char *what);
/* A unit for messages: "m/s", "dimensionless" (buf of 64 bytes). */
const char *ud_text(Dim d, char *buf);

/* ---- units_infer.c ---- */

/* The dimension of a declared member s of `owner`: its declaration's (a
   {v, '*'} parameter's binding's), or an untyped port's, inferred;
   computed once, on demand. */
DimInfo ud_slot_info(Model *m, ElabInst *owner, ElabSlot *s, int depth);
/* The argument `name` of the instantiation of `in`, or NULL. */
AstArg *ud_argument_of(ElabInst *in, Sym *name);
/* Infers every untyped port of the model. */
void ud_infer_all(Model *m);
/* Computes the dimension of every active member of every instance. */
void ud_type_all(Model *m);

#endif
