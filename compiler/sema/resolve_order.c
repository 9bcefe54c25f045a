/*
 * resolve_order.c - resolution (resolve.c): the order in which a
 * component's declarations are made.
 *
 * Simscape reads a component's parameters in any order: a value may use
 * a parameter declared further down, or one that every clause of a later
 * conditional section declares, and a section's condition may read a
 * parameter declared after it.  Elaboration declares members one after
 * another, each value computed from those before it, so here the items of
 * each arm are put in an order where every declaration comes after the
 * parameters its value reads: a stable topological sort, which leaves a
 * file already in order untouched.
 *
 * The units sorted are, in each arm: each declaration of a parameters,
 * variables, inputs, outputs, across or through section (what its value
 * reads); a components section (its arguments); a conditional section as
 * a whole (its conditions, and what everything inside reads from outside
 * it), and a for-loop likewise.  Consecutive declarations that stay
 * together stay one section; a section split by the sort becomes copies
 * with the same attributes.  A cycle (a parameter whose value reads
 * itself, through others or not) is an error naming the chain.
 *
 * The syntax trees of a base component are shared, so nothing here
 * changes an item in place: what changes is copied into this definition's
 * own list of items, as resolve_setup.c does.
 */
#include "resolve_internal.h"

#include "diag.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct Unit {
    AstItem *item;      /* the section, if or for-loop it is (part of) */
    AstDecl *decl;      /* its one declaration, or NULL for the whole item */
    int *deps;          /* units it reads, by index */
    int ndeps, capdeps; /* entries used and allocated */
    int state;          /* 0 unvisited, 1 on the path, 2 placed */
} Unit;

typedef struct Order {
    Program *p;         /* for the arena */
    SemaDef *d;         /* the definition */
    Unit *units;        /* of the arm being ordered */
    int n;              /* how many */
    PtrMap names;       /* parameter name -> unit index + 1 */
    PtrMap inside;      /* names declared inside the if being read, or
                           empty: those are not its dependencies */
    int self;           /* the unit whose reads are being collected */
} Order;

static bool reads_values(AstSectionKind k)
{
    return k == SEC_PARAMETERS || k == SEC_VARIABLES || k == SEC_INPUTS
           || k == SEC_OUTPUTS || k == SEC_ACROSS || k == SEC_THROUGH;
}

static void add_dep(Unit *u, int dep)
{
    for (int i = 0; i < u->ndeps; i++)
        if (u->deps[i] == dep)
            return;
    if (u->ndeps == u->capdeps) {
        u->capdeps = u->capdeps ? 2 * u->capdeps : 4;
        u->deps = realloc(u->deps, sizeof(int) * (size_t)u->capdeps);
        if (!u->deps)
            abort();
    }
    u->deps[u->ndeps++] = dep;
}

/* ---- what a unit reads ---------------------------------------------------- */

static void read_name(Order *o, Sym *s)
{
    if (!s || ptrmap_get(&o->inside, s))
        return;
    intptr_t k = (intptr_t)ptrmap_get(&o->names, s);
    if (k)
        add_dep(&o->units[o->self], (int)k - 1);
}

static void read_child(AstExpr **slot, void *ctx);

static void read_expr(Order *o, AstExpr *e)
{
    if (!e)
        return;
    if (e->kind == EXPR_NAME)
        read_name(o, e->u.name.parts[0].sym);
    else if (e->kind == EXPR_CALL)
        read_name(o, e->u.call.func);
    ast_each_child(e, read_child, o);
}

static void read_child(AstExpr **slot, void *ctx)
{
    read_expr(ctx, *slot);
}

static void read_items(Order *o, PtrVec *items);

static void read_item(Order *o, AstItem *it, AstDecl *only)
{
    switch (it->kind) {
    case ITEM_SECTION: {
        AstSectionKind k = it->u.section.kind;
        if (only) {
            read_expr(o, only->value);
        } else if (reads_values(k)) {
            for (int i = 0; i < it->u.section.entries.n; i++)
                read_expr(o, ((AstDecl *)it->u.section.entries.items[i])->value);
        } else if (k == SEC_COMPONENTS) {
            for (int i = 0; i < it->u.section.entries.n; i++) {
                AstInstance *in = it->u.section.entries.items[i];
                for (int j = 0; j < in->args.n; j++)
                    read_expr(o, ((AstArg *)in->args.items[j])->value);
                for (int j = 0; j < in->index.n; j++)
                    read_expr(o, in->index.items[j]);
            }
        }
        break;
    }
    case ITEM_IF:
        for (int j = 0; j < it->u.if_.clauses.n; j++) {
            AstClause *c = it->u.if_.clauses.items[j];
            read_expr(o, c->cond);
            read_items(o, &c->body);
        }
        break;
    case ITEM_FOR:
        read_expr(o, it->u.for_.range);
        read_items(o, &it->u.for_.body);
        break;
    default: /* setup: rewritten before */
        break;
    }
}

