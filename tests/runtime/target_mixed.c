/*
 * target_mixed.c - fewer high targets than states, plus a low one and a
 * state no target touches.  States a, b, c (constant: der == 0);
 * columns s == a + b with {3, priority.high} and d == a - b with
 * {1, priority.low}; declared a = b = 0, c = 5.  Expect a = 2, b = 1
 * (both targets met exactly), and c left at its declared 5.
 */
#include "rt_model.h"

static const char *const state_names[] = {"a", "b", "c"};
static const char *const column_names[] = {"a", "b", "c", "s", "d"};
static const RtTargetInfo targets[] = {
    {3, 1, 0},
    {4, 0, 0},
};

static void start(const double *p, double *x0, double *nominal)
{
    (void)p;
    x0[0] = 0;
    x0[1] = 0;
    x0[2] = 5;
    nominal[0] = nominal[1] = 1;
    nominal[2] = 10;
}

static int eval(RtEval *e)
{
    e->alg[0] = e->x[0] + e->x[1];
    e->alg[1] = e->x[0] - e->x[1];
    e->dx[0] = e->dx[1] = e->dx[2] = 0;
    return RT_OK;
}

static void columns(const RtEval *e, double *out)
{
    out[0] = e->x[0];
    out[1] = e->x[1];
    out[2] = e->x[2];
    out[3] = e->alg[0];
    out[4] = e->alg[1];
}

static void target_values(const double *p, double *value, double *nominal)
{
    (void)p;
    value[0] = 3;
    value[1] = 1;
    nominal[0] = nominal[1] = 1;
}

const RtModel rt_model = {
    .abi = RT_ABI_VERSION,
    .name = "TargetMixed",
    .n_states = 3, .state_names = state_names, .start = start,
    .n_alg = 2,
    .eval = eval,
    .n_columns = 5, .column_names = column_names, .columns = columns,
    .n_targets = 2, .targets = targets, .target_values = target_values,
};
