/*
 * plan.c - pass 8: the decisions between the sorted system and its C
 * (plan.h).
 *
 * Blocks.  A scalar block whose unknown appears linearly is explicit:
 * x = -r(0) / (dr/dx), r(0) being the residual with the unknown set to 0.
 * A block whose symbolic Jacobian does not mention its own unknowns is
 * linear: F(z) = J z + F(0).  If every pivot of a Gaussian elimination can
 * be chosen among constant or parameter-only coefficients (largest at the
 * parameters' defaults, constants first since they never vanish), the
 * elimination is done here, once, and the simulator evaluates closed
 * forms; otherwise the simulator factors J with partial pivoting at every
 * evaluation.  Every other block is solved by Newton with the analytic
 * Jacobian.  Pivots that depend on parameters only are checked once,
 * after the parameters are set; those that depend on the state at every
 * evaluation.
 *
 * Relations.  A relation in the equations that depends on the state gets
 * a mode: eval reads it frozen, a zero-crossing function watches it.  A
 * relation that occurs only inside branches of an if-expression whose
 * condition is one relation g cannot change the equations while g has the
 * other value; the runtime then follows it silently (its guard).
 * Occurrences under compound conditions, at the top, or inside another
 * relation's operands (which the zero-crossing functions evaluate) have no
 * guard, and a guard must itself be unguarded, or chains could hide
 * events.
 *
 * The Jacobian's sparsity.  Which states each unknown depends on follows
 * the blocks in order (the unknowns of one block share their inputs); a
 * greedy coloring groups the columns that share no row, so an implicit
 * stepper's finite differences need one evaluation per color.  A set that
 * would exceed a quarter of the states means "dense", and so does a
 * coloring with more than half as many colors as states.
 *
 * The order in which this file builds expressions is the order the
 * compiler always built them in (the elimination's budget counts the nodes
 * it creates), so plans are reproducible.
 */
#include "plan.h"

#include "diag.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Loops larger than these are not tried as linear, or not eliminated. */
enum { LINEAR_MAX = 64, SYMBOLIC_MAX = 16 };
/* New nodes an elimination may create before it gives up. */
enum { SYMBOLIC_BUDGET = 20000 };

#define X_PLANNAME(k, s) s,
const char *const plan_method_names[] = {PLAN_METHODS(X_PLANNAME)};

DaeExpr *plan_column_value(const Plan *p, const PlanColumn *c)
{
    DaeVar *v = c->var >= 0 ? p->d->vars.items[c->var] : NULL;
    if (c->value)
        return c->value;
    return !v ? c->expr : v->eliminated ? v->alias_expr : dae_var(&p->d->t, c->var, 0);
}

int plan_stvar(const Plan *p, int var, int order)
{
    if (var < 0 || var >= p->d->vars.n || order >= p->norders[var])
        return -1;
    return p->stvar[var][order];
}

int plan_read_stvar(const Plan *p, int var, int order)
{
    int sv = plan_stvar(p, var, order);
    return sv >= 0 && p->copy_of[sv] >= 0 ? p->copy_of[sv] : sv;
}

static StVar *stv(const Plan *p, int i)
{
    return p->s->vars.items[i];
}

static DaeExpr *block_res(const Plan *p, const PlanBlock *b, int i)
{
    return ((StEq *)p->s->eqs.items[b->eqs[i]])->res;
}

/* ---- explicit blocks ---------------------------------------------------- */

static DaeExpr *zero_leaf(void *ctx, DaeExprTable *tab, const DaeExpr *leaf)
{
    const StVar *x = ctx;
    if (leaf->u.var.index == x->var && leaf->u.var.order == x->order)
        return dae_const(tab, 0);
    return (DaeExpr *)leaf;
}

/* Solves the scalar blocks whose unknown appears linearly; false after
   one whose unknown cancels out. */
static bool plan_scalars(Plan *p)
{
    bool ok = true;
    Dae *d = p->d;
    DaeExprTable *tab = &d->t;
    PtrMap memo = {0}; /* one block's substitution at a time */
    for (int k = 0; k < p->nblocks; k++) {
        PlanBlock *b = &p->blocks[k];
        if (b->n != 1)
            continue;
        StEq *q = p->s->eqs.items[b->eqs[0]];
        StVar *x = stv(p, b->vars[0]);
        DaeExpr *a = dae_diff_var(tab, q->res, x->var, x->order, NULL);
        if (dae_is_const(a, 0)) {
            /* matched structurally, but the unknown cancels out */
            DaeEq *o = d->eqs.items[q->base];
            char text[200], name[160] = "";
            dae_eq_text(d, o, text, sizeof text);
            FILE *fp = fmemopen(name, sizeof name, "w");
            if (fp) {
                dae_fput_var(fp, ((DaeVar *)d->vars.items[x->var])->name, x->order);
                fclose(fp);
            }
            diag_error(o->span, "the model is singular: %s%s is the only equation "
                       "left for %s, but %s cancels out of it (%s)",
                       q->level ? "a derivative of " : "", text, name, name,
                       o->instance[0] ? o->instance : "top model");
            dae_note_eq_places(d, o, NULL);
            ok = false;
            continue;
        }
        if (dae_mentions_var(tab, a, x->var, x->order))
            continue;
        DaeExpr *r0 = dae_substitute(tab, q->res, zero_leaf, x, &memo);
        ptrmap_clear(&memo); /* the next block zeroes another unknown */
        b->method = PLAN_EXPLICIT;
        b->pivot = a;
        b->solved = dae_div(tab, dae_neg(tab, r0), a);
    }
    ptrmap_free(&memo);
    return ok;
}

