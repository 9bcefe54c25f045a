/*
 * flatten.c - pass 5: the elaborated tree to one flat system.
 *
 * Elaboration joined the connected nodes into sets and gave each set that
 * is not joined to '*' one copy of its domain's across variables (named
 * after every port on it: lever.T1.x, push.P.x).  Flatten gives each such
 * set one copy of the domain equations, and one conservation equation per
 * through variable: the sum of the branch
 * variables entering the set (subtracted at a branch's `from` node, added
 * at its `to` node) is zero.  Component equations are lowered in their
 * instance's context; an if-equation becomes one equation per position,
 * each an if-expression over the branches.
 */
#include "flatten.h"

#include "diag.h"
#include "lint.h"
#include "lower.h"
#include "units_check.h"

#include <math.h>
#include <string.h>

/* Branch terms per set and through member: (sign, variable) pairs. */
typedef struct Term {
    int set;                /* node set */
    int through;            /* member order of the through variable */
    int elem;               /* its element (0-based; a vector's) */
    int var;                /* branch variable */
    double sign;            /* -1 at the from node, +1 at the to node */
    struct Term *next;      /* next term of the same set */
} Term;

typedef struct FlatCtx {
    Dae *d;                 /* the DAE being made */
    Term **terms;           /* per set: its terms, oldest first */
    Term **tails;           /* per set: newest term, to append in order */
    DaeExpr *guard;         /* while lowering an if-equation's branch: the
                               condition under which it is active (the
                               assertions in it hold only then), or NULL */
} FlatCtx;

static DaeEq *new_eq(Dae *d, DaeExpr *l, DaeExpr *r, DaeEqKind k, const char *inst,
                     SrcSpan sp)
{
    DaeEq *q = arena_alloc(&d->arena, sizeof *q);
    q->lhs = l;
    q->rhs = r;
    q->chart = -1;
    q->kind = k;
    q->instance = inst;
    q->span = sp;
    q->set = -1;
    ptrvec_push(&d->arena, &d->eqs, q);
    return q;
}

static void domain_equations(Model *m, FlatCtx *fc)
{
    for (int k = 0; k < m->sets.n; k++) {
        ElabSet *s = m->sets.items[k];
        if (s->reference)
            continue;
        ElabInst *din = elab_domain_inst(m, s->domain);
        for (int j = 0; j < s->domain->member_list.n; j++)
            din->slots[j].var = s->across_var[j];
        for (int i = 0; i < s->domain->ast->items.n; i++) {
            AstItem *it = s->domain->ast->items.items[i];
            if (it->kind != ITEM_SECTION || it->u.section.kind != SEC_EQUATIONS)
                continue;
            for (int j = 0; j < it->u.section.entries.n; j++) {
                AstStmt *st = it->u.section.entries.items[j];
                if (st->kind != STMT_EQUATION)
                    continue;
                DaeEq *q = new_eq(fc->d, lower_expr(m, din, st->u.eq.lhs),
                                  lower_expr(m, din, st->u.eq.rhs), EQ_DOMAIN,
                                  din->dae_path, st->span);
                q->what = s->name;
                q->set = k;
            }
        }
    }
}

/* ---- component equations ------------------------------------------------ */

typedef struct EqList {
    PtrVec lhs, rhs;        /* DaeExpr*, one per equation position */
    PtrVec spans;           /* SrcSpan* of each */
} EqList;

static void lower_stmts(Model *m, FlatCtx *fc, ElabInst *in, PtrVec *v, EqList *out);

static void push_eq(Model *m, EqList *out, DaeExpr *l, DaeExpr *r, SrcSpan sp)
{
    SrcSpan *p = arena_alloc(m->arena, sizeof *p);
    *p = sp;
    ptrvec_push(m->arena, &out->lhs, l);
    ptrvec_push(m->arena, &out->rhs, r);
    ptrvec_push(m->arena, &out->spans, p);
}

/* What an assert does when it fails: Warn = true and Action =
   simscape.enum.assert.action.warn warn (1), Action = ...none ignores it
   (2), the default stops the run (0). */
