/*
 * oscillator.c - a hand-written model in the shape lmdlc generates: the
 * harmonic oscillator der(x) == v, der(v) == a, a == -w^2*x, with
 * x(0) = A and v(0) = 0, so x = A*cos(w*t) and v = -A*w*sin(w*t).
 * The tests compare every solver's rows against that.
 */
#include "rt_model.h"

#include <stddef.h>

enum { P_A, P_W };

static const RtParamInfo params[] = {
    {"A", 0.5, {12, 0, 0, 0, 0, 0, 0}, 0, 0, RT_PARAM_PUBLIC, NULL, 0},
    {"w", 6.283185307179586, {0, 0, -12, 0, 0, 0, 0}, 0, 0, RT_PARAM_PUBLIC, NULL, 0},
};

static const char *const state_names[] = {"x", "v"};
static const char *const column_names[] = {"x", "v", "spring.a"};

static void derive(double *p, const unsigned char *overridden)
{
    (void)p;
    (void)overridden;
}

static void start(const double *p, double *x0, double *nominal)
{
    x0[0] = p[P_A];
    x0[1] = 0;
    nominal[0] = 1;
    nominal[1] = 1;
}

static void alg_start(const double *p, double *alg)
{
    (void)p;
    alg[0] = 0;
}

static int eval(RtEval *e)
{
    double w = e->p[P_W];
    e->alg[0] = -w * w * e->x[0];
    e->dx[0] = e->x[1];
    e->dx[1] = e->alg[0];
    return RT_OK;
}

static void columns(const RtEval *e, double *out)
{
    out[0] = e->x[0];
    out[1] = e->x[1];
    out[2] = e->alg[0];
}

const RtModel rt_model = {
    .abi = RT_ABI_VERSION,
    .name = "Oscillator",
    .n_params = 2, .params = params, .derive_params = derive,
    .n_states = 2, .state_names = state_names, .start = start,
    .n_alg = 1, .alg_start = alg_start,
    .eval = eval,
    .n_columns = 3, .column_names = column_names, .columns = columns,
};
