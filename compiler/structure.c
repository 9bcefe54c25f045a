/*
 * structure.c - pass 7: from the simplified DAE to a sorted index-1 system.
 *
 *  1. Regularity.  A maximum matching of equations to variables (any
 *     derivative order counts as the variable).  If it is not perfect, the
 *     Dulmage-Mendelsohn decomposition (alternating paths from the
 *     unmatched vertices; Pothen and Fan 1990) names the equations that
 *     over-determine and the variables that are left undetermined.
 *  2. Pantelides (1988).  Each equation is matched to a highest
 *     derivative by augmenting paths; when no path exists, every equation
 *     and variable the failed search visited is differentiated (symbolic
 *     differentiation of the residual) and the search repeats on the
 *     derivative equation.
 *  3. Dummy derivatives (Mattsson and Soderlind 1993).  From the most
 *     differentiated equations down, as many highest derivatives as there
 *     are equations at that level become algebraic "dummies", chosen by
 *     Gaussian elimination with pivoting on the Jacobian evaluated at the
 *     start values, preferring to keep as states the variables with
 *     targets and those of masses and inertias.
 *  4. BLT.  The index-1 system, with all equations and as unknowns
 *     everything but the states, is matched again, and Tarjan's algorithm
 *     orders its strongly connected components so that each block only
 *     needs blocks before it.  A scalar block whose unknown appears linearly is solved
 *     symbolically: x = -r(0) / (dr/dx).
 *
 * Matching, Tarjan and the alternating-path searches are iterative, so a
 * 10^5-equation model does not overflow the C stack.
 */
#include "structure.h"

#include "diag.h"
#include "simplify.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct St {
    Structure *s;
    Dae *d;
    int **by_order;         /* per DaeVar: StVar index of each order */
    int *norders;           /* per DaeVar: orders present */
    int *caporders;         /* per DaeVar: capacity of by_order[v] */
    uint32_t *seen;         /* per DaeExpr id: visit stamp */
    size_t seencap;
    uint32_t stamp;
} St;

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p)
        abort();
    return p;
}

static StVar *var_at(St *t, int i)
{
    return t->s->vars.items[i];
}

static StEq *eq_at(St *t, int i)
{
    return t->s->eqs.items[i];
}

