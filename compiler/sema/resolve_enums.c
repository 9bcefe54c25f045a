/*
 * resolve_enums.c - resolution (resolve.c): enumerations.
 *
 * Simscape libraries choose between models with enumerations:
 *
 *   parameters
 *     ports = acoustic.enum.Nport.two;     % a MATLAB enumeration class
 *     th = simscape.enum.thermaleffects.model;
 *   end
 *   if ports == acoustic.enum.Nport.one ... end
 *
 * A user's enumeration is a MATLAB class file in a package folder,
 * `+acoustic/+enum/Nport.m`:
 *
 *   classdef Nport < int32
 *     enumeration
 *       one(1)
 *       two(2)
 *     end
 *     ...
 *   end
 *
 * Only the enumeration block is read (each line NAME or NAME(VALUE);
 * without values the members count 1, 2, ...); the rest of the class is
 * MATLAB and is skipped.  The simscape.enum.* enumerations that libraries
 * use are the table below.  A member's name is replaced by its integer
 * value, a dimensionless number, so enumerations compare and choose
 * conditional sections as numbers do.
 */
#include "resolve_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Simscape's own enumerations: X("simscape.enum.CLASS", "member", value) */
#define SIMSCAPE_ENUMS(X)                                                     \
    X("simscape.enum.onoff", "off", 0)                                        \
    X("simscape.enum.onoff", "on", 1)                                         \
    X("simscape.enum.thermaleffects", "omit", 0)                              \
    X("simscape.enum.thermaleffects", "model", 1)                             \
    X("simscape.enum.assert.action", "none", 0)                               \
    X("simscape.enum.assert.action", "warn", 1)                               \
    X("simscape.enum.assert.action", "error", 2)                              \
    X("simscape.enum.posneg", "positive", 1)                                  \
    X("simscape.enum.posneg", "negative", -1)                                 \
    X("simscape.enum.interpolation", "linear", 1)                             \
    X("simscape.enum.interpolation", "smooth", 2)                             \
    X("simscape.enum.extrapolation", "linear", 1)                             \
    X("simscape.enum.extrapolation", "nearest", 2)                            \
    X("simscape.enum.extrapolation", "error", 3)                              \
    X("simscape.enum.hardstop", "stiffness_damping", 1)                       \
    X("simscape.enum.hardstop", "full_stiffness_damping", 2)                  \
    X("simscape.enum.hardstop", "smooth", 3)                                  \
    /* batteryecm.table_battery's modeling options */                         \
    X("simscape.enum.tablebattery.enable", "no", 0)                           \
    X("simscape.enum.tablebattery.enable", "yes", 1)                          \
    X("simscape.enum.tablebattery.temperature_dependence", "no", 0)           \
    X("simscape.enum.tablebattery.temperature_dependence", "yes", 1)          \
    X("simscape.enum.tablebattery.prm_age_OCV", "OCV", 1)                     \
    X("simscape.enum.tablebattery.prm_age", "disabled", 0)                    \
    X("simscape.enum.tablebattery.prm_age", "enabled", 1)                     \
    X("simscape.enum.tablebattery.prm_age_modeling", "equation", 1)           \
    X("simscape.enum.tablebattery.prm_age_modeling", "table", 2)              \
    X("simscape.enum.tablebattery.prm_dir", "noCurrentDirectionality", 0)     \
    X("simscape.enum.tablebattery.prm_dir", "currentDirectionality", 1)       \
    X("simscape.enum.tablebattery.prm_dyn", "off", 0)                         \
    X("simscape.enum.tablebattery.prm_dyn", "rc1", 1)                         \
    X("simscape.enum.tablebattery.prm_dyn", "rc2", 2)                         \
    X("simscape.enum.tablebattery.prm_dyn", "rc3", 3)                         \
    X("simscape.enum.tablebattery.prm_dyn", "rc4", 4)                         \
    X("simscape.enum.tablebattery.prm_dyn", "rc5", 5)                         \
    X("simscape.enum.tablebattery.prm_fade", "disabled", 0)                   \
    X("simscape.enum.tablebattery.prm_fade", "equations", 1)                  \
    X("simscape.enum.tablebattery.prm_fade", "tableN", 2)                     \
    X("simscape.enum.tablebattery.prm_fade", "tableNandT", 3)                 \
    X("simscape.enum.tablebattery.prm_leak", "disabled", 0)                   \
    X("simscape.enum.tablebattery.prm_leak", "enabled", 1)

typedef struct EnumMember {
    const char *name;
    double value;
} EnumMember;

/* A parsed enumeration class. */
typedef struct EnumClass {
    const char *name;       /* "acoustic.enum.Nport" */
    const char *file;       /* its .m file, or NULL for simscape.enum */
    EnumMember *members;
    int n;
} EnumClass;

