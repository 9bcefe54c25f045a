/*
 * units_check.c - pass 4: the unit check over the instance tree.
 *
 * First the tree gets its dimensions (units_infer.c): every declared
 * member's, every untyped port's, and those elaboration recorded for the
 * parameters, variables and tables it made.  Then what elaboration bound
 * is checked against them, per instance: each binding of a parameter or
 * input, each target and nominal value, each signal connection; and, once
 * per component variant (definition, arm pattern and the units of its
 * untyped ports and '*' parameters), its conditions and for-loop ranges,
 * and every active equation, branch, intermediate, assertion and event
 * (their dimensions: units_dim.c).
 */
#include "units_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- checking the active equations -------------------------------------- */

static void check_stmts(Model *m, ElabInst *in, PtrVec *v);

/* A for-loop's range is of unitless integers (elaboration evaluated it). */
static void check_range(Model *m, ElabInst *in, AstExpr *range)
{
    DimInfo d = ud_dim_of(m, in, range, 0);
    if (!d.ok || d.unknown || (!d.is_bool && dim_is_none(d.dim)))
        return;
    char b[64];
    diag_error(range->span, "the range of a for-loop takes unitless integers, but this "
               "one is %s", d.is_bool ? "true/false" : dim_phrase(d.dim, b, sizeof b));
}

/* arrays: the statements of a for-loop, per iteration. */
typedef struct CheckLoop {
    Model *m;               /* the model */
    ElabInst *in;           /* the instance */
    PtrVec *body;           /* the loop's statements */
} CheckLoop;

static bool check_iteration(void *ctx)
{
    CheckLoop *l = ctx;
    check_stmts(l->m, l->in, l->body);
    return !diag_too_many();
}

static void check_equation(Model *m, ElabInst *in, AstStmt *s)
{
    DimInfo a = ud_dim_of(m, in, s->u.eq.lhs, 0), b = ud_dim_of(m, in, s->u.eq.rhs, 0);
    if (!a.ok || !b.ok || a.unknown || b.unknown)
        return;
    char x[64], y[64];
    if (a.is_bool || b.is_bool) {
        diag_error(s->span, "an equation relates numbers; this one has a "
                   "true/false side (use an if-equation for conditions)");
        return;
    }
    if (!ud_same_dim(a, b))
        diag_error(s->span, "the two sides of this equation have different units: "
                   "%s (left) vs %s (right)", ud_text(a.dim, x), ud_text(b.dim, y));
}

static void check_stmt(Model *m, ElabInst *in, AstStmt *s)
{
    switch (s->kind) {
    case STMT_EQUATION:
        check_equation(m, in, s);
        break;
    case STMT_ASSERT: {
        /* true/false, or as MATLAB a dimensionless number (0 is false) */
        DimInfo a = ud_dim_of(m, in, s->u.assert_.cond, 0);
        if (a.ok && !a.is_bool && !a.unknown && !dim_is_none(a.dim))
            ud_need_bool(a, s->u.assert_.cond, "an assert condition");
        break;
    }
    case STMT_IF:
        for (int i = 0; i < s->u.if_.clauses.n; i++) {
            AstClause *c = s->u.if_.clauses.items[i];
            if (c->cond)
                ud_need_bool(ud_dim_of(m, in, c->cond, 0), c->cond, "an if condition");
            check_stmts(m, in, &c->body);
        }
        break;
    case STMT_LET: {
        UnitLocal *saved = m->ulocals;
        ud_local_defs_dims(m, in, &s->u.let_.defs, 0);
        check_stmts(m, in, &s->u.let_.body);
        m->ulocals = saved;
        break;
    }
    case STMT_FOR: {
        check_range(m, in, s->u.for_.range);
        /* arrays: once per iteration, as indices may differ between them */
        CheckLoop l = {m, in, &s->u.for_.body};
        elab_unroll(m, in, &s->u.for_, false, check_iteration, &l);
        break;
    }
    default:
        break;
    }
}

static void check_stmts(Model *m, ElabInst *in, PtrVec *v)
{
    for (int i = 0; i < v->n; i++)
        check_stmt(m, in, v->items[i]);
}

