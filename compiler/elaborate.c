/*
 * elaborate.c - pass 3: from the resolved top component to the instance
 * tree.
 *
 * Walks the hierarchy from the top model.  For each instance, in
 * declaration order: parameters are bound (the parent's argument, lowered
 * in the parent's context, or the declared default) and become run-time
 * parameters of the DAE; conditional sections are decided from parameter
 * values, and every parameter a condition reads (and everything those are
 * computed from) becomes structural; variables get their targets (with the
 * parent's overrides); nodes get union-find ids; children are made last.
 * Then connections are joined (nodes by union-find into node sets, each
 * with its across variables; signals by binding inputs to outputs),
 * unconnected inputs take their defaults, and the local balance rule is
 * checked once per component variant.
 *
 * Arrays (issue 11) are scalarized here.  A for-loop around sections is
 * unrolled: its range is evaluated from parameters (which become
 * structural), and its body is elaborated once per value with the loop
 * variable bound (ElabInst.env), declaring element i of each array
 * (`m(i) = Mass(...)` makes the child `m(i)`, `H(i) = DOMAIN` the node
 * `H(i)`).  A parameter whose value is a vector or matrix becomes one
 * run-time parameter per element (`masses(2)`), a variable one unknown
 * per element (`x(2)`), in column-major order; the slot keeps the size
 * and the first index.  The walkers that run after elaboration unroll the
 * same loops (elab_each_section).
 */
#include "inst.h"

#include "diag.h"
#include "lower.h"
#include "rt_model.h"
#include "units_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int elab_find(Model *m, int node)
{
    while (m->nodes[node].parent != node) {
        m->nodes[node].parent = m->nodes[m->nodes[node].parent].parent;
        node = m->nodes[node].parent;
    }
    return node;
}

static void unite(Model *m, int a, int b)
{
    a = elab_find(m, a);
    b = elab_find(m, b);
    if (a == b)
        return;
    if (m->nodes[a].rank < m->nodes[b].rank) {
        int t = a;
        a = b;
        b = t;
    }
    m->nodes[b].parent = a;
    if (m->nodes[a].rank == m->nodes[b].rank)
        m->nodes[a].rank++;
    m->nodes[a].reference |= m->nodes[b].reference;
}

/* ---- walking the active arms -------------------------------------------- */

static void walk(Model *m, ElabInst *in, PtrVec *items, bool active, ElabSectionFn fn,
                 void *ctx);

bool elab_unroll(Model *m, ElabInst *in, const AstFor *f, bool report,
                 bool (*fn)(void *ctx), void *ctx)
{
    long *vals;
    int n;
    if (!lower_range(m, in, f->range, &vals, &n, report))
        return false;
    const ElabEnv *outer = in->env;
    for (int k = 0; k < n; k++) {
        ElabEnv env = {f->var, (double)vals[k], outer};
        in->env = &env;
        bool more = fn(ctx);
        in->env = outer;
        if (!more)
            break;
    }
    return true;
}

/* arrays: a for-loop's body, once per value of its variable (the range
   was checked when the loop was unrolled). */
typedef struct WalkLoop {
    Model *m;               /* the model */
    ElabInst *in;           /* the instance */
    PtrVec *body;           /* the loop's items */
    ElabSectionFn fn;       /* what the walk calls */
    void *ctx;              /* its context */
} WalkLoop;

static bool walk_iteration(void *ctx)
{
    WalkLoop *w = ctx;
    walk(w->m, w->in, w->body, true, w->fn, w->ctx);
    return true;
}

static void walk_loop(Model *m, ElabInst *in, AstItem *it, ElabSectionFn fn, void *ctx)
{
    WalkLoop w = {m, in, &it->u.for_.body, fn, ctx};
    elab_unroll(m, in, &it->u.for_, false, walk_iteration, &w);
}

static void walk(Model *m, ElabInst *in, PtrVec *items, bool active, ElabSectionFn fn,
                 void *ctx)
{
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind == ITEM_SECTION && active)
            fn(m, in, it, ctx);
    }
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind != ITEM_IF)
            continue;
        for (int j = 0; j < it->u.if_.clauses.n; j++) {
            AstClause *c = it->u.if_.clauses.items[j];
            walk(m, in, &c->body, active && in->arm_active[c->arm], fn, ctx);
        }
    }
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind == ITEM_FOR && active)
            walk_loop(m, in, it, fn, ctx);
    }
}

void elab_each_section(Model *m, ElabInst *in, ElabSectionFn fn, void *ctx)
{
    walk(m, in, &in->def->ast->items, true, fn, ctx);
}

/* ---- parameters ------------------------------------------------------------ */

static SemaMember *member_of_decl(SemaDef *d, Sym *name, const void *decl)
{
    for (SemaMember *mm = sema_member(d, name); mm; mm = mm->next_same_name)
        if ((const void *)mm->decl == decl || (const void *)mm->inst == decl)
            return mm;
    return NULL;
}

static AstArg *find_arg(ElabInst *in, Sym *name)
{
    if (!in->ast)
        return NULL;
    for (int i = 0; i < in->ast->args.n; i++) {
        AstArg *g = in->ast->args.items[i];
        if (g->name == name)
            return g;
    }
    return NULL;
}

static bool is_zero_literal(const AstExpr *e)
{
    return e->kind == EXPR_NUM && e->u.num.value == 0;
}

/* Checks that a binding written in the parent has the declared dimension. */
static bool check_binding(Model *m, ElabInst *in, AstArg *g, Dim want, bool want_bool,
                          const char *what)
{
    Dim got;
    bool got_bool = false;
    if (!units_dim(m, in->parent, g->value, &got, &got_bool))
        return false;
    if (want_bool != got_bool) {
        diag_error(g->value->span, "%s '%s' of %s is %s, but this value is %s",
                   what, g->name->name, in->def->ast->name->name,
                   want_bool ? "true/false" : "a number",
                   got_bool ? "true/false" : "a number");
        return false;
    }
    if (!want_bool && !dim_eq(want, got) && !is_zero_literal(g->value)) {
        char a[64], b[64];
        diag_error(g->value->span, "%s '%s' of %s is %s, but this value is %s",
                   what, g->name->name, in->def->ast->name->name,
                   dim_phrase(want, a, sizeof a), dim_phrase(got, b, sizeof b));
        return false;
    }
    return true;
}

