/*
 * rt_params.c - --param PATH=VALUE: run-time parameter overrides.
 *
 * A value is a number, optionally followed by a unit ('250 mm',
 * '2 kN/m', '30 degC'), read with the same unit parser as the compiler
 * (rt_units.c) so both agree on what a unit means.  A bare number is in
 * the unit the parameter's declaration is written in, as a Simscape block
 * dialog reads it: `--param x=5` for `x = {1, 'mm'}` is 5 mm (RtParamInfo
 * .unit; SI when the declaration names none).  A unit must have the
 * parameter's dimension: a length given in seconds is a mistake worth
 * stopping for, not a number to convert.  degC and degF are absolute
 * temperatures, or differences for a parameter declared with Conversion
 * = relative.  Booleans take true/false/1/0.
 *
 * Structural parameters were decided when the model was compiled (they
 * choose conditional sections, for-loop ranges, sizes and indices), so
 * changing one here could not change the model: it is refused with a
 * message saying so.
 *
 * After the overrides, derive_params recomputes every parameter defined
 * from others, skipping the overridden ones, so `--param r12=0.3` reaches
 * `lever.r12` when the model binds one to the other.
 *
 * The number is checked twice: as written (rt_number_scan: no hex, no
 * inf, nothing a double cannot hold), and once its unit is applied, since
 * '1e308 ks' is 1e311 s, not a finite number; that is refused like the
 * number itself.  A value the unit makes subnormal (1e-308 fs) is kept,
 * as the compiler keeps {1e-308, 'fs'}.
 *
 * Vectors and matrices are one parameter per element, named
 * `masses(2)` and `M(1,2)`; each can be set alone.  `--param
 * 'masses=[1 2 3] kg'` sets them all: the name without an index is the
 * vector when its elements exist, the value is a MATLAB matrix of numbers
 * (blanks or commas between elements, ';' between rows) with one unit
 * after it, and its size must be the compiled one (a size is structural).
 */
#include "rt_internal.h"
#include "rt_number.h"
#include "rt_units.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_space(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* Length of s without trailing spaces. */
static size_t trimmed_len(const char *s, size_t len)
{
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    return len;
}

static int word_is(const char *s, size_t len, const char *word)
{
    return strlen(word) == len && strncmp(s, word, len) == 0;
}

static int parse_bool(const char *v, size_t len, double *out)
{
    if (word_is(v, len, "true") || word_is(v, len, "1"))
        *out = 1;
    else if (word_is(v, len, "false") || word_is(v, len, "0"))
        *out = 0;
    else
        return -1;
    return 0;
}

/* A unit after a value ("kg", "mm/s"): its scale, checked against the
   parameter's dimension; 1 for none.  -1 after a message. */
/* The SI value of x written in `unit` (the value's own, or when it has
   none the declaration's): (x + offset) * scale. */
static int unit_scale(RtSim *s, const RtParamInfo *pi, const char *unit, double *scale,
                      double *offset)
{
    size_t ulen = trimmed_len(unit, strlen(unit));
    *scale = 1;
    *offset = 0;
    if (ulen == 0) {
        if (!pi->unit || !*pi->unit)
            return 0;
        unit = pi->unit;
        ulen = strlen(unit);
    }
    char ubuf[256], err[160];
    size_t errpos = 0;
    RtUnit u;
    if (ulen >= sizeof ubuf) {
        rt_usage_error(s->prog, "--param %s: the unit is too long", pi->name);
        return -1;
    }
    memcpy(ubuf, unit, ulen);
    ubuf[ulen] = 0;
    if (rt_unit_parse_affine(ubuf, &u, offset, err, sizeof err, &errpos) != 0) {
        rt_usage_error(s->prog, "--param %s: bad unit '%s': %s", pi->name, ubuf, err);
        return -1;
    }
    if (pi->unit_relative)
        *offset = 0;
    if (memcmp(u.dim, pi->dim, sizeof u.dim) != 0) {
        char want[96], got[96];
        rt_unit_format(pi->dim, want, sizeof want);
        rt_unit_format(u.dim, got, sizeof got);
        rt_usage_error(s->prog, "--param %s: '%s' has the dimension %s, but the "
                       "parameter is in %s", pi->name, ubuf, got, want);
        return -1;
    }
    *scale = u.scale;
    return 0;
}

