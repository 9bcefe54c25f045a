/*
 * dae_shared.c - questions about a deep shared expression DAG are answered
 * without walking every path.
 *
 * e[0] = x, e[k+1] = e[k] + sin(e[k]): each node is used twice by the
 * next, so the 60-node chain has 2^60 paths from the top to x.  A walk
 * that follows every path (what the recursive dae_depends_on_state,
 * dae_has_var and dae_mentions_var did) would never finish; with the
 * flags cached at construction and a visited mark per node, the checks
 * below cost the DAG's size.  ctest's timeout turns a regression into a
 * failure.
 */
#include "dae.h"
#include "unit.h"

enum { DEPTH = 60 };

int main(void)
{
    Arena arena = {0};
    DaeExprTable t = {0};
    dae_table_init(&t, &arena);
    DaeExpr *e = dae_var(&t, 0, 0);
    for (int k = 0; k < DEPTH; k++)
        e = dae_add(&t, e, dae_func(&t, FN_SIN, e, NULL));
    DaeExpr *kids[3];
    CHECK(dae_children(e, kids) == 2);
    CHECK(kids[1]->kind == DX_FUNC && kids[1]->u.fn.a == kids[0]);

    CHECK(dae_has_var(e));
    CHECK(dae_depends_on_state(e));
    CHECK(dae_mentions_var(&t, e, 0, 0));
    CHECK(!dae_mentions_var(&t, e, 0, 1));
    CHECK(!dae_mentions_var(&t, e, 1, 0));
    /* Variables whose Bloom bit is the same as x's force the walk down:
       it must still visit each node once, not once per path. */
    int collisions = 0;
    for (int v = 1; v < 4096 && collisions < 8; v++) {
        DaeExpr *y = dae_var(&t, v, 0);
        if ((y->vars & e->vars) == 0)
            continue;
        collisions++;
        CHECK(!dae_mentions_var(&t, e, v, 0));
    }
    CHECK(collisions > 0);

    /* time and parameters only */
    DaeExpr *p = dae_param(&t, 0);
    for (int k = 0; k < DEPTH; k++)
        p = dae_mul(&t, p, dae_add(&t, p, dae_const(&t, 1)));
    CHECK(!dae_has_var(p));
    CHECK(!dae_depends_on_state(p));
    DaeExpr *pt = dae_add(&t, p, dae_time(&t));
    CHECK(!dae_has_var(pt));
    CHECK(dae_depends_on_state(pt));
    CHECK(!dae_mentions_var(&t, pt, 0, 0));

    /* the derivative of the chain is linear in its size too (memoised) */
    PtrMap memo = {0};
    DaeExpr *d = dae_diff_var(&t, e, 0, 0, &memo);
    ptrmap_free(&memo);
    CHECK(dae_mentions_var(&t, d, 0, 0));
    CHECK(t.count < 100000);

    dae_table_free(&t);
    arena_free(&arena);
    return unit_failures();
}