static void mark_structural(Model *m, int index)
{
    DaeParam *p = m->plist->items[index];
    if (p->structural)
        return;
    p->structural = true;
    /* everything it is computed from decides structure too */
    PtrVec stack = {0};
    ptrvec_push(m->arena, &stack, p->expr);
    while (stack.n) {
        DaeExpr *e = stack.items[--stack.n];
        if (e->kind == DX_PARAM)
            mark_structural(m, e->u.index);
        DaeExpr *kids[3];
        for (int i = 0, nk = dae_children(e, kids); i < nk; i++)
            ptrvec_push(m->arena, &stack, kids[i]);
    }
}

static void mark_structural_expr(Model *m, DaeExpr *e)
{
    if (e->kind == DX_PARAM)
        mark_structural(m, e->u.index);
    DaeExpr *kids[3];
    for (int i = 0, nk = dae_children(e, kids); i < nk; i++)
        mark_structural_expr(m, kids[i]);
}

void elab_mark_structural(Model *m, DaeExpr *e)
{
    if (!dae_is_leaf(e) || e->kind == DX_PARAM)
        mark_structural_expr(m, e);
}

/* Kept up to date as parameters are made, so evaluating one costs its own
   size, not the number of parameters so far. */
const double *elab_param_values(Model *m)
{
    return m->pvalues;
}

static void record_value(Model *m, int index, double v)
{
    if (index >= m->cap_pvalues) {
        m->cap_pvalues = m->cap_pvalues ? m->cap_pvalues * 2 : 256;
        m->pvalues = realloc(m->pvalues, sizeof(double) * (size_t)m->cap_pvalues);
        if (!m->pvalues)
            abort();
    }
    m->pvalues[index] = v;
    dae_table_param_value(m->t, index, v); /* what folding knows of it */
}

int elab_new_param(Model *m, const char *name, SrcSpan sp, DaeExpr *e, Dim dim,
                   bool is_bool)
{
    DaeParam *p = arena_alloc(m->t->arena, sizeof *p);
    p->name = elab_dae_str(m, name);
    p->span = sp;
    p->expr = e;
    p->dim = dim;
    p->is_bool = is_bool;
    p->value = dae_eval_params(e, m->pvalues);
    int index = m->plist->n;
    record_value(m, index, p->value);
    if (!isfinite(p->value))
        diag_error(sp, "the value of parameter '%s' is not a finite number", p->name);
    ptrvec_push(m->t->arena, m->plist, p);
    return index;
}

/* arrays: the name of element k (0-based, column-major) of a vector or
   matrix named `name`: name(k+1) for a vector, name(i,j) for a matrix. */
static const char *element_name(Model *m, const char *name, int k, int rows, int cols)
{
    if (rows == 1 || cols == 1)
        return arena_printf(m->arena, "%s(%d)", name, k + 1);
    return arena_printf(m->arena, "%s(%d,%d)", name, k % rows + 1, k / rows + 1);
}

/* Who may set the n parameters from `first` at run time: Access =
   private, or ExternalAccess above, keep them to their component. */
static void set_access(Model *m, ElabInst *in, ElabSlot *s, int first, int n)
{
    unsigned char access = s->m->access == ACCESS_PRIVATE ? RT_PARAM_PRIVATE
                           : in->external != EXT_MODIFY ? RT_PARAM_OBSERVED
                                                        : RT_PARAM_PUBLIC;
    for (int k = 0; k < n; k++)
        ((DaeParam *)m->plist->items[first + k])->access = access;
}

/* A parameter is a vector when its value is one (its binding's, else its
   default's): then one run-time parameter per element. */
static void make_param(Model *m, ElabInst *in, AstDecl *d, ElabSlot *s)
{
    s->active = true;
    units_dim(m, in, d->value, &s->dim, &s->is_bool);
    AstArg *g = find_arg(in, d->name);
    SrcSpan sp = d->span;
    /* {v, '*'}: the unit of the binding; unbound, the declared default
       (and a default of 0 fits any unit) */
    s->any_unit = ast_any_unit(d->value);
    if (s->any_unit && g) {
        bool isb = false;
        units_dim(m, in->parent, g->value, &s->dim, &isb);
    } else if (s->any_unit) {
        s->fits_any = is_zero_literal(d->value->u.quantity.value);
    }
    LowerValue v;
    if (g) {
        check_binding(m, in, g, s->dim, s->is_bool, "parameter");
        v = lower_value(m, in->parent, g->value);
        sp = g->value->span;
    } else {
        v = lower_value(m, in, d->value);
    }
    const char *name = elab_qualify(m, in, d->name->name);
    if (v.rows == 1 && v.cols == 1) {
        s->param = elab_new_param(m, name, sp, v.el[0], s->dim, s->is_bool);
        set_access(m, in, s, s->param, 1);
        return;
    }
    s->vec = true;
    s->rows = v.rows;
    s->cols = v.cols;
    s->param = m->plist->n;
    for (int k = 0; k < v.rows * v.cols; k++)
        elab_new_param(m, element_name(m, name, k, v.rows, v.cols), sp, v.el[k], s->dim,
                       s->is_bool);
    set_access(m, in, s, s->param, v.rows * v.cols);
}

/* ---- variables, inputs, nodes ---------------------------------------------- */

static AstExpr *record_field(AstExpr *e, const char *name)
{
    if (e->kind != EXPR_RECORD)
        return strcmp(name, "value") == 0 ? e : NULL;
    for (int i = 0; i < e->u.record.n; i++)
        if (!strcmp(e->u.record.fields[i].name->name, name))
            return e->u.record.fields[i].value;
    return NULL;
}

static DaePriority priority_of(AstExpr *e, DaePriority dflt)
{
    if (!e || e->kind != EXPR_NAME || e->u.name.n != 2)
        return dflt;
    const char *l = e->u.name.parts[1].sym->name;
    return !strcmp(l, "high") ? PRIO_HIGH : !strcmp(l, "low") ? PRIO_LOW : PRIO_NONE;
}

