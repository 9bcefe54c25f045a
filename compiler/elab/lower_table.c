/*
 * lower_table.c - tablelookup(x1, ..., f, q1, ..., interpolation = ...,
 * extrapolation = ...) lowered to a DAE lookup node: the grids and the
 * values become run-time parameters of a DaeTable (their sizes and
 * orders checked here, the grid's values structural), and each query
 * an argument of the lookup.  An extrapolation = error table says so at
 * compile time for a query known to be off its grid.
 */
#include "lower.h"

#include "diag.h"
#include "rt_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- tablelookup ------------------------------------------------------------ */

/* interpolation = linear|smooth, extrapolation = linear|nearest|error
   (resolution checked the words). */
static void table_options(AstExpr *e, int *interp, int *extrap)
{
    *interp = RT_INTERP_LINEAR;
    *extrap = RT_EXTRAP_LINEAR;
    for (int i = 0; i < e->u.call.args.n; i++) {
        AstExpr *o = e->u.call.args.items[i];
        if (o->kind != EXPR_OPTION || !ast_is_simple_name(o->u.option.value))
            continue;
        const char *w = o->u.option.value->u.name.parts[0].sym->name;
        if (!strcmp(o->u.option.name->name, "interpolation"))
            *interp = !strcmp(w, "smooth") ? RT_INTERP_SMOOTH : RT_INTERP_LINEAR;
        else
            *extrap = !strcmp(w, "nearest") ? RT_EXTRAP_NEAREST
                      : !strcmp(w, "error") ? RT_EXTRAP_ERROR : RT_EXTRAP_LINEAR;
    }
}

/* The first of consecutive run-time parameters holding v: v's own when
   it is a parameter vector (or matrix) stored in that order, else new
   parameters `INSTANCE.tablelookupL_C.WHAT(k)` computed from v's
   elements, so that the simulator finds every table in p[]. */
static int table_params(Model *m, ElabInst *in, AstExpr *call, AstExpr *arg, LowerValue v,
                        const char *what)
{
    int n = (v.rows * v.cols);
    bool own = n > 0 && v.el[0]->kind == DX_PARAM;
    for (int k = 1; own && k < n; k++)
        own = v.el[k]->kind == DX_PARAM && v.el[k]->u.index == v.el[0]->u.index + k;
    if (own)
        return v.el[0]->u.index;
    int line, col;
    src_linecol(call->span, &line, &col);
    const char *base = elab_qualify(m, in, arena_printf(m->arena, "tablelookup%d_%d.%s",
                                                         line, col, what));
    int first = m->plist->n;
    for (int k = 0; k < n; k++) {
        const char *name = v.rows == 1 || v.cols == 1
                               ? arena_printf(m->arena, "%s(%d)", base, k + 1)
                               : arena_printf(m->arena, "%s(%d,%d)", base, k % v.rows + 1,
                                              k / v.rows + 1);
        DaeParam *p = elab_param(m, elab_new_param(m, name, arg->span, v.el[k]));
        elab_dim_of_expr(m, &p->dim, NULL, in, arg);
        p->access = RT_PARAM_INTERNAL;  /* computed from the model's own */
    }
    return first;
}

/* A grid: a vector of at least two parameters, strictly monotonic at
   their values here (the simulator checks again after --param). */
static bool table_grid(Model *m, AstExpr *arg, LowerValue v, int axis)
{
    char b[64];
    const char *name = axis ? "x2d" : "x1d";
    if ((v.rows != 1 && v.cols != 1) || (v.rows * v.cols) < 2) {
        diag_error(arg->span, "the grid %s of tablelookup is a vector of at least 2 "
                   "points; this is a %s", name, lower_size_text(b, sizeof b, v.rows, v.cols));
        return false;
    }
    double *g = arena_alloc(m->arena, sizeof(double) * (size_t)(v.rows * v.cols));
    for (int k = 0; k < (v.rows * v.cols); k++) {
        if (dae_depends_on_state(v.el[k])) {
            diag_error(arg->span, "the grid %s of tablelookup may use only parameters",
                       name);
            return false;
        }
        g[k] = dae_eval_params(v.el[k], elab_param_values(m));
    }
    int bad = rt_grid_check(g, (v.rows * v.cols));
    if (bad > 0) {
        diag_error(arg->span, "the grid %s of tablelookup must be strictly monotonic, "
                   "increasing or decreasing: its element %d (%.10g) does not follow "
                   "element %d (%.10g)", name, bad + 1, g[bad], bad, g[bad - 1]);
        return false;
    }
    return true;
}

