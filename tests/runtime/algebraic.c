/*
 * algebraic.c - a model without states: y == time^2, s == sin(2*pi*time),
 * and q == if y > 0.5 then 1 else 0.  The simulator evaluates it at every
 * output time and locates the change of `y > 0.5` at t = sqrt(0.5) by
 * itself.  One column name needs CSV quoting.
 */
#include "rt_model.h"

#include <math.h>

static const char *const column_names[] = {"y", "s", "q", "odd,\"name\""};
static const RtRelationInfo relations[] = {
    {"", "y > 0.5", "algebraic.lmdl:6:12", -1, 0, 0, 0, 0, 0, NULL, 0},
};

static int eval(RtEval *e)
{
    double t = e->t;
    e->alg[0] = t * t;
    e->alg[1] = sin(6.283185307179586 * t);
    e->alg[2] = e->modes[0] ? 1 : 0;
    return RT_OK;
}

static void columns(const RtEval *e, double *out)
{
    out[0] = e->alg[0];
    out[1] = e->alg[1];
    out[2] = e->alg[2];
    out[3] = 2 * e->alg[0];
}

static void zero_crossings(const RtEval *e, double *g)
{
    g[0] = e->alg[0] - 0.5;
}

static void relation_values(const RtEval *e, int *truth)
{
    truth[0] = e->alg[0] > 0.5;
}

const RtModel rt_model = {
    .abi = RT_ABI_VERSION,
    .name = "Algebraic",
    .n_alg = 3,
    .eval = eval,
    .n_columns = 4, .column_names = column_names, .columns = columns,
    .n_relations = 1, .relations = relations,
    .zero_crossings = zero_crossings, .relation_values = relation_values,
};
