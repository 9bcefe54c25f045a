/*
 * chatter.c - a sliding mode: der(x) == if x > 0 then -1 else 1, x(0) =
 * 0.1.  At t = 0.1 x reaches 0 and every step flips the relation back:
 * the chattering guard must stop the run (exit 3) instead of crawling.
 */
#include "rt_model.h"

static const char *const state_names[] = {"x"};
static const char *const column_names[] = {"x"};
static const RtRelationInfo relations[] = {
    {"relay", "x > 0", "chatter.lmdl:4:12", -1, 0, 0, 0, 0, 0, NULL, 0},
};

static void start(const double *p, double *x0, double *nominal)
{
    (void)p;
    x0[0] = 0.1;
    nominal[0] = 1;
}

static int eval(RtEval *e)
{
    e->dx[0] = e->modes[0] ? -1 : 1;
    return RT_OK;
}

static void columns(const RtEval *e, double *out)
{
    out[0] = e->x[0];
}

static void zero_crossings(const RtEval *e, double *g)
{
    g[0] = e->x[0];
}

static void relation_values(const RtEval *e, int *truth)
{
    truth[0] = e->x[0] > 0;
}

const RtModel rt_model = {
    .abi = RT_ABI_VERSION,
    .name = "Chatter",
    .n_states = 1, .state_names = state_names, .start = start,
    .eval = eval,
    .n_columns = 1, .column_names = column_names, .columns = columns,
    .n_relations = 1, .relations = relations,
    .zero_crossings = zero_crossings, .relation_values = relation_values,
};
