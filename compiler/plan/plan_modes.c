/*
 * plan_modes.c - the plan's part of mode charts.
 *
 * Resets.  Each reset of a mode (modes.c: an equation of the mode that
 * constrains only states) is solved for one state, chosen among the
 * states it mentions by prefer_rank (prefer.c, the one ranking of state
 * preference: a mass's or inertia's variable first, the one a user means,
 * like the velocity in `v == -e*v_before`), then the highest derivative
 * order, then the first met; two resets of one mode set two different
 * states.  The equation must be linear in that state: the new
 * value is -r(0) / (dr/dx), evaluated when the mode is entered from the
 * values just before (every reset of the mode at once).
 *
 * Every mode is checked.  The structural analysis ran on the union of all
 * modes (the positions are if-expressions over the modes), so one BLT
 * serves them all; here every block that holds a mode chart's equations
 * is checked in every combination of the modes of the charts it holds:
 * with each mode's equations only, the block's equations must still be
 * able to determine its unknowns (a perfect matching on the incidence of
 * that mode).  A mode that fails is a compile error naming the mode, its
 * chart and the unknowns it leaves undetermined.  Blocks holding more
 * than MODES_MAX_COMBOS combinations are an error too.
 */
#include "plan.h"

#include "diag.h"
#include "prefer.h"

#include <stdlib.h>
#include <string.h>

enum { MODES_MAX_COMBOS = 256, MODES_MAX_CHARTS = 8 };

static StVar *stv(const Plan *p, int i)
{
    return p->s->vars.items[i];
}

/* ---- resets ----------------------------------------------------------- */

/* The state leaves of e, in order of appearance, into out (StVar). */
static void state_leaves(const Plan *p, const DaeExpr *e, PtrMap *seen, PtrVec *out,
                         Arena *a)
{
    if (!dae_has_var(e) || ptrmap_get(seen, e))
        return;
    ptrmap_put(seen, e, (void *)e);
    if (e->kind == DX_VAR) {
        int sv = plan_stvar(p, e->u.var.index, e->u.var.order);
        if (sv >= 0 && stv(p, sv)->state)
            ptrvec_push(a, out, (void *)(intptr_t)(sv + 1));
        return;
    }
    DaeExpr *kids[3];
    for (int i = 0, nk = dae_children(e, kids); i < nk; i++)
        state_leaves(p, kids[i], seen, out, a);
}

typedef struct ZeroOne {
    int var, order;         /* the variable set to 0 */
} ZeroOne;

static DaeExpr *zero_one(void *ctx, DaeExprTable *t, const DaeExpr *leaf)
{
    const ZeroOne *z = ctx;
    if (leaf->u.var.index == z->var && leaf->u.var.order == z->order)
        return dae_const(t, 0);
    return (DaeExpr *)leaf;
}

/* "der(m.v)": a variable of an order as messages show it. */
static void var_text(const Dae *d, int var, int order, char *buf, size_t len)
{
    buf[0] = 0;
    FILE *fp = fmemopen(buf, len, "w");
    if (fp) {
        dae_fput_var(fp, dae_shown_name(d->vars.items[var]), order);
        fclose(fp);
    }
}

static const char *where_of(const DaeChart *c)
{
    return c->instance[0] ? c->instance : "the top model";
}

static bool plan_resets(Plan *p)
{
    Dae *d = p->d;
    DaeExprTable *t = &d->t;
    bool ok = true;
    for (int ci = 0; ci < d->charts.n; ci++) {
        DaeChart *c = d->charts.items[ci];
        for (int j = 0; j < c->modes.n; j++) {
            DaeMode *m = c->modes.items[j];
            for (int k = 0; k < m->resets.n; k++) {
                DaeReset *r = m->resets.items[k];
                PtrVec cand = {0};
                PtrMap seen = {0};
                state_leaves(p, r->res, &seen, &cand, &p->arena);
                ptrmap_free(&seen);
                int best = -1, best_rank = -1, best_order = -1;
                for (int q = 0; q < cand.n; q++) {
                    int sv = (int)(intptr_t)cand.items[q] - 1;
                    StVar *x = stv(p, sv);
                    bool taken = false;
                    for (int o = 0; o < k; o++) {
                        DaeReset *ro = m->resets.items[o];
                        taken |= ro->var == x->var && ro->order == x->order;
                    }
                    if (taken)
                        continue;
                    int rank = prefer_rank(d->vars.items[x->var]);
                    if (rank > best_rank || (rank == best_rank && x->order > best_order)) {
                        best_rank = rank;
                        best_order = x->order;
                        best = sv;
                    }
                }
                if (best < 0) {
                    diag_error(r->span, "in mode '%s' of mode chart '%s' (%s), this "
                               "equation constrains variables of which none is a state "
                               "left for it to set on entering the mode", m->name,
                               c->name, where_of(c));
                    ok = false;
                    continue;
                }
                StVar *x = stv(p, best);
                DaeExpr *a = dae_diff_var(t, r->res, x->var, x->order, NULL);
                if (dae_is_const(a, 0) || dae_mentions_var(t, a, x->var, x->order)) {
                    char name[160];
                    var_text(d, x->var, x->order, name, sizeof name);
                    diag_error(r->span, "in mode '%s' of mode chart '%s' (%s), this "
                               "equation constrains the state %s, but it is not linear in "
                               "it: a reset solves it for %s when the mode is entered",
                               m->name, c->name, where_of(c), name, name);
                    ok = false;
                    continue;
                }
                ZeroOne z = {x->var, x->order};
                PtrMap memo = {0};
                DaeExpr *r0 = dae_substitute(t, r->res, zero_one, &z, &memo);
                ptrmap_free(&memo);
                r->var = x->var;
                r->order = x->order;
                r->value = dae_div(t, dae_neg(t, r0), a);
            }
        }
    }
    return ok;
}

