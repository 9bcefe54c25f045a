/*
 * rt_units.c - the unit table, the unit-string parser and dimension
 * printing.
 *
 * A symbol is looked up whole first, then as an SI prefix followed by a
 * symbol, so 'min' is a minute and 'mm' a millimetre.  Affine temperature
 * units (degC, degF) have an offset, which a scale factor cannot express:
 * they are refused with a message, except by rt_unit_parse_affine (the
 * compiler's value(T, 'degC')).
 */
#include "rt_units.h"

#include "rt_number.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct UnitDef {
    const char *sym;        /* symbol */
    double scale;           /* SI value */
    short dim[RT_DIM_COUNT];
} UnitDef;

#define PI 3.14159265358979323846

static const UnitDef units[] = {
    {"m", 1, {1, 0, 0, 0, 0, 0, 0}},
    {"kg", 1, {0, 1, 0, 0, 0, 0, 0}},
    {"s", 1, {0, 0, 1, 0, 0, 0, 0}},
    {"A", 1, {0, 0, 0, 1, 0, 0, 0}},
    {"K", 1, {0, 0, 0, 0, 1, 0, 0}},
    {"mol", 1, {0, 0, 0, 0, 0, 1, 0}},
    {"cd", 1, {0, 0, 0, 0, 0, 0, 1}},
    {"N", 1, {1, 1, -2, 0, 0, 0, 0}},
    {"J", 1, {2, 1, -2, 0, 0, 0, 0}},
    {"W", 1, {2, 1, -3, 0, 0, 0, 0}},
    {"Pa", 1, {-1, 1, -2, 0, 0, 0, 0}},
    {"Hz", 1, {0, 0, -1, 0, 0, 0, 0}},
    {"V", 1, {2, 1, -3, -1, 0, 0, 0}},
    {"g", 1e-3, {0, 1, 0, 0, 0, 0, 0}},
    {"min", 60, {0, 0, 1, 0, 0, 0, 0}},
    {"h", 3600, {0, 0, 1, 0, 0, 0, 0}},
    {"rad", 1, {0, 0, 0, 0, 0, 0, 0}},
    {"deg", PI / 180, {0, 0, 0, 0, 0, 0, 0}},
    {"rev", 2 * PI, {0, 0, 0, 0, 0, 0, 0}},
    {"rpm", 2 * PI / 60, {0, 0, -1, 0, 0, 0, 0}},
    {"in", 0.0254, {1, 0, 0, 0, 0, 0, 0}},
    {"ft", 0.3048, {1, 0, 0, 0, 0, 0, 0}},
    {"lbf", 4.4482216152605, {1, 1, -2, 0, 0, 0, 0}},
    {"lbm", 0.45359237, {0, 1, 0, 0, 0, 0, 0}},
    {"hr", 3600, {0, 0, 1, 0, 0, 0, 0}},
    {"mi", 1609.344, {1, 0, 0, 0, 0, 0, 0}},
    {"mph", 0.44704, {1, 0, -1, 0, 0, 0, 0}},
    {"L", 1e-3, {3, 0, 0, 0, 0, 0, 0}},
    {"bar", 1e5, {-1, 1, -2, 0, 0, 0, 0}},
    /* lbf / in^2 and lbf * s^2 / ft, from the exact lbf, in and ft */
    {"psi", 4.4482216152605 / (0.0254 * 0.0254), {-1, 1, -2, 0, 0, 0, 0}},
    {"kgf", 9.80665, {1, 1, -2, 0, 0, 0, 0}},
    {"slug", 4.4482216152605 / 0.3048, {0, 1, 0, 0, 0, 0, 0}},
};

static const struct { const char *p; double f; } prefixes[] = {
    {"da", 1e1}, {"Y", 1e24}, {"Z", 1e21}, {"E", 1e18}, {"P", 1e15},
    {"T", 1e12}, {"G", 1e9}, {"M", 1e6}, {"k", 1e3}, {"h", 1e2},
    {"d", 1e-1}, {"c", 1e-2}, {"m", 1e-3}, {"u", 1e-6}, {"\xC2\xB5", 1e-6},
    {"n", 1e-9}, {"p", 1e-12}, {"f", 1e-15}, {"a", 1e-18}, {"z", 1e-21},
    {"y", 1e-24},
};

