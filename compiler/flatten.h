/*
 * flatten.h - pass 5: the instance tree to the flat DAE (flatten.c).
 */
#ifndef LMDL_FLATTEN_H
#define LMDL_FLATTEN_H

#include "inst.h"

void flatten_model(Model *m);

#endif
