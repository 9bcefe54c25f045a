/*
 * lower_array.c - vectors and matrices, lowered to their scalar elements.
 *
 * The design is scalarization at elaboration: nothing after lowering knows
 * about vectors.  A vector parameter of n elements is n run-time
 * parameters (`masses(1)` ... `masses(n)`), a vector variable n scalar
 * unknowns, and every expression that may be a vector lowers here to a
 * LowerValue: its size and one DAE expression per element, in MATLAB's
 * column-major order.  Element-wise operators broadcast a scalar over a
 * matrix; `*` of two matrices is the matrix product; `sum` of a vector
 * becomes a sum of its elements, `min` and `max` fmin/fmax of its
 * constant and parameter elements and a balanced tree of min/max over the
 * others;
 * `numel`, `size`, `zeros` and `ones` are evaluated here.
 *
 * Sizes, ranges and indices are known at compile time: the parameters
 * they read become structural (elab_mark_structural), so `--param` refuses
 * them with the reason.  Every size mismatch is an error at the
 * expression, giving both sizes; an index out of range gives the index
 * and the size.
 */
#include "lower.h"

#include "diag.h"
#include "bounds.h"
#include "rt_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A range longer than this is surely a mistake (and would exhaust memory
   one element at a time). */
enum { LOWER_MAX_ELEMENTS = LIMIT_ARRAY_ELEMENTS };

const char *lower_size_text(char *buf, size_t len, int rows, int cols)
{
    if (rows == 1 && cols == 1)
        snprintf(buf, len, "scalar");
    else if (rows == 1 || cols == 1)
        snprintf(buf, len, "%d-by-%d vector", rows, cols);
    else
        snprintf(buf, len, "%d-by-%d matrix", rows, cols);
    return buf;
}

static LowerValue lv_new(Model *m, int rows, int cols)
{
    LowerValue v = {rows, cols, NULL};
    size_t n = (size_t)rows * (size_t)cols;
    v.el = arena_alloc(m->arena, sizeof(DaeExpr *) * (n + 1));
    return v;
}

LowerValue lower_value_new(Model *m, int rows, int cols)
{
    return lv_new(m, rows, cols);
}

static LowerValue lv_scalar(Model *m, DaeExpr *e)
{
    LowerValue v = lv_new(m, 1, 1);
    v.el[0] = e;
    return v;
}

static int lv_numel(LowerValue v)
{
    return v.rows * v.cols;
}

static bool lv_is_scalar(LowerValue v)
{
    return v.rows == 1 && v.cols == 1;
}

DaeExpr *lower_scalar_of(Model *m, LowerValue v, AstExpr *e)
{
    if (lv_is_scalar(v))
        return v.el[0];
    char b[64];
    diag_error(e->span, "expected one value here, but this is a %s",
               lower_size_text(b, sizeof b, v.rows, v.cols));
    return dae_const(m->t, 0);
}

/* ---- compile-time numbers: sizes, indices, ranges ------------------------- */

/* A number known at compile time: no variable, no time.  The parameters
   it reads become structural. */
static bool known_number(Model *m, DaeExpr *e, AstExpr *at, const char *what, double *out)
{
    if (dae_depends_on_state(e)) {
        diag_error(at->span, "%s must be known when the model is compiled: it "
                   "may use only parameters and loop variables", what);
        return false;
    }
    elab_mark_structural(m, e);
    *out = dae_eval_params(e, elab_param_values(m));
    if (!isfinite(*out)) {
        diag_error(at->span, "%s is not a finite number", what);
        return false;
    }
    return true;
}

static bool is_integer(double v)
{
    return v == floor(v) && fabs(v) < 1e15;
}

bool lower_int(Model *m, ElabInst *in, AstExpr *e, const char *what, long *out)
{
    double v;
    if (!known_number(m, lower_expr(m, in, e), e, what, &v))
        return false;
    if (!is_integer(v)) {
        diag_error(e->span, "%s must be an integer, not %.17g", what, v);
        return false;
    }
    *out = (long)v;
    return true;
}

/* The elements first, first + step, ... up to last (MATLAB's colon, with
   its tolerance for steps like 0.1 that are not exact in binary). */
/* How many values a:s:b has (s != 0). */
static double range_count(double a, double s, double b)
{
    double q = (b - a) / s;
    return q < 0 ? 0 : floor(q + 1e-10 * fmax(1, fabs(q))) + 1;
}

