/*
 * walk.c - walking an instance's active sections, with its for-loops
 * unrolled: the one walk that elaboration's connection step, the balance
 * rule, lint, the unit check and flatten share (elab_each_section), and
 * the unrolling of one loop (elab_unroll), whose range lower_array.c
 * evaluates.
 */
#include "inst.h"

#include "lower.h"

static void walk(Model *m, ElabInst *in, PtrVec *items, bool active, ElabSectionFn fn,
                 void *ctx);

bool elab_unroll(Model *m, ElabInst *in, const AstFor *f, bool report,
                 bool (*fn)(void *ctx), void *ctx)
{
    long *vals;
    int n;
    if (!lower_range(m, in, f->range, &vals, &n, report))
        return false;
    const ElabEnv *outer = in->env;
    for (int k = 0; k < n; k++) {
        ElabEnv env = {f->var, (double)vals[k], outer};
        in->env = &env;
        bool more = fn(ctx);
        in->env = outer;
        if (!more)
            break;
    }
    return true;
}

/* arrays: a for-loop's body, once per value of its variable (the range
   was checked when the loop was unrolled). */
typedef struct WalkLoop {
    Model *m;               /* the model */
    ElabInst *in;           /* the instance */
    PtrVec *body;           /* the loop's items */
    ElabSectionFn fn;       /* what the walk calls */
    void *ctx;              /* its context */
} WalkLoop;

static bool walk_iteration(void *ctx)
{
    WalkLoop *w = ctx;
    walk(w->m, w->in, w->body, true, w->fn, w->ctx);
    return true;
}

static void walk_loop(Model *m, ElabInst *in, AstItem *it, ElabSectionFn fn, void *ctx)
{
    WalkLoop w = {m, in, &it->u.for_.body, fn, ctx};
    elab_unroll(m, in, &it->u.for_, false, walk_iteration, &w);
}

static void walk(Model *m, ElabInst *in, PtrVec *items, bool active, ElabSectionFn fn,
                 void *ctx)
{
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind == ITEM_SECTION && active)
            fn(m, in, it, ctx);
    }
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind != ITEM_IF)
            continue;
        for (int j = 0; j < it->u.if_.clauses.n; j++) {
            AstClause *c = it->u.if_.clauses.items[j];
            walk(m, in, &c->body, active && in->arm_active[c->arm], fn, ctx);
        }
    }
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind == ITEM_FOR && active)
            walk_loop(m, in, it, fn, ctx);
    }
}

void elab_each_section(Model *m, ElabInst *in, ElabSectionFn fn, void *ctx)
{
    walk(m, in, &in->def->ast->items, true, fn, ctx);
}

