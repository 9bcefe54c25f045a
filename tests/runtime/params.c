/*
 * params.c - run-time parameters: a spring and a mass,
 *
 *   der(x) == v;  m*der(v) == spring.f;
 *   spring.f == -spring.k*x - (if damped then c*v else 0)
 *
 * where spring.k is bound to the top-level k (derive_params copies it
 * unless spring.k itself was overridden), and use_damper is structural.
 * x(0) = 1, v(0) = 0, so undamped x = cos(sqrt(k/m)*t).
 */
#include "rt_model.h"

enum { P_K, P_SPRING_K, P_M, P_C, P_DAMPED, P_USE_DAMPER };

static const RtParamInfo params[] = {
    {"k", 100, {0, 12, -24, 0, 0, 0, 0}, 0, 0, RT_PARAM_PUBLIC, NULL, 0},
    {"spring.k", 100, {0, 12, -24, 0, 0, 0, 0}, 0, 0, RT_PARAM_PUBLIC, NULL, 0},
    {"m", 1, {0, 12, 0, 0, 0, 0, 0}, 0, 0, RT_PARAM_PUBLIC, NULL, 0},
    {"c", 0.5, {0, 12, -12, 0, 0, 0, 0}, 0, 0, RT_PARAM_PUBLIC, NULL, 0},
    {"damped", 0, {0, 0, 0, 0, 0, 0, 0}, 0, 1, RT_PARAM_PUBLIC, NULL, 0},
    {"use_damper", 1, {0, 0, 0, 0, 0, 0, 0}, 1, 1, RT_PARAM_PUBLIC, NULL, 0},
};

static const char *const state_names[] = {"x", "v"};
static const char *const column_names[] = {"x", "v", "spring.f", "m_used"};

static void derive(double *p, const unsigned char *overridden)
{
    if (!overridden[P_SPRING_K])
        p[P_SPRING_K] = p[P_K];
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
    const double *p = e->p;
    double f = -p[P_SPRING_K] * e->x[0];
    if (p[P_DAMPED] != 0)
        f -= p[P_C] * e->x[1];
    e->alg[0] = f;
    e->dx[0] = e->x[1];
    e->dx[1] = f / p[P_M];
    return RT_OK;
}

static void columns(const RtEval *e, double *out)
{
    out[0] = e->x[0];
    out[1] = e->x[1];
    out[2] = e->alg[0];
    out[3] = e->p[P_M];
}

const RtModel rt_model = {
    .abi = RT_ABI_VERSION,
    .name = "Params",
    .n_params = 6, .params = params, .derive_params = derive,
    .n_states = 2, .state_names = state_names, .start = start,
    .n_alg = 1,
    .eval = eval,
    .n_columns = 4, .column_names = column_names, .columns = columns,
};