/* arrays: the n elements a value gives n variables: its own, or one
   value for all; NULL (after an error at e) when the sizes differ. */
static DaeExpr **values_for(Model *m, ElabInst *ctx, AstExpr *e, int n, int rows, int cols,
                            const char *what)
{
    LowerValue v = lower_value(m, ctx, e);
    DaeExpr **out = arena_alloc(m->arena, sizeof(DaeExpr *) * (size_t)(n + 1));
    if (v.rows * v.cols != 1 && (v.rows != rows || v.cols != cols)) {
        char a[64], b[64];
        diag_error(e->span, "%s is a %s, but the variable is a %s", what,
                   lower_size_text(a, sizeof a, v.rows, v.cols),
                   lower_size_text(b, sizeof b, rows, cols));
        return NULL;
    }
    for (int k = 0; k < n; k++)
        out[k] = v.el[v.rows * v.cols == 1 ? 0 : k];
    return out;
}

/* Applies a target given in context `ctx` (the declaration's, or the
   parent's for an override) to the n variables vs of one declaration (n
   elements of a vector variable, rows * cols); with_value false leaves
   the start values alone. */
static void apply_target(Model *m, ElabInst *ctx, AstExpr *rec, ElabVar **vs, int n,
                         int rows, int cols, bool with_value, ElabInst *owner,
                         const char *what)
{
    ElabVar *v = vs[0];
    AstExpr *val = with_value ? record_field(rec, "value") : NULL;
    AstExpr *nom = record_field(rec, "nominal");
    AstExpr *pri = rec->kind == EXPR_RECORD ? record_field(rec, "priority") : NULL;
    if (val) {
        Dim dim;
        bool isb = false;
        if (units_dim(m, ctx, val, &dim, &isb) && what && !dim_eq(dim, v->dim)
            && !is_zero_literal(val)) {
            char a[64], b[64];
            diag_error(val->span, "%s '%s' of %s is %s, but this value is %s",
                       what, strrchr(v->name, '.') ? strrchr(v->name, '.') + 1 : v->name,
                       owner->def->ast->name->name, dim_phrase(v->dim, a, sizeof a),
                       dim_phrase(dim, b, sizeof b));
        }
        DaeExpr **x = values_for(m, ctx, val, n, rows, cols, "this value");
        for (int k = 0; x && k < n; k++)
            vs[k]->start = x[k];
    }
    if (nom) {
        Dim dim;
        bool isb = false;
        if (units_dim(m, ctx, nom, &dim, &isb) && !dim_eq(dim, v->dim)) {
            char a[64], b[64];
            diag_error(nom->span, "the nominal value is %s, but the variable is %s",
                       dim_phrase(dim, b, sizeof b), dim_phrase(v->dim, a, sizeof a));
        }
        DaeExpr **x = values_for(m, ctx, nom, n, rows, cols, "the nominal value");
        for (int k = 0; x && k < n; k++)
            vs[k]->nominal = x[k];
    }
    for (int k = 0; k < n; k++)
        vs[k]->priority = priority_of(pri, vs[k]->priority);
}

/* A variable whose value is a vector or matrix is one unknown per
   element, x(1) ..., made consecutively. */
static void make_var(Model *m, ElabInst *in, AstDecl *d, ElabSlot *s, DaeVarKind kind)
{
    s->active = true;
    AstExpr *val = record_field(d->value, "value");
    if (val)
        units_dim(m, in, val, &s->dim, &s->is_bool);
    LowerValue start = {1, 1, NULL};
    if (val)
        start = lower_value(m, in, val);
    int n = start.rows * start.cols;
    s->vec = n != 1 || start.rows != 1;
    s->rows = start.rows;
    s->cols = start.cols;
    /* an event variable is no unknown: it goes to the discrete part, and
       it is a scalar */
    bool event = s->m->event;
    if (event && s->vec) {
        diag_error(d->name_span, "an event variable is a scalar, and '%s' is "
                   "declared with a %dx%d value", d->name->name, start.rows, start.cols);
        s->vec = false;
        s->rows = s->cols = 1;
        s->var = -1;
        return;
    }
    PtrVec *to = event ? &m->evars : &m->vars;
    s->var = to->n;
    const char *name = elab_qualify(m, in, d->name->name);
    ElabVar **vs = arena_alloc(m->arena, sizeof(ElabVar *) * (size_t)(n + 1));
    for (int k = 0; k < n; k++) {
        ElabVar *v = arena_alloc(m->arena, sizeof *v);
        v->name = s->vec ? element_name(m, name, k, start.rows, start.cols) : name;
        ptrvec_push(m->arena, &v->names, (void *)v->name);
        v->kind = kind;
        if (in->external == EXT_NONE)
            ptrvec_push(m->arena, &v->hidden, (void *)v->name);
        v->span = d->name_span;
        v->description = d->comment;
        v->owner = in;
        v->dim = s->dim;
        v->start = start.el ? start.el[k] : dae_const(m->t, 0);
        vs[k] = v;
        ptrvec_push(m->arena, to, v);
    }
    s->untyped = d->untyped;
    if (n == 0)
        return;
    apply_target(m, in, d->value, vs, n, start.rows, start.cols, false, in, NULL);
    AstArg *g = find_arg(in, d->name);
    /* an untyped output's unit is not known yet: its target is not checked */
    if (g)
        apply_target(m, in->parent, g->value, vs, n, start.rows, start.cols, true, in,
                     s->untyped ? NULL : "variable");
}

static void make_input(Model *m, ElabInst *in, AstDecl *d, ElabSlot *s)
{
    s->active = true;
    units_dim(m, in, d->value, &s->dim, &s->is_bool);
    s->untyped = d->untyped;
    AstArg *g = find_arg(in, d->name);
    if (g) {
        if (!s->untyped)
            check_binding(m, in, g, s->dim, s->is_bool, "input");
        s->input = lower_expr(m, in->parent, g->value);
        s->bound_at = g->value->span;
    }
}