/* ---- loops --------------------------------------------------------------- */

typedef struct ZeroCtx {
    const Plan *p;
    const PlanBlock *b;
} ZeroCtx;

static DaeExpr *zero_block_vars(void *ctx, DaeExprTable *tab, const DaeExpr *leaf)
{
    ZeroCtx *z = ctx;
    for (int i = 0; i < z->b->n; i++) {
        StVar *x = stv(z->p, z->b->vars[i]);
        if (leaf->u.var.index == x->var && leaf->u.var.order == x->order)
            return dae_const(tab, 0);
    }
    return (DaeExpr *)leaf;
}

/* A loop whose Jacobian does not mention its own unknowns is linear:
   F(z) = J z + F(0).  Sets A (J, row-major) and r0 (F(0)); false if the
   loop is not linear. */
static bool linear_parts(Plan *p, PlanBlock *b)
{
    DaeExprTable *tab = &p->d->t;
    int n = b->n;
    if (n > LINEAR_MAX)
        return false;
    DaeExpr **A = arena_alloc(&p->arena, sizeof(DaeExpr *) * (size_t)(n * n));
    DaeExpr **r0 = arena_alloc(&p->arena, sizeof(DaeExpr *) * (size_t)n);
    for (int i = 0; i < n; i++) {
        DaeExpr *r = block_res(p, b, i);
        for (int j = 0; j < n; j++) {
            StVar *x = stv(p, b->vars[j]);
            DaeExpr *dj = dae_diff_var(tab, r, x->var, x->order, NULL);
            for (int k = 0; k < n; k++) {
                StVar *y = stv(p, b->vars[k]);
                if (dae_mentions_var(tab, dj, y->var, y->order))
                    return false;
            }
            A[i * n + j] = dj;
        }
        ZeroCtx z = {p, b};
        PtrMap memo = {0};
        r0[i] = dae_substitute(tab, r, zero_block_vars, &z, &memo);
        ptrmap_free(&memo);
    }
    b->A = A;
    b->r0 = r0;
    return true;
}

/* Eliminates a linear loop at compile time when every pivot can be chosen
   among constant or parameter-only coefficients, largest at the
   parameters' defaults.  Sets pivots and values; false if it cannot. */
static bool symbolic_linear(Plan *p, PlanBlock *b, const double *pdefault)
{
    DaeExprTable *tab = &p->d->t;
    int n = b->n;
    if (n > SYMBOLIC_MAX)
        return false;
    uint32_t budget = tab->count + SYMBOLIC_BUDGET;
    DaeExpr **M = mem_calloc((size_t)(n * n), sizeof *M);
    DaeExpr **r = mem_calloc((size_t)n, sizeof *r);
    memcpy(M, b->A, sizeof(DaeExpr *) * (size_t)(n * n));
    for (int i = 0; i < n; i++)
        r[i] = dae_neg(tab, b->r0[i]);
    bool ok = true;
    for (int k = 0; k < n && ok; k++) {
        int best = -1;
        double bestv = 0;
        for (int i = k; i < n; i++) {
            DaeExpr *e = M[i * n + k];
            if (dae_is_const(e, 0) || dae_depends_on_state(e))
                continue;
            double v = fabs(dae_eval_params(e, pdefault));
            if (e->kind == DX_CONST)
                v += 1e300; /* constants first: never zero */
            if (isfinite(v) ? v > bestv : bestv == 0) {
                bestv = v;
                best = i;
            }
        }
        if (best < 0 || !(bestv > 0)) {
            ok = false;
            break;
        }
        if (best != k) {
            for (int j = 0; j < n; j++) {
                DaeExpr *t = M[k * n + j];
                M[k * n + j] = M[best * n + j];
                M[best * n + j] = t;
            }
            DaeExpr *t = r[k];
            r[k] = r[best];
            r[best] = t;
        }
        for (int i = k + 1; i < n; i++) {
            if (dae_is_const(M[i * n + k], 0))
                continue;
            DaeExpr *f = dae_div(tab, M[i * n + k], M[k * n + k]);
            for (int j = k + 1; j < n; j++)
                if (!dae_is_const(M[k * n + j], 0))
                    M[i * n + j] = dae_sub(tab, M[i * n + j], dae_mul(tab, f, M[k * n + j]));
            r[i] = dae_sub(tab, r[i], dae_mul(tab, f, r[k]));
            M[i * n + k] = dae_const(tab, 0);
        }
        if (tab->count > budget)
            ok = false;
    }
    if (ok) {
        b->pivots = arena_alloc(&p->arena, sizeof(DaeExpr *) * (size_t)n);
        b->values = arena_alloc(&p->arena, sizeof(DaeExpr *) * (size_t)n);
        for (int k = n - 1; k >= 0; k--) {
            DaeExpr *acc = r[k];
            for (int j = k + 1; j < n; j++) {
                if (dae_is_const(M[k * n + j], 0))
                    continue;
                StVar *x = stv(p, b->vars[j]);
                acc = dae_sub(tab, acc,
                              dae_mul(tab, M[k * n + j], dae_var(tab, x->var, x->order)));
            }
            b->pivots[k] = M[k * n + k];
            b->values[k] = dae_div(tab, acc, M[k * n + k]);
        }
    }
    free(M);
    free(r);
    return ok;
}

