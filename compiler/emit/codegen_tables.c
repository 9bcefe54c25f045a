/*
 * codegen_tables.c - the tables of the generated C that describe the
 * model to the runtime: the slots of copied parameters and checked
 * pivots, the result columns, the targets, the relations (zero-crossing
 * and truth functions), the assertions, the blocks, the relation
 * states and the Jacobian's sparsity.  codegen.c prints the code (the
 * parameters, start values and eval) and calls these in the output's
 * order.
 */
#include "codegen_internal.h"

#include "rt_model.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Computed columns per part of columns(): a row of a few of them runs
   that few parts (each a function the C compiler keeps small too). */
enum { COLUMN_PART_ITEMS = 32 };

/* Where a value that is a single slot lives, for the runtime's tables
   (rt_model.h, RT_FROM_*): a state, an algebraic value, a parameter or
   constant of parameters, or the number 0; RT_FROM_CODE when it takes
   code.  *index gets the slot. */
int cg_value_slot(Cg *cg, const DaeExpr *e, int *index)
{
    const Plan *pl = cg->pl;
    *index = 0;
    if (dae_is_const(e, 0))
        return RT_FROM_ZERO;
    if (e->kind == DX_PARAM) {
        *index = e->u.index;
        return RT_FROM_P;
    }
    int k = (int)(intptr_t)ptrmap_get(&pl->const_index, e);
    if (k) {
        *index = cg->d->params.n + k - 1;
        return RT_FROM_P;
    }
    if (e->kind != DX_VAR)
        return RT_FROM_CODE;
    int i = plan_stvar(pl, e->u.var.index, e->u.var.order);
    if (i < 0)
        return RT_FROM_ZERO;    /* a derivative nothing computes: 0.0 */
    if (pl->copy_of[i] >= 0)
        i = pl->copy_of[i];
    *index = pl->slot[i];
    return cg_stv(cg, i)->state ? RT_FROM_X : RT_FROM_ALG;
}

/* A key of a PtrMap that is a column's source, RT_FROM_* | index << 3,
   plus one (never NULL). */
static const void *source_key(int from)
{
    return (const void *)(uintptr_t)(from + 1);
}

/* Where each column's value comes from (column_from): the column that
   first holds its variable (same_as), a slot, or code.  A computed column
   whose value another column already has (the same expression: they are
   hash-consed) copies it instead, and one whose value is minus another
   column's (a through variable seen from its other node) is that column
   negated; so the runtime computes, formats and stores each distinct
   value once.  Each link names a column with a smaller expression or an
   earlier one with the same, so chains end. */
static int *column_sources(Cg *cg)
{
    const Plan *pl = cg->pl;
    int n = pl->ncolumns;
    int *from = mem_calloc((size_t)n + 1, sizeof *from);
    PtrMap slot_column = {0};   /* source_key -> 1 + the first column there */
    PtrMap code_column[2] = {{0}};  /* value -> 1 + the column computing
                                       it; [1] for values that read the
                                       modes (an inlined unknown's) */
    for (int k = 0; k < n; k++) {
        const PlanColumn *col = &pl->columns[k];
        if (col->same_as >= 0) {
            from[k] = RT_FROM_COLUMN | col->same_as << 3;
            continue;
        }
        DaeExpr *val = plan_column_value(pl, col);
        int at, kind = cg_value_slot(cg, val, &at);
        if (kind != RT_FROM_CODE) {
            from[k] = kind | at << 3;
            if (!ptrmap_get(&slot_column, source_key(from[k])))
                ptrmap_put(&slot_column, source_key(from[k]), (void *)(intptr_t)(k + 1));
            continue;
        }
        PtrMap *code = &code_column[col->value != NULL];
        int j = (int)(intptr_t)ptrmap_get(code, val);
        if (j) {
            from[k] = RT_FROM_COLUMN | (j - 1) << 3;
        } else {
            from[k] = RT_FROM_CODE;
            ptrmap_put(code, val, (void *)(intptr_t)(k + 1));
        }
    }
    for (int k = 0; k < n; k++) {
        const PlanColumn *col = &pl->columns[k];
        if (from[k] != RT_FROM_CODE)
            continue;
        DaeExpr *val = plan_column_value(pl, col);
        if (val->kind != DX_NEG)
            continue;
        DaeExpr *inner = val->u.bin.a;
        int at, kind = cg_value_slot(cg, inner, &at), j;
        if (kind == RT_FROM_ZERO)
            continue;
        if (kind != RT_FROM_CODE)
            j = (int)(intptr_t)ptrmap_get(&slot_column, source_key(kind | at << 3));
        else
            j = (int)(intptr_t)ptrmap_get(&code_column[col->value != NULL], inner);
        if (j && j - 1 != k)
            from[k] = RT_FROM_NEG | (j - 1) << 3;
    }
    ptrmap_free(&slot_column);
    ptrmap_free(&code_column[0]);
    ptrmap_free(&code_column[1]);
    return from;
}

