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
 * Then connections are joined (connect.c: nodes by union-find into node
 * sets, each with its across variables; signals by binding inputs to
 * outputs), unconnected inputs take their defaults, and the local balance
 * rule is checked once per component variant (balance.c).  Dimensions are
 * not computed here: they are recorded (elab_dim_of_slot, scope.c) for
 * the unit check, which fills them in.
 *
 * Arrays are scalarized here.  A for-loop around sections is
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
#include "elab_internal.h"

#include "diag.h"
#include "lower.h"
#include "rt_kinds.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
const char *elab_element_name(Model *m, const char *name, int k, int rows, int cols)
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
                           : in->external != EXT_MODIFY || s->m->external != EXT_MODIFY
                               ? RT_PARAM_OBSERVED
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
        int p = elab_new_param(m, s->vec ? elab_element_name(m, name, k, v.rows, v.cols) : name,
                               sp, v.el[k]);
        DaeParam *dp = elab_param(m, p);
        elab_dim_of_slot(m, &dp->dim, &dp->is_bool, in, s);
        /* the unit a block dialog shows it in: its declaration's */
        if (d->value->kind == EXPR_QUANTITY && d->value->u.quantity.unit[0] != '*') {
            dp->unit = elab_dae_str(m, d->value->u.quantity.unit);
            dp->unit_relative = d->value->u.quantity.relative;
        }
    }
    set_access(m, in, s, s->param, n);
}

/* ---- variables, inputs, nodes ---------------------------------------------- */

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
    AstExpr *val = with_value ? ast_record_field(rec, "value") : NULL;
    AstExpr *nom = ast_record_field(rec, "nominal");
    AstExpr *pri = rec->kind == EXPR_RECORD ? ast_record_field(rec, "priority") : NULL;
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
    AstExpr *val = ast_record_field(d->value, "value");
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
        v->name = s->vec ? elab_element_name(m, name, k, start.rows, start.cols) : name;
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
        lower_set_input(s, lower_value(m, in->parent, g->value));
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
   structural too: the language makes every parameter used in a conditional
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
    /* the nodes first: a parameter's value may read a node's domain
       parameter (NODE.param), whatever the order of the sections */
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind == ITEM_SECTION && it->u.section.kind == SEC_NODES)
            declare_section(m, in, it);
    }
    /* then in source order, as resolution numbered them: a parameter after
       a conditional section may read one that each of its clauses declares,
       and a section's condition reads the parameters above it */
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind == ITEM_SECTION && it->u.section.kind != SEC_NODES)
            declare_section(m, in, it);
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

/* ---- initial equations -------------------------------------------------------- */

/* The variables v stands for, if every element of it is one (order 0). */
static bool all_vars(LowerValue v)
{
    for (int i = 0; i < v.rows * v.cols; i++)
        if (v.el[i]->kind != DX_VAR || v.el[i]->u.var.order != 0)
            return false;
    return v.rows * v.cols > 0;
}

static bool all_params(LowerValue v)
{
    for (int i = 0; i < v.rows * v.cols; i++)
        if (dae_depends_on_state(v.el[i]))
            return false;
    return true;
}

/* equations(Initial = true): each `VARIABLE == VALUE` (a value of
   parameters, either side) makes VALUE the variable's start with high
   priority, which initialization meets exactly (docs/simscape.md,
   "Initial equations"). */
static void initial_section(Model *m, ElabInst *in, AstItem *it, void *ctx)
{
    (void)ctx;
    if (it->u.section.kind != SEC_EQUATIONS || !it->u.section.initial)
        return;
    PtrVec *v = &it->u.section.entries;
    for (int i = 0; i < v->n; i++) {
        AstStmt *st = v->items[i];
        if (!st || st->kind == STMT_ASSERT)
            continue;
        LowerValue l = {0, 0, NULL}, r = {0, 0, NULL};
        bool ok = st->kind == STMT_EQUATION;
        if (ok) {
            l = lower_value(m, in, st->u.eq.lhs);
            r = lower_value(m, in, st->u.eq.rhs);
            if (!all_vars(l) || !all_params(r)) {
                LowerValue x = l;
                l = r;
                r = x;
            }
            ok = all_vars(l) && all_params(r)
                 && (r.rows * r.cols == 1 || (r.rows == l.rows && r.cols == l.cols));
        }
        if (!ok) {
            diag_error(st->span, "Simscape's initial equations are supported in the form "
                       "VARIABLE == VALUE, a value of parameters (a high-priority "
                       "target); this one is not yet");
            continue;
        }
        for (int k = 0; k < l.rows * l.cols; k++) {
            ElabVar *x = m->vars.items[l.el[k]->u.var.index];
            x->start = r.el[r.rows * r.cols == 1 ? 0 : k];
            x->priority = PRIO_HIGH;
        }
    }
}

Model *elab_model(Program *p, SemaDef *top, Arena *a)
{
    Model *m = arena_alloc(a, sizeof *m);
    m->index_end = -1;
    m->prog = p;
    m->arena = a;
    dae_table_init(&m->exprs, &m->dae_arena);
    m->t = &m->exprs;
    m->plist = &m->params;
    m->top = make_inst(m, top, NULL, NULL, "", 0);
    if (diag_error_count())
        return m;
    elab_connect(m);
    elab_check_balance(m);
    for (int i = 0; i < m->insts.n && !diag_error_count(); i++)
        elab_each_section(m, m->insts.items[i], initial_section, NULL);
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
    ptrmap_free(&m->fn_memo);
    ptrmap_free(&m->checked);
    ptrmap_free(&m->domain_insts);
    ptrmap_free(&m->node_params);
    ptrmap_free(&m->group_values);
    /* what flatten did not take over */
    dae_table_free(&m->exprs);
    arena_free(&m->dae_arena);
}
