/*
 * evalcount.c - the harmonic oscillator x = cos(2 pi t) (der(x) == v,
 * der(v) == -w^2 x), whose eval counts its calls and how many of them
 * repeat the previous call's time and state exactly.  An explicit
 * stepper's last evaluation in a step is at the step's end, so the
 * runtime takes that one as the accepted state's (rt_integrate.c) and
 * evaluates nothing twice.  With the parameter `guessed` set, eval also
 * solves a block from guesses (u^3 + u == x, into the column u): an
 * evaluation again from other guesses may differ in its last bits, so the
 * step's end is evaluated again.  The counts go to stderr at exit.
 */
#include "rt_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const RtParamInfo params[] = {
    {"guessed", 0, {0, 0, 0, 0, 0, 0, 0}, 0, 1, RT_PARAM_PUBLIC, NULL, 0},
};
static const char *const state_names[] = {"x", "v"};
static const char *const column_names[] = {"x", "v", "u"};
static const RtBlockInfo blocks[] = {
    {1, "u^3 + u == x (solving for u)", "evalcount.lmdl:5:5", NULL},
};

static long calls, repeats;
static double last_t = NAN, last_x[2] = {NAN, NAN};

static void report(void)
{
    fprintf(stderr, "evaluations %ld repeated %ld\n", calls, repeats);
}

static int res(RtEval *e, const double *z, double *r)
{
    r[0] = z[0] * z[0] * z[0] + z[0] - e->x[0];
    return 0;
}

static int jac(RtEval *e, const double *z, double *j)
{
    (void)e;
    j[0] = 3 * z[0] * z[0] + 1;
    return 0;
}

static void start(const double *p, double *x0, double *nominal)
{
    (void)p;
    x0[0] = 1;
    x0[1] = 0;
    nominal[0] = nominal[1] = 1;
    if (calls == 0)
        atexit(report);
}

static void alg_start(const double *p, double *alg)
{
    (void)p;
    alg[0] = 0;
}

static int eval(RtEval *e)
{
    calls++;
    repeats += e->t == last_t && e->x[0] == last_x[0] && e->x[1] == last_x[1];
    last_t = e->t;
    last_x[0] = e->x[0];
    last_x[1] = e->x[1];
    double w = 6.283185307179586;
    e->dx[0] = e->x[1];
    e->dx[1] = -w * w * e->x[0];
    if (e->p[0] == 0)
        e->alg[0] = 0;
    else {
        double u = e->alg[0];
        int rc = rt_solve_block(e, 0, 1, &u, res, jac);
        if (rc != RT_OK)
            return rc;
        e->alg[0] = u;
    }
    return RT_OK;
}

static void columns(const RtEval *e, double *out)
{
    out[0] = e->x[0];
    out[1] = e->x[1];
    out[2] = e->alg[0];
}

const RtModel rt_model = {
    .abi = RT_ABI_VERSION,
    .name = "EvalCount",
    .n_params = 1, .params = params,
    .n_states = 2, .state_names = state_names, .start = start,
    .n_alg = 1, .alg_start = alg_start,
    .eval = eval,
    .n_columns = 3, .column_names = column_names, .columns = columns,
    .n_blocks = 1, .blocks = blocks,
};