static LowerValue range_value(Model *m, ElabInst *in, AstExpr *e)
{
    double a, s = 1, b;
    AstExpr *step = e->u.range.step;
    if (!known_number(m, lower_expr(m, in, e->u.range.first), e->u.range.first,
                      "the start of a range", &a)
        || (step && !known_number(m, lower_expr(m, in, step), step, "the step of a range", &s))
        || !known_number(m, lower_expr(m, in, e->u.range.last), e->u.range.last,
                         "the end of a range", &b))
        return lv_new(m, 1, 0);
    if (s == 0) {
        diag_error(step->span, "the step of a range cannot be 0");
        return lv_new(m, 1, 0);
    }
    double count = range_count(a, s, b);
    if (count > LOWER_MAX_ELEMENTS) {
        diag_error(e->span, "this range has %.0f elements, more than the %d a "
                   "vector may have (docs/language.md, \"Limits\")", count, LOWER_MAX_ELEMENTS);
        return lv_new(m, 1, 0);
    }
    int n = (int)count;
    LowerValue v = lv_new(m, 1, n);
    for (int k = 0; k < n; k++)
        v.el[k] = dae_const(m->t, a + k * s);
    return v;
}

bool lower_range(Model *m, ElabInst *in, AstExpr *range, LowerRange *r, bool report)
{
    *r = (LowerRange){0, 1, 0, NULL};
    int before = diag_error_count();
    /* a:s:b counts unitless integers: its bounds and step are integers,
       and its values are counted, never made one by one */
    if (range->kind == EXPR_RANGE) {
        AstExpr *parts[3] = {range->u.range.first, range->u.range.step, range->u.range.last};
        static const char *const names[3] = {"start", "step", "end"};
        static const char *const whats[3] = {"the start of a range", "the step of a range",
                                             "the end of a range"};
        double x[3] = {0, 1, 0};
        for (int k = 0; k < 3; k++) {
            if (!parts[k])
                continue;
            if (!known_number(m, lower_expr(m, in, parts[k]), parts[k], whats[k], &x[k]))
                return false;
            if (!is_integer(x[k])) {
                if (report)
                    diag_error(parts[k]->span, "the range of a for-loop counts "
                               "integers, and its %s is %.17g", names[k], x[k]);
                return false;
            }
        }
        if (x[1] == 0) {
            diag_error(parts[1]->span, "the step of a range cannot be 0");
            return false;
        }
        r->first = (long)x[0];
        r->step = (long)x[1];
        r->n = (long)range_count(x[0], x[1], x[2]);
        return true;
    }
    LowerValue v = lower_value(m, in, range);
    if (diag_error_count() != before)
        return false;
    if (v.rows != 1 && lv_numel(v) > 0) {
        char b[64];
        if (report)
            diag_error(range->span, "the range of a for-loop is a row vector, "
                       "such as 1:N; this is a %s", lower_size_text(b, sizeof b, v.rows, v.cols));
        return false;
    }
    /* that its values are unitless is the unit check's */
    long *out = mem_calloc((size_t)lv_numel(v) + 1, sizeof *out);
    for (int k = 0; k < lv_numel(v); k++) {
        double x;
        if (!known_number(m, v.el[k], range, "the range of a for-loop", &x)) {
            free(out);
            return false;
        }
        if (!is_integer(x)) {
            if (report)
                diag_error(range->span, "the range of a for-loop takes integers, "
                           "and its element %d is %.17g", k + 1, x);
            free(out);
            return false;
        }
        out[k] = (long)x;
    }
    r->vals = out;
    r->n = lv_numel(v);
    return true;
}

/* ---- indices ------------------------------------------------------------- */

/* The integers an index expression stands for (a number, or a vector of
   them, as in v(2:4)) in a dimension of `size` elements: `end` in it is
   size, and ':' alone is 1:size. */
static bool index_list(Model *m, ElabInst *in, AstExpr *e, long size, long **out, int *n)
{
    if (e->kind == EXPR_COLON) {
        *n = (int)size;
        *out = arena_alloc(m->arena, sizeof(long) * (size_t)(*n + 1));
        for (int k = 0; k < *n; k++)
            (*out)[k] = k + 1;
        return true;
    }
    long outer = m->index_end;
    m->index_end = size;
    LowerValue v = lower_value(m, in, e);
    m->index_end = outer;
    *n = lv_numel(v);
    *out = arena_alloc(m->arena, sizeof(long) * (size_t)(*n + 1));
    for (int k = 0; k < *n; k++) {
        double x;
        if (!known_number(m, v.el[k], e, "an index", &x))
            return false;
        if (!is_integer(x)) {
            diag_error(e->span, "an index must be an integer, not %.17g", x);
            return false;
        }
        (*out)[k] = (long)x;
    }
    return true;
}

/* v(i) or v(i, j), as MATLAB reads them: one index counts the elements in
   column-major order, two are a row and a column.  `name` is for
   messages. */