/* state_column[]: each state's column, the first one named like the
   state, so that the runtime need not look the names up among all the
   columns (rt_sidecar.c).  That column's value is the state or minus it
   (a display name taken from an eliminated alias), so only the columns
   whose source is a state are compared; a derivative's state,
   der(...), has none. */
static void emit_state_columns(Cg *cg, const int *from)
{
    const Plan *pl = cg->pl;
    Structure *s = cg->s;
    int *col = mem_calloc((size_t)s->nstates + 1, sizeof(int));
    for (int i = 0; i < s->nstates; i++)
        col[i] = -1;
    for (int k = 0; k < pl->ncolumns; k++) {
        int f = from[k];
        while ((f & 7) == RT_FROM_COLUMN || (f & 7) == RT_FROM_NEG)
            f = from[f >> 3];
        int i = f >> 3;
        if ((f & 7) != RT_FROM_X || i >= s->nstates || col[i] >= 0)
            continue;
        StVar *x = s->vars.items[s->state_var[i]];
        if (x->order == 0
            && !strcmp(pl->columns[k].name, dae_shown_name(cg->d->vars.items[x->var])))
            col[i] = k;
    }
    cp_int_array(&cg->p, "state_column", col, s->nstates);
    free(col);
}

/* Columns, in the plan's order: each variable computed in its first
   column and copied to its others, each intermediate computed. */
