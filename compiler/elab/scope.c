/*
 * scope.c - the queries on the instance tree, at the bottom of elab/:
 * what the other files of elaboration, the unit check, lint and flatten
 * ask of an instance (its slots, its loop variables, its qualified
 * names), the run-time parameter table with the defaults folding knows,
 * structural parameters, the domains read as instances, the units of the
 * literals a model writes (read once per literal), and the dimensions
 * elaboration leaves to the unit check.
 *
 * Nothing here lowers an expression or computes a dimension: lowering is
 * lower.c and lower_array.c, dimensions are the unit check's (units/),
 * which fills in every dimension recorded with elab_dim_of_slot and
 * elab_dim_of_expr once the tree is built.
 */
#include "inst.h"
#include "lower.h"

#include "diag.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- names and slots -------------------------------------------------------- */

int elab_find(Model *m, int node)
{
    while (m->nodes[node].parent != node) {
        m->nodes[node].parent = m->nodes[m->nodes[node].parent].parent;
        node = m->nodes[node].parent;
    }
    return node;
}

const ElabEnv *elab_env_find(const ElabEnv *env, const Sym *var)
{
    for (; env; env = env->up)
        if (env->var == var)
            return env;
    return NULL;
}

const ElabEnv *elab_env_copy(Model *m, const ElabEnv *env)
{
    if (!env)
        return NULL;
    ElabEnv *c = arena_alloc(m->arena, sizeof *c);
    *c = (ElabEnv){env->var, env->value, elab_env_copy(m, env->up)};
    return c;
}

ElabSlot *elab_slot(ElabInst *in, Sym *name)
{
    ElabSlot *found = NULL;
    for (SemaMember *m = sema_member(in->def, name); m; m = m->next_same_name) {
        ElabSlot *s = &in->slots[m->order];
        if (s->active)
            return s;
        if (!found)
            found = s;
    }
    return found;
}

bool elab_inst_arrays(const ElabInst *in)
{
    if (in->def->has_arrays)
        return true;
    for (int i = 0; i < in->def->member_list.n; i++)
        if (in->slots[i].active && in->slots[i].vec)
            return true;
    return false;
}

const char *elab_dae_str(Model *m, const char *s)
{
    return arena_strdup(m->t->arena, s);
}

const char *elab_qualify(Model *m, ElabInst *in, const char *name)
{
    if (!in || !in->path[0])
        return arena_strdup(m->arena, name);
    return arena_dotted(m->arena, (const char *const[]){in->path, name}, 2);
}

/* A domain read as an instance, so its equations lower like any other;
   each across slot's var is pointed at the current set's variable.  Its
   slots' dimensions are the unit check's, like any instance's. */
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
    }
    ptrmap_put(&m->domain_insts, dom, in);
    /* vector domain variables (a multi-species gas): the size of each,
       from its declared value; a parameter's when it is read */
    for (int i = 0; i < n; i++)
        if (in->slots[i].m->kind == MEM_ACROSS || in->slots[i].m->kind == MEM_THROUGH)
            elab_domain_slot(m, dom, in->slots[i].m);
    return in;
}

ElabSlot *elab_domain_slot(Model *m, SemaDef *dom, SemaMember *dm)
{
    ElabInst *in = elab_domain_inst(m, dom);
    ElabSlot *s = &in->slots[dm->order];
    if (s->rows || !dm->decl || !dm->decl->value)
        return s;
    s->rows = s->cols = 1;
    AstExpr *v = dm->decl->value;
    if (v->kind == EXPR_RECORD)
        v = ast_record_field(v, "value");
    if (!v)
        return s;
    LowerValue x = lower_value(m, in, v);
    s->rows = x.rows;
    s->cols = x.cols;
    s->vec = !(x.rows == 1 && x.cols == 1);
    return s;
}

ElabSlot *elab_sized(Model *m, ElabInst *owner, ElabSlot *s)
{
    if (s && owner && owner->def->ast->kind == DEF_DOMAIN && s->m->kind == MEM_PARAMETER)
        return elab_domain_slot(m, owner->def, s->m);
    return s;
}

/* ---- parameters ---------------------------------------------------------------- */

void elab_mark_param_structural(Model *m, int index)
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
            elab_mark_param_structural(m, e->u.index);
        DaeExpr *kids[3];
        for (int i = 0, nk = dae_children(e, kids); i < nk; i++)
            ptrvec_push(m->arena, &stack, kids[i]);
    }
}