static int assert_action(Model *m, ElabInst *in, AstStmt *s)
{
    int action = 0;
    for (int i = 0; i < s->u.assert_.opts.n; i++) {
        AstExpr *o = s->u.assert_.opts.items[i];
        double v = dae_eval_params(lower_expr(m, in, o->u.option.value), elab_param_values(m));
        if (!strcmp(o->u.option.name->name, "Warn"))
            action = v != 0 ? 1 : 0;
        else /* Action: none 0, warn 1, error 2 (resolve_enums.c) */
            action = v == 0 ? 2 : v == 1 ? 1 : 0;
    }
    return action;
}

static void lower_assert(Model *m, FlatCtx *fc, ElabInst *in, AstStmt *s)
{
    Dae *d = fc->d;
    int action = assert_action(m, in, s);
    if (action == 2)
        return; /* Action = none */
    DaeAssert *a = arena_alloc(&d->arena, sizeof *a);
    a->warn = action == 1;
    a->cond = lower_expr(m, in, s->u.assert_.cond);
    if (fc->guard) /* checked only where its branch is active */
        a->cond = dae_binary(m->t, DX_OR, dae_not(m->t, fc->guard), a->cond);
    a->message = arena_strdup(&d->arena, s->u.assert_.msg);
    a->instance = in->dae_path;
    a->span = s->span;
    ptrvec_push(&d->arena, &d->asserts, a);
    if (!dae_depends_on_state(a->cond)) {
        double v = dae_eval_params(a->cond, elab_param_values(m));
        if (v == 0) {
            char vals[512];
            dae_param_values_text(d, a->cond, elab_param_values(m), vals, sizeof vals);
            if (a->warn) {
                diag_warning(s->span, "assertion does not hold in %s: %s%s",
                             in->path[0] ? in->path : "the top model", a->message, vals);
                return;
            }
            diag_error(s->span, "assertion failed in %s: %s%s",
                       in->path[0] ? in->path : "the top model", a->message, vals);
            /* the values come from the instantiation (or its defaults) */
            if (in->ast)
                diag_note(in->ast->span, "'%s' is declared here", in->path);
        }
    }
}

/* arrays: an equation of vectors or matrices is one equation per element,
   as Simscape reads `z == z0 * ones(N, 1)`; its sides have one size. */
static void lower_vector_eq(Model *m, ElabInst *in, AstStmt *s, EqList *out)
{
    LowerValue l, r;
    if (!lower_equation_sides(m, in, s, &l, &r))
        return;
    int nl = l.rows * l.cols;
    for (int k = 0; k < nl; k++)
        push_eq(m, out, l.el[k], r.el[k], s->span);
}

/* arrays: an if-equation whose conditions are known constants (they read
   only loop variables and literals) is its chosen branch alone, so that
   `if i == 1 ... else ... x(i - 1) ... end` in a for-loop never reads the
   branch that does not exist at i = 1.  Returns false when a condition is
   not a constant. */
static bool lower_constant_if(Model *m, FlatCtx *fc, ElabInst *in, AstStmt *s, EqList *out)
{
    for (int i = 0; i < s->u.if_.clauses.n; i++) {
        AstClause *c = s->u.if_.clauses.items[i];
        DaeExpr *k = c->cond ? lower_expr(m, in, c->cond) : NULL;
        if (k && k->kind != DX_CONST)
            return false;
        if (!k || k->u.value != 0) {
            lower_stmts(m, fc, in, &c->body, out);
            return true;
        }
    }
    return true; /* every condition false, no else: a parse error already */
}