static void add_member(Program *p, EnumClass *c, const char *name, size_t len, double v)
{
    EnumMember *m = arena_alloc(p->arena, sizeof *m * (size_t)(c->n + 1));
    if (c->n)
        memcpy(m, c->members, sizeof *m * (size_t)c->n);
    m[c->n].name = arena_strndup(p->arena, name, len);
    m[c->n].value = v;
    c->members = m;
    c->n++;
}

static bool word_at(const char *s, const char *w)
{
    size_t n = strlen(w);
    return !strncmp(s, w, n) && !(s[n] == '_' || (s[n] >= 'a' && s[n] <= 'z')
                                   || (s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= '0' && s[n] <= '9'));
}

/* The members of the enumeration block of a MATLAB class file's text, or
   false when it has none. */
static bool parse_enumeration(Program *p, EnumClass *c, const char *text)
{
    const char *s = text;
    bool in = false;
    double next = 1;
    while (*s) {
        const char *line = s;
        const char *eol = strchr(s, '\n');
        s = eol ? eol + 1 : s + strlen(s);
        while (*line == ' ' || *line == '\t')
            line++;
        if (*line == '%' || *line == '\n' || *line == '\r' || !*line)
            continue;
        if (!in) {
            in = word_at(line, "enumeration");
            continue;
        }
        if (word_at(line, "end"))
            return true;
        /* NAME or NAME(VALUE), a member per line (several with commas) */
        const char *q = line;
        while (q < s && *q != '%' && *q != '\n') {
            while (*q == ' ' || *q == '\t' || *q == ',')
                q++;
            const char *n0 = q;
            while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || *q == '_'
                   || (q > n0 && *q >= '0' && *q <= '9'))
                q++;
            if (q == n0)
                break;
            size_t len = (size_t)(q - n0);
            double v = next;
            while (*q == ' ' || *q == '\t')
                q++;
            if (*q == '(') {
                char *end;
                v = strtod(q + 1, &end);
                q = end;
                while (*q && *q != ')' && *q != '\n')
                    q++;
                if (*q == ')')
                    q++;
            }
            add_member(p, c, n0, len, v);
            next = v + 1;
        }
    }
    return false;
}

static char *read_text(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *text = NULL;
    size_t len = 0, cap = 0, n;
    char buf[8192];
    while ((n = fread(buf, 1, sizeof buf, fp)) > 0) {
        if (len + n + 1 > cap) {
            cap = (len + n + 1) * 2;
            text = realloc(text, cap);
            if (!text)
                abort();
        }
        memcpy(text + len, buf, n);
        len += n;
    }
    fclose(fp);
    if (text)
        text[len] = 0;
    return text;
}

/* The enumeration class of the first k parts of a dotted name, or NULL. */
static EnumClass *enum_class(Program *p, const AstExpr *e, int k)
{
    char *name = ast_name_text(p->arena, e);
    /* "a.b.C" of the first k parts */
    char *cut = name;
    for (int i = 0; i < k && cut; i++) {
        cut = strchr(cut, '.');
        if (cut && i < k - 1)
            cut++;
    }
    if (cut)
        *cut = 0;
    EnumClass *c = symmap_get(&p->enums, sym_cstr(name));
    if (c)
        return c->n ? c : NULL;
    c = arena_alloc(p->arena, sizeof *c);
    c->name = name;
    symmap_put(&p->enums, sym_cstr(name), c);
#define X_SENUM(cls, m, v)                                                    \
    if (!strcmp(name, cls))                                                   \
        add_member(p, c, m, strlen(m), v);
    SIMSCAPE_ENUMS(X_SENUM)
#undef X_SENUM
    if (c->n || k < 2)
        return c->n ? c : NULL;
    const char *path = rs_package_file(p, e, k, "m");
    char *text = path ? read_text(path) : NULL;
    if (text && parse_enumeration(p, c, text))
        c->file = path;
    else
        c->n = 0;
    free(text);
    return c->n ? c : NULL;
}

bool rs_enum_value(Program *p, AstExpr *e, double *value)
{
    int n = e->u.name.n;
    if (n < 2)
        return false;
    for (int i = 0; i < n; i++)
        if (e->u.name.parts[i].nindex)
            return false;
    EnumClass *c = enum_class(p, e, n - 1);
    if (!c)
        return false;
    const char *m = e->u.name.parts[n - 1].sym->name;
    for (int i = 0; i < c->n; i++) {
        if (!strcmp(c->members[i].name, m)) {
            *value = c->members[i].value;
            return true;
        }
    }
    char list[256];
    size_t at = 0;
    list[0] = 0;
    for (int i = 0; i < c->n && at < sizeof list; i++)
        at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", i ? ", " : "",
                               c->members[i].name);
    diag_error(e->u.name.parts[n - 1].span, "enumeration '%s' has no member '%s' (its "
               "members are %s)", c->name, m, list);
    *value = 0;
    return true;
}
