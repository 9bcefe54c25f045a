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
#include "rt_kinds.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
   default's): then one run-time parameter per element.  Its dimension
   (its declaration's, or for {v, '*'} its binding's) and the check of its
   binding are the unit check's. */
static void make_param(Model *m, ElabInst *in, AstDecl *d, ElabSlot *s)
{
    s->active = true;
    AstArg *g = find_arg(in, d->name);
    SrcSpan sp = d->span;
    /* {v, '*'}: the unit of the binding; unbound, the declared default
       (and a default of 0 fits any unit) */
    s->any_unit = ast_any_unit(d->value);
    if (s->any_unit && !g)
        s->fits_any = is_zero_literal(d->value->u.quantity.value);
    LowerValue v;
    if (g) {
        v = lower_value(m, in->parent, g->value);
        sp = g->value->span;
    } else {
        v = lower_value(m, in, d->value);
    }
    const char *name = elab_qualify(m, in, d->name->name);
    int n = v.rows * v.cols;
    s->vec = !(v.rows == 1 && v.cols == 1);
    if (s->vec) {
        s->rows = v.rows;
        s->cols = v.cols;
    }
    s->param = m->plist->n;
    for (int k = 0; k < n; k++) {
        int p = elab_new_param(m, s->vec ? element_name(m, name, k, v.rows, v.cols) : name,
                               sp, v.el[k]);
        DaeParam *dp = elab_param(m, p);
        elab_dim_of_slot(m, &dp->dim, &dp->is_bool, in, s);
    }
    set_access(m, in, s, s->param, n);
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
   the start values alone.  The units of the target are the unit
   check's. */
static void apply_target(Model *m, ElabInst *ctx, AstExpr *rec, ElabVar **vs, int n,
                         int rows, int cols, bool with_value)
{
    AstExpr *val = with_value ? record_field(rec, "value") : NULL;
    AstExpr *nom = record_field(rec, "nominal");
    AstExpr *pri = rec->kind == EXPR_RECORD ? record_field(rec, "priority") : NULL;
    if (val) {
        DaeExpr **x = values_for(m, ctx, val, n, rows, cols, "this value");
        for (int k = 0; x && k < n; k++)
            vs[k]->start = x[k];
    }
    if (nom) {
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
        elab_dim_of_slot(m, &v->dim, NULL, in, s);
        v->start = start.el ? start.el[k] : dae_const(m->t, 0);
        vs[k] = v;
        ptrvec_push(m->arena, to, v);
    }
    s->untyped = d->untyped;
    if (n == 0)
        return;
    apply_target(m, in, d->value, vs, n, start.rows, start.cols, false);
    AstArg *g = find_arg(in, d->name);
    if (g)
        apply_target(m, in->parent, g->value, vs, n, start.rows, start.cols, true);
}

static void make_input(Model *m, ElabInst *in, AstDecl *d, ElabSlot *s)
{
    s->active = true;
    s->untyped = d->untyped;
    AstArg *g = find_arg(in, d->name);
    if (g) {
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
            elab_mark_param_structural(m, s->param);
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
            /* that it is true/false is the unit check's */
            DaeExpr *e = lower_expr(m, in, c->cond);
            elab_mark_structural(m, e);
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
    /* arrays: the loop variables its arguments are read with, for the
       passes after elaboration (the unit check reads them again) */
    in->parent_env = parent ? elab_env_copy(m, parent->env) : NULL;
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
                              s->m->decl->span, lower_expr(m, in, s->m->decl->value));
    DaeParam *p = elab_param(m, s->param);
    p->input = true;
    elab_dim_of_slot(m, &p->dim, &p->is_bool, in, s);
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
        /* the units of its ends are checked by the unit check */
        ElabLink *l = arena_alloc(m->arena, sizeof *l);
        *l = (ElabLink){src->slot, e->slot, src->owner, e->owner, end_text(m, src),
                        end_text(m, e), e->ast->span};
        ptrvec_push(m->arena, &m->links, l);
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
            elab_dim_of_slot(m, &v->dim, NULL, din, &din->slots[j]);
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