static void check_branch(Model *m, ElabInst *in, AstBranch *b)
{
    AstExpr *end = b->from->kind == EXPR_NAME ? b->from : b->to;
    if (end->kind != EXPR_NAME)
        return;
    ElabInst *owner = in;
    SemaMember *through = NULL;
    ElabSlot *node = lower_resolve(m, in, end, &owner, &through);
    ElabSlot *var = elab_slot(in, b->var->u.name.parts[0].sym);
    if (!node || !through || !through->decl || !var || !var->active)
        return;
    DimInfo want = ud_static_dim(m, through->decl->value);
    if (want.ok && !dim_eq(want.dim, var->dim)) {
        char x[64], y[64];
        diag_error(b->var->span, "branch variable '%s' is in %s, but the through "
                   "variable '%s' of %s is in %s", var->m->name->name,
                   ud_text(var->dim, x), through->name->name,
                   node->m->type->ast->name->name, ud_text(want.dim, y));
    }
}

/* Event assignments NAME = expr: the value has the variable's unit
  . */
static void check_assigns(Model *m, ElabInst *in, PtrVec *v)
{
    char x[64], y[64];
    for (int i = 0; i < v->n; i++) {
        AstDecl *a = v->items[i];
        ElabSlot *s = a ? elab_slot(in, a->name) : NULL;
        if (!s || !s->active)
            continue;
        DimInfo d = ud_dim_of(m, in, a->value, 0);
        if (!d.ok || d.unknown)
            continue;
        if (d.is_bool != s->is_bool || (!d.is_bool && !d.zero && !dim_eq(d.dim, s->dim)))
            diag_error(a->value->span, "event variable '%s' is %s, but this value is %s",
                       a->name->name, s->is_bool ? "true/false" : dim_phrase(s->dim, x, sizeof x),
                       d.is_bool ? "true/false" : dim_phrase(d.dim, y, sizeof y));
    }
}

static void check_events(Model *m, ElabInst *in, AstItem *it)
{
    PtrVec *v = &it->u.section.entries;
    for (int i = 0; i < v->n; i++) {
        AstStmt *st = v->items[i];
        if (it->u.section.kind == SEC_EVENTS && st) {
            for (int j = 0; j < st->u.if_.clauses.n; j++) {
                AstClause *c = st->u.if_.clauses.items[j];
                ud_need_bool(ud_dim_of(m, in, c->cond, 0), c->cond, "a when predicate");
                check_assigns(m, in, &c->body);
            }
            continue;
        }
        AstModeChart *mc = v->items[i];
        if (!mc)
            continue;
        for (int j = 0; j < mc->modes.n; j++) {
            AstMode *mo = mc->modes.items[j];
            check_assigns(m, in, &mo->entry);
            check_stmts(m, in, &mo->eqs);
        }
        PtrVec *lists[] = {&mc->transitions, &mc->initials};
        for (int l = 0; l < 2; l++)
            for (int j = 0; j < lists[l]->n; j++) {
                AstTransition *t = lists[l]->items[j];
                if (t)
                    ud_need_bool(ud_dim_of(m, in, t->pred, 0), t->pred,
                              l ? "an initial predicate" : "a transition predicate");
            }
    }
}

static void check_section(Model *m, ElabInst *in, AstItem *it, void *ctx)
{
    (void)ctx;
    PtrVec *v = &it->u.section.entries;
    switch (it->u.section.kind) {
    case SEC_EQUATIONS:
        check_stmts(m, in, v);
        break;
    case SEC_EVENTS: case SEC_MODECHARTS:
        check_events(m, in, it);
        break;
    case SEC_BRANCHES:
        for (int i = 0; i < v->n; i++)
            check_branch(m, in, v->items[i]);
        break;
    case SEC_INTERMEDIATES:
        for (int i = 0; i < v->n; i++)
            ud_decl_dim(m, in, v->items[i], 0);
        break;
    default:
        break;
    }
}

/* ---- what elaboration bound and decided ------------------------------------------ */

static bool is_zero_literal(const AstExpr *e)
{
    return e->kind == EXPR_NUM && e->u.num.value == 0;
}

/* The dimension of e, written in the instantiation of `in` (read in its
   parent, with the loop variables the parent made it with). */
