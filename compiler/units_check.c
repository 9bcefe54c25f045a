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

/* A unit string's error, pointing into the string at byte pos (past
   the opening quote). */
static void unit_string_error(SrcSpan sp, size_t pos, const char *err)
{
    uint32_t at = sp.begin + 1 + (uint32_t)pos;
    SrcSpan p = {sp.file, at < sp.end ? at : sp.begin, sp.end > at + 1 ? sp.end - 1 : sp.end};
    diag_error(p, "%s", err);
}

const RtUnit *units_literal(Model *m, AstExpr *q)
{
    RtUnit *u = ptrmap_get(&m->units_memo, q);
    if (u)
        return u == &bad_unit ? NULL : u;
    u = arena_alloc(m->arena, sizeof *u);
    char err[160];
    size_t pos = 0;
    const char *text = q->u.quantity.unit;
    size_t skip = 0;
    if (text[0] == '*') {
        /* '*' or '*(UNIT)': the parameter takes its binding's unit; this
           is its unit when unbound (dimensionless for a bare '*') */
        size_t n = strlen(text);
        if (n == 1) {
            u->scale = 1;
            memset(u->dim, 0, sizeof u->dim);
            ptrmap_put(&m->units_memo, q, u);
            return u;
        }
        if (text[1] != '(' || text[n - 1] != ')') {
            unit_string_error(q->u.quantity.unit_span, 1, "after '*' comes nothing "
                              "or the unit when unbound in parentheses, as in '*(1/s)'");
            ptrmap_put(&m->units_memo, q, &bad_unit);
            return NULL;
        }
        text = arena_strndup(m->arena, text + 2, n - 3);
        skip = 2;
    }
    if (rt_unit_parse(text, u, err, sizeof err, &pos) != 0) {
        pos += skip;
        unit_string_error(q->u.quantity.unit_span, pos, err);
        ptrmap_put(&m->units_memo, q, &bad_unit);
        return NULL;
    }
    ptrmap_put(&m->units_memo, q, u);
    return u;
}

/* The unit of value(x, 'unit'[, mode]), read once (memoized on the
   string's node); an affine temperature unit is allowed, and its
   offset given unless the mode is 'linear'. */
typedef struct ValueUnit {
    RtUnit u;               /* first, so the memo's entries read as RtUnit */
    double offset;          /* value = x / u.scale - offset */
} ValueUnit;

const RtUnit *units_value_unit(Model *m, AstExpr *call, double *offset)
{
    AstExpr *str = call->u.call.args.items[1];
    *offset = 0;
    if (str->kind != EXPR_STR)
        return NULL;
    ValueUnit *v = ptrmap_get(&m->units_memo, str);
    if (v == (ValueUnit *)&bad_unit)
        return NULL;
    if (!v) {
        v = arena_alloc(m->arena, sizeof *v);
        char err[160];
        size_t pos = 0;
        if (rt_unit_parse_affine(str->u.str, &v->u, &v->offset, err, sizeof err, &pos)) {
            unit_string_error(str->span, pos, err);
            ptrmap_put(&m->units_memo, str, &bad_unit);
            return NULL;
        }
        ptrmap_put(&m->units_memo, str, v);
    }
    AstExpr *mode = call->u.call.args.n > 2 ? call->u.call.args.items[2] : NULL;
    bool linear = mode && mode->kind == EXPR_STR && !strcmp(mode->u.str, "linear");
    *offset = linear ? 0 : v->offset;
    return &v->u;
}

/* The dimension of an expression and what kind of value it is. */
typedef struct DimInfo {
    Dim dim;        /* dimension of a number */
    bool is_bool;   /* true/false value */
    bool zero;      /* the literal 0, compatible with any unit */
    bool ok;        /* computed (false after an error) */
    bool unknown;   /* depends on an untyped port whose unit is still being
                       inferred (a loop of them): fits anything for now */
} DimInfo;

static DimInfo dim_of(Model *m, ElabInst *in, AstExpr *e, int depth);
static DimInfo decl_dim(Model *m, ElabInst *in, AstDecl *d, int depth);

static DimInfo ok_dim(Dim d)
{
    DimInfo r = {d, false, false, true, false};
    return r;
}

static DimInfo ok_bool(void)
{
    DimInfo r = {dim_none(), true, false, true, false};
    return r;
}

static DimInfo failed(void)
{
    DimInfo r = {dim_none(), false, false, false, false};
    return r;
}

