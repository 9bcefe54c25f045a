/*
 * dae.c - the expression DAG and the flat system's containers.
 *
 * Hash-consing: every constructor computes a structural hash over the kind,
 * the payload and the children's identities, and returns the existing node
 * when an equal one exists.  Folding happens before the lookup, so
 * 0 + x is never stored, and never hides a value that is not finite.
 * Each node gets its flags and Bloom bits when it is made, so questions
 * about what it mentions are O(1).  The walks over a DAG (the one
 * rebuilding walk, map_tree, for substitution; children, reads, marks)
 * are dae_walk.c, differentiation dae_diff.c, evaluation dae_eval.c,
 * printing dae_print.c, the tables of kinds and builtins builtin.c.
 */
#include "dae_internal.h"

#include "rt_math.h"
#include "rt_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void dae_table_init(DaeExprTable *t, Arena *a)
{
    *t = (DaeExprTable){0};
    t->arena = a;
    t->nbuckets = 1024;
    t->buckets = mem_big_alloc(t->nbuckets * sizeof *t->buckets);
    t->count = 0;
}

void dae_table_free(DaeExprTable *t)
{
    free(t->pvalue);
    t->pvalue = NULL;
    t->npvalue = t->cap_pvalue = 0;
    dae_table_forget_values(t);
    ptrmap_free(&t->origin);
    ptrmap_free(&t->delays);
    ptrmap_free(&t->diff_memo);
    free(t->mark);
    t->mark = NULL;
    t->nmark = 0;
    free(t->stack);
    t->stack = NULL;
    t->nstack = 0;
    mem_big_free(t->buckets, t->nbuckets * sizeof *t->buckets);
    t->buckets = NULL;
    t->nbuckets = 0;
    free(t->leaves);
    t->leaves = NULL;
    t->cap_leaves = 0;
    memset(t->unit_consts, 0, sizeof t->unit_consts);
}

/* Makes entries up to `index` exist (NAN: not known yet). */
static void cover_param(DaeExprTable *t, int index)
{
    if (index < t->npvalue)
        return;
    if (index >= t->cap_pvalue) {
        int cap = t->cap_pvalue ? t->cap_pvalue : 256;
        while (cap <= index)
            cap *= 2;
        t->pvalue = realloc(t->pvalue, sizeof(double) * (size_t)cap);
        if (!t->pvalue)
            abort();
        t->cap_pvalue = cap;
    }
    for (int i = t->npvalue; i <= index; i++)
        t->pvalue[i] = NAN;
    t->npvalue = index + 1;
}

void dae_table_forget_values(DaeExprTable *t)
{
    ptrmap_free(&t->dvalue);
    free(t->dvals);
    t->dvals = NULL;
    t->ndvals = t->cap_dvals = 0;
}

void dae_table_param_value(DaeExprTable *t, int index, double v)
{
    cover_param(t, index);
    t->pvalue[index] = v;
}

/* One field into a 64-bit hash: each step is a bijection of h for a
   given v (xor, an odd multiplier, an xorshift), so that distinct nodes
   collide only by chance. */
static uint64_t mix(uint64_t h, uint64_t v)
{
    h = (h ^ v) * 0x9e3779b97f4a7c15u;
    return h ^ (h >> 29);
}

static uint64_t dbits(double v)
{
    uint64_t b;
    if (v == 0)
        v = 0; /* -0 and +0 are one constant */
    memcpy(&b, &v, sizeof b);
    return b;
}

static bool same(const DaeExpr *x, const DaeExpr *y)
{
    if (x->kind != y->kind)
        return false;
    switch (x->kind) {
    case DX_CONST: return dbits(x->u.value) == dbits(y->u.value);
    case DX_PARAM: return x->u.index == y->u.index;
    case DX_VAR: return x->u.var.index == y->u.var.index && x->u.var.order == y->u.var.order;
    case DX_TIME: case DX_INITIAL: return true;
    case DX_EVAR: return x->u.evar.index == y->u.evar.index;
    case DX_FUNC: return x->u.fn.fn == y->u.fn.fn && x->u.fn.a == y->u.fn.a && x->u.fn.b == y->u.fn.b;
    case DX_IF: case DX_DELAY:
        return x->u.cond.c == y->u.cond.c && x->u.cond.a == y->u.cond.a && x->u.cond.b == y->u.cond.b;
    case DX_SEGMENT:
        return x->u.seg.tab == y->u.seg.tab && x->u.seg.axis == y->u.seg.axis
               && x->u.seg.x == y->u.seg.x;
    case DX_LOOKUP:
        return x->u.look.s1 == y->u.look.s1 && x->u.look.s2 == y->u.look.s2
               && x->u.look.d1 == y->u.look.d1 && x->u.look.d2 == y->u.look.d2;
    default: return x->u.bin.a == y->u.bin.a && x->u.bin.b == y->u.bin.b;
    }
}