static void read_items(Order *o, PtrVec *items)
{
    for (int i = 0; i < items->n; i++)
        read_item(o, items->items[i], NULL);
}

/* The parameters declared anywhere in items, into map (as 1). */
static void declared_in(PtrVec *items, PtrMap *map)
{
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind == ITEM_SECTION && it->u.section.kind == SEC_PARAMETERS) {
            for (int j = 0; j < it->u.section.entries.n; j++)
                ptrmap_put(map, ((AstDecl *)it->u.section.entries.items[j])->name,
                           (void *)(intptr_t)1);
        } else if (it->kind == ITEM_IF) {
            for (int j = 0; j < it->u.if_.clauses.n; j++)
                declared_in(&((AstClause *)it->u.if_.clauses.items[j])->body, map);
        }
    }
}

/* ---- the sort --------------------------------------------------------------- */

static const char *unit_name(const Unit *u)
{
    return u->decl ? u->decl->name->name : "a conditional section";
}

/* Reports the cycle that closes at unit `at`: the path from it on the
   stack back to it. */
static void report_cycle(Order *o, const int *stack, int depth, int at)
{
    char chain[512];
    size_t len = 0;
    int from = depth - 1;
    while (from > 0 && stack[from] != at)
        from--;
    for (int i = from; i < depth && len < sizeof chain - 64; i++)
        len += (size_t)snprintf(chain + len, sizeof chain - len, "%s -> ",
                                unit_name(&o->units[stack[i]]));
    snprintf(chain + len, sizeof chain - len, "%s", unit_name(&o->units[at]));
    Unit *u = &o->units[at];
    SrcSpan where = u->decl ? u->decl->name_span : u->item->span;
    diag_error(where, "%s '%s' is computed from itself: %s; a value may read "
               "parameters in any order, but not in a circle",
               u->decl ? "parameter" : "section", unit_name(u), chain);
    o->d->cyclic = true;
}

/* Depth-first, each unit after what it reads, units taken in source
   order: a file already in order comes out as it is.  Iterative, so a
   long chain of forward references cannot overflow the stack. */
static int *topo_order(Order *o)
{
    size_t n = o->n > 0 ? (size_t)o->n : 1;
    int *out = malloc(sizeof(int) * n);
    int *stack = malloc(sizeof(int) * n);
    int *next = calloc(n, sizeof(int));
    if (!out || !stack || !next)
        abort();
    int nout = 0;
    for (int r = 0; r < o->n; r++) {
        if (o->units[r].state)
            continue;
        int depth = 0;
        stack[depth++] = r;
        o->units[r].state = 1;
        while (depth > 0) {
            int top = stack[depth - 1];
            Unit *u = &o->units[top];
            if (next[top] < u->ndeps) {
                int dep = u->deps[next[top]++];
                if (o->units[dep].state == 0) {
                    o->units[dep].state = 1;
                    stack[depth++] = dep;
                } else if (o->units[dep].state == 1 && !o->d->cyclic) {
                    report_cycle(o, stack, depth, dep);
                }
                continue;
            }
            u->state = 2;
            out[nout++] = top;
            depth--;
        }
    }
    free(stack);
    free(next);
    return out;
}

static AstItem *copy_item(Program *p, const AstItem *it)
{
    AstItem *c = arena_alloc(p->arena, sizeof *c);
    *c = *it;
    return c;
}

static bool order_items(Program *p, SemaDef *d, PtrVec *items);

/* Orders the arms of each conditional section in items: an if whose
   clause bodies change is copied. */