static LowerValue select_elements(Model *m, ElabInst *in, LowerValue v, AstNamePart *part,
                                  const char *name)
{
    char b[64];
    long *I, *J = NULL;
    int ni, nj = 0;
    bool one = part->nindex == 1;
    if (!index_list(m, in, part->index[0], one ? lv_numel(v) : v.rows, &I, &ni)
        || (!one && !index_list(m, in, part->index[1], v.cols, &J, &nj)))
        return lv_scalar(m, dae_const(m->t, 0));
    if (one) {
        /* v(:) is a column, as in MATLAB */
        bool column = part->index[0]->kind == EXPR_COLON || (v.rows != 1 && lv_numel(v) != 1);
        LowerValue r = column ? lv_new(m, ni, 1) : lv_new(m, 1, ni);
        for (int k = 0; k < ni; k++) {
            if (I[k] < 1 || I[k] > lv_numel(v)) {
                diag_error(part->index[0]->span, "index %ld is out of range: '%s' "
                           "has %d element%s", I[k], name, lv_numel(v),
                           lv_numel(v) == 1 ? "" : "s");
                return lv_scalar(m, dae_const(m->t, 0));
            }
            r.el[k] = v.el[I[k] - 1];
        }
        return r;
    }
    LowerValue r = lv_new(m, ni, nj);
    for (int k = 0; k < ni; k++) {
        for (int l = 0; l < nj; l++) {
            if (I[k] < 1 || I[k] > v.rows || J[l] < 1 || J[l] > v.cols) {
                diag_error(src_join(part->index[0]->span, part->index[1]->span),
                           "index (%ld, %ld) is out of range: '%s' is a %s", I[k], J[l],
                           name, lower_size_text(b, sizeof b, v.rows, v.cols));
                return lv_scalar(m, dae_const(m->t, 0));
            }
            r.el[k + (size_t)l * (size_t)ni] = v.el[(I[k] - 1) + (J[l] - 1) * (long)v.rows];
        }
    }
    return r;
}

ElabSlot *lower_element(Model *m, ElabInst *in, ElabSlot *s, AstNamePart *part)
{
    if (part->nindex != 1)
        return NULL; /* resolution reported it */
    long k, outer = m->index_end;
    m->index_end = s->nelems;
    bool ok = lower_int(m, in, part->index[0], "an index", &k);
    m->index_end = outer;
    if (!ok)
        return NULL;
    const char *what = s->m->kind == MEM_NODE ? "node" : "component";
    if (k < 1 || k > s->nelems) {
        diag_error(part->index[0]->span, "index %ld is out of range: the array of "
                   "%ss '%s' has %d element%s", k, what, s->m->name->name, s->nelems,
                   s->nelems == 1 ? "" : "s");
        return NULL;
    }
    ElabSlot *e = s->elems[k - 1];
    if (!e) {
        diag_error(part->index[0]->span, "'%s(%ld)' is not declared: the for-loop "
                   "that declares '%s' does not reach index %ld", s->m->name->name,
                   k, s->m->name->name, k);
        return NULL;
    }
    return e;
}

/* The elements of a vector slot: parameters, variables or an input's
   values, in a row. */
static LowerValue slot_value(Model *m, ElabInst *owner, ElabSlot *s)
{
    /* a domain's vector parameter read by another of its defaults */
    if (s->m->kind == MEM_PARAMETER && s->param < 0 && s->m->decl)
        return lower_value(m, owner, s->m->decl->value);
    if (s->m->kind == MEM_INPUT)
        return s->input_el ? (LowerValue){s->rows, s->cols, s->input_el}
                           : lv_scalar(m, s->input ? s->input : dae_const(m->t, 0));
    LowerValue v = lv_new(m, s->rows, s->cols);
    for (int k = 0; k < lv_numel(v); k++)
        v.el[k] = s->m->kind == MEM_PARAMETER ? dae_param(m->t, s->param + k)
                                              : dae_var(m->t, s->var + k, 0);
    return v;
}

LowerValue lower_slot_value(Model *m, ElabInst *owner, ElabSlot *s)
{
    if (s->vec || s->m->kind == MEM_INPUT)
        return slot_value(m, owner, s);
    return lv_scalar(m, s->m->kind == MEM_PARAMETER ? dae_param(m->t, s->param)
                                                    : dae_var(m->t, s->var, 0));
}

void lower_set_input(ElabSlot *s, LowerValue v)
{
    s->vec = !(v.rows == 1 && v.cols == 1);
    s->rows = v.rows;
    s->cols = v.cols;
    s->input_el = s->vec ? v.el : NULL;
    s->input = v.rows * v.cols > 0 ? v.el[0] : NULL;
}