static uint64_t hash_of(const DaeExpr *x)
{
    uint64_t h = mix(0xcbf29ce484222325u, (uint64_t)x->kind);
    switch (x->kind) {
    case DX_CONST: return mix(h, dbits(x->u.value));
    case DX_PARAM: return mix(h, (uint64_t)x->u.index);
    case DX_VAR: return mix(mix(h, (uint64_t)x->u.var.index), (uint64_t)x->u.var.order);
    case DX_TIME: case DX_INITIAL: return h;
    case DX_EVAR: return mix(h, (uint64_t)x->u.evar.index);
    case DX_FUNC:
        h = mix(h, (uint64_t)x->u.fn.fn);
        h = mix(h, x->u.fn.a->id);
        return mix(h, x->u.fn.b ? x->u.fn.b->id + 1u : 0);
    case DX_IF: case DX_DELAY:
        h = mix(h, x->u.cond.c->id);
        h = mix(h, x->u.cond.a->id);
        return mix(h, x->u.cond.b ? x->u.cond.b->id + 1u : 0);
    case DX_SEGMENT:
        h = mix(h, (uint64_t)x->u.seg.tab->index);
        h = mix(h, (uint64_t)x->u.seg.axis);
        return mix(h, x->u.seg.x->id);
    case DX_LOOKUP:
        h = mix(h, x->u.look.s1->id);
        h = mix(h, x->u.look.s2 ? x->u.look.s2->id + 1u : 0);
        return mix(h, (uint64_t)(x->u.look.d1 * 16 + x->u.look.d2));
    default:
        h = mix(h, x->u.bin.a->id);
        return mix(h, x->u.bin.b ? x->u.bin.b->id + 1u : 0);
    }
}

static void rehash(DaeExprTable *t)
{
    size_t n = t->nbuckets * 2;
    DaeExpr **b = mem_big_alloc(n * sizeof *b);
    for (size_t i = 0; i < t->nbuckets; i++) {
        for (DaeExpr *e = t->buckets[i], *next; e; e = next) {
            next = e->next;
            e->next = b[e->hash & (n - 1)];
            b[e->hash & (n - 1)] = e;
        }
    }
    mem_big_free(t->buckets, t->nbuckets * sizeof *t->buckets);
    t->buckets = b;
    t->nbuckets = n;
}

/* Murmur3's 64-bit finalizer, folded to the 32 bits kept in the node:
   spreads the combined hash over the low bits that select the bucket. */
static uint32_t fmix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53u;
    h ^= h >> 33;
    return (uint32_t)h;
}

/* The Bloom bit of variable (index, order) in DaeExpr.vars. */
uint32_t dae_var_bit(int index, int order)
{
    return 1u << (((uint32_t)index * 2654435761u + (uint32_t)order * 40503u) >> 27);
}

static void set_flags(DaeExprTable *t, DaeExpr *e);

/* Returns the shared node equal to *proto, creating it if needed. */
static DaeExpr *intern(DaeExprTable *t, const DaeExpr *proto)
{
    uint32_t h = fmix(hash_of(proto));
    for (DaeExpr *e = t->buckets[h & (t->nbuckets - 1)]; e; e = e->next)
        if (e->hash == h && same(e, proto))
            return e;
    if (t->count >= t->nbuckets)
        rehash(t);
    DaeExpr *e = arena_alloc(t->arena, sizeof *e);
    *e = *proto;
    e->hash = h;
    e->id = t->count++;
    set_flags(t, e);
    e->next = t->buckets[h & (t->nbuckets - 1)];
    t->buckets[h & (t->nbuckets - 1)] = e;
    return e;
}

/* The node *proto through a direct slot (NULL: none): the slot's node,
   or the interned one, kept there. */
