/*
 * modes.h - the mode analysis (modes.c): Dae -> Dae, between
 * simplify and structure.  A mode chart's equation that constrains only
 * states in one of its modes is replaced there by its time derivative
 * and kept as a reset of that mode (DaeMode.resets).  Errors go to diag.
 */
#ifndef LMDL_MODES_H
#define LMDL_MODES_H

#include "dae.h"

void modes_analyze(Dae *d);

#endif
