/*
 * target_conflict.c - as many high targets as states, but they conflict:
 * states a, b (constant), s == a + b with {1, high}, s2 == 2*a + 2*b with
 * {3, high}.  No x0 meets both; the simulator warns, naming both, and
 * treats them as low: s = 7/5 minimizes (s - 1)^2 + (2s - 3)^2, and the
 * pull towards the declared a = b = 0 splits it evenly: a = b = 0.7.
 */
#include "rt_model.h"

static const char *const state_names[] = {"a", "b"};
static const char *const column_names[] = {"a", "b", "s", "s2"};
static const RtTargetInfo targets[] = {
    {2, 1, 0},
    {3, 1, 0},
};

static void start(const double *p, double *x0, double *nominal)
{
    (void)p;
    x0[0] = x0[1] = 0;
    nominal[0] = nominal[1] = 1;
}

static int eval(RtEval *e)
{
    e->alg[0] = e->x[0] + e->x[1];
    e->alg[1] = 2 * e->x[0] + 2 * e->x[1];
    e->dx[0] = e->dx[1] = 0;
    return RT_OK;
}

static void columns(const RtEval *e, double *out)
{
    out[0] = e->x[0];
    out[1] = e->x[1];
    out[2] = e->alg[0];
    out[3] = e->alg[1];
}

static void target_values(const double *p, double *value, double *nominal)
{
    (void)p;
    value[0] = 1;
    value[1] = 3;
    nominal[0] = nominal[1] = 1;
}

const RtModel rt_model = {
    .abi = RT_ABI_VERSION,
    .name = "TargetConflict",
    .n_states = 2, .state_names = state_names, .start = start,
    .n_alg = 2,
    .eval = eval,
    .n_columns = 4, .column_names = column_names, .columns = columns,
    .n_targets = 2, .targets = targets, .target_values = target_values,
};