static LowerValue name_value(Model *m, ElabInst *in, AstExpr *e)
{
    AstNamePart *last = &e->u.name.parts[e->u.name.n - 1];
    LowerValue local;
    if (lower_local_value(m, e, &local)) {
        if (!last->nindex)
            return local;
        return select_elements(m, in, local, last, arena_strdup(m->arena, last->sym->name));
    }
    if (e->u.name.n > 1 || last->nindex) {
        ElabInst *owner = in;
        SemaMember *nm = NULL;
        ElabSlot *s = lower_resolve(m, in, e, &owner, &nm);
        if (s && s->m->kind == MEM_INTERMEDIATE) {
            LowerValue v = lower_intermediate_value(m, owner, s, e->span);
            if (!last->nindex)
                return v;
            char *text = arena_strdup(m->arena, last->sym->name);
            return select_elements(m, in, v, last, text);
        }
        if (s && s->m->kind == MEM_NODE && nm) {
            LowerValue v = elab_node_value(m, s, nm, e->span);
            if (!last->nindex)
                return v;
            char *text = arena_strdup(m->arena, last->sym->name);
            return select_elements(m, in, v, last, text);
        }
        if (s && (s->vec || last->nindex)
            && (s->m->kind == MEM_PARAMETER || s->m->kind == MEM_VARIABLE
                || s->m->kind == MEM_OUTPUT || s->m->kind == MEM_INPUT)) {
            LowerValue v = s->vec ? slot_value(m, owner, s) : lv_scalar(m, lower_expr(m, owner, e));
            if (!last->nindex)
                return v;
            char *text = arena_strdup(m->arena, last->sym->name);
            return select_elements(m, in, v, last, text);
        }
        if (!s)
            return lv_scalar(m, dae_const(m->t, 0));
    } else {
        ElabSlot *s = elab_env_find(in->env, last->sym) ? NULL : elab_slot(in, last->sym);
        s = elab_sized(m, in, s);
        if (s && s->active && s->vec)
            return slot_value(m, in, s);
        if (s && s->active && s->m->kind == MEM_INTERMEDIATE && !lower_is_local(m, e))
            return lower_intermediate_value(m, in, s, e->span);
    }
    return lv_scalar(m, lower_expr(m, in, e));
}

DaeExpr *lower_indexed(Model *m, ElabInst *in, AstExpr *e, ElabSlot *s)
{
    AstNamePart *last = &e->u.name.parts[e->u.name.n - 1];
    LowerValue v;
    /* x(1) of a scalar x is x, as in MATLAB */
    v = lower_slot_value(m, in, s);
    if (last->nindex)
        v = select_elements(m, in, v, last, last->sym->name);
    else if (!lv_is_scalar(v)) {
        char b[64];
        diag_error(e->span, "'%s' is a %s, and one value is expected here; name "
                   "one element, as in %s(1)", ast_name_text(m->arena, e),
                   lower_size_text(b, sizeof b, v.rows, v.cols), last->sym->name);
        return dae_const(m->t, 0);
    }
    return lower_scalar_of(m, v, e);
}

/* ---- matrices ------------------------------------------------------------- */

/* [a b; c d]: each row concatenates its items side by side (equal
   heights), then the rows stack (equal widths); empty items vanish. */
static LowerValue matrix_value(Model *m, ElabInst *in, AstExpr *e)
{
    char x[64];
    PtrVec *rows = &e->u.matrix.rows;
    LowerValue *parts = arena_alloc(m->arena, sizeof(LowerValue) * (size_t)(rows->n + 1));
    int height = 0, width = -1;
    for (int r = 0; r < rows->n; r++) {
        PtrVec *row = rows->items[r];
        LowerValue *items = arena_alloc(m->arena, sizeof(LowerValue) * (size_t)(row->n + 1));
        int h = -1, w = 0;
        for (int i = 0; i < row->n; i++) {
            items[i] = lower_value(m, in, row->items[i]);
            if (lv_numel(items[i]) == 0)
                continue;
            if (h >= 0 && items[i].rows != h) {
                diag_error(((AstExpr *)row->items[i])->span, "the items of a row of "
                           "a matrix must have the same number of rows: this one is "
                           "a %s, the one before it has %d row%s",
                           lower_size_text(x, sizeof x, items[i].rows, items[i].cols),
                           h, h == 1 ? "" : "s");
                return lv_new(m, 0, 0);
            }
            h = items[i].rows;
            w += items[i].cols;
        }
        LowerValue rv = lv_new(m, h < 0 ? 0 : h, h < 0 ? 0 : w);
        int col = 0;
        for (int i = 0; i < row->n; i++) {
            if (lv_numel(items[i]) == 0)
                continue;
            for (int c = 0; c < items[i].cols; c++, col++)
                for (int k = 0; k < rv.rows; k++)
                    rv.el[k + (size_t)col * (size_t)rv.rows] = items[i].el[k + (size_t)c * (size_t)rv.rows];
        }
        parts[r] = rv;
        if (lv_numel(rv) == 0)
            continue;
        if (width >= 0 && rv.cols != width) {
            diag_error(e->span, "the rows of this matrix have different lengths: "
                       "%d column%s, then %d", width, width == 1 ? "" : "s", rv.cols);
            return lv_new(m, 0, 0);
        }
        width = rv.cols;
        height += rv.rows;
    }
    if (width < 0)
        return lv_new(m, 0, 0);
    LowerValue v = lv_new(m, height, width);
    int row0 = 0;
    for (int r = 0; r < rows->n; r++) {
        LowerValue p = parts[r];
        if (lv_numel(p) == 0)
            continue;
        for (int c = 0; c < width; c++)
            for (int k = 0; k < p.rows; k++)
                v.el[row0 + k + (size_t)c * (size_t)height] = p.el[k + (size_t)c * (size_t)p.rows];
        row0 += p.rows;
    }
    return v;
}

