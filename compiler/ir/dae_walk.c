/*
 * dae_walk.c - walks over the expression DAG: the one rebuilding walk
 * (map_tree: substitution and leaf maps, every node rebuilt through its
 * constructor so that it is folded and interned like a new one), a
 * node's children, the parameters and variables an expression reads, and
 * the marked walks that visit each shared node once.  The table and the
 * constructors are dae.c.
 */
#include "dae_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- traversal ---------------------------------------------------------- */

/* A rebuild of an expression: which leaves are mapped, and whether a
   subtree without such a leaf is kept as it is. */
typedef struct LeafMap {
    uint8_t leaves;         /* DXF_* flags of the leaves given to map */
    bool prune;             /* return a subtree without such a leaf unvisited */
    DaeVarMap map;          /* the replacement of a leaf */
    void *ctx;              /* map's */
    PtrMap *memo;           /* node -> its rebuild */
} LeafMap;

/* Whether rebuilding e from its own children could give another node:
   only 0 / x, which folds to 0 once x is known to be nonzero (parameter
   defaults may be learnt after the node was made).  Every other
   constructor is a function of its children and their flags alone. */
static bool refolds(const DaeExpr *e)
{
    return e->kind == DX_DIV && dae_is_const(e->u.bin.a, 0);
}

/* The one rebuilding child walk: every kind's constructor, so that a
   rebuilt node is folded and interned like a new one.  A node whose
   children all map to themselves is its own rebuild, without asking the
   table again. */
static DaeExpr *map_tree(DaeExprTable *t, DaeExpr *e, const LeafMap *m)
{
    if (m->prune && !(e->flags & m->leaves))
        return e;
    DaeExpr *done = ptrmap_get(m->memo, e);
    if (done)
        return done;
    DaeExpr *r, *kids[3] = {0}, *k[3] = {0};
    int n = dae_children(e, kids);
    bool changed = false;
    for (int i = 0; i < n; i++) {
        k[i] = kids[i] ? map_tree(t, kids[i], m) : NULL;
        changed |= k[i] != kids[i];
    }
    if (n > 0 && !changed && !refolds(e)) {
        ptrmap_put(m->memo, e, e);
        return e;
    }
    switch (e->kind) {
    case DX_CONST: case DX_PARAM: case DX_TIME: case DX_EVAR: case DX_INITIAL:
    case DX_VAR:
        r = (e->flags & m->leaves) ? m->map(m->ctx, t, e) : e;
        break;
    case DX_EDGE:
        r = dae_edge(t, k[0]);
        break;
    case DX_DELAY:
        r = dae_delay(t, k[0], k[1], k[2]);
        if (r != e && !ptrmap_get(&t->delays, r)) {
            void *o = ptrmap_get(&t->delays, e);
            if (o)
                ptrmap_put(&t->delays, r, o);
        }
        break;
    case DX_FUNC:
        r = dae_func(t, e->u.fn.fn, k[0], k[1]);
        break;
    case DX_IF:
        r = dae_if(t, k[0], k[1], k[2]);
        break;
    case DX_NEG:
        r = dae_neg(t, k[0]);
        break;
    case DX_NOT:
        r = dae_not(t, k[0]);
        break;
    case DX_SEGMENT:
        r = dae_segment(t, e->u.seg.tab, e->u.seg.axis, k[0]);
        if (r != e && !ptrmap_get(&t->origin, r)) {
            void *o = ptrmap_get(&t->origin, e);
            if (o)
                ptrmap_put(&t->origin, r, o);
        }
        break;
    case DX_LOOKUP:
        r = dae_lookup(t, k[0], k[1], e->u.look.d1, e->u.look.d2);
        break;
    default:
        r = dae_binary(t, e->kind, k[0], k[1]);
        /* a rebuilt relation keeps its source for the event log */
        if (r != e && dae_is_relation(r) && !ptrmap_get(&t->origin, r)) {
            void *o = ptrmap_get(&t->origin, e);
            if (o)
                ptrmap_put(&t->origin, r, o);
        }
        break;
    }
    ptrmap_put(m->memo, e, r);
    return r;
}

