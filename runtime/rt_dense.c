/*
 * rt_dense.c - the state between two accepted steps of gsl_odeiv2's
 * multistep methods (msbdf, msadams): their interpolant, rebuilt from the
 * accepted steps.
 *
 * A multistep method's solution is a polynomial through its recent
 * points, and it keeps that polynomial (the Nordsieck history) only as
 * long as it may choose its steps itself: clipping a step at every output
 * time rescales the history and keeps the method at low order.  So the
 * runtime lets msbdf and msadams step freely (rt_integrate.c) and writes
 * the rows between their steps from an interpolant.  GSL keeps its
 * history in a private struct, so the interpolant is rebuilt here from
 * what the stepper hands out: the state and derivative at each accepted
 * step's end (gsl_odeiv2_evolve's dydt_out, which both methods compute
 * exactly there) and the method's current order q
 * (gsl_odeiv2_step_order).
 *
 * The interpolant of the last step [t_{n-1}, t_n] is the Hermite
 * polynomial through the states and derivatives at the last m step ends
 * t_n, t_{n-1}, ... t_{n-m+1} since the last restart: 2m conditions,
 * degree 2m - 1.  m is the smallest with 2m - 1 >= q + 1, so its error
 * is of a higher order than the method's own local error (h^(q+1)), and
 * at most RT_DENSE_NODES (msbdf's order 5 needs 4; msadams, up to order
 * 12, gets 4 too).  Right after a restart only the two ends of the first
 * step exist: the cubic Hermite, while the method is at order 1 or 2.
 *
 * The polynomial is built once per step and only when something asks for
 * a state inside it: Newton's divided differences over the doubled
 * nodes, in the scaled time u = (t - t_n) / (t_n - t_{n-1}), so that the
 * table stays well scaled whatever the step size.
 */
#include "rt_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct RtDense {
    int n;                          /* states */
    int count;                      /* step ends held, at most
                                       RT_DENSE_NODES; the latest last */
    int want;                       /* nodes the method's order asks for */
    double t[RT_DENSE_NODES];       /* their times, increasing */
    double *x;                      /* their states, node-major */
    double *f;                      /* their derivatives */
    int m;                          /* nodes of the built polynomial; 0:
                                       not built since the last push */
    double h;                       /* t_n - t_{n-1} of the built one */
    double z[2 * RT_DENSE_NODES];   /* its doubled nodes in u */
    double *coef;                   /* its Newton coefficients, state-major,
                                       2 RT_DENSE_NODES per state */
};

RtDense *rt_dense_new(int n)
{
    RtDense *d = rt_xcalloc(1, sizeof *d);
    size_t un = (size_t)(n > 0 ? n : 0);
    d->n = n;
    d->want = 2;
    d->x = rt_xcalloc(RT_DENSE_NODES * un + 1, sizeof *d->x);
    d->f = rt_xcalloc(RT_DENSE_NODES * un + 1, sizeof *d->f);
    d->coef = rt_xcalloc(2 * RT_DENSE_NODES * un + 1, sizeof *d->coef);
    return d;
}

void rt_dense_free(RtDense *d)
{
    if (!d)
        return;
    free(d->x);
    free(d->f);
    free(d->coef);
    free(d);
}

void rt_dense_clear(RtDense *d)
{
    d->count = 0;
    d->m = 0;
}

void rt_dense_push(RtDense *d, double t, const double *x, const double *f)
{
    size_t n = (size_t)d->n;
    if (d->count > 0 && !(t > d->t[d->count - 1]))
        return;                     /* the same point again */
    if (d->count == RT_DENSE_NODES) {
        memmove(d->t, d->t + 1, (RT_DENSE_NODES - 1) * sizeof *d->t);
        memmove(d->x, d->x + n, (RT_DENSE_NODES - 1) * n * sizeof *d->x);
        memmove(d->f, d->f + n, (RT_DENSE_NODES - 1) * n * sizeof *d->f);
        d->count--;
    }
    d->t[d->count] = t;
    memcpy(d->x + (size_t)d->count * n, x, n * sizeof *x);
    memcpy(d->f + (size_t)d->count * n, f, n * sizeof *f);
    d->count++;
    d->m = 0;
}

void rt_dense_order(RtDense *d, int q)
{
    int want = (q + 3) / 2;         /* the smallest m with 2m - 1 >= q + 1 */
    want = want < 2 ? 2 : want > RT_DENSE_NODES ? RT_DENSE_NODES : want;
    if (want != d->want)
        d->m = 0;
    d->want = want;
}

/* The divided differences of the Hermite data at the last m nodes, in
   place per state (columns from the top down, each entry from the two
   below it of the column before), with the reciprocals of the node
   differences, which all states share, computed once. */
static void build(RtDense *d)
{
    int m = d->want < d->count ? d->want : d->count, k = 2 * m;
    int last = d->count - 1;
    size_t n = (size_t)d->n;
    d->h = d->t[last] - d->t[last - 1];
    for (int j = 0; j < m; j++)
        d->z[2 * j] = d->z[2 * j + 1] = (d->t[last - j] - d->t[last]) / d->h;
    double inv[2 * RT_DENSE_NODES][2 * RT_DENSE_NODES];
    for (int c = 1; c < k; c++)
        for (int r = c; r < k; r++)
            inv[c][r] = d->z[r] == d->z[r - c] ? 0 : 1 / (d->z[r] - d->z[r - c]);
    for (size_t i = 0; i < n; i++) {
        double *q = d->coef + i * 2 * RT_DENSE_NODES;
        for (int r = 0; r < k; r++)
            q[r] = d->x[(size_t)(last - r / 2) * n + i];
        for (int r = k - 1; r >= 1; r--)
            q[r] = r % 2 == 1 ? d->h * d->f[(size_t)(last - r / 2) * n + i] /* dx/du */
                              : (q[r] - q[r - 1]) * inv[1][r];
        for (int c = 2; c < k; c++)
            for (int r = k - 1; r >= c; r--)
                q[r] = (q[r] - q[r - 1]) * inv[c][r];
    }
    d->m = m;
}

int rt_dense_eval(RtDense *d, double t, double *x)
{
    if (d->count < 2)
        return -1;
    if (d->m == 0)
        build(d);
    double u = (t - d->t[d->count - 1]) / d->h;
    int k = 2 * d->m;
    for (int i = 0; i < d->n; i++) {
        const double *c = d->coef + (size_t)i * 2 * RT_DENSE_NODES;
        double v = c[k - 1];
        for (int r = k - 2; r >= 0; r--)
            v = c[r] + (u - d->z[r]) * v;
        x[i] = v;
    }
    return 0;
}