/* Newton's residuals and analytic Jacobian, row-major. */
static void newton_parts(Plan *p, PlanBlock *b)
{
    int n = b->n;
    b->res = arena_alloc(&p->arena, sizeof(DaeExpr *) * (size_t)n);
    b->jac = arena_alloc(&p->arena, sizeof(DaeExpr *) * (size_t)(n * n));
    for (int i = 0; i < n; i++)
        b->res[i] = block_res(p, b, i);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            StVar *x = stv(p, b->vars[j]);
            b->jac[i * n + j] = dae_diff_var(&p->d->t, b->res[i], x->var, x->order, NULL);
        }
    }
}

static PlanCheck check_of(const DaeExpr *pivot)
{
    if (pivot->kind == DX_CONST)
        return pivot->u.value != 0 ? CHECK_NEVER : CHECK_ONCE;
    return dae_depends_on_state(pivot) ? CHECK_EVAL : CHECK_ONCE;
}

static void plan_loops(Plan *p)
{
    double *pdefault = mem_calloc((size_t)p->d->params.n + 1, sizeof(double));
    for (int i = 0; i < p->d->params.n; i++)
        pdefault[i] = ((DaeParam *)p->d->params.items[i])->value;
    for (int k = 0; k < p->nblocks; k++) {
        PlanBlock *b = &p->blocks[k];
        if (b->method == PLAN_EXPLICIT) {
            b->pivot_check = arena_alloc(&p->arena, sizeof(PlanCheck));
            b->pivot_check[0] = check_of(b->pivot);
            p->nonce += b->pivot_check[0] == CHECK_ONCE;
            continue;
        }
        p->nloops++;
        if (!linear_parts(p, b)) {
            b->method = PLAN_NEWTON;
            newton_parts(p, b);
        } else if (symbolic_linear(p, b, pdefault)) {
            b->method = PLAN_SYMBOLIC;
            b->pivot_check = arena_alloc(&p->arena, sizeof(PlanCheck) * (size_t)b->n);
            for (int i = 0; i < b->n; i++) {
                b->pivot_check[i] = check_of(b->pivots[i]);
                p->nonce += b->pivot_check[i] == CHECK_ONCE;
            }
        } else {
            b->method = PLAN_LU;
        }
    }
    free(pdefault);
}

/* ---- relations and guards -------------------------------------------------- */

static void find_relations(Plan *p, DaeExpr *e, PtrMap *seen, PtrVec *rels)
{
    if (ptrmap_get(seen, e) || dae_is_leaf(e))
        return;
    ptrmap_put(seen, e, e);
    if (dae_is_mode(e) && dae_is_continuous(e) && !ptrmap_get(&p->rel_index, e)) {
        ptrvec_push(&p->arena, rels, e);
        ptrmap_put(&p->rel_index, e, (void *)(intptr_t)rels->n);
    }
    DaeExpr *kids[3];
    for (int i = 0, nk = dae_children(e, kids); i < nk; i++)
        find_relations(p, kids[i], seen, rels);
}

/* When each assertion is checked: parameters do not change during a run,
   so an assertion of parameters alone is checked once. */
