/*
 * units_dim.c - the dimension of an expression read in an instance's
 * context: from its literals ({value, 'unit'}) and the dimensions of the
 * names it reads.  Both sides of + - and comparisons and the branches of
 * an if must agree, functions other than sqrt/abs/min/max take
 * dimensionless arguments, and a dimensioned quantity is raised only to a
 * constant power in twelfths (x^2, m^0.5, (m^2)^0.5): unit exponents are
 * whole numbers of twelfths (rt_units.h).
 * The literal 0 fits any unit.
 *
 * Arrays: a vector or matrix has one unit for all its elements, so
 * dimensions are computed here without sizes (elab/lower_array.c checks
 * the sizes); `zeros(...)`, like the literal 0, fits any unit; a loop
 * variable is a unitless number; the query of a tablelookup has the unit
 * of its grid, and the result the unit of its data.
 *
 * A user function's body is checked with its arguments' dimensions at
 * each call (like Simscape's untyped functions), and a successful check
 * is remembered per function and argument dimensions (Model.fn_dims).
 */
#include "units_internal.h"

#include "bounds.h"

#include <math.h>
#include <string.h>

static void bind_unit(Model *m, Sym *name, DimInfo d)
{
    UnitLocal *l = arena_alloc(m->arena, sizeof *l);
    l->name = name;
    l->dim = d;
    l->up = m->ulocals;
    m->ulocals = l;
}

/* The dimension of a local name: from the unit check's own bindings, or,
   when lowering asks (integ() in a let), from the definitions lowering
   has bound.  False when e is not a local. */
static bool local_dim(Model *m, AstExpr *e, int depth, DimInfo *out)
{
    if (e->u.name.n != 1)
        return false;
    Sym *name = e->u.name.parts[0].sym;
    for (UnitLocal *l = m->ulocals; l; l = l->up) {
        if (!l->name) {
            *out = ud_ok_dim(dim_none()); /* pi: resolution allows nothing else */
            return true;
        }
        if (l->name == name) {
            *out = l->dim;
            return true;
        }
    }
    if (m->ulocals)
        return false;
    for (ElabLocal *l = m->locals; l; l = l->up) {
        if (!l->name || (l->name == name && !l->decl)) {
            *out = ud_failed();
            return true;
        }
        if (l->name == name) {
            ElabLocal *saved = m->locals;
            m->locals = l->up;
            *out = ud_decl_dim(m, l->in, l->decl, depth + 1);
            m->locals = saved;
            return true;
        }
    }
    return false;
}


const char *ud_text(Dim d, char *buf)
{
    return dim_text_msg(d, buf, 64);
}

/* Dimension of a declaration's value in a domain (no instance context):
   only literals can appear there. */
DimInfo ud_static_dim(Model *m, AstExpr *e)
{
    AstExpr *v = e;
    if (e->kind == EXPR_RECORD)
        for (int i = 0; i < e->u.record.n; i++)
            if (!strcmp(e->u.record.fields[i].name->name, "value"))
                v = e->u.record.fields[i].value;
    if (v->kind == EXPR_QUANTITY) {
        const RtUnit *u = elab_literal_unit(m, v);
        if (!u)
            return ud_failed();
        Dim d;
        memcpy(d.e, u->dim, sizeof d.e);
        return ud_ok_dim(d);
    }
    if (v->kind == EXPR_BOOL)
        return ud_ok_bool();
    return ud_ok_dim(dim_none());
}

