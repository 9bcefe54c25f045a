/*
 * codegen.c - pass 9: prints the plan (plan.h) as the C of one simulator.
 *
 * Layout of the output, in order: parameter table and derive_params; state
 * names, start values; one function per nonlinear loop (residuals and
 * analytic Jacobian); eval, in the plan's parts; columns (every name of
 * every variable, aliases included); targets; relations (zero-crossing
 * functions and their truth values); assertions; block descriptions; the
 * Jacobian's sparsity; and the RtModel descriptor.
 *
 * This file prints the code (parameters, start values, the loops and
 * eval) and the descriptor; codegen_tables.c prints the tables, from
 * the slots to the sparsity.
 *
 * Every decision (methods, pivots, parts, relations and guards, sparsity,
 * targets) is the plan's; this file only prints.  The C text itself
 * (buffer, escaping, expressions with their shared subexpressions,
 * functions in bounded parts) is cprint.c's.  Relations inside the
 * continuous equations read the frozen mode md[k]; the zero-crossing and
 * relation functions evaluate them for real.
 *
 * Output is deterministic: everything is emitted in index order, and no
 * address or time stamp is written.
 */
#include "codegen_internal.h"
#include "rt_model.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>



/* Variable leaves are array slots: x[] for states, a[] for the rest. */
static void emit_var(void *ctx, CPrint *p, int var, int order)
{
    Cg *cg = ctx;
    int i = plan_stvar(cg->pl, var, order);
    if (i < 0) {
        cp_emit(p, "0.0");
        return;
    }
    if (cg->pl->copy_of[i] >= 0)
        i = cg->pl->copy_of[i]; /* a copy reads what it copies */
    StVar *x = cg_stv(cg, i);
    cp_emit(p, "%s[%d]", x->state ? "x" : "a", cg->pl->slot[i]);
}

static void emit_block_comment(Cg *cg, int k, const char *indent);


/* ---- sections of the output ------------------------------------------------ */

/* The tables of tablelookup calls: where their grids and data are in
   p[], how they interpolate, where they were written. */
static void emit_tables(Cg *cg)
{
    const PtrVec *tabs = &cg->d->t.tables;
    if (!tabs->n)
        return;
    size_t pool_at = cp_pool_begin(&cg->p);
    cp_emit(&cg->p, "static const RtTableInfo tables[] = {\n");
    for (int i = 0; i < tabs->n; i++) {
        const DaeTable *tb = tabs->items[i];
        char *text = cp_source_text(tb->span);
        cp_emit(&cg->p, "    {");
        cp_pstr(&cg->p, tb->instance);
        cp_emit(&cg->p, ", ");
        cp_pstr(&cg->p, text);
        free(text);
        cp_emit(&cg->p, ", ");
        cp_location(&cg->p, tb->span);
        cp_emit(&cg->p, ",\n     %d, {%d, %d}, {%d, %d}, %d, %s, %s, {", tb->axes, tb->n[0],
                tb->axes == 2 ? tb->n[1] : 0, tb->grid[0], tb->axes == 2 ? tb->grid[1] : 0,
                tb->data, tb->interp == RT_INTERP_SMOOTH ? "RT_INTERP_SMOOTH" : "RT_INTERP_LINEAR",
                tb->extrap == RT_EXTRAP_LINEAR ? "RT_EXTRAP_LINEAR"
                : tb->extrap == RT_EXTRAP_NEAREST ? "RT_EXTRAP_NEAREST" : "RT_EXTRAP_ERROR");
        for (int a = 0; a < 2; a++) {
            cp_emit(&cg->p, "%s{", a ? ", " : "");
            for (int j = 0; j < RT_DIM_COUNT; j++)
                cp_emit(&cg->p, "%s%d", j ? ", " : "", a < tb->axes ? tb->dim[a].e[j] : 0);
            cp_emit(&cg->p, "}");
        }
        cp_emit(&cg->p, "}");
        cp_location_end(&cg->p, tb->span);
        cp_emit(&cg->p, "},\n");
    }
    cp_emit(&cg->p, "};\n\n");
    cp_pool_end(&cg->p, pool_at);
}

/* The parameter that parameter i copies, when it is bound to one that
   is not derived itself (its default is a number), or -1. */
static int param_copy_of(const Dae *d, int i)
{
    const DaeParam *p = d->params.items[i];
    if (p->expr->kind != DX_PARAM)
        return -1;
    const DaeParam *q = d->params.items[p->expr->u.index];
    return q->expr->kind == DX_CONST ? p->expr->u.index : -1;
}

/* The copies of the parameters the solver's evaluations read
   (Plan.solver_copy) as a table of runs, each a period of P copies
   (destination, source) repeated R times, every destination stepped by
   dD and every source by dS at each repetition:
   {P, R, dD, dS, d0, s0, ..., d(P-1), s(P-1)}.  A chain's copies are a
   few runs.  Returns the table's length in ints, 0 when there is none. */
enum { COPY_PERIOD_MAX = 8 };