static DimInfo unknown_dim(void)
{
    DimInfo r = {dim_none(), false, false, true, true};
    return r;
}

static DimInfo slot_info(Model *m, ElabInst *owner, ElabSlot *s, int depth);

/* A let's or a function's name with its dimension, innermost first (a
   barrier, name NULL, below a function's arguments). */
typedef struct UnitLocal {
    Sym *name;                  /* the name, or NULL for a barrier */
    DimInfo dim;                /* its dimension */
    struct UnitLocal *up;       /* the next one out */
} UnitLocal;

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
            *out = ok_dim(dim_none()); /* pi: resolution allows nothing else */
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
            *out = failed();
            return true;
        }
        if (l->name == name) {
            ElabLocal *saved = m->locals;
            m->locals = l->up;
            *out = decl_dim(m, l->in, l->decl, depth + 1);
            m->locals = saved;
            return true;
        }
    }
    return false;
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
    DimInfo local;
    if (local_dim(m, e, depth, &local))
        return local;
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
    case MEM_ACROSS: case MEM_THROUGH:
        return slot_info(m, owner, s, depth);
    case MEM_INTERMEDIATE: {
        /* the intermediate is outside any let or function it is used in */
        UnitLocal *saved = m->ulocals;
        ElabLocal *lsaved = m->locals;
        m->ulocals = NULL;
        m->locals = NULL;
        DimInfo r = decl_dim(m, owner, s->m->decl, depth + 1);
        m->ulocals = saved;
        m->locals = lsaved;
        return r;
    }
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
        bool named = a->kind == EXPR_OPTION;
        AstExpr *v = named ? a->u.option.value : a;
        DimInfo d = need_number(dim_of(m, in, v, depth), v, "delay");
        if (!d.ok)
            return failed();
        bool is_time = named ? !strcmp(a->u.option.name->name, "MaximumDelay") : np == 1;
        if (!named && np++ == 0) {
            u = d;
            continue;
        }
        if (d.unknown)
            continue;   /* checked once the unit is inferred */
        if (is_time && !d.zero && !dim_eq(d.dim, s)) {
            diag_error(v->span, "%s is a time, but this is %s",
                       named ? "delay's MaximumDelay" : "delay's tau", dtext(d.dim, x));
            return failed();
        }
        if (!is_time && u.ok && !u.unknown && !d.zero && !same_dim(u, d)) {
            diag_error(v->span, "delay's History has u's unit, %s, but this is %s",
                       dtext(u.dim, x), dtext(d.dim, y));
            return failed();
        }
    }
    return u;
}

/* value(x, 'unit') is dimensionless, x in that unit's dimension;
   integ(e) has e's unit times s; edge(b) is true/false, b too; delay(...)
   has u's unit. */