static DimInfo name_dim(Model *m, ElabInst *in, AstExpr *e, int depth)
{
    DimInfo local;
    if (local_dim(m, e, depth, &local))
        return local;
    if (e->u.name.n == 1 && !e->u.name.parts[0].nindex
        && elab_env_find(in->env, e->u.name.parts[0].sym))
        return ud_ok_dim(dim_none());
    if (e->u.name.n == 1 && !elab_slot(in, e->u.name.parts[0].sym)
        && builtin_constant(e->u.name.parts[0].sym->name, NULL))
        return ud_ok_dim(dim_none());
    ElabInst *owner = in;
    SemaMember *nm = NULL;
    ElabSlot *s = lower_resolve(m, in, e, &owner, &nm);
    if (!s)
        return ud_failed();
    switch (s->m->kind) {
    case MEM_PARAMETER: case MEM_VARIABLE: case MEM_OUTPUT: case MEM_INPUT:
    case MEM_ACROSS: case MEM_THROUGH:
        return ud_slot_info(m, owner, s, depth);
    case MEM_INTERMEDIATE: {
        /* the intermediate is outside any let or function it is used in */
        UnitLocal *saved = m->ulocals;
        ElabLocal *lsaved = m->locals;
        m->ulocals = NULL;
        m->locals = NULL;
        DimInfo r = ud_decl_dim(m, owner, s->m->decl, depth + 1);
        m->ulocals = saved;
        m->locals = lsaved;
        return r;
    }
    case MEM_NODE:
        if (!nm || !nm->decl)
            return ud_failed();
        return ud_static_dim(m, nm->decl->value);
    default:
        return ud_failed();
    }
}

/* A computed dimension, refused at e when an exponent leaves the range. */
DimInfo ud_ranged(AstExpr *e, Dim d)
{
    int k = 0;
    if (!dim_in_range(d, &k)) {
        diag_error(e->span, "the unit of this expression would have %s^%g: unit "
                   "exponents are limited to -%d..%d", rt_unit_base(k),
                   (double)d.e[k] / RT_DIM_DEN, RT_DIM_MAX, RT_DIM_MAX);
        return ud_failed();
    }
    return ud_ok_dim(d);
}

bool ud_same_dim(DimInfo a, DimInfo b)
{
    return a.zero || b.zero || dim_eq(a.dim, b.dim);
}

DimInfo ud_need_number(DimInfo a, AstExpr *e, const char *what)
{
    if (a.ok && a.is_bool) {
        diag_error(e->span, "%s needs a number, but this is true/false", what);
        return ud_failed();
    }
    return a;
}

DimInfo ud_need_bool(DimInfo a, AstExpr *e, const char *what)
{
    if (a.ok && !a.is_bool) {
        diag_error(e->span, "%s needs true/false, but this is a number", what);
        return ud_failed();
    }
    return a;
}

/* delay(u, tau, ...): u's unit; tau and MaximumDelay in time, History
   in u's unit. */
static DimInfo delay_dim(Model *m, ElabInst *in, AstExpr *e, int depth)
{
    char x[64], y[64];
    Dim s = dim_none();
    s.e[2] = RT_DIM_DEN;
    DimInfo u = ud_failed();
    int np = 0;
    for (int i = 0; i < e->u.call.args.n; i++) {
        AstExpr *a = e->u.call.args.items[i];
        bool named = a->kind == EXPR_OPTION;
        AstExpr *v = named ? a->u.option.value : a;
        DimInfo d = ud_need_number(ud_dim_of(m, in, v, depth), v, "delay");
        if (!d.ok)
            return ud_failed();
        bool is_time = named ? !strcmp(a->u.option.name->name, "MaximumDelay") : np == 1;
        if (!named && np++ == 0) {
            u = d;
            continue;
        }
        if (d.unknown)
            continue;   /* checked once the unit is inferred */
        if (is_time && !d.zero && !dim_eq(d.dim, s)) {
            diag_error(v->span, "%s is a time, but this is %s",
                       named ? "delay's MaximumDelay" : "delay's tau", ud_text(d.dim, x));
            return ud_failed();
        }
        if (!is_time && u.ok && !u.unknown && !d.zero && !ud_same_dim(u, d)) {
            diag_error(v->span, "delay's History has u's unit, %s, but this is %s",
                       ud_text(u.dim, x), ud_text(d.dim, y));
            return ud_failed();
        }
    }
    return u;
}

static DimInfo same_unit_all(Model *m, ElabInst *in, AstExpr **items, int n, int depth,
                             const char *what);

/* value(x, 'unit') is dimensionless, x in that unit's dimension;
   integ(e) has e's unit times s; edge(b) is true/false, b too; delay(...)
   has u's unit. */