void cg_columns(Cg *cg)
{
    const Plan *pl = cg->pl;
    /* the names, as offsets into texts[]: no pointers to relocate */
    cp_emit(&cg->p, "static const unsigned column_name_at[] = {");
    for (int k = 0; k < pl->ncolumns; k++) {
        cp_emit(&cg->p, "%s", cp_list_sep(k));
        cp_text(&cg->p, pl->columns[k].name);
    }
    cp_emit(&cg->p, "%s\n};\n\n", pl->ncolumns ? "" : "0");
    /* the unit, description and kind of each column: each distinct one
       once, and per column the index of its own (plan_tables.c) */
    size_t pool_at = cp_pool_begin(&cg->p);
    cp_emit(&cg->p, "static const RtColumnInfo column_info[] = {\n");
    for (int i = 0; i < pl->ninfos; i++) {
        const PlanColumn *c = &pl->columns[pl->info_column[i]];
        cp_emit(&cg->p, "    {{");
        for (int j = 0; j < RT_DIM_COUNT; j++)
            cp_emit(&cg->p, "%s%d", j ? ", " : "", c->dim.e[j]);
        cp_emit(&cg->p, "}, ");
        cp_pstr(&cg->p, c->description ? c->description : "");
        cp_emit(&cg->p, ", %s, %d},\n", c->output ? "RT_COL_OUTPUT" : "RT_COL_VARIABLE",
                c->complete);
    }
    cp_emit(&cg->p, "    {{0}, \"\", RT_COL_VARIABLE, 0}\n};\n\n");
    cp_pool_end(&cg->p, pool_at);
    cp_int_array(&cg->p, "column_info_of", pl->column_info_of, pl->ncolumns);
    cg->p.modes = false;
    /* the columns that are copies, as a table the runtime applies after
       columns() (rt_tables.c); code for the others */
    int *from = column_sources(cg);
    emit_state_columns(cg, from);
    cp_emit(&cg->p, "static const int column_from[] = {");
    for (int k = 0; k < pl->ncolumns; k++)
        cp_emit(&cg->p, "%s%d", cp_list_sep(k), from[k]);
    cp_emit(&cg->p, "%s\n};\n\n", pl->ncolumns ? "" : "0");
    CpChunk c = {.name = "columns", .params = "const RtEval *e, double *restrict out", .args = "e, out",
                 .prologue = RO_LOCALS "    (void)out;\n", .max_items = COLUMN_PART_ITEMS};
    /* part k computes the code columns before part_end[k] (and from
       part_end[k - 1] on): a row that writes a few of them calls only
       their parts (rt_tables.c), of COLUMN_PART_ITEMS each */
    int *part_end = mem_calloc((size_t)pl->ncolumns / COLUMN_PART_ITEMS + 2, sizeof(int));
    /* a column whose value holds an earlier column's of the same part
       reads it from out[] (a lever's force times its arm, then the
       force on the other side); values that read the modes only among
       themselves, as they print differently */
    PtrMap named[2] = {{0}};
    cp_chunk_begin(&cg->p, &c);
    for (int k = 0; k < pl->ncolumns; k++) {
        const PlanColumn *col = &pl->columns[k];
        if (from[k] != RT_FROM_CODE)
            continue;
        DaeExpr *val = plan_column_value(pl, col);
        int part = c.parts;
        cp_chunk_item(&cg->p, &c);
        if (c.parts != part) {
            ptrmap_clear(&named[0]);
            ptrmap_clear(&named[1]);
        }
        part_end[c.parts - 1] = k + 1;
        /* the value of an inlined unknown reads its relations' modes, as
           the eval that stores it would (plan_inline.c) */
        bool modes = col->value != NULL;
        cg->p.modes = modes;
        cg->p.named = &named[modes];
        cp_reset(&cg->p);
        cp_count(&cg->p, val);
        cp_temps(&cg->p, val);
        cp_emit(&cg->p, "    out[%d] = ", k);
        cp_expr(&cg->p, val);
        cp_emit(&cg->p, ";\n");
        if (!dae_is_leaf(val))
            ptrmap_put(&named[modes], val, (void *)(intptr_t)(k + 1));
        cg->p.modes = false;
        cg->p.named = NULL;
    }
    cp_chunk_end(&cg->p, &c);
    ptrmap_free(&named[0]);
    ptrmap_free(&named[1]);
    cp_emit(&cg->p, "static const RtColumnsFn column_parts[] = {");
    for (int i = 0; i < c.parts; i++)
        cp_emit(&cg->p, c.parts == 1 ? "%scolumns" : "%scolumns_%d", cp_list_sep(i), i);
    cp_emit(&cg->p, "\n};\n\n");
    cp_int_array(&cg->p, "column_part_end", part_end, c.parts);
    cg->ncolumn_parts = c.parts;
    free(part_end);
    free(from);
}

void cg_targets(Cg *cg)
{
    const Plan *pl = cg->pl;
    cp_emit(&cg->p, "static const RtTargetInfo targets[] = {\n");
    for (int i = 0; i < pl->ntargets; i++) {
        const PlanTarget *t = &pl->targets[i];
        cp_emit(&cg->p, "    {%d, %d, %d},\n", t->column, t->high, t->state1);
    }
    if (!pl->ntargets)
        cp_emit(&cg->p, "    {0, 0, 0},\n");
    cp_emit(&cg->p, "};\n\n");
    CpChunk c = {.name = "target_values", .params = "const double *p, double *v, double *nom",
                 .args = "p, v, nom", .prologue = "    (void)p; (void)v; (void)nom;\n"};
    cp_chunk_begin(&cg->p, &c);
    for (int k = 0; k < pl->ntargets; k++) {
        DaeVar *x = cg->d->vars.items[pl->targets[k].var];
        cp_chunk_item(&cg->p, &c);
        cp_reset(&cg->p);
        cp_emit(&cg->p, "    v[%d] = ", k);
        cp_expr(&cg->p, x->start);
        cp_emit(&cg->p, ";\n    nom[%d] = ", k);
        if (x->nominal) {
            cp_emit(&cg->p, "fabs(");
            cp_expr(&cg->p, x->nominal);
            cp_emit(&cg->p, ")");
        } else {
            cp_emit(&cg->p, "1.0");
        }
        cp_emit(&cg->p, ";\n");
    }
    cp_chunk_end(&cg->p, &c);
}

