/*
 * dae_discrete.c - the discrete part of the flat DAE (issue 12): event
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

DaeExpr *dae_subst_evar(DaeExprTable *t, DaeExpr *e, int evar, double value, PtrMap *memo)
{
    if (!(e->flags & DXF_EVAR))
        return e;
    DaeExpr *done = ptrmap_get(memo, e);
    if (done)
        return done;
    DaeExpr *r;
#define SUB(x) dae_subst_evar(t, (x), evar, value, memo)
    switch (e->kind) {
    case DX_EVAR:
        r = e->u.evar.index == evar ? dae_const(t, value) : e;
        break;
    case DX_CONST: case DX_PARAM: case DX_VAR: case DX_TIME: case DX_INITIAL:
        r = e;
        break;
    case DX_FUNC:
        r = dae_func(t, e->u.fn.fn, SUB(e->u.fn.a), e->u.fn.b ? SUB(e->u.fn.b) : NULL);
        break;
    case DX_IF:
        r = dae_if(t, SUB(e->u.cond.c), SUB(e->u.cond.a), SUB(e->u.cond.b));
        break;
    case DX_NEG: r = dae_neg(t, SUB(e->u.bin.a)); break;
    case DX_NOT: r = dae_not(t, SUB(e->u.bin.a)); break;
    case DX_EDGE: r = dae_edge(t, SUB(e->u.bin.a)); break;
    case DX_DELAY:
        r = dae_delay(t, SUB(e->u.cond.c), SUB(e->u.cond.a),
                      e->u.cond.b ? SUB(e->u.cond.b) : NULL);
        if (r != e && !ptrmap_get(&t->delays, r)) {
            void *o = ptrmap_get(&t->delays, e);
            if (o)
                ptrmap_put(&t->delays, r, o);
        }
        break;
    default:
        r = dae_binary(t, (DaeExprKind)e->kind, SUB(e->u.bin.a), SUB(e->u.bin.b));
        if (r != e && dae_is_relation(r) && !ptrmap_get(&t->origin, r)) {
            void *o = ptrmap_get(&t->origin, e);
            if (o)
                ptrmap_put(&t->origin, r, o);
        }
        break;
    }
#undef SUB
    ptrmap_put(memo, e, r);
    return r;
}