static DimInfo special_dim(Model *m, ElabInst *in, AstExpr *e, int sf, int depth)
{
    AstExpr *a0 = e->u.call.args.items[0];
    if (sf == SF_DELAY)
        return delay_dim(m, in, e, depth);
    if (sf == SF_BLEND) {
        /* y1 and y2 of one unit, the value's; x1, x2 and x of another */
        AstExpr **g = (AstExpr **)e->u.call.args.items;
        DimInfo y = same_unit_all(m, in, g, 2, depth + 1, "the values blended");
        DimInfo x = same_unit_all(m, in, g + 2, 3, depth + 1, "the blend's abscissas");
        if (!y.ok || !x.ok)
            return ud_failed();
        return ud_need_number(y, a0, "blend");
    }
    if (sf == SF_LIMIT) {
        /* x and its limits of one unit, the value's; smoothing a flag */
        AstExpr **g = (AstExpr **)e->u.call.args.items;
        DimInfo x = same_unit_all(m, in, g, 3, depth + 1, "the value and its limits");
        if (!x.ok)
            return ud_failed();
        return ud_need_number(x, a0, "limit");
    }
    if (sf == SF_EDGE)
        return ud_need_bool(ud_dim_of(m, in, a0, depth), a0, "edge").ok ? ud_ok_bool() : ud_failed();
    DimInfo a = ud_need_number(ud_dim_of(m, in, a0, depth), a0, special_names[sf]);
    if (!a.ok)
        return a;
    if (a.unknown)
        return sf == SF_INTEG ? a : ud_ok_dim(dim_none());
    if (sf == SF_INTEG) {
        Dim s = dim_none();
        s.e[2] = RT_DIM_DEN;
        return ud_ranged(e, dim_mul(a.dim, s));
    }
    double offset;
    const RtUnit *u = elab_value_unit(m, e, &offset);
    if (!u)
        return ud_failed();
    Dim d;
    memcpy(d.e, u->dim, sizeof d.e);
    if (!a.zero && !dim_eq(a.dim, d)) {
        char x[64], y[64];
        AstExpr *str = e->u.call.args.items[1];
        diag_error(e->span, "value() cannot give a quantity in %s in '%s', a "
                   "unit of %s", ud_text(a.dim, x), str->u.str, ud_text(d, y));
        return ud_failed();
    }
    return ud_ok_dim(dim_none());
}

/* "in m" or "dimensionless" or "true/false", for the note of a call. */
static const char *dim_words(DimInfo d, char *buf, size_t len)
{
    if (d.is_bool)
        return "true/false";
    if (d.zero)
        return "0";
    return dim_phrase(d.dim, buf, len);
}


/* Output k of a call of a user function: its body is checked with the
   dimensions of the arguments (like Simscape's untyped functions), errors
   reported at the call with a note in the body; a successful check is
   remembered per function and argument dimensions. */