/* ---- operators ------------------------------------------------------------- */

static DaeExprKind elementwise_kind(AstOp op)
{
    switch (op) {
    case OP_ADD: return DX_ADD;
    case OP_SUB: return DX_SUB;
    case OP_MUL: case OP_EMUL: return DX_MUL;
    case OP_DIV: case OP_EDIV: return DX_DIV;
    default: return DX_POW;
    }
}

/* a op b element by element, a scalar operand applying to every element:
   the operator kind k, or with `in` e's own operator noted as lowering
   notes it (a relation is a zero crossing). */
static LowerValue broadcast(Model *m, ElabInst *in, AstExpr *e, DaeExprKind k, LowerValue a,
                            LowerValue b)
{
    char x[64], y[64];
    if (!lv_is_scalar(a) && !lv_is_scalar(b) && (a.rows != b.rows || a.cols != b.cols)) {
        diag_error(e->span, "the operands of '%s' have different sizes: %s (left) "
                   "vs %s (right)", ast_op_names[e->u.binary.op],
                   lower_size_text(x, sizeof x, a.rows, a.cols),
                   lower_size_text(y, sizeof y, b.rows, b.cols));
        return lv_scalar(m, dae_const(m->t, 0));
    }
    LowerValue shape = lv_is_scalar(a) ? b : a;
    LowerValue r = lv_new(m, shape.rows, shape.cols);
    for (int i = 0; i < lv_numel(r); i++) {
        DaeExpr *lhs = a.el[lv_is_scalar(a) ? 0 : i], *rhs = b.el[lv_is_scalar(b) ? 0 : i];
        r.el[i] = in ? lower_binary_node(m, in, e, lhs, rhs) : dae_binary(m->t, k, lhs, rhs);
    }
    return r;
}

static LowerValue matrix_product(Model *m, AstExpr *e, LowerValue a, LowerValue b)
{
    char x[64], y[64];
    if (a.cols != b.rows) {
        diag_error(e->span, "a matrix product needs as many columns on the left as "
                   "rows on the right: %s * %s (use .* for the element-wise product)",
                   lower_size_text(x, sizeof x, a.rows, a.cols),
                   lower_size_text(y, sizeof y, b.rows, b.cols));
        return lv_scalar(m, dae_const(m->t, 0));
    }
    LowerValue r = lv_new(m, a.rows, b.cols);
    for (int i = 0; i < a.rows; i++) {
        for (int j = 0; j < b.cols; j++) {
            DaeExpr *sum = dae_const(m->t, 0);
            for (int k = 0; k < a.cols; k++)
                sum = dae_add(m->t, sum, dae_mul(m->t, a.el[i + (size_t)k * (size_t)a.rows],
                                                 b.el[k + (size_t)j * (size_t)b.rows]));
            r.el[i + (size_t)j * (size_t)a.rows] = sum;
        }
    }
    return r;
}

/* Relations and & | (&& ||) of arrays, element by element as MATLAB's:
   v > 0 & v < 2 is a logical vector, for all, any or an index. */
static LowerValue logical_value(Model *m, ElabInst *in, AstExpr *e)
{
    LowerValue a = lower_value(m, in, e->u.binary.lhs);
    LowerValue b = lower_value(m, in, e->u.binary.rhs);
    return broadcast(m, in, e, DX_AND, a, b);
}

static LowerValue binary_value(Model *m, ElabInst *in, AstExpr *e)
{
    AstOp op = e->u.binary.op;
    if (op == OP_AND || op == OP_OR || op == OP_EQ || op == OP_NE || op == OP_LT
        || op == OP_LE || op == OP_GT || op == OP_GE)
        return logical_value(m, in, e);
    if (op != OP_ADD && op != OP_SUB && op != OP_MUL && op != OP_DIV && op != OP_POW
        && op != OP_EMUL && op != OP_EDIV && op != OP_EPOW)
        return lv_scalar(m, lower_expr(m, in, e));
    LowerValue a = lower_value(m, in, e->u.binary.lhs);
    LowerValue b = lower_value(m, in, e->u.binary.rhs);
    char x[64];
    if ((op == OP_MUL) && !lv_is_scalar(a) && !lv_is_scalar(b))
        return matrix_product(m, e, a, b);
    if (op == OP_DIV && !lv_is_scalar(b)) {
        diag_error(e->u.binary.rhs->span, "a division by a %s is not supported; "
                   "use ./ to divide element by element",
                   lower_size_text(x, sizeof x, b.rows, b.cols));
        return lv_scalar(m, dae_const(m->t, 0));
    }
    if (op == OP_POW && (!lv_is_scalar(a) || !lv_is_scalar(b))) {
        diag_error(e->span, "'^' takes scalars; use .^ for the element-wise power");
        return lv_scalar(m, dae_const(m->t, 0));
    }
    return broadcast(m, NULL, e, elementwise_kind(op), a, b);
}