static DaeExpr *intern_slot(DaeExprTable *t, DaeExpr **slot, const DaeExpr *proto)
{
    if (slot && *slot)
        return *slot;
    DaeExpr *e = intern(t, proto);
    if (slot)
        *slot = e;
    return e;
}

/* The leaves and the special nodes: one prototype each, interned. */
DaeExpr *dae_const(DaeExprTable *t, double v)
{
    DaeExpr **unit = v == 0 ? &t->unit_consts[1] : v == 1 ? &t->unit_consts[2]
                     : v == -1 ? &t->unit_consts[0] : NULL;
    return intern_slot(t, unit, &(DaeExpr){.kind = DX_CONST, .u.value = v == 0 ? 0 : v});
}

/* The leaves' direct slots: per index, a variable and its derivative,
   and a parameter. */
enum { DAE_LEAF_VAR0, DAE_LEAF_VAR1, DAE_LEAF_PARAM, DAE_LEAF_SLOTS };

/* The slot of leaf `which` of index, or NULL when index is outside what
   the slots may cover (indices are dense: a huge one is hashed); grows
   them as needed. */
static DaeExpr **leaf_slot(DaeExprTable *t, int index, int which)
{
    if (index < 0 || index >= (1 << 26))
        return NULL;
    if ((size_t)index >= t->cap_leaves) {
        size_t cap = t->cap_leaves ? t->cap_leaves : 256;
        while (cap <= (size_t)index)
            cap *= 2;
        DaeExpr **l = realloc(t->leaves, cap * DAE_LEAF_SLOTS * sizeof *l);
        if (!l)
            abort();
        memset(l + t->cap_leaves * DAE_LEAF_SLOTS, 0,
               (cap - t->cap_leaves) * DAE_LEAF_SLOTS * sizeof *l);
        t->leaves = l;
        t->cap_leaves = cap;
    }
    return &t->leaves[(size_t)index * DAE_LEAF_SLOTS + (size_t)which];
}

DaeExpr *dae_param(DaeExprTable *t, int index)
{
    cover_param(t, index); /* so that evaluating at the defaults stays in bounds */
    return intern_slot(t, leaf_slot(t, index, DAE_LEAF_PARAM),
                       &(DaeExpr){.kind = DX_PARAM, .u.index = index});
}

DaeExpr *dae_var(DaeExprTable *t, int index, int order)
{
    DaeExpr **slot = order == 0   ? leaf_slot(t, index, DAE_LEAF_VAR0)
                     : order == 1 ? leaf_slot(t, index, DAE_LEAF_VAR1)
                                  : NULL;
    return intern_slot(t, slot, &(DaeExpr){.kind = DX_VAR, .u.var = {index, order}});
}

DaeExpr *dae_time(DaeExprTable *t)
{
    return intern(t, &(DaeExpr){.kind = DX_TIME});
}

DaeExpr *dae_evar(DaeExprTable *t, int index, double start)
{
    return intern(t, &(DaeExpr){.kind = DX_EVAR, .u.evar = {index, start}});
}

DaeExpr *dae_initial(DaeExprTable *t)
{
    return intern(t, &(DaeExpr){.kind = DX_INITIAL});
}

DaeExpr *dae_delay(DaeExprTable *t, DaeExpr *u, DaeExpr *tau, DaeExpr *history)
{
    return intern(t, &(DaeExpr){.kind = DX_DELAY, .u.cond = {.c = u, .a = tau, .b = history}});
}

DaeExpr *dae_edge(DaeExprTable *t, DaeExpr *b)
{
    return intern(t, &(DaeExpr){.kind = DX_EDGE, .u.bin = {.a = b, .b = NULL}});
}

bool dae_is_const(const DaeExpr *e, double v)
{
    return e->kind == DX_CONST && e->u.value == v;
}

static bool is_num(const DaeExpr *e)
{
    return e->kind == DX_CONST;
}

bool dae_is_relation(const DaeExpr *e)
{
    return e->kind >= DX_LT && e->kind <= DX_NE;
}



/* Whether parameters first .. first + n - 1 have known defaults. */
static bool params_known(const DaeExprTable *t, int first, int n)
{
    if (first < 0 || first + n > t->npvalue)
        return false;
    for (int i = first; i < first + n; i++)
        if (isnan(t->pvalue[i]))
            return false;
    return true;
}