static int emit_solver_copies(Cg *cg)
{
    const Plan *pl = cg->pl;
    int np = pl->d->params.n, nslots = pl->nconst_slots;
    int *src = mem_calloc((size_t)nslots + 1, sizeof(int));
    int n = 0;
    for (int i = 0; i < np; i++)
        if (pl->solver_copy[i])
            src[pl->solver_copy[i] - 1] = i + 1;
    int *ds = mem_calloc(2 * (size_t)nslots + 2, sizeof(int));
    for (int j = 0; j < nslots; j++)
        if (src[j]) {
            ds[2 * n] = cg->p.consts_base + j;
            ds[2 * n + 1] = src[j] - 1;
            n++;
        }
    free(src);
    if (n == 0) {
        free(ds);
        return 0;
    }
    cp_emit(&cg->p, "/* copies of the parameters the solver's evaluations read, next to each other: "
                    "{P, R, dD, dS, then P of (destination, source)}, repeated R times, stepped by dD and dS */\n"
                    "static const int solver_copies[] = {\n");
    int len = 0;
    for (int i = 0; i < n;) {
        int best_p = 1, best_r = 1;
        for (int P = 1; P <= COPY_PERIOD_MAX && i + 2 * P <= n; P++) {
            int dD = ds[2 * (i + P)] - ds[2 * i], dS = ds[2 * (i + P) + 1] - ds[2 * i + 1];
            int r = 1;
            for (;; r++) {
                int at = i + r * P, ok = at + P <= n;
                for (int k = 0; ok && k < P; k++)
                    ok = ds[2 * (at + k)] == ds[2 * (i + k)] + r * dD
                         && ds[2 * (at + k) + 1] == ds[2 * (i + k) + 1] + r * dS;
                if (!ok)
                    break;
            }
            if (r > 1 && P * r > best_p * best_r) {
                best_p = P;
                best_r = r;
            }
        }
        int dD = best_r > 1 ? ds[2 * (i + best_p)] - ds[2 * i] : 0;
        int dS = best_r > 1 ? ds[2 * (i + best_p) + 1] - ds[2 * i + 1] : 0;
        cp_emit(&cg->p, "    %d, %d, %d, %d,", best_p, best_r, dD, dS);
        for (int k = 0; k < best_p; k++)
            cp_emit(&cg->p, " %d, %d,", ds[2 * (i + k)], ds[2 * (i + k) + 1]);
        cp_emit(&cg->p, "\n");
        len += 4 + 2 * best_p;
        i += best_p * best_r;
    }
    cp_emit(&cg->p, "};\n\n");
    free(ds);
    return len;
}

static void emit_params(Cg *cg)
{
    Dae *d = cg->d;
    /* the values alone, which every run copies at its start; then name,
       dimension, flags, unit, read on demand: the strings as offsets
       into texts[] (RtParamRow), so the table holds no pointers */
    cp_emit(&cg->p, "static const double param_values[] = {");
    for (int i = 0; i < d->params.n; i++) {
        cp_emit(&cg->p, i % 8 ? " " : "\n    ");
        cp_num(&cg->p, ((DaeParam *)d->params.items[i])->value);
        cp_emit(&cg->p, ",");
    }
    cp_emit(&cg->p, "%s\n};\n\n", d->params.n ? "" : "\n    0");
    cg->p.offsets = true;
    cp_emit(&cg->p, "static const RtParamRow param_rows[] = {\n");
    for (int i = 0; i < d->params.n; i++) {
        DaeParam *p = d->params.items[i];
        cp_emit(&cg->p, "    {");
        cp_text(&cg->p, p->name);
        cp_emit(&cg->p, ", {");
        for (int j = 0; j < RT_DIM_COUNT; j++)
            cp_emit(&cg->p, "%s%d", j ? ", " : "", p->dim.e[j]);
        cp_emit(&cg->p, "}, %d, %d, %s, ", p->structural ? 1 : 0, p->is_bool ? 1 : 0,
                p->access == RT_PARAM_PRIVATE ? "RT_PARAM_PRIVATE"
                : p->access == RT_PARAM_OBSERVED ? "RT_PARAM_OBSERVED"
                : p->access == RT_PARAM_NETWORK ? "RT_PARAM_NETWORK"
                : p->access == RT_PARAM_INTERNAL ? "RT_PARAM_INTERNAL" : "RT_PARAM_PUBLIC");
        if (p->unit && p->unit[0])
            cp_pstr(&cg->p, p->unit);
        else
            cp_emit(&cg->p, "0");
        cp_emit(&cg->p, ", %d},\n", p->unit_relative ? 1 : 0);
    }
    if (!d->params.n)
        cp_emit(&cg->p, "    {0, {0}, 0, 0, RT_PARAM_PUBLIC, 0, 0},\n");
    cp_emit(&cg->p, "};\n\n");
    cg->p.offsets = false;
    /* a parameter bound to another that is not derived itself is a copy
       the runtime makes before derive_params (rt_tables.c) */
    cp_emit(&cg->p, "static const int param_copies[] = {");
    int ncopies = 0;
    for (int i = 0; i < d->params.n; i++)
        if (param_copy_of(d, i) >= 0)
            cp_emit(&cg->p, "%s%d, %d", cp_list_sep(ncopies++), i, param_copy_of(d, i));
    cp_emit(&cg->p, "%s\n};\n\n", ncopies ? "" : "0, 0");
    cg->nparam_copies = ncopies;
    int ncopy_runs = emit_solver_copies(cg);
    CpChunk c = {.name = "derive_params", .params = "double *p, const unsigned char *ov",
                 .args = "p, ov", .prologue = "    (void)p; (void)ov;\n"};
    cp_chunk_begin(&cg->p, &c);
    for (int i = 0; i < d->params.n; i++) {
        DaeParam *p = d->params.items[i];
        if (p->expr->kind == DX_CONST || param_copy_of(d, i) >= 0)
            continue;
        cp_chunk_item(&cg->p, &c);
        cp_reset(&cg->p);
        cp_emit(&cg->p, "    if (!ov[%d]) p[%d] = ", i, i);
        cp_expr(&cg->p, p->expr);
        cp_emit(&cg->p, ";\n");
    }
    /* then the constants eval reads, each from the parameters and the
       constants before it (plan_eval.c) */
    const PtrVec *k = &cg->pl->consts;
    cg->p.consts_of = &cg->pl->const_index;
    for (int i = 0; i < k->n; i++) {
        cp_chunk_item(&cg->p, &c);
        cp_reset(&cg->p);
        int slot = (int)(intptr_t)ptrmap_get(&cg->pl->const_index, k->items[i]) - 1;
        cp_emit(&cg->p, "    p[%d] = ", cg->p.consts_base + slot);
        cp_raw(&cg->p, k->items[i]);
        cp_emit(&cg->p, ";\n");
    }
    cg->p.consts_of = NULL;
    /* and the copies of the parameters the solver's evaluations read
       (plan_eval.c), from their table */
    if (ncopy_runs) {
        cp_chunk_item(&cg->p, &c);
        cp_emit(&cg->p, "    for (const int *r = solver_copies; r < solver_copies + %d; r += 4 + 2 * r[0])\n"
                        "        for (int j = 0; j < r[1]; j++)\n"
                        "            for (int k = 0; k < r[0]; k++)\n"
                        "                p[r[4 + 2 * k] + j * r[2]] = p[r[5 + 2 * k] + j * r[3]];\n",
                ncopy_runs);
    }
    cp_chunk_end(&cg->p, &c);
}

