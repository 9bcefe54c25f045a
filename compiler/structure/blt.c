/*
 * blt.c - Tarjan's strongly connected components (blt.h), iterative.
 *
 * The depth-first search keeps its own stack of (equation, next edge), so
 * a chain of 10^5 equations does not overflow the C stack.  A component
 * is complete when the search returns to its root (low == index); it is
 * popped off the component stack then, which is after every component it
 * depends on: the emission order is the evaluation order.
 */
#include "blt.h"

#include "arena.h"

#include <stdlib.h>

int blt_sort(const BltGraph *g, int *order, int *start)
{
    int neq = g->neq;
    int *index = mem_calloc((size_t)neq, sizeof(int));
    int *low = mem_calloc((size_t)neq, sizeof(int));
    char *onstack = mem_calloc((size_t)neq, 1);
    int *stack = mem_calloc((size_t)neq + 1, sizeof(int)), sp = 0;
    int *cs_e = mem_calloc((size_t)neq + 1, sizeof(int));
    int *cs_k = mem_calloc((size_t)neq + 1, sizeof(int));
    int counter = 0, nblocks = 0, filled = 0;
    for (int i = 0; i < neq; i++)
        index[i] = -1;
    for (int root = 0; root < neq; root++) {
        if (index[root] >= 0)
            continue;
        int csp = 0;
        cs_e[0] = root;
        cs_k[0] = 0;
        index[root] = low[root] = counter++;
        stack[sp++] = root;
        onstack[root] = 1;
        while (csp >= 0) {
            int e = cs_e[csp];
            if (cs_k[csp] < g->nadj(g->ctx, e)) {
                int w = g->dep(g->ctx, e, cs_k[csp]++);
                if (w < 0 || w == e)
                    continue;
                if (index[w] < 0) {
                    index[w] = low[w] = counter++;
                    stack[sp++] = w;
                    onstack[w] = 1;
                    csp++;
                    cs_e[csp] = w;
                    cs_k[csp] = 0;
                } else if (onstack[w] && index[w] < low[e]) {
                    low[e] = index[w];
                }
                continue;
            }
            if (low[e] == index[e]) {
                /* pop one component */
                int n = 0;
                for (int k = sp - 1; k >= 0; k--) {
                    n++;
                    if (stack[k] == e)
                        break;
                }
                start[nblocks++] = filled;
                for (int k = 0; k < n; k++) {
                    int x = stack[sp - n + k];
                    onstack[x] = 0;
                    order[filled++] = x;
                }
                sp -= n;
            }
            csp--;
            if (csp >= 0) {
                int parent = cs_e[csp];
                if (low[e] < low[parent])
                    low[parent] = low[e];
            }
        }
    }
    start[nblocks] = filled;
    free(index); free(low); free(onstack); free(stack); free(cs_e); free(cs_k);
    return nblocks;
}