/* A table's segment or lookup with queries known from parameters, at the
   defaults: the same interpolant the simulator evaluates (rt_table.c), so
   such a lookup is one more parameter expression; NAN while a grid, the
   data or a query is not known. */
static double table_default(DaeExprTable *t, const DaeExpr *e)
{
    const DaeExpr *s1 = e->kind == DX_SEGMENT ? e : e->u.look.s1;
    const DaeExpr *s2 = e->kind == DX_SEGMENT ? NULL : e->u.look.s2;
    const DaeTable *tb = s1->u.seg.tab;
    int n1 = tb->n[0], n2 = tb->axes == 2 ? tb->n[1] : 1;
    if (!params_known(t, tb->grid[0], n1)
        || (tb->axes == 2 && !params_known(t, tb->grid[1], n2)))
        return NAN;
    const double *p = t->pvalue;
    if (e->kind == DX_SEGMENT) {
        int axis = e->u.seg.axis;
        double x = dae_default_value(t, e->u.seg.x);
        return isnan(x) ? NAN : rt_grid_segment(p + tb->grid[axis], tb->n[axis], x);
    }
    if (!params_known(t, tb->data, n1 * n2))
        return NAN;
    double x1 = dae_default_value(t, s1->u.seg.x);
    double x2 = s2 ? dae_default_value(t, s2->u.seg.x) : 0;
    if (isnan(x1) || isnan(x2))
        return NAN;
    int k1 = rt_grid_segment(p + tb->grid[0], n1, x1);
    if (!s2)
        return rt_table1(p + tb->grid[0], n1, p + tb->data, tb->interp, tb->extrap, k1, x1,
                         e->u.look.d1);
    int k2 = rt_grid_segment(p + tb->grid[1], n2, x2);
    return rt_table2(p + tb->grid[0], n1, p + tb->grid[1], n2, p + tb->data, tb->interp,
                     tb->extrap, k1, k2, x1, x2, e->u.look.d1, e->u.look.d2);
}

/* The value of a constant or parameter expression at the parameters'
   defaults (NAN for one that reads a variable or time).  Memoised per
   node (DaeExprTable.dvalue): a node's parameters are recorded before it
   is made, so its value never changes, and a shared DAG costs its size;
   dae_table_forget_values drops the memo. */
double dae_default_value(DaeExprTable *t, const DaeExpr *e)
{
    if (e->kind == DX_CONST)
        return e->u.value;
    if (e->kind == DX_PARAM)
        return t->pvalue[e->u.index];
    if (dae_depends_on_state(e))
        return NAN;
    intptr_t known = (intptr_t)ptrmap_get(&t->dvalue, e);
    if (known)
        return t->dvals[known - 1];
    double v;
    switch (e->kind) {
    case DX_NEG: v = -dae_default_value(t, e->u.bin.a); break;
    case DX_NOT: v = dae_default_value(t, e->u.bin.a) == 0; break;
    case DX_FUNC:
        v = dae_fold_fn(e->u.fn.fn, dae_default_value(t, e->u.fn.a),
                    e->u.fn.b ? dae_default_value(t, e->u.fn.b) : 0);
        break;
    case DX_IF: {
        double c = dae_default_value(t, e->u.cond.c);
        v = isnan(c) ? NAN : dae_default_value(t, c != 0 ? e->u.cond.a : e->u.cond.b);
        break;
    }
    case DX_SEGMENT: case DX_LOOKUP: v = table_default(t, e); break;
    case DX_DELAY: case DX_EDGE: case DX_INITIAL: case DX_EVAR: v = NAN; break;
    default:
        v = dae_fold(e->kind, dae_default_value(t, e->u.bin.a), dae_default_value(t, e->u.bin.b));
        break;
    }
    if (t->ndvals == t->cap_dvals) {
        t->cap_dvals = t->cap_dvals ? 2 * t->cap_dvals : 256;
        t->dvals = realloc(t->dvals, sizeof(double) * t->cap_dvals);
        if (!t->dvals)
            abort();
    }
    t->dvals[t->ndvals++] = v;
    ptrmap_put(&t->dvalue, e, (void *)(intptr_t)t->ndvals);
    return v;
}

/* Whether 0 * e is 0: e is known finite (DXF_FINITE, dae.h). */
static bool known_finite(const DaeExpr *e)
{
    return (e->flags & DXF_FINITE) != 0;
}

