/*
 * lower.c - turns an AST expression, read in the context of one instance,
 * into a DAE expression.
 *
 * Names are resolved through the instance's slots: a parameter becomes a
 * run-time parameter node (never folded, so --param works), a variable or
 * output a variable node, an input its binding, an intermediate its own
 * lowered expression (substituted, cached per instance), NODE.x the node
 * set's across variable (0 on a set joined to '*').  Literals with units
 * are converted to SI here.  der() is expanded by the symbolic
 * differentiator until it applies to variables only.
 *
 * Arrays: a loop variable is the constant of the current
 * iteration (ElabInst.env); `m(i).P` follows element i of an array of
 * components; vectors, matrices, indices and the array functions are
 * lowered by lower_array.c, which this file calls for names of vector
 * slots or indexed names and for the array functions.
 */
#include "lower.h"

#include "diag.h"
#include "bounds.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void not_active(Model *m, ElabInst *owner, ElabSlot *s, SrcSpan at)
{
    const char *what = sema_member_kind_names[s->m->kind];
    diag_error(at, "%s '%s' does not exist in %s: component '%s' declares it "
               "only in a conditional section that is not active here",
               what, s->m->name->name, owner->path[0] ? owner->path : "the top model",
               owner->def->ast->name->name);
    SrcSpan decl = s->m->decl ? s->m->decl->name_span : s->m->inst->name_span;
    diag_note(decl, "'%s' is declared here", s->m->name->name);
    (void)m;
}

ElabSlot *lower_resolve(Model *m, ElabInst *in, AstExpr *e, ElabInst **owner,
                        SemaMember **node_member)
{
    AstNamePart *parts = e->u.name.parts;
    int n = e->u.name.n;
    *node_member = NULL;
    ElabInst *cur = in;
    for (int i = 0; i < n; i++) {
        ElabSlot *s = elab_slot(cur, parts[i].sym);
        if (!s)
            return NULL; /* resolution already reported it */
        if (!s->active) {
            not_active(m, cur, s, parts[i].span);
            return NULL;
        }
        /* arrays: element i of an array of components or nodes, the index
           read where the name is written */
        if (s->m->rank > 0 && !(s = lower_element(m, in, s, &parts[i])))
            return NULL;
        *owner = cur;
        if (i == n - 1)
            return s;
        if (s->m->kind == MEM_NODE) {
            SemaMember *am = sema_member(s->m->type, parts[i + 1].sym);
            if (!am)
                return NULL;
            *node_member = am;
            return s;
        }
        if (s->m->kind != MEM_INSTANCE || !s->child)
            return NULL;
        cur = s->child;
    }
    return NULL;
}

/* A let's or a function's local name: true when e is one (or when a
   function's barrier hides everything else). */
bool lower_is_local(Model *m, AstExpr *e)
{
    LowerValue unused;
    return lower_local_value(m, e, &unused);
}

bool lower_local_value(Model *m, AstExpr *e, LowerValue *out)
{
    if (!m->locals || e->u.name.n != 1)
        return false;
    for (ElabLocal *l = m->locals; l; l = l->up) {
        if (!l->name) {
            /* inside a function: resolution saw that only the named
               constants are left */
            double v = 0;
            builtin_constant(e->u.name.parts[0].sym->name, &v);
            *out = lower_value_new(m, 1, 1);
            out->el[0] = dae_const(m->t, v);
            return true;
        }
        if (l->name == e->u.name.parts[0].sym) {
            *out = (LowerValue){l->rows, l->cols, l->el};
            return true;
        }
    }
    return false;
}

/* arrays: an intermediate's value with its size, lowered once (of
   [a, b] = f(x): its output's). */
LowerValue lower_intermediate_value(Model *m, ElabInst *owner, ElabSlot *s, SrcSpan at)
{
    if (s->lowered_el)
        return (LowerValue){s->lowered_rows, s->lowered_cols, s->lowered_el};
    if (s->lowered || s->lowering) {
        LowerValue v = lower_value_new(m, 1, 1);
        v.el[0] = lower_intermediate(m, owner, s, at);
        return v;
    }
    s->lowering = 1;
    ElabLocal *saved = m->locals;
    m->locals = NULL;
    LowerValue v = lower_decl_value(m, owner, s->m->decl);
    m->locals = saved;
    s->lowering = 0;
    s->lowered_el = v.el;
    s->lowered_rows = v.rows;
    s->lowered_cols = v.cols;
    if (v.rows * v.cols == 1)
        s->lowered = v.el[0];
    return v;
}

