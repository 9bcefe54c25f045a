/*
 * contact.c - a mass falling onto a spring wall, the event test.
 *
 *   der(x) == v;  m*der(v) == f - m*g;
 *   if x < 0  f == -k*x - c*v  else  f == 0  end      (in instance "wall")
 *
 * Released from rest at x = h, it meets the wall at t1 = sqrt(2h/g) with
 * speed vc = sqrt(2gh).  Without damping the contact is half a period of
 * the shifted oscillator x + g/w^2 = R*cos(w*tau + phi), w = sqrt(k/m),
 * phi = atan(vc*w/g), so it leaves at t2 = t1 + (2*pi - 2*phi)/w, with
 * speed vc, and comes back at t3 = t2 + 2*vc/g.  The column wall.contact
 * shows the mode, so the two rows at an event are told apart.
 */
#include "rt_model.h"

enum { P_M, P_K, P_C, P_G, P_H };

static const RtParamInfo params[] = {
    {"m", 1, {0, 12, 0, 0, 0, 0, 0}, 0, 0, RT_PARAM_PUBLIC, NULL, 0},
    {"wall.k", 1e4, {0, 12, -24, 0, 0, 0, 0}, 0, 0, RT_PARAM_PUBLIC, NULL, 0},
    {"wall.c", 0, {0, 12, -12, 0, 0, 0, 0}, 0, 0, RT_PARAM_PUBLIC, NULL, 0},
    {"g", 9.81, {12, 0, -24, 0, 0, 0, 0}, 0, 0, RT_PARAM_PUBLIC, NULL, 0},
    {"h", 1, {12, 0, 0, 0, 0, 0, 0}, 0, 0, RT_PARAM_PUBLIC, NULL, 0},
};

static const char *const state_names[] = {"x", "v"};
static const char *const column_names[] = {"x", "v", "wall.f", "a",
                                           "wall.contact"};
static const RtRelationInfo relations[] = {
    {"wall", "x < 0", "contact.lmdl:9:8", -1, 0, 0, 0, 0, 0, NULL, 0},
};

static void start(const double *p, double *x0, double *nominal)
{
    x0[0] = p[P_H];
    x0[1] = 0;
    nominal[0] = 1;
    nominal[1] = 1;
}

static int eval(RtEval *e)
{
    const double *p = e->p;
    double x = e->x[0], v = e->x[1];
    double f = e->modes[0] ? -p[P_K] * x - p[P_C] * v : 0;
    e->alg[0] = f;
    e->alg[1] = f / p[P_M] - p[P_G];
    e->dx[0] = v;
    e->dx[1] = e->alg[1];
    return RT_OK;
}

static void columns(const RtEval *e, double *out)
{
    out[0] = e->x[0];
    out[1] = e->x[1];
    out[2] = e->alg[0];
    out[3] = e->alg[1];
    out[4] = e->modes[0];
}

static void zero_crossings(const RtEval *e, double *g)
{
    g[0] = -e->x[0];
}

static void relation_values(const RtEval *e, int *truth)
{
    truth[0] = e->x[0] < 0;
}

const RtModel rt_model = {
    .abi = RT_ABI_VERSION,
    .name = "Contact",
    .n_params = 5, .params = params,
    .n_states = 2, .state_names = state_names, .start = start,
    .n_alg = 2,
    .eval = eval,
    .n_columns = 5, .column_names = column_names, .columns = columns,
    .n_relations = 1, .relations = relations,
    .zero_crossings = zero_crossings, .relation_values = relation_values,
};
