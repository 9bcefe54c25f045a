/*
 * rt_tables.c - the model's values that come from tables rather than
 * from generated code (rt_model.h).
 *
 * Straight-line C costs the C compiler far more per statement than data
 * does, and most columns are copies of a state, an algebraic value, a
 * parameter or another column; most derived parameters are copies of
 * another parameter; most pivots checked once are one parameter; most
 * parameter assertions compare one parameter with a constant.  The
 * compiler writes those as tables and the functions here apply them
 * around the generated code, in the order the generated code alone
 * would have: copies of parameters first (their sources are never
 * derived), then derive_params; columns() first, then the copies in
 * column order (a copied column's source is earlier); the first failing
 * pivot or assertion of tables and code together.  And the parameters',
 * assertions' and blocks' descriptions, from a hand-written model's
 * structs or a generated model's rows of offsets into its texts.
 */
#include "rt_internal.h"

#include <math.h>
#include <string.h>

/* Where column c's value comes from, with the links to other columns
   followed (their chain ends, rt_model.h): RT_FROM_* | index << 3, the
   index of the computed column for RT_FROM_CODE; *neg says whether the
   column is minus that value (an odd number of RT_FROM_NEG links). */
static int source_of(const RtModel *m, int c, int *neg)
{
    int f = m->column_from ? m->column_from[c] : RT_FROM_CODE;
    *neg = 0;
    while ((f & 7) == RT_FROM_COLUMN || (f & 7) == RT_FROM_NEG) {
        *neg ^= (f & 7) == RT_FROM_NEG;
        c = f >> 3;
        f = m->column_from[c];
    }
    return (f & 7) == RT_FROM_CODE ? RT_FROM_CODE | c << 3 : f;
}

/* The value at source src (source_of); a computed column's is the one
   columns() has put in out. */
static double value_at(const RtEval *e, const double *out, int src)
{
    int i = src >> 3;
    switch (src & 7) {
    case RT_FROM_X: return e->x[i];
    case RT_FROM_ALG: return e->alg[i];
    case RT_FROM_P: return e->p[i];
    case RT_FROM_ZERO: return 0;
    default: return out[i];
    }
}

void rt_columns(const RtModel *m, const RtEval *e, double *out)
{
    if (m->columns)
        m->columns(e, out);
    for (int c = 0; c < m->n_columns && m->column_from; c++) {
        int neg, src = source_of(m, c, &neg);
        double v = value_at(e, out, src);
        out[c] = neg ? -v : v;
    }
}

/* The kinds of source a written column has (the links between columns
   are followed to their end): the gather's groups. */
enum { GATHER_KINDS = RT_FROM_ZERO + 1 };

struct RtGather {
    int *value_of;              /* per written column: its distinct value */
    unsigned char *negated;     /* ... and whether it is minus that */
    int nvalues;                /* the distinct values (sources) */
    int n[GATHER_KINDS];        /* distinct values of each kind */
    int *pos[GATHER_KINDS];     /* ... their places among the values */
    int *idx[GATHER_KINDS];     /* ... and their sources' indices */
    int nparts;                 /* the parts of columns() that compute them */
    int *parts;                 /* ... ascending (RtModel.column_parts) */
};

/* The part of columns() that computes column c (RtModel.column_part_end
   ascends: the first part that ends after c). */