/* ---- every mode of every block ---------------------------------------- */

/* The block's unknowns that e mentions outside conditions (as the
   structural analysis reads incidence): bit i of row for unknown i. */
static void incidence(const Plan *p, const PlanBlock *b, const DaeExpr *e, PtrMap *seen,
                      unsigned char *row)
{
    if (!dae_has_var(e) || ptrmap_get(seen, e))
        return;
    ptrmap_put(seen, e, (void *)e);
    if (e->kind == DX_VAR) {
        for (int i = 0; i < b->n; i++) {
            StVar *x = stv(p, b->vars[i]);
            if (x->var == e->u.var.index && x->order == e->u.var.order)
                row[i] = 1;
        }
        return;
    }
    if (dae_is_relation(e) || e->kind == DX_AND || e->kind == DX_OR || e->kind == DX_NOT)
        return;
    DaeExpr *kids[3];
    for (int i = e->kind == DX_IF || e->kind == DX_DELAY ? 1 : 0, nk = dae_children(e, kids);
         i < nk; i++)
        incidence(p, b, kids[i], seen, row);
}

static bool augment(int n, const unsigned char *adj, int e, int *mate, char *seen)
{
    for (int v = 0; v < n; v++) {
        if (!adj[e * n + v] || seen[v])
            continue;
        seen[v] = 1;
        if (mate[v] < 0 || augment(n, adj, mate[v], mate, seen)) {
            mate[v] = e;
            return true;
        }
    }
    return false;
}

/* The first unknown a perfect matching of adj (n x n) leaves out, or -1. */
static int unmatched(int n, const unsigned char *adj)
{
    int *mate = malloc(sizeof *mate * (size_t)n);
    char *seen = malloc((size_t)n + 1);
    if (!mate || !seen)
        abort();
    for (int v = 0; v < n; v++)
        mate[v] = -1;
    for (int e = 0; e < n; e++) {
        memset(seen, 0, (size_t)n);
        augment(n, adj, e, mate, seen);
    }
    int out = -1;
    for (int v = 0; v < n && out < 0; v++)
        if (mate[v] < 0)
            out = v;
    free(mate);
    free(seen);
    return out;
}

static bool check_block(Plan *p, int k, bool *reported)
{
    Dae *d = p->d;
    PlanBlock *b = &p->blocks[k];
    int charts[MODES_MAX_CHARTS], nch = 0;
    for (int i = 0; i < b->n; i++) {
        StEq *q = p->s->eqs.items[b->eqs[i]];
        DaeEq *o = d->eqs.items[q->base];
        if (o->chart < 0)
            continue;
        bool have = false;
        for (int j = 0; j < nch; j++)
            have |= charts[j] == o->chart;
        if (have)
            continue;
        if (nch == MODES_MAX_CHARTS) {
            diag_error(o->span, "this equation is solved together with the equations of "
                       "more than %d mode charts (block %d): too many mode combinations "
                       "to check", MODES_MAX_CHARTS, k);
            return false;
        }
        charts[nch++] = o->chart;
    }
    if (nch == 0)
        return true;
    long combos = 1;
    for (int j = 0; j < nch; j++) {
        combos *= ((DaeChart *)d->charts.items[charts[j]])->modes.n;
        if (combos > MODES_MAX_COMBOS) {
            DaeChart *c = d->charts.items[charts[j]];
            diag_error(c->span, "the equations of mode chart '%s' (%s) are solved together "
                       "with others in block %d, in more than %d combinations of modes: "
                       "too many to check", c->name, where_of(c), k, MODES_MAX_COMBOS);
            return false;
        }
    }
    int n = b->n;
    unsigned char *adj = calloc((size_t)n * (size_t)n + 1, 1);
    int *mode = calloc((size_t)nch, sizeof *mode);
    if (!adj || !mode)
        abort();
    bool ok = true;
    for (long cb = 0; cb < combos; cb++) {
        long rest = cb;
        for (int j = 0; j < nch; j++) {
            int nm = ((DaeChart *)d->charts.items[charts[j]])->modes.n;
            mode[j] = (int)(rest % nm);
            rest /= nm;
        }
        memset(adj, 0, (size_t)n * (size_t)n);
        for (int i = 0; i < n; i++) {
            DaeExpr *r = ((StEq *)p->s->eqs.items[b->eqs[i]])->res;
            for (int j = 0; j < nch; j++) {
                PtrMap memo = {0};
                DaeChart *c = d->charts.items[charts[j]];
                r = dae_subst_evar(&d->t, r, c->evar, mode[j] + 1, &memo);
                ptrmap_free(&memo);
            }
            PtrMap seen = {0};
            incidence(p, b, r, &seen, adj + (size_t)i * (size_t)n);
            ptrmap_free(&seen);
        }
        int lost = unmatched(n, adj);
        if (lost < 0)
            continue;
        /* name the mode: the first chart whose mode here is not its first,
           else the first chart */
        int jc = 0;
        for (int j = 0; j < nch; j++)
            if (mode[j] > 0) {
                jc = j;
                break;
            }
        DaeChart *c = d->charts.items[charts[jc]];
        DaeMode *m = c->modes.items[mode[jc]];
        int key = charts[jc] * 64 + mode[jc];
        ok = false;
        if (key < 64 * 64 && reported[key])
            continue;
        if (key < 64 * 64)
            reported[key] = true;
        StVar *x = stv(p, b->vars[lost]);
        char name[160];
        var_text(d, x->var, x->order, name, sizeof name);
        diag_error(m->span, "mode '%s' of mode chart '%s' (%s) makes the system "
                   "singular: with its equations, %s cannot be determined (in block %d, "
                   "%d equation%s)", m->name, c->name, where_of(c), name, k, n,
                   n == 1 ? "" : "s");
    }
    free(adj);
    free(mode);
    return ok;
}

