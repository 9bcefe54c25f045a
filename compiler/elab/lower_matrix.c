/*
 * lower_matrix.c - the functions of vectors and matrices beyond sum, size
 * and the fills (lower_array.c): MATLAB's length, prod, mean, cumsum,
 * diff, dot, cross, norm, all, any, eye, repmat, reshape, linspace, diag,
 * tril and triu, and the scalar built-ins applied element by element
 * (sqrt(v), abs(M), max(a, v)), lowered to their scalar elements as
 * every array is (lower_array.c, "scalarization").
 *
 * As in MATLAB, a reduction of a matrix works on each column (prod(M) is
 * a row), cumsum and diff run down the columns, and reshape keeps the
 * column-major order of the elements.  Sizes and counts are known at
 * compile time (resolution made their parameters structural).
 */
#include "lower.h"

#include "diag.h"
#include "bounds.h"

#include <math.h>
#include <string.h>

static int numel(LowerValue v)
{
    return v.rows * v.cols;
}

static LowerValue scalar(Model *m, DaeExpr *e)
{
    LowerValue v = lower_value_new(m, 1, 1);
    v.el[0] = e;
    return v;
}

/* A size argument: a whole number from 0 up to the element limit. */
static bool size_arg(Model *m, ElabInst *in, AstExpr *a, long *out)
{
    if (!lower_int(m, in, a, "a size", out))
        return false;
    if (*out < 0 || *out > LIMIT_ARRAY_ELEMENTS) {
        diag_error(a->span, "a size is 0 or more and %d at most, not %ld",
                   LIMIT_ARRAY_ELEMENTS, *out);
        return false;
    }
    return true;
}

static bool fits(AstExpr *e, double rows, double cols)
{
    if (rows * cols > LIMIT_ARRAY_ELEMENTS) {
        diag_error(e->span, "this matrix would have %.0f elements, more than %d, the "
                   "limit of one vector or matrix (docs/language.md, \"Limits\")",
                   rows * cols, LIMIT_ARRAY_ELEMENTS);
        return false;
    }
    return true;
}

/* The columns a reduction works on: a vector is one, a matrix each of its
   columns. */
static void columns(LowerValue v, int *groups, int *len)
{
    bool vector = v.rows == 1 || v.cols == 1;
    *groups = vector ? 1 : v.cols;
    *len = vector ? numel(v) : v.rows;
}

static bool is_vector(LowerValue v)
{
    return v.rows == 1 || v.cols == 1;
}

static LowerValue reduction(Model *m, LowerValue v, int af)
{
    DaeExprTable *t = m->t;
    int groups, len;
    columns(v, &groups, &len);
    LowerValue r = lower_value_new(m, 1, groups);
    for (int g = 0; g < groups; g++) {
        DaeExpr **el = v.el + (size_t)g * (size_t)len;
        DaeExpr *acc;
        switch (af) {
        case AF_PROD:
            acc = dae_const(t, 1);
            for (int i = 0; i < len; i++)
                acc = dae_mul(t, acc, el[i]);
            break;
        case AF_MEAN:
            acc = dae_const(t, 0);
            for (int i = 0; i < len; i++)
                acc = dae_add(t, acc, el[i]);
            acc = len ? dae_div(t, acc, dae_const(t, len)) : dae_const(t, NAN);
            break;
        case AF_ALL:
        case AF_ANY:
            /* true/false of every or some element being nonzero (an
               element that is true/false already is itself) */
            acc = dae_const(t, af == AF_ALL);
            for (int i = 0; i < len; i++) {
                bool logical = dae_is_relation(el[i]) || el[i]->kind == DX_AND
                               || el[i]->kind == DX_OR || el[i]->kind == DX_NOT;
                DaeExpr *nz = logical ? el[i] : dae_binary(t, DX_NE, el[i], dae_const(t, 0));
                acc = dae_binary(t, af == AF_ALL ? DX_AND : DX_OR, acc, nz);
            }
            break;
        default: /* AF_NORM of a vector: the square root of the sum of squares */
            acc = dae_const(t, 0);
            for (int i = 0; i < len; i++)
                acc = dae_add(t, acc, dae_mul(t, el[i], el[i]));
            acc = dae_func(t, FN_SQRT, acc, NULL);
            break;
        }
        r.el[g] = acc;
    }
    return r;
}