static void lower_if(Model *m, FlatCtx *fc, ElabInst *in, AstStmt *s, EqList *out)
{
    if (in->env && lower_constant_if(m, fc, in, s, out))
        return;
    int nc = s->u.if_.clauses.n;
    EqList *arms = arena_alloc(m->arena, sizeof(EqList) * (size_t)(nc + 1));
    DaeExpr **conds = arena_alloc(m->arena, sizeof(DaeExpr *) * (size_t)(nc + 1));
    DaeExpr *outer = fc->guard, *none_before = NULL;
    for (int i = 0; i < nc; i++) {
        AstClause *c = s->u.if_.clauses.items[i];
        conds[i] = c->cond ? lower_expr(m, in, c->cond) : NULL;
        /* the branch is active when its condition holds and none before */
        DaeExpr *g = conds[i];
        if (none_before)
            g = g ? dae_binary(m->t, DX_AND, none_before, g) : none_before;
        if (outer && g)
            g = dae_binary(m->t, DX_AND, outer, g);
        fc->guard = g ? g : outer;
        lower_stmts(m, fc, in, &c->body, &arms[i]);
        if (conds[i]) {
            DaeExpr *nc_ = dae_not(m->t, conds[i]);
            none_before = none_before ? dae_binary(m->t, DX_AND, none_before, nc_) : nc_;
        }
    }
    fc->guard = outer;
    int n = arms[0].lhs.n;
    for (int i = 1; i < nc; i++)
        if (arms[i].lhs.n != n)
            return; /* reported by the balance check */
    DaeExprTable *t = m->t;
    for (int k = 0; k < n; k++) {
        /* Fold from the last arm: if c1, a1 else (if c2, a2 else ...). */
        AstClause *last = s->u.if_.clauses.items[nc - 1];
        DaeExpr *l = last->cond ? dae_const(t, 0) : arms[nc - 1].lhs.items[k];
        DaeExpr *r = last->cond ? dae_const(t, 0) : arms[nc - 1].rhs.items[k];
        for (int i = nc - 1 - (last->cond ? 0 : 1); i >= 0; i--) {
            l = dae_if(t, conds[i], arms[i].lhs.items[k], l);
            r = dae_if(t, conds[i], arms[i].rhs.items[k], r);
        }
        push_eq(m, out, l, r, s->span);
    }
}

/* arrays: a for-loop's equations, once per value of its variable. */
typedef struct LowerLoop {
    Model *m;               /* the model */
    FlatCtx *fc;            /* the flattening */
    ElabInst *in;           /* the instance */
    PtrVec *body;           /* the loop's statements */
    EqList *out;            /* where the equations go */
} LowerLoop;

static bool lower_iteration(void *ctx)
{
    LowerLoop *l = ctx;
    lower_stmts(l->m, l->fc, l->in, l->body, l->out);
    return true;
}

static void lower_loop(Model *m, FlatCtx *fc, ElabInst *in, AstStmt *s, EqList *out)
{
    LowerLoop l = {m, fc, in, &s->u.for_.body, out};
    elab_unroll(m, in, &s->u.for_, false, lower_iteration, &l);
}

static void lower_stmts(Model *m, FlatCtx *fc, ElabInst *in, PtrVec *v, EqList *out)
{
    for (int i = 0; i < v->n; i++) {
        AstStmt *s = v->items[i];
        switch (s->kind) {
        case STMT_FOR:
            lower_loop(m, fc, in, s, out);
            break;
        case STMT_EQUATION:
            if (elab_inst_arrays(in))
                lower_vector_eq(m, in, s, out);
            else
                push_eq(m, out, lower_expr(m, in, s->u.eq.lhs),
                        lower_expr(m, in, s->u.eq.rhs), s->span);
            break;
        case STMT_ASSERT:
            lower_assert(m, fc, in, s);
            break;
        case STMT_IF:
            lower_if(m, fc, in, s, out);
            break;
        case STMT_LET: {
            ElabLocal *saved = m->locals;
            lower_local_defs(m, in, &s->u.let_.defs);
            lower_stmts(m, fc, in, &s->u.let_.body, out);
            m->locals = saved;
            break;
        }
        default:
            break;
        }
    }
}