static void plan_asserts(Plan *p)
{
    int n = p->d->asserts.n;
    p->assert_once = arena_alloc(&p->arena, sizeof(bool) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        p->assert_once[i] = !dae_depends_on_state(((DaeAssert *)p->d->asserts.items[i])->cond);
}

/* The relations of an assertion's condition: those its logic combines
   (&&, ||, ~, the branches of an if), each a zero crossing.  Their
   operands are evaluated as they are, not through modes: an abs() inside
   is a kink of the crossing function, which needs no event of its own. */
static void find_assert_relations(Plan *p, DaeExpr *e, PtrMap *seen, PtrVec *rels)
{
    if (ptrmap_get(seen, e) || dae_is_leaf(e))
        return;
    ptrmap_put(seen, e, e);
    if (dae_is_mode(e)) {
        if (dae_is_continuous(e) && !ptrmap_get(&p->rel_index, e)) {
            ptrvec_push(&p->arena, rels, e);
            ptrmap_put(&p->rel_index, e, (void *)(intptr_t)rels->n);
        }
        return;
    }
    if (e->kind != DX_AND && e->kind != DX_OR && e->kind != DX_NOT && e->kind != DX_IF)
        return;
    DaeExpr *kids[3];
    for (int i = 0, nk = dae_children(e, kids); i < nk; i++)
        find_assert_relations(p, kids[i], seen, rels);
}

static int rel_of(const Plan *p, const DaeExpr *e)
{
    return (int)(intptr_t)ptrmap_get(&p->rel_index, e) - 1;
}

/* A relation's guard as the walk finds it: -2 while unknown. */
static void note_guard(Plan *p, int r, int g, int v)
{
    PlanRelation *x = &p->rels[r];
    if (x->guard == -2) {
        x->guard = g;
        x->guard_value = v;
    } else if (x->guard != g || x->guard_value != v) {
        x->guard = -1;
    }
}

/* seen: node -> 1 + encoded guard of the first visit, or 1 for "visited
   without a guard". */
static void walk_guards(Plan *p, PtrMap *seen, DaeExpr *e, int g, int v)
{
    if (dae_is_leaf(e))
        return;
    intptr_t key = g < 0 ? 1 : 2 + 2 * (intptr_t)g + v;
    intptr_t old = (intptr_t)ptrmap_get(seen, e);
    if (old == key || old == 1)
        return; /* same context again, or already seen unguarded */
    if (old) {
        g = -1; /* a second context: treat as unguarded */
        key = 1;
    }
    ptrmap_put(seen, e, (void *)key);
    int ri = rel_of(p, e);
    if (ri >= 0) {
        note_guard(p, ri, g, v);
        DaeExpr *ops[3];
        for (int i = 0, nk = dae_children(e, ops); i < nk; i++)
            walk_guards(p, seen, ops[i], -1, 0);
        return;
    }
    if (e->kind == DX_IF) {
        int ci = rel_of(p, e->u.cond.c);
        walk_guards(p, seen, e->u.cond.c, g, v);
        walk_guards(p, seen, e->u.cond.a, ci >= 0 ? ci : g, ci >= 0 ? 1 : v);
        walk_guards(p, seen, e->u.cond.b, ci >= 0 ? ci : g, ci >= 0 ? 0 : v);
        return;
    }
    DaeExpr *kids[3];
    for (int i = 0, nk = dae_children(e, kids); i < nk; i++)
        walk_guards(p, seen, kids[i], g, v);
}

static void plan_relations(Plan *p)
{
    Structure *s = p->s;
    PtrMap seen = {0};
    PtrVec rels = {0};
    for (int i = 0; i < s->eqs.n; i++)
        find_relations(p, ((StEq *)s->eqs.items[i])->res, &seen, &rels);
    /* Then those of the discrete part's predicates (when, transitions):
       events too.  Assignments and entry actions evaluate theirs. */
    Dae *d = p->d;
    for (int i = 0; i < d->whens.n; i++) {
        DaeWhen *w = d->whens.items[i];
        for (int j = 0; j < w->branches.n; j++)
            find_relations(p, ((DaeBranch *)w->branches.items[j])->pred, &seen, &rels);
    }
    for (int i = 0; i < d->charts.n; i++) {
        DaeChart *c = d->charts.items[i];
        for (int j = 0; j < c->transitions.n; j++)
            find_relations(p, ((DaeTransition *)c->transitions.items[j])->pred, &seen,
                           &rels);
    }
    /* Then those of the assertions: zero crossings too, so a failure is
       found at its crossing time, whatever the steps (assert_only). */
    int from_eqs = rels.n;
    for (int i = 0; i < p->d->asserts.n; i++) {
        DaeAssert *a = p->d->asserts.items[i];
        /* a warning is checked at step ends, not located */
        if (!p->assert_once[i] && !a->warn)
            find_assert_relations(p, a->cond, &seen, &rels);
    }
    ptrmap_free(&seen);
    p->nrels = rels.n;
    p->rels = arena_alloc(&p->arena, sizeof(PlanRelation) * (size_t)(rels.n + 1));
    for (int i = 0; i < rels.n; i++) {
        p->rels[i].rel = rels.items[i];
        p->rels[i].guard = -2;
        p->rels[i].origin = dae_rel_origin(&p->d->t, rels.items[i]);
        p->rels[i].assert_only = i >= from_eqs;
    }
    for (int i = 0; i < s->eqs.n; i++)
        walk_guards(p, &seen, ((StEq *)s->eqs.items[i])->res, -1, 0);
    ptrmap_free(&seen);
    for (int i = 0; i < p->nrels; i++)
        if (p->rels[i].guard < 0)
            p->rels[i].guard = -1;
    for (int i = 0; i < p->nrels; i++)
        if (p->rels[i].guard >= 0 && p->rels[p->rels[i].guard].guard >= 0)
            p->rels[i].guard = -1;
}

/* Whether e reads an unknown that is not a state (the runtime's probes
   then need an evaluation of the model). */
static bool reads_alg(const Plan *p, const DaeExpr *e, PtrMap *seen)
{
    if (!dae_has_var(e) || ptrmap_get(seen, e))
        return false;
    ptrmap_put(seen, e, (void *)e);
    if (e->kind == DX_VAR) {
        int sv = plan_stvar(p, e->u.var.index, e->u.var.order);
        return sv < 0 || !stv(p, sv)->state;
    }
    DaeExpr *kids[3];
    for (int i = 0, nk = dae_children(e, kids); i < nk; i++)
        if (reads_alg(p, kids[i], seen))
            return true;
    return false;
}

/* The zero-crossing functions: g > 0 exactly when the relation holds. */
static void plan_crossings(Plan *p)
{
    DaeExprTable *t = &p->d->t;
    for (int i = 0; i < p->nrels; i++) {
        DaeExpr *r = p->rels[i].rel;
        PtrMap seen = {0};
        p->rels[i].reads_alg = reads_alg(p, r, &seen);
        ptrmap_free(&seen);
        if (r->kind == DX_SEGMENT) {
            /* a table's segment mode: the runtime measures the query against
               the frozen segment's bounds (rt_grid_crossing) */
            p->rels[i].crossing = r->u.seg.x;
            continue;
        }
        bool flip = r->kind == DX_LT || r->kind == DX_LE;
        p->rels[i].crossing = flip ? dae_sub(t, r->u.bin.b, r->u.bin.a)
                                   : dae_sub(t, r->u.bin.a, r->u.bin.b);
    }
}

/* ---- the Jacobian's sparsity -------------------------------------------- */

/* Which states an unknown depends on: a sorted set, or n == -1 for
   "dense". */
typedef struct DepSet {
    int *s;             /* state indices */
    int n;              /* entries, or -1 for dense */
} DepSet;

static void plan_sparsity(Plan *p)
{
    Structure *s = p->s;
    int ns = s->nstates;
    if (ns < 8)
        return; /* dense is as cheap */
    int cap = ns / 4 + 8;
    DepSet *dep = mem_calloc((size_t)s->vars.n + 1, sizeof *dep);
    Arena sets = {0};       /* every DepSet's states, freed at once */
    int *mark = mem_calloc((size_t)ns + 1, sizeof(int)), stamp = 0;
    int *buf = mem_calloc((size_t)ns + 1, sizeof(int));
    bool dense = false;
    for (int k = 0; k < p->nblocks && !dense; k++) {
        const PlanBlock *b = &p->blocks[k];
        stamp++;
        int n = 0;
        for (int i = 0; i < b->n && !dense; i++) {
            StEq *q = s->eqs.items[b->eqs[i]];
            for (int a = 0; a < q->nadj && !dense; a++) {
                StVar *x = stv(p, q->adj[a]);
                if (x->state) {
                    if (mark[x->slot] != stamp) {
                        mark[x->slot] = stamp;
                        buf[n++] = x->slot;
                    }
                    continue;
                }
                DepSet *d = &dep[q->adj[a]];
                if (d->n < 0) {
                    dense = true;
                    break;
                }
                for (int j = 0; j < d->n; j++) {
                    if (mark[d->s[j]] != stamp) {
                        mark[d->s[j]] = stamp;
                        buf[n++] = d->s[j];
                    }
                }
            }
            if (n > cap)
                dense = true;
        }
        if (dense)
            break;
        /* the block's unknowns share one set */
        int *set = arena_alloc(&sets, sizeof(int) * ((size_t)n + 1));
        memcpy(set, buf, sizeof(int) * (size_t)n);
        for (int i = 0; i < b->n; i++) {
            dep[b->vars[i]].n = n;
            dep[b->vars[i]].s = set;
        }
    }
    if (!dense) {
        /* rows: state i's derivative; CSC by counting */
        int *colcount = mem_calloc((size_t)ns + 1, sizeof(int));
        int *rowptr = mem_calloc((size_t)ns + 2, sizeof(int));
        for (int i = 0; i < ns; i++) {
            StVar *x = stv(p, s->state_var[i]);
            StVar *dx = stv(p, x->deriv);
            if (dx->state) {
                colcount[dx->slot]++;
                rowptr[i + 1] = 1;
            } else {
                DepSet *d = &dep[x->deriv];
                for (int j = 0; j < d->n; j++)
                    colcount[d->s[j]]++;
                rowptr[i + 1] = d->n;
            }
        }
        for (int i = 0; i < ns; i++)
            rowptr[i + 1] += rowptr[i];
        int *rowcols = mem_calloc((size_t)rowptr[ns] + 1, sizeof(int));
        for (int i = 0; i < ns; i++) {
            StVar *x = stv(p, s->state_var[i]);
            StVar *dx = stv(p, x->deriv);
            if (dx->state)
                rowcols[rowptr[i]] = dx->slot;
            else
                memcpy(rowcols + rowptr[i], dep[x->deriv].s,
                       sizeof(int) * (size_t)dep[x->deriv].n);
        }
        int *colptr = arena_alloc(&p->arena, sizeof(int) * (size_t)(ns + 2));
        for (int j = 0; j < ns; j++)
            colptr[j + 1] = colptr[j] + colcount[j];
        int *fill = mem_calloc((size_t)ns + 1, sizeof(int));
        int *rows = arena_alloc(&p->arena, sizeof(int) * (size_t)(colptr[ns] + 1));
        for (int i = 0; i < ns; i++)
            for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
                int j = rowcols[k];
                rows[colptr[j] + fill[j]++] = i;
            }
        /* greedy coloring: a column takes the first color no column
           sharing one of its rows has */
        int *color = arena_alloc(&p->arena, sizeof(int) * (size_t)(ns + 1));
        int *used = mem_calloc((size_t)ns + 2, sizeof(int));
        int ncolors = 0;
        for (int j = 0; j < ns; j++)
            color[j] = -1;
        for (int j = 0; j < ns; j++) {
            stamp++;
            for (int k = colptr[j]; k < colptr[j + 1]; k++) {
                int i = rows[k];
                for (int q = rowptr[i]; q < rowptr[i + 1]; q++) {
                    int c = color[rowcols[q]];
                    if (c >= 0)
                        used[c] = stamp;
                }
            }
            int c = 0;
            while (used[c] == stamp)
                c++;
            color[j] = c;
            if (c + 1 > ncolors)
                ncolors = c + 1;
        }
        if (ncolors * 2 <= ns) {
            p->ncolors = ncolors;
            p->color = color;
            p->jac_colptr = colptr;
            p->jac_rows = rows;
        }
        free(colcount); free(rowptr); free(rowcols); free(fill); free(used);
    }
    arena_free(&sets);
    free(dep);
    free(mark);
    free(buf);
}

