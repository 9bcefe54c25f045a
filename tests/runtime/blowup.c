/*
 * blowup.c - a solution that escapes in finite time: der(x) == x^2,
 * x(0) = 1, so x = 1/(1 - t) is infinite at t = 1.  The solver cannot
 * pass t = 1; the run must stop there with exit 3 and the time, not hang.
 */
#include "rt_model.h"

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
    e->dx[0] = e->x[0] * e->x[0];
    return RT_OK;
}

static void columns(const RtEval *e, double *out)
{
    out[0] = e->x[0];
}

const RtModel rt_model = {
    .abi = RT_ABI_VERSION,
    .name = "Blowup",
    .n_states = 1, .state_names = state_names, .start = start,
    .eval = eval,
    .n_columns = 1, .column_names = column_names, .columns = columns,
};