/* ---- functions of vectors ------------------------------------------------------ */

/* What reduce() folds a vector with. */
typedef enum Reduction { RED_SUM, RED_MIN, RED_MAX } Reduction;

/* op over el[0 .. n-1], n >= 1, as numpy sums: blocks of 8 folded from the
   left, the blocks' results then paired in a balanced tree.  Up to 8
   elements that is the plain left fold; a longer vector's expression is
   log2(n) deep instead of n, which neither the compiler's walks nor the C
   compiler reading the generated code could follow for a long vector,
   and its rounding error grows like log n instead of n. */
static DaeExpr *add_op(DaeExprTable *t, DaeExpr *a, DaeExpr *b)
{
    return dae_add(t, a, b);
}

static DaeExpr *pairwise(Model *m, DaeExpr **el, int n,
                         DaeExpr *(*op)(DaeExprTable *, DaeExpr *, DaeExpr *))
{
    enum { BLOCK = 8 };
    int k = (n + BLOCK - 1) / BLOCK;
    DaeExpr **v = arena_alloc(m->arena, sizeof(DaeExpr *) * (size_t)(k + 1));
    for (int b = 0; b < k; b++) {
        DaeExpr *acc = el[b * BLOCK];
        for (int i = b * BLOCK + 1; i < n && i < (b + 1) * BLOCK; i++)
            acc = op(m->t, acc, el[i]);
        v[b] = acc;
    }
    while (k > 1) {
        int j = 0;
        for (int i = 0; i + 1 < k; i += 2)
            v[j++] = op(m->t, v[i], v[i + 1]);
        if (k % 2)
            v[j++] = v[k - 1];
        k = j;
    }
    return v[0];
}

/* min or max of el[0 .. n-1], n >= 1: the constants and parameters first,
   folded with fmin/fmax (dae_min, dae_max: no zero crossing, each operand
   once), then that and the elements that vary, paired in a balanced tree
   of if-expressions: n - 1 relations at most, the depth log2 n, and each
   operand under log2 n nodes (a left fold would nest every partial result
   in the next one's condition and branch). */
static DaeExpr *extremum(Model *m, DaeExpr **el, int n, Reduction fn)
{
    DaeExpr *(*pick)(DaeExprTable *, DaeExpr *, DaeExpr *) = fn == RED_MIN ? dae_min : dae_max;
    DaeExpr **v = arena_alloc(m->arena, sizeof(DaeExpr *) * (size_t)(n + 1));
    DaeExpr **fixed = arena_alloc(m->arena, sizeof(DaeExpr *) * (size_t)(n + 1));
    int k = 1, nfixed = 0;
    for (int i = 0; i < n; i++) {
        if (dae_depends_on_state(el[i]))
            v[k++] = el[i];
        else
            fixed[nfixed++] = el[i];
    }
    if (nfixed)
        v[0] = pairwise(m, fixed, nfixed, pick);
    else
        v++, k--;
    while (k > 1) {
        int j = 0;
        for (int i = 0; i + 1 < k; i += 2)
            v[j++] = pick(m->t, v[i], v[i + 1]);
        if (k % 2)
            v[j++] = v[k - 1];
        k = j;
    }
    return v[0];
}

/* sum, min or max over a vector (over each column of a matrix, as in
   MATLAB). */
static LowerValue reduce(Model *m, ElabInst *in, AstExpr *e, AstExpr *arg, Reduction fn)
{
    LowerValue v = lower_value(m, in, arg);
    bool vector = v.rows == 1 || v.cols == 1;
    int groups = vector ? 1 : v.cols, len = vector ? lv_numel(v) : v.rows;
    if (len == 0 && fn != RED_SUM) {
        diag_error(arg->span, "%s of an empty vector has no value",
                   e->u.call.func->name);
        return lv_scalar(m, dae_const(m->t, 0));
    }
    LowerValue r = lv_new(m, 1, groups);
    for (int g = 0; g < groups; g++) {
        DaeExpr **el = v.el + (size_t)g * (size_t)len;
        if (fn != RED_SUM) {
            r.el[g] = extremum(m, el, len, fn);
            continue;
        }
        r.el[g] = len ? pairwise(m, el, len, add_op) : dae_const(m->t, 0);
    }
    return r;
}