static DimInfo bound_dim(Model *m, ElabInst *in, AstExpr *e)
{
    ElabInst *p = in->parent;
    const ElabEnv *env = p->env;
    p->env = in->parent_env;
    DimInfo d = ud_dim_of(m, p, e, 0);
    p->env = env;
    return d;
}

/* A binding written in the parent has the declared dimension. */
static void check_binding(Model *m, ElabInst *in, AstArg *g, ElabSlot *s, const char *what)
{
    DimInfo got = bound_dim(m, in, g->value);
    if (!got.ok || got.unknown)
        return;
    if (s->is_bool != got.is_bool) {
        diag_error(g->value->span, "%s '%s' of %s is %s, but this value is %s", what,
                   g->name->name, in->def->ast->name->name,
                   s->is_bool ? "true/false" : "a number",
                   got.is_bool ? "true/false" : "a number");
        return;
    }
    if (!s->is_bool && !dim_eq(s->dim, got.dim) && !is_zero_literal(g->value)) {
        char a[64], b[64];
        diag_error(g->value->span, "%s '%s' of %s is %s, but this value is %s", what,
                   g->name->name, in->def->ast->name->name,
                   dim_phrase(s->dim, a, sizeof a), dim_phrase(got.dim, b, sizeof b));
    }
}

static void check_nominal(Model *m, ElabInst *in, AstExpr *nom, ElabSlot *s, bool bound)
{
    DimInfo d = bound ? bound_dim(m, in, nom) : ud_dim_of(m, in, nom, 0);
    if (!d.ok || d.unknown || dim_eq(d.dim, s->dim))
        return;
    char a[64], b[64];
    diag_error(nom->span, "the nominal value is %s, but the variable is %s",
               dim_phrase(d.dim, b, sizeof b), dim_phrase(s->dim, a, sizeof a));
}

/* A variable's targets: its own nominal value, and the value and nominal
   value its instantiation gives. */
static void check_targets(Model *m, ElabInst *in, ElabSlot *s)
{
    if (s->var < 0 || (s->vec && s->rows * s->cols == 0))
        return;
    AstDecl *d = s->m->decl;
    AstExpr *nom = ast_record_field(d->value, "nominal");
    if (nom)
        check_nominal(m, in, nom, s, false);
    AstArg *g = ud_argument_of(in, d->name);
    if (!g || !in->parent)
        return;
    AstExpr *val = ast_record_field(g->value, "value");
    if (val && !s->untyped) {
        DimInfo v = bound_dim(m, in, val);
        if (v.ok && !v.unknown && !dim_eq(v.dim, s->dim) && !is_zero_literal(val)) {
            ElabVar *ev = (s->m->event ? m->evars : m->vars).items[s->var];
            const char *name = strrchr(ev->name, '.') ? strrchr(ev->name, '.') + 1 : ev->name;
            char a[64], b[64];
            diag_error(val->span, "variable '%s' of %s is %s, but this value is %s", name,
                       in->def->ast->name->name, dim_phrase(s->dim, a, sizeof a),
                       dim_phrase(v.dim, b, sizeof b));
        }
    }
    nom = ast_record_field(g->value, "nominal");
    if (nom)
        check_nominal(m, in, nom, s, true);
}

/* Every binding and target of one instance. */
static void check_bound(Model *m, ElabInst *in)
{
    for (int j = 0; j < in->def->member_list.n; j++) {
        ElabSlot *s = &in->slots[j];
        if (!s->active)
            continue;
        AstArg *g = in->parent ? ud_argument_of(in, s->m->name) : NULL;
        switch (s->m->kind) {
        case MEM_PARAMETER:
            if (g)
                check_binding(m, in, g, s, "parameter");
            break;
        case MEM_INPUT:
            if (g && !s->untyped)
                check_binding(m, in, g, s, "input");
            break;
        case MEM_VARIABLE: case MEM_OUTPUT:
            check_targets(m, in, s);
            break;
        default:
            break;
        }
    }
}

/* A signal connection joins ends of one unit (a dimensionless source, an
   unconnected default's, drives anything). */
