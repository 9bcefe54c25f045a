/*
 * mass_chain.c - bench/gen/mass_chain.sh N by hand.
 *
 * N masses m on nodes 1..N, springs k from node i to node i+1 (l0 = 0),
 * Wall wl (side -1, at -gap) on node 1 and wall wr (side 1, at +gap) on
 * node N, every position 0 at the start and v1 = v0.  For mass i:
 *
 *   m v_i' = k (x_{i+1} - x_i) [i < N] - k (x_i - x_{i-1}) [i > 1]
 *            + fl [i = 1] - fr [i = N],           x_i' = v_i,
 *
 * fl = [penl > 0] [kw penl - cw v_1 >= 0] (kw penl - cw v_1), penl = -(x_1 + gap),
 * fr = [penr > 0] [kw penr + cw v_N >= 0] (kw penr + cw v_N), penr = x_N - gap,
 * with the library's Wall defaults kw = 1e6 N/m, cw = 1e3 N*s/m.
 *
 * State layout: y[2i] = x_{i+1}, y[2i+1] = v_{i+1}.
 * Columns: m1.x, m1.v, mN.x, mN.v, wl.f, wr.f.
 */
#include "ref_common.h"

static const double k = 1e3, m = 1, gap = 0.01, v0 = 1, kw = 1e6, cw = 1e3;
static int N;

/* Each wall's clamp (relations 1 and 3) only matters while it is touched
   (relations 0 and 2 true). */
static const int wall_guard[4] = {-1, 0, -1, 2}, wall_guard_value[4] = {0, 1, 0, 1};

static void relations(const double *y, double *gv, int *tr)
{
    double penl = -(y[0] + gap), penr = y[2 * N - 2] - gap;
    gv[0] = penl;
    gv[1] = kw * penl - cw * y[1];
    gv[2] = penr;
    gv[3] = kw * penr + cw * y[2 * N - 1];
    tr[0] = gv[0] > 0;
    tr[1] = gv[1] >= 0;
    tr[2] = gv[2] > 0;
    tr[3] = gv[3] >= 0;
}

static double wall_l(const double *y)
{
    return modes[0] && modes[1] ? kw * (-(y[0] + gap)) - cw * y[1] : 0;
}

static double wall_r(const double *y)
{
    return modes[2] && modes[3] ? kw * (y[2 * N - 2] - gap) + cw * y[2 * N - 1] : 0;
}

static int rhs(double t, const double y[], double dydt[], void *params)
{
    (void)t;
    (void)params;
    double left = 0;                    /* force of the spring on the left */
    for (int i = 0; i < N; i++) {
        double right = i < N - 1 ? k * (y[2 * i + 2] - y[2 * i]) : 0;
        dydt[2 * i] = y[2 * i + 1];
        dydt[2 * i + 1] = (right - left) / m;
        left = right;
    }
    dydt[1] += wall_l(y) / m;
    dydt[2 * N - 1] -= wall_r(y) / m;
    return GSL_SUCCESS;
}

static int jac(double t, const double y[], double *dfdy, double dfdt[], void *params)
{
    (void)t;
    (void)y;
    (void)params;
    int n = 2 * N;
    memset(dfdy, 0, sizeof(double) * (size_t)n * (size_t)n);
    for (int i = 0; i < N; i++) {
        double *rv = dfdy + (size_t)(2 * i + 1) * (size_t)n;
        dfdy[(size_t)(2 * i) * (size_t)n + (size_t)(2 * i + 1)] = 1;
        if (i < N - 1) {
            rv[2 * i + 2] += k / m;
            rv[2 * i] -= k / m;
        }
        if (i > 0) {
            rv[2 * i] -= k / m;
            rv[2 * i - 2] += k / m;
        }
    }
    if (modes[0] && modes[1]) {
        dfdy[(size_t)1 * (size_t)n + 0] += -kw / m;
        dfdy[(size_t)1 * (size_t)n + 1] += -cw / m;
    }
    if (modes[2] && modes[3]) {
        double *rv = dfdy + (size_t)(n - 1) * (size_t)n;
        rv[n - 2] -= kw / m;
        rv[n - 1] -= cw / m;
    }
    memset(dfdt, 0, sizeof(double) * (size_t)n);
    return GSL_SUCCESS;
}

static const char *col_name(int i)
{
    static char buf[6][32];
    const char *fmt[] = {"m1.x", "m1.v", "m%d.x", "m%d.v", "wl.f", "wr.f"};
    snprintf(buf[i], sizeof buf[i], fmt[i], N);
    return buf[i];
}

static double col_value(int i, double t, const double *y)
{
    (void)t;
    switch (i) {
    case 0: return y[0];
    case 1: return y[1];
    case 2: return y[2 * N - 2];
    case 3: return y[2 * N - 1];
    case 4: return wall_l(y);
    default: return wall_r(y);
    }
}

int main(int argc, char **argv)
{
    parse_options(argc, argv);
    N = (int)opt.n;
    if (N < 2) {
        fprintf(stderr, "mass_chain: give --n N (N >= 2)\n");
        return 1;
    }
    double *y0 = calloc((size_t)(2 * N), sizeof *y0);
    if (!y0)
        return 1;
    y0[1] = v0;
    n_states = 2 * N;
    n_rel = 4;
    rel_guard = wall_guard;
    rel_guard_value = wall_guard_value;
    n_cols = 6;
    int rc = ref_main(argc, argv, y0);
    free(y0);
    return rc;
}