/* The pivots that depend on parameters only, checked once after the
   parameters are set: the first block whose pivot vanishes, or -1. */
/* Whether pivot i of b is checked once by check_params' code (not by
   the table of single slots). */
static bool pivot_in_code(Cg *cg, const PlanBlock *b, DaeExpr **pivots, int i)
{
    int at;
    return b->pivot_check[i] == CHECK_ONCE && cg_value_slot(cg, pivots[i], &at) != RT_FROM_P;
}

static void emit_check_params(Cg *cg)
{
    const Plan *pl = cg->pl;
    /* the constants exist by now (check_params runs after derive_params);
       a pivot that is one parameter or constant goes into a table */
    cg->p.consts_of = &pl->const_index;
    cp_emit(&cg->p, "static const int pivot_slots[] = {");
    int nslots = 0;
    for (int k = 0; k < pl->nblocks; k++) {
        const PlanBlock *b = &pl->blocks[k];
        int npiv = b->method == PLAN_EXPLICIT ? 1 : b->method == PLAN_SYMBOLIC ? b->n : 0;
        DaeExpr **pivots = b->method == PLAN_EXPLICIT ? (DaeExpr **)&b->pivot : b->pivots;
        for (int i = 0, at; i < npiv; i++)
            if (b->pivot_check[i] == CHECK_ONCE && cg_value_slot(cg, pivots[i], &at) == RT_FROM_P)
                cp_emit(&cg->p, "%s%d, %d", cp_list_sep(nslots++), at, k);
    }
    cp_emit(&cg->p, "%s\n};\n\n", nslots ? "" : "0, 0");
    cg->npivot_slots = nslots;
    CpChunk c = {.name = "check_params", .params = "const double *p", .args = "p",
                 .prologue = "    (void)p;\n", .is_int = true};
    cp_chunk_begin(&cg->p, &c);
    for (int k = 0; k < pl->nblocks; k++) {
        const PlanBlock *b = &pl->blocks[k];
        int npiv = b->method == PLAN_EXPLICIT ? 1 : b->method == PLAN_SYMBOLIC ? b->n : 0;
        DaeExpr **pivots = b->method == PLAN_EXPLICIT ? (DaeExpr **)&b->pivot : b->pivots;
        int nonce = 0;
        for (int i = 0; i < npiv; i++)
            nonce += pivot_in_code(cg, b, pivots, i);
        if (!nonce)
            continue;
        /* one item per block: its pivots share their subexpressions */
        cp_chunk_item(&cg->p, &c);
        cp_reset(&cg->p);
        for (int i = 0; i < npiv; i++)
            if (pivot_in_code(cg, b, pivots, i))
                cp_count(&cg->p, pivots[i]);
        for (int i = 0; i < npiv; i++) {
            if (!pivot_in_code(cg, b, pivots, i))
                continue;
            cp_temps(&cg->p, pivots[i]);
            cp_emit(&cg->p, "    if (!(fabs(");
            cp_expr(&cg->p, pivots[i]);
            cp_emit(&cg->p, ") > 1e-300)) return %d;\n", k);
        }
    }
    cp_chunk_end(&cg->p, &c);
    cg->p.consts_of = NULL;
}