static void add_term(Model *m, FlatCtx *fc, ElabInst *in, AstExpr *end,
                     int var, int n, double sign)
{
    if (end->kind != EXPR_NAME)
        return;
    ElabInst *owner = in;
    SemaMember *through = NULL;
    ElabSlot *node = lower_resolve(m, in, end, &owner, &through);
    if (!node || !through || node->node < 0)
        return;
    int set = m->nodes[elab_find(m, node->node)].set;
    /* a vector through variable takes a branch variable of its size, one
       term per element */
    ElabSlot *ds = elab_domain_slot(m, m->nodes[node->node].domain, through);
    int count = elab_slot_numel(ds);
    if (count != n)
        return; /* reported by the balance check (check_branch_size) */
    for (int e = 0; e < n; e++) {
        Term *t = arena_alloc(m->arena, sizeof *t);
        *t = (Term){set, through->order, e, var + e, sign, NULL};
        if (fc->tails[set])
            fc->tails[set]->next = t;
        else
            fc->terms[set] = t;
        fc->tails[set] = t;
    }
}

/* A branch's variable: its first unknown and how many (a vector's). */
static int branch_var(Model *m, ElabInst *in, AstExpr *name, int *n)
{
    ElabSlot *s = elab_slot(in, name->u.name.parts[0].sym);
    *n = 1;
    if (s && s->var >= 0 && s->vec && !name->u.name.parts[0].nindex) {
        *n = s->rows * s->cols;
        return s->var;
    }
    return lower_var_index(m, in, name);
}

/* ---- the discrete part ------------------------------------------

   Event variables become DaeEvars; a when statement a DaeWhen of
   branches; a mode chart a DaeChart with an event variable for its mode
   (the 1-based index of the active mode, starting at the first initial
   statement whose parametric predicate holds, else at the first mode),
   and its equations one equation per position, an if-expression over
   the mode, like an if-equation's.  An assert in a mode holds only while
   the mode is active. */

static void make_evars(Model *m, Dae *d)
{
    for (int i = 0; i < m->evars.n; i++) {
        ElabVar *e = m->evars.items[i];
        DaeEvar *v = arena_alloc(&d->arena, sizeof *v);
        v->name = arena_strdup(&d->arena, e->name);
        v->instance = e->owner->dae_path;
        v->span = e->span;
        v->dim = e->dim;
        v->start = e->start;
        v->description = e->description ? arena_strdup(&d->arena, e->description) : NULL;
        v->chart = -1;
        v->unseen = e->hidden.n > 0;
        ptrvec_push(&d->arena, &d->evars, v);
    }
}

static void lower_assigns(Model *m, Dae *d, ElabInst *in, PtrVec *from, PtrVec *to)
{
    for (int i = 0; i < from->n; i++) {
        AstDecl *a = from->items[i];
        ElabSlot *s = a ? elab_slot(in, a->name) : NULL;
        if (!s || !s->m->event || s->var < 0)
            continue;
        DaeAssign *x = arena_alloc(&d->arena, sizeof *x);
        x->evar = s->var;
        x->value = lower_expr(m, in, a->value);
        x->span = a->span;
        ptrvec_push(&d->arena, to, x);
    }
}

static void flatten_when(Model *m, Dae *d, ElabInst *in, AstStmt *st)
{
    DaeWhen *w = arena_alloc(&d->arena, sizeof *w);
    w->instance = in->dae_path;
    w->span = st->span;
    for (int i = 0; i < st->u.if_.clauses.n; i++) {
        AstClause *c = st->u.if_.clauses.items[i];
        DaeBranch *b = arena_alloc(&d->arena, sizeof *b);
        b->pred = lower_expr(m, in, c->cond);
        b->span = c->span;
        lower_assigns(m, d, in, &c->body, &b->assigns);
        ptrvec_push(&d->arena, &w->branches, b);
    }
    ptrvec_push(&d->arena, &d->whens, w);
}

static int mode_of(const AstModeChart *mc, const Sym *name)
{
    for (int i = 0; i < mc->modes.n; i++)
        if (((AstMode *)mc->modes.items[i])->name == name)
            return i;
    return 0;
}

