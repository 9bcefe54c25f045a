/*
 * rt_table.c - the interpolants of tablelookup (rt_table.h), their
 * derivatives and the segments of a grid (rt_lookup, which generated code
 * calls, is the runtime's: rt_eval.c).
 *
 * Every evaluation works on one cell of the grid, chosen by the segment
 * it is given, in the cell's local coordinate t = (x - g[c-1]) / h: the
 * value is a sum of the data (and, for smooth, of the slopes times h)
 * times basis functions of t, one set per axis; a derivative of order d
 * is the same sum over the basis functions' d-th derivatives, divided by
 * h^d.  Outside the grid each basis function is replaced by its tangent
 * at the end (linear extrapolation) or its value there (nearest), which
 * is exactly the end segment's tangent or end value of the interpolant,
 * and keeps the derivatives exact there too.
 */
#include "rt_table.h"

#include <math.h>

/* How one axis is evaluated: its cell, the local coordinate, and how the
   basis functions are read (exactly, or extended from an end). */
typedef struct Axis {
    int c;          /* the cell: between points c-1 and c (1 .. n-1) */
    double h;       /* g[c] - g[c-1] (negative on a decreasing grid) */
    double t;       /* (x - g[c-1]) / h */
    int ext;        /* 0: exact; 1: linear extension; 2: the end value */
    double te;      /* the end it extends from (0 or 1) */
} Axis;

int rt_table_max_order(int interp)
{
    return interp == RT_INTERP_SMOOTH ? 3 : 1;
}

int rt_grid_check(const double *g, int n)
{
    if (n < 2)
        return n == 1 ? 0 : -1;
    double dir = g[1] > g[0] ? 1 : -1;
    for (int k = 1; k < n; k++)
        if (!(dir * (g[k] - g[k - 1]) > 0))
            return k;
    return -1;
}

static double direction(const double *g, int n)
{
    return n >= 2 && g[n - 1] < g[0] ? -1 : 1;
}

/* 0 before the grid, n after it, k in 1 .. n-1 for g[k-1] <= x < g[k]
   (x at the last point is in segment n-1: both ends are inside). */
int rt_grid_segment(const double *g, int n, double x)
{
    double s = direction(g, n);
    if (n < 1 || !(s * (x - g[0]) >= 0))
        return 0;
    if (s * (x - g[n - 1]) > 0)
        return n;
    if (n == 1)
        return 1;
    int lo = 0, hi = n - 1; /* g[lo] <= x (in direction s), x < g[hi] or x at the end */
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (s * (x - g[mid]) >= 0)
            lo = mid;
        else
            hi = mid;
    }
    return lo + 1;
}

/* The distance from x to the nearer bound of segment seg, positive
   inside it; the unbounded side of an end segment does not count. */
double rt_grid_crossing(const double *g, int n, int seg, double x)
{
    double s = direction(g, n);
    double lo = seg >= 1 && seg <= n ? s * (x - g[seg - 1]) : INFINITY;
    double hi = seg >= 0 && seg <= n - 1 ? s * (g[seg] - x) : INFINITY;
    double r = lo < hi ? lo : hi;
    return isfinite(r) ? r : 1;
}

static Axis axis_of(const double *g, int n, int seg, double x, int extrap)
{
    Axis a = {1, 1, 0, 0, 0};
    if (n < 2)
        return a;
    a.c = seg < 1 ? 1 : seg > n - 1 ? n - 1 : seg;
    a.h = g[a.c] - g[a.c - 1];
    a.t = (x - g[a.c - 1]) / a.h;
    if (seg <= 0 || seg >= n) {
        a.ext = extrap == RT_EXTRAP_LINEAR ? 1 : 2;
        a.te = seg <= 0 ? 0 : 1;
    }
    return a;
}

/* The d-th derivatives (in t) at t of the basis functions: linear
   {1 - t, t}; cubic Hermite {h00, h10, h01, h11} (value at 0, slope at 0,
   value at 1, slope at 1). */
static void basis_at(int smooth, double t, int d, double *b)
{
    if (!smooth) {
        b[0] = d == 0 ? 1 - t : d == 1 ? -1 : 0;
        b[1] = d == 0 ? t : d == 1 ? 1 : 0;
        return;
    }
    double t2 = t * t, t3 = t2 * t;
    switch (d) {
    case 0:
        b[0] = 2 * t3 - 3 * t2 + 1;
        b[1] = t3 - 2 * t2 + t;
        b[2] = -2 * t3 + 3 * t2;
        b[3] = t3 - t2;
        break;
    case 1:
        b[0] = 6 * t2 - 6 * t;
        b[1] = 3 * t2 - 4 * t + 1;
        b[2] = -6 * t2 + 6 * t;
        b[3] = 3 * t2 - 2 * t;
        break;
    case 2:
        b[0] = 12 * t - 6;
        b[1] = 6 * t - 4;
        b[2] = -12 * t + 6;
        b[3] = 6 * t - 2;
        break;
    case 3:
        b[0] = 12;
        b[1] = 6;
        b[2] = -12;
        b[3] = 6;
        break;
    default:
        b[0] = b[1] = b[2] = b[3] = 0;
        break;
    }
}

