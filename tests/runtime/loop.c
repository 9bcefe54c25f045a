/*
 * loop.c - an algebraic loop solved by rt_solve_block, as generated code
 * does for a nonlinear block: z^3 + z == time, with der(x) == z, x(0) = 0.
 * The root is Cardano's, and x = 3/4 z^4 + 1/2 z^2 (dt = (3z^2 + 1) dz).
 */
#include "rt_model.h"

static const char *const state_names[] = {"x"};
static const char *const column_names[] = {"x", "z"};
static const RtBlockInfo blocks[] = {
    {1, "z^3 + z == time (solving for z)", "loop.lmdl:5:5"},
};

static int block0_res(RtEval *e, const double *z, double *res)
{
    res[0] = z[0] * z[0] * z[0] + z[0] - e->t;
    return 0;
}

static int block0_jac(RtEval *e, const double *z, double *jac)
{
    (void)e;
    jac[0] = 3 * z[0] * z[0] + 1;
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
    double z = e->alg[0];           /* the previous value is the guess */
    int rc = rt_solve_block(e, 0, 1, &z, block0_res, block0_jac);
    if (rc != RT_OK)
        return rc;
    e->alg[0] = z;
    e->dx[0] = z;
    return RT_OK;
}

static void columns(const RtEval *e, double *out)
{
    out[0] = e->x[0];
    out[1] = e->alg[0];
}

const RtModel rt_model = {
    .abi = RT_ABI_VERSION,
    .name = "Loop",
    .n_states = 1, .state_names = state_names, .start = start,
    .n_alg = 1,
    .eval = eval,
    .n_columns = 2, .column_names = column_names, .columns = columns,
    .n_blocks = 1, .blocks = blocks,
};