static void flatten_chart(Model *m, FlatCtx *fc, ElabInst *in, AstModeChart *mc)
{
    Dae *d = fc->d;
    DaeExprTable *t = m->t;
    int nm = mc->modes.n;
    if (nm == 0)
        return;
    DaeChart *c = arena_alloc(&d->arena, sizeof *c);
    c->name = arena_strdup(&d->arena, mc->name->name);
    c->instance = in->dae_path;
    c->span = mc->span;
    int ci = d->charts.n;
    ptrvec_push(&d->arena, &d->charts, c);
    /* the mode: initial statements in order, else the first mode */
    DaeExpr *start = dae_const(t, 1);
    for (int i = mc->initials.n - 1; i >= 0; i--) {
        AstTransition *it = mc->initials.items[i];
        if (it)
            start = dae_if(t, lower_expr(m, in, it->pred),
                           dae_const(t, mode_of(mc, it->path[0].sym) + 1), start);
    }
    DaeEvar *ev = arena_alloc(&d->arena, sizeof *ev);
    ev->name = arena_strdup(&d->arena, elab_qualify(m, in, mc->name->name));
    ev->instance = in->dae_path;
    ev->span = mc->name_span;
    ev->dim = dim_none();
    ev->start = start;
    ev->description = "the active mode (1-based, in declaration order)";
    ev->chart = ci;
    c->evar = d->evars.n;
    ptrvec_push(&d->arena, &d->evars, ev);
    DaeEvar *nx = arena_alloc(&d->arena, sizeof *nx);
    *nx = *ev;
    nx->name = arena_printf(&d->arena, "%s.next", ev->name);
    nx->start = dae_const(t, 0);
    nx->description = NULL;
    nx->hidden = true;
    c->next = d->evars.n;
    ptrvec_push(&d->arena, &d->evars, nx);
    DaeExpr *mv = dae_evar(t, c->evar, dae_eval_params(start, elab_param_values(m)));
    EqList *arms = arena_alloc(m->arena, sizeof(EqList) * (size_t)nm);
    for (int j = 0; j < nm; j++) {
        AstMode *mo = mc->modes.items[j];
        DaeMode *dm = arena_alloc(&d->arena, sizeof *dm);
        dm->name = arena_strdup(&d->arena, mo->name->name);
        dm->span = mo->name_span;
        lower_assigns(m, d, in, &mo->entry, &dm->entry);
        ptrvec_push(&d->arena, &c->modes, dm);
        int na = d->asserts.n;
        lower_stmts(m, fc, in, &mo->eqs, &arms[j]);
        DaeExpr *away = dae_binary(t, DX_NE, mv, dae_const(t, j + 1));
        for (int k = na; k < d->asserts.n; k++) {
            DaeAssert *a = d->asserts.items[k];
            a->cond = dae_binary(t, DX_OR, away, a->cond);
        }
    }
    int n = arms[0].lhs.n;
    for (int j = 1; j < nm; j++)
        if (arms[j].lhs.n != n)
            return; /* reported by the balance check */
    c->neqs = n;
    for (int k = 0; k < n; k++) {
        DaeExpr *l = arms[nm - 1].lhs.items[k], *r = arms[nm - 1].rhs.items[k];
        for (int j = nm - 2; j >= 0; j--) {
            DaeExpr *is = dae_binary(t, DX_EQ, mv, dae_const(t, j + 1));
            l = dae_if(t, is, arms[j].lhs.items[k], l);
            r = dae_if(t, is, arms[j].rhs.items[k], r);
        }
        DaeEq *q = new_eq(d, l, r, EQ_COMPONENT, in->dae_path, *(SrcSpan *)arms[0].spans.items[k]);
        q->chart = ci;
    }
    for (int i = 0; i < mc->transitions.n; i++) {
        AstTransition *at = mc->transitions.items[i];
        if (!at || at->n > 3)
            continue;
        DaeTransition *tr = arena_alloc(&d->arena, sizeof *tr);
        tr->n = at->n;
        for (int k = 0; k < at->n; k++)
            tr->path[k] = mode_of(mc, at->path[k].sym);
        tr->pred = lower_expr(m, in, at->pred);
        tr->span = at->span;
        ptrvec_push(&d->arena, &c->transitions, tr);
    }
}