/* ---- columns and targets ----------------------------------------------------- */

/* Whether every variable e reads (at its order) is computed by the model:
   an intermediate that reads a derivative nothing needs cannot be logged. */
static bool computable(const Plan *p, const DaeExpr *e, PtrMap *seen)
{
    if (ptrmap_get(seen, e))
        return true;
    ptrmap_put(seen, e, (void *)e);
    if (e->kind == DX_VAR)
        return plan_stvar(p, e->u.var.index, e->u.var.order) >= 0;
    DaeExpr *kids[3];
    for (int i = 0, nk = dae_children(e, kids); i < nk; i++)
        if (!computable(p, kids[i], seen))
            return false;
    return true;
}

static void add_column(Plan *p, const char *name, int var, DaeExpr *expr, Dim dim)
{
    PlanColumn *c = &p->columns[p->ncolumns];
    c->name = name;
    c->var = var;
    c->expr = expr;
    c->dim = dim;
    if (var >= 0) {
        const DaeVar *v = p->d->vars.items[var];
        c->description = v->description;
        c->output = v->kind == VAR_OUTPUT && !v->instance[0];
    }
    c->same_as = var >= 0 && p->first_column[var] >= 0 ? p->first_column[var] : -1;
    if (var >= 0 && p->first_column[var] < 0)
        p->first_column[var] = p->ncolumns;
    p->ncolumns++;
}