static DimInfo special_dim(Model *m, ElabInst *in, AstExpr *e, int sf, int depth)
{
    AstExpr *a0 = e->u.call.args.items[0];
    if (sf == SF_DELAY)
        return delay_dim(m, in, e, depth);
    if (sf == SF_EDGE)
        return need_bool(dim_of(m, in, a0, depth), a0, "edge").ok ? ok_bool() : failed();
    DimInfo a = need_number(dim_of(m, in, a0, depth), a0, special_names[sf]);
    if (!a.ok)
        return a;
    if (a.unknown)
        return sf == SF_INTEG ? a : ok_dim(dim_none());
    if (sf == SF_INTEG) {
        Dim s = dim_none();
        s.e[2] = 1;
        return ranged(e, dim_mul(a.dim, s));
    }
    double offset;
    const RtUnit *u = units_value_unit(m, e, &offset);
    if (!u)
        return failed();
    Dim d;
    memcpy(d.e, u->dim, sizeof d.e);
    if (!a.zero && !dim_eq(a.dim, d)) {
        char x[64], y[64];
        AstExpr *str = e->u.call.args.items[1];
        diag_error(e->span, "value() cannot give a quantity in %s in '%s', a "
                   "unit of %s", dtext(a.dim, x), str->u.str, dtext(d, y));
        return failed();
    }
    return ok_dim(dim_none());
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

static DimInfo local_defs_dims(Model *m, ElabInst *in, PtrVec *defs, int depth);

/* Output k of a call of a user function: its body is checked with the
   dimensions of the arguments (like Simscape's untyped functions), errors
   reported at the call with a note in the body; a successful check is
   remembered per function and argument dimensions. */
static DimInfo function_dim(Model *m, ElabInst *in, AstExpr *call, int k, int depth)
{
    AstDef *f = call->u.call.fn->ast;
    int n = f->inputs.n;
    if (call->u.call.args.n != n || k >= f->outputs.n || m->fn_depth >= 256)
        return failed(); /* resolution reported it */
    DimInfo *args = arena_alloc(m->arena, sizeof(DimInfo) * (size_t)(n + 1));
    char key[1024], where[512];
    size_t klen = (size_t)snprintf(key, sizeof key, "%p/%d", (void *)f, k);
    size_t wlen = (size_t)snprintf(where, sizeof where, "function '%s'", f->name->name);
    for (int i = 0; i < n; i++) {
        args[i] = dim_of(m, in, call->u.call.args.items[i], depth + 1);
        if (!args[i].ok)
            return failed();
        if (args[i].unknown)
            return unknown_dim(); /* checked once the unit is inferred */
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
    bind_unit(m, NULL, failed());
    for (int i = 0; i < n; i++)
        bind_unit(m, ((AstIdent *)f->inputs.items[i])->sym, args[i]);
    int errors = diag_error_count();
    diag_push_context(call->span, f->name->name, "%s", where);
    m->fn_depth++;
    DimInfo r = local_defs_dims(m, in, &f->defs, depth);
    m->fn_depth--;
    diag_pop_context();
    if (r.ok) {
        r = failed();
        Sym *o = ((AstIdent *)f->outputs.items[k])->sym;
        for (UnitLocal *l = m->ulocals; l && l->name; l = l->up)
            if (l->name == o) {
                r = l->dim;
                break;
            }
    }
    m->ulocals = saved;
    if (r.ok && diag_error_count() == errors) {
        DimInfo *keep = arena_alloc(m->arena, sizeof *keep);
        *keep = r;
        ptrmap_put(&m->fn_dims, memo, keep);
    }
    return r;
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

static DimInfo decl_dim(Model *m, ElabInst *in, AstDecl *d, int depth)
{
    if (d->output < 0)
        return dim_of(m, in, d->value, depth);
    AstExpr *call = d->value;
    if (call->kind != EXPR_CALL || !call->u.call.fn)
        return failed();
    return function_dim(m, in, call, d->output, depth);
}

/* Binds local definitions in order on m->ulocals (the caller restores
   it); not ok when one of them failed. */
static DimInfo local_defs_dims(Model *m, ElabInst *in, PtrVec *defs, int depth)
{
    DimInfo all = ok_dim(dim_none());
    for (int i = 0; i < defs->n; i++) {
        AstDecl *d = defs->items[i];
        DimInfo r = decl_dim(m, in, d, depth + 1);
        if (!r.ok)
            all = failed();
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
    if (e->u.call.fn)
        return function_dim(m, in, e, 0, depth);
    int sf = e->u.call.qual ? -1 : special_find(f);
    if (sf >= 0)
        return n > 0 ? special_dim(m, in, e, sf, depth) : failed();
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
    if (a.unknown || b.unknown) {
        if (rule == BU_DIMLESS || rule == BU_SIGN || rule == BU_MATCH_NONE)
            return ok_dim(dim_none());
        return rule == BU_MATCH && !a.unknown ? a : rule == BU_MATCH && !b.unknown
                                                        ? b : unknown_dim();
    }
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
    if (a.unknown || b.unknown) {
        switch (op) {
        case OP_OR: case OP_AND: case OP_EQ: case OP_NE: case OP_LT: case OP_LE:
        case OP_GT: case OP_GE:
            return ok_bool();
        case OP_ADD: case OP_SUB:
            return a.unknown ? b : a;
        default:
            return unknown_dim();
        }
    }
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
    case EXPR_NAME:
        if (e->u.name.n == 1 && !elab_slot(in, e->u.name.parts[0].sym)
            && !strcmp(e->u.name.parts[0].sym->name, "initialevent"))
            return ok_bool();
        return name_dim(m, in, e, depth);
    case EXPR_DER: {
        DimInfo a = need_number(dim_of(m, in, e->u.der.arg, depth + 1), e->u.der.arg, "der");
        if (!a.ok || a.unknown)
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
        if (a.unknown || b.unknown)
            return a.unknown ? b : a;
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

bool units_decl_dim(Model *m, ElabInst *in, AstDecl *d, Dim *out)
{
    DimInfo r = decl_dim(m, in, d, 0);
    *out = r.dim;
    return r.ok && !r.is_bool;
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
    if (!a.ok || !b.ok || a.unknown || b.unknown)
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
    case STMT_LET: {
        UnitLocal *saved = m->ulocals;
        local_defs_dims(m, in, &s->u.let_.defs, 0);
        check_stmts(m, in, &s->u.let_.body);
        m->ulocals = saved;
        break;
    }
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
        for (int i = 0; i < v->n; i++)
            decl_dim(m, in, v->items[i], 0);
        break;
    default:
        break;
    }
}

/* ---- unit inference ------------------------------------------------------------

   An untyped input (`inputs u; end`) has the unit of what drives it: the
   value bound in the instantiation, the source connected to it, or
   dimensionless when unconnected.  An untyped output (`outputs y; end`)
   has the unit of its defining equation, `y == e` or `der(y) == e` (the
   first one among the component's active equations, also inside let and
   if-equations), or of the child output a composite's connection drives
   it from.  The units are inferred per instance, on demand: an instance's
   equations may need the units of its untyped ports, which may need
   those of other instances.  A port reached again while it is being
   inferred (a loop of untyped blocks) is `unknown`, which fits anything
   for now and is not cached; rounds over every untyped port repeat while
   they make progress, and a port still unknown after that (a loop with no
   unit anywhere) is dimensionless. */

enum { INFER_DEPTH = 1000 };    /* deeper chains finish in later rounds */

static DimInfo defining_dim(Model *m, ElabInst *in, PtrVec *stmts, Sym *name, int depth,
                            bool *found)
{
    for (int i = 0; i < stmts->n && !*found; i++) {
        AstStmt *st = stmts->items[i];
        if (st->kind == STMT_EQUATION) {
            AstExpr *l = st->u.eq.lhs, *r = st->u.eq.rhs;
            for (int side = 0; side < 2; side++, l = st->u.eq.rhs, r = st->u.eq.lhs) {
                bool der = l->kind == EXPR_DER;
                AstExpr *v = der ? l->u.der.arg : l;
                if (!ast_is_simple_name(v) || v->u.name.parts[0].sym != name)
                    continue;
                *found = true;
                DimInfo d = dim_of(m, in, r, depth + 1);
                if (der && d.ok && !d.unknown && !d.is_bool) {
                    Dim s = dim_none();
                    s.e[2] = 1;
                    return ranged(r, dim_mul(d.dim, s));
                }
                return d;
            }
        } else if (st->kind == STMT_LET) {
            UnitLocal *saved = m->ulocals;
            local_defs_dims(m, in, &st->u.let_.defs, depth);
            DimInfo d = defining_dim(m, in, &st->u.let_.body, name, depth, found);
            m->ulocals = saved;
            if (*found)
                return d;
        } else if (st->kind == STMT_IF && st->u.if_.clauses.n > 0) {
            AstClause *c = st->u.if_.clauses.items[0];
            DimInfo d = defining_dim(m, in, &c->body, name, depth, found);
            if (*found)
                return d;
        }
    }
    return failed();
}

typedef struct DefSearch {
    Sym *name;              /* the output */
    int depth;              /* of the inference */
    bool found;             /* an equation defines it */
    DimInfo dim;            /* its dimension */
} DefSearch;

static void search_section(Model *m, ElabInst *in, AstItem *it, void *ctx)
{
    DefSearch *ds = ctx;
    if (ds->found || it->u.section.kind != SEC_EQUATIONS)
        return;
    ds->dim = defining_dim(m, in, &it->u.section.entries, ds->name, ds->depth, &ds->found);
}

static AstArg *argument_of(ElabInst *in, Sym *name)
{
    for (int i = 0; in->ast && i < in->ast->args.n; i++) {
        AstArg *g = in->ast->args.items[i];
        if (g->name == name)
            return g;
    }
    return NULL;
}

/* The unit of an untyped port of instance `in`, inferred. */
static DimInfo infer_port(Model *m, ElabInst *in, ElabSlot *s, int depth)
{
    if (s->infer == 2)
        return ok_dim(s->dim);
    if (s->infer == 1 || depth > INFER_DEPTH)
        return unknown_dim();
    s->infer = 1;
    /* what drives a port is outside any let or function being checked */
    UnitLocal *usaved = m->ulocals;
    ElabLocal *lsaved = m->locals;
    m->ulocals = NULL;
    m->locals = NULL;
    DimInfo r = ok_dim(dim_none());
    AstArg *g = s->m->kind == MEM_INPUT ? argument_of(in, s->m->name) : NULL;
    if (g && in->parent) {
        r = dim_of(m, in->parent, g->value, depth + 1);
    } else if (s->driver) {
        r = slot_info(m, s->driver_owner, s->driver, depth + 1);
    } else if (s->m->kind == MEM_OUTPUT) {
        DefSearch ds = {s->m->name, depth, false, failed()};
        elab_each_section(m, in, search_section, &ds);
        r = ds.dim;
        if (!ds.found) {
            diag_error(s->m->decl->name_span, "the unit of output '%s' of component "
                       "'%s' cannot be inferred: no equation defines it as '%s == "
                       "...'; declare its unit, as in %s = {0, 'm'};", s->m->name->name,
                       in->def->ast->name->name, s->m->name->name, s->m->name->name);
            r = failed();
        }
    }
    m->ulocals = usaved;
    m->locals = lsaved;
    s->infer = 0;
    if (r.ok && r.unknown)
        return r;
    s->infer = 2;
    s->dim = r.ok && !r.is_bool ? r.dim : dim_none();
    if (s->m->kind == MEM_OUTPUT && s->var >= 0)
        ((ElabVar *)m->vars.items[s->var])->dim = s->dim;
    return r.ok ? ok_dim(s->dim) : r;
}

static DimInfo slot_info(Model *m, ElabInst *owner, ElabSlot *s, int depth)
{
    if (s->untyped)
        return infer_port(m, owner, s, depth);
    DimInfo r = {s->dim, s->is_bool, s->fits_any, true, false};
    return r;
}

/* Infers every untyped port, then checks the signal connections that
   involve one. */
static void infer_all(Model *m)
{
    bool progress = true, left = true;
    for (int round = 0; left && progress; round++) {
        progress = left = false;
        for (int i = 0; i < m->insts.n; i++) {
            ElabInst *in = m->insts.items[i];
            for (int j = 0; j < in->def->member_list.n; j++) {
                ElabSlot *s = &in->slots[j];
                if (!s->active || !s->untyped || s->infer == 2)
                    continue;
                infer_port(m, in, s, 0);
                if (s->infer == 2)
                    progress = true;
                else
                    left = true;
            }
        }
    }
    for (int i = 0; left && i < m->insts.n; i++) {
        ElabInst *in = m->insts.items[i];
        for (int j = 0; j < in->def->member_list.n; j++) {
            ElabSlot *s = &in->slots[j];
            if (s->active && s->untyped && s->infer != 2)
                s->infer = 2; /* a loop with no unit in it: dimensionless */
        }
    }
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

/* What decides the check of an instance: its component and arms, and the
   units of its untyped ports and '*' parameters. */
static Sym *variant_key(Model *m, ElabInst *in)
{
    size_t cap = 256, len = 0;
    char *buf = arena_alloc(m->arena, cap);
    /* arrays: an instance of a definition with arrays is checked on its
       own, as its indices and sizes may differ from another's */
    const char *path = in->def->has_arrays ? in->path : "";
    size_t plen = strlen(path);
    if (plen + 256 > cap) {
        cap = plen + 256;
        buf = arena_alloc(m->arena, cap);
    }
    len = (size_t)snprintf(buf, cap, "%s/%s%s", in->def->ast->name->name, in->arm_key, path);
    for (int j = 0; j < in->def->member_list.n; j++) {
        ElabSlot *s = &in->slots[j];
        if (!s->active || (!s->untyped && !s->any_unit))
            continue;
        char u[64];
        dim_text(s->dim, u, sizeof u);
        size_t need = len + strlen(u) + 4;
        if (need >= cap) {
            while (need >= cap)
                cap *= 2;
            char *nb = arena_alloc(m->arena, cap);
            memcpy(nb, buf, len + 1);
            buf = nb;
        }
        len += (size_t)snprintf(buf + len, cap - len, "/%s%s", u, s->fits_any ? "0" : "");
    }
    return sym_cstr(buf);
}

void units_check(Model *m)
{
    infer_all(m);
    for (int i = 0; i < m->insts.n; i++) {
        ElabInst *in = m->insts.items[i];
        Sym *key = variant_key(m, in);
        if (ptrmap_get(&m->checked, key))
            continue;
        ptrmap_put(&m->checked, key, in);
        elab_each_section(m, in, check_section, NULL);
    }
}
