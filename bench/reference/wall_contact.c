/*
 * wall_contact.c - examples/wall_contact/wall_contact.lmdl by hand.
 *
 * A full-angle lever (model 3, epsilon = 1) on an inertia J, fulcrum T2
 * fixed at 0, F1 pushing T1 and F3 pushing T3 in +x, and a Wall (side 1,
 * at gap) touching each end.  From the kinematics (NOTES.md),
 *
 *   x1 = -r12 sin(theta),          v1 = -r12 cos(theta) w,
 *   x3 =  r23 sin(theta),          v3 =  r23 cos(theta) w,
 *
 * and the virtual work of the forces on T1 and T3,
 *
 *   J w' = cos(theta) * (r23*(F3 - fw3) - r12*(F1 - fw1)),   theta' = w,
 *
 * where fw is the contact force of a wall, frozen in two modes per wall:
 * pen = x - gap, fw = [pen > 0] * [k*pen + c*v >= 0] * (k*pen + c*v).
 *
 * Columns: inertia.theta, inertia.w, wall1.f, wall3.f, the names the
 * generated simulator gives them.
 */
#include "ref_common.h"

static const double F1 = 10, F3 = 15, r12 = 0.1, r23 = 0.1, gap = 0.01, J = 0.01;
static const double k = 1e6, c = 1e3;

/* Relation values: g[0] = pen1, g[1] = k*pen1 + c*v1, g[2], g[3] for T3. */
/* Each wall's clamp (relations 1 and 3) only matters while it is touched
   (relations 0 and 2 true). */
static const int wall_guard[4] = {-1, 0, -1, 2}, wall_guard_value[4] = {0, 1, 0, 1};

static void relations(const double *y, double *gv, int *tr)
{
    double s = sin(y[0]), co = cos(y[0]);
    double pen1 = -r12 * s - gap, v1 = -r12 * co * y[1];
    double pen3 = r23 * s - gap, v3 = r23 * co * y[1];
    gv[0] = pen1;
    gv[1] = k * pen1 + c * v1;
    gv[2] = pen3;
    gv[3] = k * pen3 + c * v3;
    tr[0] = gv[0] > 0;
    tr[1] = gv[1] >= 0;
    tr[2] = gv[2] > 0;
    tr[3] = gv[3] >= 0;
}

static void wall_forces(const double *y, double *fw1, double *fw3)
{
    double s = sin(y[0]), co = cos(y[0]);
    *fw1 = modes[0] && modes[1] ? k * (-r12 * s - gap) + c * (-r12 * co * y[1]) : 0;
    *fw3 = modes[2] && modes[3] ? k * (r23 * s - gap) + c * (r23 * co * y[1]) : 0;
}

static int rhs(double t, const double y[], double dydt[], void *params)
{
    (void)t;
    (void)params;
    double fw1, fw3;
    wall_forces(y, &fw1, &fw3);
    dydt[0] = y[1];
    dydt[1] = cos(y[0]) * (r23 * (F3 - fw3) - r12 * (F1 - fw1)) / J;
    return GSL_SUCCESS;
}

static int jac(double t, const double y[], double *dfdy, double dfdt[], void *params)
{
    (void)t;
    (void)params;
    double th = y[0], w = y[1], s = sin(th), co = cos(th);
    double fw1, fw3;
    wall_forces(y, &fw1, &fw3);
    double a1 = modes[0] && modes[1], a3 = modes[2] && modes[3];
    double d1th = a1 * (-k * r12 * co + c * r12 * s * w), d1w = a1 * (-c * r12 * co);
    double d3th = a3 * (k * r23 * co - c * r23 * s * w), d3w = a3 * (c * r23 * co);
    double q = r23 * (F3 - fw3) - r12 * (F1 - fw1);
    dfdy[0] = 0;
    dfdy[1] = 1;
    dfdy[2] = (-s * q + co * (-r23 * d3th + r12 * d1th)) / J;
    dfdy[3] = co * (-r23 * d3w + r12 * d1w) / J;
    dfdt[0] = dfdt[1] = 0;
    return GSL_SUCCESS;
}

static const char *col_name(int i)
{
    static const char *names[] = {"inertia.theta", "inertia.w", "wall1.f", "wall3.f"};
    return names[i];
}

static double col_value(int i, double t, const double *y)
{
    (void)t;
    double fw1, fw3;
    wall_forces(y, &fw1, &fw3);
    switch (i) {
    case 0: return y[0];
    case 1: return y[1];
    case 2: return fw1;
    default: return fw3;
    }
}

int main(int argc, char **argv)
{
    static const double y0[2] = {0, 0};
    n_states = 2;
    n_rel = 4;
    rel_guard = wall_guard;
    rel_guard_value = wall_guard_value;
    n_cols = 4;
    return ref_main(argc, argv, y0);
}
