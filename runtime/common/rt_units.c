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
#include <stdbool.h>
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
    /* the electrical and magnetic units of Simscape's registry */
    {"Ohm", 1, {2, 1, -3, -2, 0, 0, 0}},
    {"S", 1, {-2, -1, 3, 2, 0, 0, 0}},
    {"C", 1, {0, 0, 1, 1, 0, 0, 0}},
    {"F", 1, {-2, -1, 4, 2, 0, 0, 0}},
    {"H", 1, {2, 1, -2, -2, 0, 0, 0}},
    {"Wb", 1, {2, 1, -2, -1, 0, 0, 0}},
    {"T", 1, {0, 1, -2, -1, 0, 0, 0}},
    {"Ah", 3600, {0, 0, 1, 1, 0, 0, 0}},
    {"Wh", 3600, {2, 1, -2, 0, 0, 0, 0}},
    /* more of it: time, volume, pressure, energy, length, ratio */
    {"d", 86400, {0, 0, 1, 0, 0, 0, 0}},
    {"day", 86400, {0, 0, 1, 0, 0, 0, 0}},
    {"l", 1e-3, {3, 0, 0, 0, 0, 0, 0}},
    {"gal", 3.785411784e-3, {3, 0, 0, 0, 0, 0, 0}},
    {"atm", 101325, {-1, 1, -2, 0, 0, 0, 0}},
    {"mmHg", 133.322387415, {-1, 1, -2, 0, 0, 0, 0}},
    {"cal", 4.184, {2, 1, -2, 0, 0, 0, 0}},
    {"eV", 1.602176634e-19, {2, 1, -2, 0, 0, 0, 0}},
    {"yd", 0.9144, {1, 0, 0, 0, 0, 0, 0}},
    {"percent", 0.01, {0, 0, 0, 0, 0, 0, 0}},
    /* Rankine is absolute (no offset): 5/9 K */
    {"degR", 5.0 / 9.0, {0, 0, 0, 0, 1, 0, 0}},
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

/* The recursive descent of a unit string (units are MATLAB's expressions
   of symbols):
     unit   := term (('*' | '/') term)*
     term   := factor ('^' power)?
     factor := SYMBOL | '1' | '(' unit ')'
     power  := ['-'] NUMBER | '(' ['-'] NUMBER ['/' NUMBER] ')'
   Exponents are rational (twelfths, RT_DIM_DEN), while parsing and in the
   result: 'm^0.5', (m^2)^0.5 = m. */
enum { TWELFTHS = RT_DIM_DEN };

typedef struct UnitParse {
    const char *s;          /* the text */
    size_t n, i;            /* its length, the position */
    char *err;              /* the message, or NULL */
    size_t errlen;
    size_t *errpos;
    int depth;              /* parentheses open */
} UnitParse;

typedef struct UnitVal {
    double scale;
    long e[RT_DIM_COUNT];   /* exponents in twelfths */
} UnitVal;

static void skip(UnitParse *p)
{
    while (p->i < p->n && p->s[p->i] == ' ')
        p->i++;
}

static int parse_unit(UnitParse *p, UnitVal *v);

static int parse_factor(UnitParse *p, UnitVal *v)
{
    skip(p);
    size_t start = p->i;
    memset(v, 0, sizeof *v);
    v->scale = 1;
    if (p->i < p->n && p->s[p->i] == '(') {
        if (++p->depth > 16)
            return fail(p->err, p->errlen, p->errpos, start, "parentheses nested too "
                        "deep in a unit", NULL, 0);
        p->i++;
        if (parse_unit(p, v) != 0)
            return -1;
        skip(p);
        if (p->i >= p->n || p->s[p->i] != ')')
            return fail(p->err, p->errlen, p->errpos, p->i, "expected ')' in the unit",
                        NULL, 0);
        p->i++;
        p->depth--;
        return 0;
    }
    if (p->i < p->n && p->s[p->i] == '1'
        && (p->i + 1 == p->n || !isalnum((unsigned char)p->s[p->i + 1]))) {
        p->i++;
        return 0;
    }
    while (p->i < p->n && (isalpha((unsigned char)p->s[p->i])
                           || (unsigned char)p->s[p->i] >= 0x80))
        p->i++;
    if (p->i == start)
        return fail(p->err, p->errlen, p->errpos, start, "expected a unit symbol", NULL, 0);
    const char *sym = p->s + start;
    size_t len = p->i - start;
    if (len == 4 && (!memcmp(sym, "degC", 4) || !memcmp(sym, "degF", 4)))
        return fail(p->err, p->errlen, p->errpos, start, "'%.*s' is an affine "
                    "temperature unit (it has an offset); use K (a declaration's value "
                    "may be {T, 'degC'} alone, and value(T, 'degC') reads one)", sym, len);
    short dim[RT_DIM_COUNT];
    if (lookup(sym, len, &v->scale, dim) != 0)
        return fail(p->err, p->errlen, p->errpos, start, "unknown unit '%.*s'", sym, len);
    for (int k = 0; k < RT_DIM_COUNT; k++)
        v->e[k] = dim[k] * TWELFTHS;
    return 0;
}