/* Whether 0 / e is 0: e is a constant or parameter expression, finite and
   nonzero at the defaults.  A variable may be zero: 0 / x stays. */
static bool known_nonzero(DaeExprTable *t, const DaeExpr *e)
{
    if (dae_depends_on_state(e))
        return false;
    double v = e->kind == DX_CONST ? e->u.value : dae_default_value(t, e);
    return isfinite(v) && v != 0;
}

static DaeExpr *mk2(DaeExprTable *t, DaeExprKind k, DaeExpr *a, DaeExpr *b)
{
    DaeExpr p = {.kind = k};
    p.u.bin.a = a;
    p.u.bin.b = b;
    return intern(t, &p);
}

DaeExpr *dae_neg(DaeExprTable *t, DaeExpr *a)
{
    if (is_num(a))
        return dae_const(t, -a->u.value);
    if (a->kind == DX_NEG)
        return a->u.bin.a;
    if (a->kind == DX_SUB)
        return dae_sub(t, a->u.bin.b, a->u.bin.a);
    return mk2(t, DX_NEG, a, NULL);
}

DaeExpr *dae_not(DaeExprTable *t, DaeExpr *a)
{
    if (is_num(a))
        return dae_const(t, a->u.value == 0);
    if (a->kind == DX_NOT)
        return a->u.bin.a;
    return mk2(t, DX_NOT, a, NULL);
}

double dae_fold(DaeExprKind k, double a, double b)
{
    switch (k) {
    case DX_ADD: return a + b;
    case DX_SUB: return a - b;
    case DX_MUL: return a * b;
    case DX_DIV: return a / b;
    case DX_POW: return pow(a, b);
    case DX_LT: return a < b;
    case DX_LE: return a <= b;
    case DX_GT: return a > b;
    case DX_GE: return a >= b;
    case DX_EQ: return a == b;
    case DX_NE: return a != b;
    case DX_AND: return a != 0 && b != 0;
    case DX_OR: return a != 0 || b != 0;
    default: return NAN;
    }
}

DaeExpr *dae_binary(DaeExprTable *t, DaeExprKind k, DaeExpr *a, DaeExpr *b)
{
    if (is_num(a) && is_num(b)) {
        double v = dae_fold(k, a->u.value, b->u.value);
        if (isfinite(v))
            return dae_const(t, v);
    }
    switch (k) {
    case DX_ADD:
        if (dae_is_const(a, 0)) return b;
        if (dae_is_const(b, 0)) return a;
        if (b->kind == DX_NEG) return dae_sub(t, a, b->u.bin.a);
        if (a->kind == DX_NEG) return dae_sub(t, b, a->u.bin.a);
        if (is_num(b) && b->u.value < 0) return dae_sub(t, a, dae_const(t, -b->u.value));
        break;
    case DX_SUB:
        if (dae_is_const(b, 0)) return a;
        if (dae_is_const(a, 0)) return dae_neg(t, b);
        if (a == b && known_finite(a)) return dae_const(t, 0); /* inf - inf is NaN */
        if (b->kind == DX_NEG) return dae_add(t, a, b->u.bin.a);
        break;
    case DX_MUL:
        if ((dae_is_const(a, 0) && known_finite(b))
            || (dae_is_const(b, 0) && known_finite(a)))
            return dae_const(t, 0); /* 0 * inf is NaN */
        if (dae_is_const(a, 1)) return b;
        if (dae_is_const(b, 1)) return a;
        if (dae_is_const(a, -1)) return dae_neg(t, b);
        if (dae_is_const(b, -1)) return dae_neg(t, a);
        if (a->kind == DX_NEG && b->kind == DX_NEG) return dae_mul(t, a->u.bin.a, b->u.bin.a);
        if (a->kind == DX_NEG) return dae_neg(t, dae_mul(t, a->u.bin.a, b));
        if (b->kind == DX_NEG) return dae_neg(t, dae_mul(t, a, b->u.bin.a));
        if (is_num(b) && !is_num(a)) return dae_mul(t, b, a); /* constants first */
        break;
    case DX_DIV:
        if (dae_is_const(a, 0) && known_nonzero(t, b)) return dae_const(t, 0);
        if (dae_is_const(b, 1)) return a;
        if (dae_is_const(b, -1)) return dae_neg(t, a);
        if (a == b && a->kind != DX_CONST) break; /* x/x is 1 only where x != 0 */
        if (a->kind == DX_NEG) return dae_neg(t, dae_div(t, a->u.bin.a, b));
        break;
    case DX_POW:
        if (dae_is_const(b, 1)) return a;
        if (dae_is_const(b, 0)) return dae_const(t, 1);
        break;
    case DX_AND:
        if (is_num(a)) return a->u.value != 0 ? b : dae_const(t, 0);
        if (is_num(b)) return b->u.value != 0 ? a : dae_const(t, 0);
        break;
    case DX_OR:
        if (is_num(a)) return a->u.value != 0 ? dae_const(t, 1) : b;
        if (is_num(b)) return b->u.value != 0 ? dae_const(t, 1) : a;
        break;
    default:
        break;
    }
    return mk2(t, k, a, b);
}