static DaeExpr *start_of(Cg *cg, int var, int order)
{
    DaeVar *v = cg->d->vars.items[var];
    return order == 0 ? v->start : dae_const(&cg->d->t, 0);
}

static void emit_states(Cg *cg)
{
    Dae *d = cg->d;
    Structure *s = cg->s;
    /* the names, as offsets into texts[]: der(name) for a state that is
       a derivative */
    cp_emit(&cg->p, "static const unsigned state_name_at[] = {");
    for (int i = 0; i < s->nstates; i++) {
        StVar *x = s->vars.items[s->state_var[i]];
        const char *shown = dae_shown_name(d->vars.items[x->var]);
        size_t n = strlen(shown);
        char *name = malloc(n + 5 * (size_t)x->order + 1), *at = name;
        if (!name)
            abort();
        for (int k = 0; k < x->order; k++, at += 4)
            memcpy(at, "der(", 4);
        memcpy(at, shown, n);
        at += n;
        for (int k = 0; k < x->order; k++)
            *at++ = ')';
        *at = 0;
        cp_emit(&cg->p, "%s", cp_list_sep(i));
        cp_text(&cg->p, name);
        free(name);
    }
    cp_emit(&cg->p, "%s\n};\n\n", s->nstates ? "" : "0");
    CpChunk c = {.name = "start", .params = "const double *p, double *x0, double *nom",
                 .args = "p, x0, nom", .prologue = "    (void)p; (void)x0; (void)nom;\n"};
    cp_chunk_begin(&cg->p, &c);
    for (int i = 0; i < s->nstates; i++) {
        StVar *x = s->vars.items[s->state_var[i]];
        DaeVar *v = d->vars.items[x->var];
        cp_chunk_item(&cg->p, &c);
        cp_reset(&cg->p);
        cp_emit(&cg->p, "    x0[%d] = ", i);
        cp_expr(&cg->p, start_of(cg, x->var, x->order));
        cp_emit(&cg->p, ";\n    nom[%d] = ", i);
        if (v->nominal && x->order == 0) {
            cp_emit(&cg->p, "fabs(");
            cp_expr(&cg->p, v->nominal);
            cp_emit(&cg->p, ")");
        } else {
            cp_emit(&cg->p, "1.0");
        }
        cp_emit(&cg->p, ";\n");
    }
    cp_chunk_end(&cg->p, &c);
    CpChunk ca = {.name = "alg_start", .params = "const double *p, double *a", .args = "p, a",
                  .prologue = "    (void)p; (void)a;\n"};
    cp_chunk_begin(&cg->p, &ca);
    for (int i = 0; i < s->vars.n; i++) {
        StVar *x = s->vars.items[i];
        if (x->state)
            continue;
        DaeExpr *st = start_of(cg, x->var, x->order);
        if (dae_is_const(st, 0))
            continue;   /* the runtime starts every a[] at 0 */
        cp_chunk_item(&cg->p, &ca);
        cp_reset(&cg->p);
        cp_emit(&cg->p, "    a[%d] = ", cg->pl->slot[i]);
        cp_expr(&cg->p, st);
        cp_emit(&cg->p, ";\n");
    }
    cp_chunk_end(&cg->p, &ca);
}

static void emit_loop_functions(Cg *cg, int k, const PlanBlock *b)
{
    int n = b->n;
    emit_block_comment(cg, k, "");
    /* residuals */
    cp_emit(&cg->p, "static int b%d_f(RtEval *e, const double *z, double *res)\n{\n", k);
    cp_locals(&cg->p, true);
    for (int i = 0; i < n; i++)
        cp_emit(&cg->p, "    a[%d] = z[%d];\n", cg->pl->slot[b->vars[i]], i);
    cp_begin_function(&cg->p);
    for (int i = 0; i < n; i++)
        cp_count(&cg->p, b->res[i]);
    for (int i = 0; i < n; i++) {
        cp_temps(&cg->p, b->res[i]);
        cp_emit(&cg->p, "    res[%d] = ", i);
        cp_expr(&cg->p, b->res[i]);
        cp_emit(&cg->p, ";\n");
    }
    cp_emit(&cg->p, "    return 0;\n}\n\n");
    /* analytic Jacobian, row-major */
    cp_emit(&cg->p, "static int b%d_j(RtEval *e, const double *z, double *jac)\n{\n", k);
    cp_locals(&cg->p, true);
    for (int i = 0; i < n; i++)
        cp_emit(&cg->p, "    a[%d] = z[%d];\n", cg->pl->slot[b->vars[i]], i);
    cp_begin_function(&cg->p);
    for (int i = 0; i < n * n; i++)
        cp_count(&cg->p, b->jac[i]);
    for (int i = 0; i < n * n; i++) {
        cp_temps(&cg->p, b->jac[i]);
        cp_emit(&cg->p, "    jac[%d] = ", i);
        cp_expr(&cg->p, b->jac[i]);
        cp_emit(&cg->p, ";\n");
    }
    cp_emit(&cg->p, "    return 0;\n}\n\n");
}

/* Counts the uses of what statement st prints (its shared
   subexpressions). */
