/*
 * units_check.c - pass 4: the unit check over the instance tree.
 *
 * Every active equation, branch, binding, intermediate and condition gets
 * a dimension (units.h) from its literals ({value, 'unit'}) and the
 * declared dimensions of the names it reads; both sides of an equation,
 * the operands of + - and comparisons, and the branches of an if must
 * agree, functions other than sqrt/abs/min/max take dimensionless
 * arguments, and a dimensioned quantity is raised only to a constant
 * integer power.  The literal 0 fits any unit.  Each component variant
 * (definition and arm pattern) is checked once, however often it is
 * instantiated.
 */
#include "units_check.h"

#include "diag.h"
#include "lower.h"

#include <math.h>
#include <string.h>

static RtUnit bad_unit; /* memo marker for a literal that failed to parse */

const RtUnit *units_literal(Model *m, AstExpr *q)
{
    RtUnit *u = ptrmap_get(&m->units_memo, q);
    if (u)
        return u == &bad_unit ? NULL : u;
    u = arena_alloc(m->arena, sizeof *u);
    char err[160];
    size_t pos = 0;
    if (rt_unit_parse(q->u.quantity.unit, u, err, sizeof err, &pos) != 0) {
        /* point into the string: past the opening quote */
        SrcSpan sp = q->u.quantity.unit_span;
        uint32_t at = sp.begin + 1 + (uint32_t)pos;
        SrcSpan p = {sp.file, at < sp.end ? at : sp.begin, sp.end > at + 1 ? sp.end - 1 : sp.end};
        diag_error(p, "%s", err);
        ptrmap_put(&m->units_memo, q, &bad_unit);
        return NULL;
    }
    ptrmap_put(&m->units_memo, q, u);
    return u;
}

/* The dimension of an expression and what kind of value it is. */
typedef struct DimInfo {
    Dim dim;        /* dimension of a number */
    bool is_bool;   /* true/false value */
    bool zero;      /* the literal 0, compatible with any unit */
    bool ok;        /* computed (false after an error) */
} DimInfo;

static DimInfo dim_of(Model *m, ElabInst *in, AstExpr *e, int depth);

static DimInfo ok_dim(Dim d)
{
    DimInfo r = {d, false, false, true};
    return r;
}

static DimInfo ok_bool(void)
{
    DimInfo r = {dim_none(), true, false, true};
    return r;
}

static DimInfo failed(void)
{
    DimInfo r = {dim_none(), false, false, false};
    return r;
}

static const char *dtext(Dim d, char *buf)
{
    return dim_text_msg(d, buf, 64);
}

/* Dimension of a declaration's value in a domain (no instance context):
   only literals can appear there. */
static DimInfo static_dim(Model *m, AstExpr *e)
{
    AstExpr *v = e;
    if (e->kind == EXPR_RECORD)
        for (int i = 0; i < e->u.record.n; i++)
            if (!strcmp(e->u.record.fields[i].name->name, "value"))
                v = e->u.record.fields[i].value;
    if (v->kind == EXPR_QUANTITY) {
        const RtUnit *u = units_literal(m, v);
        if (!u)
            return failed();
        Dim d;
        memcpy(d.e, u->dim, sizeof d.e);
        return ok_dim(d);
    }
    if (v->kind == EXPR_BOOL)
        return ok_bool();
    return ok_dim(dim_none());
}

static DimInfo name_dim(Model *m, ElabInst *in, AstExpr *e, int depth)
{
    if (e->u.name.n == 1 && !elab_slot(in, e->u.name.parts[0].sym)
        && !strcmp(e->u.name.parts[0].sym->name, "pi"))
        return ok_dim(dim_none());
    ElabInst *owner = in;
    SemaMember *nm = NULL;
    ElabSlot *s = lower_resolve(m, in, e, &owner, &nm);
    if (!s)
        return failed();
    switch (s->m->kind) {
    case MEM_PARAMETER: case MEM_VARIABLE: case MEM_OUTPUT: case MEM_INPUT:
    case MEM_ACROSS: case MEM_THROUGH: {
        DimInfo r = {s->dim, s->is_bool, false, true};
        return r;
    }
    case MEM_INTERMEDIATE:
        return dim_of(m, owner, s->m->decl->value, depth + 1);
    case MEM_NODE:
        if (!nm || !nm->decl)
            return failed();
        return static_dim(m, nm->decl->value);
    default:
        return failed();
    }
}

/* A computed dimension, refused at e when an exponent leaves the range. */
static DimInfo ranged(AstExpr *e, Dim d)
{
    int k = 0;
    if (!dim_in_range(d, &k)) {
        diag_error(e->span, "the unit of this expression would have %s^%d: unit "
                   "exponents are limited to -%d..%d", rt_unit_base(k), d.e[k],
                   RT_DIM_MAX, RT_DIM_MAX);
        return failed();
    }
    return ok_dim(d);
}

