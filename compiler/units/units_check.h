/*
 * units_check.h - pass 4: the unit check over the instance tree
 * (units_check.c, units_infer.c, units_dim.c).
 *
 * Elaboration leaves every dimension open; this pass computes them (the
 * declared members', the untyped ports', and those recorded for the
 * parameters, variables and tables elaboration made), then checks the
 * dimensions of every binding, target, connection, condition, range and
 * active equation, branch and intermediate, once per component variant.
 * The dimension algebra and the unit strings are ir/units.h.
 */
#ifndef LMDL_UNITS_CHECK_H
#define LMDL_UNITS_CHECK_H

#include "inst.h"

void units_check(Model *m);
/* Fills in the dimensions recorded since the last call (elab_dim_of_*):
   units_check does, and flatten again after lowering the equations, for
   what lowering them made. */
void units_fill_dims(Model *m);
/* Dimension of an expression in an instance's context; false if it could
   not be computed (an error was reported). */
bool units_dim(Model *m, ElabInst *in, AstExpr *e, Dim *out, bool *is_bool);
/* The dimension of a declaration's value (an intermediate's, with
   `[a, b] = f(x)`); false if it could not be computed. */
bool units_decl_dim(Model *m, ElabInst *in, AstDecl *d, Dim *out);

#endif
