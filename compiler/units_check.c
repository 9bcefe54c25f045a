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
 *
 * Arrays (issue 11): a vector or matrix has one unit for all its
 * elements, so dimensions are computed here without sizes (lower_array.c
 * checks the sizes); `zeros(...)`, like the literal 0, fits any unit; a
 * loop variable is a unitless number; the query of a tablelookup has the
 * unit of its grid, and the result the unit of its data.
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
    if (e->u.name.n == 1 && !e->u.name.parts[0].nindex
        && elab_env_find(in->env, e->u.name.parts[0].sym))
        return ok_dim(dim_none());
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

/* arrays: every element of a matrix, or every bound of a range, in one unit. */
static DimInfo same_unit_all(Model *m, ElabInst *in, AstExpr **items, int n, int depth,
                             const char *what)
{
    DimInfo r = ok_dim(dim_none());
    r.zero = true;
    bool first = true;
    for (int i = 0; i < n; i++) {
        if (!items[i])
            continue;
        DimInfo a = dim_of(m, in, items[i], depth);
        if (!a.ok)
            return failed();
        char x[64], y[64];
        if (!first && (a.is_bool != r.is_bool || (!a.is_bool && !same_dim(a, r)))) {
            diag_error(items[i]->span, "the elements of %s must have one unit: this "
                       "one is %s, the others %s", what,
                       a.is_bool ? "true/false" : dtext(a.dim, x),
                       r.is_bool ? "true/false" : dtext(r.dim, y));
            return failed();
        }
        if (first || r.zero) {
            bool z = r.zero && a.zero;
            r = a;
            r.zero = z;
        }
        first = false;
    }
    return r;
}

static DimInfo matrix_dim(Model *m, ElabInst *in, AstExpr *e, int depth)
{
    PtrVec all = {0};
    for (int i = 0; i < e->u.matrix.rows.n; i++) {
        PtrVec *row = e->u.matrix.rows.items[i];
        for (int j = 0; j < row->n; j++)
            ptrvec_push(m->arena, &all, row->items[j]);
    }
    return same_unit_all(m, in, (AstExpr **)all.items, all.n, depth, "a matrix");
}

/* tablelookup(x1d, fd, x1) and (x1d, x2d, fd, x1, x2): each query in its
   grid's unit; the value in the data's. */
static DimInfo table_dim(Model *m, ElabInst *in, AstExpr *e, AstExpr **a, int n, int depth)
{
    int axes = n == 5 ? 2 : 1;
    AstExpr *fd = a[axes];
    DimInfo f = dim_of(m, in, fd, depth);
    if (!f.ok)
        return failed();
    for (int k = 0; k < axes; k++) {
        DimInfo g = need_number(dim_of(m, in, a[k], depth), a[k], "tablelookup");
        DimInfo q = need_number(dim_of(m, in, a[axes + 1 + k], depth), a[axes + 1 + k],
                                "tablelookup");
        if (!g.ok || !q.ok)
            return failed();
        char x[64], y[64];
        if (!same_dim(g, q)) {
            diag_error(a[axes + 1 + k]->span, "the query x%d of tablelookup is in %s, "
                       "but its grid x%dd is in %s", k + 1, dtext(q.dim, x), k + 1,
                       dtext(g.dim, y));
            return failed();
        }
    }
    (void)e;
    DimInfo r = need_number(f, fd, "tablelookup");
    r.zero = false;
    return r;
}

static DimInfo array_call_dim(Model *m, ElabInst *in, AstExpr *e, int af, int depth)
{
    AstExpr *a[8];
    int n = ast_call_positional(e, a, 8);
    if (n < 1)
        return failed();
    switch (af) {
    case AF_NUMEL: case AF_SIZE: {
        DimInfo x = dim_of(m, in, a[0], depth);
        return x.ok ? ok_dim(dim_none()) : failed();
    }
    case AF_ZEROS: case AF_ONES: {
        DimInfo r = ok_dim(dim_none());
        r.zero = af == AF_ZEROS;
        return r;
    }
    case AF_TABLELOOKUP:
        return n == 3 || n == 5 ? table_dim(m, in, e, a, n, depth) : failed();
    default: { /* sum, and min and max of one vector */
        DimInfo x = need_number(dim_of(m, in, a[0], depth), a[0], e->u.call.func->name);
        x.zero = false;
        return x;
    }
    }
}

static DimInfo call_dim(Model *m, ElabInst *in, AstExpr *e, int depth)
{
    const char *f = e->u.call.func->name;
    int n = e->u.call.args.n;
    int af = array_func_find(f);
    int bk = builtin_find(f);
    if (af >= 0 || ((bk == FN_MIN || bk == FN_MAX) && n == 1))
        return array_call_dim(m, in, e, af, depth);
    if (n < 1)
        return failed();
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
    case OP_MUL: case OP_EMUL: return ranged(e, dim_mul(a.dim, b.dim));
    case OP_DIV: case OP_EDIV: return ranged(e, dim_div(a.dim, b.dim));
    case OP_POW: case OP_EPOW: {
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
    case EXPR_NAME: return name_dim(m, in, e, depth);
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
    case EXPR_MATRIX: return matrix_dim(m, in, e, depth + 1);
    case EXPR_RANGE: {
        AstExpr *bounds[3] = {e->u.range.first, e->u.range.step, e->u.range.last};
        DimInfo r = same_unit_all(m, in, bounds, 3, depth + 1, "a range");
        r.zero = false;
        return need_number(r, e, "a range");
    }
    case EXPR_OPTION: return ok_dim(dim_none());
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
    case STMT_FOR: {
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
    DimInfo want = static_dim(m, through->decl->value);
    if (want.ok && !dim_eq(want.dim, var->dim)) {
        char x[64], y[64];
        diag_error(b->var->span, "branch variable '%s' is in %s, but the through "
                   "variable '%s' of %s is in %s", var->m->name->name,
                   dtext(var->dim, x), through->name->name,
                   node->m->type->ast->name->name, dtext(want.dim, y));
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
        Sym *key = sym_cstr(arena_printf(m->arena, "%s/%s%s", in->def->ast->name->name,
                                         in->arm_key, in->def->has_arrays ? in->path : ""));
        if (ptrmap_get(&m->checked, key))
            continue;
        ptrmap_put(&m->checked, key, in);
        elab_each_section(m, in, check_section, NULL);
    }
}
