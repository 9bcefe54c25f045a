/*
 * prefer.c - state preference (prefer.h).
 *
 * The ranking is what a Simscape or Modelica user expects to see as
 * states: the variables of masses and inertias first (a lever on an
 * inertia keeps theta and w, not a port position), then those with
 * targets (high before low), then variables written under der(), then a
 * component's own name for a quantity over a node's.  Simplification
 * compares the whole rank; index reduction only its strong part (masses,
 * inertias, targets), because within one such class it prefers the
 * unknowns with constant coefficients as dummies (docs/language.md, state
 * selection), which the weak criteria must not override.
 */
#include "prefer.h"

int prefer_rank(const DaeVar *v)
{
    return (v->inertial ? 16 : 0) + (int)v->priority * 4 + (v->differentiated ? 2 : 0)
           + (v->kind != VAR_NODE ? 1 : 0);
}

static void mark(Dae *d, DaeExpr *e, PtrMap *seen, bool component)
{
    if (ptrmap_get(seen, e))
        return;
    ptrmap_put(seen, e, e);
    if (e->kind == DX_VAR && e->u.var.order > 0) {
        DaeVar *v = d->vars.items[e->u.var.index];
        v->differentiated = true;
        v->inertial |= component;
    }
    DaeExpr *kids[3];
    for (int i = 0, nk = dae_children(e, kids); i < nk; i++)
        mark(d, kids[i], seen, component);
}

void prefer_mark(Dae *d)
{
    /* component equations first: der() there marks masses, inertias */
    for (int pass = 0; pass < 2; pass++) {
        PtrMap seen = {0};
        for (int i = 0; i < d->eqs.n; i++) {
            DaeEq *q = d->eqs.items[i];
            if ((q->kind == EQ_COMPONENT) != (pass == 0))
                continue;
            mark(d, q->lhs, &seen, pass == 0);
            mark(d, q->rhs, &seen, pass == 0);
        }
        ptrmap_free(&seen);
    }
}

void prefer_alias(DaeVar *kept, const DaeVar *gone)
{
    kept->inertial |= gone->inertial;
    kept->differentiated |= gone->differentiated;
}

void prefer_propagate(Dae *d)
{
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < d->eqs.n; i++) {
            DaeEq *q = d->eqs.items[i];
            const DaeExpr *a = q->lhs, *b = q->rhs;
            if (a->kind == DX_NEG)
                a = a->u.bin.a;
            if (b->kind == DX_NEG)
                b = b->u.bin.a;
            if (a->kind != DX_VAR || b->kind != DX_VAR)
                continue;
            if (a->u.var.order == 1 && b->u.var.order == 0
                && ((DaeVar *)d->vars.items[b->u.var.index])->inertial)
                ((DaeVar *)d->vars.items[a->u.var.index])->inertial = true;
            if (b->u.var.order == 1 && a->u.var.order == 0
                && ((DaeVar *)d->vars.items[a->u.var.index])->inertial)
                ((DaeVar *)d->vars.items[b->u.var.index])->inertial = true;
        }
    }
}