void cg_relations(Cg *cg)
{
    const Plan *pl = cg->pl;
    size_t pool_at = cp_pool_begin(&cg->p);
    cp_emit(&cg->p, "static const RtRelationInfo relations[] = {\n");
    for (int i = 0; i < pl->nrels; i++) {
        DaeRelOrigin *o = pl->rels[i].origin;
        cp_emit(&cg->p, "    {");
        cp_pstr(&cg->p, o ? o->instance : "");
        cp_emit(&cg->p, ", ");
        char *text = o ? cp_source_text(o->span) : strdup("?");
        cp_pstr(&cg->p, text);
        free(text);
        cp_emit(&cg->p, ", ");
        if (o)
            cp_location(&cg->p, o->span);
        else
            cp_pstr(&cg->p, "");
        int g = pl->rels[i].guard;
        const DaeExpr *r = pl->rels[i].rel;
        cp_emit(&cg->p, ", %d, %d, %d, %d, %d, %d", g, g >= 0 ? pl->rels[i].guard_value : 0,
                r->kind == DX_SEGMENT ? r->u.seg.tab->index + 1 : 0,
                r->kind == DX_SEGMENT ? r->u.seg.axis : 0,
                pl->rels[i].assert_only ? 1 : 0, pl->rels[i].reads_alg ? 1 : 0);
        cp_location_end(&cg->p, o ? o->span : src_none);
        cp_emit(&cg->p, ", %d},\n", pl->rels[i].time_only ? 1 : 0);
    }
    if (!pl->nrels)
        cp_emit(&cg->p, "    {\"\", \"\", \"\", -1, 0, 0, 0, 0, 0, NULL, 0},\n");
    cp_emit(&cg->p, "};\n\n");
    cp_pool_end(&cg->p, pool_at);
    cg->p.modes = false;
    CpChunk cz = {.name = "zero_crossings", .params = "const RtEval *e, double *restrict g",
                  .args = "e, g", .prologue = RO_LOCALS "    (void)g;\n"};
    cp_chunk_begin(&cg->p, &cz);
    for (int i = 0; i < pl->nrels; i++) {
        DaeExpr *g = pl->rels[i].crossing;
        cp_chunk_item(&cg->p, &cz);
        cp_reset(&cg->p);
        cg->p.modes = true; /* operands read frozen modes of inner relations */
        cp_count(&cg->p, g);
        cp_temps(&cg->p, g);
        const DaeExpr *r = pl->rels[i].rel;
        if (r->kind == DX_SEGMENT) {
            /* a segment mode: the query against its frozen segment's bounds */
            const DaeTable *tb = r->u.seg.tab;
            cp_emit(&cg->p, "    g[%d] = rt_grid_crossing(p + %d, %d, md[%d], ", i,
                    tb->grid[r->u.seg.axis], tb->n[r->u.seg.axis], i);
            cp_expr(&cg->p, g);
            cp_emit(&cg->p, ");\n");
            cg->p.modes = false;
            continue;
        }
        cp_emit(&cg->p, "    g[%d] = ", i);
        cp_expr(&cg->p, g);
        cp_emit(&cg->p, ";\n");
        cg->p.modes = false;
    }
    cp_chunk_end(&cg->p, &cz);
    CpChunk cr = {.name = "relation_values", .params = "const RtEval *e, int *restrict truth",
                  .args = "e, truth", .prologue = RO_LOCALS "    (void)truth;\n"};
    cp_chunk_begin(&cg->p, &cr);
    for (int i = 0; i < pl->nrels; i++) {
        DaeExpr *r = pl->rels[i].live;
        cp_chunk_item(&cg->p, &cr);
        cp_reset(&cg->p);
        if (r->kind == DX_SEGMENT) {
            /* a segment mode's value: the segment the query is in */
            DaeExpr *q = pl->rels[i].crossing;
            cg->p.modes = true;
            cp_count(&cg->p, q);
            cp_temps(&cg->p, q);
            cg->p.modes = false;
            cp_emit(&cg->p, "    truth[%d] = ", i);
            cg->p.modes = true;
            cp_emit(&cg->p, "rt_grid_segment(p + %d, %d, ", r->u.seg.tab->grid[r->u.seg.axis],
                    r->u.seg.tab->n[r->u.seg.axis]);
            cp_expr(&cg->p, q);
            cp_emit(&cg->p, ");\n");
            cg->p.modes = false;
            continue;
        }
        cg->p.modes = true;
        cp_count(&cg->p, r->u.bin.a);
        cp_count(&cg->p, r->u.bin.b);
        cp_temps(&cg->p, r->u.bin.a);
        cp_temps(&cg->p, r->u.bin.b);
        cg->p.modes = false;
        /* the relation itself is evaluated, its operands as in eval */
        cp_emit(&cg->p, "    truth[%d] = ", i);
        cg->p.modes = true;
        cp_emit(&cg->p, "(");
        cp_expr(&cg->p, r->u.bin.a);
        cp_emit(&cg->p, " %s ", dae_kind_cop[r->kind]);
        cp_expr(&cg->p, r->u.bin.b);
        cp_emit(&cg->p, ");\n");
        cg->p.modes = false;
    }
    cp_chunk_end(&cg->p, &cr);
}

