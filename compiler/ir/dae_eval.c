/*
 * dae_eval.c - evaluating an expression: at given parameters, variables
 * and time (dae_eval, which the compiler uses for start values, Jacobians
 * at the defaults and compile-time checks, with the runtime's table
 * interpolants), and finding the part of an expression that is surely
 * evaluated and not finite at the defaults (dae_nonfinite_part).
 */
#include "dae_internal.h"

#include "rt_table.h"

#include <math.h>

/* ---- values that are not finite ------------------------------------------- */

/* Relations and logic: 0 or 1 whatever their operands are. */
static bool is_logical(const DaeExpr *e)
{
    return dae_is_relation(e) || e->kind == DX_AND || e->kind == DX_OR
           || e->kind == DX_NOT;
}

/* The children of x that are surely evaluated when x is: a branch of an
   if only when its condition is known at the defaults, the second operand
   of && and || only when the first does not decide. */
static int evaluated_children(DaeExprTable *t, const DaeExpr *x, DaeExpr *k[3])
{
    int n = dae_children(x, k);
    if (x->kind == DX_IF) {
        DaeExpr *c = k[0];
        if (dae_depends_on_state(c))
            return 1;
        double v = dae_default_value(t, c);
        if (isnan(v))
            return 1;
        k[1] = v != 0 ? k[1] : k[2];
        return 2;
    }
    if (x->kind == DX_AND || x->kind == DX_OR) {
        if (dae_depends_on_state(k[0]))
            return 1;
        double v = dae_default_value(t, k[0]);
        return (x->kind == DX_AND) == (v != 0) ? 2 : 1;
    }
    return n;
}

/* Within a piece whose value is not finite: the innermost operation
   whose evaluated operands are all finite. */
static const DaeExpr *innermost_nonfinite(DaeExprTable *t, const DaeExpr *x)
{
    for (;;) {
        DaeExpr *k[3];
        int n = evaluated_children(t, x, k);
        const DaeExpr *next = NULL;
        for (int i = 0; i < n && !next; i++)
            if (!isfinite(dae_default_value(t, k[i])))
                next = k[i];
        if (!next)
            return x;
        x = next;
    }
}

const DaeExpr *dae_nonfinite_part(DaeExprTable *t, const DaeExpr *e)
{
    dae_walk_begin(t);
    size_t sp = 0;
    dae_walk_push(t, &sp, e);
    t->mark[e->id] = t->stamp;
    while (sp) {
        const DaeExpr *x = t->stack[--sp];
        /* a largest piece of constants and parameters: its value */
        if (!dae_depends_on_state(x) && !is_logical(x) && x->kind != DX_IF) {
            if (!isfinite(dae_default_value(t, x)))
                return innermost_nonfinite(t, x);
            continue;
        }
        DaeExpr *k[3];
        int n = evaluated_children(t, x, k);
        bool relation = dae_is_relation(x);
        for (int i = 0; i < n; i++) {
            if (t->mark[k[i]->id] == t->stamp)
                continue;
            /* a bound declared infinite, compared with a value, is a
               finite answer (x < inf): Simscape's saturations take inf
               limits; an infinity computed here (1 / 0) is still a fault */
            if (relation && !dae_depends_on_state(k[i])
                && isinf(dae_default_value(t, k[i]))) {
                const DaeExpr *src = innermost_nonfinite(t, k[i]);
                if (src->kind == DX_PARAM || src->kind == DX_CONST)
                    continue;
            }
            t->mark[k[i]->id] = t->stamp;
            dae_walk_push(t, &sp, k[i]);
        }
    }
    return NULL;
}

double dae_eval(const DaeExpr *e, const double *p, const double *vars, double time)
{
    switch (e->kind) {
    case DX_CONST: return e->u.value;
    case DX_PARAM: return p[e->u.index];
    case DX_TIME: return vars ? time : NAN;
    case DX_EVAR: return e->u.evar.start;
    case DX_INITIAL: case DX_EDGE: return 0;
    case DX_DELAY:  /* at the start: its history */
        return dae_eval(e->u.cond.b ? e->u.cond.b : e->u.cond.c, p, vars, time);
    case DX_VAR:
        if (!vars)
            return NAN;
        return e->u.var.order == 0 ? vars[e->u.var.index] : 0;
    case DX_NEG: return -dae_eval(e->u.bin.a, p, vars, time);
    case DX_NOT: return dae_eval(e->u.bin.a, p, vars, time) == 0;
    case DX_FUNC:
        return dae_fold_fn(e->u.fn.fn, dae_eval(e->u.fn.a, p, vars, time),
                       e->u.fn.b ? dae_eval(e->u.fn.b, p, vars, time) : 0);
    case DX_IF: {
        double c = dae_eval(e->u.cond.c, p, vars, time);
        if (isnan(c))
            return NAN;
        return c != 0 ? dae_eval(e->u.cond.a, p, vars, time)
                      : dae_eval(e->u.cond.b, p, vars, time);
    }
    case DX_SEGMENT: {
        /* the segment the query is in: the same search as the simulator's */
        const DaeTable *tb = e->u.seg.tab;
        double x = dae_eval(e->u.seg.x, p, vars, time);
        if (isnan(x))
            return NAN;
        return rt_grid_segment(p + tb->grid[e->u.seg.axis], tb->n[e->u.seg.axis], x);
    }
    case DX_LOOKUP: {
        const DaeExpr *s1 = e->u.look.s1, *s2 = e->u.look.s2;
        const DaeTable *tb = s1->u.seg.tab;
        double x1 = dae_eval(s1->u.seg.x, p, vars, time);
        double x2 = s2 ? dae_eval(s2->u.seg.x, p, vars, time) : 0;
        if (isnan(x1) || isnan(x2))
            return NAN;
        int k1 = rt_grid_segment(p + tb->grid[0], tb->n[0], x1);
        if (!s2)
            return rt_table1(p + tb->grid[0], tb->n[0], p + tb->data, tb->interp,
                             tb->extrap, k1, x1, e->u.look.d1);
        int k2 = rt_grid_segment(p + tb->grid[1], tb->n[1], x2);
        return rt_table2(p + tb->grid[0], tb->n[0], p + tb->grid[1], tb->n[1], p + tb->data,
                         tb->interp, tb->extrap, k1, k2, x1, x2, e->u.look.d1, e->u.look.d2);
    }
    default:
        return dae_fold(e->kind, dae_eval(e->u.bin.a, p, vars, time),
                    dae_eval(e->u.bin.b, p, vars, time));
    }
}

double dae_eval_params(const DaeExpr *e, const double *p)
{
    return dae_eval(e, p, NULL, NAN);
}