DaeExpr *lower_intermediate(Model *m, ElabInst *owner, ElabSlot *s, SrcSpan at)
{
    if (s->lowered)
        return s->lowered;
    if (s->lowering) {
        diag_error(at, "intermediate '%s' is defined in terms of itself",
                   s->m->name->name);
        return dae_const(m->t, 0);
    }
    s->lowering = 1;
    /* the intermediate is outside any let it is used in */
    ElabLocal *saved = m->locals;
    m->locals = NULL;
    s->lowered = lower_decl(m, owner, s->m->decl);
    m->locals = saved;
    s->lowering = 0;
    return s->lowered;
}

static DaeExpr *lower_name(Model *m, ElabInst *in, AstExpr *e)
{
    DaeExprTable *t = m->t;
    ElabInst *owner = in;
    SemaMember *nm = NULL;
    LowerValue local;
    if (lower_local_value(m, e, &local)) {
        if (!e->u.name.parts[0].nindex && local.rows * local.cols == 1)
            return local.el[0];
        return lower_scalar_of(m, lower_value(m, in, e), e);
    }
    if (e->u.name.n == 1 && !e->u.name.parts[0].nindex) {
        const ElabEnv *loop = elab_env_find(in->env, e->u.name.parts[0].sym);
        if (loop)
            return dae_const(t, loop->value);
    }
    double named;
    if (e->u.name.n == 1 && !elab_slot(in, e->u.name.parts[0].sym)
        && builtin_constant(e->u.name.parts[0].sym->name, &named))
        return dae_const(t, named);
    if (e->u.name.n == 1 && !elab_slot(in, e->u.name.parts[0].sym)
        && strcmp(e->u.name.parts[0].sym->name, "initialevent") == 0)
        return dae_initial(t);
    ElabSlot *s = lower_resolve(m, in, e, &owner, &nm);
    s = elab_sized(m, owner, s);
    if (!s)
        return dae_const(t, 0);
    if ((s->vec || e->u.name.parts[e->u.name.n - 1].nindex)
        && (s->m->kind == MEM_PARAMETER || s->m->kind == MEM_VARIABLE
            || s->m->kind == MEM_OUTPUT || s->m->kind == MEM_INPUT))
        return lower_indexed(m, in, e, s);
    switch (s->m->kind) {
    case MEM_PARAMETER:
        /* a domain's default that reads another of its parameters */
        if (s->param < 0 && s->m->decl)
            return lower_expr(m, owner, s->m->decl->value);
        return dae_param(t, s->param);
    case MEM_VARIABLE: case MEM_OUTPUT: case MEM_ACROSS:
        if (s->m->event && s->var >= 0 && s->var < m->evars.n) {
            /* a known input of the equations, changed only at events */
            ElabVar *v = m->evars.items[s->var];
            return dae_evar(t, s->var, dae_eval_params(v->start, elab_param_values(m)));
        }
        return s->var >= 0 ? dae_var(t, s->var, 0) : dae_const(t, 0);
    case MEM_INPUT:
        return s->input ? s->input : dae_const(t, 0);
    case MEM_INTERMEDIATE:
        if (e->u.name.parts[e->u.name.n - 1].nindex || s->lowered_el
            || !s->m->decl || s->m->decl->output < 0)
            return lower_scalar_of(m, lower_value(m, in, e), e);
        return lower_intermediate(m, owner, s, e->span);
    case MEM_NODE:
        /* NODE.x, NODE.x(i), NODE.param: its value, an element of it */
        return lower_scalar_of(m, lower_value(m, in, e), e);
    default:
        return dae_const(t, 0);
    }
}

/* A name for the state of the next integ() of instance `in`:
   integ_1, integ_2, ..., skipping names its component declares. */
