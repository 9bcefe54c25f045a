/*
 * dae_hash.c - the expression table's structural hash separates the nodes
 * a big model makes, and a rebuild that changes nothing returns the
 * nodes it was given.
 *
 * The nodes of a chain model are variables (index, order), parameters,
 * constants and sums and products of nodes made just before: fields that
 * differ in a few low bits.  Equal 32-bit hashes between distinct nodes
 * cost a comparison each on every lookup; a hash that combines fields
 * weakly had 375,000 such comparisons while making a 100,000-equation
 * model, between relations of neighbouring kinds against one constant.
 * Here 360,000 distinct nodes may share a hash only by chance: about
 * n^2 / 2^33 = 15 pairs.
 */
#include "dae.h"
#include "unit.h"

#include <stdlib.h>

enum { NVARS = 30000 };

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* A leaf map that maps nothing: the rebuild is the identity. */
static DaeExpr *keep(void *ctx, DaeExprTable *t, const DaeExpr *leaf)
{
    (void)ctx;
    (void)t;
    return (DaeExpr *)leaf;
}

/* A leaf map that replaces variable 0 by variable 1. */
static DaeExpr *swap01(void *ctx, DaeExprTable *t, const DaeExpr *leaf)
{
    (void)ctx;
    return leaf->u.var.index == 0 ? dae_var(t, 1, leaf->u.var.order) : (DaeExpr *)leaf;
}

int main(void)
{
    Arena arena = {0};
    DaeExprTable t = {0};
    dae_table_init(&t, &arena);
    size_t cap = 12 * (size_t)NVARS, n = 0;
    DaeExpr *zero = dae_const(&t, 0);
    uint32_t *h = malloc(cap * sizeof *h);
    DaeExpr *prev = dae_var(&t, 0, 0);
    for (int i = 0; i < NVARS; i++) {
        DaeExpr *x = dae_var(&t, i, 0), *dx = dae_var(&t, i, 1);
        DaeExpr *k = dae_const(&t, 1.0 + i), *p = dae_param(&t, i);
        DaeExpr *s = dae_sub(&t, x, prev), *m = dae_mul(&t, p, s);
        h[n++] = x->hash;
        h[n++] = dx->hash;
        h[n++] = k->hash;
        h[n++] = p->hash;
        h[n++] = s->hash;
        h[n++] = m->hash;
        /* relations of one kind each against one shared constant: the
           weak combination made x_i > 0 and x_j >= 0 collide */
        for (DaeExprKind r = DX_LT; r <= DX_NE; r++)
            h[n++] = dae_binary(&t, r, s, zero)->hash;
        prev = x;
    }
    qsort(h, n, sizeof *h, cmp_u32);
    int same = 0;
    for (size_t i = 1; i < n; i++)
        same += h[i] == h[i - 1];
    printf("%zu nodes, %d equal hashes\n", n, same);
    CHECK(same < 100);
    free(h);

    /* A rebuild that maps no leaf gives back the same nodes and makes
       none; one that maps a leaf rebuilds only the nodes above it. */
    DaeExpr *x0 = dae_var(&t, 0, 0), *x1 = dae_var(&t, 1, 0), *x2 = dae_var(&t, 2, 0);
    DaeExpr *e = dae_add(&t, dae_mul(&t, dae_param(&t, 0), x0),
                         dae_func(&t, FN_SIN, x2, NULL));
    uint32_t before = t.count;
    PtrMap memo = {0};
    CHECK(dae_substitute(&t, e, keep, NULL, &memo) == e);
    CHECK(t.count == before);
    ptrmap_clear(&memo);
    DaeExpr *r = dae_substitute(&t, e, swap01, NULL, &memo);
    CHECK(t.count == before + 2); /* p0 * x1 and the sum: sin(x2) is kept */
    CHECK(r == dae_add(&t, dae_mul(&t, dae_param(&t, 0), x1), dae_func(&t, FN_SIN, x2, NULL)));
    ptrmap_free(&memo);

    dae_table_free(&t);
    arena_free(&arena);
    return unit_failures();
}