static int part_of(const RtModel *m, int c)
{
    int lo = 0, hi = m->n_column_parts - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (m->column_part_end[mid] > c)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* The parts the computed columns of g need, each once. */
static void gather_parts(const RtModel *m, RtGather *g)
{
    int np = m->n_column_parts, n = g->n[RT_FROM_CODE];
    if (np <= 0 || n == 0)
        return;
    unsigned char *need = rt_xcalloc((size_t)np, 1);
    for (int j = 0; j < n; j++)
        need[part_of(m, g->idx[RT_FROM_CODE][j])] = 1;
    g->parts = rt_xcalloc((size_t)np, sizeof *g->parts);
    for (int k = 0; k < np; k++)
        if (need[k])
            g->parts[g->nparts++] = k;
    free(need);
}

RtGather *rt_gather_make(const RtModel *m, const int *cols, int n)
{
    RtGather *g = rt_xcalloc(1, sizeof *g);
    g->value_of = rt_xcalloc((size_t)n + 1, sizeof *g->value_of);
    g->negated = rt_xcalloc((size_t)n + 1, 1);
    int *src = rt_xcalloc((size_t)n + 1, sizeof *src);
    /* the distinct sources, in the order of the fields that first have
       them, through an open-addressed table of source + 1 */
    size_t cap = 16;
    while (cap < 2 * (size_t)n)
        cap *= 2;
    int *slot_src = rt_xcalloc(cap, sizeof *slot_src);
    int *slot_value = rt_xcalloc(cap, sizeof *slot_value);
    for (int k = 0; k < n; k++) {
        int neg, s = source_of(m, cols[k], &neg);
        size_t h = ((unsigned)s * 0x9E3779B1u) & (cap - 1);
        while (slot_src[h] && slot_src[h] != s + 1)
            h = (h + 1) & (cap - 1);
        if (!slot_src[h]) {
            slot_src[h] = s + 1;
            slot_value[h] = g->nvalues;
            src[g->nvalues++] = s;
            g->n[s & 7]++;
        }
        g->value_of[k] = slot_value[h];
        g->negated[k] = (unsigned char)neg;
    }
    free(slot_src);
    free(slot_value);
    for (int kind = 0; kind < GATHER_KINDS; kind++) {
        g->pos[kind] = rt_xcalloc((size_t)g->n[kind] + 1, sizeof *g->pos[kind]);
        g->idx[kind] = rt_xcalloc((size_t)g->n[kind] + 1, sizeof *g->idx[kind]);
        g->n[kind] = 0;
    }
    for (int v = 0; v < g->nvalues; v++) {
        int kind = src[v] & 7, j = g->n[kind]++;
        g->pos[kind][j] = v;
        g->idx[kind][j] = src[v] >> 3;
    }
    free(src);
    gather_parts(m, g);
    return g;
}

int rt_gather_values(const RtGather *g)
{
    return g ? g->nvalues : 0;
}

const int *rt_gather_value_of(const RtGather *g)
{
    return g->value_of;
}

const unsigned char *rt_gather_negated(const RtGather *g)
{
    return g->negated;
}

void rt_gather_free(RtGather *g)
{
    if (!g)
        return;
    for (int kind = 0; kind < GATHER_KINDS; kind++) {
        free(g->pos[kind]);
        free(g->idx[kind]);
    }
    free(g->value_of);
    free(g->negated);
    free(g->parts);
    free(g);
}

/* One kind's values: a tight loop of loads and stores. */
static void gather_from(double *row, const int *pos, const int *idx, int n, const double *from)
{
    for (int j = 0; j < n; j++)
        row[pos[j]] = from[idx[j]];
}

void rt_gather(const RtModel *m, const RtEval *e, double *out, const RtGather *g, double *values)
{
    /* only the parts of columns() that compute a value asked for: none
       when they are all copies (a state, an algebraic value) */
    if (m->n_column_parts > 0)
        for (int k = 0; k < g->nparts; k++)
            m->column_parts[g->parts[k]](e, out);
    else if (g->n[RT_FROM_CODE] && m->columns)
        m->columns(e, out);
    gather_from(values, g->pos[RT_FROM_CODE], g->idx[RT_FROM_CODE], g->n[RT_FROM_CODE], out);
    gather_from(values, g->pos[RT_FROM_X], g->idx[RT_FROM_X], g->n[RT_FROM_X], e->x);
    gather_from(values, g->pos[RT_FROM_ALG], g->idx[RT_FROM_ALG], g->n[RT_FROM_ALG], e->alg);
    gather_from(values, g->pos[RT_FROM_P], g->idx[RT_FROM_P], g->n[RT_FROM_P], e->p);
    for (int j = 0; j < g->n[RT_FROM_ZERO]; j++)
        values[g->pos[RT_FROM_ZERO][j]] = 0;
}

const RtColumnInfo *rt_column_info(const RtModel *m, int c)
{
    if (!m->column_info)
        return NULL;
    return &m->column_info[m->column_info_of ? m->column_info_of[c] : c];
}

void rt_derive(const RtModel *m, double *p, const unsigned char *overridden)
{
    for (int k = 0; k < m->n_param_copies; k++) {
        int dst = m->param_copies[2 * k], src = m->param_copies[2 * k + 1];
        if (!overridden[dst])
            p[dst] = p[src];
    }
    if (m->derive_params)
        m->derive_params(p, overridden);
}

int rt_param_pivots(const RtModel *m, const double *p)
{
    int first = m->check_params ? m->check_params(p) : -1;
    for (int k = 0; k < m->n_pivot_slots; k++) {
        int block = m->pivot_slots[2 * k + 1];
        if (!(fabs(p[m->pivot_slots[2 * k]]) > 1e-300) && (first < 0 || block < first))
            first = block;
    }
    return first;
}

static int holds(const RtParamCheck *c, double v)
{
    switch (c->op) {
    case RT_CMP_GT: return v > c->value;
    case RT_CMP_GE: return v >= c->value;
    case RT_CMP_LT: return v < c->value;
    case RT_CMP_LE: return v <= c->value;
    case RT_CMP_EQ: return v == c->value;
    case RT_CMP_NE: return v != c->value;
    default: return v == c->value || v == -c->value;
    }
}

int rt_param_asserts(const RtModel *m, const double *p)
{
    int first = m->check_param_asserts && m->n_asserts > 0 ? m->check_param_asserts(p) : -1;
    for (int k = 0; k < m->n_param_checks; k++) {
        const RtParamCheck *c = &m->param_checks[k];
        if (!holds(c, p[c->slot]) && (first < 0 || c->assert_index < first))
            first = c->assert_index;
    }
    return first;
}

/* ---- assertions and blocks ------------------------------------------------ */

/* The string at offset k of the model's texts ("" without them). */
static const char *text_at(const RtModel *m, unsigned k)
{
    return m->texts ? m->texts + k : "";
}

RtAssertInfo rt_assert_info(const RtModel *m, int k)
{
    if (m->asserts || !m->assert_rows)
        return m->asserts ? m->asserts[k] : (RtAssertInfo){0};
    const RtAssertRow *r = &m->assert_rows[k];
    return (RtAssertInfo){
        .instance = text_at(m, r->instance),
        .message = text_at(m, r->message),
        .location = text_at(m, r->location),
        .n_params = r->n_params,
        .params = r->n_params && m->assert_reads ? m->assert_reads + r->params : NULL,
        .params_only = r->params_only,
        .location_end = r->location_end ? text_at(m, r->location_end) : NULL,
        .warn = r->warn,
    };
}

RtBlockInfo rt_block_info(const RtModel *m, int k)
{
    if (m->blocks || !m->block_rows)
        return m->blocks ? m->blocks[k] : (RtBlockInfo){0};
    const RtBlockRow *r = &m->block_rows[k];
    return (RtBlockInfo){
        .size = r->size,
        .what = text_at(m, r->what),
        .location = text_at(m, r->location),
        .location_end = r->location_end ? text_at(m, r->location_end) : NULL,
    };
}

RtParamInfo rt_param_info(const RtModel *m, int k)
{
    if (m->params || !m->param_rows)
        return m->params ? m->params[k] : (RtParamInfo){0};
    const RtParamRow *r = &m->param_rows[k];
    RtParamInfo pi = {
        .name = text_at(m, r->name),
        .value = m->param_values[k],
        .structural = r->structural,
        .is_bool = r->is_bool,
        .access = r->access,
        .unit = r->unit ? text_at(m, r->unit) : NULL,
        .unit_relative = r->unit_relative,
    };
    memcpy(pi.dim, r->dim, sizeof pi.dim);
    return pi;
}