static void make_node(Model *m, ElabInst *in, ElabSlot *s)
{
    s->active = true;
    if (m->nnodes == m->capnodes) {
        m->capnodes = m->capnodes ? m->capnodes * 2 : 64;
        m->nodes = realloc(m->nodes, sizeof *m->nodes * (size_t)m->capnodes);
        if (!m->nodes)
            abort();
    }
    int id = m->nnodes++;
    Sym *name = s->m->name;
    if (s->elem_index) {
        /* arrays: node H(3) of the array H */
        const char *n = arena_printf(m->arena, "%s(%d)", name->name, s->elem_index);
        name = sym_intern(n, strlen(n));
    }
    m->nodes[id] = (ElabNode){id, 0, s->m->type, in, name, false, -1};
    s->node = id;
}

/* arrays: element `index` of the array slot arr (components or nodes),
   declared in the current iteration; NULL after an error. */
static ElabSlot *declare_element(Model *m, ElabInst *in, ElabSlot *arr, PtrVec *index)
{
    arr->active = true;
    long k;
    if (index->n != 1 || !lower_int(m, in, index->items[0], "an index", &k))
        return NULL;
    AstExpr *at = index->items[0];
    if (k < 1 || k > 10000000) {
        diag_error(at->span, "an array's indices start at 1 (and stay below 10^7); "
                   "this one is %ld", k);
        return NULL;
    }
    if (k > arr->capelems) {
        int cap = arr->capelems ? arr->capelems : 8;
        while (cap < k)
            cap *= 2;
        ElabSlot **e = arena_alloc(m->arena, sizeof(ElabSlot *) * (size_t)cap);
        if (arr->nelems)
            memcpy(e, arr->elems, sizeof(ElabSlot *) * (size_t)arr->nelems);
        arr->elems = e;
        arr->capelems = cap;
    }
    if (k <= arr->nelems && arr->elems[k - 1]) {
        diag_error(at->span, "'%s(%ld)' is declared twice: the for-loops reach "
                   "index %ld more than once", arr->m->name->name, k, k);
        return NULL;
    }
    if (k > arr->nelems)
        arr->nelems = (int)k;
    ElabSlot *e = arena_alloc(m->arena, sizeof *e);
    e->m = arr->m;
    e->active = true;
    e->param = e->var = e->node = -1;
    e->elem_index = (int)k;
    arr->elems[k - 1] = e;
    return e;
}

/* ---- instances ----------------------------------------------------------------- */

static ElabInst *make_inst(Model *m, SemaDef *def, ElabInst *parent,
                           AstInstance *ast, const char *path, int depth);

static void declare_section(Model *m, ElabInst *in, AstItem *it)
{
    AstSectionKind k = it->u.section.kind;
    PtrVec *v = &it->u.section.entries;
    for (int j = 0; j < v->n; j++) {
        if (k == SEC_COMPONENTS) {
            AstInstance *ai = v->items[j];
            SemaMember *mm = member_of_decl(in->def, ai->name, ai);
            if (mm && mm->rank)
                declare_element(m, in, &in->slots[mm->order], &ai->index);
            else if (mm)
                in->slots[mm->order].active = true;
            continue;
        }
        if (!ast_section_is_decls(k))
            continue;
        AstDecl *d = v->items[j];
        SemaMember *mm = member_of_decl(in->def, d->name, d);
        if (!mm)
            continue;
        ElabSlot *s = &in->slots[mm->order];
        switch (k) {
        case SEC_PARAMETERS: make_param(m, in, d, s); break;
        case SEC_VARIABLES: make_var(m, in, d, s, VAR_COMPONENT); break;
        case SEC_OUTPUTS: make_var(m, in, d, s, VAR_OUTPUT); break;
        case SEC_INPUTS: make_input(m, in, d, s); break;
        case SEC_NODES:
            if (mm->rank) {
                ElabSlot *e = declare_element(m, in, s, &d->index);
                if (e)
                    make_node(m, in, e);
            } else {
                make_node(m, in, s);
            }
            break;
        default: s->active = true; break; /* intermediates */
        }
    }
}

/* Parameters named in a condition of an arm that is not taken are
   structural too: the spec makes every parameter used in a conditional
   section's condition structural, taken or not. */
static void mark_names_structural(Model *m, ElabInst *in, AstExpr *e)
{
    switch (e->kind) {
    case EXPR_NAME: {
        ElabSlot *s = elab_slot(in, e->u.name.parts[0].sym);
        if (e->u.name.n == 1 && s && s->active && s->m->kind == MEM_PARAMETER
            && s->param >= 0)
            mark_structural(m, s->param);
        break;
    }
    case EXPR_CALL:
        for (int i = 0; i < e->u.call.args.n; i++)
            mark_names_structural(m, in, e->u.call.args.items[i]);
        break;
    case EXPR_UNARY: mark_names_structural(m, in, e->u.unary.arg); break;
    case EXPR_BINARY:
        mark_names_structural(m, in, e->u.binary.lhs);
        mark_names_structural(m, in, e->u.binary.rhs);
        break;
    case EXPR_IF:
        mark_names_structural(m, in, e->u.cond.cond);
        mark_names_structural(m, in, e->u.cond.then);
        mark_names_structural(m, in, e->u.cond.els);
        break;
    default:
        break;
    }
}

static void mark_skipped_conditions(Model *m, ElabInst *in, PtrVec *items)
{
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind != ITEM_IF)
            continue;
        for (int j = 0; j < it->u.if_.clauses.n; j++) {
            AstClause *c = it->u.if_.clauses.items[j];
            if (c->cond)
                mark_names_structural(m, in, c->cond);
            mark_skipped_conditions(m, in, &c->body);
        }
    }
}

static void process_loop(Model *m, ElabInst *in, AstItem *it, int depth);

