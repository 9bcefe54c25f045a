/*
 * blt_order.c - Tarjan's block order (compiler/structure/blt.c) on small hand-made
 * dependency graphs: a chain, cycles, a join of two cycles, self loops and
 * known unknowns ignored, and a long chain that a recursive search would
 * not survive.
 */
#include "blt.h"
#include "unit.h"

#include <stdbool.h>
#include <stdlib.h>

/* eq i depends on deps[i][0 .. n[i]-1] (-1: a known unknown). */
typedef struct Deps {
    const int *const *deps;
    const int *n;
} Deps;

static int d_nadj(void *ctx, int eq)
{
    return ((Deps *)ctx)->n[eq];
}

static int d_dep(void *ctx, int eq, int k)
{
    return ((Deps *)ctx)->deps[eq][k];
}

/* The component of each equation, and whether every dependency comes in
   an earlier component (or the same one). */
static bool ordered(const Deps *d, int neq, const int *order, const int *start, int nb,
                    int *comp)
{
    for (int c = 0; c < nb; c++)
        for (int k = start[c]; k < start[c + 1]; k++)
            comp[order[k]] = c;
    for (int e = 0; e < neq; e++)
        for (int k = 0; k < d->n[e]; k++)
            if (d->deps[e][k] >= 0 && comp[d->deps[e][k]] > comp[e])
                return false;
    return start[nb] == neq;
}

static int sort(const Deps *d, int neq, int *order, int *start)
{
    BltGraph g = {neq, d_nadj, d_dep, (void *)d};
    return blt_sort(&g, order, start);
}

static void chain(void)
{
    /* e0 needs e1 (and a known), e1 needs e2: three blocks, e2 first
       although the search starts at e0 */
    static const int d0[] = {1, -1}, d1[] = {2}, d2[] = {-1};
    static const int *const deps[] = {d0, d1, d2};
    static const int n[] = {2, 1, 1};
    Deps d = {deps, n};
    int order[3], start[4], comp[3];
    int nb = sort(&d, 3, order, start);
    CHECK(nb == 3);
    CHECK(ordered(&d, 3, order, start, nb, comp));
    CHECK(comp[2] == 0 && comp[1] == 1 && comp[0] == 2);
}

static void cycle(void)
{
    /* e0 <-> e1 is one block (a loop); e2 needs e1; e3 is alone */
    static const int d0[] = {1}, d1[] = {0}, d2[] = {1}, d3[] = {-1};
    static const int *const deps[] = {d0, d1, d2, d3};
    static const int n[] = {1, 1, 1, 1};
    Deps d = {deps, n};
    int order[4], start[5], comp[4];
    int nb = sort(&d, 4, order, start);
    CHECK(nb == 3);
    CHECK(ordered(&d, 4, order, start, nb, comp));
    CHECK(comp[0] == comp[1] && comp[2] > comp[0]);
    CHECK(start[comp[0] + 1] - start[comp[0]] == 2);
}

static void two_cycles_joined(void)
{
    /* {e0, e1, e2} a 3-cycle, {e3, e4} a 2-cycle needing e2, e5 needing
       both cycles; e5 also depends on itself (ignored) */
    static const int d0[] = {2}, d1[] = {0}, d2[] = {1}, d3[] = {4, 2}, d4[] = {3},
                     d5[] = {5, 3, 0, -1};
    static const int *const deps[] = {d0, d1, d2, d3, d4, d5};
    static const int n[] = {1, 1, 1, 2, 1, 4};
    Deps d = {deps, n};
    int order[6], start[7], comp[6];
    int nb = sort(&d, 6, order, start);
    CHECK(nb == 3);
    CHECK(ordered(&d, 6, order, start, nb, comp));
    CHECK(comp[0] == comp[1] && comp[1] == comp[2]);
    CHECK(comp[3] == comp[4] && comp[3] != comp[0]);
    CHECK(comp[5] == 2);
}

static void long_chain(void)
{
    /* e_i needs e_{i+1}: 200000 blocks, the search from e_0 walking the
       whole chain down before the first one is complete */
    enum { N = 200000 };
    int *store = calloc(N, sizeof(int));
    const int **deps = calloc(N, sizeof *deps);
    int *n = calloc(N, sizeof(int));
    for (int i = 0; i < N; i++) {
        store[i] = i + 1 < N ? i + 1 : -1;
        deps[i] = store + i;
        n[i] = 1;
    }
    Deps d = {(const int *const *)deps, n};
    int *order = calloc(N, sizeof(int)), *start = calloc(N + 1, sizeof(int));
    int *comp = calloc(N, sizeof(int));
    BltGraph g = {N, d_nadj, d_dep, &d};
    int nb = blt_sort(&g, order, start);
    CHECK(nb == N);
    CHECK(ordered(&d, N, order, start, nb, comp));
    CHECK(order[0] == N - 1 && order[N - 1] == 0);
    /* and one big cycle: the last needs the first */
    store[N - 1] = 0;
    nb = blt_sort(&g, order, start);
    CHECK(nb == 1 && start[1] == N);
    free(store); free(deps); free(n); free(order); free(start); free(comp);
}

int main(void)
{
    chain();
    cycle();
    two_cycles_joined();
    long_chain();
    return unit_failures();
}
