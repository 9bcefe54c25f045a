/*
 * codegen_linear.c - prints the linearization Jacobians of the plan
 * (plan_linear.c) as the runtime's RtLinear (rt_model.h): the tables of
 * rows, blocks and entries, and two functions that evaluate every entry
 * at an evaluated point, one chunked item per equation or column, each
 * with a comment naming what its row solves.  Printed only when the plan
 * has them (lmdlc linearize).
 */
#include "codegen_internal.h"

#include <stdio.h>

/* The function NAME(e, val) that sets val[k] for the entries of each of
   the n groups: group g's are vals[start[g] .. start[g+1]). */
static void entries_function(Cg *cg, const char *name, const int *start, int n,
                             DaeExpr *const *vals, const int *what)
{
    CpChunk c = {.name = name, .params = "const RtEval *e, double *restrict val", .args = "e, val",
                 .prologue = RO_LOCALS "    (void)val;\n"};
    cp_chunk_begin(&cg->p, &c);
    for (int g = 0; g < n; g++) {
        if (start[g] == start[g + 1])
            continue;
        cp_chunk_item(&cg->p, &c);
        if (what) {     /* a row: the unknown it solves */
            StVar *x = cg_stv(cg, what[g]);
            cp_emit(&cg->p, "    /* d(row %d)/d(...), the row of ", g);
            cp_comment_var(&cg->p, dae_shown_name(cg->d->vars.items[x->var]), x->order);
            cp_emit(&cg->p, " */\n");
        } else {        /* a column */
            cp_emit(&cg->p, "    /* the gradient of ");
            cp_comment(&cg->p, cg->pl->columns[g].name);
            cp_emit(&cg->p, " */\n");
        }
        cp_reset(&cg->p);
        for (int k = start[g]; k < start[g + 1]; k++)
            cp_count(&cg->p, vals[k]);
        for (int k = start[g]; k < start[g + 1]; k++) {
            cp_temps(&cg->p, vals[k]);
            cp_emit(&cg->p, "    val[%d] = ", k);
            cp_expr(&cg->p, vals[k]);
            cp_emit(&cg->p, ";\n");
        }
    }
    cp_chunk_end(&cg->p, &c);
}

void cg_linear(Cg *cg)
{
    const PlanLinear *L = cg->pl->lin;
    Structure *s = cg->s;
    if (!L)
        return;
    cp_emit(&cg->p, "/* linearization (lmdlc linearize): the symbolic Jacobians */\n");
    cp_int_array(&cg->p, "lin_state_var", s->state_var, s->nstates);
    cp_int_array(&cg->p, "lin_der_var", L->der_var, s->nstates);
    cp_emit(&cg->p, "static const short lin_state_dim[][RT_DIM_COUNT] = {\n");
    for (int j = 0; j < s->nstates; j++) {
        StVar *x = cg_stv(cg, s->state_var[j]);
        DaeVar *v = cg->d->vars.items[x->var];
        Dim dim = v->dim;
        for (int o = 0; o < x->order; o++)     /* a derivative's unit: per s */
            dim.e[2] -= RT_DIM_DEN;
        cp_emit(&cg->p, "    {");
        for (int i = 0; i < RT_DIM_COUNT; i++)
            cp_emit(&cg->p, "%s%d", i ? ", " : "", dim.e[i]);
        cp_emit(&cg->p, "},\n");
    }
    cp_emit(&cg->p, "    {0}\n};\n\n");
    cp_int_array(&cg->p, "lin_input_param", L->input_param, L->ninputs);
    cp_int_array(&cg->p, "lin_block_start", L->block_start, L->nblocks + 1);
    cp_int_array(&cg->p, "lin_row_var", L->row_var, L->nrows);
    cp_int_array(&cg->p, "lin_entry_start", L->entry_start, L->nrows + 1);
    cp_int_array(&cg->p, "lin_entry_col", L->entry_col, L->nentries);
    cp_int_array(&cg->p, "lin_out_start", L->out_start, cg->pl->ncolumns + 1);
    cp_int_array(&cg->p, "lin_out_col", L->out_col, L->nout_entries);
    bool modes = cg->p.modes;
    cg->p.modes = true;     /* the relations as eval froze them */
    entries_function(cg, "lin_jac", L->entry_start, L->nrows, L->entry_val, L->row_var);
    entries_function(cg, "lin_out_jac", L->out_start, cg->pl->ncolumns, L->out_val, NULL);
    cg->p.modes = modes;
    cp_emit(&cg->p, "static const RtLinear linear = {\n"
            "    .n_vars = %d, .state_var = lin_state_var, .der_var = lin_der_var,\n"
            "    .state_dim = lin_state_dim,\n"
            "    .n_inputs = %d, .input_param = lin_input_param,\n"
            "    .n_rows = %d, .n_blocks = %d, .block_start = lin_block_start,\n"
            "    .row_var = lin_row_var, .entry_start = lin_entry_start,\n"
            "    .entry_col = lin_entry_col, .jac = lin_jac,\n"
            "    .out_start = lin_out_start, .out_col = lin_out_col, .out_jac = lin_out_jac,\n"
            "};\n\n", s->vars.n, L->ninputs, L->nrows, L->nblocks);
}
