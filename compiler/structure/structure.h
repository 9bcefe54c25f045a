/*
 * structure.h - pass 7: structural analysis of the simplified DAE.
 *
 * Result: the index-1 system, sorted.  Every unknown is a pair (variable,
 * derivative order).  Some are states (integrated); the others are solved,
 * block by block in BLT order, from the states, time and parameters.
 */
#ifndef LMDL_STRUCTURE_H
#define LMDL_STRUCTURE_H

#include "dae.h"

/* One (variable, derivative order) pair of the system. */
typedef struct StVar {
    int var;            /* DaeVar index */
    int order;          /* derivative order */
    int deriv;          /* the StVar of order+1, or -1 */
    bool dummy;         /* a dummy derivative (algebraic) */
    bool state;         /* integrated: its derivative is known */
    int slot;           /* index in x[] (state) or alg[] (otherwise) */
    int assign;         /* equation computing it (after BLT), or -1 */
} StVar;

/* One equation: an original one or a derivative of one. */
typedef struct StEq {
    DaeExpr *res;       /* residual lhs - rhs */
    int base;           /* index of the original DaeEq */
    int level;          /* times differentiated */
    int deriv;          /* its derivative's StEq, or -1 */
    int anti;           /* the StEq it is the derivative of, or -1 */
    int *adj;           /* StVar indices it mentions (outside conditions) */
    int nadj;           /* entries in adj */
} StEq;

/* A block of the BLT form: n equations solved together for n unknowns
   (how: plan.h). */
typedef struct StBlock {
    int n;              /* size */
    int *eqs;           /* StEq indices */
    int *vars;          /* StVar indices, vars[i] matched to eqs[i] */
} StBlock;

typedef struct Structure {
    Arena arena;        /* everything below */
    PtrVec vars;        /* StVar* */
    PtrVec eqs;         /* StEq* */
    PtrVec blocks;      /* StBlock*, in evaluation order */
    int nstates;        /* states */
    int nalg;           /* solved unknowns */
    int *state_var;     /* StVar of each state */
    int index;          /* differential index */
    int ndiff;          /* equations added by differentiation */
} Structure;

/* Runs matching, Pantelides, dummy derivatives and BLT sorting.  Reports
   structural errors through diag and returns NULL after one. */
Structure *struct_analyze(Dae *d);
void struct_free(Structure *s);
/* Prints the index report for `lmdlc check` (the blocks line is the
   plan's: plan_report). */
void struct_report(FILE *fp, const Structure *s, Dae *d);

#endif
