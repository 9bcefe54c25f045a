/*
 * simplify.c - pass 6: constant folding, alias elimination and trivial
 * equations.
 *
 * An equation whose residual is linear in at most two variables of order
 * zero, with numeric coefficients and a parameter-only remainder, defines
 * one of them: `v == expr-of-parameters` makes v a known value, and
 * `a == ±b + c` makes a an alias of b.  The defined variable is eliminated
 * everywhere (its derivatives become derivatives of its definition) but
 * keeps its names: DaeVar.alias_expr says how to compute it for the
 * output.  Which of two aliases survives is prefer_rank's choice
 * (prefer.h: a mass's or inertia's variable, then the stronger target,
 * then one written under der(), then a component's own variable), and
 * the one declared first on a tie; the survivor inherits what made the
 * other one preferable.  Chains are resolved with path compression, so a
 * long chain of aliases costs linear time.
 *
 * An equation that reduces to a constant is either inconsistent (c == 0
 * with c != 0) or redundant (0 == 0: it repeats what the equations that
 * defined its variables already say).  Both are errors naming the
 * equations involved.
 *
 * Once the known values are in, every equation, assertion and start
 * value must compute finite numbers (dae_nonfinite_part: what is surely
 * evaluated, at the parameters' defaults): `y == 0/z` with z fixed to 0
 * by another equation is an error at that equation, naming 0 / 0 and the
 * equation that fixed z, as a parameter `w = 0/p` with p = 0 is one at
 * its declaration (elaboration).
 */
#include "simplify.h"

#include "diag.h"
#include "prefer.h"
#include "rt_kinds.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct Simp {
    Dae *d;
    DaeExprTable *t;
    PtrMap memo;            /* node -> its substitution, while no variable
                               is eliminated: kept across subst calls */
} Simp;

static DaeExpr *resolve_var(Simp *s, int i);

static DaeExpr *map_leaf(void *ctx, DaeExprTable *t, const DaeExpr *leaf)
{
    Simp *s = ctx;
    DaeVar *v = s->d->vars.items[leaf->u.var.index];
    if (!v->eliminated)
        return (DaeExpr *)leaf;
    DaeExpr *e = resolve_var(s, leaf->u.var.index);
    for (int k = 0; k < leaf->u.var.order; k++) {
        PtrMap memo = {0};
        e = dae_diff_time(t, e, &memo);
        ptrmap_free(&memo);
    }
    return e;
}

/* e with every eliminated variable replaced by its definition.  The memo
   holds for as long as the set of eliminated variables stays the same
   (eliminate clears it), so that nodes shared between equations, and the
   definitions substituted again at each use, are walked once. */
static DaeExpr *subst(Simp *s, DaeExpr *e)
{
    return dae_substitute(s->t, e, map_leaf, s, &s->memo);
}

/* The definition of eliminated variable i in terms of remaining ones;
   stored back (path compression). */
static DaeExpr *subst_map(void *ctx, DaeExpr *e)
{
    return subst(ctx, e);
}

static DaeExpr *resolve_var(Simp *s, int i)
{
    DaeVar *v = s->d->vars.items[i];
    v->alias_expr = subst(s, v->alias_expr);
    return v->alias_expr;
}

/* The residual as sum(coef * var) + remainder, if it has that form. */
typedef struct Linear {
    int var[3];             /* distinct variables (order 0) */
    double coef[3];         /* their coefficients */
    int n;                  /* how many; 3 means "too many" */
    DaeExpr *rem;           /* parameter-only remainder */
    bool ok;                /* the form holds */
} Linear;

