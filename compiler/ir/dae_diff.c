/*
 * dae_diff.c - the symbolic differentiator: one routine for d/dt (index
 * reduction, der() of an expression, with der(v^(k)) = v^(k+1)) and for
 * partial derivatives d/dv (Jacobians).  Memoised per call on node
 * identity, so the derivative of a shared subexpression is built once and
 * the cost stays linear in the DAG's size; the terms of a zero derivative
 * are never built (a node that does not mention the variable, from its
 * flags and Bloom bits, has derivative 0).  The derivative of each
 * builtin is its diff_NAME function, named by its row of LMDL_BUILTINS.
 */
#include "dae.h"

#include <math.h>

/* One differentiation routine for d/dt, d/dvar and d/dparam. */
typedef struct Diff {
    DaeExprTable *t;
    int index, order;       /* variable, or index < 0 for time (or a
                               parameter: param >= 0) */
    PtrMap *memo;
    int param;              /* d/dparam: the parameter, else -1 */
    const PtrVec *params;   /* d/dparam: DaeParam*, whose expressions a
                               parameter defined by others is followed
                               through */
} Diff;

static DaeExpr *diff(Diff *d, DaeExpr *e);

/* The derivatives of the builtins (builtin.h): d f(a, b) from the call e
   and the derivatives da, db of its arguments (not both zero). */
typedef DaeExpr *(*DiffFn)(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db);

static DaeExpr *diff_sin(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db)
{
    (void)db;
    return dae_mul(t, dae_func(t, FN_COS, e->u.fn.a, NULL), da);
}

static DaeExpr *diff_cos(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db)
{
    (void)db;
    return dae_mul(t, dae_neg(t, dae_func(t, FN_SIN, e->u.fn.a, NULL)), da);
}

static DaeExpr *diff_tan(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db)
{
    (void)db;
    DaeExpr *c = dae_func(t, FN_COS, e->u.fn.a, NULL);
    return dae_mul(t, dae_div(t, dae_const(t, 1), dae_mul(t, c, c)), da);
}

/* 1 / sqrt(1 - a^2), for asin and acos */
static DaeExpr *inv_sqrt_1ma2(DaeExprTable *t, DaeExpr *a)
{
    DaeExpr *one = dae_const(t, 1);
    return dae_div(t, one, dae_func(t, FN_SQRT, dae_sub(t, one, dae_mul(t, a, a)), NULL));
}

static DaeExpr *diff_asin(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db)
{
    (void)db;
    return dae_mul(t, inv_sqrt_1ma2(t, e->u.fn.a), da);
}

static DaeExpr *diff_acos(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db)
{
    (void)db;
    return dae_mul(t, dae_neg(t, inv_sqrt_1ma2(t, e->u.fn.a)), da);
}

static DaeExpr *diff_atan(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db)
{
    (void)db;
    DaeExpr *one = dae_const(t, 1), *a = e->u.fn.a;
    return dae_mul(t, dae_div(t, one, dae_add(t, one, dae_mul(t, a, a))), da);
}

/* A term f * d of a derivative, d a derivative: 0 when d is exactly 0,
   whatever f is (a non-finite f shows in the expression being
   differentiated, where it is reported), so that derivatives never carry
   the 0 * f terms the product rule would build. */
static DaeExpr *dterm(DaeExprTable *t, DaeExpr *f, DaeExpr *d)
{
    return dae_is_const(d, 0) ? d : dae_mul(t, f, d);
}

/* d atan2(y, x) = (x dy - y dx) / (x^2 + y^2) */
static DaeExpr *diff_atan2(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db)
{
    DaeExpr *y = e->u.fn.a, *x = e->u.fn.b;
    return dae_div(t, dae_sub(t, dterm(t, x, da), dterm(t, y, db)),
                   dae_add(t, dae_mul(t, x, x), dae_mul(t, y, y)));
}

static DaeExpr *diff_sinh(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db)
{
    (void)db;
    return dae_mul(t, dae_func(t, FN_COSH, e->u.fn.a, NULL), da);
}

static DaeExpr *diff_cosh(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db)
{
    (void)db;
    return dae_mul(t, dae_func(t, FN_SINH, e->u.fn.a, NULL), da);
}

static DaeExpr *diff_tanh(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db)
{
    (void)db;
    DaeExpr *th = dae_func(t, FN_TANH, e->u.fn.a, NULL);
    return dae_mul(t, dae_sub(t, dae_const(t, 1), dae_mul(t, th, th)), da);
}

