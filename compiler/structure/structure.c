/*
 * structure.c - pass 7: from the simplified DAE to a sorted index-1 system.
 *
 *  1. Regularity.  A maximum matching of equations to variables (any
 *     derivative order counts as the variable; match.h).  If it is not
 *     perfect, structure_report.c names the equations that over-determine
 *     and the variables that are left undetermined.
 *  2. Index reduction (dummy.c): Pantelides, then dummy derivatives.
 *  3. BLT.  The index-1 system, with all equations and as unknowns
 *     everything but the states, is matched again, and Tarjan's algorithm
 *     (blt.h) orders its strongly connected components so that each block
 *     only needs blocks before it.  How each block is solved is the
 *     plan's decision (plan.h).
 *
 * Matching, Tarjan and the alternating-path searches are iterative, so a
 * 10^5-equation model does not overflow the C stack.
 */
#include "st.h"

#include "blt.h"
#include "diag.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The StVar of (v, k), creating it and its lower orders if needed. */
int st_node_of(St *t, int v, int k)
{
    while (t->norders[v] <= k) {
        if (t->norders[v] == t->caporders[v]) {
            /* from the walk's arena: most variables have one or two
               orders, and a grown array leaves the old one there */
            int cap = t->caporders[v] ? t->caporders[v] * 2 : 2;
            int *a = arena_alloc(&t->orders, sizeof(int) * (size_t)cap);
            if (t->norders[v])
                memcpy(a, t->by_order[v], sizeof(int) * (size_t)t->norders[v]);
            t->by_order[v] = a;
            t->caporders[v] = cap;
        }
        StVar *x = arena_alloc(&t->s->arena, sizeof *x);
        x->var = v;
        x->order = t->norders[v];
        x->deriv = -1;
        x->assign = -1;
        x->slot = -1;
        int id = t->s->vars.n;
        ptrvec_push(&t->s->arena, &t->s->vars, x);
        if (t->norders[v] > 0)
            st_var_at(t, t->by_order[v][t->norders[v] - 1])->deriv = id;
        t->by_order[v][t->norders[v]++] = id;
    }
    return t->by_order[v][k];
}

static bool first_visit(St *t, const DaeExpr *e)
{
    if (e->id >= t->seencap) {
        size_t cap = t->seencap ? t->seencap : 1024;
        while (cap <= e->id)
            cap *= 2;
        t->seen = realloc(t->seen, sizeof *t->seen * cap);
        if (!t->seen)
            abort();
        memset(t->seen + t->seencap, 0, sizeof *t->seen * (cap - t->seencap));
        t->seencap = cap;
    }
    if (t->seen[e->id] == t->stamp)
        return false;
    t->seen[e->id] = t->stamp;
    return true;
}

/* The unknowns an equation can be solved for: variable leaves outside
   if-conditions (those read frozen modes during integration). */
static void collect(St *t, DaeExpr *e, PtrVec *out)
{
    if (!first_visit(t, e))
        return;
    if (e->kind == DX_VAR) {
        ptrvec_push(&t->s->arena, out, (void *)(intptr_t)st_node_of(t, e->u.var.index, e->u.var.order));
        return;
    }
    if (dae_is_relation(e) || e->kind == DX_AND || e->kind == DX_OR || e->kind == DX_NOT)
        return;
    DaeExpr *kids[3];
    /* an if's condition (kids[0]) is read as a frozen mode; a delay's u
       (kids[0]) is history, not an unknown now */
    for (int i = e->kind == DX_IF || e->kind == DX_DELAY ? 1 : 0, nk = dae_children(e, kids);
         i < nk; i++)
        collect(t, kids[i], out);
}

int st_add_eq(St *t, DaeExpr *res, int base, int level)
{
    StEq *q = arena_alloc(&t->s->arena, sizeof *q);
    q->res = res;
    q->base = base;
    q->level = level;
    q->deriv = -1;
    q->anti = -1;
    PtrVec adj = {0};
    t->stamp++;
    collect(t, res, &adj);
    q->nadj = adj.n;
    q->adj = arena_alloc(&t->s->arena, sizeof(int) * (size_t)(adj.n + 1));
    for (int i = 0; i < adj.n; i++)
        q->adj[i] = (int)(intptr_t)adj.items[i];
    int id = t->s->eqs.n;
    ptrvec_push(&t->s->arena, &t->s->eqs, q);
    return id;
}

/* ---- graphs over the structure -------------------------------------------- */

/* Regularity check: equations against DaeVar indices, orders ignored. */
int st_base_nadj(void *ctx, int e)
{
    return st_eq_at(ctx, e)->nadj;
}

int st_base_adj(void *ctx, int e, int k)
{
    St *t = ctx;
    return st_var_at(t, st_eq_at(t, e)->adj[k])->var;
}

bool st_always(void *ctx, int v)
{
    (void)ctx;
    (void)v;
    return true;
}

int st_node_adj(void *ctx, int e, int k)
{
    return st_eq_at(ctx, e)->adj[k];
}

/* Pantelides: only highest derivatives can be assigned. */
bool st_highest(void *ctx, int v)
{
    return st_var_at(ctx, v)->deriv < 0;
}

/* BLT: everything but the states is unknown. */
bool st_unknown(void *ctx, int v)
{
    return !st_var_at(ctx, v)->state;
}

/* ---- BLT ---------------------------------------------------------------------- */

/* The BLT dependency graph: the k-th unknown of equation e is computed by
   the equation it is matched to; states are known. */
typedef struct BltDeps {
    St *t;                  /* the structure */
    const int *assign;      /* StVar -> equation */
} BltDeps;