/* The basis of one axis, with its extension outside the grid, as d-th
   derivatives with respect to x (so divided by h^d). */
static void basis(int smooth, const Axis *a, int d, double *b)
{
    int nb = smooth ? 4 : 2;
    if (a->ext == 0) {
        basis_at(smooth, a->t, d, b);
    } else if (a->ext == 2) {
        basis_at(smooth, a->te, 0, b);
        for (int i = 0; i < nb; i++)
            b[i] = d == 0 ? b[i] : 0;
    } else {
        double v[4], s[4];
        basis_at(smooth, a->te, 0, v);
        basis_at(smooth, a->te, 1, s);
        for (int i = 0; i < nb; i++)
            b[i] = d == 0 ? v[i] + (a->t - a->te) * s[i] : d == 1 ? s[i] : 0;
    }
    double scale = pow(a->h, -d);
    for (int i = 0; i < nb; i++)
        b[i] *= scale;
}

static double sign_of(double v)
{
    return v > 0 ? 1 : v < 0 ? -1 : 0;
}

/* The slope at point k of the data f along grid g (f[k] is at f + k *
   stride): PCHIP's, zero at a local extremum, so the interpolant is
   monotonic between monotonic data. */
static double slope(const double *g, int n, const double *f, long stride, int k)
{
    if (n < 2)
        return 0;
    if (n == 2)
        return (f[stride] - f[0]) / (g[1] - g[0]);
    if (k > 0 && k < n - 1) {
        double h0 = g[k] - g[k - 1], h1 = g[k + 1] - g[k];
        double d0 = (f[k * stride] - f[(k - 1) * stride]) / h0;
        double d1 = (f[(k + 1) * stride] - f[k * stride]) / h1;
        if (d0 * d1 <= 0)
            return 0;
        double w1 = 2 * h1 + h0, w2 = h1 + 2 * h0;
        return (w1 + w2) / (w1 / d0 + w2 / d1);
    }
    /* the one-sided three-point formula at an end, kept shape-preserving */
    int a = k == 0 ? 0 : n - 1, b = k == 0 ? 1 : n - 2, c = k == 0 ? 2 : n - 3;
    double h0 = g[b] - g[a], h1 = g[c] - g[b];
    double d0 = (f[b * stride] - f[a * stride]) / h0;
    double d1 = (f[c * stride] - f[b * stride]) / h1;
    double m = ((2 * h0 + h1) * d0 - h0 * d1) / (h0 + h1);
    if (sign_of(m) != sign_of(d0))
        return 0;
    if (sign_of(d0) != sign_of(d1) && fabs(m) > 3 * fabs(d0))
        return 3 * d0;
    return m;
}

double rt_table1(const double *g, int n, const double *f, int interp, int extrap,
                 int seg, double x, int d)
{
    if (n < 1)
        return 0;
    if (n == 1)
        return d == 0 ? f[0] : 0;
    Axis a = axis_of(g, n, seg, x, extrap);
    int c0 = a.c - 1, c1 = a.c;
    if (interp != RT_INTERP_SMOOTH) {
        double b[2];
        basis(0, &a, d, b);
        return b[0] * f[c0] + b[1] * f[c1];
    }
    double b[4];
    basis(1, &a, d, b);
    return b[0] * f[c0] + b[1] * a.h * slope(g, n, f, 1, c0) + b[2] * f[c1]
           + b[3] * a.h * slope(g, n, f, 1, c1);
}

double rt_table2(const double *g1, int n1, const double *g2, int n2, const double *f,
                 int interp, int extrap, int s1, int s2, double x1, double x2, int d1,
                 int d2)
{
    if (n1 < 2 || n2 < 2)
        return n1 < 2 ? rt_table1(g2, n2, f, interp, extrap, s2, x2, d2) * (d1 == 0)
                      : rt_table1(g1, n1, f, interp, extrap, s1, x1, d1) * (d2 == 0);
    Axis a = axis_of(g1, n1, s1, x1, extrap), b = axis_of(g2, n2, s2, x2, extrap);
    int smooth = interp == RT_INTERP_SMOOTH;
    double ba[4], bb[4];
    basis(smooth, &a, d1, ba);
    basis(smooth, &b, d2, bb);
    double sum = 0;
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 2; j++) {
            int r = a.c - 1 + i, c = b.c - 1 + j;
            const double *at = f + r + (long)c * n1;
            if (!smooth) {
                sum += at[0] * ba[i] * bb[j];
                continue;
            }
            /* value, slope along x1 (down the column), slope along x2 (along
               the row); the twist is 0 */
            double fx = slope(g1, n1, f + (long)c * n1, 1, r);
            double fy = slope(g2, n2, f + r, n1, c);
            sum += at[0] * ba[2 * i] * bb[2 * j] + a.h * fx * ba[2 * i + 1] * bb[2 * j]
                   + b.h * fy * ba[2 * i] * bb[2 * j + 1];
        }
    }
    return sum;
}