/* tablelookup(x1d, fd, x1, ...) and tablelookup(x1d, x2d, fd, x1, x2, ...):
   a DaeTable over parameters, the segment of each query, and the lookup
   node in those segments. */
DaeExpr *lower_table(Model *m, ElabInst *in, AstExpr *e)
{
    AstExpr *a[8];
    int n = ast_call_positional(e, a, 8);
    DaeExprTable *t = m->t;
    if (n != 3 && n != 5)
        return dae_const(t, 0); /* resolution reported it */
    int axes = n == 5 ? 2 : 1;
    LowerValue g[2], fd = lower_value(m, in, a[axes]);
    bool ok = true;
    for (int k = 0; k < axes; k++) {
        g[k] = lower_value(m, in, a[k]);
        ok = table_grid(m, a[k], g[k], k) && ok;
    }
    if (!ok)
        return dae_const(t, 0);
    char x[64];
    int n1 = (g[0].rows * g[0].cols), n2 = axes == 2 ? (g[1].rows * g[1].cols) : 1;
    if (axes == 1 && ((fd.rows != 1 && fd.cols != 1) || (fd.rows * fd.cols) != n1)) {
        diag_error(a[1]->span, "the data fd of tablelookup must have one value per "
                   "point of the grid x1d: the grid has %d points, fd is a %s", n1,
                   lower_size_text(x, sizeof x, fd.rows, fd.cols));
        return dae_const(t, 0);
    }
    if (axes == 2 && (fd.rows != n1 || fd.cols != n2)) {
        diag_error(a[2]->span, "the data fd of a 2-D tablelookup is a matrix with a row "
                   "per point of x1d and a column per point of x2d: %d-by-%d here, but "
                   "fd is a %s", n1, n2, lower_size_text(x, sizeof x, fd.rows, fd.cols));
        return dae_const(t, 0);
    }
    for (int k = 0; k < (fd.rows * fd.cols); k++) {
        if (dae_depends_on_state(fd.el[k])) {
            diag_error(a[axes]->span, "the data fd of tablelookup may use only parameters");
            return dae_const(t, 0);
        }
    }
    DaeTable *tb = dae_table_new(t);
    tb->axes = axes;
    table_options(e, &tb->interp, &tb->extrap);
    tb->instance = in->dae_path;
    tb->span = e->span;
    static const char *const names[] = {"x1d", "x2d"};
    for (int k = 0; k < axes; k++) {
        tb->n[k] = (g[k].rows * g[k].cols);
        tb->grid[k] = table_params(m, in, e, a[k], g[k], names[k]);
        elab_dim_of_expr(m, &tb->dim[k], NULL, in, a[k]);
    }
    tb->data = table_params(m, in, e, a[axes], fd, "fd");
    DaeExpr *seg[2] = {NULL, NULL};
    for (int k = 0; k < axes; k++) {
        seg[k] = dae_segment(t, tb, k, lower_expr(m, in, a[axes + 1 + k]));
        if (!ptrmap_get(&t->origin, seg[k])) {
            DaeRelOrigin *o = arena_alloc(t->arena, sizeof *o);
            o->instance = in->dae_path;
            o->span = e->span;
            ptrmap_put(&t->origin, seg[k], o);
        }
    }
    /* a query known from parameters, outside the grid with extrapolation =
       error, is an error now, at the defaults */
    for (int k = 0; k < axes && tb->extrap == RT_EXTRAP_ERROR; k++) {
        DaeExpr *q = seg[k]->u.seg.x;
        if (dae_depends_on_state(q))
            continue;
        double qv = dae_eval_params(q, elab_param_values(m));
        int sk = (int)dae_eval_params(seg[k], elab_param_values(m));
        if (isfinite(qv) && (sk <= 0 || sk >= tb->n[k]))
            diag_error(a[axes + 1 + k]->span, "this query of tablelookup is %.10g "
                       "(SI), outside its grid, and the table's extrapolation = "
                       "error", qv);
    }
    return dae_lookup(t, seg[0], seg[1], 0, 0);
}