static DimInfo function_dim(Model *m, ElabInst *in, AstExpr *call, int k, int depth)
{
    AstDef *f = call->u.call.fn->ast;
    int n = f->inputs.n;
    if (call->u.call.args.n != n || k >= f->outputs.n)
        return ud_failed(); /* resolution reported it */
    if (m->fn_depth >= LIMIT_INLINE_DEPTH) {
        diag_error(call->span, "calls of user functions are inlined at most %d deep "
                   "(the limit of inlining, docs/language.md, \"Limits\"); this call "
                   "of '%s' is deeper", LIMIT_INLINE_DEPTH, f->name->name);
        return ud_failed();
    }
    DimInfo *args = arena_alloc(m->arena, sizeof(DimInfo) * (size_t)(n + 1));
    char key[1024], where[512];
    size_t klen = (size_t)snprintf(key, sizeof key, "%p/%d", (void *)f, k);
    size_t wlen = (size_t)snprintf(where, sizeof where, "function '%s'", f->name->name);
    for (int i = 0; i < n; i++) {
        args[i] = ud_dim_of(m, in, call->u.call.args.items[i], depth + 1);
        if (!args[i].ok)
            return ud_failed();
        if (args[i].unknown)
            return ud_unknown(); /* checked once the unit is inferred */
        char u[64], w[80];
        Sym *a = ((AstIdent *)f->inputs.items[i])->sym;
        if (klen < sizeof key)
            klen += (size_t)snprintf(key + klen, sizeof key - klen, "/%s%d%d",
                                     dim_text(args[i].dim, u, sizeof u), args[i].is_bool,
                                     args[i].zero);
        if (wlen < sizeof where)
            wlen += (size_t)snprintf(where + wlen, sizeof where - wlen, "%s %s %s",
                                     i ? "," : ", with", a->name,
                                     strcmp(dim_words(args[i], w, sizeof w), "0")
                                         ? dim_words(args[i], w, sizeof w) : "= 0");
    }
    Sym *memo = sym_cstr(key);
    DimInfo *known = ptrmap_get(&m->fn_dims, memo);
    if (known)
        return *known;
    UnitLocal *saved = m->ulocals;
    bind_unit(m, NULL, ud_failed());
    for (int i = 0; i < n; i++)
        bind_unit(m, ((AstIdent *)f->inputs.items[i])->sym, args[i]);
    int errors = diag_error_count();
    diag_push_context(call->span, f->name->name, "%s", where);
    m->fn_depth++;
    DimInfo r = ud_local_defs_dims(m, in, &f->defs, depth);
    m->fn_depth--;
    diag_pop_context();
    if (r.ok) {
        r = ud_failed();
        Sym *o = ((AstIdent *)f->outputs.items[k])->sym;
        for (UnitLocal *l = m->ulocals; l && l->name; l = l->up)
            if (l->name == o) {
                r = l->dim;
                break;
            }
    }
    m->ulocals = saved;
    /* remembered, a failure too (reported once, at the first call with
       these units): calls that double at each level stay linear */
    if (!r.unknown) {
        DimInfo *keep = arena_alloc(m->arena, sizeof *keep);
        *keep = diag_error_count() == errors ? r : ud_failed();
        ptrmap_put(&m->fn_dims, memo, keep);
    }
    return r;
}

