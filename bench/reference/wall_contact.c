/*
 * wall_contact.c - examples/wall_contact/wall_contact.lmdl by hand.
 *
 * A full-angle lever (model 3, epsilon = 1) on an inertia J, fulcrum T2
 * fixed at 0, F1 pushing T1 and F3 pushing T3 in +x, and a Wall (side 1,
 * at gap) touching each end.  From the kinematics (docs/lever.md),
 *
 *   x1 = -r12 sin(theta),          v1 = -r12 cos(theta) w,
 *   x3 =  r23 sin(theta),          v3 =  r23 cos(theta) w,
 *
 * and the virtual work of the forces on T1 and T3,
 *
 *   J w' = cos(theta) * (r23*(F3 - f3) - r12*(F1 - f1)),   theta' = w,
 *
 * where a wall's force f is k*pen + c*v (pen = x - gap) while it is
 * pressed, and 0 while apart or while that force would pull.
 *
 * State y = (theta, w).  Columns: inertia.theta, inertia.w, wall1.f,
 * wall3.f, the names the generated simulator gives them.
 */
#include "ref_common.h"

static const double F1 = 10, F3 = 15, r12 = 0.1, r23 = 0.1, gap = 0.01, J = 0.01;
static const double k = 1e6, c = 1e3;

/* Wall 0 at T1, wall 1 at T3. */
static void walls(const double *y, double *pen, double *push)
{
    double s = sin(y[0]), co = cos(y[0]);
    pen[0] = -r12 * s - gap;
    push[0] = k * pen[0] + c * (-r12 * co * y[1]);
    pen[1] = r23 * s - gap;
    push[1] = k * pen[1] + c * (r23 * co * y[1]);
}

static int rhs(double t, const double y[], double dydt[], void *params)
{
    (void)t;
    (void)params;
    double f[2];
    ref_wall_forces(walls, 2, y, f);
    dydt[0] = y[1];
    dydt[1] = cos(y[0]) * (r23 * (F3 - f[1]) - r12 * (F1 - f[0])) / J;
    return GSL_SUCCESS;
}

static int jac(double t, const double y[], double *dfdy, double dfdt[], void *params)
{
    (void)t;
    (void)params;
    double th = y[0], w = y[1], s = sin(th), co = cos(th), f[2];
    ref_wall_forces(walls, 2, y, f);
    /* d f / d(theta, w) of each pressed wall */
    double on1 = contact[0] == PRESSED, on3 = contact[1] == PRESSED;
    double f1_th = on1 * r12 * (-k * co + c * s * w), f1_w = on1 * -c * r12 * co;
    double f3_th = on3 * r23 * (k * co - c * s * w), f3_w = on3 * c * r23 * co;
    double torque = r23 * (F3 - f[1]) - r12 * (F1 - f[0]);
    dfdy[0] = 0;
    dfdy[1] = 1;
    dfdy[2] = (-s * torque + co * (r12 * f1_th - r23 * f3_th)) / J;
    dfdy[3] = co * (r12 * f1_w - r23 * f3_w) / J;
    dfdt[0] = dfdt[1] = 0;
    return GSL_SUCCESS;
}

static const char *col_name(int i)
{
    static const char *names[] = {"inertia.theta", "inertia.w", "wall1.f", "wall3.f"};
    return names[i];
}

static double col_value(int i, const double *y)
{
    double f[2];
    ref_wall_forces(walls, 2, y, f);
    return i < 2 ? y[i] : f[i - 2];
}

int main(int argc, char **argv)
{
    RefArgs a = ref_args(argc, argv);
    RefProblem p = {2, 2, {rhs, jac, 2, NULL}, walls, 4, col_name, col_value};
    static const double y0[2] = {0, 0};
    return ref_main(&p, &a, y0);
}