static void lin(Simp *s, DaeExpr *e, double c, Linear *L)
{
    if (!L->ok)
        return;
    DaeExprTable *t = s->t;
    switch (e->kind) {
    case DX_VAR:
        if (e->u.var.order != 0) {
            L->ok = false;
            return;
        }
        for (int i = 0; i < L->n; i++) {
            if (L->var[i] == e->u.var.index) {
                L->coef[i] += c;
                return;
            }
        }
        if (L->n == 2) {
            L->ok = false;
            return;
        }
        L->var[L->n] = e->u.var.index;
        L->coef[L->n++] = c;
        return;
    case DX_ADD: lin(s, e->u.bin.a, c, L); lin(s, e->u.bin.b, c, L); return;
    case DX_SUB: lin(s, e->u.bin.a, c, L); lin(s, e->u.bin.b, -c, L); return;
    case DX_NEG: lin(s, e->u.bin.a, -c, L); return;
    case DX_MUL:
        if (e->u.bin.a->kind == DX_CONST) {
            lin(s, e->u.bin.b, c * e->u.bin.a->u.value, L);
            return;
        }
        if (e->u.bin.b->kind == DX_CONST) {
            lin(s, e->u.bin.a, c * e->u.bin.b->u.value, L);
            return;
        }
        break;
    case DX_DIV:
        if (e->u.bin.b->kind == DX_CONST && e->u.bin.b->u.value != 0) {
            lin(s, e->u.bin.a, c / e->u.bin.b->u.value, L);
            return;
        }
        break;
    default:
        break;
    }
    if (dae_depends_on_state(e)) {
        L->ok = false;
        return;
    }
    L->rem = dae_add(t, L->rem, dae_mul(t, dae_const(t, c), e));
}

static void eliminate(Simp *s, int i, DaeExpr *def, DaeEq *q)
{
    DaeVar *v = s->d->vars.items[i];
    v->eliminated = true;
    v->alias_expr = def;
    ptrmap_clear(&s->memo);
    v->eliminated_by = q;
}

/* Tries to use q to eliminate a variable; true if it did. */
static bool try_alias(Simp *s, DaeEq *q, DaeExpr *r)
{
    Linear L = {{0}, {0}, 0, dae_const(s->t, 0), true};
    lin(s, r, 1, &L);
    if (!L.ok)
        return false;
    /* drop cancelled terms */
    int n = 0;
    for (int i = 0; i < L.n; i++) {
        if (L.coef[i] != 0) {
            L.var[n] = L.var[i];
            L.coef[n++] = L.coef[i];
        }
    }
    DaeExprTable *t = s->t;
    if (n == 1) {
        eliminate(s, L.var[0], dae_div(t, dae_neg(t, L.rem), dae_const(t, L.coef[0])), q);
        return true;
    }
    if (n == 2 && fabs(L.coef[0]) == fabs(L.coef[1])) {
        DaeVar *a = s->d->vars.items[L.var[0]], *b = s->d->vars.items[L.var[1]];
        int ka = prefer_rank(a), kb = prefer_rank(b);
        int gone = ka > kb || (ka == kb && L.var[0] < L.var[1]) ? 1 : 0;
        int kept = 1 - gone;
        /* c_g*g + c_k*k + rem = 0  =>  g = -(c_k*k + rem)/c_g */
        DaeExpr *def = dae_div(t, dae_neg(t, dae_add(t, dae_mul(t, dae_const(t, L.coef[kept]),
                               dae_var(t, L.var[kept], 0)), L.rem)), dae_const(t, L.coef[gone]));
        eliminate(s, L.var[gone], def, q);
        /* the survivor speaks for both when states are chosen */
        DaeVar *g = s->d->vars.items[L.var[gone]], *k = s->d->vars.items[L.var[kept]];
        prefer_alias(k, g);
        /* a node's variable is better shown by a component's own name for
           it (inertia.theta rather than lever.R.theta) */
        if (k->kind == VAR_NODE && g->kind != VAR_NODE && !k->display
            && fabs(L.coef[0]) == 1 && dae_is_const(L.rem, 0))
            k->display = g->display ? g->display : g->name;
        return true;
    }
    return false;
}

