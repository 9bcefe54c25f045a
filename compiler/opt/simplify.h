/*
 * simplify.h - pass 6: constants and aliases eliminated from the flat DAE,
 * names kept (simplify.c).  Depends on the DAE only.
 */
#ifndef LMDL_SIMPLIFY_H
#define LMDL_SIMPLIFY_H

#include "dae.h"

/* Eliminates what it can; records the redundant equations it finds in
   d->redundant, for the structural analysis to report. */
void simplify_dae(Dae *d);

#endif