/* A parameter's SI value v in the unit it is declared in (for --help):
   the text of the value and its unit. */
void rt_param_in_declared_unit(const RtParamInfo *pi, double v, char *buf, size_t len)
{
    RtUnit u;
    double offset = 0;
    char err[160];
    size_t errpos = 0;
    if (pi->unit && *pi->unit
        && rt_unit_parse_affine(pi->unit, &u, &offset, err, sizeof err, &errpos) == 0
        && u.scale != 0) {
        snprintf(buf, len, "%.10g %s", v / u.scale - (pi->unit_relative ? 0 : offset), pi->unit);
        return;
    }
    char si[96];
    rt_unit_format(pi->dim, si, sizeof si);
    snprintf(buf, len, "%.10g %s", v, si);
}

/* Whether value * scale, the SI value of what was written as `text`, is
   a finite number; 0, or -1 after a message naming the parameter `what`
   (a name, or a vector's path with the element). */
static int check_scaled(RtSim *s, const RtParamInfo *pi, const char *what, int wlen,
                        const char *text, int tlen, double value, double scale, double offset)
{
    if (isfinite((value + offset) * scale))
        return 0;
    char si[96];
    rt_unit_format(pi->dim, si, sizeof si);
    rt_usage_error(s->prog, "--param %.*s: '%.*s' is too large: in %s it is not a "
                   "finite number", wlen, what, tlen, text, si);
    return -1;
}

/* A parameter --param may not set: its message. */
static int refuse_structural(RtSim *s, const RtParamInfo *pi)
{
    const char *fixed = rt_param_fixed(pi);
    if (fixed) {
        rt_usage_error(s->prog, "'%s' %s, so --param cannot change it", pi->name, fixed);
        return -1;
    }
    rt_usage_error(s->prog, "'%s' is a structural parameter: it decides the "
                   "model's structure when it is compiled (a conditional section, "
                   "a for-loop's range, a size, an index, or the power of a quantity "
                   "with a unit), so --param cannot change it; change it in the "
                   "model and build again", pi->name);
    return -1;
}

/* The elements of the vector or matrix parameter `path` (its parameters
   path(1) ... or path(1,1) ...): the index of the first, and the size.
   -1 when path has no elements. */
static int find_elements(const RtNameIndex *ix, const char *path, size_t plen, int *rows,
                         int *cols)
{
    char buf[512];
    if (plen + 32 > sizeof buf)
        return -1;
    snprintf(buf, sizeof buf, "%.*s(1)", (int)plen, path);
    int first = rt_names_find(ix, buf, strlen(buf));
    if (first >= 0) {
        int n = 1;
        for (;; n++) {
            snprintf(buf, sizeof buf, "%.*s(%d)", (int)plen, path, n + 1);
            if (rt_names_find(ix, buf, strlen(buf)) != first + n)
                break;
        }
        *rows = 1;
        *cols = n;
        return first;
    }
    snprintf(buf, sizeof buf, "%.*s(1,1)", (int)plen, path);
    first = rt_names_find(ix, buf, strlen(buf));
    if (first < 0)
        return -1;
    int r = 1, c = 1;
    for (;; r++) {
        snprintf(buf, sizeof buf, "%.*s(%d,1)", (int)plen, path, r + 1);
        if (rt_names_find(ix, buf, strlen(buf)) != first + r)
            break;
    }
    for (;; c++) {
        snprintf(buf, sizeof buf, "%.*s(1,%d)", (int)plen, path, c + 1);
        if (rt_names_find(ix, buf, strlen(buf)) != first + c * r)
            break;
    }
    *rows = r;
    *cols = c;
    return first;
}