static const UnitDef *find_exact(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strlen(units[i].sym) == n && memcmp(units[i].sym, s, n) == 0)
            return &units[i];
    return NULL;
}

/* A symbol of n bytes: exact, or prefix + unit. */
static int lookup(const char *s, size_t n, double *scale, short *dim)
{
    const UnitDef *u = find_exact(s, n);
    double f = 1;
    if (!u) {
        for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0] && !u; i++) {
            size_t pl = strlen(prefixes[i].p);
            if (n > pl && memcmp(s, prefixes[i].p, pl) == 0) {
                u = find_exact(s + pl, n - pl);
                f = prefixes[i].f;
            }
        }
    }
    if (!u)
        return -1;
    *scale = f * u->scale;
    memcpy(dim, u->dim, sizeof u->dim);
    return 0;
}

static int fail(char *err, size_t len, size_t *pos, size_t at, const char *msg,
                const char *sym, size_t symlen)
{
    if (err && len) {
        if (sym)
            snprintf(err, len, msg, (int)symlen, sym);
        else
            snprintf(err, len, "%s", msg);
    }
    if (pos)
        *pos = at;
    return -1;
}

static int fail_power(char *err, size_t len, size_t *pos, size_t at, double pw)
{
    if (err && len)
        snprintf(err, len, "the unit power %.0f is out of range: unit exponents "
                 "are limited to -%d..%d", pw, RT_DIM_MAX, RT_DIM_MAX);
    if (pos)
        *pos = at;
    return -1;
}

static int fail_exponent(char *err, size_t len, size_t *pos, size_t at, int k,
                         long e)
{
    if (err && len)
        snprintf(err, len, "this unit has %s^%ld: unit exponents are limited "
                 "to -%d..%d", rt_unit_base(k), e, RT_DIM_MAX, RT_DIM_MAX);
    if (pos)
        *pos = at;
    return -1;
}

int rt_unit_parse(const char *s, RtUnit *u, char *err, size_t errlen,
                  size_t *errpos)
{
    u->scale = 1;
    memset(u->dim, 0, sizeof u->dim);
    size_t i = 0, n = strlen(s);
    while (i < n && s[i] == ' ')
        i++;
    if (i == n)
        return fail(err, errlen, errpos, 0, "empty unit; write '1' for a "
                    "dimensionless quantity", NULL, 0);
    int sign = 1;   /* +1 multiplying, -1 after '/' */
    for (;;) {
        while (i < n && s[i] == ' ')
            i++;
        size_t start = i;
        double scale;
        short dim[RT_DIM_COUNT];
        if (i < n && s[i] == '1' && (i + 1 == n || !isalnum((unsigned char)s[i + 1]))) {
            i++;
            scale = 1;
            memset(dim, 0, sizeof dim);
        } else {
            while (i < n && (isalpha((unsigned char)s[i]) || (unsigned char)s[i] >= 0x80))
                i++;
            if (i == start)
                return fail(err, errlen, errpos, start, "expected a unit symbol",
                            NULL, 0);
            const char *sym = s + start;
            size_t len = i - start;
            if ((len == 4 && (!memcmp(sym, "degC", 4) || !memcmp(sym, "degF", 4)))
                || (len == 4 && !memcmp(sym, "degR", 4)))
                return fail(err, errlen, errpos, start, "'%.*s' is an affine "
                            "temperature unit (it has an offset); use K "
                            "(only value(T, 'degC') and value(T, 'degF') "
                            "read one)", sym, len);
            if (lookup(sym, len, &scale, dim) != 0)
                return fail(err, errlen, errpos, start, "unknown unit '%.*s'",
                            sym, len);
        }
        long power = 1;
        while (i < n && s[i] == ' ')
            i++;
        if (i < n && s[i] == '^') {
            i++;
            size_t pstart = i, used = 0;
            double pw;
            if (rt_number_scan(s + i, n - i, 1, &pw, &used, NULL) != RT_NUM_OK)
                return fail(err, errlen, errpos, pstart, "expected an integer "
                            "power after '^'", NULL, 0);
            if (pw != floor(pw))
                return fail(err, errlen, errpos, pstart, "unit powers must be "
                            "integers", NULL, 0);
            if (fabs(pw) > RT_DIM_MAX)
                return fail_power(err, errlen, errpos, pstart, pw);
            power = (long)pw;
            i += used;
        }
        u->scale *= pow(scale, (double)(sign * power));
        for (int k = 0; k < RT_DIM_COUNT; k++) {
            long e = u->dim[k] + sign * power * dim[k];
            if (e > RT_DIM_MAX || e < -RT_DIM_MAX)
                return fail_exponent(err, errlen, errpos, start, k, e);
            u->dim[k] = (short)e;
        }
        while (i < n && s[i] == ' ')
            i++;
        if (i == n)
            return 0;
        if (s[i] == '*')
            sign = 1;
        else if (s[i] == '/')
            sign = -1;
        else
            return fail(err, errlen, errpos, i, "unexpected '%.*s' in a unit; "
                        "units are products and quotients like 'N*m/s^2'",
                        s + i, 1);
        i++;
    }
}