/* The variables q mentions that other equations have fixed so far. */
static DaeRedundant *explain(Dae *d, DaeEq *q)
{
    DaeRedundant *r = arena_alloc(&d->arena, sizeof *r);
    r->eq = q;
    for (int i = 0; i < d->vars.n && r->nfixed < DAE_FIXED_NOTES; i++) {
        DaeVar *v = d->vars.items[i];
        if (!v->eliminated || !v->eliminated_by || v->eliminated_by == q)
            continue;
        if (!dae_mentions_var(&d->t, q->orig_lhs, i, 0)
            && !dae_mentions_var(&d->t, q->orig_rhs, i, 0))
            continue;
        r->fixed[r->nfixed++] = i;
    }
    return r;
}

/* Reports the part of e that is not a finite number, if there is one, as
   an error at `where` ("in WHAT, 0 / 0 is NaN, not a finite number"),
   with the equations that fixed what q mentions; true if it did. */
/* Reports the part of e that is not finite, if any: in equation q, or,
   without one, in what `fmt` (with one %s, arg) describes; the
   description is written only when there is something to report. */
static bool report_nonfinite(Simp *s, const DaeExpr *e, SrcSpan where, const char *fmt,
                             const char *arg, DaeEq *q)
{
    Dae *d = s->d;
    const DaeExpr *bad = dae_nonfinite_part(s->t, e);
    if (!bad)
        return false;
    char what[512];
    if (fmt)
        snprintf(what, sizeof what, fmt, arg);
    else
        dae_eq_origin(what, sizeof what, ORIGIN_PROSE, q);
    char text[200], vals[512];
    dae_expr_text(d, bad, text, sizeof text);
    double v = dae_eval_params(bad, s->t->pvalue);
    dae_param_values_text(d, bad, s->t->pvalue, vals, sizeof vals);
    DaeRedundant *r = q ? explain(d, q) : NULL;
    diag_error(where, "in %s, %s is %s, not a finite number%s%s", what, text,
               isnan(v) ? "NaN" : v > 0 ? "inf" : "-inf", vals,
               r && r->nfixed ? ", once the values fixed by other equations are used" : "");
    if (r) {
        dae_note_fixed(d, r);
        dae_note_eq_places(d, q, r);
    }
    return true;
}

static bool nonfinite_in_eq(Simp *s, DaeEq *q, const DaeExpr *e)
{
    return report_nonfinite(s, e, q->span, NULL, NULL, q);
}

/* q no longer mentions any unknown: r is its residual.  An inconsistent
   one is an error here; a redundant one (0 == 0, or parameters only) is
   kept for the structural analysis, which names the variables it leaves
   undetermined (what it repeats is explained once simplification is
   done). */
static void report_constant(Simp *s, DaeEq *q, DaeExpr *r, PtrVec *redundant)
{
    Dae *d = s->d;
    char what[512];
    dae_eq_origin(what, sizeof what, ORIGIN_PROSE, q);
    if (r->kind == DX_CONST && r->u.value != 0) {
        diag_error(q->span, "%s is inconsistent: it reduces to %.17g == 0 once the "
                   "values fixed by other equations are used", what, r->u.value);
        DaeRedundant *x = explain(d, q);
        dae_note_fixed(d, x);
        dae_note_eq_places(d, q, x);
        return;
    }
    if (r->kind != DX_CONST && dae_depends_on_state(r)) {
        diag_error(q->span, "%s no longer involves any unknown once the values fixed "
                   "by other equations are used; it only depends on time", what);
        DaeRedundant *x = explain(d, q);
        dae_note_fixed(d, x);
        dae_note_eq_places(d, q, x);
        return;
    }
    ptrvec_push(&d->arena, redundant, q);
}

/* ---- tables whose queries became known --------------------------------------

   A lookup with extrapolation = error whose query reads only parameters
   once the known values are in (`connect(c.y, lt.u)` from a Constant) is
   a parameter expression: the simulator computes it where no evaluation
   reports a query outside the grid (an output column, a value computed
   once).  So the rule is checked here, at the defaults (an error, as
   lowering does for a query written with parameters), and after --param
   by an assertion on the parameters that the simulator checks before the
   run. */