static LowerValue filled(Model *m, ElabInst *in, AstExpr **args, int n, double value)
{
    long r = 0, c = 0;
    LowerValue sz = n == 1 ? lower_value(m, in, args[0]) : lv_new(m, 0, 0);
    if (n == 1 && lv_numel(sz) == 2) {
        /* ones([r c]), ones(size(x)): the size as one row vector */
        double dr, dc;
        if (!known_number(m, sz.el[0], args[0], "a size", &dr)
            || !known_number(m, sz.el[1], args[0], "a size", &dc))
            return lv_new(m, 0, 0);
        if (!is_integer(dr) || !is_integer(dc)) {
            diag_error(args[0]->span, "a size must be an integer, not %.17g",
                       !is_integer(dr) ? dr : dc);
            return lv_new(m, 0, 0);
        }
        r = (long)dr;
        c = (long)dc;
    } else {
        if (!lower_int(m, in, args[0], "a size", &r)
            || (n > 1 && !lower_int(m, in, args[1], "a size", &c)))
            return lv_new(m, 0, 0);
        if (n == 1)
            c = r;
    }
    if (r < 0 || c < 0 || (double)r * (double)c > LOWER_MAX_ELEMENTS) {
        diag_error(args[0]->span, "a %ld-by-%ld matrix is not a size lmdlc makes: "
                   "sizes are 0 or more, and %d elements at most (the limit of one vector or "
                   "matrix, docs/language.md, \"Limits\")", r, c,
                   LOWER_MAX_ELEMENTS);
        return lv_new(m, 0, 0);
    }
    LowerValue v = lv_new(m, (int)r, (int)c);
    for (int k = 0; k < lv_numel(v); k++)
        v.el[k] = dae_const(m->t, value);
    return v;
}

int lower_var_index(Model *m, ElabInst *in, AstExpr *name)
{
    ElabSlot *s = elab_slot(in, name->u.name.parts[0].sym);
    if (!s || s->var < 0)
        return -1;
    AstNamePart *part = &name->u.name.parts[0];
    if (!part->nindex)
        return s->vec ? -1 : s->var;
    DaeExpr *x = lower_indexed(m, in, name, s);
    return x->kind == DX_VAR ? x->u.var.index : -1;
}

static LowerValue call_value(Model *m, ElabInst *in, AstExpr *e)
{
    AstExpr *args[8];
    int n = ast_call_positional(e, args, 8);
    int af = array_func_find(e->u.call.func->name);
    int k = builtin_find(e->u.call.func->name);
    if (af < 0 && (k == FN_MIN || k == FN_MAX) && n == 1)
        return reduce(m, in, e, args[0], k == FN_MIN ? RED_MIN : RED_MAX);
    LowerValue ew;
    if (af < 0 && k >= 0 && lower_elementwise(m, in, e, &ew))
        return ew;
    /* value(x, 'unit') of an array: each element in the unit */
    if (af < 0 && k < 0 && n >= 1 && !e->u.call.fn && !e->u.call.qual
        && special_find(e->u.call.func->name) == SF_VALUE) {
        LowerValue v = lower_value(m, in, args[0]);
        if (!lv_is_scalar(v)) {
            double offset;
            const RtUnit *u = elab_value_unit(m, e, &offset);
            LowerValue r = lv_new(m, v.rows, v.cols);
            for (int i = 0; i < lv_numel(r); i++)
                r.el[i] = u ? dae_sub(m->t, dae_div(m->t, v.el[i], dae_const(m->t, u->scale)),
                                      dae_const(m->t, offset))
                            : dae_const(m->t, 0);
            return r;
        }
    }
    if (e->u.call.fn)
        return lower_call_value(m, in, e);
    if (af < 0 || n < 1)
        return lv_scalar(m, lower_expr(m, in, e));
    switch (af) {
    case AF_NUMEL: {
        LowerValue v = lower_value(m, in, args[0]);
        return lv_scalar(m, dae_const(m->t, lv_numel(v)));
    }
    case AF_SIZE: {
        LowerValue v = lower_value(m, in, args[0]);
        if (n == 1) {
            LowerValue r = lv_new(m, 1, 2);
            r.el[0] = dae_const(m->t, v.rows);
            r.el[1] = dae_const(m->t, v.cols);
            return r;
        }
        long d;
        if (!lower_int(m, in, args[1], "the dimension of size()", &d))
            return lv_scalar(m, dae_const(m->t, 0));
        if (d < 1) {
            diag_error(args[1]->span, "the dimension of size() is 1 or more, not %ld", d);
            return lv_scalar(m, dae_const(m->t, 0));
        }
        return lv_scalar(m, dae_const(m->t, d == 1 ? v.rows : d == 2 ? v.cols : 1));
    }
    case AF_SUM: return reduce(m, in, e, args[0], RED_SUM);
    case AF_ZEROS: return filled(m, in, args, n, 0);
    case AF_ONES: return filled(m, in, args, n, 1);
    case AF_TABLELOOKUP: return lv_scalar(m, lower_table(m, in, e));
    default: return lower_matrix_call(m, in, e, af, args, n);
    }
}