static void make_children(Model *m, ElabInst *in, PtrVec *items, int depth)
{
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind == ITEM_FOR) {
            process_loop(m, in, it, depth); /* arrays, in source order */
            continue;
        }
        if (it->kind != ITEM_SECTION || it->u.section.kind != SEC_COMPONENTS)
            continue;
        for (int j = 0; j < it->u.section.entries.n; j++) {
            AstInstance *ai = it->u.section.entries.items[j];
            SemaMember *mm = member_of_decl(in->def, ai->name, ai);
            if (!mm || !mm->type)
                continue;
            ElabSlot *s = &in->slots[mm->order];
            const char *name = ai->name->name;
            if (mm->rank) {
                /* arrays: the element this iteration declared */
                long k;
                if (ai->index.n != 1 || !lower_int(m, in, ai->index.items[0], "an index", &k)
                    || k < 1 || k > s->nelems || !s->elems[k - 1] || s->elems[k - 1]->child)
                    continue;
                s = s->elems[k - 1];
                name = arena_printf(m->arena, "%s(%ld)", name, k);
            }
            s->child = make_inst(m, mm->type, in, ai, elab_qualify(m, in, name), depth + 1);
            if (s->child)
                ptrvec_push(m->arena, &in->children, s->child);
        }
    }
}

/* Decides one arm's contents (AstClause.arm numbers the arms). */
static void process_arm(Model *m, ElabInst *in, PtrVec *items, int depth)
{
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind == ITEM_SECTION)
            declare_section(m, in, it);
    }
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind != ITEM_IF)
            continue;
        int chosen = -1;
        for (int j = 0; j < it->u.if_.clauses.n; j++) {
            AstClause *c = it->u.if_.clauses.items[j];
            if (c->cond)
                mark_names_structural(m, in, c->cond);
        }
        for (int j = 0; j < it->u.if_.clauses.n && chosen < 0; j++) {
            AstClause *c = it->u.if_.clauses.items[j];
            if (!c->cond) {
                chosen = j;
                break;
            }
            Dim dim;
            bool isb = false;
            if (units_dim(m, in, c->cond, &dim, &isb) && !isb) {
                diag_error(c->cond->span, "the condition of a conditional section "
                           "must be true or false");
                continue;
            }
            DaeExpr *e = lower_expr(m, in, c->cond);
            mark_structural_expr(m, e);
            double v = dae_eval_params(e, m->pvalues);
            if (v != 0 && !isnan(v))
                chosen = j;
        }
        for (int j = 0; j < it->u.if_.clauses.n; j++) {
            AstClause *c = it->u.if_.clauses.items[j];
            if (j == chosen) {
                in->arm_active[c->arm] = true;
                process_arm(m, in, &c->body, depth);
            } else {
                mark_skipped_conditions(m, in, &c->body);
            }
        }
    }
    make_children(m, in, items, depth);
}

/* arrays: unrolls a for-loop: each iteration declares its sections'
   elements and makes their children with the loop variable bound, and
   the loops nested in it, in source order. */
typedef struct LoopBody {
    Model *m;               /* the model */
    ElabInst *in;           /* the instance */
    PtrVec *body;           /* the loop's items */
    int depth;              /* the instance's depth */
} LoopBody;

static bool process_iteration(void *ctx)
{
    LoopBody *b = ctx;
    for (int j = 0; j < b->body->n; j++)
        if (((AstItem *)b->body->items[j])->kind == ITEM_SECTION)
            declare_section(b->m, b->in, b->body->items[j]);
    make_children(b->m, b->in, b->body, b->depth);
    return !diag_too_many();
}

static void process_loop(Model *m, ElabInst *in, AstItem *it, int depth)
{
    LoopBody b = {m, in, &it->u.for_.body, depth};
    elab_unroll(m, in, &it->u.for_, true, process_iteration, &b);
}

static ElabInst *make_inst(Model *m, SemaDef *def, ElabInst *parent,
                           AstInstance *ast, const char *path, int depth)
{
    if (depth > 64) {
        diag_error(ast ? ast->span : def->ast->name_span,
                   "components are nested more than 64 deep; is a component "
                   "instantiating itself through another?");
        return NULL;
    }
    ElabInst *in = arena_alloc(m->arena, sizeof *in);
    in->path = path;
    in->dae_path = elab_dae_str(m, path);
    in->def = def;
    in->parent = parent;
    in->ast = ast;
    if (parent && ast) {
        SemaMember *mm = member_of_decl(parent->def, ast->name, ast);
        in->external = mm && mm->external > parent->external ? mm->external
                                                               : parent->external;
    }
    in->arm_active = arena_alloc(m->arena, sizeof(bool) * (size_t)(def->nscopes + 1));
    in->arm_active[0] = true;
    int n = def->member_list.n;
    in->slots = arena_alloc(m->arena, sizeof(ElabSlot) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        in->slots[i].m = def->member_list.items[i];
        in->slots[i].param = in->slots[i].var = in->slots[i].node = -1;
    }
    ptrvec_push(m->arena, &m->insts, in);
    process_arm(m, in, &def->ast->items, depth);
    /* The arm pattern, so checks that depend only on it run once. */
    char *key = arena_alloc(m->arena, (size_t)def->nscopes + 2);
    for (int i = 0; i < def->nscopes; i++)
        key[i] = in->arm_active[i] ? '1' : '0';
    in->arm_key = key;
    /* Arguments naming members of inactive arms. */
    if (ast) {
        for (int i = 0; i < ast->args.n; i++) {
            AstArg *g = ast->args.items[i];
            ElabSlot *s = elab_slot(in, g->name);
            if (s && !s->active) {
                diag_error(g->name_span, "'%s' does not exist in %s: component "
                           "'%s' declares it only in a conditional section that "
                           "is not active here", g->name->name, path,
                           def->ast->name->name);
                diag_note(s->m->decl->name_span, "'%s' is declared here", g->name->name);
            }
        }
    }
    return in;
}

/* ---- connections -------------------------------------------------------------- */

/* One end of a connect(), resolved. */
typedef struct End {
    AstExpr *ast;           /* as written */
    ElabSlot *slot;         /* node, input or output; NULL for '*' */
    ElabInst *owner;        /* instance of the slot */
    bool own;               /* the slot belongs to the connecting component */
} End;

static const char *end_text(Model *m, End *e)
{
    return ast_name_text(m->arena, e->ast);
}

/* A top-level input has nothing to bind it: it becomes a run-time
   parameter marked as an input, its declared value the default, so that
   --param and an FMU's fmi2SetReal can change it (docs/fmi.md). */