typedef struct KnownQueries {
    PtrMap seen;            /* nodes visited */
    PtrVec stack;           /* to visit */
    PtrVec segs;            /* DX_SEGMENT nodes found */
} KnownQueries;

static void find_known_queries(Dae *d, KnownQueries *k, DaeExpr *root)
{
    if (!root)
        return;
    ptrvec_push(&d->arena, &k->stack, root);
    while (k->stack.n) {
        DaeExpr *e = k->stack.items[--k->stack.n];
        if (ptrmap_get(&k->seen, e))
            continue;
        ptrmap_put(&k->seen, e, e);
        if (e->kind == DX_SEGMENT && e->u.seg.tab->extrap == RT_EXTRAP_ERROR
            && !dae_depends_on_state(e->u.seg.x))
            ptrvec_push(&d->arena, &k->segs, e);
        DaeExpr *kids[3];
        for (int i = 0, nk = dae_children(e, kids); i < nk; i++)
            ptrvec_push(&d->arena, &k->stack, kids[i]);
        if (e->kind == DX_LOOKUP) {
            ptrvec_push(&d->arena, &k->stack, e->u.look.s1);
            if (e->u.look.s2)
                ptrvec_push(&d->arena, &k->stack, e->u.look.s2);
        }
    }
}

/* In source order: by table, then axis. */
static int cmp_segment(const void *a, const void *b)
{
    const DaeExpr *x = *(DaeExpr *const *)a, *y = *(DaeExpr *const *)b;
    if (x->u.seg.tab->index != y->u.seg.tab->index)
        return x->u.seg.tab->index < y->u.seg.tab->index ? -1 : 1;
    return (x->u.seg.axis > y->u.seg.axis) - (x->u.seg.axis < y->u.seg.axis);
}

static void check_known_queries(Simp *s)
{
    Dae *d = s->d;
    DaeExprTable *t = s->t;
    bool any = false;       /* a table whose queries must stay on its grid */
    for (int i = 0; i < t->tables.n && !any; i++)
        any = ((const DaeTable *)t->tables.items[i])->extrap == RT_EXTRAP_ERROR;
    if (!any)
        return;
    KnownQueries k = {0};
    for (int i = 0; i < d->eqs.n; i++) {
        DaeEq *q = d->eqs.items[i];
        find_known_queries(d, &k, q->lhs);
        find_known_queries(d, &k, q->rhs);
    }
    for (int i = 0; i < d->vars.n; i++) {
        DaeVar *v = d->vars.items[i];
        if (v->eliminated)
            find_known_queries(d, &k, v->alias_expr);
    }
    for (int i = 0; i < d->observed.n; i++)
        find_known_queries(d, &k, ((DaeObserved *)d->observed.items[i])->expr);
    ptrmap_free(&k.seen);
    if (k.segs.n > 1)
        qsort(k.segs.items, (size_t)k.segs.n, sizeof(void *), cmp_segment);
    for (int i = 0; i < k.segs.n; i++) {
        DaeExpr *seg = k.segs.items[i];
        const DaeTable *tb = seg->u.seg.tab;
        int n = tb->n[seg->u.seg.axis];
        const char *which = tb->axes == 1 ? "" : seg->u.seg.axis ? " x2" : " x1";
        double x = dae_eval_params(seg->u.seg.x, t->pvalue);
        double at = dae_eval_params(seg, t->pvalue);
        if (isfinite(x) && (at <= 0 || at >= n)) {
            char vals[512];
            dae_param_values_text(d, seg->u.seg.x, t->pvalue, vals, sizeof vals);
            diag_error(tb->span, "in %s, the query%s of this tablelookup is %.10g (SI) once "
                       "the values fixed by other equations are used%s: outside its "
                       "grid, and the table's extrapolation = error",
                       tb->instance[0] ? tb->instance : "the top model", which, x, vals);
            DaeCulprits c;
            dae_culprits_init(&c, d);
            for (int j = 0; j < d->ninstances; j++)
                if (d->instances[j].path == tb->instance)
                    c.inst[j] = 1;
            dae_note_culprits(&c);
            continue;
        }
        DaeAssert *a = arena_alloc(&d->arena, sizeof *a);
        a->cond = dae_binary(t, DX_AND, dae_binary(t, DX_GE, seg, dae_const(t, 1)),
                             dae_binary(t, DX_LE, seg, dae_const(t, n - 1)));
        a->message = arena_printf(&d->arena, "the query%s of tablelookup must be inside "
                                  "its grid (extrapolation = error)", which);
        a->instance = tb->instance;
        a->span = tb->span;
        ptrvec_push(&d->arena, &d->asserts, a);
    }
}

