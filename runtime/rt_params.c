/*
 * rt_params.c - --param PATH=VALUE: run-time parameter overrides.
 *
 * A value is a number, optionally followed by a unit ('250 mm',
 * '2 kN/m'), read with the same unit parser as the compiler (rt_units.c)
 * so both agree on what a unit means.  A bare number is already SI.  A
 * unit must have the parameter's dimension: a length given in seconds is
 * a mistake worth stopping for, not a number to convert.  Booleans take
 * true/false/1/0.
 *
 * Structural parameters were decided when the model was compiled (they
 * choose conditional sections), so changing one here could not change
 * the model: it is refused with a message saying so.
 *
 * After the overrides, derive_params recomputes every parameter defined
 * from others, skipping the overridden ones, so `--param r12=0.3` reaches
 * `lever.r12` when the model binds one to the other.
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

/* One override; prints its own message and returns -1 on error. */
const char *rt_param_fixed(const RtParamInfo *pi)
{
    switch (pi->access) {
    case RT_PARAM_PRIVATE:
        return "is private to its component (parameters(Access = private))";
    case RT_PARAM_OBSERVED:
        return "belongs to a component declared with ExternalAccess = observe "
               "or none, whose parameters are not modifiable from outside";
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
    if (k < 0) {
        const char *hint = rt_names_suggest(names, m->n_params, path, plen);
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
    const RtParamInfo *pi = &m->params[k];
    const char *fixed = rt_param_fixed(pi);
    if (fixed) {
        rt_usage_error(s->prog, "'%s' %s, so --param cannot change it", pi->name, fixed);
        return -1;
    }
    if (pi->structural) {
        rt_usage_error(s->prog, "'%s' is a structural parameter: it chooses "
                       "the model's equations at compile time, so --param "
                       "cannot change it; change it in the model and build "
                       "again", pi->name);
        return -1;
    }
    const char *val = skip_space(eq + 1);
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
        const char *unit = skip_space(val + used);
        size_t ulen = trimmed_len(unit, strlen(unit));
        if (ulen > 0) {
            char ubuf[256], err[160];
            size_t errpos = 0;
            RtUnit u;
            if (ulen >= sizeof ubuf) {
                rt_usage_error(s->prog, "--param %s: the unit is too long",
                               pi->name);
                return -1;
            }
            memcpy(ubuf, unit, ulen);
            ubuf[ulen] = 0;
            if (rt_unit_parse(ubuf, &u, err, sizeof err, &errpos) != 0) {
                rt_usage_error(s->prog, "--param %s: bad unit '%s': %s",
                               pi->name, ubuf, err);
                return -1;
            }
            if (memcmp(u.dim, pi->dim, sizeof u.dim) != 0) {
                char want[96], got[96];
                rt_unit_format(pi->dim, want, sizeof want);
                rt_unit_format(u.dim, got, sizeof got);
                rt_usage_error(s->prog, "--param %s: '%s' has the dimension "
                               "%s, but the parameter is in %s", pi->name,
                               ubuf, got, want);
                return -1;
            }
            v *= u.scale;
        }
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
            names[i] = m->params[i].name;
        RtNameIndex *ix = rt_names_new(names, m->n_params);
        for (int i = 0; i < n_specs && rc == 0; i++)
            rc = apply_one(s, ix, names, specs[i]);
        rt_names_free(ix);
        free(names);
    }
    if (rc == 0 && m->derive_params)
        m->derive_params(s->p, s->overridden);
    return rc;
}