#define X_CMP_NAME(n) "RT_CMP_" #n,
static const char *const cmp_names[] = {PLAN_CMPS(X_CMP_NAME)};
#undef X_CMP_NAME
/* the plan's comparisons are the runtime's, in the same order */
#define X_CMP_SAME(n) _Static_assert((int)PLAN_CMP_##n == (int)RT_CMP_##n, "PLAN_CMPS order");
PLAN_CMPS(X_CMP_SAME)
#undef X_CMP_SAME

/* The assertions of parameters that compare one parameter with a
   constant, as the table the runtime checks (rt_tables.c). */
static void emit_param_checks(Cg *cg)
{
    const Plan *pl = cg->pl;
    cp_emit(&cg->p, "static const RtParamCheck param_checks[] = {\n");
    for (int i = 0; i < pl->nparam_checks; i++) {
        const PlanParamCheck *c = &pl->param_checks[i];
        cp_emit(&cg->p, "    {%d, %d, %s, ", c->assert_index, c->param, cmp_names[c->op]);
        cp_num(&cg->p, c->value);
        cp_emit(&cg->p, "},\n");
    }
    if (!pl->nparam_checks)
        cp_emit(&cg->p, "    {0, 0, RT_CMP_GT, 0},\n");
    cp_emit(&cg->p, "};\n\n");
}

/* A function returning the index of the first failing assert, or -1:
   those that read the state, or those that read only parameters. */
static void emit_assert_checks(Cg *cg, CpChunk *c, bool params_only)
{
    Dae *d = cg->d;
    cg->p.modes = false;
    /* the parameter-only ones run before the constants are computed */
    cg->p.consts_of = params_only ? NULL : &cg->pl->const_index;
    cp_chunk_begin(&cg->p, c);
    for (int i = 0; i < d->asserts.n; i++) {
        DaeAssert *a = d->asserts.items[i];
        if (params_only != cg->pl->assert_once[i] || a->warn)
            continue;
        if (params_only && cg->pl->assert_in_table[i])
            continue;   /* in param_checks */
        cp_chunk_item(&cg->p, c);
        cp_reset(&cg->p);
        cp_count(&cg->p, a->cond);
        cp_temps(&cg->p, a->cond);
        cp_emit(&cg->p, "    if (!(");
        cp_expr(&cg->p, a->cond);
        cp_emit(&cg->p, ")) return %d;\n", i);
    }
    cp_chunk_end(&cg->p, c);
}

/* The parameters an assert reads, shown with its failure (at most 8). */
enum { ASSERT_SHOWN_PARAMS = 8 };

static void emit_warning_checks(Cg *cg);

