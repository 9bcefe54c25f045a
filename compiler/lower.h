/*
 * lower.h - an AST expression, read in the context of one instance, to a
 * DAE expression (lower.c).
 *
 * Shared by elaborate (parameter values, targets, input bindings), the unit
 * check (integer exponents) and flatten (equations).
 */
#ifndef LMDL_LOWER_H
#define LMDL_LOWER_H

#include "inst.h"

DaeExpr *lower_expr(Model *m, ElabInst *in, AstExpr *e);
/* A declaration's value: its expression, or for `[a, b] = f(x)` the
   output of the call it takes. */
DaeExpr *lower_decl(Model *m, ElabInst *in, AstDecl *d);
/* An intermediate's value, lowered once per instance (at: the use, for
   the error of an intermediate defined in terms of itself). */
DaeExpr *lower_intermediate(Model *m, ElabInst *owner, ElabSlot *s, SrcSpan at);
/* Lowers local definitions in order, binding each on m->locals (the
   caller saves and restores m->locals around them). */
void lower_local_defs(Model *m, ElabInst *in, PtrVec *defs);
/* The slot a dotted name ends at, following children; NULL after an
   error.  *node_member is set when the name ends at NODE.ACROSS. */
ElabSlot *lower_resolve(Model *m, ElabInst *in, AstExpr *name, ElabInst **owner,
                        SemaMember **node_member);

#endif