static DaeExpr *diff_exp(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db)
{
    (void)db;
    return dae_mul(t, e, da);
}

static DaeExpr *diff_log(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db)
{
    (void)db;
    return dae_mul(t, dae_div(t, dae_const(t, 1), e->u.fn.a), da);
}

static DaeExpr *diff_log10(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db)
{
    (void)db;
    return dae_mul(t, dae_div(t, dae_const(t, 1), dae_mul(t, e->u.fn.a,
                                                          dae_const(t, log(10.0)))), da);
}

static DaeExpr *diff_sqrt(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db)
{
    (void)db;
    return dae_mul(t, dae_div(t, dae_const(t, 1), dae_mul(t, dae_const(t, 2), e)), da);
}

/* floor, ceil, round, fix, the tests and nesign: piecewise constant. */
static DaeExpr *diff_zero(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db)
{
    (void)e, (void)da, (void)db;
    return dae_const(t, 0);
}

/* d mod(a, b) = da - floor(a / b) db, and rem's with fix (the steps
   themselves are piecewise constant). */
static DaeExpr *diff_mod(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db)
{
    DaeExpr *q = dae_func(t, FN_FLOOR, dae_div(t, e->u.fn.a, e->u.fn.b), NULL);
    return dae_sub(t, da, dae_mul(t, q, db));
}

static DaeExpr *diff_rem(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db)
{
    DaeExpr *q = dae_func(t, FN_FIX, dae_div(t, e->u.fn.a, e->u.fn.b), NULL);
    return dae_sub(t, da, dae_mul(t, q, db));
}

/* neabs, the abs without a zero crossing: sign(a) da, the sign itself
   without one either */
static DaeExpr *diff_neabs(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db)
{
    (void)db;
    return dae_mul(t, dae_func(t, FN_NESIGN, e->u.fn.a, NULL), da);
}

/* fmin and fmax of constants and parameters: the derivative of the
   operand chosen (0 in practice, but exact). */
static DaeExpr *diff_fmin(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db)
{
    return dae_if(t, dae_binary(t, DX_LE, e->u.fn.a, e->u.fn.b), da, db);
}

static DaeExpr *diff_fmax(DaeExprTable *t, DaeExpr *e, DaeExpr *da, DaeExpr *db)
{
    return dae_if(t, dae_binary(t, DX_GE, e->u.fn.a, e->u.fn.b), da, db);
}

static DaeExpr *diff_func(Diff *d, DaeExpr *e)
{
    static const DiffFn derivative[] = {
#define X_DIFF(id, name, c, arity, units, lower, eval, finite, diff) diff,
        LMDL_BUILTINS(X_DIFF)
    };
    DaeExprTable *t = d->t;
    DaeExpr *da = diff(d, e->u.fn.a);
    DaeExpr *db = e->u.fn.b ? diff(d, e->u.fn.b) : dae_const(t, 0);
    if (dae_is_const(da, 0) && dae_is_const(db, 0))
        return dae_const(t, 0);
    DiffFn f = derivative[e->u.fn.fn];
    return f ? f(t, e, da, db) : dae_const(t, NAN);
}

static bool is_parametric(const DaeExpr *e)
{
    return !dae_depends_on_state(e);
}