double dae_fold_fn(DaeFunc fn, double a, double b)
{
    switch (fn) {
#define X_FOLD(id, name, c, arity, units, lower, eval, finite, diff) case id: return eval;
    LMDL_BUILTINS(X_FOLD)
    default: return NAN;
    }
}

DaeExpr *dae_func(DaeExprTable *t, DaeFunc fn, DaeExpr *a, DaeExpr *b)
{
    if (is_num(a) && (!b || is_num(b))) {
        double v = dae_fold_fn(fn, a->u.value, b ? b->u.value : 0);
        if (isfinite(v))
            return dae_const(t, v);
    }
    DaeExpr p = {.kind = DX_FUNC};
    p.u.fn.fn = fn;
    p.u.fn.a = a;
    p.u.fn.b = b;
    return intern(t, &p);
}

DaeExpr *dae_if(DaeExprTable *t, DaeExpr *c, DaeExpr *a, DaeExpr *b)
{
    if (is_num(c))
        return c->u.value != 0 ? a : b;
    if (a == b)
        return a;
    DaeExpr p = {.kind = DX_IF};
    p.u.cond.c = c;
    p.u.cond.a = a;
    p.u.cond.b = b;
    return intern(t, &p);
}

DaeExpr *dae_abs(DaeExprTable *t, DaeExpr *a)
{
    return dae_if(t, dae_binary(t, DX_GE, a, dae_const(t, 0)), a, dae_neg(t, a));
}

DaeExpr *dae_sign(DaeExprTable *t, DaeExpr *a)
{
    DaeExpr *zero = dae_const(t, 0);
    return dae_if(t, dae_binary(t, DX_GT, a, zero), dae_const(t, 1),
                  dae_if(t, dae_binary(t, DX_LT, a, zero), dae_const(t, -1), zero));
}

/* Of constants and parameters, C's fmin and fmax (builtin.h: FN_NAMED);
   else an if-expression over a relation, the zero crossing. */
DaeExpr *dae_min(DaeExprTable *t, DaeExpr *a, DaeExpr *b)
{
    if (a == b)
        return a;
    if (!dae_depends_on_state(a) && !dae_depends_on_state(b))
        return dae_func(t, FN_FMIN, a, b);
    return dae_if(t, dae_binary(t, DX_LE, a, b), a, b);
}

DaeExpr *dae_max(DaeExprTable *t, DaeExpr *a, DaeExpr *b)
{
    if (a == b)
        return a;
    if (!dae_depends_on_state(a) && !dae_depends_on_state(b))
        return dae_func(t, FN_FMAX, a, b);
    return dae_if(t, dae_binary(t, DX_GE, a, b), a, b);
}

/* ---- tables --------------------------------------------------- */

DaeTable *dae_table_new(DaeExprTable *t)
{
    DaeTable *tab = arena_alloc(t->arena, sizeof *tab);
    tab->index = t->tables.n;
    ptrvec_push(t->arena, &t->tables, tab);
    return tab;
}

DaeExpr *dae_segment(DaeExprTable *t, const DaeTable *tab, int axis, DaeExpr *x)
{
    DaeExpr p = {.kind = DX_SEGMENT};
    p.u.seg.tab = tab;
    p.u.seg.axis = axis;
    p.u.seg.x = x;
    return intern(t, &p);
}