/* cumsum and diff, down each column (along a vector). */
static LowerValue running(Model *m, LowerValue v, int af)
{
    DaeExprTable *t = m->t;
    int groups, len;
    columns(v, &groups, &len);
    int outlen = af == AF_DIFF ? (len > 0 ? len - 1 : 0) : len;
    LowerValue r = is_vector(v) ? (v.rows == 1 ? lower_value_new(m, 1, outlen)
                                               : lower_value_new(m, outlen, 1))
                                : lower_value_new(m, outlen, v.cols);
    for (int g = 0; g < groups; g++) {
        DaeExpr **el = v.el + (size_t)g * (size_t)len;
        DaeExpr **out = r.el + (size_t)g * (size_t)outlen;
        DaeExpr *acc = dae_const(t, 0);
        for (int i = 0; i < outlen; i++) {
            if (af == AF_CUMSUM) {
                acc = i ? dae_add(t, acc, el[i]) : el[0];
                out[i] = acc;
            } else {
                out[i] = dae_sub(t, el[i + 1], el[i]);
            }
        }
    }
    return r;
}

static LowerValue products(Model *m, AstExpr *e, LowerValue a, LowerValue b, int af)
{
    DaeExprTable *t = m->t;
    char x[64], y[64];
    if (!is_vector(a) || !is_vector(b) || numel(a) != numel(b)
        || (af == AF_CROSS && numel(a) != 3)) {
        diag_error(e->span, "%s takes two vectors of %s: these are a %s and a %s",
                   af == AF_DOT ? "dot" : "cross",
                   af == AF_DOT ? "one length" : "3 elements",
                   lower_size_text(x, sizeof x, a.rows, a.cols),
                   lower_size_text(y, sizeof y, b.rows, b.cols));
        return scalar(m, dae_const(t, 0));
    }
    if (af == AF_DOT) {
        DaeExpr *acc = dae_const(t, 0);
        for (int i = 0; i < numel(a); i++)
            acc = dae_add(t, acc, dae_mul(t, a.el[i], b.el[i]));
        return scalar(m, acc);
    }
    LowerValue r = lower_value_new(m, a.rows, a.cols);
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        r.el[i] = dae_sub(t, dae_mul(t, a.el[j], b.el[k]), dae_mul(t, a.el[k], b.el[j]));
    }
    return r;
}

static LowerValue eye(Model *m, ElabInst *in, AstExpr **args, int n)
{
    long r, c;
    if (!size_arg(m, in, args[0], &r) || (n > 1 && !size_arg(m, in, args[1], &c)))
        return lower_value_new(m, 0, 0);
    if (n == 1)
        c = r;
    if (!fits(args[0], (double)r, (double)c))
        return lower_value_new(m, 0, 0);
    LowerValue v = lower_value_new(m, (int)r, (int)c);
    for (long j = 0; j < c; j++)
        for (long i = 0; i < r; i++)
            v.el[i + j * r] = dae_const(m->t, i == j);
    return v;
}

/* repmat(A, m, n), repmat(A, [m n]), repmat(A, n) */
static LowerValue repmat(Model *m, ElabInst *in, AstExpr *e, AstExpr **args, int n)
{
    LowerValue a = lower_value(m, in, args[0]);
    long rm, cm;
    if (n == 2) {
        LowerValue s = lower_value(m, in, args[1]);
        if (numel(s) == 2) {
            AstExpr *at = args[1];
            double d0 = dae_eval_params(s.el[0], elab_param_values(m));
            double d1 = dae_eval_params(s.el[1], elab_param_values(m));
            if (d0 != floor(d0) || d1 != floor(d1) || d0 < 0 || d1 < 0) {
                diag_error(at->span, "the repetitions of repmat are whole numbers");
                return lower_value_new(m, 0, 0);
            }
            rm = (long)d0;
            cm = (long)d1;
        } else {
            if (!size_arg(m, in, args[1], &rm))
                return lower_value_new(m, 0, 0);
            cm = rm;
        }
    } else if (!size_arg(m, in, args[1], &rm) || !size_arg(m, in, args[2], &cm)) {
        return lower_value_new(m, 0, 0);
    }
    if (!fits(e, (double)a.rows * (double)rm, (double)a.cols * (double)cm))
        return lower_value_new(m, 0, 0);
    int R = a.rows * (int)rm, C = a.cols * (int)cm;
    LowerValue v = lower_value_new(m, R, C);
    for (int j = 0; j < C; j++)
        for (int i = 0; i < R; i++)
            v.el[i + (size_t)j * (size_t)R] = a.el[i % a.rows + (size_t)(j % a.cols) * (size_t)a.rows];
    return v;
}