static void flatten_section(Model *m, ElabInst *in, AstItem *it, void *ctx)
{
    FlatCtx *fc = ctx;
    PtrVec *v = &it->u.section.entries;
    if (it->u.section.kind == SEC_EVENTS) {
        for (int i = 0; i < v->n; i++)
            if (v->items[i])
                flatten_when(m, fc->d, in, v->items[i]);
    } else if (it->u.section.kind == SEC_MODECHARTS) {
        for (int i = 0; i < v->n; i++)
            if (v->items[i])
                flatten_chart(m, fc, in, v->items[i]);
    }
    if (it->u.section.kind == SEC_EQUATIONS && !it->u.section.initial) {
        EqList out = {{0}, {0}, {0}};
        lower_stmts(m, fc, in, v, &out);
        for (int i = 0; i < out.lhs.n; i++)
            new_eq(fc->d, out.lhs.items[i], out.rhs.items[i], EQ_COMPONENT, in->dae_path,
                   *(SrcSpan *)out.spans.items[i]);
    } else if (it->u.section.kind == SEC_BRANCHES) {
        for (int i = 0; i < v->n; i++) {
            AstBranch *b = v->items[i];
            int n;
            int var = branch_var(m, in, b->var, &n);
            if (var < 0)
                continue;
            add_term(m, fc, in, b->from, var, n, -1);
            add_term(m, fc, in, b->to, var, n, +1);
        }
    }
}

/* Conservation at node set k of element e of through member j: the sum
   of its branch terms is 0. */
static void conserve(Model *m, FlatCtx *fc, int k, int j, int e)
{
    DaeExprTable *t = m->t;
    ElabSet *s = m->sets.items[k];
    SemaMember *tm = s->domain->member_list.items[j];
    DaeExpr *sum = NULL;
    for (Term *x = fc->terms[k]; x; x = x->next) {
        if (x->through != j || x->elem != e)
            continue;
        DaeExpr *v = dae_var(t, x->var, 0);
        sum = !sum ? (x->sign < 0 ? dae_neg(t, v) : v)
                   : (x->sign < 0 ? dae_sub(t, sum, v) : dae_add(t, sum, v));
    }
    if (!sum)
        return; /* nothing carries this quantity: see the count check */
    ElabNode *first = s->nodes.items[0];
    ElabSlot *ns = elab_slot(first->inst, first->name);
    DaeEq *q = new_eq(fc->d, sum, dae_const(t, 0), EQ_CONSERVATION, m->top->dae_path,
                      ns && ns->m->decl ? ns->m->decl->span : tm->decl->span);
    q->what = s->name;
    q->set = k;
}

static void conservation(Model *m, FlatCtx *fc)
{
    for (int k = 0; k < m->sets.n; k++) {
        ElabSet *s = m->sets.items[k];
        if (s->reference)
            continue;
        ElabSlot *ds = elab_domain_inst(m, s->domain)->slots;
        for (int j = 0; j < s->domain->member_list.n; j++) {
            SemaMember *tm = s->domain->member_list.items[j];
            if (tm->kind != MEM_THROUGH)
                continue;
            for (int e = 0; e < elab_slot_numel(&ds[j]); e++)
                conserve(m, fc, k, j, e);
        }
    }
}

static void check_count(Model *m, FlatCtx *fc)
{
    Dae *d = fc->d;
    /* after an equation that could not be made, the count is no news */
    if (d->eqs.n == d->vars.n || diag_error_count())
        return;
    DaeCulprits c;
    dae_culprits_init(&c, d);
    diag_error(m->top->def->ast->name_span, "the flattened model '%s' has %d "
               "equation%s for %d variable%s", m->top->def->ast->name->name,
               d->eqs.n, d->eqs.n == 1 ? "" : "s", d->vars.n, d->vars.n == 1 ? "" : "s");
    /* Node sets whose through quantity nothing carries are the usual cause. */
    for (int k = 0; k < m->sets.n; k++) {
        ElabSet *s = m->sets.items[k];
        if (s->reference || fc->terms[k])
            continue;
        ElabNode *first = s->nodes.items[0];
        ElabSlot *ns = elab_slot(first->inst, first->name);
        diag_note(ns && ns->m->decl ? ns->m->decl->name_span : src_none,
                  "node '%s' is connected to nothing that carries its through "
                  "variable, so its across variables are not determined", s->name);
        dae_culprit_set(&c, k);
    }
    dae_note_culprits(&c);
}