DaeExpr *lower_array_call(Model *m, ElabInst *in, AstExpr *e)
{
    return lower_scalar_of(m, call_value(m, in, e), e);
}

/* ---- any expression ---------------------------------------------------------- */

LowerValue lower_value(Model *m, ElabInst *in, AstExpr *e)
{
    switch (e->kind) {
    case EXPR_NAME: return name_value(m, in, e);
    case EXPR_MATRIX: return matrix_value(m, in, e);
    case EXPR_RANGE: return range_value(m, in, e);
    case EXPR_CALL: return call_value(m, in, e);
    case EXPR_BINARY: return binary_value(m, in, e);
    case EXPR_UNARY: {
        if (e->u.unary.op == OP_NOT)
            return lv_scalar(m, lower_expr(m, in, e));
        LowerValue a = lower_value(m, in, e->u.unary.arg);
        if (e->u.unary.op == OP_TRANSPOSE) {
            /* column-major: element (i, j) of a is (j, i) of a' */
            LowerValue r = lv_new(m, a.cols, a.rows);
            for (int i = 0; i < a.rows; i++)
                for (int j = 0; j < a.cols; j++)
                    r.el[j + i * a.cols] = a.el[i + j * a.rows];
            return r;
        }
        LowerValue r = lv_new(m, a.rows, a.cols);
        for (int i = 0; i < lv_numel(a); i++)
            r.el[i] = e->u.unary.op == OP_NEG ? dae_neg(m->t, a.el[i]) : a.el[i];
        return r;
    }
    case EXPR_QUANTITY: {
        LowerValue v = lower_value(m, in, e->u.quantity.value);
        const RtUnit *u = elab_literal_unit(m, e);
        if (u)
            for (int i = 0; i < lv_numel(v); i++) {
                v.el[i] = dae_mul(m->t, dae_const(m->t, u->scale), v.el[i]);
                if (u->offset != 0)
                    v.el[i] = dae_add(m->t, v.el[i], dae_const(m->t, u->offset));
            }
        return v;
    }
    case EXPR_IF: {
        LowerValue a = lower_value(m, in, e->u.cond.then);
        LowerValue b = lower_value(m, in, e->u.cond.els);
        char x[64], y[64];
        if (a.rows != b.rows || a.cols != b.cols) {
            diag_error(e->span, "the branches of this if-expression have different "
                       "sizes: %s vs %s", lower_size_text(x, sizeof x, a.rows, a.cols),
                       lower_size_text(y, sizeof y, b.rows, b.cols));
            return lv_scalar(m, dae_const(m->t, 0));
        }
        DaeExpr *c = lower_expr(m, in, e->u.cond.cond);
        LowerValue r = lv_new(m, a.rows, a.cols);
        for (int i = 0; i < lv_numel(a); i++)
            r.el[i] = dae_if(m->t, c, a.el[i], b.el[i]);
        return r;
    }
    case EXPR_DER: {
        LowerValue a = lower_value(m, in, e->u.der.arg);
        PtrMap memo = {0};
        for (int i = 0; i < lv_numel(a); i++)
            a.el[i] = dae_diff_time(m->t, a.el[i], &memo);
        ptrmap_free(&memo);
        return a;
    }
    case EXPR_RECORD:
        for (int i = 0; i < e->u.record.n; i++)
            if (!strcmp(e->u.record.fields[i].name->name, "value"))
                return lower_value(m, in, e->u.record.fields[i].value);
        return lv_scalar(m, dae_const(m->t, 0));
    default:
        return lv_scalar(m, lower_expr(m, in, e));
    }
}

bool lower_equation_sides(Model *m, ElabInst *in, AstStmt *s, LowerValue *l, LowerValue *r)
{
    int errors = diag_error_attempts();
    *l = lower_value(m, in, s->u.eq.lhs);
    *r = lower_value(m, in, s->u.eq.rhs);
    if (diag_error_attempts() > errors)
        return false;   /* a side's own error; its size says nothing */
    if (l->rows == r->rows && l->cols == r->cols)
        return true;
    /* a scalar side that reads no variable stands for each element of the
       other, as in Simscape's mdot_A_i + mdot_B_i == 0 (one that reads a
       variable is a forgotten index: der(x(N)) == x) */
    LowerValue *one = lv_numel(*l) == 1 ? l : lv_numel(*r) == 1 ? r : NULL;
    if (one && !dae_depends_on_state(one->el[0])) {
        LowerValue *other = one == l ? r : l;
        LowerValue x = lv_new(m, other->rows, other->cols);
        for (int k = 0; k < lv_numel(x); k++)
            x.el[k] = one->el[0];
        *one = x;
        return true;
    }
    char a[64], b[64];
    diag_error(s->span, "the two sides of this equation have different sizes: %s "
               "(left) vs %s (right)", lower_size_text(a, sizeof a, l->rows, l->cols),
               lower_size_text(b, sizeof b, r->rows, r->cols));
    return false;
}