/* A power: a number, or a parenthesized number or ratio; in twelfths. */
static int parse_power(UnitParse *p, long *twelfths)
{
    skip(p);
    size_t start = p->i;
    bool paren = p->i < p->n && p->s[p->i] == '(';
    if (paren) {
        p->i++;
        skip(p);
    }
    double num, den = 1;
    size_t used = 0;
    if (rt_number_scan(p->s + p->i, p->n - p->i, 1, &num, &used, NULL) != RT_NUM_OK)
        return fail(p->err, p->errlen, p->errpos, start, "expected a power after '^' (a "
                    "number, or a ratio in parentheses such as (1/2))", NULL, 0);
    p->i += used;
    skip(p);
    if (paren && p->i < p->n && p->s[p->i] == '/') {
        p->i++;
        skip(p);
        if (rt_number_scan(p->s + p->i, p->n - p->i, 0, &den, &used, NULL) != RT_NUM_OK
            || den == 0)
            return fail(p->err, p->errlen, p->errpos, p->i, "expected the power's "
                        "denominator", NULL, 0);
        p->i += used;
        skip(p);
    }
    if (paren) {
        if (p->i >= p->n || p->s[p->i] != ')')
            return fail(p->err, p->errlen, p->errpos, p->i, "expected ')' after the power",
                        NULL, 0);
        p->i++;
    }
    double t = num / den * TWELFTHS;
    if (fabs(num / den) > RT_DIM_MAX)
        return fail_power(p->err, p->errlen, p->errpos, start, num / den);
    if (fabs(t - floor(t + 0.5)) > 1e-9)
        return fail(p->err, p->errlen, p->errpos, start, "unit powers are whole numbers "
                    "or halves, thirds, quarters, sixths and twelfths", NULL, 0);
    *twelfths = (long)floor(t + 0.5);
    return 0;
}

static int parse_term(UnitParse *p, UnitVal *v)
{
    if (parse_factor(p, v) != 0)
        return -1;
    skip(p);
    if (p->i < p->n && p->s[p->i] == '^') {
        p->i++;
        long pw;
        if (parse_power(p, &pw) != 0)
            return -1;
        v->scale = pow(v->scale, (double)pw / TWELFTHS);
        for (int k = 0; k < RT_DIM_COUNT; k++) {
            if (v->e[k] * pw % TWELFTHS)    /* (m^0.25)^0.5 is m^(1/8) */
                return fail(p->err, p->errlen, p->errpos, p->i, "this power of a "
                            "power leaves a unit power finer than twelfths", NULL, 0);
            v->e[k] = v->e[k] * pw / TWELFTHS;
        }
    }
    return 0;
}

static int parse_unit(UnitParse *p, UnitVal *v)
{
    if (parse_term(p, v) != 0)
        return -1;
    for (;;) {
        skip(p);
        if (p->i >= p->n || p->s[p->i] == ')')
            return 0;
        char op = p->s[p->i];
        if (op != '*' && op != '/')
            return fail(p->err, p->errlen, p->errpos, p->i, "unexpected '%.*s' in a unit; "
                        "units are products and quotients like 'N*m/s^2' or "
                        "'J/(kg*K)'", p->s + p->i, 1);
        p->i++;
        UnitVal w;
        size_t at = p->i;
        if (parse_term(p, &w) != 0)
            return -1;
        int sign = op == '*' ? 1 : -1;
        v->scale = sign > 0 ? v->scale * w.scale : v->scale / w.scale;
        for (int k = 0; k < RT_DIM_COUNT; k++) {
            v->e[k] += sign * w.e[k];
            if (labs(v->e[k]) > (long)RT_DIM_MAX * TWELFTHS)
                return fail_exponent(p->err, p->errlen, p->errpos, at, k,
                                     v->e[k] / TWELFTHS);
        }
    }
}