static bool same_dim(DimInfo a, DimInfo b)
{
    return a.zero || b.zero || dim_eq(a.dim, b.dim);
}

static DimInfo need_number(DimInfo a, AstExpr *e, const char *what)
{
    if (a.ok && a.is_bool) {
        diag_error(e->span, "%s needs a number, but this is true/false", what);
        return failed();
    }
    return a;
}

static DimInfo need_bool(DimInfo a, AstExpr *e, const char *what)
{
    if (a.ok && !a.is_bool) {
        diag_error(e->span, "%s needs true/false, but this is a number", what);
        return failed();
    }
    return a;
}

/* delay(u, tau, ...): u's unit; tau and MaximumDelay in time, History
   in u's unit (issue 12). */
static DimInfo delay_dim(Model *m, ElabInst *in, AstExpr *e, int depth)
{
    char x[64], y[64];
    Dim s = dim_none();
    s.e[2] = 1;
    DimInfo u = failed();
    int np = 0;
    for (int i = 0; i < e->u.call.args.n; i++) {
        AstExpr *a = e->u.call.args.items[i];
        bool named = a->kind == EXPR_RECORD && a->u.record.n == 1;
        AstExpr *v = named ? a->u.record.fields[0].value : a;
        DimInfo d = need_number(dim_of(m, in, v, depth), v, "delay");
        if (!d.ok)
            return failed();
        bool is_time = named ? !strcmp(a->u.record.fields[0].name->name, "MaximumDelay")
                             : np == 1;
        if (!named && np++ == 0) {
            u = d;
            continue;
        }
        if (is_time && !d.zero && !dim_eq(d.dim, s)) {
            diag_error(v->span, "%s is a time, but this is %s",
                       named ? "delay's MaximumDelay" : "delay's tau", dtext(d.dim, x));
            return failed();
        }
        if (!is_time && u.ok && !d.zero && !same_dim(u, d)) {
            diag_error(v->span, "delay's History has u's unit, %s, but this is %s",
                       dtext(u.dim, x), dtext(d.dim, y));
            return failed();
        }
    }
    return u;
}

static DimInfo call_dim(Model *m, ElabInst *in, AstExpr *e, int depth)
{
    const char *f = e->u.call.func->name;
    int n = e->u.call.args.n;
    if (n < 1)
        return failed();
    if (!strcmp(f, "delay"))
        return delay_dim(m, in, e, depth);
    if (!strcmp(f, "edge")) {
        AstExpr *b = e->u.call.args.items[0];
        return need_bool(dim_of(m, in, b, depth), b, "edge").ok ? ok_bool() : failed();
    }
    AstExpr *a0 = e->u.call.args.items[0];
    DimInfo a = need_number(dim_of(m, in, a0, depth), a0, f);
    DimInfo b = a;
    AstExpr *a1 = n > 1 ? e->u.call.args.items[1] : NULL;
    if (a1)
        b = need_number(dim_of(m, in, a1, depth), a1, f);
    if (!a.ok || !b.ok)
        return failed();
    char x[64], y[64];
    int k = builtin_find(f);
    BuiltinUnits rule = k >= 0 ? builtin_units[k] : BU_DIMLESS;
    if (rule == BU_SAME)
        return ok_dim(a.dim);
    if (rule == BU_SIGN)
        return ok_dim(dim_none());
    if (rule == BU_MATCH || rule == BU_MATCH_NONE) {
        if (!same_dim(a, b)) {
            diag_error(e->span, "the arguments of %s have different units: %s vs %s",
                       f, dtext(a.dim, x), dtext(b.dim, y));
            return failed();
        }
        return ok_dim(rule == BU_MATCH_NONE ? dim_none() : a.zero ? b.dim : a.dim);
    }
    if (rule == BU_SQRT) {
        Dim h = a.dim;
        for (int i = 0; i < RT_DIM_COUNT; i++) {
            if (a.dim.e[i] % 2) {
                diag_error(a0->span, "the square root of a quantity in %s has no "
                           "unit with integer powers", dtext(a.dim, x));
                return failed();
            }
            h.e[i] = (short)(a.dim.e[i] / 2);
        }
        return ok_dim(h);
    }
    if (!dim_is_none(a.dim)) {
        diag_error(a0->span, "the argument of %s must be dimensionless, but it is in %s",
                   f, dtext(a.dim, x));
        return failed();
    }
    return ok_dim(dim_none());
}