static LowerValue reshape(Model *m, ElabInst *in, AstExpr *e, AstExpr **args, int n)
{
    LowerValue a = lower_value(m, in, args[0]);
    long r, c;
    if (n == 2) {
        LowerValue s = lower_value(m, in, args[1]);
        if (numel(s) != 2) {
            diag_error(args[1]->span, "the size of reshape is two numbers, [rows cols]");
            return lower_value_new(m, 0, 0);
        }
        r = (long)dae_eval_params(s.el[0], elab_param_values(m));
        c = (long)dae_eval_params(s.el[1], elab_param_values(m));
    } else if (!size_arg(m, in, args[1], &r) || !size_arg(m, in, args[2], &c)) {
        return lower_value_new(m, 0, 0);
    }
    if ((double)r * (double)c != numel(a)) {
        char x[64];
        diag_error(e->span, "reshape to %ld-by-%ld needs %.0f elements, but this is a %s",
                   r, c, (double)r * (double)c, lower_size_text(x, sizeof x, a.rows, a.cols));
        return lower_value_new(m, 0, 0);
    }
    LowerValue v = lower_value_new(m, (int)r, (int)c);
    memcpy(v.el, a.el, sizeof(DaeExpr *) * (size_t)numel(a));
    return v;
}

static LowerValue linspace(Model *m, ElabInst *in, AstExpr *e, AstExpr **args, int n)
{
    DaeExprTable *t = m->t;
    DaeExpr *a = lower_expr(m, in, args[0]), *b = lower_expr(m, in, args[1]);
    long k = 100;
    if (n == 3 && !size_arg(m, in, args[2], &k))
        return lower_value_new(m, 0, 0);
    if (!fits(e, 1, (double)k))
        return lower_value_new(m, 0, 0);
    LowerValue v = lower_value_new(m, 1, (int)k);
    for (long i = 0; i < k; i++) {
        /* a + i (b - a) / (k - 1), the last exactly b */
        v.el[i] = i == k - 1 ? b
                             : dae_add(t, a, dae_mul(t, dae_const(t, (double)i / (double)(k - 1)),
                                                     dae_sub(t, b, a)));
    }
    return v;
}

/* diag(v): the square matrix with v on its diagonal; diag(M): M's
   diagonal, a column. */
static LowerValue diagonal(Model *m, LowerValue a)
{
    if (is_vector(a)) {
        int k = numel(a);
        LowerValue v = lower_value_new(m, k, k);
        for (int j = 0; j < k; j++)
            for (int i = 0; i < k; i++)
                v.el[i + (size_t)j * (size_t)k] = i == j ? a.el[i] : dae_const(m->t, 0);
        return v;
    }
    int k = a.rows < a.cols ? a.rows : a.cols;
    LowerValue v = lower_value_new(m, k, 1);
    for (int i = 0; i < k; i++)
        v.el[i] = a.el[i + (size_t)i * (size_t)a.rows];
    return v;
}

static LowerValue triangle(Model *m, LowerValue a, bool lower)
{
    LowerValue v = lower_value_new(m, a.rows, a.cols);
    for (int j = 0; j < a.cols; j++)
        for (int i = 0; i < a.rows; i++) {
            bool keep = lower ? i >= j : i <= j;
            size_t at = i + (size_t)j * (size_t)a.rows;
            v.el[at] = keep ? a.el[at] : dae_const(m->t, 0);
        }
    return v;
}

