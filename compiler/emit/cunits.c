/*
 * cunits.c - the generated C as several translation units, for a build
 * that compiles them in parallel (codegen.h).
 *
 * cg_generate writes one file: every definition at file scope starts at a
 * line that begins with "static ", after a preamble (includes, static
 * assertions, the slot table), and the file ends with the descriptor
 * `const RtModel rt_model`.  The split relies on that layout only.  Each
 * definition becomes a hidden symbol (LMDL_SYM: visible to the other
 * units, not outside the simulator or the FMU), and every unit starts
 * with the preamble and the declarations of what it may use from the
 * others.  Unit 0 holds the data (tables, the string pool) and the
 * descriptor; the functions are spread over the other units by size,
 * those the solver calls at every step (eval and its parts, the loops,
 * the derivatives, the relation and assertion functions) apart from the
 * others, so that each group is compiled at the optimization level that
 * pays for it (CgUnit.level).  The split is deterministic: the same C
 * gives the same units.
 */
#include "codegen.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of functions per unit, of data per unit, and of the hot
   functions in all up to which they get -O2. */
enum { UNIT_BYTES = 192 * 1024, DATA_UNIT_BYTES = 1024 * 1024, HOT_O2_BYTES = 512 * 1024 };

/* One definition of the file. */
typedef struct Seg {
    const char *at;         /* its first line ("static ...") */
    size_t len;             /* its bytes */
    bool function;          /* a function (else data) */
    bool hot;               /* called at every step */
    bool pooled;            /* data only other data reads (the string pool,
                               the assertions' parameter lists) */
} Seg;

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The name a definition's first line defines: the identifier before its
   "(", "[" or " =". */
static void seg_name(const char *line, char *name, size_t cap)
{
    const char *end = line;
    while (*end && *end != '(' && *end != '[' && *end != '=' && *end != '\n')
        end++;
    const char *b = end;
    while (b > line && (b[-1] == ' '))
        b--;
    const char *a = b;
    while (a > line && (a[-1] == '_' || (a[-1] >= 'a' && a[-1] <= 'z')
                        || (a[-1] >= 'A' && a[-1] <= 'Z') || (a[-1] >= '0' && a[-1] <= '9')))
        a--;
    size_t n = (size_t)(b - a) < cap - 1 ? (size_t)(b - a) : cap - 1;
    memcpy(name, a, n);
    name[n] = 0;
}

static bool hot_name(const char *name)
{
    static const char *const hot[] = {"eval", "derivatives", "zero_crossings",
                                      "relation_values", "check_asserts"};
    for (size_t i = 0; i < sizeof hot / sizeof hot[0]; i++) {
        size_t n = strlen(hot[i]);
        if (!strncmp(name, hot[i], n) && (name[n] == 0 || name[n] == '_'))
            return true;
    }
    /* the residuals and Jacobians of a Newton block: b12_f, b12_j */
    if (name[0] == 'b' && name[1] >= '0' && name[1] <= '9') {
        const char *p = name + 1;
        while (*p >= '0' && *p <= '9')
            p++;
        return (p[0] == '_' && (p[1] == 'f' || p[1] == 'j') && p[2] == 0);
    }
    return false;
}

static void put(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t c = *cap ? *cap : 4096;
        while (c < *len + n + 1)
            c *= 2;
        *buf = realloc(*buf, c);
        if (!*buf)
            abort();
        *cap = c;
    }
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[*len] = 0;
}

static void puts_(char **buf, size_t *len, size_t *cap, const char *s)
{
    put(buf, len, cap, s, strlen(s));
}

/* A definition, "static" replaced by LMDL_SYM. */
static void put_def(char **buf, size_t *len, size_t *cap, const Seg *s)
{
    puts_(buf, len, cap, "LMDL_SYM");
    put(buf, len, cap, s->at + 6, s->len - 6);
}

/* Its declaration: the first line up to the initializer or the body. */
static void put_decl(char **buf, size_t *len, size_t *cap, const Seg *s)
{
    const char *line = s->at + 7, *end = strchr(line, '\n');
    if (!end)
        end = line + strlen(line);
    const char *eq = s->function ? NULL : strstr(line, " =");
    if (eq && eq < end)
        end = eq;
    puts_(buf, len, cap, s->function ? "LMDL_SYM " : "LMDL_SYM extern ");
    put(buf, len, cap, line, (size_t)(end - line));
    puts_(buf, len, cap, ";\n");
}

