/*
 * units.c - dimension algebra: products, quotients and powers of SI
 * dimension vectors, their text for messages, and the unit strings a model
 * writes.  Unit strings are parsed by the runtime's rt_units.c, so the
 * compiler and the simulator agree on every symbol.  The unit check pass
 * is units/units_check.c.
 */
#include "units.h"

#include "diag.h"

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
    /* a product past the range is held just outside it, for
       dim_in_range to see (it would not fit a short) */
    const int lim = RT_DIM_MAX * RT_DIM_DEN;
    for (int i = 0; i < RT_DIM_COUNT; i++) {
        long e = (long)a.e[i] * n;
        a.e[i] = (short)(e > lim ? lim + 1 : e < -lim ? -lim - 1 : e);
    }
    return a;
}

bool dim_root(Dim a, long num, long den, Dim *out)
{
    for (int i = 0; i < RT_DIM_COUNT; i++) {
        long e = (long)a.e[i] * num;
        if (e % den)
            return false;
        e /= den;
        if (e > RT_DIM_MAX * RT_DIM_DEN || e < -RT_DIM_MAX * RT_DIM_DEN)
            return false;
        out->e[i] = (short)e;
    }
    return true;
}

bool dim_in_range(Dim a, int *worst)
{
    for (int i = 0; i < RT_DIM_COUNT; i++) {
        if (a.e[i] > RT_DIM_MAX * RT_DIM_DEN || a.e[i] < -RT_DIM_MAX * RT_DIM_DEN) {
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

/* A unit string's error, pointing into the string at byte pos (past
   the opening quote). */
static void unit_string_error(SrcSpan sp, size_t pos, const char *err)
{
    uint32_t at = sp.begin + 1 + (uint32_t)pos;
    SrcSpan p = {sp.file, at < sp.end ? at : sp.begin, sp.end > at + 1 ? sp.end - 1 : sp.end};
    diag_error(p, "%s", err);
}

const RtUnit *units_read_quantity(Arena *a, const char *text, SrcSpan unit_span,
                                  bool absolute, bool relative)
{
    RtUnit *u = arena_alloc(a, sizeof *u);
    char err[160];
    size_t pos = 0;
    size_t skip = 0;
    if (text[0] == '*') {
        /* '*' or '*(UNIT)': the parameter takes its binding's unit; this
           is its unit when unbound (dimensionless for a bare '*') */
        size_t n = strlen(text);
        if (n == 1) {
            u->scale = 1;
            memset(u->dim, 0, sizeof u->dim);
            return u;
        }
        if (text[1] != '(' || text[n - 1] != ')') {
            unit_string_error(unit_span, 1, "after '*' comes nothing "
                              "or the unit when unbound in parentheses, as in '*(1/s)'");
            return NULL;
        }
        text = arena_strndup(a, text + 2, n - 3);
        skip = 2;
    }
    /* {25, 'degC'} as a declaration's value: an absolute temperature,
       298.15 K (Simscape's conversion); elsewhere degC is refused */
    double offset;
    if ((absolute ? rt_unit_parse_affine(text, u, &offset, err, sizeof err, &pos)
                  : rt_unit_parse(text, u, err, sizeof err, &pos)) != 0) {
        unit_string_error(unit_span, pos + skip, err);
        return NULL;
    }
    if (relative)
        u->offset = 0;
    return u;
}

const RtUnit *units_read_value(Arena *a, const char *text, SrcSpan span, double *offset)
{
    RtUnit *u = arena_alloc(a, sizeof *u);
    char err[160];
    size_t pos = 0;
    if (rt_unit_parse_affine(text, u, offset, err, sizeof err, &pos)) {
        unit_string_error(span, pos, err);
        return NULL;
    }
    return u;
}