DaeExpr *dae_substitute(DaeExprTable *t, DaeExpr *e, DaeVarMap map, void *ctx,
                        PtrMap *memo)
{
    LeafMap m = {.leaves = DXF_VAR, .prune = false, .map = map, .ctx = ctx, .memo = memo};
    return map_tree(t, e, &m);
}

DaeExpr *dae_map_leaves(DaeExprTable *t, DaeExpr *e, uint8_t leaves, DaeVarMap map,
                        void *ctx, PtrMap *memo)
{
    LeafMap m = {.leaves = leaves, .prune = true, .map = map, .ctx = ctx, .memo = memo};
    return map_tree(t, e, &m);
}

DaeRelOrigin *dae_rel_origin(DaeExprTable *t, const DaeExpr *rel)
{
    return ptrmap_get(&t->origin, rel);
}

/* ---- questions about a node ---------------------------------------------- */

int dae_children(const DaeExpr *e, DaeExpr *kids[3])
{
    switch (e->kind) {
    case DX_CONST: case DX_PARAM: case DX_VAR: case DX_TIME: case DX_EVAR: case DX_INITIAL:
        return 0;
    case DX_FUNC:
        kids[0] = e->u.fn.a;
        kids[1] = e->u.fn.b;
        return e->u.fn.b ? 2 : 1;
    case DX_IF:
        kids[0] = e->u.cond.c;
        kids[1] = e->u.cond.a;
        kids[2] = e->u.cond.b;
        return 3;
    case DX_SEGMENT:
        kids[0] = e->u.seg.x;
        return 1;
    case DX_LOOKUP:
        kids[0] = e->u.look.s1;
        kids[1] = e->u.look.s2;
        return e->u.look.s2 ? 2 : 1;
    case DX_DELAY:
        kids[0] = e->u.cond.c;
        kids[1] = e->u.cond.a;
        kids[2] = e->u.cond.b;
        return e->u.cond.b ? 3 : 2;
    default:
        kids[0] = e->u.bin.a;
        kids[1] = e->u.bin.b;
        return e->u.bin.b ? 2 : 1;
    }
}

int dae_operands(const DaeExpr *e, DaeExpr *ops[5])
{
    int n = dae_children(e, ops);
    if (e->kind == DX_LOOKUP) {
        ops[n++] = e->u.look.s1->u.seg.x;
        if (e->u.look.s2)
            ops[n++] = e->u.look.s2->u.seg.x;
    }
    return n;
}

/* ---- the parameters an expression reads ----------------------------------- */

/* A set of keys: its first SMALL_SET in an array searched in order (an
   assertion's condition has a few nodes, and this runs for each), the
   rest in a map. */
enum { SMALL_SET = 32 };

typedef struct SmallSet {
    const void *first[SMALL_SET];
    int n;
    PtrMap more;
} SmallSet;

/* Adds key; false when it was there already. */
static bool small_set_add(SmallSet *s, const void *key)
{
    for (int i = 0; i < s->n; i++)
        if (s->first[i] == key)
            return false;
    if (s->n < SMALL_SET) {
        s->first[s->n++] = key;
        return true;
    }
    if (ptrmap_get(&s->more, key))
        return false;
    ptrmap_put(&s->more, key, (void *)1);
    return true;
}

/* The distinct leaves of one kind (DX_PARAM: u.index; DX_VAR: u.var.index,
   whatever the order) below e.  `seen` holds the nodes visited, `counted`
   the indices already listed (keyed index + 1), since a variable has a
   node per derivative order. */
