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
 * pivot or assertion of tables and code together.
 */
#include "rt_internal.h"

#include <math.h>

/* Where column c's value comes from, with copies of earlier columns
   followed: RT_FROM_* | index << 3, the index of the computed column
   for RT_FROM_CODE. */
static int source_of(const RtModel *m, int c)
{
    int f = m->column_from ? m->column_from[c] : RT_FROM_CODE;
    while ((f & 7) == RT_FROM_COLUMN) {     /* an earlier column's */
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
    for (int c = 0; c < m->n_columns && m->column_from; c++)
        out[c] = value_at(e, out, source_of(m, c));
}

int *rt_columns_sources(const RtModel *m, const int *cols, int n)
{
    int *src = rt_xcalloc((size_t)n + 1, sizeof *src);
    for (int k = 0; k < n; k++)
        src[k] = source_of(m, cols[k]);
    return src;
}

void rt_columns_some(const RtModel *m, const RtEval *e, double *out, const int *cols, int n,
                     const int *src)
{
    /* columns() computes every computed column: not run when the columns
       asked for are all copies (a state, an algebraic value) */
    int code = 0;
    for (int k = 0; k < n && !code; k++)
        code = (src[k] & 7) == RT_FROM_CODE;
    if (code && m->columns)
        m->columns(e, out);
    for (int k = 0; k < n; k++)
        out[cols[k]] = value_at(e, out, src[k]);
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
