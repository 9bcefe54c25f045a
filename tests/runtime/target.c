/*
 * target.c - a high-priority target on a column that is not a state:
 * der(x) == -x, y == 2*x, with y = {4, priority.high} and x declared 0.
 * Initialization must find x0 = 2, and then x = 2*exp(-t).
 */
#include "rt_model.h"

static const char *const state_names[] = {"x"};
static const char *const column_names[] = {"x", "y"};
static const RtTargetInfo targets[] = {
    {1, 1, 0},
};

static void start(const double *p, double *x0, double *nominal)
{
    (void)p;
    x0[0] = 0;
    nominal[0] = 1;
}

static int eval(RtEval *e)
{
    e->alg[0] = 2 * e->x[0];
    e->dx[0] = -e->x[0];
    return RT_OK;
}

static void columns(const RtEval *e, double *out)
{
    out[0] = e->x[0];
    out[1] = e->alg[0];
}

static void target_values(const double *p, double *value, double *nominal)
{
    (void)p;
    value[0] = 4;
    nominal[0] = 1;
}

const RtModel rt_model = {
    .abi = RT_ABI_VERSION,
    .name = "Target",
    .n_states = 1, .state_names = state_names, .start = start,
    .n_alg = 1,
    .eval = eval,
    .n_columns = 2, .column_names = column_names, .columns = columns,
    .n_targets = 1, .targets = targets, .target_values = target_values,
};
