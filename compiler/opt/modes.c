/*
 * modes.c - the mode analysis, between simplify and the
 * structural analysis: how a mode's equations that constrain states
 * become what the integration and the event iteration need.
 *
 * The design (docs/language.md, "Mode charts"): one state set for all
 * modes.  A mode chart's equations are, per position, an if-expression
 * over the chart's mode (flatten), so the structural analysis sees the
 * union of every mode's incidence, and its matching, index reduction and
 * BLT serve every mode; the plan then checks each block in every mode
 * combination of the charts it involves (plan_modes.c).
 *
 * What changes structure between modes is an equation that constrains
 * states: `v == 0` (stick) or `v == -e*v_before` (impact) where v is a
 * mass's velocity, a state.  Such an equation determines no unknown of
 * the index-1 system, so here, in the mode where it holds, it is
 * replaced by its time derivative (der(v) == 0: the mass equation then
 * determines the force), repeatedly while the derivative still mentions
 * only states, and the equation itself (each level but the last) is kept
 * as a reset of that mode (DaeReset): when the event iteration enters
 * the mode, the states are set so that it holds (plan_modes.c chooses
 * which state each reset sets and solves for it).  Between events the
 * differentiated equation keeps it holding.
 *
 * "Only states" is decided on the simplified DAE, before the structural
 * analysis: every variable the residual mentions, at every order, is
 * differentiated further somewhere in the system (its derivative of the
 * next order appears).  Those are the candidate states; the plan checks
 * that the state a reset sets is one.
 */
#include "modes.h"

#include "diag.h"

#include <stdlib.h>

enum { MODES_MAX_DIFF = 3 };    /* differentiations of one constraint */

/* The highest derivative order of every variable in the equations. */
static bool note_order(void *ctx, DaeExpr *e)
{
    int *maxord = ctx;
    if (e->kind == DX_VAR && e->u.var.order > maxord[e->u.var.index])
        maxord[e->u.var.index] = e->u.var.order;
    return dae_has_var(e);
}

static void max_orders(Dae *d, int *maxord)
{
    dae_each_eq_node(d, note_order, maxord);
}

/* Every variable r mentions is differentiated further in the system. */
static bool only_states(const DaeExpr *r, const int *maxord, PtrMap *seen)
{
    if (!dae_has_var(r) || ptrmap_get(seen, r))
        return true;
    ptrmap_put(seen, r, (void *)r);
    if (r->kind == DX_VAR)
        return r->u.var.order < maxord[r->u.var.index];
    DaeExpr *kids[3];
    for (int i = 0, nk = dae_children(r, kids); i < nk; i++)
        if (!only_states(kids[i], maxord, seen))
            return false;
    return true;
}

static bool is_constraint(const DaeExpr *r, const int *maxord)
{
    if (!dae_has_var(r))
        return false;
    PtrMap seen = {0};
    bool yes = only_states(r, maxord, &seen);
    ptrmap_free(&seen);
    return yes;
}

void modes_analyze(Dae *d)
{
    if (d->charts.n == 0)
        return;
    DaeExprTable *t = &d->t;
    int *maxord = calloc((size_t)d->vars.n + 1, sizeof *maxord);
    if (!maxord)
        abort();
    max_orders(d, maxord);
    for (int i = 0; i < d->eqs.n; i++) {
        DaeEq *q = d->eqs.items[i];
        if (q->chart < 0)
            continue;
        DaeChart *c = d->charts.items[q->chart];
        int nm = c->modes.n;
        DaeExpr *res = dae_sub(t, q->lhs, q->rhs);
        DaeExpr **branch = calloc((size_t)nm + 1, sizeof *branch);
        if (!branch)
            abort();
        bool changed = false;
        for (int j = 0; j < nm; j++) {
            PtrMap memo = {0};
            DaeExpr *r = dae_subst_evar(t, res, c->evar, j + 1, &memo);
            ptrmap_free(&memo);
            DaeMode *m = c->modes.items[j];
            for (int k = 0; k < MODES_MAX_DIFF && is_constraint(r, maxord); k++) {
                DaeReset *rs = arena_alloc(&d->arena, sizeof *rs);
                rs->res = r;
                rs->var = -1;
                rs->span = q->span;
                ptrvec_push(&d->arena, &m->resets, rs);
                PtrMap dm = {0};
                r = dae_diff_time(t, r, &dm);
                ptrmap_free(&dm);
                changed = true;
            }
            if (is_constraint(r, maxord))
                diag_error(q->span, "in mode '%s' of mode chart '%s' (%s), this equation "
                           "constrains only states even after %d differentiations; write "
                           "the mode's equations so that one of them determines an unknown",
                           m->name, c->name, c->instance[0] ? c->instance : "the top model",
                           MODES_MAX_DIFF);
            branch[j] = r;
        }
        if (changed) {
            /* the position becomes res == 0 over the modes, each mode's
               constraint differentiated */
            DaeExpr *mv = dae_evar(t, c->evar, 0);
            DaeExpr *l = branch[nm - 1];
            for (int j = nm - 2; j >= 0; j--)
                l = dae_if(t, dae_binary(t, DX_EQ, mv, dae_const(t, j + 1)), branch[j], l);
            q->lhs = l;
            q->rhs = dae_const(t, 0);
        }
        free(branch);
    }
    free(maxord);
}