/* path=[a b; c d] unit: every element of a vector or matrix parameter. */
static int apply_vector(RtSim *s, int first, int rows, int cols, const char *path,
                        size_t plen, const char *val)
{
    const RtModel *m = s->m;
    int n = rows * cols;
    if (*val != '[') {
        rt_usage_error(s->prog, "'%.*s' is a %d-by-%d %s of parameters: give all its "
                       "elements, as in %.*s=[%s], or set one, as in %s=...",
                       (int)plen, path, rows, cols, rows == 1 || cols == 1 ? "vector"
                       : "matrix", (int)plen, path, rows == 1 || cols == 1 ? "1 2 3"
                       : "1 2; 3 4", rt_param_info(m, first).name);
        return -1;
    }
    double *v = rt_xcalloc((size_t)n + 1, sizeof *v);
    const char *at = val + 1;
    int got_rows = 0, count = 0, row_len = 0, width = -1, rc = 0;
    for (;;) {
        while (*at == ' ' || *at == '\t' || *at == ',')
            at++;
        if (*at == ';' || *at == ']') {
            if (row_len > 0 || *at == ';') {
                if (width >= 0 && row_len != width) {
                    rt_usage_error(s->prog, "--param %.*s: the rows of this matrix "
                                   "have different lengths", (int)plen, path);
                    rc = -1;
                    break;
                }
                width = row_len;
                got_rows++;
            }
            row_len = 0;
            if (*at++ == ']')
                break;
            continue;
        }
        double x;
        size_t used = 0;
        const char *why = NULL;
        size_t len = strcspn(at, " \t,;]");
        if (!*at || rt_number_scan(at, len, 0, &x, &used, &why) != RT_NUM_OK || used != len) {
            rt_usage_error(s->prog, "--param %.*s: expected numbers between [ and ], "
                           "not '%.*s'%s%s", (int)plen, path, (int)(len ? len : 1),
                           *at ? at : "]", why ? ": " : "", why ? why : "");
            rc = -1;
            break;
        }
        if (count < n)
            v[count] = x;
        count++;
        row_len++;
        at += len;
    }
    if (rc == 0 && count == n && got_rows != rows && !(rows == 1 || cols == 1)) {
        rt_usage_error(s->prog, "--param %.*s: the model's %.*s is a %d-by-%d matrix: "
                       "write its %d rows, separated by ';', as in [1 2; 3 4]",
                       (int)plen, path, (int)plen, path, rows, cols, rows);
        rc = -1;
    }
    if (rc == 0 && count != n) {
        rt_usage_error(s->prog, "--param %.*s: the model's %.*s has %d element%s "
                       "(%d-by-%d), this value has %d: the size of a vector "
                       "parameter is fixed when the model is compiled; change it in "
                       "the model and build again", (int)plen, path, (int)plen, path, n,
                       n == 1 ? "" : "s", rows, cols, count);
        rc = -1;
    }
    double scale = 1, offset = 0;
    RtParamInfo head = rt_param_info(m, first);
    if (rc == 0)
        rc = unit_scale(s, &head, skip_space(at), &scale, &offset);
    for (int k = 0; rc == 0 && k < n; k++) {
        RtParamInfo pk = rt_param_info(m, first + k);
        if (pk.structural || rt_param_fixed(&pk))
            rc = refuse_structural(s, &pk);
    }
    for (int k = 0; rc == 0 && k < n; k++) {
        char text[320];
        snprintf(text, sizeof text, "%.10g%s%s", v[k], *skip_space(at) ? " " : "",
                 skip_space(at));
        rc = check_scaled(s, &head, path, (int)plen, text,
                          (int)trimmed_len(text, strlen(text)), v[k], scale, offset);
    }
    for (int k = 0; rc == 0 && k < n; k++) {
        /* the value is read row by row; the parameters are column-major */
        int r = rows == 1 || cols == 1 ? 0 : k / cols, c = rows == 1 || cols == 1 ? k : k % cols;
        int at_k = rows == 1 || cols == 1 ? k : r + c * rows;
        s->p[first + at_k] = (v[k] + offset) * scale;
        s->overridden[first + at_k] = 1;
    }
    free(v);
    return rc;
}