/* Columns in three groups: what the CSV shows by default, what --vars may
   ask for (intermediates, integ() states), what no one sees (names under
   ExternalAccess = none); each variable is computed in its first column
   and copied to its others. */
static void plan_outputs(Plan *p)
{
    Dae *d = p->d;
    int total = d->observed.n + d->evars.n;
    for (int i = 0; i < d->vars.n; i++)
        total += ((DaeVar *)d->vars.items[i])->names.n;
    p->columns = arena_alloc(&p->arena, sizeof(PlanColumn) * (size_t)(total + 1));
    p->first_column = arena_alloc(&p->arena, sizeof(int) * (size_t)(d->vars.n + 1));
    for (int i = 0; i < d->vars.n; i++)
        p->first_column[i] = -1;
    for (int group = 0; group < 3; group++) {
        int before = p->ncolumns;
        for (int i = 0; i < d->vars.n; i++) {
            DaeVar *v = d->vars.items[i];
            for (int k = 0; k < v->names.n; k++) {
                bool hidden = v->name_hidden && v->name_hidden[k];
                int g = hidden ? 2 : v->on_request ? 1 : 0;
                if (g == group)
                    add_column(p, v->names.items[k], i, NULL, v->dim);
            }
        }
        /* the event variables after the variables, but a
           chart's pending target mode, which has no column */
        for (int i = 0; i < d->evars.n; i++) {
            DaeEvar *v = d->evars.items[i];
            if (!v->hidden && (v->unseen ? 2 : 0) == group) {
                add_column(p, v->name, -1, dae_evar(&d->t, i, 0), v->dim);
                p->columns[p->ncolumns - 1].description = v->description;
            }
        }
        if (group == 1) {
            for (int i = 0; i < d->observed.n; i++) {
                DaeObserved *o = d->observed.items[i];
                PtrMap seen = {0};
                bool ok = computable(p, o->expr, &seen);
                ptrmap_free(&seen);
                if (ok)
                    add_column(p, o->name, -1, o->expr, o->dim);
                else
                    p->ndropped++;
            }
            p->n_on_request = p->ncolumns - before;
        } else if (group == 2) {
            p->n_hidden = p->ncolumns - before;
        }
    }
    for (int i = 0; i < d->vars.n; i++)
        p->ntargets += ((DaeVar *)d->vars.items[i])->priority != PRIO_NONE;
    p->targets = arena_alloc(&p->arena, sizeof(PlanTarget) * (size_t)(p->ntargets + 1));
    int k = 0;
    for (int i = 0; i < d->vars.n; i++) {
        DaeVar *v = d->vars.items[i];
        if (v->priority == PRIO_NONE)
            continue;
        /* the state this variable is, directly (itself, or a plain alias) */
        const DaeExpr *val = v->eliminated ? v->alias_expr : NULL;
        int w = !v->eliminated ? i : val && val->kind == DX_VAR && val->u.var.order == 0
                                      ? val->u.var.index : -1;
        int sv = w >= 0 ? plan_stvar(p, w, 0) : -1;
        PlanTarget *t = &p->targets[k++];
        t->var = i;
        t->column = p->first_column[i];
        t->high = v->priority == PRIO_HIGH;
        t->state1 = sv >= 0 && stv(p, sv)->state ? stv(p, sv)->slot + 1 : 0;
    }
}