static DaeExpr *top_input(Model *m, ElabInst *in, ElabSlot *s)
{
    s->param = elab_new_param(m, elab_qualify(m, in, s->m->decl->name->name),
                              s->m->decl->span, lower_expr(m, in, s->m->decl->value), s->dim,
                              s->is_bool);
    ((DaeParam *)m->plist->items[s->param])->input = true;
    return dae_param(m->t, s->param);
}

static DaeExpr *input_value(Model *m, ElabInst *in, ElabSlot *s)
{
    if (!s->input)
        s->input = in == m->top ? top_input(m, in, s) : lower_expr(m, in, s->m->decl->value);
    return s->input;
}

static void connect_signals(Model *m, ElabInst *in, End *ends, int n, AstConnect *c)
{
    End *src = NULL;
    for (int i = 0; i < n; i++) {
        End *e = &ends[i];
        bool is_src = (e->slot->m->kind == MEM_OUTPUT && !e->own)
                      || (e->slot->m->kind == MEM_INPUT && e->own);
        if (!is_src)
            continue;
        if (src) {
            diag_error(e->ast->span, "cannot connect two outputs, '%s' and '%s'; "
                       "one output drives one or more inputs",
                       end_text(m, src), end_text(m, e));
            return;
        }
        src = e;
    }
    if (!src) {
        diag_error(c->span, "this connection has no output to drive its inputs");
        return;
    }
    DaeExpr *value = src->slot->m->kind == MEM_OUTPUT
                         ? dae_var(m->t, src->slot->var, 0)
                         : input_value(m, src->owner, src->slot);
    for (int i = 0; i < n; i++) {
        End *e = &ends[i];
        if (e == src)
            continue;
        e->slot->driver = src->slot;
        e->slot->driver_owner = src->owner;
        bool dimless_src = dim_is_none(src->slot->dim);
        if (src->slot->untyped || e->slot->untyped) {
            /* checked once the unit check has inferred their units */
            ElabLink *l = arena_alloc(m->arena, sizeof *l);
            *l = (ElabLink){src->slot, e->slot, end_text(m, src), end_text(m, e),
                            e->ast->span};
            ptrvec_push(m->arena, &m->links, l);
        } else if (!dimless_src && !dim_eq(src->slot->dim, e->slot->dim)) {
            char a[64], b[64];
            diag_error(e->ast->span, "'%s' is %s, but the output '%s' driving "
                       "it is %s", end_text(m, e), dim_phrase(e->slot->dim, a, sizeof a),
                       end_text(m, src), dim_phrase(src->slot->dim, b, sizeof b));
            continue;
        }
        if (e->slot->m->kind == MEM_OUTPUT) {
            /* The composite's own output follows the child's. */
            ElabConnEq *q = arena_alloc(m->arena, sizeof *q);
            q->lhs = dae_var(m->t, e->slot->var, 0);
            q->rhs = value;
            q->in = in;
            q->span = c->span;
            ptrvec_push(m->arena, &m->conn_eqs, q);
            continue;
        }
        if (e->slot->input) {
            diag_error(e->ast->span, "input '%s' is already bound", end_text(m, e));
            if (e->slot->bound_at.file >= 0)
                diag_note(e->slot->bound_at, "it is bound here");
            continue;
        }
        e->slot->input = value;
        e->slot->bound_at = e->ast->span;
    }
}

/* Keeps what a connect() of nodes joined (inst.h, ElabConnect). */
static void record_connect(Model *m, ElabInst *in, AstConnect *c, End *ends, int n)
{
    ElabConnect *k = arena_alloc(m->arena, sizeof *k);
    k->span = c->span;
    k->in = in;
    k->node = arena_alloc(m->arena, sizeof(int) * (size_t)(n + 1));
    k->own = arena_alloc(m->arena, sizeof(bool) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        if (!ends[i].slot)
            continue;
        k->node[k->n] = ends[i].slot->node;
        k->own[k->n++] = ends[i].own;
    }
    ptrvec_push(m->arena, &m->connects, k);
}

static void connect_one(Model *m, ElabInst *in, AstConnect *c)
{
    int n = c->ends.n;
    End *ends = arena_alloc(m->arena, sizeof(End) * (size_t)(n + 1));
    int nodes = 0, signals = 0, refs = 0;
    for (int i = 0; i < n; i++) {
        AstExpr *a = c->ends.items[i];
        ends[i].ast = a;
        if (a->kind == EXPR_REF) {
            refs++;
            continue;
        }
        SemaMember *nm = NULL;
        ElabInst *owner = in;
        ElabSlot *s = lower_resolve(m, in, a, &owner, &nm);
        if (!s)
            return;
        ends[i].slot = s;
        ends[i].owner = owner;
        ends[i].own = owner == in;
        if (s->m->kind == MEM_NODE)
            nodes++;
        else
            signals++;
    }
    if (nodes && signals) {
        End *node = NULL, *sig = NULL;
        for (int i = 0; i < n; i++) {
            if (!ends[i].slot)
                continue;
            if (ends[i].slot->m->kind == MEM_NODE && !node)
                node = &ends[i];
            if (ends[i].slot->m->kind != MEM_NODE && !sig)
                sig = &ends[i];
        }
        diag_error(sig->ast->span, "cannot connect the %s '%s' to the node '%s'; "
                   "nodes connect to nodes, outputs to inputs",
                   sema_member_kind_names[sig->slot->m->kind], end_text(m, sig),
                   end_text(m, node));
        return;
    }
    if (signals) {
        if (refs) {
            diag_error(c->span, "'*' is the reference node; signals cannot connect to it");
            return;
        }
        connect_signals(m, in, ends, n, c);
        return;
    }
    End *first = NULL;
    for (int i = 0; i < n; i++) {
        End *e = &ends[i];
        if (!e->slot)
            continue;
        if (!first) {
            first = e;
            continue;
        }
        SemaDef *d1 = first->slot->m->type, *d2 = e->slot->m->type;
        if (d1 != d2) {
            diag_error(e->ast->span, "cannot connect '%s' (%s) to '%s' (%s): they "
                       "are nodes of different domains", end_text(m, e),
                       d2->ast->name->name, end_text(m, first), d1->ast->name->name);
            return;
        }
        unite(m, first->slot->node, e->slot->node);
    }
    if (first)
        record_connect(m, in, c, ends, n);
    if (first && refs)
        m->nodes[elab_find(m, first->slot->node)].reference = true;
    if (!first && refs)
        diag_error(c->span, "this connects only '*' to itself");
}