static void count_stmt(Cg *cg, PlanStmt st)
{
    const PlanBlock *b = &cg->pl->blocks[st.block];
    int n = b->n;
    switch (b->method) {
    case PLAN_EXPLICIT:
        if (b->pivot_check[0] == CHECK_EVAL)
            cp_count(&cg->p, b->pivot);
        cp_count(&cg->p, st.value ? st.value : b->solved);
        break;
    case PLAN_SYMBOLIC:
        if (b->pivot_check[st.i] == CHECK_EVAL)
            cp_count(&cg->p, b->pivots[st.i]);
        cp_count(&cg->p, st.value ? st.value : b->values[st.i]);
        break;
    case PLAN_LU:
        for (int i = 0; i < n * n; i++)
            cp_count(&cg->p, b->A[i]);
        for (int i = 0; i < n; i++)
            cp_count(&cg->p, b->r0[i]);
        break;
    default:
        break;
    }
}

/* "block 9, explicit: wall.f; wall, path:28": what a block solves and
   where its first equation comes from, as a comment. */
static void emit_block_comment(Cg *cg, int k, const char *indent)
{
    const PlanBlock *b = &cg->pl->blocks[k];
    char buf[4096];
    cp_put(&cg->p.buf, indent, strlen(indent));
    cp_put(&cg->p.buf, "/* block ", 9);
    cp_put_long(&cg->p.buf, k);
    cp_put(&cg->p.buf, ", ", 2);
    cp_comment(&cg->p, plan_method_names[b->method]);
    cp_put(&cg->p.buf, ":", 1);
    for (int i = 0; i < b->n && i < 6; i++) {
        StVar *x = cg_stv(cg, b->vars[i]);
        cp_put(&cg->p.buf, i ? ", " : " ", i ? 2 : 1);
        cp_comment_var(&cg->p, dae_shown_name(cg->d->vars.items[x->var]), x->order);
    }
    if (b->n > 6)
        cp_emit(&cg->p, " and %d more", b->n - 6);
    StEq *q = cg->s->eqs.items[b->eqs[0]];
    cp_emit(&cg->p, "; ");
    const DaeEq *first = cg->d->eqs.items[q->base];
    cp_comment(&cg->p, dae_eq_origin(buf, sizeof buf, ORIGIN_LISTING, first));
    cp_emit(&cg->p, " */\n");
}

/* A pivot check: the block fails as singular when its pivot vanishes. */
static void emit_pivot_check(Cg *cg, int k, DaeExpr *pivot)
{
    cp_temps(&cg->p, pivot);
    cp_emit(&cg->p, "    if (!(fabs(");
    cp_expr(&cg->p, pivot);
    cp_emit(&cg->p, ") > 1e-300)) { e->fail_block = %d; return RT_FAIL_SINGULAR; }\n", k);
}

/* The StVar whose value is the derivative of StVar sv (a copy followed). */
static int deriv_of(Cg *cg, int sv)
{
    int d = cg_stv(cg, sv)->deriv;
    return d >= 0 && cg->pl->copy_of[d] >= 0 ? cg->pl->copy_of[d] : d;
}

/* dx[i] = the value of state i's derivative (a state or a[]). */
static void print_dx(Cg *cg, int i)
{
    int d = deriv_of(cg, cg->s->state_var[i]);
    cp_emit(&cg->p, "    dx[%d] = %s[%d];\n", i, cg_stv(cg, d)->state ? "x" : "a",
            cg->pl->slot[d]);
}

/* dx[] of the states listed under unknown sv (cg->dx_first): written
   where a solver's statement computes sv, while the value is at hand. */
static void emit_dx(Cg *cg, int sv)
{
    for (int i = cg->dx_first[sv]; i >= 0; i = cg->dx_next[i])
        print_dx(cg, i);
}

/* The same for every unknown statement st writes. */
static void emit_stmt_dx(Cg *cg, PlanStmt st)
{
    const PlanBlock *b = &cg->pl->blocks[st.block];
    if (st.i >= 0 || b->method == PLAN_EXPLICIT)
        emit_dx(cg, b->vars[st.i < 0 ? 0 : st.i]);
    else
        for (int i = 0; i < b->n; i++)
            emit_dx(cg, b->vars[i]);
}

/* One statement of eval (PlanStmt): a value, or a whole loop.  The
   comment naming the block comes with its first statement in the part. */