/* ---- the pass ----------------------------------------------------------------- */

Plan *plan_make(Dae *d, Structure *s)
{
    Plan *p = mem_calloc(1, sizeof *p);
    p->d = d;
    p->s = s;
    int nv = d->vars.n;
    p->stvar = arena_alloc(&p->arena, sizeof(int *) * (size_t)(nv + 1));
    p->norders = arena_alloc(&p->arena, sizeof(int) * (size_t)(nv + 1));
    for (int i = 0; i < s->vars.n; i++) {
        StVar *x = s->vars.items[i];
        if (x->order + 1 > p->norders[x->var])
            p->norders[x->var] = x->order + 1;
    }
    for (int v = 0; v < nv; v++) {
        p->stvar[v] = arena_alloc(&p->arena, sizeof(int) * (size_t)(p->norders[v] + 1));
        for (int k = 0; k < p->norders[v]; k++)
            p->stvar[v][k] = -1;
    }
    for (int i = 0; i < s->vars.n; i++) {
        StVar *x = s->vars.items[i];
        p->stvar[x->var][x->order] = i;
    }
    p->nblocks = s->blocks.n;
    p->blocks = arena_alloc(&p->arena, sizeof(PlanBlock) * (size_t)(p->nblocks + 1));
    for (int k = 0; k < p->nblocks; k++) {
        StBlock *sb = s->blocks.items[k];
        p->blocks[k].n = sb->n;
        p->blocks[k].vars = sb->vars;
        p->blocks[k].eqs = sb->eqs;
        p->blocks[k].method = PLAN_NEWTON; /* until shown otherwise */
    }
    if (!plan_scalars(p)) {
        plan_free(p);
        return NULL;
    }
    plan_asserts(p);
    plan_relations(p);
    plan_loops(p);
    plan_crossings(p);
    plan_sparsity(p);
    plan_outputs(p);
    if (!plan_modes(p) || !plan_delays(p)) {
        plan_free(p);
        return NULL;
    }
    plan_eval(p);
    plan_tables(p);     /* after plan_eval, which marks columns complete */
    dae_table_forget_values(&d->t); /* folding's memo: not needed by codegen */
    return p;
}

