/*
 * target_toomany.c - more high targets than states: der(x) == 0,
 * y == 2*x with {4, high}, z == 3*x with {3, high}.  The simulator warns,
 * naming both, and meets them in the least-squares sense:
 * minimize (2x - 4)^2 + (3x - 3)^2, so x = 17/13.
 */
#include "rt_model.h"

static const char *const state_names[] = {"x"};
static const char *const column_names[] = {"x", "y", "z"};
static const RtTargetInfo targets[] = {
    {1, 1, 0},
    {2, 1, 0},
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
    e->alg[1] = 3 * e->x[0];
    e->dx[0] = 0;
    return RT_OK;
}

static void columns(const RtEval *e, double *out)
{
    out[0] = e->x[0];
    out[1] = e->alg[0];
    out[2] = e->alg[1];
}

static void target_values(const double *p, double *value, double *nominal)
{
    (void)p;
    value[0] = 4;
    value[1] = 3;
    nominal[0] = nominal[1] = 1;
}

const RtModel rt_model = {
    .abi = RT_ABI_VERSION,
    .name = "TargetTooMany",
    .n_states = 1, .state_names = state_names, .start = start,
    .n_alg = 2,
    .eval = eval,
    .n_columns = 3, .column_names = column_names, .columns = columns,
    .n_targets = 2, .targets = targets, .target_values = target_values,
};