static void leaf_reads(const DaeExpr *e, DaeExprKind kind, SmallSet *seen, SmallSet *counted,
                       int *out, int cap, int *n)
{
    if (!small_set_add(seen, e))
        return;
    if (e->kind == kind) {
        int k = kind == DX_PARAM ? e->u.index : e->u.var.index;
        if (!small_set_add(counted, (void *)(intptr_t)(k + 1)))
            return;
        if (*n < cap)
            out[*n] = k;
        ++*n;
        return;
    }
    DaeExpr *kids[3];
    int nk = dae_children(e, kids);
    for (int i = 0; i < nk; i++)
        leaf_reads(kids[i], kind, seen, counted, out, cap, n);
}

static int reads(const DaeExpr *e, DaeExprKind kind, int *out, int cap)
{
    SmallSet seen, counted;
    seen.n = counted.n = 0;
    seen.more = counted.more = (PtrMap){0};
    int n = 0;
    leaf_reads(e, kind, &seen, &counted, out, cap, &n);
    ptrmap_free(&seen.more);
    ptrmap_free(&counted.more);
    return n;
}

int dae_param_reads(const DaeExpr *e, int *out, int cap)
{
    return reads(e, DX_PARAM, out, cap);
}

int dae_var_reads(const DaeExpr *e, int *out, int cap)
{
    return reads(e, DX_VAR, out, cap);
}

/* Starts a walk: a fresh stamp, and a mark for every node made so far. */
void dae_walk_begin(DaeExprTable *t)
{
    if (t->nmark < t->count) {
        size_t n = t->nmark ? t->nmark : 1024;
        while (n < t->count)
            n *= 2;
        t->mark = realloc(t->mark, n * sizeof *t->mark);
        if (!t->mark)
            abort();
        memset(t->mark + t->nmark, 0, (n - t->nmark) * sizeof *t->mark);
        t->nmark = n;
    }
    if (++t->stamp == 0) {
        memset(t->mark, 0, t->nmark * sizeof *t->mark);
        t->stamp = 1;
    }
}

void dae_walk_push(DaeExprTable *t, size_t *sp, const DaeExpr *e)
{
    if (*sp == t->nstack) {
        t->nstack = t->nstack ? 2 * t->nstack : 256;
        t->stack = realloc(t->stack, t->nstack * sizeof *t->stack);
        if (!t->stack)
            abort();
    }
    t->stack[(*sp)++] = e;
}

bool dae_mentions_var(DaeExprTable *t, const DaeExpr *e, int index, int order)
{
    uint32_t bit = dae_var_bit(index, order);
    if (!(e->vars & bit))
        return false;
    dae_walk_begin(t);
    size_t sp = 0;
    dae_walk_push(t, &sp, e);
    while (sp) {
        const DaeExpr *x = t->stack[--sp];
        if (x->kind == DX_VAR) {
            if (x->u.var.index == index && x->u.var.order == order)
                return true;
            continue;
        }
        DaeExpr *k[3];
        int n = dae_children(x, k);
        for (int i = 0; i < n; i++) {
            if (!(k[i]->vars & bit) || t->mark[k[i]->id] == t->stamp)
                continue;
            t->mark[k[i]->id] = t->stamp;
            dae_walk_push(t, &sp, k[i]);
        }
    }
    return false;
}

void dae_each_var(DaeExprTable *t, DaeExpr *const *roots, int n, DaeVarVisit fn, void *ctx)
{
    dae_walk_begin(t);
    size_t sp = 0;
    for (int r = 0; r < n; r++) {
        if (!roots[r] || !dae_has_var(roots[r]) || t->mark[roots[r]->id] == t->stamp)
            continue;
        t->mark[roots[r]->id] = t->stamp;
        dae_walk_push(t, &sp, roots[r]);
    }
    while (sp) {
        const DaeExpr *x = t->stack[--sp];
        if (x->kind == DX_VAR) {
            fn(ctx, x->u.var.index, x->u.var.order);
            continue;
        }
        DaeExpr *k[3];
        int nk = dae_children(x, k);
        for (int i = 0; i < nk; i++) {
            if (!dae_has_var(k[i]) || t->mark[k[i]->id] == t->stamp)
                continue;
            t->mark[k[i]->id] = t->stamp;
            dae_walk_push(t, &sp, k[i]);
        }
    }
}