void cg_asserts(Cg *cg)
{
    Dae *d = cg->d;
    int reads[ASSERT_SHOWN_PARAMS];
    /* the parameters each one reads, one after the other in one array */
    int *at = mem_calloc((size_t)d->asserts.n + 1, sizeof *at), nreads = 0;
    for (int i = 0; i < d->asserts.n; i++) {
        DaeAssert *a = d->asserts.items[i];
        int n = dae_param_reads(a->cond, reads, ASSERT_SHOWN_PARAMS);
        if (n && !nreads)
            cp_emit(&cg->p, "static const int assert_reads[] = {");
        at[i] = nreads;
        for (int k = 0; k < n && k < ASSERT_SHOWN_PARAMS; k++)
            cp_emit(&cg->p, "%s%d", cp_list_sep(nreads++), reads[k]);
    }
    at[d->asserts.n] = nreads;
    if (nreads)
        cp_emit(&cg->p, "\n};\n\n");
    cg->nassert_reads = nreads;
    /* rows of offsets into the texts (RtAssertRow): no pointers */
    cg->p.offsets = true;
    cp_emit(&cg->p, "/* instance, message, location, its end: offsets into texts[] */\n"
                    "static const RtAssertRow assert_rows[] = {\n");
    for (int i = 0; i < d->asserts.n; i++) {
        DaeAssert *a = d->asserts.items[i];
        cp_emit(&cg->p, "    {");
        cp_pstr(&cg->p, a->instance);
        cp_emit(&cg->p, ", ");
        cp_pstr(&cg->p, a->message);
        cp_emit(&cg->p, ", ");
        cp_location(&cg->p, a->span);
        cp_location_end(&cg->p, a->span);
        /* the reads listed above, at most 8 */
        cp_emit(&cg->p, ", %d, %d, %d, %d},\n", at[i + 1] - at[i], at[i],
                cg->pl->assert_once[i] ? 1 : 0, a->warn ? 1 : 0);
    }
    if (!d->asserts.n)
        cp_emit(&cg->p, "    {0, 0, 0, 0, 0, 0, 0, 0},\n");
    cp_emit(&cg->p, "};\n\n");
    cg->p.offsets = false;
    free(at);
    /* the state-dependent ones after each step; the parameter-only ones
       once, before initialization */
    CpChunk c = {.name = "check_asserts", .params = "const RtEval *e", .args = "e",
                 .prologue = RO_LOCALS, .is_int = true};
    emit_assert_checks(cg, &c, false);
    emit_param_checks(cg);
    CpChunk cp = {.name = "check_param_asserts", .params = "const double *restrict p",
                  .args = "p", .prologue = "    (void)p;\n", .is_int = true};
    emit_assert_checks(cg, &cp, true);
    emit_warning_checks(cg);
    cg->p.consts_of = NULL;
}

/* The assertions that only warn, each one's truth in failing[]: the
   runtime reports the first failure of each (rt_eval.c). */
static void emit_warning_checks(Cg *cg)
{
    Dae *d = cg->d;
    bool any = false;
    for (int i = 0; i < d->asserts.n; i++)
        any = any || ((DaeAssert *)d->asserts.items[i])->warn;
    if (!any)
        return;
    cg->p.modes = false;
    cg->p.consts_of = &cg->pl->const_index;
    CpChunk c = {.name = "check_warnings", .params = "const RtEval *e, unsigned char *restrict failing",
                 .args = "e, failing", .prologue = RO_LOCALS "    (void)failing;\n"};
    cp_chunk_begin(&cg->p, &c);
    for (int i = 0; i < d->asserts.n; i++) {
        DaeAssert *a = d->asserts.items[i];
        if (!a->warn)
            continue;
        cp_chunk_item(&cg->p, &c);
        cp_reset(&cg->p);
        cp_count(&cg->p, a->cond);
        cp_temps(&cg->p, a->cond);
        cp_emit(&cg->p, "    failing[%d] = !(", i);
        cp_expr(&cg->p, a->cond);
        cp_emit(&cg->p, ");\n");
    }
    cp_chunk_end(&cg->p, &c);
}

/* A block's description (RtBlockInfo.what, for the runtime's messages)
   keeps its first this many bytes: the equation, where it is, what it
   is solved for; its location names the rest. */
enum { BLOCK_WHAT_MAX = 200 };