static int blt_nadj(void *ctx, int e)
{
    return st_eq_at(((BltDeps *)ctx)->t, e)->nadj;
}

static int blt_dep(void *ctx, int e, int k)
{
    BltDeps *d = ctx;
    int v = st_eq_at(d->t, e)->adj[k];
    return st_var_at(d->t, v)->state ? -1 : d->assign[v];
}

static bool blt(St *t)
{
    Structure *s = t->s;
    int neq = s->eqs.n, nv = s->vars.n;
    int nunk = 0;
    for (int i = 0; i < nv; i++)
        nunk += !st_var_at(t, i)->state;
    if (nunk != neq) {
        diag_error(src_none, "internal error: index reduction left %d equations for %d "
                   "unknowns", neq, nunk);
        return false;
    }
    Matcher m;
    match_init(&m, neq, nv);
    MatchGraph g = {st_base_nadj, st_node_adj, st_unknown, t, &s->arena};
    for (int e = 0; e < neq; e++) {
        if (!match_augment(&m, &g, e)) {
            DaeEq *q = t->d->eqs.items[st_eq_at(t, e)->base];
            char text[200], org[200];
            dae_eq_text(t->d, q, text, sizeof text);
            dae_eq_origin(org, sizeof org, ORIGIN_SHORT, q);
            diag_error(q->span, "the index-reduced system is structurally singular: no "
                       "unknown is left for %s (%s)", text, org);
            dae_note_eq_places(t->d, q, NULL);
            match_free(&m);
            return false;
        }
    }
    /* dependency graph: eq e -> eq assign[v] for every unknown v in e */
    BltDeps deps = {t, m.assign};
    BltGraph bg = {neq, blt_nadj, blt_dep, &deps};
    int *order = mem_calloc((size_t)neq + 1, sizeof(int));
    int *start = mem_calloc((size_t)neq + 2, sizeof(int));
    int nblocks = blt_sort(&bg, order, start);
    for (int c = 0; c < nblocks; c++) {
        int n = start[c + 1] - start[c];
        StBlock *b = arena_alloc(&s->arena, sizeof *b);
        b->n = n;
        b->eqs = arena_alloc(&s->arena, sizeof(int) * (size_t)n);
        b->vars = arena_alloc(&s->arena, sizeof(int) * (size_t)n);
        for (int k = 0; k < n; k++) {
            int x = order[start[c] + k];
            b->eqs[k] = x;
            b->vars[k] = m.eq_mate[x];
            st_var_at(t, m.eq_mate[x])->assign = x;
        }
        ptrvec_push(&s->arena, &s->blocks, b);
    }
    free(order);
    free(start);
    match_free(&m);
    return true;
}

/* ---- driver ---------------------------------------------------------------------- */

Structure *struct_analyze(Dae *d)
{
    Structure *s = mem_calloc(1, sizeof *s);
    St t = {0};
    t.s = s;
    t.d = d;
    int nv = d->vars.n;
    t.by_order = mem_calloc((size_t)nv + 1, sizeof(int *));
    t.norders = mem_calloc((size_t)nv + 1, sizeof(int));
    t.caporders = mem_calloc((size_t)nv + 1, sizeof(int));
    for (int i = 0; i < d->eqs.n; i++) {
        DaeEq *q = d->eqs.items[i];
        st_add_eq(&t, dae_sub(&d->t, q->lhs, q->rhs), i, 0);
    }
    /* make every variable's chain start at order 0 */
    for (int v = 0; v < nv; v++)
        if (t.norders[v] > 0)
            st_node_of(&t, v, 0);
    bool ok = true;
    /* 1. regularity */
    Matcher m;
    match_init(&m, d->eqs.n, nv);
    MatchGraph g = {st_base_nadj, st_base_adj, st_always, &t, &s->arena};
    int matched = 0;
    for (int e = 0; e < d->eqs.n; e++)
        matched += match_augment(&m, &g, e);
    if (matched < d->eqs.n || matched < d->nvars_left) {
        st_report_singular(&t, &m);
        ok = false;
    }
    match_free(&m);
    /* 2. Pantelides */
    if (ok) {
        match_init(&m, s->eqs.n, s->vars.n);
        ok = dummy_pantelides(&t, &m);
        match_free(&m);
    }
    /* 3. dummy derivatives, states */
    if (ok)
        ok = dummy_derivatives(&t);
    if (ok) {
        int maxlevel = 0;
        for (int i = 0; i < s->eqs.n; i++)
            if (st_eq_at(&t, i)->level > maxlevel)
                maxlevel = st_eq_at(&t, i)->level;
        for (int i = 0; i < s->vars.n; i++) {
            StVar *x = st_var_at(&t, i);
            x->state = x->deriv >= 0 && !st_var_at(&t, x->deriv)->dummy;
        }
        s->state_var = arena_alloc(&s->arena, sizeof(int) * (size_t)(s->vars.n + 1));
        bool has_alg = false;
        for (int i = 0; i < s->vars.n; i++) {
            StVar *x = st_var_at(&t, i);
            if (x->state) {
                x->slot = s->nstates;
                s->state_var[s->nstates++] = i;
            } else {
                x->slot = s->nalg++;
                if (x->order == 0)
                    has_alg = true;
            }
        }
        s->index = maxlevel > 0 ? maxlevel + 1 : has_alg ? 1 : 0;
        /* 4. BLT */
        ok = blt(&t);
    }
    arena_free(&t.orders);
    free(t.by_order);
    free(t.norders);
    free(t.caporders);
    free(t.seen);
    if (!ok) {
        struct_free(s);
        return NULL;
    }
    return s;
}

void struct_free(Structure *s)
{
    if (!s)
        return;
    arena_free(&s->arena);
    free(s);
}
