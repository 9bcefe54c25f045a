/*
 * flatten.h - pass 5: the instance tree to the flat DAE (flatten.c).
 *
 * Flatten creates the Dae: it takes over the expression DAG and the
 * parameter table elaboration built (inst.h), makes the variables and
 * equations, and copies every string they need, so the caller can free
 * the instance tree and the syntax trees right after.
 */
#ifndef LMDL_FLATTEN_H
#define LMDL_FLATTEN_H

#include "inst.h"

/* Returns the DAE (never NULL; check diag_error_count()). */
Dae *flatten_model(Model *m);

#endif
