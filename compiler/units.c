/*
 * units.c - dimension algebra: products, quotients and powers of SI
 * dimension vectors, and their text for messages.  Unit strings are parsed
 * by the runtime's rt_units.c, so the compiler and the simulator agree on
 * every symbol.  The unit check pass is units_check.c.
 */
#include "units.h"

#include <stdio.h>
#include <string.h>

bool dim_eq(Dim a, Dim b)
{
    return memcmp(a.e, b.e, sizeof a.e) == 0;
}

bool dim_is_none(Dim a)
{
    return dim_eq(a, dim_none());
}

Dim dim_mul(Dim a, Dim b)
{
    for (int i = 0; i < RT_DIM_COUNT; i++)
        a.e[i] = (short)(a.e[i] + b.e[i]);
    return a;
}

Dim dim_div(Dim a, Dim b)
{
    for (int i = 0; i < RT_DIM_COUNT; i++)
        a.e[i] = (short)(a.e[i] - b.e[i]);
    return a;
}

Dim dim_pow(Dim a, int n)
{
    for (int i = 0; i < RT_DIM_COUNT; i++)
        a.e[i] = (short)(a.e[i] * n);
    return a;
}

bool dim_in_range(Dim a, int *worst)
{
    for (int i = 0; i < RT_DIM_COUNT; i++) {
        if (a.e[i] > RT_DIM_MAX || a.e[i] < -RT_DIM_MAX) {
            if (worst)
                *worst = i;
            return false;
        }
    }
    return true;
}

const char *dim_text(Dim d, char *buf, size_t len)
{
    rt_unit_format(d.e, buf, len);
    return buf;
}

const char *dim_phrase(Dim d, char *buf, size_t len)
{
    if (dim_is_none(d)) {
        snprintf(buf, len, "dimensionless");
        return buf;
    }
    char u[64];
    snprintf(buf, len, "in %s", dim_text(d, u, sizeof u));
    return buf;
}

const char *dim_text_msg(Dim d, char *buf, size_t len)
{
    if (dim_is_none(d)) {
        snprintf(buf, len, "dimensionless");
        return buf;
    }
    return dim_text(d, buf, len);
}
