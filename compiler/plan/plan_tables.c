/*
 * plan_tables.c - what the generated code hands the runtime as tables
 * rather than as code, decided here so that codegen only prints:
 *
 *  - the assertions of parameters that compare one parameter with a
 *    constant (p > 0, p == 1 || p == -1): rows of a table the runtime
 *    checks (runtime/rt_tables.c), not statements;
 *  - the distinct unit, description and kind of the output columns: a
 *    chain of components repeats the same few, so each distinct one is
 *    one row, and each column names its row.
 */
#include "plan.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---- one-parameter assertions ------------------------------------------------- */

/* c describes e when it compares one parameter with a constant: false if
   e is another assertion. */
static bool simple_check(const DaeExpr *e, PlanParamCheck *c)
{
    static const struct { int kind; PlanCmp op, flip; } ops[] = {
        {DX_GT, PLAN_CMP_GT, PLAN_CMP_LT}, {DX_GE, PLAN_CMP_GE, PLAN_CMP_LE},
        {DX_LT, PLAN_CMP_LT, PLAN_CMP_GT}, {DX_LE, PLAN_CMP_LE, PLAN_CMP_GE},
        {DX_EQ, PLAN_CMP_EQ, PLAN_CMP_EQ}, {DX_NE, PLAN_CMP_NE, PLAN_CMP_NE},
    };
    if (e->kind == DX_OR) {
        PlanParamCheck a, b;
        if (simple_check(e->u.bin.a, &a) && simple_check(e->u.bin.b, &b)
            && a.op == PLAN_CMP_EQ && b.op == PLAN_CMP_EQ && a.param == b.param
            && a.value == -b.value) {
            *c = a;
            c->op = PLAN_CMP_PLUS_MINUS;
            return true;
        }
        return false;
    }
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if ((int)e->kind != ops[i].kind)
            continue;
        const DaeExpr *l = e->u.bin.a, *r = e->u.bin.b;
        if (l->kind == DX_PARAM && r->kind == DX_CONST) {
            *c = (PlanParamCheck){0, l->u.index, ops[i].op, r->u.value};
            return true;
        }
        if (r->kind == DX_PARAM && l->kind == DX_CONST) {
            *c = (PlanParamCheck){0, r->u.index, ops[i].flip, l->u.value};
            return true;
        }
    }
    return false;
}

static void plan_param_checks(Plan *p)
{
    int n = p->d->asserts.n;
    p->assert_in_table = arena_alloc(&p->arena, sizeof(bool) * (size_t)(n + 1));
    p->param_checks = arena_alloc(&p->arena, sizeof(PlanParamCheck) * (size_t)(n + 1));
    p->nparam_checks = 0;
    for (int i = 0; i < n; i++) {
        DaeAssert *a = p->d->asserts.items[i];
        PlanParamCheck c;
        if (!p->assert_once[i] || a->warn || !simple_check(a->cond, &c))
            continue;
        c.assert_index = i;
        p->param_checks[p->nparam_checks++] = c;
        p->assert_in_table[i] = true;
    }
}

/* ---- the columns' infos ---------------------------------------------------------- */

/* The distinct infos, by a key of their fields, in open addressing. */
typedef struct InfoSet {
    char **keys;            /* cap entries, NULL where free */
    int *index;             /* each key's info */
    size_t cap, n;          /* capacity (a power of 2) and keys */
    Arena *arena;           /* where keys live */
} InfoSet;

static size_t key_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return (size_t)h;
}

static void info_grow(InfoSet *t)
{
    size_t cap = t->cap ? 2 * t->cap : 256;
    char **keys = arena_alloc(t->arena, cap * sizeof *keys);
    int *index = arena_alloc(t->arena, cap * sizeof *index);
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->keys[i])
            continue;
        size_t h = key_hash(t->keys[i]) & (cap - 1);
        while (keys[h])
            h = (h + 1) & (cap - 1);
        keys[h] = t->keys[i];
        index[h] = t->index[i];
    }
    t->keys = keys;
    t->index = index;
    t->cap = cap;
}

/* The info of column c: an existing one with the same fields, else a
   new one (*fresh). */
static int info_index(InfoSet *t, const PlanColumn *c, bool *fresh)
{
    /* the key: the exponents (twelfths, |e| <= 1188) as two bytes each,
       64 + e / 64 and 64 + e % 64 (never 0), the flags, the description */
    char key[1024];
    int at = 0;
    for (int j = 0; j < RT_DIM_COUNT; j++) {
        int e = c->dim.e[j] + RT_DIM_MAX * RT_DIM_DEN;
        key[at++] = (char)(64 + e / 64);
        key[at++] = (char)(64 + e % 64);
    }
    key[at++] = (char)('0' + c->output);
    key[at++] = (char)('0' + c->complete);
    const char *desc = c->description ? c->description : "";
    size_t n = strnlen(desc, sizeof key - (size_t)at - 1);
    memcpy(key + at, desc, n);
    key[(size_t)at + n] = 0;
    if (2 * (t->n + 1) > t->cap)
        info_grow(t);
    size_t h = key_hash(key) & (t->cap - 1);
    while (t->keys[h] && strcmp(t->keys[h], key))
        h = (h + 1) & (t->cap - 1);
    *fresh = !t->keys[h];
    if (*fresh) {
        t->keys[h] = arena_strdup(t->arena, key);
        t->index[h] = (int)t->n++;
    }
    return t->index[h];
}

static void plan_column_infos(Plan *p)
{
    Arena scratch = {0};
    InfoSet set = {.arena = &scratch};
    p->column_info_of = arena_alloc(&p->arena, sizeof(int) * (size_t)(p->ncolumns + 1));
    p->info_column = arena_alloc(&p->arena, sizeof(int) * (size_t)(p->ncolumns + 1));
    p->ninfos = 0;
    for (int k = 0; k < p->ncolumns; k++) {
        bool fresh;
        p->column_info_of[k] = info_index(&set, &p->columns[k], &fresh);
        if (fresh)
            p->info_column[p->ninfos++] = k;
    }
    arena_free(&scratch);
}

void plan_tables(Plan *p)
{
    plan_param_checks(p);
    plan_column_infos(p);
}
