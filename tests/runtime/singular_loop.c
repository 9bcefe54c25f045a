/*
 * singular_loop.c - rt_solve_block on a singular, inconsistent loop:
 * z1 + z2 == 1 and 2*z1 + 2*z2 == 3 (block 1; block 0 is a harmless
 * one, w == 2*x).  Newton cannot solve it, and the Jacobian is singular
 * everywhere, so the solver says RT_FAIL_SINGULAR, at initialization.
 */
#include "rt_model.h"

static const char *const state_names[] = {"x"};
static const char *const column_names[] = {"x", "w", "pair.z1", "pair.z2"};
static const RtBlockInfo blocks[] = {
    {1, "w == 2*x (solving for w)", "singular_loop.lmdl:3:5", NULL},
    {2, "pair: z1 + z2 == 1, 2*z1 + 2*z2 == 3 (solving for z1, z2)",
     "singular_loop.lmdl:8:5", NULL},
};

static int res(RtEval *e, const double *z, double *r)
{
    (void)e;
    r[0] = z[0] + z[1] - 1;
    r[1] = 2 * z[0] + 2 * z[1] - 3;
    return 0;
}

static int jac(RtEval *e, const double *z, double *j)
{
    (void)e;
    (void)z;
    j[0] = 1;
    j[1] = 1;
    j[2] = 2;
    j[3] = 2;
    return 0;
}

static void start(const double *p, double *x0, double *nominal)
{
    (void)p;
    x0[0] = 1;
    nominal[0] = 1;
}

static int eval(RtEval *e)
{
    e->alg[0] = 2 * e->x[0];
    double z[2] = {e->alg[1], e->alg[2]};
    int rc = rt_solve_block(e, 1, 2, z, res, jac);
    if (rc != RT_OK)
        return rc;
    e->alg[1] = z[0];
    e->alg[2] = z[1];
    e->dx[0] = 0;
    return RT_OK;
}

static void columns(const RtEval *e, double *out)
{
    out[0] = e->x[0];
    out[1] = e->alg[0];
    out[2] = e->alg[1];
    out[3] = e->alg[2];
}

const RtModel rt_model = {
    .abi = RT_ABI_VERSION,
    .name = "SingularLoop",
    .n_states = 1, .state_names = state_names, .start = start,
    .n_alg = 3,
    .eval = eval,
    .n_columns = 4, .column_names = column_names, .columns = columns,
    .n_blocks = 2, .blocks = blocks,
};