static const char *integ_name(Model *m, ElabInst *in)
{
    for (;;) {
        char buf[32];
        snprintf(buf, sizeof buf, "integ_%d", ++in->ninteg);
        if (!sema_member(in->def, sym_cstr(buf)))
            return elab_qualify(m, in, buf);
    }
}

/* integ(e): a new variable z with der(z) == e (flatten adds the
   equation) and the target z(0) = 0.  Equal integrands share one state:
   they have one integral. */
static DaeExpr *lower_integ(Model *m, ElabInst *in, AstExpr *call, DaeExpr *a)
{
    DaeExprTable *t = m->t;
    int k = (int)(intptr_t)ptrmap_get(&m->integ_of, a);
    if (k)
        return dae_var(t, ((ElabInteg *)m->integs.items[k - 1])->var, 0);
    ElabVar *v = arena_alloc(m->arena, sizeof *v);
    v->name = integ_name(m, in);
    ptrvec_push(m->arena, &v->names, (void *)v->name);
    if (in->external == EXT_NONE)
        ptrvec_push(m->arena, &v->hidden, (void *)v->name);
    v->on_request = true;
    v->kind = VAR_COMPONENT;
    v->span = call->span;
    v->owner = in;
    elab_dim_of_expr(m, &v->dim, NULL, in, call);
    v->priority = PRIO_HIGH;
    v->start = dae_const(t, 0);
    ElabInteg *q = arena_alloc(m->arena, sizeof *q);
    q->var = m->vars.n;
    q->integrand = a;
    q->in = in;
    q->span = call->span;
    ptrvec_push(m->arena, &m->vars, v);
    ptrvec_push(m->arena, &m->integs, q);
    ptrmap_put(&m->integ_of, a, (void *)(intptr_t)m->integs.n);
    return dae_var(t, q->var, 0);
}

/* delay(u, tau, History = h, MaximumDelay = m): a DX_DELAY
   node and its DaeDelay (where, and the bound: MaximumDelay, else a
   parametric tau itself; a tau that reads variables needs one). */
static DaeExpr *lower_delay(Model *m, ElabInst *in, AstExpr *e)
{
    DaeExprTable *t = m->t;
    AstExpr *pos[2] = {NULL, NULL}, *hist = NULL, *max = NULL;
    int np = 0;
    for (int i = 0; i < e->u.call.args.n; i++) {
        AstExpr *a = e->u.call.args.items[i];
        if (a->kind == EXPR_OPTION) {
            if (!strcmp(a->u.option.name->name, "History"))
                hist = a->u.option.value;
            else if (!strcmp(a->u.option.name->name, "MaximumDelay"))
                max = a->u.option.value;
        } else if (np < 2) {
            pos[np++] = a;
        }
    }
    if (np < 2)
        return dae_const(t, 0);     /* reported by resolution */
    DaeExpr *u = lower_expr(m, in, pos[0]);
    DaeExpr *tau = lower_expr(m, in, pos[1]);
    DaeExpr *h = hist ? lower_expr(m, in, hist) : NULL;
    DaeExpr *node = dae_delay(t, u, tau, h);
    if (ptrmap_get(&t->delays, node))
        return node;
    DaeDelay *dl = arena_alloc(t->arena, sizeof *dl);
    dl->instance = in->dae_path;
    dl->span = e->span;
    if (max)
        dl->max = lower_expr(m, in, max);
    else if (!dae_depends_on_state(tau))
        dl->max = tau;
    else
        diag_error(pos[1]->span, "this delay's tau depends on variables, so delay needs "
                   "a parametric bound: delay(u, tau, MaximumDelay = tmax)");
    ptrmap_put(&t->delays, node, dl);
    return node;
}

static void note_call_relations(Model *m, ElabInst *in, DaeExpr *e, SrcSpan sp);

/* value(x, 'unit'): x (SI) / scale - offset; integ(e): its state;
   edge(b) and delay(...) their nodes. */
