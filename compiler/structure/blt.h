/*
 * blt.h - block lower triangular order: the strongly connected components
 * of an equation dependency graph, in evaluation order (blt.c).
 *
 * Generic: equation eq depends on equation dep(ctx, eq, k) for
 * k = 0 .. nadj(ctx, eq) - 1 (the equation that computes its k-th
 * unknown, or -1 for a known one).  Tarjan's algorithm (1972), iterative,
 * emits each component after every component it depends on.
 */
#ifndef LMDL_BLT_H
#define LMDL_BLT_H

typedef struct BltGraph {
    int neq;                                /* equations (vertices) */
    int (*nadj)(void *ctx, int eq);         /* unknowns equation eq mentions */
    int (*dep)(void *ctx, int eq, int k);   /* the equation computing the k-th, or -1 */
    void *ctx;                              /* passed to the callbacks */
} BltGraph;

/* Sorts the graph's equations into components: order[] receives every
   equation, component by component (within one, in the order the search
   reached them), and component c is order[start[c] .. start[c + 1] - 1].
   order has neq entries, start neq + 1.  Returns the number of
   components. */
int blt_sort(const BltGraph *g, int *order, int *start);

#endif
