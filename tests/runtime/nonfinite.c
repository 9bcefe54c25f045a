/*
 * nonfinite.c - a value that becomes NaN: der(x) == -1, x(0) = 1,
 * y == sqrt(x).  Past t = 1 every evaluation gives NaN; the solver shrinks
 * its step towards t = 1 and then the run fails, naming y.
 */
#include "rt_model.h"

#include <math.h>

static const char *const state_names[] = {"x"};
static const char *const column_names[] = {"x", "y"};

static void start(const double *p, double *x0, double *nominal)
{
    (void)p;
    x0[0] = 1;
    nominal[0] = 1;
}

static int eval(RtEval *e)
{
    e->alg[0] = sqrt(e->x[0]);
    e->dx[0] = -1;
    return RT_OK;
}

static void columns(const RtEval *e, double *out)
{
    out[0] = e->x[0];
    out[1] = e->alg[0];
}

const RtModel rt_model = {
    .abi = RT_ABI_VERSION,
    .name = "NonFinite",
    .n_states = 1, .state_names = state_names, .start = start,
    .n_alg = 1,
    .eval = eval,
    .n_columns = 2, .column_names = column_names, .columns = columns,
};