static DaeExpr *lower_special(Model *m, ElabInst *in, AstExpr *e, int sf)
{
    DaeExprTable *t = m->t;
    if (sf == SF_DELAY)
        return lower_delay(m, in, e);
    /* blend and limit: a fixed number of arguments, lowered first */
    DaeExpr *g[5];
    if (sf == SF_BLEND || sf == SF_LIMIT) {
        if (e->u.call.args.n != special_min_args[sf])
            return dae_const(t, 0); /* reported by resolution */
        for (int i = 0; i < special_min_args[sf]; i++)
            g[i] = lower_expr(m, in, e->u.call.args.items[i]);
    }
    if (sf == SF_BLEND) {
        /* y1 up to x1, y2 from x2, between them y1 + (y2 - y1) s(u) with
           u = (x - x1) / (x2 - x1) and s(u) = u^2 (3 - 2u): C1 at both ends */
        DaeExpr *u = dae_div(t, dae_sub(t, g[4], g[2]), dae_sub(t, g[3], g[2]));
        DaeExpr *s = dae_mul(t, dae_mul(t, u, u),
                             dae_sub(t, dae_const(t, 3), dae_mul(t, dae_const(t, 2), u)));
        DaeExpr *mid = dae_add(t, g[0], dae_mul(t, dae_sub(t, g[1], g[0]), s));
        DaeExpr *r = dae_if(t, dae_binary(t, DX_LE, g[4], g[2]), g[0],
                            dae_if(t, dae_binary(t, DX_GE, g[4], g[3]), g[1], mid));
        note_call_relations(m, in, r, e->span);
        return r;
    }
    if (sf == SF_LIMIT) {
        double smooth = dae_eval_params(g[3], elab_param_values(m));
        elab_mark_structural(m, g[3]);
        if (g[3]->kind != DX_CONST && g[3]->kind != DX_PARAM)
            diag_error(((AstExpr *)e->u.call.args.items[3])->span, "the smoothing flag "
                       "of simscape.function.limit must be known at compile time");
        else if (smooth != 0)
            diag_error(((AstExpr *)e->u.call.args.items[3])->span, "Simscape's smoothed "
                       "simscape.function.limit (smoothing = true) is not supported yet; "
                       "write simscape.function.blend for a smooth limit");
        /* lower below x's range, upper above it, x between */
        DaeExpr *r = dae_if(t, dae_binary(t, DX_LE, g[0], g[1]), g[1],
                            dae_if(t, dae_binary(t, DX_GE, g[0], g[2]), g[2], g[0]));
        note_call_relations(m, in, r, e->span);
        return r;
    }
    if (e->u.call.args.n < 1)
        return dae_const(t, 0);     /* reported by resolution */
    DaeExpr *a = lower_expr(m, in, e->u.call.args.items[0]);
    if (sf == SF_EDGE)
        return dae_edge(t, a);
    if (sf == SF_INTEG)
        return lower_integ(m, in, e, a);
    if (sf == SF_VALUE) {
        double offset;
        const RtUnit *u = elab_value_unit(m, e, &offset);
        if (!u)
            return dae_const(t, 0);
        return dae_sub(t, dae_div(t, a, dae_const(t, u->scale)), dae_const(t, offset));
    }
    return dae_const(t, 0);
}

static void bind_local(Model *m, ElabInst *in, Sym *name, AstDecl *d, LowerValue v)
{
    ElabLocal *l = arena_alloc(m->arena, sizeof *l);
    l->name = name;
    l->decl = d;
    l->rows = v.rows;
    l->cols = v.cols;
    l->el = v.el;
    l->in = in;
    l->up = m->locals;
    m->locals = l;
}

static LowerValue *lower_function(Model *m, ElabInst *in, AstExpr *call);

void lower_local_defs(Model *m, ElabInst *in, PtrVec *defs)
{
    AstExpr *call = NULL;
    LowerValue *outs = NULL;
    for (int i = 0; i < defs->n; i++) {
        AstDecl *d = defs->items[i];
        LowerValue v;
        if (d->output < 0) {
            v = lower_value(m, in, d->value);
        } else {
            /* one inlining for all the names of [a, b] = f(x) */
            if (d->value != call) {
                call = d->value;
                if (call->kind != EXPR_CALL) { /* reported by the parser */
                    v = lower_value_new(m, 1, 1);
                    v.el[0] = dae_const(m->t, 0);
                    bind_local(m, in, d->name, d, v);
                    call = NULL;
                    continue;
                }
                outs = lower_function(m, in, call);
            }
            int nout = call->u.call.fn ? call->u.call.fn->ast->outputs.n : 0;
            v = outs[d->output < nout ? d->output : nout];
        }
        bind_local(m, in, d->name, d, v);
    }
}

