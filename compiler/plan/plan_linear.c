/*
 * plan_linear.c - the symbolic Jacobians behind `lmdlc linearize`.
 *
 * The sorted index-1 system is F(w, x, u) = 0: w the unknowns its blocks
 * solve (derivatives, algebraic and dummy-derivative variables), x the
 * states, u the top-level inputs (parameters marked input).  For every
 * equation, in block order, this pass builds the partial derivative of
 * its residual with respect to every unknown and state it mentions and
 * to every input, with the compiler's own differentiator (dae_diff.c);
 * and for every output column the gradient of its value.  The runtime
 * evaluates them at the operating point and eliminates w block by block
 * (runtime/rt_linearize.c), which gives A, B, C and D exactly wherever
 * the equations are smooth, with the relations frozen in their modes.
 *
 * Built only for `lmdlc linearize` (Plan.lin stays NULL otherwise), so
 * other builds pay nothing for it.
 */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

/* Room for one more of n elements of `size` bytes in *a (cap of them),
   doubling. */
static void grow(void **a, size_t size, int n, int *cap)
{
    if (n < *cap)
        return;
    *cap = *cap ? 2 * *cap : 64;
    void *grown = mem_calloc((size_t)*cap, size);
    if (n)
        memcpy(grown, *a, size * (size_t)n);
    free(*a);
    *a = grown;
}

/* The StVars an expression mentions (dae_each_var's visit). */
typedef struct Mentioned {
    const Plan *p;
    int *vars;
    int n, cap;
} Mentioned;

static void mention(void *ctx, int index, int order)
{
    Mentioned *m = ctx;
    int v = plan_stvar(m->p, index, order);
    if (v < 0)
        return;
    grow((void **)&m->vars, sizeof *m->vars, m->n, &m->cap);
    m->vars[m->n++] = v;
}

/* Growing arrays of (column, derivative) entries. */
typedef struct Entries {
    int *col;               /* StVar, or -1 - k for input k */
    DaeExpr **val;          /* the partial derivative */
    int n, cap;
} Entries;

static void entry_add(Entries *es, int col, DaeExpr *val)
{
    if (dae_is_const(val, 0))
        return;
    int cap = es->cap;
    grow((void **)&es->col, sizeof *es->col, es->n, &cap);
    grow((void **)&es->val, sizeof *es->val, es->n, &es->cap);
    es->col[es->n] = col;
    es->val[es->n++] = val;
}

/* The partial derivatives of e with respect to the StVars vars[0 .. n)
   and to every input. */
static void gradient(Plan *p, PlanLinear *L, DaeExpr *e, const int *vars, int n, Entries *es)
{
    DaeExprTable *t = &p->d->t;
    for (int j = 0; j < n; j++) {
        StVar *x = p->s->vars.items[vars[j]];
        entry_add(es, vars[j], dae_diff_var(t, e, x->var, x->order, NULL));
    }
    for (int k = 0; k < L->ninputs; k++) {
        PtrMap memo = {0};
        entry_add(es, -1 - k, dae_diff_param(t, &p->d->params, e, L->input_param[k], &memo));
        ptrmap_free(&memo);
    }
}

/* Copies the entries into the plan's arena and empties es. */
static void entries_keep(Plan *p, Entries *es, int **col, DaeExpr ***val)
{
    *col = arena_alloc(&p->arena, sizeof **col * (size_t)(es->n + 1));
    *val = arena_alloc(&p->arena, sizeof **val * (size_t)(es->n + 1));
    if (es->n) {
        memcpy(*col, es->col, sizeof **col * (size_t)es->n);
        memcpy(*val, es->val, sizeof **val * (size_t)es->n);
    }
    free(es->col);
    free(es->val);
    *es = (Entries){0};
}

void plan_linear(Plan *p)
{
    Dae *d = p->d;
    Structure *s = p->s;
    PlanLinear *L = arena_alloc(&p->arena, sizeof *L);
    p->lin = L;
    /* the inputs: the top model's, in parameter order */
    L->input_param = arena_alloc(&p->arena, sizeof(int) * (size_t)(d->params.n + 1));
    for (int i = 0; i < d->params.n; i++)
        if (((DaeParam *)d->params.items[i])->input)
            L->input_param[L->ninputs++] = i;
    /* the rows, block by block */
    int nrows = 0;
    for (int b = 0; b < p->nblocks; b++)
        nrows += p->blocks[b].n;
    L->nrows = nrows;
    L->nblocks = p->nblocks;
    L->block_start = arena_alloc(&p->arena, sizeof(int) * (size_t)(p->nblocks + 1));
    L->row_var = arena_alloc(&p->arena, sizeof(int) * (size_t)(nrows + 1));
    L->entry_start = arena_alloc(&p->arena, sizeof(int) * (size_t)(nrows + 1));
    Entries es = {0};
    int r = 0;
    for (int b = 0; b < p->nblocks; b++) {
        const PlanBlock *pb = &p->blocks[b];
        L->block_start[b] = r;
        for (int i = 0; i < pb->n; i++, r++) {
            StEq *q = s->eqs.items[pb->eqs[i]];
            L->row_var[r] = pb->vars[i];
            L->entry_start[r] = es.n;
            gradient(p, L, q->res, q->adj, q->nadj, &es);
        }
    }
    L->block_start[p->nblocks] = r;
    L->entry_start[nrows] = es.n;
    L->nentries = es.n;
    entries_keep(p, &es, &L->entry_col, &L->entry_val);
    /* the gradient of every column's value */
    L->out_start = arena_alloc(&p->arena, sizeof(int) * (size_t)(p->ncolumns + 1));
    for (int c = 0; c < p->ncolumns; c++) {
        L->out_start[c] = es.n;
        DaeExpr *val = plan_column_value(p, &p->columns[c]);
        Mentioned m = {p, NULL, 0, 0};
        dae_each_var(&p->d->t, &val, 1, mention, &m);
        gradient(p, L, val, m.vars, m.n, &es);
        free(m.vars);
    }
    L->out_start[p->ncolumns] = es.n;
    L->nout_entries = es.n;
    entries_keep(p, &es, &L->out_col, &L->out_val);
    /* the states and their derivatives */
    L->der_var = arena_alloc(&p->arena, sizeof(int) * (size_t)(s->nstates + 1));
    for (int j = 0; j < s->nstates; j++) {
        StVar *x = s->vars.items[s->state_var[j]];
        L->der_var[j] = x->deriv;
    }
}