static DimInfo binary_dim(Model *m, ElabInst *in, AstExpr *e, int depth)
{
    AstOp op = e->u.binary.op;
    AstExpr *l = e->u.binary.lhs, *r = e->u.binary.rhs;
    DimInfo a = dim_of(m, in, l, depth), b = dim_of(m, in, r, depth);
    if (!a.ok || !b.ok)
        return failed();
    char x[64], y[64];
    const char *opname = ast_op_names[op];
    switch (op) {
    case OP_OR: case OP_AND:
        if (!need_bool(a, l, opname).ok || !need_bool(b, r, opname).ok)
            return failed();
        return ok_bool();
    case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
        if (a.is_bool != b.is_bool) {
            diag_error(e->span, "'%s' compares a number with true/false", opname);
            return failed();
        }
        if (!a.is_bool && !same_dim(a, b)) {
            diag_error(e->span, "the two sides of this comparison have different "
                       "units: %s (left) vs %s (right)", dtext(a.dim, x), dtext(b.dim, y));
            return failed();
        }
        return ok_bool();
    default:
        break;
    }
    if (!need_number(a, l, opname).ok || !need_number(b, r, opname).ok)
        return failed();
    switch (op) {
    case OP_ADD: case OP_SUB: {
        if (!same_dim(a, b)) {
            diag_error(e->span, "the operands of '%s' have different units: %s "
                       "(left) vs %s (right)", opname, dtext(a.dim, x), dtext(b.dim, y));
            return failed();
        }
        DimInfo res = ok_dim(a.zero ? b.dim : a.dim);
        res.zero = a.zero && b.zero;
        return res;
    }
    case OP_MUL: return ranged(e, dim_mul(a.dim, b.dim));
    case OP_DIV: return ranged(e, dim_div(a.dim, b.dim));
    case OP_POW: {
        if (!dim_is_none(b.dim)) {
            diag_error(r->span, "an exponent must be dimensionless, but this one is in %s",
                       dtext(b.dim, y));
            return failed();
        }
        if (dim_is_none(a.dim))
            return ok_dim(dim_none());
        DaeExpr *pe = lower_expr(m, in, r);
        double v = dae_eval_params(pe, elab_param_values(m));
        if (!(v == floor(v))) {
            diag_error(r->span, "a quantity in %s can only be raised to a constant "
                       "integer power", dtext(a.dim, x));
            return failed();
        }
        if (fabs(v) > RT_DIM_MAX) {
            /* a.dim is not none, so some exponent would pass the limit */
            diag_error(r->span, "raising a quantity in %s to the power %.17g is out "
                       "of range: unit exponents are limited to -%d..%d",
                       dtext(a.dim, x), v, RT_DIM_MAX, RT_DIM_MAX);
            return failed();
        }
        return ranged(e, dim_pow(a.dim, (int)v));
    }
    default:
        return failed();
    }
}

static DimInfo dim_of(Model *m, ElabInst *in, AstExpr *e, int depth)
{
    if (depth > 200)
        return failed();
    char x[64], y[64];
    switch (e->kind) {
    case EXPR_NUM: {
        DimInfo r = ok_dim(dim_none());
        r.zero = e->u.num.value == 0;
        return r;
    }
    case EXPR_BOOL: return ok_bool();
    case EXPR_TIME: {
        Dim s = dim_none();
        s.e[2] = 1;
        return ok_dim(s);
    }
    case EXPR_NAME:
        if (e->u.name.n == 1 && !elab_slot(in, e->u.name.parts[0].sym)
            && !strcmp(e->u.name.parts[0].sym->name, "initialevent"))
            return ok_bool();
        return name_dim(m, in, e, depth);
    case EXPR_DER: {
        DimInfo a = need_number(dim_of(m, in, e->u.der.arg, depth + 1), e->u.der.arg, "der");
        if (!a.ok)
            return a;
        Dim s = dim_none();
        s.e[2] = 1;
        return ranged(e, dim_div(a.dim, s));
    }
    case EXPR_CALL: return call_dim(m, in, e, depth + 1);
    case EXPR_UNARY: {
        DimInfo a = dim_of(m, in, e->u.unary.arg, depth + 1);
        if (e->u.unary.op == OP_NOT)
            return need_bool(a, e->u.unary.arg, "'~'").ok ? ok_bool() : failed();
        return need_number(a, e->u.unary.arg, "'-'");
    }
    case EXPR_BINARY: return binary_dim(m, in, e, depth + 1);
    case EXPR_IF: {
        DimInfo c = need_bool(dim_of(m, in, e->u.cond.cond, depth + 1), e->u.cond.cond,
                              "an if condition");
        DimInfo a = dim_of(m, in, e->u.cond.then, depth + 1);
        DimInfo b = dim_of(m, in, e->u.cond.els, depth + 1);
        if (!c.ok || !a.ok || !b.ok)
            return failed();
        if (a.is_bool != b.is_bool || (!a.is_bool && !same_dim(a, b))) {
            diag_error(e->span, "the branches of this if-expression have different "
                       "units: %s vs %s", a.is_bool ? "true/false" : dtext(a.dim, x),
                       b.is_bool ? "true/false" : dtext(b.dim, y));
            return failed();
        }
        DimInfo r = a.zero ? b : a;
        r.zero = a.zero && b.zero;
        return r;
    }
    case EXPR_QUANTITY: {
        DimInfo v = dim_of(m, in, e->u.quantity.value, depth + 1);
        const RtUnit *u = units_literal(m, e);
        if (!u || !v.ok)
            return failed();
        if (v.is_bool || !dim_is_none(v.dim)) {
            diag_error(e->u.quantity.value->span, "the number in {value, 'unit'} "
                       "must be dimensionless");
            return failed();
        }
        Dim d;
        memcpy(d.e, u->dim, sizeof d.e);
        DimInfo r = ok_dim(d);
        r.zero = v.zero;
        return r;
    }
    case EXPR_RECORD:
        for (int i = 0; i < e->u.record.n; i++)
            if (!strcmp(e->u.record.fields[i].name->name, "value"))
                return dim_of(m, in, e->u.record.fields[i].value, depth + 1);
        return ok_dim(dim_none());
    default:
        return failed();
    }
}

