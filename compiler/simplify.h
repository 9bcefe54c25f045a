/*
 * simplify.h - pass 6: constants and aliases eliminated from the flat DAE,
 * names kept (simplify.c).  Depends on the DAE only.
 */
#ifndef LMDL_SIMPLIFY_H
#define LMDL_SIMPLIFY_H

#include "dae.h"

void simplify_dae(Dae *d);
/* Notes, for a redundant equation, naming the equations that had already
   fixed what it says. */
void simplify_explain(Dae *d, DaeEq *q);

#endif
