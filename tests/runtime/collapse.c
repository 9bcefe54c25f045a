/*
 * collapse.c - a Newton block whose basin of convergence shrinks to
 * nothing: tanh((z - x)/w) == 0 with w = 0.01 (1 - x)^3, der(x) == 1,
 * x(0) = 0, and the previous z as the guess (block 0).  The root is z = x,
 * but Newton (hybridsj) only finds it from within about w, so every step
 * longer than that fails its evaluation, and evolve halves it; as x
 * approaches 1 the accepted steps creep towards zero.  Without a bound
 * this ran into the million-step limit after 3 s (msbdf) to 45 s (bsimp,
 * rk8pd); the run must instead report the Newton failure, with its block,
 * while x is still below 0.99.
 */
#include "rt_model.h"

#include <math.h>

static const char *const state_names[] = {"x"};
static const char *const column_names[] = {"x", "z"};
static const RtBlockInfo blocks[] = {
    {1, "tanh((z - x)/w) == 0 (solving for z)", "collapse.lmdl:5:5", NULL},
};

static double width(double x)
{
    double u = 1 - x;
    return u > 0 ? 1e-2 * u * u * u : 1e-300;
}

static int res(RtEval *e, const double *z, double *r)
{
    r[0] = tanh((z[0] - e->x[0]) / width(e->x[0]));
    return 0;
}

static int jac(RtEval *e, const double *z, double *j)
{
    double w = width(e->x[0]), c = cosh((z[0] - e->x[0]) / w);
    j[0] = 1 / (w * c * c);
    return 0;
}

static void start(const double *p, double *x0, double *nominal)
{
    (void)p;
    x0[0] = 0;
    nominal[0] = 1;
}

static int eval(RtEval *e)
{
    double z = e->alg[0];
    int rc = rt_solve_block(e, 0, 1, &z, res, jac);
    if (rc != RT_OK)
        return rc;
    e->alg[0] = z;
    e->dx[0] = 1;
    return RT_OK;
}

static void columns(const RtEval *e, double *out)
{
    out[0] = e->x[0];
    out[1] = e->alg[0];
}

const RtModel rt_model = {
    .abi = RT_ABI_VERSION,
    .name = "Collapse",
    .n_states = 1, .state_names = state_names, .start = start,
    .n_alg = 1,
    .eval = eval,
    .n_columns = 2, .column_names = column_names, .columns = columns,
    .n_blocks = 1, .blocks = blocks,
};