bool units_dim(Model *m, ElabInst *in, AstExpr *e, Dim *out, bool *is_bool)
{
    DimInfo r = dim_of(m, in, e, 0);
    *out = r.dim;
    *is_bool = r.is_bool;
    return r.ok;
}

/* ---- checking the active equations -------------------------------------- */

static void check_stmts(Model *m, ElabInst *in, PtrVec *v);

static void check_equation(Model *m, ElabInst *in, AstStmt *s)
{
    DimInfo a = dim_of(m, in, s->u.eq.lhs, 0), b = dim_of(m, in, s->u.eq.rhs, 0);
    if (!a.ok || !b.ok)
        return;
    char x[64], y[64];
    if (a.is_bool || b.is_bool) {
        diag_error(s->span, "an equation relates numbers; this one has a "
                   "true/false side (use an if-equation for conditions)");
        return;
    }
    if (!same_dim(a, b))
        diag_error(s->span, "the two sides of this equation have different units: "
                   "%s (left) vs %s (right)", dtext(a.dim, x), dtext(b.dim, y));
}

static void check_stmt(Model *m, ElabInst *in, AstStmt *s)
{
    switch (s->kind) {
    case STMT_EQUATION:
        check_equation(m, in, s);
        break;
    case STMT_ASSERT:
        need_bool(dim_of(m, in, s->u.assert_.cond, 0), s->u.assert_.cond,
                  "an assert condition");
        break;
    case STMT_IF:
        for (int i = 0; i < s->u.if_.clauses.n; i++) {
            AstClause *c = s->u.if_.clauses.items[i];
            if (c->cond)
                need_bool(dim_of(m, in, c->cond, 0), c->cond, "an if condition");
            check_stmts(m, in, &c->body);
        }
        break;
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
    DimInfo want = static_dim(m, through->decl->value);
    if (want.ok && !dim_eq(want.dim, var->dim)) {
        char x[64], y[64];
        diag_error(b->var->span, "branch variable '%s' is in %s, but the through "
                   "variable '%s' of %s is in %s", var->m->name->name,
                   dtext(var->dim, x), through->name->name,
                   node->m->type->ast->name->name, dtext(want.dim, y));
    }
}

/* Event assignments NAME = expr: the value has the variable's unit
   (issue 12). */
static void check_assigns(Model *m, ElabInst *in, PtrVec *v)
{
    char x[64], y[64];
    for (int i = 0; i < v->n; i++) {
        AstDecl *a = v->items[i];
        ElabSlot *s = a ? elab_slot(in, a->name) : NULL;
        if (!s || !s->active)
            continue;
        DimInfo d = dim_of(m, in, a->value, 0);
        if (!d.ok)
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
                need_bool(dim_of(m, in, c->cond, 0), c->cond, "a when predicate");
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
                    need_bool(dim_of(m, in, t->pred, 0), t->pred,
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
        for (int i = 0; i < v->n; i++) {
            AstDecl *d = v->items[i];
            dim_of(m, in, d->value, 0);
        }
        break;
    default:
        break;
    }
}

void units_check(Model *m)
{
    for (int i = 0; i < m->insts.n; i++) {
        ElabInst *in = m->insts.items[i];
        Sym *key = sym_cstr(arena_printf(m->arena, "%s/%s", in->def->ast->name->name,
                                         in->arm_key));
        if (ptrmap_get(&m->checked, key))
            continue;
        ptrmap_put(&m->checked, key, in);
        elab_each_section(m, in, check_section, NULL);
    }
}
