/*
 * crash.c - a hand-written model (in the shape lmdlc generates) whose run
 * dies by SIGKILL when its boolean parameter `crash` is true: der(x) ==
 * -k*x, x(0) = 1.  tests/sweep/crash.sh sweeps it to check that a row
 * killed by a signal is recorded as such and the other rows go on.
 */
#include "rt_model.h"

#include <signal.h>

enum { P_K, P_CRASH };

static const RtParamInfo params[] = {
    {"k", 1, {0, 0, -12, 0, 0, 0, 0}, 0, 0, RT_PARAM_PUBLIC, NULL, 0},
    {"crash", 0, {0, 0, 0, 0, 0, 0, 0}, 0, 1, RT_PARAM_PUBLIC, NULL, 0},
};

static const char *const state_names[] = {"x"};
static const char *const column_names[] = {"x"};

static void start(const double *p, double *x0, double *nominal)
{
    (void)p;
    x0[0] = 1;
    nominal[0] = 1;
}

static int eval(RtEval *e)
{
    if (e->p[P_CRASH] != 0)
        raise(SIGKILL);
    e->dx[0] = -e->p[P_K] * e->x[0];
    return RT_OK;
}

static void columns(const RtEval *e, double *out)
{
    out[0] = e->x[0];
}

const RtModel rt_model = {
    .abi = RT_ABI_VERSION,
    .name = "Crash",
    .n_params = 2, .params = params,
    .n_states = 1, .state_names = state_names, .start = start,
    .eval = eval,
    .n_columns = 1, .column_names = column_names, .columns = columns,
};
