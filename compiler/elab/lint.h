/*
 * lint.h - warnings about a model that compiles but probably does not say
 * what its author meant (lint.c), read off the instance tree (inst.h).
 * `lmdlc check` runs them after the unit check; warnings never change the
 * exit status.
 */
#ifndef LMDL_LINT_H
#define LMDL_LINT_H

#include "inst.h"

#include <stdbool.h>

/* Warns about every node of a component instance (not the top model's
   own nodes) that no connect() outside that instance mentions. */
void lint_unconnected_nodes(Model *m);

/* Whether source `file` is written outside the standard library: the
   user's own lines, where notes should point. */
bool lint_user_file(const Model *m, int file);

#endif
