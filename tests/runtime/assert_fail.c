/*
 * assert_fail.c - an assertion that fails during the run:
 * der(x) == 1, x(0) = 0, assert(x < 0.45, 'x must stay below 0.45') in
 * instance "limiter".  It fails at the first accepted step past 0.45.
 */
#include "rt_model.h"

static const char *const state_names[] = {"x"};
static const char *const column_names[] = {"x"};
static const RtAssertInfo asserts[] = {
    {"limiter", "x must stay below 0.45", "assert.lmdl:7:5"},
};

static void start(const double *p, double *x0, double *nominal)
{
    (void)p;
    x0[0] = 0;
    nominal[0] = 1;
}

static int eval(RtEval *e)
{
    e->dx[0] = 1;
    return RT_OK;
}

static void columns(const RtEval *e, double *out)
{
    out[0] = e->x[0];
}

static int check_asserts(const RtEval *e)
{
    return e->x[0] < 0.45 ? -1 : 0;
}

const RtModel rt_model = {
    .abi = RT_ABI_VERSION,
    .name = "AssertFail",
    .n_states = 1, .state_names = state_names, .start = start,
    .eval = eval,
    .n_columns = 1, .column_names = column_names, .columns = columns,
    .n_asserts = 1, .asserts = asserts, .check_asserts = check_asserts,
};
