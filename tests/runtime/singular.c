/*
 * singular.c - a block whose pivot vanishes, as generated code checks it:
 * the linear block (1 - 2*time)*y == 1, solved symbolically for y, with
 * a zero pivot at t = 0.5.  eval returns RT_FAIL_SINGULAR there, naming
 * the block; the model has no states, so t = 0.5 is an output time.
 */
#include "rt_model.h"

#include <math.h>

static const char *const column_names[] = {"div.y"};
static const RtBlockInfo blocks[] = {
    {1, "div: (1 - 2*time)*y == 1 (solving for y)", "singular.lmdl:4:5", NULL},
};

static int eval(RtEval *e)
{
    double pivot = 1 - 2 * e->t;
    if (fabs(pivot) < 1e-300) {
        e->fail_block = 0;
        return RT_FAIL_SINGULAR;
    }
    e->alg[0] = 1 / pivot;
    return RT_OK;
}

static void columns(const RtEval *e, double *out)
{
    out[0] = e->alg[0];
}

const RtModel rt_model = {
    .abi = RT_ABI_VERSION,
    .name = "Singular",
    .n_alg = 1,
    .eval = eval,
    .n_columns = 1, .column_names = column_names, .columns = columns,
    .n_blocks = 1, .blocks = blocks,
};