void plan_free(Plan *p)
{
    if (!p)
        return;
    ptrmap_free(&p->rel_index);
    ptrmap_free(&p->delay_index);
    ptrmap_free(&p->const_index);
    ptrmap_free(&p->recips);
    arena_free(&p->arena);
    free(p);
}

/* ---- reports -------------------------------------------------------------------- */

void plan_report(FILE *fp, const Plan *p)
{
    fprintf(fp, "  blocks:                   %d (%d algebraic loop%s", p->nblocks, p->nloops,
            p->nloops == 1 ? "" : "s");
    if (p->nloops) {
        fputs(":", fp);
        for (int k = 0; k < p->nblocks; k++)
            if (p->blocks[k].method != PLAN_EXPLICIT)
                fprintf(fp, " %d", p->blocks[k].n);
    }
    fputs(")\n", fp);
}

static void dump_check(FILE *fp, const DaeExpr *pivot, PlanCheck c, const DaeNames *nm)
{
    if (c == CHECK_NEVER)
        return;
    fputs("      pivot ", fp);
    dae_print_expr(fp, pivot, nm);
    fputs(c == CHECK_ONCE ? " ~= 0: checked once, after the parameters are set\n"
                          : " ~= 0: checked at every evaluation\n", fp);
}

void plan_dump(FILE *fp, const Plan *p)
{
    Dae *d = p->d;
    DaeNames nm = dae_names(d);
    fprintf(fp, "blocks (%d), in evaluation order; eval in %d part%s, %d for the solver:\n",
            p->nblocks, p->nparts, p->nparts == 1 ? "" : "s", p->nparts_solver);
    for (int k = 0; k < p->nblocks; k++) {
        const PlanBlock *b = &p->blocks[k];
        fprintf(fp, "  %d: %s", k, plan_method_names[b->method]);
        if (b->n > 1)
            fprintf(fp, " (%d)", b->n);
        fputs(", solves", fp);
        for (int i = 0; i < b->n; i++) {
            StVar *x = stv(p, b->vars[i]);
            fputc(' ', fp);
            dae_fput_var(fp, dae_shown_name(d->vars.items[x->var]), x->order);
            if (p->copy_of[b->vars[i]] >= 0) {
                StVar *c = stv(p, p->copy_of[b->vars[i]]);
                fputs(" (a copy of ", fp);
                dae_fput_var(fp, dae_shown_name(d->vars.items[c->var]), c->order);
                fputc(')', fp);
            }
        }
        int copies = 0;
        for (int i = 0; i < b->n; i++)
            copies += p->copy_of[b->vars[i]] >= 0;
        if (copies == b->n)
            fputs("; nothing to compute", fp);
        else if (!p->block_solver[k])
            fputs("; for rows and events only", fp);
        fputc('\n', fp);
        for (int i = 0; i < b->n; i++) {
            StEq *q = p->s->eqs.items[b->eqs[i]];
            fputs("      ", fp);
            if (q->level)
                fprintf(fp, "[d/dt x%d] ", q->level);
            dae_print_expr(fp, q->res, &nm);
            fputs(" == 0\n", fp);
        }
        if (b->method == PLAN_EXPLICIT)
            dump_check(fp, b->pivot, b->pivot_check[0], &nm);
        else if (b->method == PLAN_SYMBOLIC)
            for (int i = 0; i < b->n; i++)
                dump_check(fp, b->pivots[i], b->pivot_check[i], &nm);
    }
    fprintf(fp, "relations (%d):\n", p->nrels);
    for (int i = 0; i < p->nrels; i++) {
        const PlanRelation *r = &p->rels[i];
        fprintf(fp, "  %d: ", i);
        dae_print_expr(fp, r->rel, &nm);
        if (r->guard >= 0)
            fprintf(fp, "  (matters only while relation %d is %s)", r->guard,
                    r->guard_value ? "true" : "false");
        if (r->assert_only)
            fputs("  (in assertions only)", fp);
        fputc('\n', fp);
    }
    fprintf(fp, "constants of parameters: %d, computed once after the parameters are set\n",
            p->consts.n);
    if (p->ncolors)
        fprintf(fp, "jacobian: %d states, sparse, %d nonzeros in %d colors\n",
                p->s->nstates, p->jac_colptr[p->s->nstates], p->ncolors);
    else
        fprintf(fp, "jacobian: %d states, dense\n", p->s->nstates);
}
