/*
 * loop.c - an algebraic loop solved by rt_solve_block, as generated code
 * does for a nonlinear block: z^3 + z == time, with der(x) == z, x(0) = 0.
 * The root is Cardano's, and x = 3/4 z^4 + 1/2 z^2 (dt = (3z^2 + 1) dz).
 *
 * A second, two-unknown block starts far from its root, from the declared
 * guesses p = q = 0.1: p^2 + q^2 == 1 + time and p - q == 0.5*sin(time),
 * a circle cut by a line.  With r^2 = 1 + time and s = 0.5*sin(time), the
 * root on the side of the guess is p = (s + sqrt(2r^2 - s^2))/2, q = p - s.
 */
#include "rt_model.h"

#include <math.h>

static const char *const state_names[] = {"x"};
static const char *const column_names[] = {"x", "z", "p", "q"};
static const RtBlockInfo blocks[] = {
    {1, "z^3 + z == time (solving for z)", "loop.lmdl:5:5", NULL},
    {2, "p^2 + q^2 == 1 + time, p - q == 0.5*sin(time) (solving for p, q)",
     "loop.lmdl:6:5", NULL},
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

static int block1_res(RtEval *e, const double *z, double *res)
{
    res[0] = z[0] * z[0] + z[1] * z[1] - 1 - e->t;
    res[1] = z[0] - z[1] - 0.5 * sin(e->t);
    return 0;
}

static int block1_jac(RtEval *e, const double *z, double *jac)
{
    (void)e;
    jac[0] = 2 * z[0];
    jac[1] = 2 * z[1];
    jac[2] = 1;
    jac[3] = -1;
    return 0;
}

static void start(const double *p, double *x0, double *nominal)
{
    (void)p;
    x0[0] = 0;
    nominal[0] = 1;
}

static void alg_start(const double *p, double *alg)
{
    (void)p;
    alg[0] = 0;
    alg[1] = 0.1;
    alg[2] = 0.1;
}

static int eval(RtEval *e)
{
    double z = e->alg[0];           /* the previous value is the guess */
    int rc = rt_solve_block(e, 0, 1, &z, block0_res, block0_jac);
    if (rc != RT_OK)
        return rc;
    e->alg[0] = z;
    e->dx[0] = z;
    double pq[2] = {e->alg[1], e->alg[2]};
    rc = rt_solve_block(e, 1, 2, pq, block1_res, block1_jac);
    if (rc != RT_OK)
        return rc;
    e->alg[1] = pq[0];
    e->alg[2] = pq[1];
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
    .name = "Loop",
    .n_states = 1, .state_names = state_names, .start = start,
    .n_alg = 3, .alg_start = alg_start,
    .eval = eval,
    .n_columns = 4, .column_names = column_names, .columns = columns,
    .n_blocks = 2, .blocks = blocks,
};
