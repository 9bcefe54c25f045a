/*
 * dae_discrete.c - the discrete part of the flat DAE: event
 * variables, when statements and mode charts (dae.h), and the walks the
 * passes need over them.
 *
 * The continuous passes (simplify, structure) see only the equations;
 * the discrete part's expressions (predicates, assigned values,
 * transition predicates, entry actions, resets) must follow every
 * substitution the equations get, which dae_discrete_map provides in one
 * place.
 */
#include "dae.h"

const char *dae_evar_name(void *dae, int index)
{
    Dae *d = dae;
    if (index < 0 || index >= d->evars.n)
        return "?";
    return ((DaeEvar *)d->evars.items[index])->name;
}

void dae_each_eq_node(Dae *d, DaeNodeFn fn, void *ctx)
{
    PtrMap seen = {0};
    PtrVec stack = {0};
    for (int i = 0; i < d->eqs.n; i++) {
        DaeEq *q = d->eqs.items[i];
        ptrvec_push(&d->arena, &stack, q->lhs);
        ptrvec_push(&d->arena, &stack, q->rhs);
    }
    while (stack.n) {
        DaeExpr *e = stack.items[--stack.n];
        if (ptrmap_get(&seen, e))
            continue;
        ptrmap_put(&seen, e, e);
        if (!fn(ctx, e))
            continue;
        DaeExpr *kids[3];
        for (int i = 0, nk = dae_children(e, kids); i < nk; i++)
            ptrvec_push(&d->arena, &stack, kids[i]);
    }
    ptrmap_free(&seen);
}

static void map_assigns(PtrVec *v, DaeExprMap fn, void *ctx)
{
    for (int i = 0; i < v->n; i++) {
        DaeAssign *a = v->items[i];
        a->value = fn(ctx, a->value);
    }
}

void dae_discrete_map(Dae *d, DaeExprMap fn, void *ctx)
{
    for (int i = 0; i < d->whens.n; i++) {
        DaeWhen *w = d->whens.items[i];
        for (int j = 0; j < w->branches.n; j++) {
            DaeBranch *b = w->branches.items[j];
            b->pred = fn(ctx, b->pred);
            map_assigns(&b->assigns, fn, ctx);
        }
    }
    for (int i = 0; i < d->charts.n; i++) {
        DaeChart *c = d->charts.items[i];
        for (int j = 0; j < c->modes.n; j++) {
            DaeMode *m = c->modes.items[j];
            map_assigns(&m->entry, fn, ctx);
            for (int k = 0; k < m->resets.n; k++) {
                DaeReset *r = m->resets.items[k];
                r->res = fn(ctx, r->res);
                if (r->value)
                    r->value = fn(ctx, r->value);
            }
        }
        for (int j = 0; j < c->transitions.n; j++) {
            DaeTransition *t = c->transitions.items[j];
            t->pred = fn(ctx, t->pred);
        }
    }
}

/* What dae_subst_evar puts for its event variable. */
typedef struct EvarValue {
    int evar;               /* the event variable's index */
    double value;           /* its value */
} EvarValue;

static DaeExpr *evar_leaf(void *ctx, DaeExprTable *t, const DaeExpr *leaf)
{
    const EvarValue *ev = ctx;
    if (leaf->kind == DX_EVAR && leaf->u.evar.index == ev->evar)
        return dae_const(t, ev->value);
    return (DaeExpr *)leaf;
}

DaeExpr *dae_subst_evar(DaeExprTable *t, DaeExpr *e, int evar, double value, PtrMap *memo)
{
    EvarValue ev = {evar, value};
    return dae_map_leaves(t, e, DXF_EVAR, evar_leaf, &ev, memo);
}