/* The StVar of (v, k), creating it and its lower orders if needed. */
static int node_of(St *t, int v, int k)
{
    while (t->norders[v] <= k) {
        if (t->norders[v] == t->caporders[v]) {
            t->caporders[v] = t->caporders[v] ? t->caporders[v] * 2 : 2;
            t->by_order[v] = realloc(t->by_order[v], sizeof(int) * (size_t)t->caporders[v]);
            if (!t->by_order[v])
                abort();
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
            var_at(t, t->by_order[v][t->norders[v] - 1])->deriv = id;
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
    switch (e->kind) {
    case DX_VAR:
        ptrvec_push(&t->s->arena, out, (void *)(intptr_t)node_of(t, e->u.var.index, e->u.var.order));
        return;
    case DX_CONST: case DX_PARAM: case DX_TIME: return;
    case DX_FUNC:
        collect(t, e->u.fn.a, out);
        if (e->u.fn.b) collect(t, e->u.fn.b, out);
        return;
    case DX_IF:
        collect(t, e->u.cond.a, out);
        collect(t, e->u.cond.b, out);
        return;
    default:
        if (dae_is_relation(e) || e->kind == DX_AND || e->kind == DX_OR || e->kind == DX_NOT)
            return;
        collect(t, e->u.bin.a, out);
        if (e->u.bin.b) collect(t, e->u.bin.b, out);
        return;
    }
}

static int add_eq(St *t, DaeExpr *res, int base, int level)
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

/* ---- matching ---------------------------------------------------------- */

/* Augmenting-path search from equation `root` over the vertices for which
   ok(var) holds.  Colors every equation and variable visited.  Iterative;
   `assign` maps variables to equations, `eq_mate` equations to variables. */
typedef struct Matcher {
    int neq, nvar;
    int *assign;            /* var -> eq or -1 */
    int *eq_mate;           /* eq -> var or -1 */
    uint32_t *ecol, *vcol;  /* visit stamps */
    uint32_t stamp;
    int *stack_eq, *stack_pos, *stack_via;
    PtrVec *colored_eqs, *colored_vars; /* optional: record visits */
} Matcher;

typedef struct Graph {
    int (*nadj)(void *ctx, int eq);
    int (*adj)(void *ctx, int eq, int k);
    bool (*ok)(void *ctx, int var);
    void *ctx;
    Arena *arena;
} Graph;

static void matcher_init(Matcher *m, int neq, int nvar)
{
    m->neq = neq;
    m->nvar = nvar;
    m->assign = xcalloc((size_t)nvar, sizeof(int));
    m->eq_mate = xcalloc((size_t)neq, sizeof(int));
    for (int i = 0; i < nvar; i++)
        m->assign[i] = -1;
    for (int i = 0; i < neq; i++)
        m->eq_mate[i] = -1;
    m->ecol = xcalloc((size_t)neq, sizeof(uint32_t));
    m->vcol = xcalloc((size_t)nvar, sizeof(uint32_t));
    m->stack_eq = xcalloc((size_t)neq + 1, sizeof(int));
    m->stack_pos = xcalloc((size_t)neq + 1, sizeof(int));
    m->stack_via = xcalloc((size_t)neq + 1, sizeof(int));
    m->stamp = 0;
    m->colored_eqs = m->colored_vars = NULL;
}

static void matcher_grow(Matcher *m, int neq, int nvar)
{
    if (nvar > m->nvar) {
        m->assign = realloc(m->assign, sizeof(int) * (size_t)nvar);
        m->vcol = realloc(m->vcol, sizeof(uint32_t) * (size_t)nvar);
        for (int i = m->nvar; i < nvar; i++) {
            m->assign[i] = -1;
            m->vcol[i] = 0;
        }
        m->nvar = nvar;
    }
    if (neq > m->neq) {
        m->eq_mate = realloc(m->eq_mate, sizeof(int) * (size_t)neq);
        m->ecol = realloc(m->ecol, sizeof(uint32_t) * (size_t)neq);
        m->stack_eq = realloc(m->stack_eq, sizeof(int) * (size_t)(neq + 1));
        m->stack_pos = realloc(m->stack_pos, sizeof(int) * (size_t)(neq + 1));
        m->stack_via = realloc(m->stack_via, sizeof(int) * (size_t)(neq + 1));
        for (int i = m->neq; i < neq; i++) {
            m->eq_mate[i] = -1;
            m->ecol[i] = 0;
        }
        m->neq = neq;
    }
    if (!m->assign || !m->vcol || !m->eq_mate || !m->ecol || !m->stack_eq
        || !m->stack_pos || !m->stack_via)
        abort();
}

static void matcher_free(Matcher *m)
{
    free(m->assign);
    free(m->eq_mate);
    free(m->ecol);
    free(m->vcol);
    free(m->stack_eq);
    free(m->stack_pos);
    free(m->stack_via);
}

static void color_eq(Matcher *m, Graph *g, int e)
{
    m->ecol[e] = m->stamp;
    if (m->colored_eqs)
        ptrvec_push(g->arena, m->colored_eqs, (void *)(intptr_t)e);
}

static bool augment(Matcher *m, Graph *g, int root)
{
    m->stamp++;
    int top = 0;
    m->stack_eq[0] = root;
    m->stack_pos[0] = -1; /* -1: lookahead not done yet */
    m->stack_via[0] = -1;
    color_eq(m, g, root);
    while (top >= 0) {
        int e = m->stack_eq[top];
        int n = g->nadj(g->ctx, e);
        if (m->stack_pos[top] < 0) {
            /* cheap assignment first: an adjacent free variable */
            for (int k = 0; k < n; k++) {
                int v = g->adj(g->ctx, e, k);
                if (!g->ok(g->ctx, v) || m->assign[v] >= 0)
                    continue;
                /* flip the path */
                m->assign[v] = e;
                m->eq_mate[e] = v;
                for (int l = top; l > 0; l--) {
                    int via = m->stack_via[l];
                    int prev = m->stack_eq[l - 1];
                    m->assign[via] = prev;
                    m->eq_mate[prev] = via;
                }
                if (m->colored_vars)
                    ptrvec_push(g->arena, m->colored_vars, (void *)(intptr_t)v);
                return true;
            }
            m->stack_pos[top] = 0;
        }
        bool pushed = false;
        while (m->stack_pos[top] < n) {
            int v = g->adj(g->ctx, e, m->stack_pos[top]++);
            if (!g->ok(g->ctx, v) || m->vcol[v] == m->stamp)
                continue;
            m->vcol[v] = m->stamp;
            if (m->colored_vars)
                ptrvec_push(g->arena, m->colored_vars, (void *)(intptr_t)v);
            int e2 = m->assign[v];
            if (e2 < 0 || m->ecol[e2] == m->stamp)
                continue;
            color_eq(m, g, e2);
            top++;
            m->stack_eq[top] = e2;
            m->stack_pos[top] = -1;
            m->stack_via[top] = v;
            pushed = true;
            break;
        }
        if (!pushed && m->stack_pos[top] >= n)
            top--;
    }
    return false;
}

/* ---- graphs over the structure -------------------------------------------- */

/* Regularity check: equations against DaeVar indices, orders ignored. */
static int base_nadj(void *ctx, int e)
{
    return eq_at(ctx, e)->nadj;
}

static int base_adj(void *ctx, int e, int k)
{
    St *t = ctx;
    return var_at(t, eq_at(t, e)->adj[k])->var;
}

static bool always(void *ctx, int v)
{
    (void)ctx;
    (void)v;
    return true;
}

static int node_adj(void *ctx, int e, int k)
{
    return eq_at(ctx, e)->adj[k];
}

/* Pantelides: only highest derivatives can be assigned. */
static bool highest(void *ctx, int v)
{
    return var_at(ctx, v)->deriv < 0;
}

/* BLT: everything but the states is unknown. */
static bool unknown(void *ctx, int v)
{
    return !var_at(ctx, v)->state;
}

static const char *eq_origin(Dae *d, DaeEq *q, char *buf, size_t len)
{
    int line, col;
    src_linecol(q->span, &line, &col);
    SrcFile *f = src_get(q->span.file);
    if (q->kind == EQ_DOMAIN || q->kind == EQ_CONSERVATION)
        snprintf(buf, len, "%s at node %s", q->kind == EQ_DOMAIN ? "domain equation"
                 : "balance", q->what ? q->what : "?");
    else
        snprintf(buf, len, "%s (%s:%d)", q->instance[0] ? q->instance : "top model",
                 f ? f->path : "?", line);
    (void)d;
    return buf;
}

static void print_eq_text(Dae *d, DaeEq *q, char *buf, size_t len)
{
    char *p = NULL;
    size_t sz = 0;
    FILE *fp = open_memstream(&p, &sz);
    if (!fp) {
        snprintf(buf, len, "?");
        return;
    }
    DaeNames nm = dae_names(d);
    dae_print_expr(fp, q->lhs, &nm);
    fputs(" == ", fp);
    dae_print_expr(fp, q->rhs, &nm);
    fclose(fp);
    snprintf(buf, len, "%s", p);
    if (strlen(p) >= len && len > 4)
        memcpy(buf + len - 4, "...", 4);
    free(p);
}

/* Reports a structurally singular system with its DM parts. */
static void report_singular(St *t, Matcher *m)
{
    Dae *d = t->d;
    int neq = t->s->eqs.n, nv = d->vars.n;
    /* under-determined: alternating paths from unmatched variables */
    char *in_under_v = xcalloc((size_t)nv, 1), *in_under_e = xcalloc((size_t)neq, 1);
    char *in_over_v = xcalloc((size_t)nv, 1), *in_over_e = xcalloc((size_t)neq, 1);
    /* variable -> equations incidence */
    int *vstart = xcalloc((size_t)nv + 1, sizeof(int));
    for (int e = 0; e < neq; e++)
        for (int k = 0; k < eq_at(t, e)->nadj; k++)
            vstart[base_adj(t, e, k) + 1]++;
    for (int v = 0; v < nv; v++)
        vstart[v + 1] += vstart[v];
    int *vlist = xcalloc((size_t)vstart[nv] + 1, sizeof(int));
    int *fill = xcalloc((size_t)nv + 1, sizeof(int));
    for (int e = 0; e < neq; e++)
        for (int k = 0; k < eq_at(t, e)->nadj; k++) {
            int v = base_adj(t, e, k);
            vlist[vstart[v] + fill[v]++] = e;
        }
    int *queue = xcalloc((size_t)(nv + neq) + 1, sizeof(int));
    int qh = 0, qt = 0;
    for (int v = 0; v < nv; v++) {
        DaeVar *dv = d->vars.items[v];
        if (!dv->eliminated && m->assign[v] < 0) {
            in_under_v[v] = 1;
            queue[qt++] = v;
        }
    }
    while (qh < qt) {
        int v = queue[qh++];
        for (int i = vstart[v]; i < vstart[v + 1]; i++) {
            int e = vlist[i];
            if (in_under_e[e])
                continue;
            in_under_e[e] = 1;
            int w = m->eq_mate[e];
            if (w >= 0 && !in_under_v[w]) {
                in_under_v[w] = 1;
                queue[qt++] = w;
            }
        }
    }
    qh = qt = 0;
    for (int e = 0; e < neq; e++) {
        if (m->eq_mate[e] < 0) {
            in_over_e[e] = 1;
            queue[qt++] = e;
        }
    }
    while (qh < qt) {
        int e = queue[qh++];
        for (int k = 0; k < eq_at(t, e)->nadj; k++) {
            int v = base_adj(t, e, k);
            if (in_over_v[v])
                continue;
            in_over_v[v] = 1;
            int e2 = m->assign[v];
            if (e2 >= 0 && !in_over_e[e2]) {
                in_over_e[e2] = 1;
                queue[qt++] = e2;
            }
        }
    }
    /* the message */
    char names[1024] = "";
    size_t len = 0;
    int nunder = 0, nover = 0, nover_v = 0;
    for (int v = 0; v < nv; v++) {
        if (!in_under_v[v])
            continue;
        nunder++;
        const char *n = ((DaeVar *)d->vars.items[v])->name;
        if (len + strlen(n) + 8 < sizeof names)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "", n);
    }
    /* eliminated aliases of undetermined variables are undetermined too */
    for (int v = 0; v < nv; v++) {
        DaeVar *dv = d->vars.items[v];
        if (!dv->eliminated || !dv->alias_expr)
            continue;
        for (int w = 0; w < nv; w++) {
            if (!in_under_v[w] || !dae_mentions_var(dv->alias_expr, w, 0))
                continue;
            nunder++;
            if (len + strlen(dv->name) + 8 < sizeof names)
                len += (size_t)snprintf(names + len, sizeof names - len, ", %s", dv->name);
            break;
        }
    }
    for (int e = 0; e < neq; e++)
        nover += in_over_e[e];
    for (int v = 0; v < nv; v++)
        nover_v += in_over_v[v];
    SrcSpan where = src_none;
    for (int e = 0; e < neq && where.file < 0; e++)
        if (in_over_e[e] || in_under_e[e])
            where = ((DaeEq *)d->eqs.items[eq_at(t, e)->base])->span;
    if (nunder && d->redundant.n) {
        DaeEq *r = d->redundant.items[0];
        char text[200];
        print_eq_text(d, r, text, sizeof text);
        diag_error(r->span, "the model is singular: %d variable%s cannot be determined "
                   "separately (%s), because %d equation%s only repeat%s what other "
                   "equations already fix", nunder, nunder == 1 ? "" : "s", names,
                   d->redundant.n, d->redundant.n == 1 ? "" : "s",
                   d->redundant.n == 1 ? "s" : "");
        for (int i = 0; i < d->redundant.n && i < 8; i++) {
            DaeEq *q = d->redundant.items[i];
            char org[200];
            eq_origin(d, q, org, sizeof org);
            if (i)
                diag_note(q->span, "this equation also repeats others  [%s]", org);
            else
                diag_note(q->span, "this equation adds nothing  [%s]", org);
            simplify_explain(d, q);
        }
    } else if (nunder && nover)
        diag_error(where, "the model is structurally singular: %d variable%s cannot be "
                   "determined (%s), while %d equation%s over-determine %d other "
                   "variable%s", nunder, nunder == 1 ? "" : "s", names, nover,
                   nover == 1 ? "" : "s", nover_v, nover_v == 1 ? "" : "s");
    else if (nunder)
        diag_error(where, "the model is structurally singular: no equation determines "
                   "%s", names);
    else
        diag_error(where, "the model is structurally singular: %d equation%s "
                   "over-determine %d variable%s", nover, nover == 1 ? "" : "s",
                   nover_v, nover_v == 1 ? "" : "s");
    int notes = d->redundant.n ? 12 : 0;
    for (int e = 0; e < neq && notes < 12; e++) {
        if (!in_over_e[e] && !in_under_e[e])
            continue;
        DaeEq *q = d->eqs.items[eq_at(t, e)->base];
        char text[200], org[200];
        print_eq_text(d, q, text, sizeof text);
        eq_origin(d, q, org, sizeof org);
        diag_note(q->span, "%s equation: %s  [%s]", in_over_e[e] ? "over-determining"
                  : "involved", text, org);
        notes++;
    }
    free(in_under_v); free(in_under_e); free(in_over_v); free(in_over_e);
    free(vstart); free(vlist); free(fill); free(queue);
}

/* ---- numeric evaluation at the start point -------------------------------- */

typedef struct Point {
    const double *p;        /* parameter defaults */
    const double *v;        /* per DaeVar: start value (order 0) */
} Point;

static double eval_at(const DaeExpr *e, const Point *pt)
{
    return dae_eval(e, pt->p, pt->v, 0);
}

/* ---- Pantelides ------------------------------------------------------------ */

static bool pantelides(St *t, Matcher *m)
{
    Graph g = {base_nadj, node_adj, highest, t, &t->s->arena};
    PtrVec ceqs = {0}, cvars = {0};
    m->colored_eqs = &ceqs;
    m->colored_vars = &cvars;
    int norig = t->s->eqs.n;
    int limit = 20 * norig + 1000;
    for (int k = 0; k < norig; k++) {
        int i = k;
        for (;;) {
            ceqs.n = cvars.n = 0;
            matcher_grow(m, t->s->eqs.n, t->s->vars.n);
            if (augment(m, &g, i))
                break;
            if (t->s->eqs.n > limit) {
                DaeEq *q = t->d->eqs.items[eq_at(t, i)->base];
                diag_error(q->span, "index reduction does not terminate: this equation "
                           "has been differentiated %d times", eq_at(t, i)->level);
                return false;
            }
            /* differentiate every colored variable ... */
            int nv = cvars.n;
            for (int j = 0; j < nv; j++) {
                int v = (int)(intptr_t)cvars.items[j];
                StVar *x = var_at(t, v);
                if (x->deriv < 0)
                    node_of(t, x->var, x->order + 1);
            }
            /* ... and every colored equation */
            for (int j = 0; j < ceqs.n; j++) {
                int e = (int)(intptr_t)ceqs.items[j];
                StEq *q = eq_at(t, e);
                if (q->deriv >= 0)
                    continue;
                PtrMap memo = {0};
                DaeExpr *dr = dae_diff_time(&t->d->t, q->res, &memo);
                ptrmap_free(&memo);
                int ne = add_eq(t, dr, q->base, q->level + 1);
                eq_at(t, e)->deriv = ne;
                eq_at(t, ne)->anti = e;
                t->s->ndiff++;
            }
            matcher_grow(m, t->s->eqs.n, t->s->vars.n);
            /* the derivative of each colored variable is assigned to the
               derivative of its equation */
            for (int j = 0; j < nv; j++) {
                int v = (int)(intptr_t)cvars.items[j];
                int e = m->assign[v];
                StVar *x = var_at(t, v);
                if (e >= 0 && x->deriv >= 0) {
                    int de = eq_at(t, e)->deriv;
                    m->assign[x->deriv] = de;
                    if (de >= 0)
                        m->eq_mate[de] = x->deriv;
                }
            }
            for (int j = 0; j < nv; j++)
                m->assign[(int)(intptr_t)cvars.items[j]] = -1;
            i = eq_at(t, i)->deriv;
        }
    }
    m->colored_eqs = m->colored_vars = NULL;
    return true;
}

/* ---- dummy derivatives ---------------------------------------------------- */

/* How much we want a variable to stay a state: the variables of masses
   and inertias first (so a lever on an inertia keeps theta and w), then
   those with targets.  A target on a variable that is not a state is
   still met, by initialization. */
static int keep_score(Dae *d, int v)
{
    DaeVar *x = d->vars.items[v];
    return (x->inertial ? 8 : 0) + (int)x->priority * 2;
}

/* Marks variables whose derivative is an inertial one (der(x) == v of a
   node whose v is a mass's velocity): positions of masses, angles of
   inertias. */
static void propagate_inertial(Dae *d)
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


typedef struct Cand {
    int node;       /* StVar */
    int score;      /* keep score: low is chosen as dummy first */
} Cand;

static int cmp_cand(const void *x, const void *y)
{
    const Cand *a = x, *b = y;
    if (a->score != b->score)
        return a->score - b->score;
    return b->node - a->node;
}

/* Chooses nr dummies among the nc columns `cols` (sorted: preferred
   dummies first) for the equations `rows`: Gaussian elimination with
   column preference on the Jacobian at the start point.  colpos maps a
   StVar to its position in cols, or -1.  chosen[] receives positions. */
static bool choose_dummies(St *t, int *rows, int nr, Cand *cols, int nc, const int *colpos,
                           const Point *pt, int *chosen)
{
    double *A = xcalloc((size_t)nr * (size_t)nc, sizeof(double));
    char *varying = xcalloc((size_t)nc + 1, 1);
    double amax = 0;
    for (int i = 0; i < nr; i++) {
        StEq *q = eq_at(t, rows[i]);
        for (int k = 0; k < q->nadj; k++) {
            int j = colpos[q->adj[k]];
            if (j < 0)
                continue;
            StVar *x = var_at(t, cols[j].node);
            PtrMap memo = {0};
            DaeExpr *dj = dae_diff_var(&t->d->t, q->res, x->var, x->order, &memo);
            ptrmap_free(&memo);
            if (dae_depends_on_state(dj))
                varying[j] = 1;
            double v = eval_at(dj, pt);
            if (!isfinite(v))
                v = 0;
            A[(size_t)i * (size_t)nc + (size_t)j] = v;
            if (fabs(v) > amax)
                amax = fabs(v);
        }
    }
    /* Within one preference class, solve first for the unknowns that enter
       with constant coefficients: their pivots can never vanish, so the
       states left (an angle under sin/cos, say) stay valid everywhere. */
    int *order = xcalloc((size_t)nc + 1, sizeof(int));
    int no = 0;
    for (int j0 = 0; j0 < nc;) {
        int j1 = j0;
        while (j1 < nc && cols[j1].score == cols[j0].score)
            j1++;
        for (int pass = 0; pass < 2; pass++)
            for (int j = j0; j < j1; j++)
                if (varying[j] == pass)
                    order[no++] = j;
        j0 = j1;
    }
    char *rowdone = xcalloc((size_t)nr, 1), *coldone = xcalloc((size_t)nc, 1);
    int got = 0;
    double tol = 1e-10 * (amax > 0 ? amax : 1);
    for (int step = 0; step < nr; step++) {
        int pc = -1, pr = -1;
        for (int jj = 0; jj < nc && pc < 0; jj++) {
            int j = order[jj];
            if (coldone[j])
                continue;
            double best = tol;
            for (int i = 0; i < nr; i++) {
                if (rowdone[i])
                    continue;
                double v = fabs(A[(size_t)i * (size_t)nc + (size_t)j]);
                if (v > best) {
                    best = v;
                    pr = i;
                    pc = j;
                }
            }
        }
        if (pc < 0)
            break;
        rowdone[pr] = coldone[pc] = 1;
        chosen[got++] = pc;
        double piv = A[(size_t)pr * (size_t)nc + (size_t)pc];
        for (int i = 0; i < nr; i++) {
            if (rowdone[i])
                continue;
            double f = A[(size_t)i * (size_t)nc + (size_t)pc] / piv;
            if (f == 0)
                continue;
            for (int j = 0; j < nc; j++)
                A[(size_t)i * (size_t)nc + (size_t)j] -= f * A[(size_t)pr * (size_t)nc + (size_t)j];
        }
    }
    free(A);
    free(rowdone);
    free(coldone);
    free(order);
    free(varying);
    return got == nr;
}

/* Structural fallback: a maximum matching of rows to columns by
   augmenting paths (BFS), trying columns in preference order. */
static bool choose_structural(St *t, int *rows, int nr, int nc, const int *colpos,
                              int *chosen)
{
    int *row_of = xcalloc((size_t)nc + 1, sizeof(int));
    int *prevc = xcalloc((size_t)nc + 1, sizeof(int));
    int *queue = xcalloc((size_t)nc + 1, sizeof(int));
    uint32_t *vis = xcalloc((size_t)nc + 1, sizeof(uint32_t));
    for (int j = 0; j < nc; j++)
        row_of[j] = -1;
    int got = 0;
    for (int i = 0; i < nr; i++) {
        int qh = 0, qt = 0, found = -1;
        uint32_t stamp = (uint32_t)i + 1;
        /* columns of row i, in preference order (positions are sorted) */
        StEq *q = eq_at(t, rows[i]);
        for (int k = 0; k < q->nadj; k++) {
            int j = colpos[q->adj[k]];
            if (j >= 0 && vis[j] != stamp) {
                vis[j] = stamp;
                prevc[j] = -1;
                queue[qt++] = j;
            }
        }
        while (qh < qt && found < 0) {
            int j = queue[qh++];
            if (row_of[j] < 0) {
                found = j;
                break;
            }
            StEq *q2 = eq_at(t, rows[row_of[j]]);
            for (int k = 0; k < q2->nadj; k++) {
                int j2 = colpos[q2->adj[k]];
                if (j2 >= 0 && vis[j2] != stamp) {
                    vis[j2] = stamp;
                    prevc[j2] = j;
                    queue[qt++] = j2;
                }
            }
        }
        if (found < 0)
            continue;
        /* flip the path: each column takes the row of the one before */
        int r = i;
        for (int j = found; j >= 0;) {
            int pj = prevc[j];
            int old = row_of[j];
            row_of[j] = r;
            r = old;
            j = pj;
        }
        got++;
    }
    int k = 0;
    for (int j = 0; j < nc; j++)
        if (row_of[j] >= 0)
            chosen[k++] = j;
    free(row_of);
    free(prevc);
    free(queue);
    free(vis);
    return got == nr;
}

static int uf_find(int *uf, int x)
{
    while (uf[x] != x) {
        uf[x] = uf[uf[x]];
        x = uf[x];
    }
    return x;
}

/* Chooses the dummies of one level: the rows and candidate columns are
   split into independent groups (connected through the columns they
   share), each chosen on its own, so the cost stays linear in the number
   of groups. */
static bool choose_level(St *t, int *rows, int nr, Cand *cols, int nc, const Point *pt,
                         int *colpos, int *chosen_nodes)
{
    int n = nr + nc;
    int *uf = xcalloc((size_t)n + 1, sizeof(int));
    for (int i = 0; i < n; i++)
        uf[i] = i;
    for (int j = 0; j < nc; j++)
        colpos[cols[j].node] = j;
    for (int i = 0; i < nr; i++) {
        StEq *q = eq_at(t, rows[i]);
        for (int k = 0; k < q->nadj; k++) {
            int j = colpos[q->adj[k]];
            if (j >= 0) {
                int a = uf_find(uf, i), b = uf_find(uf, nr + j);
                if (a != b)
                    uf[a] = b;
            }
        }
    }
    /* group members, keeping the column order */
    int *count = xcalloc((size_t)n + 1, sizeof(int));
    for (int i = 0; i < n; i++)
        count[uf_find(uf, i)]++;
    int *start = xcalloc((size_t)n + 2, sizeof(int));
    for (int i = 0; i < n; i++)
        start[i + 1] = start[i] + count[i];
    int *fill = xcalloc((size_t)n + 1, sizeof(int));
    int *members = xcalloc((size_t)n + 1, sizeof(int));
    for (int i = 0; i < n; i++) {
        int r = uf_find(uf, i);
        members[start[r] + fill[r]++] = i;
    }
    for (int j = 0; j < nc; j++)
        colpos[cols[j].node] = -1;
    bool ok = true;
    int nchosen = 0;
    int *grow = xcalloc((size_t)nr + 1, sizeof(int));
    Cand *gcol = xcalloc((size_t)nc + 1, sizeof(Cand));
    int *gchosen = xcalloc((size_t)nr + 1, sizeof(int));
    for (int r = 0; r < n && ok; r++) {
        if (count[r] == 0)
            continue;
        int gr = 0, gc = 0;
        for (int k = start[r]; k < start[r + 1]; k++) {
            int m = members[k];
            if (m < nr)
                grow[gr++] = rows[m];
            else
                gcol[gc++] = cols[m - nr];
        }
        if (!gr)
            continue;
        /* positions within the group, for the choosers (every other
           column is -1: reset once before the groups, and after each) */
        for (int j = 0; j < gc; j++)
            colpos[gcol[j].node] = j;
        bool got = gr <= gc && gr <= 400
                   && choose_dummies(t, grow, gr, gcol, gc, colpos, pt, gchosen);
        if (!got)
            got = gr <= gc && choose_structural(t, grow, gr, gc, colpos, gchosen);
        if (!got) {
            DaeEq *q = t->d->eqs.items[eq_at(t, grow[0])->base];
            diag_error(q->span, "index reduction failed: the differentiated "
                       "constraints cannot be solved for any choice of dummy "
                       "derivatives");
            ok = false;
            break;
        }
        for (int i = 0; i < gr; i++)
            chosen_nodes[nchosen++] = gcol[gchosen[i]].node;
        for (int j = 0; j < gc; j++)
            colpos[gcol[j].node] = -1;
    }
    for (int j = 0; j < nc; j++)
        colpos[cols[j].node] = -1;
    free(uf); free(count); free(start); free(fill); free(members);
    free(grow); free(gcol); free(gchosen);
    return ok;
}

static bool dummy_derivatives(St *t)
{
    Dae *d = t->d;
    Structure *s = t->s;
    int np = d->params.n, nv = d->vars.n;
    double *pv = xcalloc((size_t)np + 1, sizeof(double));
    for (int i = 0; i < np; i++)
        pv[i] = ((DaeParam *)d->params.items[i])->value;
    double *vv = xcalloc((size_t)nv + 1, sizeof(double));
    for (int i = 0; i < nv; i++) {
        DaeVar *x = d->vars.items[i];
        vv[i] = x->eliminated ? 0 : dae_eval_params(x->start, pv);
        if (!isfinite(vv[i]))
            vv[i] = 0;
    }
    Point pt = {pv, vv};
    int *colpos = xcalloc((size_t)s->vars.n + 1, sizeof(int));
    for (int i = 0; i < s->vars.n; i++)
        colpos[i] = -1;
    /* the chain of each original equation */
    int norig = d->eqs.n;
    int *top = xcalloc((size_t)norig + 1, sizeof(int));   /* highest level eq */
    int *cur = xcalloc((size_t)norig + 1, sizeof(int));
    int maxlevel = 0;
    for (int e = 0; e < norig; e++) {
        int i = e;
        while (eq_at(t, i)->deriv >= 0)
            i = eq_at(t, i)->deriv;
        top[e] = i;
        cur[e] = i;
        if (eq_at(t, i)->level > maxlevel)
            maxlevel = eq_at(t, i)->level;
    }
    /* z: the candidate columns at the current level, as StVar indices */
    PtrVec z = {0};
    for (int i = 0; i < s->vars.n; i++) {
        StVar *x = var_at(t, i);
        if (x->deriv < 0 && x->order >= 1)
            ptrvec_push(&s->arena, &z, (void *)(intptr_t)i);
    }
    bool ok = true;
    for (int level = maxlevel; level >= 1 && ok; level--) {
        /* G: equations of every chain at its level >= 1, walked down in
           lockstep from each chain's top */
        PtrVec rows = {0};
        for (int e = 0; e < norig; e++) {
            StEq *q = eq_at(t, cur[e]);
            if (q->level >= 1 && eq_at(t, top[e])->level - q->level == maxlevel - level)
                ptrvec_push(&s->arena, &rows, (void *)(intptr_t)cur[e]);
        }
        if (!rows.n)
            continue;
        int nr = rows.n, nc = 0;
        /* candidate columns: the z entries these rows mention */
        char *mentioned = xcalloc((size_t)s->vars.n + 1, 1);
        for (int i = 0; i < nr; i++) {
            StEq *q = eq_at(t, (int)(intptr_t)rows.items[i]);
            for (int k = 0; k < q->nadj; k++)
                mentioned[q->adj[k]] = 1;
        }
        Cand *cols = xcalloc((size_t)z.n + 1, sizeof(Cand));
        for (int j = 0; j < z.n; j++) {
            int node = (int)(intptr_t)z.items[j];
            if (!mentioned[node])
                continue;
            cols[nc].node = node;
            cols[nc++].score = keep_score(d, var_at(t, node)->var);
        }
        free(mentioned);
        qsort(cols, (size_t)nc, sizeof(Cand), cmp_cand);
        int *rowidx = xcalloc((size_t)nr + 1, sizeof(int));
        for (int i = 0; i < nr; i++)
            rowidx[i] = (int)(intptr_t)rows.items[i];
        int *chosen = xcalloc((size_t)nr + 1, sizeof(int));
        if (!choose_level(t, rowidx, nr, cols, nc, &pt, colpos, chosen)) {
            ok = false;
        } else {
            PtrVec next = {0};
            for (int i = 0; i < nr; i++) {
                StVar *x = var_at(t, chosen[i]);
                x->dummy = true;
                if (x->order >= 2) {
                    int lower = t->by_order[x->var][x->order - 1];
                    ptrvec_push(&s->arena, &next, (void *)(intptr_t)lower);
                }
            }
            z = next;
        }
        free(cols);
        free(rowidx);
        free(chosen);
        /* step every chain at this level one down */
        for (int e = 0; e < norig; e++) {
            StEq *q = eq_at(t, cur[e]);
            if (q->level >= 1 && eq_at(t, top[e])->level - q->level == maxlevel - level)
                cur[e] = q->anti;
        }
    }
    free(pv);
    free(vv);
    free(top);
    free(cur);
    free(colpos);
    return ok;
}

/* ---- BLT ---------------------------------------------------------------------- */

static bool blt(St *t)
{
    Structure *s = t->s;
    int neq = s->eqs.n, nv = s->vars.n;
    int nunk = 0;
    for (int i = 0; i < nv; i++)
        nunk += !var_at(t, i)->state;
    if (nunk != neq) {
        diag_error(src_none, "internal error: index reduction left %d equations for %d "
                   "unknowns", neq, nunk);
        return false;
    }
    Matcher m;
    matcher_init(&m, neq, nv);
    Graph g = {base_nadj, node_adj, unknown, t, &s->arena};
    for (int e = 0; e < neq; e++) {
        if (!augment(&m, &g, e)) {
            DaeEq *q = t->d->eqs.items[eq_at(t, e)->base];
            char text[200], org[200];
            print_eq_text(t->d, q, text, sizeof text);
            eq_origin(t->d, q, org, sizeof org);
            diag_error(q->span, "the index-reduced system is structurally singular: no "
                       "unknown is left for %s (%s)", text, org);
            matcher_free(&m);
            return false;
        }
    }
    /* dependency graph: eq e -> eq assign[v] for every unknown v in e */
    int *index = xcalloc((size_t)neq, sizeof(int)), *low = xcalloc((size_t)neq, sizeof(int));
    char *onstack = xcalloc((size_t)neq, 1);
    int *stack = xcalloc((size_t)neq + 1, sizeof(int)), sp = 0;
    int *cs_e = xcalloc((size_t)neq + 1, sizeof(int)), *cs_k = xcalloc((size_t)neq + 1, sizeof(int));
    int counter = 0;
    for (int i = 0; i < neq; i++)
        index[i] = -1;
    for (int root = 0; root < neq; root++) {
        if (index[root] >= 0)
            continue;
        int csp = 0;
        cs_e[0] = root;
        cs_k[0] = 0;
        index[root] = low[root] = counter++;
        stack[sp++] = root;
        onstack[root] = 1;
        while (csp >= 0) {
            int e = cs_e[csp];
            StEq *q = eq_at(t, e);
            if (cs_k[csp] < q->nadj) {
                int v = q->adj[cs_k[csp]++];
                if (var_at(t, v)->state)
                    continue;
                int w = m.assign[v];
                if (w < 0 || w == e)
                    continue;
                if (index[w] < 0) {
                    index[w] = low[w] = counter++;
                    stack[sp++] = w;
                    onstack[w] = 1;
                    csp++;
                    cs_e[csp] = w;
                    cs_k[csp] = 0;
                } else if (onstack[w] && index[w] < low[e]) {
                    low[e] = index[w];
                }
                continue;
            }
            if (low[e] == index[e]) {
                /* pop one component */
                int n = 0;
                for (int k = sp - 1; k >= 0; k--) {
                    n++;
                    if (stack[k] == e)
                        break;
                }
                StBlock *b = arena_alloc(&s->arena, sizeof *b);
                b->n = n;
                b->eqs = arena_alloc(&s->arena, sizeof(int) * (size_t)n);
                b->vars = arena_alloc(&s->arena, sizeof(int) * (size_t)n);
                for (int k = 0; k < n; k++) {
                    int x = stack[--sp];
                    onstack[x] = 0;
                    b->eqs[n - 1 - k] = x;
                    b->vars[n - 1 - k] = m.eq_mate[x];
                    var_at(t, m.eq_mate[x])->assign = x;
                }
                ptrvec_push(&s->arena, &s->blocks, b);
            }
            csp--;
            if (csp >= 0) {
                int parent = cs_e[csp];
                if (low[e] < low[parent])
                    low[parent] = low[e];
            }
        }
    }
    free(index); free(low); free(onstack); free(stack); free(cs_e); free(cs_k);
    matcher_free(&m);
    return true;
}

/* Solves scalar blocks whose unknown appears linearly. */
static DaeExpr *zero_leaf(void *ctx, DaeExprTable *tab, const DaeExpr *leaf)
{
    const StVar *x = ctx;
    if (leaf->u.var.index == x->var && leaf->u.var.order == x->order)
        return dae_const(tab, 0);
    return (DaeExpr *)leaf;
}

static bool solve_scalars(St *t)
{
    bool ok = true;
    Structure *s = t->s;
    DaeExprTable *tab = &t->d->t;
    for (int i = 0; i < s->blocks.n; i++) {
        StBlock *b = s->blocks.items[i];
        if (b->n != 1) {
            s->nloops++;
            if (b->n > s->max_loop)
                s->max_loop = b->n;
            continue;
        }
        StEq *q = eq_at(t, b->eqs[0]);
        StVar *x = var_at(t, b->vars[0]);
        PtrMap memo = {0};
        DaeExpr *a = dae_diff_var(tab, q->res, x->var, x->order, &memo);
        ptrmap_free(&memo);
        if (dae_is_const(a, 0)) {
            /* matched structurally, but the unknown cancels out */
            DaeEq *o = t->d->eqs.items[q->base];
            char text[200], name[160];
            print_eq_text(t->d, o, text, sizeof text);
            snprintf(name, sizeof name, "%s%s%s", x->order ? "der(" : "",
                     ((DaeVar *)t->d->vars.items[x->var])->name, x->order ? ")" : "");
            diag_error(o->span, "the model is singular: %s%s is the only equation "
                       "left for %s, but %s cancels out of it (%s)",
                       q->level ? "a derivative of " : "", text, name, name,
                       o->instance[0] ? o->instance : "top model");
            ok = false;
            continue;
        }
        if (dae_mentions_var(a, x->var, x->order)) {
            s->nloops++;
            if (s->max_loop < 1)
                s->max_loop = 1;
            continue;
        }
        memo = (PtrMap){0};
        DaeExpr *r0 = dae_substitute(tab, q->res, zero_leaf, x, &memo);
        ptrmap_free(&memo);
        b->pivot = a;
        b->solved = dae_div(tab, dae_neg(tab, r0), a);
    }
    return ok;
}

/* ---- driver ---------------------------------------------------------------------- */

Structure *struct_analyze(Dae *d)
{
    Structure *s = xcalloc(1, sizeof *s);
    St t = {0};
    t.s = s;
    t.d = d;
    int nv = d->vars.n;
    t.by_order = xcalloc((size_t)nv + 1, sizeof(int *));
    t.norders = xcalloc((size_t)nv + 1, sizeof(int));
    t.caporders = xcalloc((size_t)nv + 1, sizeof(int));
    propagate_inertial(d);
    for (int i = 0; i < d->eqs.n; i++) {
        DaeEq *q = d->eqs.items[i];
        add_eq(&t, dae_sub(&d->t, q->lhs, q->rhs), i, 0);
    }
    /* make every variable's chain start at order 0 */
    for (int v = 0; v < nv; v++)
        if (t.norders[v] > 0)
            node_of(&t, v, 0);
    bool ok = true;
    /* 1. regularity */
    Matcher m;
    matcher_init(&m, d->eqs.n, nv);
    Graph g = {base_nadj, base_adj, always, &t, &s->arena};
    int matched = 0;
    for (int e = 0; e < d->eqs.n; e++)
        matched += augment(&m, &g, e);
    if (matched < d->eqs.n || matched < d->nvars_left) {
        report_singular(&t, &m);
        ok = false;
    }
    matcher_free(&m);
    /* 2. Pantelides */
    if (ok) {
        matcher_init(&m, s->eqs.n, s->vars.n);
        ok = pantelides(&t, &m);
        matcher_free(&m);
    }
    /* 3. dummy derivatives, states */
    if (ok)
        ok = dummy_derivatives(&t);
    if (ok) {
        int maxlevel = 0;
        for (int i = 0; i < s->eqs.n; i++)
            if (eq_at(&t, i)->level > maxlevel)
                maxlevel = eq_at(&t, i)->level;
        for (int i = 0; i < s->vars.n; i++) {
            StVar *x = var_at(&t, i);
            x->state = x->deriv >= 0 && !var_at(&t, x->deriv)->dummy;
        }
        s->state_var = arena_alloc(&s->arena, sizeof(int) * (size_t)(s->vars.n + 1));
        bool has_alg = false;
        for (int i = 0; i < s->vars.n; i++) {
            StVar *x = var_at(&t, i);
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
        if (ok)
            ok = solve_scalars(&t);
    }
    for (int v = 0; v < nv; v++)
        free(t.by_order[v]);
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

void struct_report(FILE *fp, const Structure *s, Dae *d)
{
    fprintf(fp, "  states:                   %d", s->nstates);
    for (int i = 0; i < s->nstates; i++) {
        StVar *x = s->vars.items[s->state_var[i]];
        DaeVar *v = d->vars.items[x->var];
        fprintf(fp, "%s", i ? ", " : " (");
        for (int k = 0; k < x->order; k++)
            fputs("der(", fp);
        fputs(dae_shown_name(v), fp);
        for (int k = 0; k < x->order; k++)
            fputc(')', fp);
    }
    fprintf(fp, "%s\n", s->nstates ? ")" : "");
    fprintf(fp, "  differential index:       %d\n", s->index);
    fprintf(fp, "  differentiated equations: %d\n", s->ndiff);
    int shown = 0;
    for (int i = 0; i < s->eqs.n && shown < 20; i++) {
        StEq *q = s->eqs.items[i];
        if (q->level == 0 || q->deriv >= 0)
            continue;
        DaeEq *o = d->eqs.items[q->base];
        int line, col;
        src_linecol(o->span, &line, &col);
        SrcFile *f = src_get(o->span.file);
        fprintf(fp, "    %dx  ", q->level);
        DaeNames nm = dae_names(d);
        dae_print_expr(fp, o->lhs, &nm);
        fputs(" == ", fp);
        dae_print_expr(fp, o->rhs, &nm);
        if (o->kind == EQ_DOMAIN || o->kind == EQ_CONSERVATION)
            fprintf(fp, "   %% node %s\n", o->what);
        else
            fprintf(fp, "   %% %s, %s:%d\n", o->instance[0] ? o->instance : "(top)",
                    f ? f->path : "?", line);
        shown++;
    }
    int dummies = 0;
    for (int i = 0; i < s->vars.n; i++)
        dummies += ((StVar *)s->vars.items[i])->dummy;
    fprintf(fp, "  dummy derivatives:        %d\n", dummies);
    fprintf(fp, "  blocks:                   %d (%d algebraic loop%s", s->blocks.n, s->nloops,
            s->nloops == 1 ? "" : "s");
    if (s->nloops) {
        fputs(":", fp);
        for (int i = 0; i < s->blocks.n; i++) {
            StBlock *b = s->blocks.items[i];
            if (b->n > 1 || !b->solved)
                fprintf(fp, " %d", b->n);
        }
    }
    fputs(")\n", fp);
}

void struct_dump(FILE *fp, const Structure *s, Dae *d)
{
    DaeNames nm = dae_names(d);
    fprintf(fp, "blocks (%d), in evaluation order:\n", s->blocks.n);
    for (int k = 0; k < s->blocks.n; k++) {
        StBlock *b = s->blocks.items[k];
        fprintf(fp, "  %d: %s, solves", k, b->solved ? "explicit" : b->n > 1 ? "loop" : "nonlinear");
        for (int i = 0; i < b->n; i++) {
            StVar *x = s->vars.items[b->vars[i]];
            fputc(' ', fp);
            for (int j = 0; j < x->order; j++)
                fputs("der(", fp);
            fputs(dae_shown_name(d->vars.items[x->var]), fp);
            for (int j = 0; j < x->order; j++)
                fputc(')', fp);
        }
        fputc('\n', fp);
        for (int i = 0; i < b->n; i++) {
            StEq *q = s->eqs.items[b->eqs[i]];
            fputs("      ", fp);
            if (q->level)
                fprintf(fp, "[d/dt x%d] ", q->level);
            dae_print_expr(fp, q->res, &nm);
            fputs(" == 0\n", fp);
        }
    }
}
