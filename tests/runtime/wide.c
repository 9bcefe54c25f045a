/*
 * wide.c - a hand-written model with 3,300 result columns, for the
 * output tests: an oscillator (x, v) whose columns are 3,300 different
 * combinations c_i = x * (1 + i / 3300) + v * i * 1e-7, so every row is
 * about 70 KB of 17-digit numbers.  kill.sh kills it while it writes.
 */
#include "rt_model.h"

#include <stdio.h>
#include <string.h>

enum { N_COLUMNS = 3300 };

static const RtParamInfo params[] = {
    {"w", 6.283185307179586, {0, 0, -12, 0, 0, 0, 0}, 0, 0, RT_PARAM_PUBLIC, NULL, 0},
};

static const char *const state_names[] = {"x", "v"};
static char name_text[N_COLUMNS][8];
static const char *column_names[N_COLUMNS];

/* The names c0 .. c3299, before main. */
__attribute__((constructor)) static void make_names(void)
{
    for (int i = 0; i < N_COLUMNS; i++) {
        snprintf(name_text[i], sizeof name_text[i], "c%d", i);
        column_names[i] = name_text[i];
    }
}

static void derive(double *p, const unsigned char *overridden)
{
    (void)p;
    (void)overridden;
}

static void start(const double *p, double *x0, double *nominal)
{
    (void)p;
    x0[0] = 1;
    x0[1] = 0;
    nominal[0] = 1;
    nominal[1] = 1;
}

static int eval(RtEval *e)
{
    double w = e->p[0];
    e->dx[0] = e->x[1];
    e->dx[1] = -w * w * e->x[0];
    return RT_OK;
}

static void columns(const RtEval *e, double *out)
{
    for (int i = 0; i < N_COLUMNS; i++)
        out[i] = e->x[0] * (1 + i / (double)N_COLUMNS) + e->x[1] * i * 1e-7;
}

const RtModel rt_model = {
    .abi = RT_ABI_VERSION,
    .name = "Wide",
    .n_params = 1, .params = params, .derive_params = derive,
    .n_states = 2, .state_names = state_names, .start = start,
    .eval = eval,
    .n_columns = N_COLUMNS, .column_names = column_names, .columns = columns,
};