/* The instances, node sets and connections, with where they are written
   (DaeInstance, DaeNodeSet, DaeConnect), for notes at the user's own
   lines. */
static void make_places(Model *m, Dae *d)
{
    PtrMap index = {0};
    d->ninstances = m->insts.n;
    d->instances = arena_alloc(&d->arena, sizeof *d->instances * (size_t)(m->insts.n + 1));
    for (int i = 0; i < m->insts.n; i++) {
        ElabInst *in = m->insts.items[i];
        DaeInstance *di = &d->instances[i];
        di->path = in->dae_path;
        di->decl = in->ast ? in->ast->span : src_none;
        di->parent = in->parent ? (int)(intptr_t)ptrmap_get(&index, in->parent) - 1 : -1;
        di->user = in->ast && lint_user_file(m, in->ast->span.file);
        ptrmap_put(&index, in, (void *)(intptr_t)(i + 1));
    }
    d->nsets = m->sets.n;
    d->sets = arena_alloc(&d->arena, sizeof *d->sets * (size_t)(m->sets.n + 1));
    d->ports = arena_alloc(&d->arena, sizeof *d->ports * (size_t)(m->nnodes + 1));
    int np = 0;
    for (int k = 0; k < m->sets.n; k++) {
        ElabSet *s = m->sets.items[k];
        d->sets[k] = (DaeNodeSet){s->name, np, s->nodes.n};
        for (int q = 0; q < s->nodes.n; q++) {
            ElabNode *n = s->nodes.items[q];
            d->ports[np++] = (DaePort){n->name->name,
                                       (int)(intptr_t)ptrmap_get(&index, n->inst) - 1};
        }
        ElabSlot *ds = elab_domain_inst(m, s->domain)->slots;
        for (int j = 0; j < s->domain->member_list.n && !s->reference; j++)
            for (int e = 0; s->across_var[j] >= 0
                            && e < elab_slot_numel(&ds[j]); e++)
                ((DaeVar *)d->vars.items[s->across_var[j] + e])->set = k;
    }
    d->nconnects = m->connects.n;
    d->connects = arena_alloc(&d->arena, sizeof *d->connects * (size_t)(m->connects.n + 1));
    for (int i = 0; i < m->connects.n; i++) {
        ElabConnect *c = m->connects.items[i];
        d->connects[i] = (DaeConnect){c->span, m->nodes[elab_find(m, c->node[0])].set,
                                      lint_user_file(m, c->span.file)};
    }
    ptrmap_free(&index);
}

/* The DaeVar of each variable elaboration made that has none yet,
   strings copied. */
static void make_vars(Model *m, Dae *d)
{
    for (int i = d->vars.n; i < m->vars.n; i++) {
        ElabVar *e = m->vars.items[i];
        DaeVar *v = arena_alloc(&d->arena, sizeof *v);
        v->name = arena_strdup(&d->arena, e->name);
        ptrvec_push(&d->arena, &v->names, (void *)v->name);
        for (int k = 1; k < e->names.n; k++)
            ptrvec_push(&d->arena, &v->names, arena_strdup(&d->arena, e->names.items[k]));
        v->kind = e->kind;
        v->span = e->span;
        v->instance = e->owner->dae_path;
        v->dim = e->dim;
        v->priority = e->priority;
        v->start = e->start;
        v->nominal = e->nominal;
        v->description = e->description ? arena_strdup(&d->arena, e->description) : NULL;
        v->set = -1;
        v->on_request = e->on_request;
        if (e->hidden.n) {
            v->name_hidden = arena_alloc(&d->arena, sizeof(bool) * (size_t)(e->names.n + 1));
            for (int k = 0; k < e->names.n; k++)
                for (int h = 0; h < e->hidden.n; h++)
                    v->name_hidden[k] |= e->hidden.items[h] == e->names.items[k];
        }
        ptrvec_push(&d->arena, &d->vars, v);
    }
}