static DaeExpr *diff(Diff *d, DaeExpr *e)
{
    /* what does not depend on the variable (or on time) has derivative 0;
       a parameter hides in any node, so d/dparam looks at every one */
    if (d->param < 0
        && (d->index < 0 ? !dae_depends_on_state(e)
                         : !(e->vars & dae_var_bit(d->index, d->order))))
        return dae_const(d->t, 0);
    DaeExpr *done = ptrmap_get(d->memo, e);
    if (done)
        return done;
    DaeExprTable *t = d->t;
    DaeExpr *r, *a = e->u.bin.a, *b = e->u.bin.b;
    switch (e->kind) {
    case DX_PARAM:
        if (d->param < 0) {
            r = dae_const(t, 0);
        } else if (e->u.index == d->param) {
            r = dae_const(t, 1);
        } else {
            /* a parameter bound to an expression of others (a child's
               input bound to the top model's) */
            const DaeParam *q = e->u.index < d->params->n ? d->params->items[e->u.index] : NULL;
            r = q && q->expr && q->expr != e ? diff(d, q->expr) : dae_const(t, 0);
        }
        break;
    case DX_CONST: case DX_EVAR: case DX_INITIAL: case DX_EDGE:
        r = dae_const(t, 0);    /* event variables: piecewise constant */
        break;
    case DX_DELAY:
        /* Partial derivatives: the delayed value is history, a known
           input now (tau's own dependence is not followed).  The time
           derivative is not supported (NAN): a delay in an equation that
           index reduction differentiates is an error (plan.c). */
        r = dae_const(t, d->index < 0 && d->param < 0 ? NAN : 0);
        break;
    case DX_TIME:
        r = dae_const(t, d->index < 0 && d->param < 0 ? 1 : 0);
        break;
    case DX_VAR:
        if (d->param >= 0)
            r = dae_const(t, 0);
        else if (d->index < 0)
            r = dae_var(t, e->u.var.index, e->u.var.order + 1);
        else
            r = dae_const(t, e->u.var.index == d->index && e->u.var.order == d->order);
        break;
    case DX_ADD: r = dae_add(t, diff(d, a), diff(d, b)); break;
    case DX_SUB: r = dae_sub(t, diff(d, a), diff(d, b)); break;
    case DX_NEG: r = dae_neg(t, diff(d, a)); break;
    case DX_MUL:
        r = dae_add(t, dterm(t, b, diff(d, a)), dterm(t, a, diff(d, b)));
        break;
    case DX_DIV: {
        DaeExpr *da = diff(d, a), *db = diff(d, b);
        if (dae_is_const(db, 0))
            r = dae_is_const(da, 0) ? da : dae_div(t, da, b);
        else
            r = dae_div(t, dae_sub(t, dterm(t, b, da), dterm(t, a, db)),
                        dae_mul(t, b, b));
        break;
    }
    case DX_POW: {
        DaeExpr *da = diff(d, a);
        if (is_parametric(b)) {
            /* b * a^(b-1) * da */
            r = dterm(t, dae_mul(t, b, dae_binary(t, DX_POW, a,
                      dae_sub(t, b, dae_const(t, 1)))), da);
        } else {
            /* a^b * (db * log(a) + b * da / a) */
            DaeExpr *db = diff(d, b);
            DaeExpr *via_a = dae_is_const(da, 0) ? da : dae_div(t, dae_mul(t, b, da), a);
            r = dae_mul(t, e, dae_add(t, dterm(t, dae_func(t, FN_LOG, a, NULL), db), via_a));
        }
        break;
    }
    case DX_FUNC: r = diff_func(d, e); break;
    case DX_LOOKUP: {
        /* d f(x1, x2) = f_x1 dx1 + f_x2 dx2, in the same segments */
        DaeExpr *s1 = e->u.look.s1, *s2 = e->u.look.s2;
        int d1 = e->u.look.d1, d2 = e->u.look.d2;
        r = dae_mul(t, dae_lookup(t, s1, s2, d1 + 1, d2), diff(d, s1->u.seg.x));
        if (s2)
            r = dae_add(t, r, dae_mul(t, dae_lookup(t, s1, s2, d1, d2 + 1),
                                      diff(d, s2->u.seg.x)));
        break;
    }
    case DX_IF:
        r = dae_if(t, e->u.cond.c, diff(d, e->u.cond.a), diff(d, e->u.cond.b));
        break;
    default: /* relations, logic and segments are piecewise constant */
        r = dae_const(t, 0);
        break;
    }
    ptrmap_put(d->memo, e, r);
    return r;
}

/* One derivative with the caller's memo, or (memo NULL) with the table's
   scratch memo, emptied after it and kept for the next one: most callers
   take one derivative at a time, 100,000s in a big model. */
static DaeExpr *diff_once(Diff *d, DaeExpr *e)
{
    if (d->memo)
        return diff(d, e);
    d->memo = &d->t->diff_memo;
    DaeExpr *r = diff(d, e);
    ptrmap_clear(d->memo);
    return r;
}

DaeExpr *dae_diff_time(DaeExprTable *t, DaeExpr *e, PtrMap *memo)
{
    Diff d = {t, -1, 0, memo, -1, NULL};
    return diff_once(&d, e);
}

DaeExpr *dae_diff_var(DaeExprTable *t, DaeExpr *e, int index, int order, PtrMap *memo)
{
    Diff d = {t, index, order, memo, -1, NULL};
    return diff_once(&d, e);
}

DaeExpr *dae_diff_param(DaeExprTable *t, const PtrVec *params, DaeExpr *e, int param,
                        PtrMap *memo)
{
    Diff d = {t, -1, 0, memo, param, params};
    return diff(&d, e);
}