/* Why --param may not set pi (Access, ExternalAccess), or NULL. */
const char *rt_param_fixed(const RtParamInfo *pi)
{
    switch (pi->access) {
    case RT_PARAM_PRIVATE:
        return "is private to its component (parameters(Access = private))";
    case RT_PARAM_OBSERVED:
        return "belongs to a component declared with ExternalAccess = observe "
               "or none, whose parameters are not modifiable from outside";
    case RT_PARAM_NETWORK:
        return "is a domain parameter as a node reads it, its network's value: "
               "set it where the network's parameters are set (the parameter of "
               "the block whose node declaration sets it)";
    case RT_PARAM_INTERNAL:
        return "is the compiler's own, computed from the model's parameters (a "
               "table's data built from an expression): set those";
    default:
        return NULL;
    }
}

static int apply_one(RtSim *s, const RtNameIndex *ix, const char *const *names,
                     const char *spec)
{
    const RtModel *m = s->m;
    const char *eq = strchr(spec, '=');
    if (!eq) {
        rt_usage_error(s->prog, "--param expects PATH=VALUE, not '%s'", spec);
        return -1;
    }
    const char *path = skip_space(spec);
    size_t plen = trimmed_len(path, (size_t)(eq - path));
    int k = plen ? rt_names_find(ix, path, plen) : -1;
    int rows = 0, cols = 0, first = k < 0 && plen ? find_elements(ix, path, plen, &rows, &cols) : -1;
    if (first >= 0)
        return apply_vector(s, first, rows, cols, path, plen, skip_space(eq + 1));
    if (k < 0) {
        const char *hint = rt_names_suggest(rt_names_of(names), m->n_params, path, plen);
        if (hint)
            rt_usage_error(s->prog, "unknown parameter '%.*s'; did you mean "
                           "'%s'?", (int)plen, path, hint);
        else if (m->n_params == 0)
            rt_usage_error(s->prog, "unknown parameter '%.*s': %s has no "
                           "run-time parameters", (int)plen, path, m->name);
        else
            rt_usage_error(s->prog, "unknown parameter '%.*s'", (int)plen,
                           path);
        return -1;
    }
    RtParamInfo info = rt_param_info(m, k);
    const RtParamInfo *pi = &info;
    if (pi->structural || rt_param_fixed(pi))
        return refuse_structural(s, pi);
    const char *val = skip_space(eq + 1);
    if (*val == '[') {
        rt_usage_error(s->prog, "--param %s: '%s' is one number, not a vector",
                       pi->name, pi->name);
        return -1;
    }
    size_t vlen = trimmed_len(val, strlen(val));
    double v;
    if (pi->is_bool) {
        if (parse_bool(val, vlen, &v) != 0) {
            rt_usage_error(s->prog, "'%s' is a boolean parameter: give true "
                           "or false, not '%.*s'", pi->name, (int)vlen, val);
            return -1;
        }
    } else {
        size_t used = 0;
        const char *why = NULL;
        if (rt_number_scan(val, vlen, 1, &v, &used, &why) != RT_NUM_OK) {
            rt_usage_error(s->prog, "--param %s: expected a number, "
                           "optionally with a unit, not '%.*s': %s", pi->name,
                           (int)vlen, val, why);
            return -1;
        }
        double scale, offset;
        if (unit_scale(s, pi, skip_space(val + used), &scale, &offset) != 0
            || check_scaled(s, pi, pi->name, (int)strlen(pi->name), val, (int)vlen, v,
                            scale, offset) != 0)
            return -1;
        v = (v + offset) * scale;
    }
    s->p[k] = v;
    s->overridden[k] = 1;
    return 0;
}

int rt_params_apply(RtSim *s, char **specs, int n_specs)
{
    const RtModel *m = s->m;
    int rc = 0;
    if (n_specs > 0) {
        const char **names = rt_xcalloc((size_t)m->n_params, sizeof *names);
        for (int i = 0; i < m->n_params; i++)
            names[i] = rt_param_info(m, i).name;
        RtNameIndex *ix = rt_names_new(rt_names_of(names), m->n_params);
        for (int i = 0; i < n_specs && rc == 0; i++)
            rc = apply_one(s, ix, names, specs[i]);
        rt_names_free(ix);
        free(names);
    }
    if (rc == 0)
        rt_derive(m, s->p, s->overridden);
    return rc;
}