int cg_split(const char *c, CgUnit **out)
{
    *out = NULL;
    const char *first = starts(c, "static ") ? c : strstr(c, "\nstatic ");
    const char *model = strstr(c, "\nconst RtModel rt_model");
    if (!first || !model)
        return 0;
    if (first != c)
        first++;
    model++;
    /* the slot table is a comment for the reader: unit 0 keeps it */
    const char *slots = strstr(c, "\n/*\n * The slots");
    const char *brief = slots && slots < first ? slots + 1 : first;
    /* the definitions */
    int nseg = 0, cap = 256;
    Seg *seg = malloc(sizeof *seg * (size_t)cap);
    if (!seg)
        abort();
    size_t hot_bytes = 0;
    for (const char *p = first; p < model;) {
        const char *next = strstr(p + 1, "\nstatic ");
        next = next && next < model ? next + 1 : model;
        if (nseg == cap) {
            cap *= 2;
            seg = realloc(seg, sizeof *seg * (size_t)cap);
            if (!seg)
                abort();
        }
        char name[128];
        seg_name(p, name, sizeof name);
        Seg *s = &seg[nseg++];
        s->at = p;
        s->len = (size_t)(next - p);
        s->function = !starts(p, "static const ");
        s->hot = s->function && hot_name(name);
        s->pooled = !s->function && (starts(name, "pool") || !strcmp(name, "assert_reads")
                                     || (name[0] == 's' && name[1] >= '0' && name[1] <= '9'));
        hot_bytes += s->hot ? s->len : 0;
        p = next;
    }
    /* units: the data (unit 0 with the descriptor), then the functions,
       the hot ones first, each unit up to its size */
    int nunits = 0, *unit_of = calloc((size_t)nseg + 1, sizeof *unit_of);
    bool *is_data = calloc((size_t)nseg + 3, sizeof *is_data);
    if (!unit_of || !is_data)
        abort();
    for (int pass = 0; pass < 3; pass++) {
        size_t fill = 0, limit = pass == 0 ? DATA_UNIT_BYTES : UNIT_BYTES;
        bool open = false;
        for (int i = 0; i < nseg; i++) {
            if ((pass == 0) == seg[i].function || (pass > 0 && seg[i].hot != (pass == 1)))
                continue;
            if (!open || (fill + seg[i].len > limit && fill > 0)) {
                is_data = realloc(is_data, sizeof *is_data * (size_t)(nunits + 1));
                if (!is_data)
                    abort();
                is_data[nunits++] = pass == 0;
                fill = 0;
                open = true;
            }
            unit_of[i] = nunits - 1;
            fill += seg[i].len;
        }
        if (pass == 0 && !open) {
            is_data[nunits++] = true;   /* the descriptor's unit */
        }
    }
    CgUnit *u = calloc((size_t)nunits, sizeof *u);
    size_t *ucap = calloc((size_t)nunits, sizeof *ucap);
    if (!u || !ucap)
        abort();
    /* what the units start with: the preamble (unit 0 with the slot
       table), then the declarations of what they may use: data units
       everything, code units the functions and the tables code reads */
    char *decl_all = NULL, *decl_code = NULL;
    size_t la = 0, ca = 0, lc = 0, cc = 0;
    const char *sym = "#define LMDL_SYM __attribute__((visibility(\"hidden\")))\n\n";
    for (int i = 0; i < nseg; i++) {
        put_decl(&decl_all, &la, &ca, &seg[i]);
        if (!seg[i].pooled)
            put_decl(&decl_code, &lc, &cc, &seg[i]);
    }
    for (int k = 0; k < nunits; k++) {
        put(&u[k].text, &u[k].len, &ucap[k], c, (size_t)((k == 0 ? first : brief) - c));
        puts_(&u[k].text, &u[k].len, &ucap[k], sym);
        if (is_data[k] ? la : lc)
            put(&u[k].text, &u[k].len, &ucap[k], is_data[k] ? decl_all : decl_code,
                is_data[k] ? la : lc);
        puts_(&u[k].text, &u[k].len, &ucap[k], "\n");
        u[k].level = 0;     /* data, and code run once or per row: -O0 */
    }
    /* the code the solver runs at every step: -O2 while it is small, -O1
       beyond (the C compiler's -O2 costs twice as much there and gains
       little on straight-line arithmetic: docs/performance.md) */
    for (int i = 0; i < nseg; i++) {
        int k = unit_of[i];
        put_def(&u[k].text, &u[k].len, &ucap[k], &seg[i]);
        if (seg[i].hot)
            u[k].level = hot_bytes <= HOT_O2_BYTES ? 2 : 1;
    }
    puts_(&u[0].text, &u[0].len, &ucap[0], model);
    free(decl_all);
    free(decl_code);
    free(ucap);
    free(is_data);
    free(unit_of);
    free(seg);
    *out = u;
    return nunits;
}

void cg_units_free(CgUnit *u, int n)
{
    for (int k = 0; k < n; k++)
        free(u[k].text);
    free(u);
}