static void connect_section(Model *m, ElabInst *in, AstItem *it, void *ctx)
{
    (void)ctx;
    if (it->u.section.kind != SEC_CONNECTIONS)
        return;
    for (int j = 0; j < it->u.section.entries.n; j++)
        connect_one(m, in, it->u.section.entries.items[j]);
}

/* A domain read as an instance, so its equations lower like any other;
   each across slot's var is pointed at the current set's variable. */
ElabInst *elab_domain_inst(Model *m, SemaDef *dom)
{
    ElabInst *in = ptrmap_get(&m->domain_insts, dom);
    if (in)
        return in;
    in = arena_alloc(m->arena, sizeof *in);
    in->path = "";
    in->dae_path = elab_dae_str(m, "");
    in->def = dom;
    in->arm_active = arena_alloc(m->arena, sizeof(bool) * 2);
    in->arm_active[0] = true;
    in->arm_key = "1";
    int n = dom->member_list.n;
    in->slots = arena_alloc(m->arena, sizeof(ElabSlot) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        ElabSlot *s = &in->slots[i];
        s->m = dom->member_list.items[i];
        s->active = true;
        s->param = s->node = s->var = -1;
        bool b;
        units_dim(m, in, s->m->decl->value, &s->dim, &b);
    }
    ptrmap_put(&m->domain_insts, dom, in);
    return in;
}

static const char *port_name(Model *m, ElabNode *n, const char *across)
{
    const char *parts[] = {n->inst->path, n->name->name, across};
    if (n->inst->path[0])
        return arena_dotted(m->arena, parts, 3);
    return arena_dotted(m->arena, parts + 1, 2);
}

/* Connected nodes form sets (union-find roots, numbered in the order
   their first node was declared); each set not joined to '*' gets its
   across variables.  Built when the connections are joined, so that
   lowering NODE.x never meets a node without its set. */
static void make_sets(Model *m)
{
    int *set_of_root = arena_alloc(m->arena, sizeof(int) * (size_t)(m->nnodes + 1));
    for (int i = 0; i < m->nnodes; i++)
        set_of_root[i] = -1;
    for (int i = 0; i < m->nnodes; i++) {
        int r = elab_find(m, i);
        if (set_of_root[r] < 0) {
            ElabSet *s = arena_alloc(m->arena, sizeof *s);
            s->domain = m->nodes[i].domain;
            s->reference = m->nodes[r].reference;
            set_of_root[r] = m->sets.n;
            ptrvec_push(m->arena, &m->sets, s);
        }
        ElabSet *s = m->sets.items[set_of_root[r]];
        ptrvec_push(m->arena, &s->nodes, &m->nodes[i]);
        m->nodes[i].set = set_of_root[r];
    }
    for (int i = 0; i < m->nnodes; i++)
        m->nodes[elab_find(m, i)].set = m->nodes[i].set;
    for (int k = 0; k < m->sets.n; k++) {
        ElabSet *s = m->sets.items[k];
        ElabNode *first = s->nodes.items[0];
        s->name = first->inst->path[0]
                      ? arena_dotted(&m->dae_arena,
                                     (const char *const[]){first->inst->path,
                                                           first->name->name}, 2)
                      : elab_dae_str(m, first->name->name);
        int nm = s->domain->member_list.n;
        s->across_var = arena_alloc(m->arena, sizeof(int) * (size_t)(nm + 1));
        if (s->reference)
            continue;
        ElabInst *din = elab_domain_inst(m, s->domain);
        for (int j = 0; j < nm; j++) {
            SemaMember *am = s->domain->member_list.items[j];
            s->across_var[j] = -1;
            if (am->kind != MEM_ACROSS)
                continue;
            ElabVar *v = arena_alloc(m->arena, sizeof *v);
            v->name = port_name(m, first, am->name->name);
            for (int q = 0; q < s->nodes.n; q++) {
                ElabNode *node = s->nodes.items[q];
                const char *pn = port_name(m, node, am->name->name);
                ptrvec_push(m->arena, &v->names, (void *)pn);
                if (node->inst->external == EXT_NONE)
                    ptrvec_push(m->arena, &v->hidden, (void *)pn);
            }
            v->kind = VAR_NODE;
            v->span = am->decl->name_span;
            v->description = am->decl->comment;
            v->owner = first->inst;
            v->dim = din->slots[j].dim;
            v->start = lower_expr(m, din, am->decl->value);
            s->across_var[j] = m->vars.n;
            ptrvec_push(m->arena, &m->vars, v);
        }
    }
}

/* ---- the local balance rule ------------------------------------------------------ */

typedef struct Count {
    int eqs;                /* equations in active arms */
    bool bad;               /* an if-equation's branches disagree */
    Model *m;               /* arrays: to unroll for-loops of equations ... */
    ElabInst *in;           /* ... in this instance */
} Count;

static int count_stmts(PtrVec *v, Count *c);

/* arrays: a for-loop of equations counts its body once per iteration. */
typedef struct CountLoop {
    Count *c;               /* the count */
    PtrVec *body;           /* the loop's statements */
    int total;              /* equations so far */
} CountLoop;

static bool count_iteration(void *ctx)
{
    CountLoop *l = ctx;
    l->total += count_stmts(l->body, l->c);
    return !l->c->bad;
}

static int count_loop(AstStmt *s, Count *c)
{
    CountLoop l = {c, &s->u.for_.body, 0};
    elab_unroll(c->m, c->in, &s->u.for_, true, count_iteration, &l);
    return l.total;
}