bool plan_modes(Plan *p)
{
    if (p->d->charts.n == 0)
        return true;
    bool ok = plan_resets(p);
    bool *reported = calloc(64 * 64, sizeof *reported);
    if (!reported)
        abort();
    for (int k = 0; k < p->nblocks; k++)
        ok &= check_block(p, k, reported);
    free(reported);
    return ok;
}

/* ---- delays ------------------------------------------------------------- */

static void find_delays(Plan *p, DaeExpr *e, PtrMap *seen)
{
    if (!dae_depends_on_state(e) || ptrmap_get(seen, e))
        return;
    ptrmap_put(seen, e, (void *)e);
    if (e->kind == DX_DELAY && !ptrmap_get(&p->delay_index, e)) {
        ptrvec_push(&p->arena, &p->delays, e);
        ptrmap_put(&p->delay_index, e, (void *)(intptr_t)p->delays.n);
    }
    DaeExpr *kids[3];
    for (int i = 0, nk = dae_children(e, kids); i < nk; i++)
        find_delays(p, kids[i], seen);
}

bool plan_contains_delay(const DaeExpr *e, PtrMap *seen)
{
    if (!dae_depends_on_state(e) || ptrmap_get(seen, e))
        return false;
    ptrmap_put(seen, e, (void *)e);
    if (e->kind == DX_DELAY)
        return true;
    DaeExpr *kids[3];
    for (int i = 0, nk = dae_children(e, kids); i < nk; i++)
        if (plan_contains_delay(kids[i], seen))
            return true;
    return false;
}

typedef struct DelayWalk {
    Plan *p;                /* the plan */
    PtrMap *seen;           /* nodes visited */
} DelayWalk;

static DaeExpr *visit_delays(void *ctx, DaeExpr *e)
{
    DelayWalk *w = ctx;
    find_delays(w->p, e, w->seen);
    return e;
}

bool plan_delays(Plan *p)
{
    Dae *d = p->d;
    bool ok = true;
    PtrMap seen = {0};
    for (int i = 0; i < p->s->eqs.n; i++) {
        StEq *q = p->s->eqs.items[i];
        if (q->level > 0) {
            PtrMap s2 = {0};
            bool has = plan_contains_delay(((DaeEq *)d->eqs.items[q->base])->lhs, &s2)
                       || plan_contains_delay(((DaeEq *)d->eqs.items[q->base])->rhs, &s2);
            ptrmap_free(&s2);
            if (has) {
                DaeEq *o = d->eqs.items[q->base];
                diag_error(o->span, "this equation holds a delay() and the index "
                           "reduction differentiates it, which is not supported: write "
                           "the model so that this equation is not a constraint");
                ok = false;
                continue;
            }
        }
        find_delays(p, q->res, &seen);
    }
    for (int i = 0; i < d->asserts.n; i++)
        find_delays(p, ((DaeAssert *)d->asserts.items[i])->cond, &seen);
    for (int i = 0; i < p->nrels; i++)
        find_delays(p, p->rels[i].crossing, &seen);
    DelayWalk w = {p, &seen};
    dae_discrete_map(d, visit_delays, &w);
    ptrmap_free(&seen);
    return ok;
}