static void emit_stmt(Cg *cg, PlanStmt st, bool first_of_block, int next, int to)
{
    const Plan *pl = cg->pl;
    const PlanBlock *b = &pl->blocks[st.block];
    int k = st.block, n = b->n;
    if (first_of_block)
        emit_block_comment(cg, k, "    ");
    switch (b->method) {
    case PLAN_EXPLICIT:
        if (b->pivot_check[0] == CHECK_EVAL)
            emit_pivot_check(cg, k, b->pivot);
        cp_temps(&cg->p, st.value ? st.value : b->solved);
        cp_emit(&cg->p, "    a[%d] = ", cg->pl->slot[b->vars[0]]);
        cp_expr(&cg->p, st.value ? st.value : b->solved);
        cp_emit(&cg->p, ";\n");
        break;
    case PLAN_SYMBOLIC:
        if (b->pivot_check[st.i] == CHECK_EVAL)
            emit_pivot_check(cg, k, b->pivots[st.i]);
        cp_temps(&cg->p, st.value ? st.value : b->values[st.i]);
        cp_emit(&cg->p, "    a[%d] = ", cg->pl->slot[b->vars[st.i]]);
        cp_expr(&cg->p, st.value ? st.value : b->values[st.i]);
        cp_emit(&cg->p, ";\n");
        break;
    case PLAN_LU:
        for (int i = 0; i < n * n; i++)
            cp_temps(&cg->p, b->A[i]);
        for (int i = 0; i < n; i++)
            cp_temps(&cg->p, b->r0[i]);
        cp_emit(&cg->p, "    {\n        double A[%d], r[%d];\n", n * n, n);
        for (int i = 0; i < n * n; i++) {
            if (dae_is_const(b->A[i], 0)) {
                cp_emit(&cg->p, "        A[%d] = 0.0;\n", i);
                continue;
            }
            cp_emit(&cg->p, "        A[%d] = ", i);
            cp_expr(&cg->p, b->A[i]);
            cp_emit(&cg->p, ";\n");
        }
        for (int i = 0; i < n; i++) {
            cp_emit(&cg->p, "        r[%d] = -(", i);
            cp_expr(&cg->p, b->r0[i]);
            cp_emit(&cg->p, ");\n");
        }
        cp_emit(&cg->p, "        int rc = rt_solve_linear(e, %d, %d, A, r);\n", k, n);
        cp_emit(&cg->p, "        if (rc) return rc;\n");
        for (int i = 0; i < n; i++)
            cp_emit(&cg->p, "        a[%d] = r[%d];\n", cg->pl->slot[b->vars[i]], i);
        cp_emit(&cg->p, "    }\n");
        break;
    case PLAN_NEWTON:
        cp_emit(&cg->p, "    {\n        double z[%d];\n", n);
        for (int i = 0; i < n; i++)
            cp_emit(&cg->p, "        z[%d] = a[%d];\n", i, cg->pl->slot[b->vars[i]]);
        cp_emit(&cg->p, "        int r = rt_solve_block(e, %d, %d, z, b%d_f, b%d_j);\n",
                k, n, k, k);
        cp_emit(&cg->p, "        if (r) return r;\n");
        for (int i = 0; i < n; i++)
            cp_emit(&cg->p, "        a[%d] = z[%d];\n", cg->pl->slot[b->vars[i]], i);
        cp_emit(&cg->p, "    }\n");
        /* later statements must not reuse temporaries computed before the
           loop changed the unknowns they depend on */
        cp_reset(&cg->p);
        for (int j = next; j < to; j++)
            count_stmt(cg, pl->stmts[j]);
        break;
    default:
        break;
    }
}

/* Statements from .. to - 1 of eval, counted for their shared
   subexpressions first. */
static void emit_stmts(Cg *cg, int from, int to)
{
    const Plan *pl = cg->pl;
    for (int j = from; j < to; j++)
        count_stmt(cg, pl->stmts[j]);
    for (int j = from; j < to; j++) {
        bool first = j == from || pl->stmts[j - 1].block != pl->stmts[j].block;
        emit_stmt(cg, pl->stmts[j], first, j + 1, to);
        if (j < pl->nsolver)
            emit_stmt_dx(cg, pl->stmts[j]);
    }
}

/* Whether statements from .. to - 1 of eval solve an algebraic loop by
   Newton: its residual functions write a[] through e->alg. */
static bool has_newton(const Plan *pl, int from, int to)
{
    for (int j = from; j < to; j++)
        if (pl->blocks[pl->stmts[j].block].method == PLAN_NEWTON)
            return true;
    return false;
}

/* The head of a part of eval: its arrays come as restrict parameters,
   which the C compiler honours (restrict locals loaded from e it mostly
   ignores), so a value stored in a[] stays in its register for the dx[]
   that copies it.  a[] is not restrict where a Newton loop's residual
   functions write it through e. */
static void eval_part_head(Cg *cg, int part, int from, int to)
{
    cp_emit(&cg->p,
            "static int eval_%d(RtEval *e, const double t, const double *restrict x, "
            "const double *restrict p, double *%sa, const int *restrict md, double *restrict dx)\n{\n"
            "    (void)e; (void)t; (void)x; (void)p; (void)a; (void)md; (void)dx;\n",
            part, has_newton(cg->pl, from, to) ? "" : "restrict ");
}

/* One part of eval, a function of its own: statements from .. to - 1,
   and the test that ends a solver's evaluation before statement
   solver_end when from <= solver_end < to (-1: none). */
static void emit_eval_part(Cg *cg, int part, int from, int to, int solver_end)
{
    eval_part_head(cg, part, from, to);
    cp_begin_function(&cg->p);
    size_t body_at = cg->p.buf.n;
    if (solver_end >= from && solver_end < to) {
        emit_stmts(cg, from, solver_end);
        cp_emit(&cg->p, "    if (e->partial)\n        return 0;\n");
        emit_stmts(cg, solver_end, to);
    } else {
        emit_stmts(cg, from, to);
    }
    cp_roll(&cg->p.buf, body_at);
    cp_emit(&cg->p, "    return 0;\n}\n\n");
}

static void emit_eval_parts(Cg *cg);