static bool order_nested(Program *p, SemaDef *d, PtrVec *items)
{
    bool changed = false;
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind != ITEM_IF)
            continue;
        PtrVec clauses = {0};
        bool any = false;
        for (int j = 0; j < it->u.if_.clauses.n; j++) {
            AstClause *c = it->u.if_.clauses.items[j];
            AstClause *nc = arena_alloc(p->arena, sizeof *nc);
            *nc = *c;
            nc->body = (PtrVec){0};
            for (int k = 0; k < c->body.n; k++)
                ptrvec_push(p->arena, &nc->body, c->body.items[k]);
            if (order_items(p, d, &nc->body)) {
                any = true;
                ptrvec_push(p->arena, &clauses, nc);
            } else {
                ptrvec_push(p->arena, &clauses, c);
            }
        }
        if (any) {
            AstItem *ni = copy_item(p, it);
            ni->u.if_.clauses = clauses;
            items->items[i] = ni;
            changed = true;
        }
    }
    return changed;
}

/* Orders one arm's items; true when the list changed. */
static bool order_items(Program *p, SemaDef *d, PtrVec *items)
{
    bool changed = order_nested(p, d, items);
    Order o = {p, d, NULL, 0, {0}, {0}, 0};
    int cap = 0;
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        bool split = it->kind == ITEM_SECTION && reads_values(it->u.section.kind)
                     && it->u.section.entries.n > 0;
        cap += split ? it->u.section.entries.n : 1;
    }
    o.units = calloc((size_t)(cap ? cap : 1), sizeof(Unit));
    if (!o.units)
        abort();
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        bool split = it->kind == ITEM_SECTION && reads_values(it->u.section.kind)
                     && it->u.section.entries.n > 0;
        if (!split) {
            o.units[o.n++] = (Unit){it, NULL, NULL, 0, 0, 0};
            continue;
        }
        for (int j = 0; j < it->u.section.entries.n; j++) {
            AstDecl *dc = it->u.section.entries.items[j];
            if (it->u.section.kind == SEC_PARAMETERS && !ptrmap_get(&o.names, dc->name))
                ptrmap_put(&o.names, dc->name, (void *)(intptr_t)(o.n + 1));
            o.units[o.n++] = (Unit){it, dc, NULL, 0, 0, 0};
        }
    }
    /* a conditional section stands for every parameter declared in it */
    for (int u = 0; u < o.n; u++) {
        if (o.units[u].item->kind != ITEM_IF)
            continue;
        PtrMap in = {0};
        declared_in(&(PtrVec){.items = (void **)&o.units[u].item, .n = 1}, &in);
        for (size_t k = 0; k < in.cap; k++)
            if (in.slots[k].key && !ptrmap_get(&o.names, in.slots[k].key))
                ptrmap_put(&o.names, in.slots[k].key, (void *)(intptr_t)(u + 1));
        ptrmap_free(&in);
    }
    for (int u = 0; u < o.n; u++) {
        Unit *un = &o.units[u];
        o.self = u;
        if (un->item->kind == ITEM_IF)
            declared_in(&(PtrVec){.items = (void **)&un->item, .n = 1}, &o.inside);
        read_item(&o, un->item, un->decl);
        ptrmap_free(&o.inside);
        o.inside = (PtrMap){0};
    }
    int *order = topo_order(&o);
    bool moved = false;
    for (int u = 0; u < o.n; u++)
        moved = moved || order[u] != u;
    if (moved) {
        /* the new list: runs of one section's declarations stay one copy */
        PtrVec out = {0};
        AstItem *run = NULL;
        const AstItem *run_of = NULL;
        for (int k = 0; k < o.n; k++) {
            Unit *un = &o.units[order[k]];
            if (!un->decl) {
                ptrvec_push(p->arena, &out, un->item);
                run = NULL;
                continue;
            }
            if (!run || run_of != un->item) {
                run = copy_item(p, un->item);
                run->u.section.entries = (PtrVec){0};
                run_of = un->item;
                ptrvec_push(p->arena, &out, run);
            }
            ptrvec_push(p->arena, &run->u.section.entries, un->decl);
        }
        *items = out;
        changed = true;
    }
    for (int u = 0; u < o.n; u++)
        free(o.units[u].deps);
    free(o.units);
    free(order);
    ptrmap_free(&o.names);
    return changed;
}

void rs_order_members(Program *p, SemaDef *d)
{
    /* the list is this definition's own (resolve_inherit.c makes it so
       for a subclass); only the items in it may be shared */
    order_items(p, d, &d->ast->items);
}