void cg_blocks(Cg *cg)
{
    Dae *d = cg->d;
    Structure *s = cg->s;
    cg->p.offsets = true; /* rows of offsets into the texts (RtBlockRow) */
    cp_emit(&cg->p, "/* size, description, location, its end: offsets into texts[] */\n"
                    "static const RtBlockRow block_rows[] = {\n");
    DaeNames nm = dae_names(d);
    /* one stream over one buffer for every description: they are cut at
       400 bytes anyway */
    char what[1024];
    FILE *fp = fmemopen(what, sizeof what, "w");
    if (!fp)
        abort();
    for (int k = 0; k < s->blocks.n; k++) {
        StBlock *b = s->blocks.items[k];
        StEq *q = s->eqs.items[b->eqs[0]];
        DaeEq *o = d->eqs.items[q->base];
        rewind(fp);
        if (q->level)
            fprintf(fp, "derivative %d of ", q->level);
        dae_print_expr(fp, o->lhs, &nm);
        fputs(" == ", fp);
        dae_print_expr(fp, o->rhs, &nm);
        char org[4096];
        fputs(dae_eq_origin(org, sizeof org, ORIGIN_BLOCK, o), fp);
        if (b->n > 1)
            fprintf(fp, " and %d more equation%s", b->n - 1, b->n == 2 ? "" : "s");
        fputs(", solved for ", fp);
        for (int i = 0; i < b->n && i < 6; i++) {
            StVar *x = s->vars.items[b->vars[i]];
            if (i)
                fputs(", ", fp);
            dae_fput_var(fp, dae_shown_name(d->vars.items[x->var]), x->order);
        }
        fflush(fp);
        long len = ftell(fp);
        len = len < 0 ? 0 : len > (long)sizeof what - 1 ? (long)sizeof what - 1 : len;
        what[len] = 0;
        if (len > BLOCK_WHAT_MAX)
            strcpy(what + BLOCK_WHAT_MAX - 4, "...");
        cp_emit(&cg->p, "    {%d, ", b->n);
        cp_text(&cg->p, what);
        cp_emit(&cg->p, ", ");
        cp_location(&cg->p, o->span);
        cp_location_end(&cg->p, o->span);
        cp_emit(&cg->p, "},\n");
    }
    fclose(fp);
    if (!s->blocks.n)
        cp_emit(&cg->p, "    {0, 0, 0, 0},\n");
    cp_emit(&cg->p, "};\n\n");
    cg->p.offsets = false;
}

/* ---- the Jacobian's sparsity -------------------------------------------- */

/* The states the relation functions read. */
void cg_rel_states(Cg *cg)
{
    const Plan *pl = cg->pl;
    if (!pl->nrel_states || pl->nrel_states == cg->s->nstates)
        return;
    cp_int_array(&cg->p, "rel_states", pl->rel_states, pl->nrel_states);
}

void cg_sparsity(Cg *cg)
{
    const Plan *pl = cg->pl;
    int ns = cg->s->nstates;
    if (!pl->ncolors)
        return;
    cp_int_array(&cg->p, "jac_color", pl->color, ns);
    cp_int_array(&cg->p, "jac_colptr", pl->jac_colptr, ns + 1);
    cp_int_array(&cg->p, "jac_rows", pl->jac_rows, pl->jac_colptr[ns]);
}

/* What every slot of x[], a[] and p[] holds, as a comment: x[] and
   a[] in slot order (a[] starts with what the solver's evaluations
   compute). */
void cg_slots(Cg *cg)
{
    Dae *d = cg->d;
    Structure *s = cg->s;
    const Plan *pl = cg->pl;
    int nv = s->vars.n;
    int *at = mem_calloc((size_t)(2 * nv) + 1, sizeof *at); /* x[] then a[]: StVar + 1 */
    for (int i = 0; i < nv; i++)
        at[(cg_stv(cg, i)->state ? 0 : s->nstates) + pl->slot[i]] = i + 1;
    cp_emit(&cg->p, "/*\n * The slots: x[] the states, a[] the other unknowns (the first %d "
            "computed\n * by the solver's evaluations), p[] the parameters, then the "
            "constants.\n", pl->nalg_solver);
    for (int k = 0; k < 2 * nv; k++) {
        if (!at[k])
            continue;
        int i = at[k] - 1;
        StVar *x = cg_stv(cg, i);
        cp_emit(&cg->p, " *   %s[%d]  ", x->state ? "x" : "a", pl->slot[i]);
        cp_comment_var(&cg->p, dae_shown_name(d->vars.items[x->var]), x->order);
        int c = pl->copy_of[i];
        if (c >= 0)
            cp_emit(&cg->p, ", read as %s[%d]", cg_stv(cg, c)->state ? "x" : "a", pl->slot[c]);
        cp_put(&cg->p.buf, "\n", 1);
    }
    free(at);
    for (int i = 0; i < d->params.n; i++) {
        cp_emit(&cg->p, " *   p[%d]  ", i);
        cp_comment(&cg->p, ((DaeParam *)d->params.items[i])->name);
        cp_emit(&cg->p, "\n");
    }
    cp_emit(&cg->p, " */\n\n");
}