DaeExpr *dae_lookup(DaeExprTable *t, DaeExpr *s1, DaeExpr *s2, int d1, int d2)
{
    int top = rt_table_max_order(s1->u.seg.tab->interp);
    if (d1 > top || d2 > top || (!s2 && d2 > 0))
        return dae_const(t, 0);
    DaeExpr p = {.kind = DX_LOOKUP};
    p.u.look.s1 = s1;
    p.u.look.s2 = s2;
    p.u.look.d1 = d1;
    p.u.look.d2 = d2;
    return intern(t, &p);
}

bool dae_is_mode(const DaeExpr *e)
{
    return dae_is_relation(e) || e->kind == DX_SEGMENT;
}

/* Whether a node is finite whenever its operands are: the operators that
   cannot divide by zero or leave a function's domain.  A division is one
   when its divisor is a constant or parameter expression, finite and
   nonzero at the defaults (x / tau), a power when its exponent is a
   whole number >= 0 (x^2).  The operands' growth is not counted (x * y
   may overflow, as x may). */
static bool finite_op(DaeExprTable *t, const DaeExpr *e)
{
    switch (e->kind) {
    case DX_DIV: return known_nonzero(t, e->u.bin.b);
    case DX_POW:
        return is_num(e->u.bin.b) && e->u.bin.b->u.value >= 0
               && e->u.bin.b->u.value == floor(e->u.bin.b->u.value);
    case DX_FUNC: return builtin_finite[e->u.fn.fn];
    default: return true;
    }
}

/* The flags and Bloom bits of a new node, from its own kind and its
   children's.  DXF_FINITE is the one flag that needs every child: a
   node is known finite when its operation is finite on finite operands
   and they all are, or, reading no variable, time or event, when its
   value at the parameters' defaults is finite (1/p with p = 2). */
static void set_flags(DaeExprTable *t, DaeExpr *e)
{
    DaeExpr *k[3];
    int n = dae_children(e, k);
    bool finite = finite_op(t, e);
    e->flags = 0;
    e->vars = 0;
    for (int i = 0; i < n; i++) {
        e->flags |= k[i]->flags;
        e->vars |= k[i]->vars;
        finite = finite && (k[i]->flags & DXF_FINITE);
    }
    e->flags &= (uint8_t)~DXF_FINITE;
    if (e->kind == DX_VAR) {
        e->flags |= DXF_VAR;
        e->vars |= dae_var_bit(e->u.var.index, e->u.var.order);
    } else if (e->kind == DX_TIME) {
        e->flags |= DXF_TIME;
    } else if (e->kind == DX_EVAR || e->kind == DX_INITIAL || e->kind == DX_EDGE) {
        e->flags |= DXF_EVAR;
    } else if (e->kind == DX_DELAY) {
        e->flags |= DXF_TIME;   /* its value moves with time, whatever u is */
    } else if (dae_is_mode(e)) {
        e->flags |= DXF_REL;
    }
    if (e->kind == DX_CONST)
        finite = isfinite(e->u.value);
    else if (e->kind == DX_PARAM)
        finite = isfinite(t->pvalue[e->u.index]);
    else if (!finite && !dae_depends_on_state(e) && e->kind != DX_SEGMENT
             && e->kind != DX_LOOKUP)
        finite = isfinite(dae_default_value(t, e));
    if (finite)
        e->flags |= DXF_FINITE;
}

/* ---- the system ------------------------------------------------------------ */

Dae *dae_new(const Arena *arena, const DaeExprTable *t)
{
    Dae *d = calloc(1, sizeof *d);
    if (!d)
        abort();
    d->arena = *arena;
    d->t = *t;
    d->t.arena = &d->arena;
    return d;
}

void dae_free(Dae *d)
{
    if (!d)
        return;
    dae_table_free(&d->t);
    arena_free(&d->arena);
    free(d);
}

const char *dae_var_name(void *dae, int index)
{
    Dae *d = dae;
    return index >= 0 && index < d->vars.n ? ((DaeVar *)d->vars.items[index])->name : "?";
}

const char *dae_shown_name(const DaeVar *v)
{
    return v->display ? v->display : v->name;
}

const char *dae_param_name(void *dae, int index)
{
    Dae *d = dae;
    return index >= 0 && index < d->params.n ? ((DaeParam *)d->params.items[index])->name : "?";
}

DaeNames dae_names(Dae *d)
{
    DaeNames n = {dae_param_name, dae_var_name, d, dae_evar_name, 0};
    return n;
}

