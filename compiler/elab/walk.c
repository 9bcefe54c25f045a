/*
 * walk.c - walking an instance's active sections, with its for-loops
 * unrolled: the one walk that elaboration's connection step, the balance
 * rule, lint, the unit check and flatten share (elab_each_section), and
 * the unrolling of one loop (elab_unroll), whose range lower_array.c
 * evaluates.
 */
#include "inst.h"

#include "diag.h"
#include "bounds.h"
#include "lower.h"

static void walk(Model *m, ElabInst *in, PtrVec *items, bool active, ElabSectionFn fn,
                 void *ctx);

/* Every iteration of every walk counts against LIMIT_LOOP_ITERATIONS, so
   nested loops cannot make elaboration run without end (three nested
   loops of 3,000 are 2.7e10 iterations, even with nothing in them). */
static bool over_budget(Model *m, const AstFor *f, long n)
{
    if ((double)m->loop_iterations + (double)n <= LIMIT_LOOP_ITERATIONS) {
        m->loop_iterations += n;
        return false;
    }
    if (!m->loop_limit_reported)
        diag_error(f->range->span, "this for-loop would take the model's for-loops past "
                   "%d iterations in all, the limit of elaboration (docs/language.md, "
                   "\"Limits\"); are loops nested deeper than meant?",
                   LIMIT_LOOP_ITERATIONS);
    m->loop_limit_reported = true;
    return true;
}

bool elab_unroll(Model *m, ElabInst *in, const AstFor *f, bool report,
                 bool (*fn)(void *ctx), void *ctx)
{
    LowerRange r;
    if (!lower_range(m, in, f->range, &r, report))
        return false;
    if (over_budget(m, f, r.n)) {
        lower_range_free(&r);
        return false;
    }
    const ElabEnv *outer = in->env;
    for (long k = 0; k < r.n; k++) {
        ElabEnv env = {f->var, (double)lower_range_at(&r, k), outer};
        in->env = &env;
        bool more = fn(ctx);
        in->env = outer;
        if (!more)
            break;
    }
    lower_range_free(&r);
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