/* The key of a call for the inlining memo: the function and the nodes of
   its lowered arguments' elements (hash-consed, so equal arguments are
   one node), with their sizes. */
static Sym *call_key(AstDef *f, LowerValue *args, int n)
{
    char buf[64 * 8];
    size_t len = (size_t)snprintf(buf, sizeof buf, "%p", (void *)f);
    for (int i = 0; i < n && len + 48 < sizeof buf; i++) {
        len += (size_t)snprintf(buf + len, sizeof buf - len, ";%dx%d", args[i].rows,
                                args[i].cols);
        for (int k = 0; k < args[i].rows * args[i].cols && len + 24 < sizeof buf; k++)
            len += (size_t)snprintf(buf + len, sizeof buf - len, ",%p", (void *)args[i].el[k]);
    }
    return len + 48 < sizeof buf ? sym_cstr(buf) : NULL;
}

/* Inlines a call of a user function: its arguments are lowered where the
   call is, then its definitions in order, with nothing but them in
   scope; the result holds one value per output (each a scalar, vector or
   matrix, as the body makes it).  A body sees nothing but its arguments,
   so a call with the same arguments has the same outputs: each is
   inlined once (Model.fn_memo), and functions calling each other twice at
   each of k levels inline in O(k), not O(2^k).  Inlining deeper than
   LIMIT_INLINE_DEPTH, or more than LIMIT_INLINED_CALLS calls, is an
   error at the call. */