int rt_unit_parse_affine(const char *s, RtUnit *u, double *offset, char *err,
                         size_t errlen, size_t *errpos)
{
    size_t b = 0, n = strlen(s);
    while (b < n && s[b] == ' ')
        b++;
    while (n > b && s[n - 1] == ' ')
        n--;
    static const struct { const char *sym; double scale, offset; } affine[] = {
        {"degC", 1, 273.15},            /* T/degC = T/K - 273.15 */
        {"degF", 5.0 / 9.0, 459.67},    /* T/degF = T/K * 9/5 - 459.67 */
    };
    for (size_t i = 0; i < sizeof affine / sizeof affine[0]; i++) {
        if (n - b == strlen(affine[i].sym) && !memcmp(s + b, affine[i].sym, n - b)) {
            u->scale = affine[i].scale;
            memset(u->dim, 0, sizeof u->dim);
            u->dim[4] = 1;
            *offset = affine[i].offset;
            return 0;
        }
    }
    *offset = 0;
    return rt_unit_parse(s, u, err, errlen, errpos);
}

/* Preferred spellings, tried before the base-unit form. */
static const struct { const char *text; short dim[RT_DIM_COUNT]; } named[] = {
    {"1", {0, 0, 0, 0, 0, 0, 0}},
    {"N", {1, 1, -2, 0, 0, 0, 0}},
    {"N*m", {2, 1, -2, 0, 0, 0, 0}},
    {"N/m", {0, 1, -2, 0, 0, 0, 0}},
    {"N*s/m", {0, 1, -1, 0, 0, 0, 0}},
    {"N*m*s", {2, 1, -1, 0, 0, 0, 0}},
    {"W", {2, 1, -3, 0, 0, 0, 0}},
    {"Pa", {-1, 1, -2, 0, 0, 0, 0}},
    {"V", {2, 1, -3, -1, 0, 0, 0}},
};

static const char *const base[RT_DIM_COUNT] = {"m", "kg", "s", "A", "K", "mol", "cd"};

const char *rt_unit_base(int k)
{
    return k >= 0 && k < RT_DIM_COUNT ? base[k] : "?";
}

void rt_unit_format(const short dim[RT_DIM_COUNT], char *buf, size_t len)
{
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        if (memcmp(named[i].dim, dim, sizeof named[i].dim) == 0) {
            snprintf(buf, len, "%s", named[i].text);
            return;
        }
    }
    /* kg first, then m, then the rest, as engineers write them */
    static const int order[RT_DIM_COUNT] = {1, 0, 2, 3, 4, 5, 6};
    size_t at = 0;
    int nnum = 0;
    buf[0] = 0;
    for (int j = 0; j < RT_DIM_COUNT; j++) {
        int k = order[j];
        if (dim[k] <= 0)
            continue;
        at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "%s%s", nnum ? "*" : "", base[k]);
        if (dim[k] > 1)
            at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "^%d", dim[k]);
        nnum++;
    }
    if (!nnum)
        at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "1");
    /* Each negative power divides: kg/m/s reads back as kg*m^-1*s^-1. */
    for (int j = 0; j < RT_DIM_COUNT; j++) {
        int k = order[j];
        if (dim[k] >= 0)
            continue;
        at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "/%s", base[k]);
        if (dim[k] < -1)
            at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "^%d", -dim[k]);
    }
}