/* arrays: every element of a matrix, or every bound of a range, in one unit. */
static DimInfo same_unit_all(Model *m, ElabInst *in, AstExpr **items, int n, int depth,
                             const char *what)
{
    DimInfo r = ud_ok_dim(dim_none());
    r.zero = true;
    bool first = true;
    for (int i = 0; i < n; i++) {
        if (!items[i])
            continue;
        DimInfo a = ud_dim_of(m, in, items[i], depth);
        if (!a.ok)
            return ud_failed();
        char x[64], y[64];
        if (!first && (a.is_bool != r.is_bool || (!a.is_bool && !ud_same_dim(a, r)))) {
            diag_error(items[i]->span, "the elements of %s must have one unit: this "
                       "one is %s, the others %s", what,
                       a.is_bool ? "true/false" : ud_text(a.dim, x),
                       r.is_bool ? "true/false" : ud_text(r.dim, y));
            return ud_failed();
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

DimInfo ud_decl_dim(Model *m, ElabInst *in, AstDecl *d, int depth)
{
    if (d->output < 0)
        return ud_dim_of(m, in, d->value, depth);
    AstExpr *call = d->value;
    if (call->kind != EXPR_CALL || !call->u.call.fn)
        return ud_failed();
    return function_dim(m, in, call, d->output, depth);
}

/* Binds local definitions in order on m->ulocals (the caller restores
   it); not ok when one of them failed. */
DimInfo ud_local_defs_dims(Model *m, ElabInst *in, PtrVec *defs, int depth)
{
    DimInfo all = ud_ok_dim(dim_none());
    for (int i = 0; i < defs->n; i++) {
        AstDecl *d = defs->items[i];
        DimInfo r = ud_decl_dim(m, in, d, depth + 1);
        if (!r.ok)
            all = ud_failed();
        bind_unit(m, d->name, r);
    }
    return all;
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
    DimInfo f = ud_dim_of(m, in, fd, depth);
    if (!f.ok)
        return ud_failed();
    for (int k = 0; k < axes; k++) {
        DimInfo g = ud_need_number(ud_dim_of(m, in, a[k], depth), a[k], "tablelookup");
        DimInfo q = ud_need_number(ud_dim_of(m, in, a[axes + 1 + k], depth), a[axes + 1 + k],
                                "tablelookup");
        if (!g.ok || !q.ok)
            return ud_failed();
        char x[64], y[64];
        if (!ud_same_dim(g, q)) {
            diag_error(a[axes + 1 + k]->span, "the query x%d of tablelookup is in %s, "
                       "but its grid x%dd is in %s", k + 1, ud_text(q.dim, x), k + 1,
                       ud_text(g.dim, y));
            return ud_failed();
        }
    }
    (void)e;
    DimInfo r = ud_need_number(f, fd, "tablelookup");
    r.zero = false;
    return r;
}

static DimInfo array_call_dim(Model *m, ElabInst *in, AstExpr *e, int af, int depth)
{
    AstExpr *a[8];
    int n = ast_call_positional(e, a, 8);
    if (n < 1)
        return ud_failed();
    const char *f = e->u.call.func->name;
    switch (af < 0 ? AU_SAME : array_func_units[af]) {
    case AU_COUNT: {
        DimInfo x = ud_dim_of(m, in, a[0], depth);
        return x.ok ? ud_ok_dim(dim_none()) : ud_failed();
    }
    case AU_FILL: {
        DimInfo r = ud_ok_dim(dim_none());
        r.zero = af == AF_ZEROS;
        return r;
    }
    case AU_TABLE:
        return n == 3 || n == 5 ? table_dim(m, in, e, a, n, depth) : ud_failed();
    case AU_TEST: {
        DimInfo x = ud_dim_of(m, in, a[0], depth);
        return x.ok ? ud_ok_bool() : ud_failed();
    }
    case AU_DIMLESS: {
        DimInfo x = ud_need_number(ud_dim_of(m, in, a[0], depth), a[0], f);
        if (x.ok && !x.unknown && !dim_is_none(x.dim)) {
            char t[64];
            diag_error(a[0]->span, "the argument of %s must be dimensionless (the unit "
                       "of a product of n elements depends on n), but it is in %s", f,
                       ud_text(x.dim, t));
            return ud_failed();
        }
        return x.ok ? ud_ok_dim(dim_none()) : x;
    }
    case AU_MATCH: {
        if (n < 2)
            return ud_failed();
        DimInfo r = same_unit_all(m, in, a, 2, depth + 1, f);
        r.zero = false;
        return ud_need_number(r, a[0], f);
    }
    case AU_PRODUCT: {
        if (n < 2)
            return ud_failed();
        DimInfo x = ud_need_number(ud_dim_of(m, in, a[0], depth), a[0], f);
        DimInfo y = ud_need_number(ud_dim_of(m, in, a[1], depth), a[1], f);
        if (!x.ok || !y.ok)
            return ud_failed();
        if (x.unknown || y.unknown)
            return ud_unknown();
        return ud_ranged(e, dim_mul(x.dim, y.dim));
    }
    default: { /* the first argument's unit: sum, and min and max of one vector */
        DimInfo x = ud_need_number(ud_dim_of(m, in, a[0], depth), a[0], f);
        x.zero = false;
        return x;
    }
    }
}

static DimInfo call_dim(Model *m, ElabInst *in, AstExpr *e, int depth)
{
    const char *f = e->u.call.func->name;
    int n = e->u.call.args.n;
    if (e->u.call.fn)
        return function_dim(m, in, e, 0, depth);
    int sf = e->u.call.qual ? -1 : special_find(f);
    if (sf >= 0)
        return n > 0 ? special_dim(m, in, e, sf, depth) : ud_failed();
    int af = array_func_find(f);
    int bk = builtin_find(f);
    if (af >= 0 || ((bk == FN_MIN || bk == FN_MAX) && n == 1))
        return array_call_dim(m, in, e, af, depth);
    if (n < 1)
        return ud_failed();
    AstExpr *a0 = e->u.call.args.items[0];
    DimInfo a = ud_need_number(ud_dim_of(m, in, a0, depth), a0, f);
    DimInfo b = a;
    AstExpr *a1 = n > 1 ? e->u.call.args.items[1] : NULL;
    if (a1)
        b = ud_need_number(ud_dim_of(m, in, a1, depth), a1, f);
    if (!a.ok || !b.ok)
        return ud_failed();
    char x[64], y[64];
    int k = builtin_find(f);
    BuiltinUnits rule = k >= 0 ? builtin_units[k] : BU_DIMLESS;
    if (a.unknown || b.unknown) {
        if (rule == BU_TEST)
            return ud_ok_bool();
        if (rule == BU_DIMLESS || rule == BU_SIGN || rule == BU_MATCH_NONE)
            return ud_ok_dim(dim_none());
        return rule == BU_MATCH && !a.unknown ? a : rule == BU_MATCH && !b.unknown
                                                        ? b : ud_unknown();
    }
    if (rule == BU_SAME)
        return ud_ok_dim(a.dim);
    if (rule == BU_TEST)
        return ud_ok_bool();
    if (rule == BU_SIGN)
        return ud_ok_dim(dim_none());
    if (rule == BU_MATCH || rule == BU_MATCH_NONE) {
        if (!ud_same_dim(a, b)) {
            diag_error(e->span, "the arguments of %s have different units: %s vs %s",
                       f, ud_text(a.dim, x), ud_text(b.dim, y));
            return ud_failed();
        }
        return ud_ok_dim(rule == BU_MATCH_NONE ? dim_none() : a.zero ? b.dim : a.dim);
    }
    if (rule == BU_SQRT) {
        Dim h = a.dim;
        for (int i = 0; i < RT_DIM_COUNT; i++) {
            if (a.dim.e[i] % 2) {
                diag_error(a0->span, "the square root of a quantity in %s has no "
                           "unit: its powers would be finer than twelfths",
                           ud_text(a.dim, x));
                return ud_failed();
            }
            h.e[i] = (short)(a.dim.e[i] / 2);
        }
        return ud_ok_dim(h);
    }
    if (!dim_is_none(a.dim)) {
        diag_error(a0->span, "the argument of %s must be dimensionless, but it is in %s",
                   f, ud_text(a.dim, x));
        return ud_failed();
    }
    return ud_ok_dim(dim_none());
}

static DimInfo binary_dim(Model *m, ElabInst *in, AstExpr *e, int depth)
{
    AstOp op = e->u.binary.op;
    AstExpr *l = e->u.binary.lhs, *r = e->u.binary.rhs;
    DimInfo a = ud_dim_of(m, in, l, depth), b = ud_dim_of(m, in, r, depth);
    if (!a.ok || !b.ok)
        return ud_failed();
    char x[64], y[64];
    const char *opname = ast_op_names[op];
    if (a.unknown || b.unknown) {
        switch (op) {
        case OP_OR: case OP_AND: case OP_EQ: case OP_NE: case OP_LT: case OP_LE:
        case OP_GT: case OP_GE:
            return ud_ok_bool();
        case OP_ADD: case OP_SUB:
            return a.unknown ? b : a;
        default:
            return ud_unknown();
        }
    }
    switch (op) {
    case OP_OR: case OP_AND:
        if (!ud_need_bool(a, l, opname).ok || !ud_need_bool(b, r, opname).ok)
            return ud_failed();
        return ud_ok_bool();
    case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
        if (a.is_bool != b.is_bool) {
            diag_error(e->span, "'%s' compares a number with true/false", opname);
            return ud_failed();
        }
        if (!a.is_bool && !ud_same_dim(a, b)) {
            diag_error(e->span, "the two sides of this comparison have different "
                       "units: %s (left) vs %s (right)", ud_text(a.dim, x), ud_text(b.dim, y));
            return ud_failed();
        }
        return ud_ok_bool();
    default:
        break;
    }
    /* MATLAB's logical in arithmetic, q * (q > 0): 1 or 0, dimensionless */
    if (op == OP_MUL || op == OP_EMUL || op == OP_DIV || op == OP_EDIV
        || op == OP_ADD || op == OP_SUB) {
        if (a.ok && a.is_bool)
            a = ud_ok_dim(dim_none());
        if (b.ok && b.is_bool)
            b = ud_ok_dim(dim_none());
    }
    if (!ud_need_number(a, l, opname).ok || !ud_need_number(b, r, opname).ok)
        return ud_failed();
    switch (op) {
    case OP_ADD: case OP_SUB: {
        if (!ud_same_dim(a, b)) {
            diag_error(e->span, "the operands of '%s' have different units: %s "
                       "(left) vs %s (right)", opname, ud_text(a.dim, x), ud_text(b.dim, y));
            return ud_failed();
        }
        DimInfo res = ud_ok_dim(a.zero ? b.dim : a.dim);
        res.zero = a.zero && b.zero;
        return res;
    }
    case OP_MUL: case OP_EMUL: return ud_ranged(e, dim_mul(a.dim, b.dim));
    case OP_DIV: case OP_EDIV: return ud_ranged(e, dim_div(a.dim, b.dim));
    case OP_POW: case OP_EPOW: {
        if (!dim_is_none(b.dim)) {
            diag_error(r->span, "an exponent must be dimensionless, but this one is in %s",
                       ud_text(b.dim, y));
            return ud_failed();
        }
        if (dim_is_none(a.dim))
            return ud_ok_dim(dim_none());
        DaeExpr *pe = lower_expr(m, in, r);
        double v = dae_eval_params(pe, elab_param_values(m));
        /* the unit depends on the exponent's value: it is fixed when the
           model is compiled (--param refuses to change it) */
        elab_mark_structural(m, pe);
        if (!(v == floor(v))) {
            /* a fractional power, as in Simscape: (kg^2/m^4)^0.5 is kg/m^2,
               m^0.5 is m^0.5; the unit's powers stay in twelfths */
            double t = v * RT_DIM_DEN;
            Dim d;
            if (isfinite(v) && fabs(v) <= RT_DIM_MAX && fabs(t - round(t)) < 1e-9
                && dim_root(a.dim, (long)round(t), RT_DIM_DEN, &d))
                return ud_ranged(e, d);
            diag_error(r->span, "a quantity in %s can only be raised to a constant "
                       "power in twelfths (an integer, 0.5, 1/3, ...) whose unit "
                       "powers stay in twelfths", ud_text(a.dim, x));
            return ud_failed();
        }
        if (fabs(v) > RT_DIM_MAX) {
            /* a.dim is not none, so some exponent would pass the limit */
            diag_error(r->span, "raising a quantity in %s to the power %.17g is out "
                       "of range: unit exponents are limited to -%d..%d",
                       ud_text(a.dim, x), v, RT_DIM_MAX, RT_DIM_MAX);
            return ud_failed();
        }
        for (int k = 0; k < RT_DIM_COUNT; k++) {
            double ek = (double)a.dim.e[k] * v / RT_DIM_DEN;
            if (fabs(ek) > RT_DIM_MAX) {
                diag_error(e->span, "the unit of this expression would have %s^%g: "
                           "unit exponents are limited to -%d..%d", rt_unit_base(k),
                           ek, RT_DIM_MAX, RT_DIM_MAX);
                return ud_failed();
            }
        }
        return ud_ranged(e, dim_pow(a.dim, (int)v));
    }
    default:
        return ud_failed();
    }
}

DimInfo ud_dim_of(Model *m, ElabInst *in, AstExpr *e, int depth)
{
    if (depth > 200)
        return ud_failed();
    char x[64], y[64];
    switch (e->kind) {
    case EXPR_NUM: {
        DimInfo r = ud_ok_dim(dim_none());
        r.zero = e->u.num.value == 0;
        return r;
    }
    case EXPR_BOOL: return ud_ok_bool();
    case EXPR_TIME: {
        Dim s = dim_none();
        s.e[2] = RT_DIM_DEN;
        return ud_ok_dim(s);
    }
    case EXPR_NAME:
        if (e->u.name.n == 1 && !elab_slot(in, e->u.name.parts[0].sym)
            && !strcmp(e->u.name.parts[0].sym->name, "initialevent"))
            return ud_ok_bool();
        return name_dim(m, in, e, depth);
    case EXPR_DER: {
        DimInfo a = ud_need_number(ud_dim_of(m, in, e->u.der.arg, depth + 1), e->u.der.arg, "der");
        if (!a.ok || a.unknown)
            return a;
        Dim s = dim_none();
        s.e[2] = RT_DIM_DEN;
        return ud_ranged(e, dim_div(a.dim, s));
    }
    case EXPR_CALL: return call_dim(m, in, e, depth + 1);
    case EXPR_UNARY: {
        DimInfo a = ud_dim_of(m, in, e->u.unary.arg, depth + 1);
        if (e->u.unary.op == OP_NOT)
            return ud_need_bool(a, e->u.unary.arg, "'~'").ok ? ud_ok_bool() : ud_failed();
        return ud_need_number(a, e->u.unary.arg,
                              e->u.unary.op == OP_TRANSPOSE ? "a transpose" : "'-'");
    }
    case EXPR_BINARY: return binary_dim(m, in, e, depth + 1);
    case EXPR_IF: {
        DimInfo c = ud_need_bool(ud_dim_of(m, in, e->u.cond.cond, depth + 1), e->u.cond.cond,
                              "an if condition");
        DimInfo a = ud_dim_of(m, in, e->u.cond.then, depth + 1);
        DimInfo b = ud_dim_of(m, in, e->u.cond.els, depth + 1);
        if (!c.ok || !a.ok || !b.ok)
            return ud_failed();
        if (a.unknown || b.unknown)
            return a.unknown ? b : a;
        if (a.is_bool != b.is_bool || (!a.is_bool && !ud_same_dim(a, b))) {
            diag_error(e->span, "the branches of this if-expression have different "
                       "units: %s vs %s", a.is_bool ? "true/false" : ud_text(a.dim, x),
                       b.is_bool ? "true/false" : ud_text(b.dim, y));
            return ud_failed();
        }
        DimInfo r = a.zero ? b : a;
        r.zero = a.zero && b.zero;
        return r;
    }
    case EXPR_QUANTITY: {
        DimInfo v = ud_dim_of(m, in, e->u.quantity.value, depth + 1);
        const RtUnit *u = elab_literal_unit(m, e);
        if (!u || !v.ok)
            return ud_failed();
        if (v.is_bool || !dim_is_none(v.dim)) {
            diag_error(e->u.quantity.value->span, "the number in {value, 'unit'} "
                       "must be dimensionless");
            return ud_failed();
        }
        Dim d;
        memcpy(d.e, u->dim, sizeof d.e);
        DimInfo r = ud_ok_dim(d);
        r.zero = v.zero;
        return r;
    }
    case EXPR_RECORD:
        for (int i = 0; i < e->u.record.n; i++)
            if (!strcmp(e->u.record.fields[i].name->name, "value"))
                return ud_dim_of(m, in, e->u.record.fields[i].value, depth + 1);
        return ud_ok_dim(dim_none());
    case EXPR_MATRIX: return matrix_dim(m, in, e, depth + 1);
    case EXPR_RANGE: {
        AstExpr *bounds[3] = {e->u.range.first, e->u.range.step, e->u.range.last};
        DimInfo r = same_unit_all(m, in, bounds, 3, depth + 1, "a range");
        r.zero = false;
        return ud_need_number(r, e, "a range");
    }
    case EXPR_OPTION: case EXPR_END: case EXPR_COLON: return ud_ok_dim(dim_none());
    default:
        return ud_failed();
    }
}

bool units_decl_dim(Model *m, ElabInst *in, AstDecl *d, Dim *out)
{
    DimInfo r = ud_decl_dim(m, in, d, 0);
    *out = r.dim;
    return r.ok && !r.is_bool;
}

bool units_dim(Model *m, ElabInst *in, AstExpr *e, Dim *out, bool *is_bool)
{
    DimInfo r = ud_dim_of(m, in, e, 0);
    *out = r.dim;
    *is_bool = r.is_bool;
    return r.ok;
}
