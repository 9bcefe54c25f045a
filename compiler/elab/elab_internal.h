/*
 * elab_internal.h - the steps of elaboration that elaborate.c calls, in
 * files of their own.  Not for use outside elab/.
 */
#ifndef LMDL_ELAB_INTERNAL_H
#define LMDL_ELAB_INTERNAL_H

#include "inst.h"

/* connect.c: joins every connection of the tree, makes the node sets and
   their across variables, binds the signals, and gives every unconnected
   input its default. */
void elab_connect(Model *m);

/* balance.c: the local balance rule, for every instance. */
void elab_check_balance(Model *m);

#endif
