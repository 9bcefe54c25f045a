/*
 * dae_internal.h - what the files of the expression DAG share beyond
 * dae.h: the arithmetic of a node kind, the value at the parameters'
 * defaults that folding knows, and the marks of a walk that visits each
 * node once (dae_walk.c).  Not for use outside ir/.
 */
#ifndef LMDL_DAE_INTERNAL_H
#define LMDL_DAE_INTERNAL_H

#include "dae.h"

/* The value of operator k (a binary kind) on a and b. */
double dae_fold(DaeExprKind k, double a, double b);
/* The value of built-in function fn on a (and b). */
double dae_fold_fn(DaeFunc fn, double a, double b);
/* The value of e at the defaults of the parameters, NaN when it reads a
   variable, time or an event (memoised per node). */
double dae_default_value(DaeExprTable *t, const DaeExpr *e);
/* A new walk: every node unmarked. */
void dae_walk_begin(DaeExprTable *t);
/* Pushes e on the walk's stack (t->stack, *sp entries deep); the caller
   marks what it visits. */
void dae_walk_push(DaeExprTable *t, size_t *sp, const DaeExpr *e);

#endif
