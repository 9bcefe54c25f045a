/*
 * lever_chain.c - bench/gen/lever_chain.sh N by hand.
 *
 * Stage i: a lever (model 1) with its fulcrum T2 fixed at 0, a mass ma on
 * T1 and a mass mb on T3; a spring k from lever i's T3 to lever i+1's T1;
 * the last spring from lever N's T3 to a fixed anchor at 0; a constant
 * force F on lever 1's T1.  With x2 = 0 the lever ties
 * T3 to T1: x3 = -rho x1, rho = r23/r12, so each stage has one degree of
 * freedom, x_i = lever i's T1, with the effective mass M = ma + rho^2 mb.
 * Spring i stretches by s_i = x_{i+1} + rho x_i, and Lagrange gives
 *
 *   M v_i' = F [i = 1] - k s_{i-1} [i > 1] - k rho s_i,   x_i' = v_i,
 *
 * with x_{N+1} = 0 (the anchor).
 *
 * Every state starts at 0.  State layout: y[2i] = x_{i+1}, y[2i+1] = v_{i+1}.
 * Columns: ma1.x, ma1.v, mb1.x, maN.x, maN.v, the names the generated
 * simulator gives them.
 */
#include "ref_common.h"

static const double F = 1, k = 1e3, ma = 1, mb = 1, r12 = 0.1, r23 = 0.1;
static double rho, M;
static int N;

static void relations(const double *y, double *gv, int *tr)
{
    (void)y;
    (void)gv;
    (void)tr;
}

static int rhs(double t, const double y[], double dydt[], void *params)
{
    (void)t;
    (void)params;
    double left = 0;                    /* k s_{i-1}, pushing x_i in -x */
    for (int i = 0; i < N; i++) {
        double s = k * ((i < N - 1 ? y[2 * i + 2] : 0) + rho * y[2 * i]);
        dydt[2 * i] = y[2 * i + 1];
        dydt[2 * i + 1] = (-left - rho * s) / M;
        left = s;
    }
    dydt[1] += F / M;
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
        if (i > 0) {                    /* -k (x_i + rho x_{i-1}) */
            rv[2 * i] -= k / M;
            rv[2 * i - 2] -= k * rho / M;
        }
        rv[2 * i] -= k * rho * rho / M;  /* -k rho (x_{i+1} + rho x_i) */
        if (i < N - 1)
            rv[2 * i + 2] -= k * rho / M;
    }
    memset(dfdt, 0, sizeof(double) * (size_t)n);
    return GSL_SUCCESS;
}

static const char *col_name(int i)
{
    static char buf[5][32];
    const char *fmt[] = {"ma1.x", "ma1.v", "mb1.x", "ma%d.x", "ma%d.v"};
    snprintf(buf[i], sizeof buf[i], fmt[i], N);
    return buf[i];
}

static double col_value(int i, double t, const double *y)
{
    (void)t;
    switch (i) {
    case 0: return y[0];
    case 1: return y[1];
    case 2: return -rho * y[0];
    case 3: return y[2 * N - 2];
    default: return y[2 * N - 1];
    }
}

int main(int argc, char **argv)
{
    parse_options(argc, argv);
    N = (int)opt.n;
    if (N < 1) {
        fprintf(stderr, "lever_chain: give --n N (N >= 1)\n");
        return 1;
    }
    rho = r23 / r12;
    M = ma + rho * rho * mb;
    double *y0 = calloc((size_t)(2 * N), sizeof *y0);
    if (!y0)
        return 1;
    n_states = 2 * N;
    n_rel = 0;
    n_cols = 5;
    int rc = ref_main(argc, argv, y0);
    free(y0);
    return rc;
}
