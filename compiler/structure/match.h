/*
 * match.h - maximum bipartite matching of equations to unknowns by
 * augmenting paths (match.c).
 *
 * Generic: the graph is given by callbacks, so the same matcher serves the
 * regularity check (equations against variables, orders ignored),
 * Pantelides (only highest derivatives may be assigned) and the BLT
 * matching (everything but the states).  The search is iterative, so a
 * deep model does not overflow the C stack, and it can record every
 * equation and variable it visits (the "colored" sets Pantelides
 * differentiates).
 */
#ifndef LMDL_MATCH_H
#define LMDL_MATCH_H

#include "arena.h"

#include <stdbool.h>
#include <stdint.h>

/* The bipartite graph: equation eq is adjacent to variables
   adj(ctx, eq, 0 .. nadj(ctx, eq) - 1); only variables with ok(ctx, v)
   can be matched. */
typedef struct MatchGraph {
    int (*nadj)(void *ctx, int eq);         /* degree of an equation */
    int (*adj)(void *ctx, int eq, int k);   /* its k-th variable */
    bool (*ok)(void *ctx, int var);         /* the variable may be assigned */
    void *ctx;                              /* passed to the callbacks */
    Arena *arena;                           /* for the colored lists */
} MatchGraph;

/* A matching being built: `assign` maps variables to equations, `eq_mate`
   equations to variables. */
typedef struct Matcher {
    int neq, nvar;          /* sizes of the two sides */
    int *assign;            /* var -> eq or -1 */
    int *eq_mate;           /* eq -> var or -1 */
    uint32_t *ecol, *vcol;  /* visit stamps */
    uint32_t stamp;         /* the current search's stamp */
    int *stack_eq, *stack_pos, *stack_via; /* the search's explicit stack */
    PtrVec *colored_eqs, *colored_vars; /* optional: record visits */
} Matcher;

void match_init(Matcher *m, int neq, int nvar);
/* Makes room for more equations and variables (unmatched). */
void match_grow(Matcher *m, int neq, int nvar);
void match_free(Matcher *m);
/* Augmenting-path search from equation `root` over the variables for
   which g->ok holds; flips the path and returns true when one is found.
   Colors every equation and variable visited (recorded in colored_eqs
   and colored_vars when those are set). */
bool match_augment(Matcher *m, const MatchGraph *g, int root);

#endif