static int count_stmt(AstStmt *s, Count *c)
{
    if (s->kind == STMT_EQUATION)
        return 1;
    if (s->kind == STMT_ASSERT)
        return 0;
    if (s->kind == STMT_LET)
        return count_stmts(&s->u.let_.body, c);
    if (s->kind == STMT_FOR)
        return count_loop(s, c);
    int first = -1;
    for (int i = 0; i < s->u.if_.clauses.n; i++) {
        AstClause *cl = s->u.if_.clauses.items[i];
        int k = count_stmts(&cl->body, c);
        if (first < 0) {
            first = k;
        } else if (k != first) {
            if (!c->bad)
                diag_error(cl->span, "the branches of an if-equation must hold the "
                           "same number of equations: the first has %d, this one %d",
                           first, k);
            c->bad = true;
        }
    }
    return first < 0 ? 0 : first;
}

static int count_stmts(PtrVec *v, Count *c)
{
    int n = 0;
    for (int i = 0; i < v->n; i++)
        n += count_stmt(v->items[i], c);
    return n;
}

/* A mode chart counts as the equations of one mode; every mode has as
   many (asserts excluded), as the branches of an if-equation. */
static int count_chart(AstModeChart *mc, Count *c)
{
    int first = -1;
    AstMode *m0 = NULL;
    for (int i = 0; i < mc->modes.n; i++) {
        AstMode *mo = mc->modes.items[i];
        int k = count_stmts(&mo->eqs, c);
        if (first < 0) {
            first = k;
            m0 = mo;
        } else if (k != first) {
            if (!c->bad) {
                diag_error(mo->name_span, "mode '%s' of mode chart '%s' has %d "
                           "equation%s, but mode '%s' has %d; every mode has the same "
                           "number of equations (asserts excluded)", mo->name->name,
                           mc->name->name, k, k == 1 ? "" : "s", m0->name->name, first);
                diag_note(m0->name_span, "mode '%s' is here", m0->name->name);
            }
            c->bad = true;
        }
    }
    return first < 0 ? 0 : first;
}

static void count_section(Model *m, ElabInst *in, AstItem *it, void *ctx)
{
    (void)m;
    (void)in;
    if (it->u.section.kind == SEC_EQUATIONS)
        ((Count *)ctx)->eqs += count_stmts(&it->u.section.entries, ctx);
    if (it->u.section.kind == SEC_MODECHARTS)
        for (int i = 0; i < it->u.section.entries.n; i++)
            ((Count *)ctx)->eqs += count_chart(it->u.section.entries.items[i], ctx);
}

static void check_balance(Model *m, ElabInst *in, SymMap *seen)
{
    /* once per component and arm pattern; per instance for one with arrays,
       whose sizes may differ between instances */
    Sym *key = sym_cstr(arena_printf(m->arena, "%s/%s%s", in->def->ast->name->name,
                                     in->arm_key, in->def->has_arrays ? in->path : ""));
    if (symmap_get(seen, key))
        return;
    symmap_put(seen, key, in);
    Count c = {0, false, m, in};
    elab_each_section(m, in, count_section, &c);
    for (int i = 0; i < m->conn_eqs.n; i++)
        if (((ElabConnEq *)m->conn_eqs.items[i])->in == in)
            c.eqs++;
    int nvars = 0, nout = 0;
    size_t len = 0;
    char names[512] = "";
    for (int i = 0; i < in->def->member_list.n; i++) {
        ElabSlot *s = &in->slots[i];
        if (!s->active || (s->m->kind != MEM_VARIABLE && s->m->kind != MEM_OUTPUT)
            || s->m->event)
            continue;   /* event variables are no unknowns */
        /* arrays: a vector counts its elements */
        int count = s->vec ? s->rows * s->cols : 1;
        if (s->m->kind == MEM_VARIABLE)
            nvars += count;
        else
            nout += count;
        if (len + s->m->name->len + 8 < sizeof names)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s",
                                    len ? ", " : "", s->m->name->name);
        else if (len + 8 < sizeof names && !strstr(names, "..."))
            len += (size_t)snprintf(names + len, sizeof names - len, ", ...");
    }
    if (c.bad || c.eqs == nvars + nout)
        return;
    diag_error(in->def->ast->name_span, "component '%s' has %d equation%s but %d "
               "variable%s and %d output%s; every component needs one equation "
               "per variable and output", in->def->ast->name->name, c.eqs,
               c.eqs == 1 ? "" : "s", nvars, nvars == 1 ? "" : "s", nout,
               nout == 1 ? "" : "s");
    if (len)
        diag_note(in->def->ast->name_span, "its variables and outputs: %s", names);
    if (in->path[0] && in->ast)
        diag_note(in->ast->span, "instantiated here as '%s'", in->path);
}

Model *elab_model(Program *p, SemaDef *top, Arena *a)
{
    Model *m = arena_alloc(a, sizeof *m);
    m->prog = p;
    m->arena = a;
    dae_table_init(&m->exprs, &m->dae_arena);
    m->t = &m->exprs;
    m->plist = &m->params;
    m->top = make_inst(m, top, NULL, NULL, "", 0);
    if (diag_error_count())
        return m;
    for (int i = 0; i < m->insts.n; i++)
        elab_each_section(m, m->insts.items[i], connect_section, NULL);
    make_sets(m);
    for (int i = 0; i < m->insts.n; i++) {
        ElabInst *in = m->insts.items[i];
        for (int j = 0; j < in->def->member_list.n; j++) {
            ElabSlot *s = &in->slots[j];
            if (s->active && s->m->kind == MEM_INPUT)
                input_value(m, in, s);
        }
    }
    SymMap seen = {0};
    for (int i = 0; i < m->insts.n; i++)
        check_balance(m, m->insts.items[i], &seen);
    symmap_free(&seen);
    return m;
}

void elab_free(Model *m)
{
    if (!m)
        return;
    free(m->nodes);
    free(m->pvalues);
    ptrmap_free(&m->units_memo);
    ptrmap_free(&m->integ_of);
    ptrmap_free(&m->fn_dims);
    ptrmap_free(&m->checked);
    ptrmap_free(&m->domain_insts);
    /* what flatten did not take over */
    dae_table_free(&m->exprs);
    arena_free(&m->dae_arena);
}