static void mark_structural_expr(Model *m, DaeExpr *e)
{
    if (e->kind == DX_PARAM)
        elab_mark_param_structural(m, e->u.index);
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

int elab_new_param(Model *m, const char *name, SrcSpan sp, DaeExpr *e)
{
    DaeParam *p = arena_alloc(m->t->arena, sizeof *p);
    p->name = elab_dae_str(m, name);
    p->span = sp;
    p->expr = e;
    p->value = dae_eval_params(e, m->pvalues);
    int index = m->plist->n;
    record_value(m, index, p->value);
    /* inf is a value (a bound that never binds: Simscape's upper = inf);
       NaN is not */
    if (isnan(p->value))
        diag_error(sp, "the value of parameter '%s' is not a number (NaN)", p->name);
    ptrvec_push(m->t->arena, m->plist, p);
    return index;
}

void elab_reevaluate_params(Model *m)
{
    /* in order, each from the values before it; a value that reads a
       later parameter (a node's domain parameter set by a component
       elaborated after it) settles within as many passes as the chain is
       long */
    for (int pass = 0; pass < 8; pass++) {
        bool changed = false;
        for (int i = 0; i < m->plist->n; i++) {
            DaeParam *p = m->plist->items[i];
            double v = dae_eval_params(p->expr, m->pvalues);
            if (v != p->value && !(isnan(v) && isnan(p->value))) {
                p->value = v;
                record_value(m, i, v);
                changed = true;
            }
        }
        if (!changed)
            break;
    }
}

DaeParam *elab_param(Model *m, int index)
{
    return m->plist->items[index];
}

/* ---- the units of literals ------------------------------------------------------- */

static RtUnit bad_unit; /* memo marker for a string that failed to parse */

const RtUnit *elab_literal_unit(Model *m, AstExpr *q)
{
    const RtUnit *u = ptrmap_get(&m->units_memo, q);
    if (!u) {
        u = units_read_quantity(m->arena, q->u.quantity.unit, q->u.quantity.unit_span,
                                q->u.quantity.absolute, q->u.quantity.relative);
        ptrmap_put(&m->units_memo, q, u ? (void *)u : &bad_unit);
    }
    return u == &bad_unit ? NULL : u;
}

/* The unit of value(x, 'unit'[, mode]), read once (memoized on the
   string's node); an affine temperature unit is allowed, and its offset
   given unless the mode is 'linear'. */
typedef struct ValueUnit {
    RtUnit u;               /* first, so the memo's entries read as RtUnit */
    double offset;          /* value = x / u.scale - offset */
} ValueUnit;

const RtUnit *elab_value_unit(Model *m, AstExpr *call, double *offset)
{
    AstExpr *str = call->u.call.args.items[1];
    *offset = 0;
    if (str->kind != EXPR_STR)
        return NULL;
    ValueUnit *v = ptrmap_get(&m->units_memo, str);
    if (v == (ValueUnit *)&bad_unit)
        return NULL;
    if (!v) {
        double off = 0;
        const RtUnit *u = units_read_value(m->arena, str->u.str, str->span, &off);
        if (!u) {
            ptrmap_put(&m->units_memo, str, &bad_unit);
            return NULL;
        }
        v = arena_alloc(m->arena, sizeof *v);
        v->u = *u;
        v->offset = off;
        ptrmap_put(&m->units_memo, str, v);
    }
    AstExpr *mode = call->u.call.args.n > 2 ? call->u.call.args.items[2] : NULL;
    bool linear = mode && mode->kind == EXPR_STR && !strcmp(mode->u.str, "linear");
    *offset = linear ? 0 : v->offset;
    return &v->u;
}

/* ---- dimensions left to the unit check ------------------------------------------ */

static void push_todo(Model *m, Dim *dim, bool *is_bool, ElabInst *in, ElabSlot *slot,
                      AstExpr *expr)
{
    ElabDimTodo *t = arena_alloc(m->arena, sizeof *t);
    *t = (ElabDimTodo){dim, is_bool, in, slot, expr, expr ? elab_env_copy(m, in->env) : NULL,
                       expr ? m->locals : NULL};
    ptrvec_push(m->arena, &m->dim_todo, t);
}

void elab_dim_of_slot(Model *m, Dim *dim, bool *is_bool, ElabInst *owner, ElabSlot *s)
{
    push_todo(m, dim, is_bool, owner, s, NULL);
}

void elab_dim_of_expr(Model *m, Dim *dim, bool *is_bool, ElabInst *in, AstExpr *e)
{
    push_todo(m, dim, is_bool, in, NULL, e);
}