void simplify_dae(Dae *d)
{
    Simp s = {d, &d->t, {0}};
    int n = d->eqs.n;
    PtrVec redundant = {0};
    prefer_mark(d);
    bool *gone = arena_alloc(&d->arena, sizeof(bool) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        DaeEq *q = d->eqs.items[i];
        q->orig_lhs = q->lhs;
        q->orig_rhs = q->rhs;
    }
    for (int round = 0; round < 8; round++) {
        bool changed = false;
        for (int i = 0; i < n; i++) {
            if (gone[i])
                continue;
            DaeEq *q = d->eqs.items[i];
            DaeExpr *was_lhs = q->lhs, *was_rhs = q->rhs;
            q->lhs = subst(&s, q->lhs);
            q->rhs = subst(&s, q->rhs);
            /* the same sides as in the round before: the same residual,
               which eliminated nothing then and would not now */
            if (round > 0 && q->lhs == was_lhs && q->rhs == was_rhs)
                continue;
            DaeExpr *r = dae_sub(s.t, q->lhs, q->rhs);
            if (!dae_has_var(r)) {
                if (!nonfinite_in_eq(&s, q, r))
                    report_constant(&s, q, r, &redundant);
                gone[i] = true;
                continue;
            }
            if (try_alias(&s, q, r)) {
                nonfinite_in_eq(&s, q, r);
                gone[i] = true;
                changed = true;
            }
        }
        if (!changed)
            break;
    }
    /* Final substitution of everything that remains. */
    int k = 0;
    for (int i = 0; i < n; i++) {
        DaeEq *q = d->eqs.items[i];
        if (gone[i])
            continue;
        q->lhs = subst(&s, q->lhs);
        q->rhs = subst(&s, q->rhs);
        if (!nonfinite_in_eq(&s, q, q->lhs))
            nonfinite_in_eq(&s, q, q->rhs);
        d->eqs.items[k++] = q;
    }
    d->eqs.n = k;
    for (int i = 0; i < d->asserts.n; i++) {
        DaeAssert *a = d->asserts.items[i];
        a->cond = subst(&s, a->cond);
        report_nonfinite(&s, a->cond, a->span, "this assertion of %s",
                         a->instance[0] ? a->instance : "the top model", NULL);
    }
    for (int i = 0; i < d->vars.n; i++) {
        DaeVar *v = d->vars.items[i];
        if (v->start)
            report_nonfinite(&s, v->start, v->span, "the start value of '%s'", v->name, NULL);
        if (v->nominal)
            report_nonfinite(&s, v->nominal, v->span, "the nominal value of '%s'", v->name,
                             NULL);
    }
    for (int i = 0; i < d->observed.n; i++) {
        DaeObserved *o = d->observed.items[i];
        o->expr = subst(&s, o->expr);
    }
    dae_discrete_map(d, subst_map, &s);
    d->nvars_left = 0;
    for (int i = 0; i < d->vars.n; i++) {
        DaeVar *v = d->vars.items[i];
        if (v->eliminated)
            resolve_var(&s, i);
        else
            d->nvars_left++;
    }
    ptrmap_free(&s.memo);
    for (int i = 0; i < redundant.n; i++)
        ptrvec_push(&d->arena, &d->redundant, explain(d, redundant.items[i]));
    check_known_queries(&s);
    prefer_propagate(d);
    dae_table_forget_values(s.t);
}