LowerValue lower_matrix_call(Model *m, ElabInst *in, AstExpr *e, int af, AstExpr **args, int n)
{
    switch (af) {
    case AF_LENGTH: {
        LowerValue v = lower_value(m, in, args[0]);
        return scalar(m, dae_const(m->t, numel(v) ? (v.rows > v.cols ? v.rows : v.cols) : 0));
    }
    case AF_PROD: case AF_MEAN: case AF_ALL: case AF_ANY: case AF_NORM: {
        LowerValue v = lower_value(m, in, args[0]);
        if (af == AF_NORM && !is_vector(v)) {
            char x[64];
            diag_error(args[0]->span, "norm of a matrix is not supported: this is a %s; "
                       "norm takes a vector", lower_size_text(x, sizeof x, v.rows, v.cols));
            return scalar(m, dae_const(m->t, 0));
        }
        return reduction(m, v, af);
    }
    case AF_CUMSUM:
        return running(m, lower_value(m, in, args[0]), af);
    case AF_DIFF: {
        /* diff(x, k): the k-th differences, diff applied k times */
        long k = 1;
        if (n > 1 && !size_arg(m, in, args[1], &k))
            return lower_value_new(m, 0, 0);
        LowerValue v = lower_value(m, in, args[0]);
        for (long i = 0; i < k && numel(v) > 0; i++)
            v = running(m, v, af);
        return v;
    }
    case AF_DOT: case AF_CROSS:
        return products(m, e, lower_value(m, in, args[0]), lower_value(m, in, args[1]), af);
    case AF_EYE: return eye(m, in, args, n);
    case AF_REPMAT: return repmat(m, in, e, args, n);
    case AF_RESHAPE: return reshape(m, in, e, args, n);
    case AF_LINSPACE: return linspace(m, in, e, args, n);
    case AF_DIAG: return diagonal(m, lower_value(m, in, args[0]));
    case AF_TRIL: case AF_TRIU:
        return triangle(m, lower_value(m, in, args[0]), af == AF_TRIL);
    default:
        /* a row of LMDL_ARRAY_FUNCS that no case lowers: the compiler's
           fault, said as such rather than a silent 0 */
        diag_error(e->span, "internal error: the array function '%s' has no "
                   "lowering (compiler/elab/lower_matrix.c)", array_func_names[af]);
        return scalar(m, dae_const(m->t, 0));
    }
}

bool lower_elementwise(Model *m, ElabInst *in, AstExpr *e, LowerValue *out)
{
    AstExpr *args[2];
    int n = ast_call_positional(e, args, 2);
    int k = builtin_find(e->u.call.func->name);
    if (k < 0 || n < 1 || n > 2 || n != builtin_arity[k] || e->u.call.fn)
        return false;
    LowerValue a = lower_value(m, in, args[0]);
    LowerValue b = n == 2 ? lower_value(m, in, args[1]) : a;
    if (numel(a) == 1 && numel(b) == 1)
        return false; /* a scalar call: lower_expr's */
    char x[64], y[64];
    if (numel(a) != 1 && numel(b) != 1 && (a.rows != b.rows || a.cols != b.cols)) {
        diag_error(e->span, "the arguments of %s have different sizes: %s vs %s",
                   builtin_names[k], lower_size_text(x, sizeof x, a.rows, a.cols),
                   lower_size_text(y, sizeof y, b.rows, b.cols));
        *out = scalar(m, dae_const(m->t, 0));
        return true;
    }
    LowerValue big = numel(a) != 1 ? a : b;
    LowerValue r = lower_value_new(m, big.rows, big.cols);
    for (int i = 0; i < numel(big); i++)
        r.el[i] = lower_builtin(m, in, e, (DaeFunc)k, a.el[numel(a) == 1 ? 0 : i],
                                n == 2 ? b.el[numel(b) == 1 ? 0 : i] : NULL);
    *out = r;
    return true;
}