static void emit_eval(Cg *cg)
{
    cg->p.eval_ctx = true; /* tables report queries outside the grid through e */
    cg->p.consts_of = &cg->pl->const_index;
    cg->p.param_copy = cg->pl->solver_copy;
    emit_eval_parts(cg);
    cg->p.param_copy = NULL;
    cg->p.eval_ctx = false;
}

static void emit_eval_parts(Cg *cg)
{
    const Plan *pl = cg->pl;
    Structure *s = cg->s;
    for (int k = 0; k < pl->nblocks; k++)
        if (pl->blocks[k].method == PLAN_NEWTON)
            emit_loop_functions(cg, k, &pl->blocks[k]);
    /* dx, in parts like everything else */
    CpChunk c = {.name = "derivatives",
                 .params = "const double *restrict x, const double *restrict a, "
                           "double *restrict dx",
                 .args = "x, a, dx", .prologue = "    (void)x; (void)a; (void)dx;\n"};
    /* a derivative that a solver's statement computes is written there
       (emit_dx); derivatives() copies the others (a state, a value no
       statement writes) */
    int nv = s->vars.n;
    cg->dx_first = mem_calloc((size_t)nv + 1, sizeof(int));
    cg->dx_next = mem_calloc((size_t)s->nstates + 1, sizeof(int));
    for (int i = 0; i < nv; i++)
        cg->dx_first[i] = -1;
    /* ... and so is one that is a state whose own derivative a solver's
       statement computes (ma.x' = ma.v beside ma.v' = a[k]): the lines of
       dx[] a step writes then go out together */
    int *at = mem_calloc((size_t)s->nstates + 1, sizeof(int));
    for (int i = 0; i < s->nstates; i++) {
        int d = deriv_of(cg, s->state_var[i]);
        if (cg_stv(cg, d)->state)
            d = deriv_of(cg, d);
        at[i] = d >= 0 && plan_solver_value(pl, d) ? d : -1;
    }
    cp_chunk_begin(&cg->p, &c);
    for (int i = s->nstates - 1; i >= 0; i--) {
        cg->dx_next[i] = -1;
        if (at[i] >= 0) {
            cg->dx_next[i] = cg->dx_first[at[i]];
            cg->dx_first[at[i]] = i;
        }
    }
    for (int i = 0; i < s->nstates; i++) {
        if (at[i] >= 0)
            continue;
        cp_chunk_item(&cg->p, &c);
        print_dx(cg, i);
    }
    cp_chunk_end(&cg->p, &c);
    free(at);
    /* eval: the solver's statements, then the rest unless the
       evaluation is the solver's (RtEval.partial); a model of at most one
       part of each is one function */
    bool alone = pl->nparts_solver <= 1 && pl->nparts - pl->nparts_solver <= 1;
    int nfun = alone ? 1 : pl->nparts;
    if (alone)
        emit_eval_part(cg, 0, 0, pl->nstmts, pl->nsolver);
    else
        for (int i = 0; i < pl->nparts; i++)
            emit_eval_part(cg, i, pl->part_start[i], pl->part_start[i + 1], -1);
    cp_emit(&cg->p, "static int eval(RtEval *e)\n{\n    int r;\n");
    for (int i = 0; i < nfun; i++) {
        if (!alone && i == pl->nparts_solver)
            cp_emit(&cg->p, "    if (e->partial)\n        goto done;\n");
        cp_emit(&cg->p, "    if ((r = eval_%d(e, e->t, e->x, e->p, e->alg, e->modes, e->dx)) != 0)\n"
                        "        return r;\n", i);
    }
    if (!alone && pl->nparts > pl->nparts_solver)
        cp_emit(&cg->p, "done:\n");
    cp_emit(&cg->p, "    if (e->dx)\n        derivatives(e->x, e->alg, e->dx);\n");
    cp_emit(&cg->p, "    return 0;\n}\n\n");
}

size_t cg_c_limit(void)
{
    return cp_c_limit();
}

