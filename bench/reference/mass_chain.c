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
 * where a wall pushes with kw pen + cw pen' while pressed (penl =
 * -(x_1 + gap), penr = x_N - gap) and not at all while apart or while
 * that would pull; the library's Wall defaults kw = 1e6 N/m,
 * cw = 1e3 N*s/m.
 *
 * Layout: y[2i] = x_{i+1}, y[2i+1] = v_{i+1}.
 * Columns: m1.x, m1.v, mN.x, mN.v, wl.f, wr.f.
 */
#include "ref_common.h"

static const double k = 1e3, m = 1, gap = 0.01, v0 = 1, kw = 1e6, cw = 1e3;
static int N;

/* Wall 0 is wl on mass 1, wall 1 is wr on mass N. */
static void walls(const double *y, double *pen, double *push)
{
    pen[0] = -(y[0] + gap);
    push[0] = kw * pen[0] - cw * y[1];
    pen[1] = y[2 * N - 2] - gap;
    push[1] = kw * pen[1] + cw * y[2 * N - 1];
}

static int rhs(double t, const double y[], double dydt[], void *params)
{
    (void)t;
    (void)params;
    for (int i = 0; i < N; i++) {
        double x = y[2 * i], f = 0;
        if (i + 1 < N)
            f += k * (y[2 * i + 2] - x);
        if (i > 0)
            f -= k * (x - y[2 * i - 2]);
        dydt[2 * i] = y[2 * i + 1];
        dydt[2 * i + 1] = f / m;
    }
    double f[2];
    ref_wall_forces(walls, 2, y, f);
    dydt[1] += f[0] / m;
    dydt[2 * N - 1] -= f[1] / m;
    return GSL_SUCCESS;
}

static int jac(double t, const double y[], double *dfdy, double dfdt[], void *params)
{
    (void)t;
    (void)y;
    (void)params;
    size_t n = 2 * (size_t)N;
    ref_chain_jacobian(dfdy, dfdt, N, k / m, -k / m, -2 * k / m, -k / m);
    /* a pressed wall: d(f/m)/dx and d(f/m)/dv on its mass's row */
    if (contact[0] == PRESSED) {
        dfdy[1 * n + 0] -= kw / m;
        dfdy[1 * n + 1] -= cw / m;
    }
    if (contact[1] == PRESSED) {
        dfdy[(n - 1) * n + n - 2] -= kw / m;
        dfdy[(n - 1) * n + n - 1] -= cw / m;
    }
    return GSL_SUCCESS;
}

static const char *col_name(int i)
{
    static char text[6][32];
    static const char *const pattern[] = {"m1.x", "m1.v", "m%d.x", "m%d.v", "wl.f", "wr.f"};
    snprintf(text[i], sizeof text[i], pattern[i], N);
    return text[i];
}

static double col_value(int i, const double *y)
{
    switch (i) {
    case 0: case 1: return y[i];
    case 2: case 3: return y[2 * N - 4 + i];
    default: {
        double f[2];
        ref_wall_forces(walls, 2, y, f);
        return f[i - 4];
    }
    }
}

int main(int argc, char **argv)
{
    RefArgs a = ref_args(argc, argv);
    N = (int)a.n;
    if (N < 2) {
        fprintf(stderr, "mass_chain: give --n N (N >= 2)\n");
        return 1;
    }
    double *y0 = calloc(2 * (size_t)N, sizeof *y0);
    if (!y0)
        return 1;
    y0[1] = v0;
    RefProblem p = {2 * N, 2, {rhs, jac, 2 * (size_t)N, NULL}, walls, 6, col_name, col_value};
    int rc = ref_main(&p, &a, y0);
    free(y0);
    return rc;
}