static void check_links(Model *m)
{
    for (int i = 0; i < m->links.n; i++) {
        ElabLink *l = m->links.items[i];
        if (dim_is_none(l->src->dim) || dim_eq(l->src->dim, l->dst->dim))
            continue;
        char a[64], b[64];
        diag_error(l->at, "'%s' is %s, but the output '%s' driving it is %s", l->dst_text,
                   dim_phrase(l->dst->dim, a, sizeof a), l->src_text,
                   dim_phrase(l->src->dim, b, sizeof b));
    }
}

/* The conditions of the conditional sections elaboration decided (up to
   the arm it took) are true/false, and the ranges of the for-loops around
   sections are unitless, in the active parts of an instance. */
typedef struct LoopItems {
    Model *m;               /* the model */
    ElabInst *in;           /* the instance */
    PtrVec *body;           /* the loop's items */
} LoopItems;

static void check_items(Model *m, ElabInst *in, PtrVec *items);

static bool check_loop_iteration(void *ctx)
{
    LoopItems *l = ctx;
    check_items(l->m, l->in, l->body);
    return !diag_too_many();
}

static void check_items(Model *m, ElabInst *in, PtrVec *items)
{
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind == ITEM_FOR) {
            check_range(m, in, it->u.for_.range);
            LoopItems l = {m, in, &it->u.for_.body};
            elab_unroll(m, in, &it->u.for_, false, check_loop_iteration, &l);
            continue;
        }
        if (it->kind != ITEM_IF)
            continue;
        for (int j = 0; j < it->u.if_.clauses.n; j++) {
            AstClause *c = it->u.if_.clauses.items[j];
            if (c->cond) {
                DimInfo d = ud_dim_of(m, in, c->cond, 0);
                if (d.ok && !d.unknown && !d.is_bool)
                    diag_error(c->cond->span, "the condition of a conditional section "
                               "must be true or false");
            }
            if (in->arm_active[c->arm]) {
                check_items(m, in, &c->body);
                break;
            }
        }
    }
}

/* A key being put together: on the stack until it outgrows it. */
typedef struct Key {
    char *s;
    size_t n, cap;
    char small[512];
} Key;

static void key_put(Key *k, const char *s)
{
    size_t n = strlen(s);
    if (k->n + n > k->cap) {
        k->cap = 2 * (k->n + n);
        char *b = malloc(k->cap);
        if (!b)
            abort();
        memcpy(b, k->s, k->n);
        if (k->s != k->small)
            free(k->s);
        k->s = b;
    }
    memcpy(k->s + k->n, s, n);
    k->n += n;
}

/* What decides the check of an instance: its component and arms, and the
   units of its untyped ports and '*' parameters. */
static Sym *variant_key(ElabInst *in)
{
    Key k;
    k.s = k.small;
    k.n = 0;
    k.cap = sizeof k.small;
    key_put(&k, in->def->ast->name->name);
    key_put(&k, "/");
    key_put(&k, in->arm_key);
    /* arrays: an instance of a definition with arrays is checked on its
       own, as its indices and sizes may differ from another's */
    key_put(&k, in->def->has_arrays ? in->path : "");
    for (int j = 0; j < in->def->member_list.n; j++) {
        ElabSlot *s = &in->slots[j];
        if (!s->active || (!s->untyped && !s->any_unit))
            continue;
        char u[64];
        dim_text(s->dim, u, sizeof u);
        key_put(&k, "/");
        key_put(&k, u);
        key_put(&k, s->fits_any ? "0" : "");
    }
    Sym *key = sym_intern(k.s, k.n);
    if (k.s != k.small)
        free(k.s);
    return key;
}

void units_check(Model *m)
{
    ud_infer_all(m);
    ud_type_all(m);
    units_fill_dims(m);
    for (int i = 0; i < m->insts.n; i++)
        check_bound(m, m->insts.items[i]);
    check_links(m);
    for (int i = 0; i < m->insts.n; i++) {
        ElabInst *in = m->insts.items[i];
        Sym *key = variant_key(in);
        if (ptrmap_get(&m->checked, key))
            continue;
        ptrmap_put(&m->checked, key, in);
        check_items(m, in, &in->def->ast->items);
        elab_each_section(m, in, check_section, NULL);
    }
}
