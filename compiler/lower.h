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
/* The slot a dotted name ends at, following children; NULL after an
   error.  *node_member is set when the name ends at NODE.ACROSS. */
ElabSlot *lower_resolve(Model *m, ElabInst *in, AstExpr *name, ElabInst **owner,
                        SemaMember **node_member);

#endif