/* Every active intermediate of every instance but those hidden by
   ExternalAccess = none, as a named expression the simulator can log. */
static void observe_intermediates(Model *m, Dae *d)
{
    for (int i = 0; i < m->insts.n; i++) {
        ElabInst *in = m->insts.items[i];
        if (in->external == EXT_NONE)
            continue;
        for (int j = 0; j < in->def->member_list.n; j++) {
            ElabSlot *s = &in->slots[j];
            if (!s->active || s->m->kind != MEM_INTERMEDIATE)
                continue;
            /* arrays: a vector or matrix intermediate is one named
               expression per element, w(1), w(2), ... as variables are */
            LowerValue v = lower_intermediate_value(m, in, s, s->m->decl->name_span);
            Dim dim;
            if (!units_decl_dim(m, in, s->m->decl, &dim))
                dim = dim_none();
            for (int k = 0; k < v.rows * v.cols; k++) {
                DaeObserved *o = arena_alloc(&d->arena, sizeof *o);
                const char *name = elab_qualify(m, in, s->m->name->name);
                if (v.rows * v.cols > 1)
                    name = v.rows > 1 && v.cols > 1
                               ? arena_printf(m->arena, "%s(%d,%d)", name, k % v.rows + 1,
                                              k / v.rows + 1)
                               : arena_printf(m->arena, "%s(%d)", name, k + 1);
                o->name = arena_strdup(&d->arena, name);
                o->expr = v.el[k];
                o->dim = dim;
                ptrvec_push(&d->arena, &d->observed, o);
            }
        }
    }
}

/* der(z) == e for each integ(e) (lowering the equations made them), and
   the DaeVars of their states, with the dimensions of what lowering the
   equations made. */
static void integ_equations(Model *m, Dae *d)
{
    units_fill_dims(m);
    for (int i = 0; i < m->integs.n; i++) {
        ElabInteg *q = m->integs.items[i];
        new_eq(d, dae_var(m->t, q->var, 1), q->integrand, EQ_COMPONENT, q->in->dae_path,
               q->span);
    }
    make_vars(m, d);
}

Dae *flatten_model(Model *m)
{
    /* the DAE takes over the expression DAG and the parameters */
    Dae *d = dae_new(&m->dae_arena, &m->exprs);
    m->dae_arena = (Arena){0};
    m->exprs = (DaeExprTable){0};
    m->t = &d->t;
    d->params = m->params;
    m->params = (PtrVec){0};
    m->plist = &d->params;
    d->ncomponents = m->insts.n;
    make_vars(m, d);
    make_places(m, d);
    make_evars(m, d);
    FlatCtx fc = {0};
    fc.d = d;
    fc.terms = arena_alloc(m->arena, sizeof(Term *) * (size_t)(m->sets.n + 1));
    fc.tails = arena_alloc(m->arena, sizeof(Term *) * (size_t)(m->sets.n + 1));
    domain_equations(m, &fc);
    for (int i = 0; i < m->insts.n; i++)
        elab_each_section(m, m->insts.items[i], flatten_section, &fc);
    conservation(m, &fc);
    for (int i = 0; i < m->conn_eqs.n; i++) {
        ElabConnEq *q = m->conn_eqs.items[i];
        new_eq(d, q->lhs, q->rhs, EQ_CONNECTION, q->in->dae_path, q->span);
    }
    observe_intermediates(m, d);
    integ_equations(m, d);
    d->raw_eqs = d->eqs.n;
    d->raw_vars = d->vars.n;
    check_count(m, &fc);
    return d;
}