int rt_unit_parse(const char *s, RtUnit *u, char *err, size_t errlen,
                  size_t *errpos)
{
    u->scale = 1;
    memset(u->dim, 0, sizeof u->dim);
    UnitParse p = {s, strlen(s), 0, err, errlen, errpos, 0};
    skip(&p);
    if (p.i == p.n)
        return fail(err, errlen, errpos, 0, "empty unit; write '1' for a "
                    "dimensionless quantity", NULL, 0);
    UnitVal v;
    if (parse_unit(&p, &v) != 0)
        return -1;
    if (p.i < p.n)
        return fail(err, errlen, errpos, p.i, "unexpected ')' in the unit", NULL, 0);
    for (int k = 0; k < RT_DIM_COUNT; k++) {
        long e = v.e[k];
        if (e > (long)RT_DIM_MAX * TWELFTHS || e < -(long)RT_DIM_MAX * TWELFTHS)
            return fail_exponent(err, errlen, errpos, 0, k, e / TWELFTHS);
        u->dim[k] = (short)e;
    }
    u->scale = v.scale;
    u->offset = 0;
    return 0;
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
            u->dim[4] = RT_DIM_DEN;
            *offset = affine[i].offset;
            /* SI = x * scale + offset * scale: degF's offset is in its own
               degrees */
            u->offset = affine[i].offset * affine[i].scale;
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
    {"Ohm", {2, 1, -3, -2, 0, 0, 0}},
    {"S", {-2, -1, 3, 2, 0, 0, 0}},
    {"F", {-2, -1, 4, 2, 0, 0, 0}},
    {"H", {2, 1, -2, -2, 0, 0, 0}},
    {"Wb", {2, 1, -2, -1, 0, 0, 0}},
    {"T", {0, 1, -2, -1, 0, 0, 0}},
    {"C", {0, 0, 1, 1, 0, 0, 0}},
    {"W/K", {2, 1, -3, 0, -1, 0, 0}},
    {"J/K", {2, 1, -2, 0, -1, 0, 0}},
    {"J/(kg*K)", {2, 0, -2, 0, -1, 0, 0}},
    {"W/(m*K)", {1, 1, -3, 0, -1, 0, 0}},
    {"W/(m^2*K)", {0, 1, -3, 0, -1, 0, 0}},
};

const char *rt_unit_name(int i)
{
    static const char *const affine[] = {"degC", "degF"};
    size_t n = sizeof units / sizeof units[0];
    if (i < 0)
        return NULL;
    if ((size_t)i < n)
        return units[i].sym;
    if ((size_t)i - n < sizeof affine / sizeof affine[0])
        return affine[(size_t)i - n];
    return NULL;
}

static const char *const base[RT_DIM_COUNT] = {"m", "kg", "s", "A", "K", "mol", "cd"};

const char *rt_unit_base(int k)
{
    return k >= 0 && k < RT_DIM_COUNT ? base[k] : "?";
}

/* ^e of a stored exponent e > 0 (twelfths): nothing for 1, "^2", "^0.5",
   "^1.5", "^(1/3)"; each reads back as the same power. */
static size_t put_power(char *buf, size_t at, size_t len, int e)
{
    char *b = buf + at;
    size_t n = at < len ? len - at : 0;
    if (e == TWELFTHS)
        return 0;
    if (e % TWELFTHS == 0)
        return (size_t)snprintf(b, n, "^%d", e / TWELFTHS);
    if (e % (TWELFTHS / 4) == 0) /* quarters and halves: exact in decimals */
        return (size_t)snprintf(b, n, "^%g", (double)e / TWELFTHS);
    int g = e, d = TWELFTHS;
    while (d) {
        int t = g % d;
        g = d;
        d = t;
    }
    return (size_t)snprintf(b, n, "^(%d/%d)", e / g, TWELFTHS / g);
}

void rt_unit_format(const short dim[RT_DIM_COUNT], char *buf, size_t len)
{
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        bool same = true;
        for (int k = 0; k < RT_DIM_COUNT && same; k++)
            same = named[i].dim[k] * TWELFTHS == dim[k];
        if (same) {
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
        at += put_power(buf, at, len, dim[k]);
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
        at += put_power(buf, at, len, -dim[k]);
    }
}
