/*
 * lever_chain.c - bench/gen/lever_chain.sh N by hand.
 *
 * Stage i: a lever (model 1) with its fulcrum T2 fixed at 0, a mass ma on
 * T1 and a mass mb on T3; a spring k from lever i's T3 to lever i+1's T1;
 * the last spring from lever N's T3 to a fixed anchor at 0; a constant
 * force F on lever 1's T1.  With x2 = 0 the lever ties T3 to T1:
 * x3 = -rho x1, rho = r23/r12, so each stage has one degree of freedom,
 * x_i = lever i's T1, with the effective mass M = ma + rho^2 mb.  Spring i
 * stretches by s_i = x_{i+1} + rho x_i, and Lagrange gives
 *
 *   M v_i' = F [i = 1] - k s_{i-1} [i > 1] - k rho s_i,   x_i' = v_i,
 *
 * with x_{N+1} = 0 (the anchor).  Linear, so the Jacobian is constant:
 * row v_i has -k rho/M at x_{i-1} and x_{i+1}, -(k [i > 1] + k rho^2)/M
 * at x_i.
 *
 * Every state starts at 0.  Layout: y[2i] = x_{i+1}, y[2i+1] = v_{i+1}.
 * Columns: ma1.x, ma1.v, mb1.x, maN.x, maN.v, the names the generated
 * simulator gives them.
 */
#include "ref_common.h"

static const double F = 1, k = 1e3, ma = 1, mb = 1, r12 = 0.1, r23 = 0.1;
static double rho, M;
static int N;

static int rhs(double t, const double y[], double dydt[], void *params)
{
    (void)t;
    (void)params;
    double spring_before = 0;           /* k s_{i-1} */
    for (int i = 0; i < N; i++) {
        double next = i + 1 < N ? y[2 * i + 2] : 0;
        double spring = k * (next + rho * y[2 * i]);
        dydt[2 * i] = y[2 * i + 1];
        dydt[2 * i + 1] = ((i == 0 ? F : 0) - spring_before - rho * spring) / M;
        spring_before = spring;
    }
    return GSL_SUCCESS;
}

static int jac(double t, const double y[], double *dfdy, double dfdt[], void *params)
{
    (void)t;
    (void)y;
    (void)params;
    double spring = k * rho * rho / M;  /* the spring to the next stage */
    ref_chain_jacobian(dfdy, dfdt, N, -k * rho / M, -spring, -k / M - spring,
                       -k / M - spring);
    return GSL_SUCCESS;
}

static const char *col_name(int i)
{
    static char text[5][32];
    static const char *const pattern[] = {"ma1.x", "ma1.v", "mb1.x", "ma%d.x", "ma%d.v"};
    snprintf(text[i], sizeof text[i], pattern[i], N);
    return text[i];
}

static double col_value(int i, const double *y)
{
    static const int at[] = {0, 1, 0, -2, -1};  /* < 0: from the end */
    double v = y[at[i] < 0 ? 2 * N + at[i] : at[i]];
    return i == 2 ? -rho * v : v;
}

int main(int argc, char **argv)
{
    RefArgs a = ref_args(argc, argv);
    N = (int)a.n;
    if (N < 1) {
        fprintf(stderr, "lever_chain: give --n N (N >= 1)\n");
        return 1;
    }
    rho = r23 / r12;
    M = ma + rho * rho * mb;
    double *y0 = calloc(2 * (size_t)N, sizeof *y0);
    if (!y0)
        return 1;
    RefProblem p = {2 * N, 0, {rhs, jac, 2 * (size_t)N, NULL}, NULL, 5, col_name, col_value};
    int rc = ref_main(&p, &a, y0);
    free(y0);
    return rc;
}