static LowerValue *lower_function(Model *m, ElabInst *in, AstExpr *call)
{
    AstDef *f = call->u.call.fn ? call->u.call.fn->ast : NULL;
    int nout = f ? f->outputs.n : 0;
    LowerValue *outs = arena_alloc(m->arena, sizeof(LowerValue) * (size_t)(nout + 1));
    for (int k = 0; k <= nout; k++) {
        outs[k] = lower_value_new(m, 1, 1);
        outs[k].el[0] = dae_const(m->t, 0);
    }
    if (!f)
        return outs;
    if (call->u.call.args.n != f->inputs.n)
        return outs; /* resolution reported it (arity) */
    if (m->fn_depth >= LIMIT_INLINE_DEPTH) {
        diag_error(call->span, "calls of user functions are inlined at most %d deep "
                   "(the limit of inlining, docs/language.md, \"Limits\"); this call "
                   "of '%s' is deeper", LIMIT_INLINE_DEPTH, f->name->name);
        return outs;
    }
    int n = f->inputs.n;
    LowerValue *args = arena_alloc(m->arena, sizeof(LowerValue) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        args[i] = lower_value(m, in, call->u.call.args.items[i]);
    Sym *key = call_key(f, args, n);
    LowerValue *known = key ? ptrmap_get(&m->fn_memo, key) : NULL;
    if (known)
        return known;
    if (++m->fn_inlined > LIMIT_INLINED_CALLS) {
        if (m->fn_inlined == LIMIT_INLINED_CALLS + 1)
            diag_error(call->span, "this model inlines more than %d calls of user "
                       "functions (the limit of inlining, docs/language.md, \"Limits\")",
                       LIMIT_INLINED_CALLS);
        return outs;
    }
    ElabLocal *saved = m->locals;
    bind_local(m, in, NULL, NULL, (LowerValue){0, 0, NULL});
    for (int i = 0; i < n; i++)
        bind_local(m, in, ((AstIdent *)f->inputs.items[i])->sym, NULL, args[i]);
    m->fn_depth++;
    lower_local_defs(m, in, &f->defs);
    m->fn_depth--;
    for (int k = 0; k < nout; k++) {
        Sym *o = ((AstIdent *)f->outputs.items[k])->sym;
        for (ElabLocal *l = m->locals; l && l->name; l = l->up) {
            if (l->name == o) {
                outs[k] = (LowerValue){l->rows, l->cols, l->el};
                break;
            }
        }
    }
    m->locals = saved;
    if (key)
        ptrmap_put(&m->fn_memo, key, outs);
    return outs;
}

LowerValue lower_call_value(Model *m, ElabInst *in, AstExpr *call)
{
    return lower_function(m, in, call)[0];
}

LowerValue lower_decl_value(Model *m, ElabInst *in, AstDecl *d)
{
    if (d->output < 0)
        return lower_value(m, in, d->value);
    AstExpr *call = d->value;
    SemaDef *f = call->kind == EXPR_CALL ? call->u.call.fn : NULL;
    if (!f || d->output >= f->ast->outputs.n) {
        LowerValue v = lower_value_new(m, 1, 1);
        v.el[0] = dae_const(m->t, 0);
        return v;
    }
    return lower_function(m, in, call)[d->output];
}

DaeExpr *lower_decl(Model *m, ElabInst *in, AstDecl *d)
{
    if (d->output < 0)
        return lower_expr(m, in, d->value);
    return lower_scalar_of(m, lower_decl_value(m, in, d), d->value);
}

static DaeExpr *lower_call(Model *m, ElabInst *in, AstExpr *e)
{
    DaeExprTable *t = m->t;
    int n = e->u.call.args.n;
    int sf = special_find(e->u.call.func->name);
    if (e->u.call.fn)
        return lower_scalar_of(m, lower_call_value(m, in, e), e);
    if (sf >= 0 && !e->u.call.qual)
        return lower_special(m, in, e, sf);
    DaeExpr *a = n > 0 ? lower_expr(m, in, e->u.call.args.items[0]) : dae_const(t, 0);
    DaeExpr *b = n > 1 ? lower_expr(m, in, e->u.call.args.items[1]) : dae_const(t, 0);
    int k = builtin_find(e->u.call.func->name);
    return k < 0 ? dae_const(t, 0) : lower_builtin(m, in, e, (DaeFunc)k, a, b);
}

DaeExpr *lower_builtin(Model *m, ElabInst *in, AstExpr *e, DaeFunc k, DaeExpr *a, DaeExpr *b)
{
    DaeExprTable *t = m->t;
    (void)in, (void)e;
    if (!b)
        b = dae_const(t, 0);
    /* the lowering column of builtin.h, FUNC meaning a function node */
#define FUNC dae_func(t, k, a, builtin_arity[k] == 2 ? b : NULL)
#define X_LOWER(id, name, c, arity, units, lower, eval, finite, diff) case id: return lower;
    switch (k) {
    LMDL_BUILTINS(X_LOWER)
    default: return dae_const(t, 0);
    }
#undef FUNC
}

static DaeExprKind binary_kind(AstOp op)
{
    switch (op) {
    case OP_OR: return DX_OR;
    case OP_AND: return DX_AND;
    case OP_EQ: return DX_EQ;
    case OP_NE: return DX_NE;
    case OP_LT: return DX_LT;
    case OP_LE: return DX_LE;
    case OP_GT: return DX_GT;
    case OP_GE: return DX_GE;
    case OP_ADD: return DX_ADD;
    case OP_SUB: return DX_SUB;
    case OP_MUL: return DX_MUL;
    case OP_DIV: return DX_DIV;
    case OP_EMUL: return DX_MUL; /* arrays: on scalars, the usual operators */
    case OP_EDIV: return DX_DIV;
    default: return DX_POW;
    }
}

/* Records where a relation came from, for the event log (first wins). */
static void note_relations(Model *m, ElabInst *in, DaeExpr *e, SrcSpan sp);

DaeExpr *lower_binary_node(Model *m, ElabInst *in, AstExpr *e, DaeExpr *a, DaeExpr *b)
{
    DaeExpr *r = dae_binary(m->t, binary_kind(e->u.binary.op), a, b);
    note_relations(m, in, r, e->span);
    return r;
}

static void note_relations(Model *m, ElabInst *in, DaeExpr *e, SrcSpan sp)
{
    if (!dae_is_relation(e) || ptrmap_get(&m->t->origin, e))
        return;
    DaeRelOrigin *o = arena_alloc(m->t->arena, sizeof *o);
    o->instance = in->dae_path;
    o->span = sp;
    ptrmap_put(&m->t->origin, e, o);
}

/* Relations made by lowering abs/min/max/sign take the call's text. */
static void note_call_relations(Model *m, ElabInst *in, DaeExpr *e, SrcSpan sp)
{
    for (int depth = 0; e && e->kind == DX_IF && depth < 3; depth++) {
        note_relations(m, in, e->u.cond.c, sp);
        e = e->u.cond.b;
    }
}

DaeExpr *lower_expr(Model *m, ElabInst *in, AstExpr *e)
{
    DaeExprTable *t = m->t;
    switch (e->kind) {
    case EXPR_NUM: return dae_const(t, e->u.num.value);
    case EXPR_BOOL: return dae_const(t, e->u.boolean ? 1 : 0);
    case EXPR_TIME: return dae_time(t);
    case EXPR_NAME: return lower_name(m, in, e);
    case EXPR_DER:
        return dae_diff_time(t, lower_expr(m, in, e->u.der.arg), NULL);
    case EXPR_CALL: {
        if (array_func_find(e->u.call.func->name) >= 0
            || ((builtin_find(e->u.call.func->name) == FN_MIN
                 || builtin_find(e->u.call.func->name) == FN_MAX) && e->u.call.args.n == 1))
            return lower_array_call(m, in, e);
        DaeExpr *r = lower_call(m, in, e);
        note_call_relations(m, in, r, e->span);
        return r;
    }
    case EXPR_UNARY: {
        DaeExpr *a = lower_expr(m, in, e->u.unary.arg);
        if (e->u.unary.op == OP_NEG)
            return dae_neg(t, a);
        if (e->u.unary.op == OP_NOT)
            return dae_not(t, a);
        return a;
    }
    case EXPR_BINARY:
        return lower_binary_node(m, in, e, lower_expr(m, in, e->u.binary.lhs),
                                 lower_expr(m, in, e->u.binary.rhs));
    case EXPR_IF:
        return dae_if(t, lower_expr(m, in, e->u.cond.cond),
                      lower_expr(m, in, e->u.cond.then),
                      lower_expr(m, in, e->u.cond.els));
    case EXPR_QUANTITY: {
        const RtUnit *u = elab_literal_unit(m, e);
        DaeExpr *v = lower_expr(m, in, e->u.quantity.value);
        if (u && u->offset != 0)
            return dae_add(t, dae_mul(t, dae_const(t, u->scale), v), dae_const(t, u->offset));
        return u ? dae_mul(t, dae_const(t, u->scale), v) : v;
    }
    case EXPR_MATRIX: case EXPR_RANGE:
        return lower_scalar_of(m, lower_value(m, in, e), e);
    case EXPR_MATLAB: {
        char *text = arena_strdup(m->arena, "");
        for (int i = 0; i < e->u.name.n; i++)
            text = arena_printf(m->arena, "%s%s%s", text, i ? "." : "",
                                e->u.name.parts[i].sym->name);
        diag_error(e->span, "'%s' is MATLAB code of package '%s' (no .ssc file or "
                   "enumeration defines it); lmdl does not run MATLAB code", text,
                   e->u.name.parts[0].sym->name);
        return dae_const(t, 0);
    }
    case EXPR_END:
        if (m->index_end < 0) {
            diag_error(e->span, "'end' stands for the last index only inside an "
                       "index, as in x(end) or M(end, 1)");
            return dae_const(t, 0);
        }
        return dae_const(t, (double)m->index_end);
    case EXPR_COLON:
        diag_error(e->span, "':' alone is an index only, as in M(j, :)");
        return dae_const(t, 0);
    case EXPR_RECORD: {
        /* A variable's long form: its value. */
        for (int i = 0; i < e->u.record.n; i++)
            if (!strcmp(e->u.record.fields[i].name->name, "value"))
                return lower_expr(m, in, e->u.record.fields[i].value);
        return dae_const(t, 0);
    }
    default:
        return dae_const(t, 0);
    }
}
