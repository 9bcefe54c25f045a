/*
 * units_check.h - pass 4: the unit check over the instance tree
 * (units_check.c).
 *
 * Checks the dimensions of every active equation, branch, binding and
 * intermediate, once per component and arm pattern.  The dimension
 * algebra itself is in units.h.
 */
#ifndef LMDL_UNITS_CHECK_H
#define LMDL_UNITS_CHECK_H

#include "inst.h"

void units_check(Model *m);
/* Dimension of an expression in an instance's context; false if it could
   not be computed (an error was reported). */
bool units_dim(Model *m, ElabInst *in, AstExpr *e, Dim *out, bool *is_bool);
/* Reads a {value, 'unit'} literal's unit once; NULL after an error. */
const RtUnit *units_literal(Model *m, AstExpr *quantity);
/* The dimension of a declaration's value (an intermediate's, with
   `[a, b] = f(x)`); false if it could not be computed. */
bool units_decl_dim(Model *m, ElabInst *in, AstDecl *d, Dim *out);
/* The unit asked of value(x, 'unit'[, mode]), read once; *offset is the
   offset of an affine temperature unit (0 otherwise, and in 'linear'
   mode), so that the value is x / scale - offset.  NULL after an error. */
const RtUnit *units_value_unit(Model *m, AstExpr *call, double *offset);

#endif