char *cg_generate(const Plan *pl, const char *model)
{
    Cg cg = {0};
    cg.pl = pl;
    cg.d = pl->d;
    cg.s = pl->s;
    cg.p.var = emit_var;
    cg.p.var_ctx = &cg;
    cg.p.modes_of = &pl->rel_index;
    cg.p.delays_of = &pl->delay_index;
    cg.p.consts_base = pl->d->params.n;
    cg.p.recips = &pl->recips;
    Dae *d = cg.d;
    Structure *s = cg.s;

    cp_emit(&cg.p, "/* Generated by lmdlc %s from model ", LMDL_VERSION);
    cp_comment(&cg.p, model);
    cp_emit(&cg.p, ".  Do not edit. */\n");
    cp_emit(&cg.p, "#include \"rt_model.h\"\n#include <math.h>\n\n");
    cp_emit(&cg.p, "_Static_assert(RT_ABI_VERSION == %d,\n               \"generated for "
            "runtime interface %d: generate it again with this runtime's lmdlc\");\n",
            RT_ABI_VERSION, RT_ABI_VERSION);
    cp_emit(&cg.p, "_Static_assert(RT_DIM_COUNT == %d, \"generated for %d SI base "
            "dimensions\");\n\n", RT_DIM_COUNT, RT_DIM_COUNT);
    cg_slots(&cg);
    cg.p.modes = true;
    emit_tables(&cg);
    emit_params(&cg);
    emit_check_params(&cg);
    emit_states(&cg);
    emit_eval(&cg);
    cg_columns(&cg);
    cg.p.consts_of = NULL; /* targets are read before the run */
    cg_targets(&cg);
    cg.p.consts_of = &pl->const_index;
    cg.p.param_copy = pl->solver_copy;
    cg_relations(&cg);
    cg.p.param_copy = NULL;
    cg_linear(&cg);
    cg.p.consts_of = NULL; /* the discrete part reads the parameters only */
    cg_delays(&cg.p, pl);
    if (d->evars.n) {
        cg_evar_start(&cg.p, d);
        cg_update(&cg.p, d);
        cg_reset(&cg.p, pl);
        cg_charts(&cg.p, d);
    }
    cg_asserts(&cg);
    cg_blocks(&cg);
    cg_sparsity(&cg);
    cg_rel_states(&cg);
    cp_texts_end(&cg.p);
    cp_emit(&cg.p, "const RtModel rt_model = {\n");
    cp_emit(&cg.p, "    .abi = RT_ABI_VERSION,\n    .name = ");
    cp_str(&cg.p, model);
    cp_emit(&cg.p, ",\n    .n_params = %d, .param_rows = param_rows,"
            " .param_values = param_values,\n    .derive_params = derive_params,\n",
            d->params.n);
    if (pl->nconst_slots)
        cp_emit(&cg.p, "    .n_consts = %d,\n", pl->nconst_slots);
    cp_emit(&cg.p, "    .check_params = check_params,\n");
    cp_emit(&cg.p, "    .n_states = %d, .state_name_at = state_name_at,"
            " .state_column = state_column, .start = start,\n", s->nstates);
    cp_emit(&cg.p, "    .n_alg = %d, .alg_start = alg_start,\n    .eval = eval,\n", s->nalg);
    cp_emit(&cg.p, "    .n_alg_solver = %d,\n", pl->nalg_solver);
    cp_emit(&cg.p, "    .n_columns = %d, .column_name_at = column_name_at, .columns = columns,\n"
            "    .column_info = column_info,\n", pl->ncolumns);
    if (pl->n_on_request || pl->n_hidden)
        cp_emit(&cg.p, "    .n_on_request = %d, .n_hidden = %d,\n", pl->n_on_request,
                pl->n_hidden);
    cp_emit(&cg.p, "    .n_targets = %d, .targets = targets,"
            " .target_values = target_values,\n", pl->ntargets);
    cp_emit(&cg.p, "    .n_relations = %d, .relations = relations,\n"
            "    .zero_crossings = zero_crossings, .relation_values = relation_values,\n",
            pl->nrels);
    cp_emit(&cg.p, "    .n_asserts = %d, .assert_rows = assert_rows,%s"
            " .check_asserts = check_asserts,\n"
            "    .check_param_asserts = check_param_asserts,\n", d->asserts.n,
            cg.nassert_reads ? " .assert_reads = assert_reads," : "");
    for (int i = 0; i < d->asserts.n; i++) {
        if (((DaeAssert *)d->asserts.items[i])->warn) {
            cp_emit(&cg.p, "    .check_warnings = check_warnings,\n");
            break;
        }
    }
    cp_emit(&cg.p, "    .n_blocks = %d, .block_rows = block_rows, .texts = texts,\n",
            s->blocks.n);
    if (d->t.tables.n)
        cp_emit(&cg.p, "    .n_tables = %d, .tables = tables,\n", d->t.tables.n);
    cg_discrete_fields(&cg.p, d);
    cg_delay_fields(&cg.p, pl);
    if (pl->ncolors)
        cp_emit(&cg.p, "    .n_colors = %d, .color = jac_color, .jac_colptr = jac_colptr,\n"
                "    .jac_rows = jac_rows,\n", pl->ncolors);
    if (pl->nrel_states && pl->nrel_states < s->nstates)
        cp_emit(&cg.p, "    .n_rel_states = %d, .rel_states = rel_states,\n", pl->nrel_states);
    cp_emit(&cg.p, "    .column_from = column_from, .column_info_of = column_info_of,\n");
    cp_emit(&cg.p, "    .n_column_parts = %d, .column_parts = column_parts,\n"
            "    .column_part_end = column_part_end,\n", cg.ncolumn_parts);
    cp_emit(&cg.p, "    .n_param_copies = %d, .param_copies = param_copies,\n", cg.nparam_copies);
    cp_emit(&cg.p, "    .n_pivot_slots = %d, .pivot_slots = pivot_slots,\n", cg.npivot_slots);
    cp_emit(&cg.p, "    .n_param_checks = %d, .param_checks = param_checks,\n",
            pl->nparam_checks);
    if (pl->lin)
        cp_emit(&cg.p, "    .linear = &linear,\n");
    cp_emit(&cg.p, "};\n");

    ptrmap_free(&cg.p.uses);
    ptrmap_free(&cg.p.temp);
    cp_pool_free(&cg.p);
    free(cg.dx_first);
    free(cg.dx_next);
    if (cg.p.buf.over) {
        free(cg.p.buf.s);
        return NULL;
    }
    return cg.p.buf.s;
}
