/*
 * rt_math.h - MATLAB's scalar functions that C's <math.h> spells
 * differently, shared by the compiler (constant folding, dae_eval) and the
 * generated code (rt_model.h includes it), so that both compute them
 * alike.
 *
 *   rt_mod(a, b)   MATLAB's mod: a - floor(a/b)*b, the sign of b; a when
 *                  b is 0
 *   rt_rem(a, b)   MATLAB's rem: a - fix(a/b)*b, the sign of a (C's fmod)
 *   rt_sign(a)     -1, 0 or 1 (a NaN stays NaN)
 *   rt_isfinite, rt_isinf, rt_isnan   1 or 0, as doubles
 */
#ifndef RT_MATH_H
#define RT_MATH_H

#include <math.h>

static inline double rt_mod(double a, double b)
{
    if (b == 0)
        return a;
    double r = fmod(a, b);
    return r != 0 && (r < 0) != (b < 0) ? r + b : r;
}

static inline double rt_rem(double a, double b)
{
    return fmod(a, b);
}

static inline double rt_sign(double a)
{
    return a > 0 ? 1.0 : a < 0 ? -1.0 : a;
}

static inline double rt_isfinite(double a)
{
    return isfinite(a) ? 1.0 : 0.0;
}

static inline double rt_isinf(double a)
{
    return isinf(a) ? 1.0 : 0.0;
}

static inline double rt_isnan(double a)
{
    return isnan(a) ? 1.0 : 0.0;
}

#endif
