/*
 * rt_table.h - table lookup: the interpolants of tablelookup, shared by
 * the simulator and the compiler (rt_table.c).
 *
 * One piece of code evaluates a table wherever a value is needed: in the
 * simulator (through rt_lookup, rt_model.h) and in the compiler, which
 * evaluates lookups at the parameters' defaults (start values, the
 * Jacobians that choose the states, compile-time checks).  So the value
 * a model is analysed with is the value it is simulated with, and the
 * derivative the compiler's Jacobians and index reduction use is the
 * exact derivative of the same piecewise polynomial.
 *
 * Grids are strictly monotonic, increasing or decreasing.  A query's
 * segment (rt_grid_segment) counts the grid points at or behind it: 0
 * before the first, n at or after the last, k (1 .. n-1) between points
 * k-1 and k.  Evaluation takes the segment as an argument, so that a
 * simulation can freeze it between events: the value is then the
 * segment's own polynomial, smooth even where the query has left the
 * segment, until the event that moves to the next one.
 *
 * Interpolation, per segment: linear; or smooth, a shape-preserving
 * piecewise cubic Hermite interpolant whose slopes at the grid points are
 * the weighted harmonic means of Fritsch and Butland (Brodlie's weights)
 * with the one-sided end formula, as MATLAB's pchip: monotonic on
 * monotonic data, exact at the points, continuous with its first
 * derivative.  Outside the grid: linear (the end segment's tangent at the
 * end point), nearest (the end value), or error (the end value, and the
 * caller reports the query).  In two dimensions the interpolant is the
 * tensor product: bilinear, or the bicubic Hermite patch with each axis's
 * slopes and no twist, which on every grid line is the one-dimensional
 * smooth interpolant.
 */
#ifndef LMDL_RT_TABLE_H
#define LMDL_RT_TABLE_H

#include "rt_kinds.h"

/* The highest derivative order that is not identically 0, per
   interpolation (linear: 1; smooth: a cubic, 3). */
int rt_table_max_order(int interp);

/* -1 if g[0..n-1] is strictly monotonic; else the first k > 0 with
   g[k] not beyond g[k-1] in the direction of g[1] - g[0]. */
int rt_grid_check(const double *g, int n);

/* The value or a derivative of a 1-D table: grid g (n points), data f
   (n values), in segment seg (0 .. n) at x; d is the order of the
   derivative with respect to x (0: the value). */
double rt_table1(const double *g, int n, const double *f, int interp, int extrap,
                 int seg, double x, int d);

/* The same for a 2-D table: grids g1 (n1 points), g2 (n2), data f of
   n1 * n2 values, f(i, j) = f[i + j * n1] (column-major, as a matrix
   parameter is stored); the derivative of orders d1 in x1, d2 in x2. */
double rt_table2(const double *g1, int n1, const double *g2, int n2, const double *f,
                 int interp, int extrap, int s1, int s2, double x1, double x2, int d1,
                 int d2);

/* The segment of x on grid g of n points (0 .. n), and the crossing
   function of segment seg at x: >= 0 while x is in it (also declared in
   rt_model.h, for generated code). */
int rt_grid_segment(const double *g, int n, double x);
double rt_grid_crossing(const double *g, int n, int seg, double x);

#endif
