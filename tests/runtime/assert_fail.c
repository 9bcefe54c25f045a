/*
 * assert_fail.c - assertions, as lmdlc generates them:
 *   assert(x < limit, 'x must stay below the limit')   (state and parameter)
 *   assert(limit > 0, 'limit must be > 0')             (parameters only)
 * in instance "limiter", with der(x) == 1, x(0) = 0 and limit = 0.45 m.
 * The first fails at the first accepted step past the limit; the second,
 * with --param limit=-1, before initialization, although the first would
 * fail at t = 0 too.  Failures show the parameters their condition reads.
 */
#include "rt_model.h"

#include <stddef.h>

static const RtParamInfo params[] = {
    {"limit", 0.45, {12, 0, 0, 0, 0, 0, 0}, 0, 0, RT_PARAM_PUBLIC, NULL, 0},
};
static const char *const state_names[] = {"x"};
static const char *const column_names[] = {"x"};
static const int reads_limit[] = {0};
static const RtAssertInfo asserts[] = {
    {"limiter", "x must stay below the limit", "assert.lmdl:7:5", 1, reads_limit, 0, NULL, 0},
    {"limiter", "limit must be > 0", "assert.lmdl:8:5", 1, reads_limit, 1, NULL, 0},
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
    if (!(e->x[0] < e->p[0]))
        return 0;
    if (!(e->p[0] > 0))
        return 1;
    return -1;
}

static int check_param_asserts(const double *p)
{
    if (!(p[0] > 0))
        return 1;
    return -1;
}

const RtModel rt_model = {
    .abi = RT_ABI_VERSION,
    .name = "AssertFail",
    .n_params = 1, .params = params,
    .n_states = 1, .state_names = state_names, .start = start,
    .eval = eval,
    .n_columns = 1, .column_names = column_names, .columns = columns,
    .n_asserts = 2, .asserts = asserts, .check_asserts = check_asserts,
    .check_param_asserts = check_param_asserts,
};
