/*
 * codegen.c - pass 8: emits the C of one simulator.
 *
 * Layout of the output, in order: parameter table and derive_params; state
 * names, start values; one function per algebraic loop (residuals and
 * analytic Jacobian from the symbolic differentiator); eval, split into
 * parts of bounded size so the C compiler's time stays linear; columns
 * (every name of every variable, aliases included); targets; relations
 * (zero-crossing functions and their truth values); assertions; and the
 * RtModel descriptor.
 *
 * The C text itself (buffer, escaping, expressions with their shared
 * subexpressions, functions in bounded parts) is cprint.c's.  Relations
 * inside the continuous equations read the frozen mode md[k]; the
 * zero-crossing and relation functions evaluate them for real.
 *
 * Output is deterministic: everything is emitted in index order, and no
 * address or time stamp is written.
 */
#include "codegen.h"

#include "cprint.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { EVAL_PART_BLOCKS = 64 };

typedef struct Cg {
    CPrint p;               /* the C text */
    Dae *d;
    Structure *s;
    int **slot_of;          /* per DaeVar, per order: StVar index or -1 */
    int *norders;           /* per DaeVar: orders in slot_of */
    PtrMap rel_index;       /* relation node -> 1 + index */
    PtrVec rels;            /* DaeExpr*: relations with a mode */
    DaeExpr ***lin;         /* per block: J then F(0) of a linear loop, or NULL */
    DaeExpr ***sym;         /* per block: a linear loop solved at compile time:
                               n pivots, then n values (back-substitution
                               order, unknown i solved by value i) */
    double *pdefault;       /* parameter defaults, for choosing pivots */
    int *guard;             /* per relation: guard relation, -1, or -2 unset */
    int *guard_value;       /* per relation: the guard's value */
} Cg;

/* ---- variables ---------------------------------------------------------- */

static int stvar(Cg *cg, int var, int order)
{
    if (var < 0 || var >= cg->d->vars.n || order >= cg->norders[var])
        return -1;
    return cg->slot_of[var][order];
}

static void emit_var(void *ctx, CPrint *p, int var, int order)
{
    Cg *cg = ctx;
    int i = stvar(cg, var, order);
    if (i < 0) {
        cp_emit(p, "0.0");
        return;
    }
    StVar *x = cg->s->vars.items[i];
    cp_emit(p, "%s[%d]", x->state ? "x" : "a", x->slot);
}

/* ---- relations ------------------------------------------------------------- */

static void find_relations(Cg *cg, DaeExpr *e, PtrMap *seen)
{
    if (ptrmap_get(seen, e) || dae_is_leaf(e))
        return;
    ptrmap_put(seen, e, e);
    if (dae_is_relation(e) && dae_depends_on_state(e) && !ptrmap_get(&cg->rel_index, e)) {
        ptrvec_push(&cg->d->arena, &cg->rels, e);
        ptrmap_put(&cg->rel_index, e, (void *)(intptr_t)cg->rels.n);
    }
    DaeExpr *kids[3];
    for (int i = 0, nk = dae_children(e, kids); i < nk; i++)
        find_relations(cg, kids[i], seen);
}

/* Guards.  A relation that occurs only inside branches of an
   if-expression whose condition is one relation g (then: g true; else: g
   false) cannot change the equations while g has the other value; the
   runtime then follows it silently.  Occurrences under compound
   conditions, at the top, or inside another relation's operands (which
   the zero-crossing functions evaluate) have no guard. */
typedef struct GuardWalk {
    PtrMap seen;            /* node -> 1 + encoded guard of the first visit,
                               or 1 for "visited without a guard" */
} GuardWalk;

static void note_guard(Cg *cg, int r, int g, int v)
{
    if (cg->guard[r] == -2) {
        cg->guard[r] = g;
        cg->guard_value[r] = v;
    } else if (cg->guard[r] != g || cg->guard_value[r] != v) {
        cg->guard[r] = -1;
    }
}

static void walk_guards(Cg *cg, GuardWalk *w, DaeExpr *e, int g, int v)
{
    if (dae_is_leaf(e))
        return;
    intptr_t key = g < 0 ? 1 : 2 + 2 * (intptr_t)g + v;
    intptr_t old = (intptr_t)ptrmap_get(&w->seen, e);
    if (old == key || old == 1)
        return; /* same context again, or already seen unguarded */
    if (old) {
        g = -1; /* a second context: treat as unguarded */
        key = 1;
    }
    ptrmap_put(&w->seen, e, (void *)key);
    void *ri = ptrmap_get(&cg->rel_index, e);
    if (ri) {
        note_guard(cg, (int)(intptr_t)ri - 1, g, v);
        walk_guards(cg, w, e->u.bin.a, -1, 0);
        walk_guards(cg, w, e->u.bin.b, -1, 0);
        return;
    }
    if (e->kind == DX_IF) {
        void *ci = ptrmap_get(&cg->rel_index, e->u.cond.c);
        walk_guards(cg, w, e->u.cond.c, g, v);
        int cg_index = ci ? (int)(intptr_t)ci - 1 : -1;
        walk_guards(cg, w, e->u.cond.a, ci ? cg_index : g, ci ? 1 : v);
        walk_guards(cg, w, e->u.cond.b, ci ? cg_index : g, ci ? 0 : v);
        return;
    }
    DaeExpr *kids[3];
    for (int i = 0, nk = dae_children(e, kids); i < nk; i++)
        walk_guards(cg, w, kids[i], g, v);
}

/* ---- sections of the output ------------------------------------------------ */

static void emit_params(Cg *cg)
{
    Dae *d = cg->d;
    cp_emit(&cg->p, "static const RtParamInfo params[] = {\n");
    for (int i = 0; i < d->params.n; i++) {
        DaeParam *p = d->params.items[i];
        cp_emit(&cg->p, "    {");
        cp_str(&cg->p, p->name);
        cp_emit(&cg->p, ", ");
        cp_num(&cg->p, p->value);
        cp_emit(&cg->p, ", {%d, %d, %d, %d, %d, %d, %d}, %d, %d},\n", p->dim.e[0], p->dim.e[1],
             p->dim.e[2], p->dim.e[3], p->dim.e[4], p->dim.e[5], p->dim.e[6],
             p->structural ? 1 : 0, p->is_bool ? 1 : 0);
    }
    if (!d->params.n)
        cp_emit(&cg->p, "    {\"\", 0, {0, 0, 0, 0, 0, 0, 0}, 0, 0},\n");
    cp_emit(&cg->p, "};\n\n");
    CpChunk c = {"derive_params", "double *p, const unsigned char *ov", "p, ov",
               "    (void)p; (void)ov;\n", false, 0, 0};
    cp_chunk_begin(&cg->p, &c);
    for (int i = 0; i < d->params.n; i++) {
        DaeParam *p = d->params.items[i];
        if (p->expr->kind == DX_CONST)
            continue;
        cp_chunk_item(&cg->p, &c);
        cp_reset(&cg->p);
        cp_emit(&cg->p, "    if (!ov[%d]) p[%d] = ", i, i);
        cp_expr(&cg->p, p->expr);
        cp_emit(&cg->p, ";\n");
    }
    cp_chunk_end(&cg->p, &c);
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
    cp_emit(&cg->p, "static const char *const state_names[] = {\n");
    for (int i = 0; i < s->nstates; i++) {
        StVar *x = s->vars.items[s->state_var[i]];
        DaeVar *v = d->vars.items[x->var];
        char *name = NULL;
        size_t sz = 0;
        FILE *fp = open_memstream(&name, &sz);
        dae_fput_var(fp, dae_shown_name(v), x->order);
        fclose(fp);
        cp_emit(&cg->p, "    ");
        cp_str(&cg->p, name);
        cp_emit(&cg->p, ",\n");
        free(name);
    }
    cp_emit(&cg->p, "    \"\"\n};\n\n");
    CpChunk c = {"start", "const double *p, double *x0, double *nom", "p, x0, nom",
               "    (void)p; (void)x0; (void)nom;\n", false, 0, 0};
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
    CpChunk ca = {"alg_start", "const double *p, double *a", "p, a", "    (void)p; (void)a;\n",
                false, 0, 0};
    cp_chunk_begin(&cg->p, &ca);
    for (int i = 0; i < s->vars.n; i++) {
        StVar *x = s->vars.items[i];
        if (x->state)
            continue;
        cp_chunk_item(&cg->p, &ca);
        DaeExpr *st = start_of(cg, x->var, x->order);
        if (dae_is_const(st, 0))
            cp_emit(&cg->p, "    a[%d] = 0.0;\n", x->slot);
        else {
            cp_reset(&cg->p);
            cp_emit(&cg->p, "    a[%d] = ", x->slot);
            cp_expr(&cg->p, st);
            cp_emit(&cg->p, ";\n");
        }
    }
    cp_chunk_end(&cg->p, &ca);
}

static DaeExpr *block_res(Cg *cg, StBlock *b, int i)
{
    return ((StEq *)cg->s->eqs.items[b->eqs[i]])->res;
}

static void emit_loop_functions(Cg *cg, int k, StBlock *b)
{
    Structure *s = cg->s;
    int n = b->n;
    /* residuals */
    cp_emit(&cg->p, "static int b%d_f(RtEval *e, const double *z, double *res)\n{\n", k);
    cp_locals(&cg->p, true);
    for (int i = 0; i < n; i++)
        cp_emit(&cg->p, "    a[%d] = z[%d];\n", ((StVar *)s->vars.items[b->vars[i]])->slot, i);
    cp_begin_function(&cg->p);
    for (int i = 0; i < n; i++)
        cp_count(&cg->p, block_res(cg, b, i));
    for (int i = 0; i < n; i++) {
        cp_temps(&cg->p, block_res(cg, b, i));
        cp_emit(&cg->p, "    res[%d] = ", i);
        cp_expr(&cg->p, block_res(cg, b, i));
        cp_emit(&cg->p, ";\n");
    }
    cp_emit(&cg->p, "    return 0;\n}\n\n");
    /* analytic Jacobian, row-major */
    cp_emit(&cg->p, "static int b%d_j(RtEval *e, const double *z, double *jac)\n{\n", k);
    cp_locals(&cg->p, true);
    for (int i = 0; i < n; i++)
        cp_emit(&cg->p, "    a[%d] = z[%d];\n", ((StVar *)s->vars.items[b->vars[i]])->slot, i);
    DaeExpr **J = calloc((size_t)n * (size_t)n + 1, sizeof *J);
    if (!J)
        abort();
    cp_begin_function(&cg->p);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            StVar *x = s->vars.items[b->vars[j]];
            PtrMap memo = {0};
            J[i * n + j] = dae_diff_var(&cg->d->t, block_res(cg, b, i), x->var, x->order, &memo);
            ptrmap_free(&memo);
            cp_count(&cg->p, J[i * n + j]);
        }
    }
    for (int i = 0; i < n * n; i++) {
        cp_temps(&cg->p, J[i]);
        cp_emit(&cg->p, "    jac[%d] = ", i);
        cp_expr(&cg->p, J[i]);
        cp_emit(&cg->p, ";\n");
    }
    free(J);
    cp_emit(&cg->p, "    return 0;\n}\n\n");
}

/* A loop whose Jacobian does not mention its own unknowns is linear:
   F(z) = J z + F(0).  Returns {J (n*n), F(0) (n)} or NULL. */
typedef struct ZeroCtx {
    Structure *s;
    StBlock *b;
} ZeroCtx;

static DaeExpr *zero_block_vars(void *ctx, DaeExprTable *tab, const DaeExpr *leaf)
{
    ZeroCtx *z = ctx;
    for (int i = 0; i < z->b->n; i++) {
        StVar *x = z->s->vars.items[z->b->vars[i]];
        if (leaf->u.var.index == x->var && leaf->u.var.order == x->order)
            return dae_const(tab, 0);
    }
    return (DaeExpr *)leaf;
}

static DaeExpr **linear_parts(Cg *cg, StBlock *b)
{
    Structure *s = cg->s;
    int n = b->n;
    if (n > 64)
        return NULL;
    DaeExpr **out = arena_alloc(&cg->d->arena, sizeof(DaeExpr *) * (size_t)(n * n + n));
    for (int i = 0; i < n; i++) {
        DaeExpr *r = block_res(cg, b, i);
        for (int j = 0; j < n; j++) {
            StVar *x = s->vars.items[b->vars[j]];
            PtrMap memo = {0};
            DaeExpr *dj = dae_diff_var(&cg->d->t, r, x->var, x->order, &memo);
            ptrmap_free(&memo);
            for (int k = 0; k < n; k++) {
                StVar *y = s->vars.items[b->vars[k]];
                if (dae_mentions_var(&cg->d->t, dj, y->var, y->order))
                    return NULL;
            }
            out[i * n + j] = dj;
        }
        ZeroCtx z = {s, b};
        PtrMap memo = {0};
        out[n * n + i] = dae_substitute(&cg->d->t, r, zero_block_vars, &z, &memo);
        ptrmap_free(&memo);
    }
    return out;
}

/* A linear loop whose pivots can all be chosen among constant or
   parameter-only coefficients is eliminated symbolically here, once:
   the simulator then evaluates closed forms, with a check only on pivots
   that depend on parameters.  Pivots are chosen by magnitude at the
   parameters' defaults.  Loops whose only usable pivots depend on the
   state keep the run-time LU with partial pivoting. */
static DaeExpr **symbolic_linear(Cg *cg, StBlock *b, DaeExpr **L)
{
    Structure *s = cg->s;
    DaeExprTable *tab = &cg->d->t;
    int n = b->n;
    if (n > 16)
        return NULL;
    uint32_t budget = tab->count + 20000;
    DaeExpr **M = malloc(sizeof(DaeExpr *) * (size_t)(n * n));
    DaeExpr **r = malloc(sizeof(DaeExpr *) * (size_t)n);
    int *row = malloc(sizeof(int) * (size_t)n);
    if (!M || !r || !row)
        abort();
    memcpy(M, L, sizeof(DaeExpr *) * (size_t)(n * n));
    for (int i = 0; i < n; i++) {
        r[i] = dae_neg(tab, L[n * n + i]);
        row[i] = i;
    }
    bool ok = true;
    for (int k = 0; k < n && ok; k++) {
        int best = -1;
        double bestv = 0;
        for (int i = k; i < n; i++) {
            DaeExpr *e = M[i * n + k];
            if (dae_is_const(e, 0) || dae_depends_on_state(e))
                continue;
            double v = fabs(dae_eval_params(e, cg->pdefault));
            if (e->kind == DX_CONST)
                v += 1e300; /* constants first: never zero */
            if (isfinite(v) ? v > bestv : bestv == 0) {
                bestv = v;
                best = i;
            }
        }
        if (best < 0 || !(bestv > 0)) {
            ok = false;
            break;
        }
        if (best != k) {
            for (int j = 0; j < n; j++) {
                DaeExpr *t = M[k * n + j];
                M[k * n + j] = M[best * n + j];
                M[best * n + j] = t;
            }
            DaeExpr *t = r[k];
            r[k] = r[best];
            r[best] = t;
        }
        for (int i = k + 1; i < n; i++) {
            if (dae_is_const(M[i * n + k], 0))
                continue;
            DaeExpr *f = dae_div(tab, M[i * n + k], M[k * n + k]);
            for (int j = k + 1; j < n; j++)
                if (!dae_is_const(M[k * n + j], 0))
                    M[i * n + j] = dae_sub(tab, M[i * n + j], dae_mul(tab, f, M[k * n + j]));
            r[i] = dae_sub(tab, r[i], dae_mul(tab, f, r[k]));
            M[i * n + k] = dae_const(tab, 0);
        }
        if (tab->count > budget)
            ok = false;
    }
    DaeExpr **out = NULL;
    if (ok) {
        out = arena_alloc(&cg->d->arena, sizeof(DaeExpr *) * (size_t)(2 * n));
        for (int k = n - 1; k >= 0; k--) {
            DaeExpr *acc = r[k];
            for (int j = k + 1; j < n; j++) {
                if (dae_is_const(M[k * n + j], 0))
                    continue;
                StVar *x = s->vars.items[b->vars[j]];
                acc = dae_sub(tab, acc, dae_mul(tab, M[k * n + j], dae_var(tab, x->var, x->order)));
            }
            out[k] = M[k * n + k];
            out[n + k] = dae_div(tab, acc, M[k * n + k]);
        }
    }
    free(M);
    free(r);
    free(row);
    return out;
}

static void count_block(Cg *cg, int k)
{
    StBlock *b = cg->s->blocks.items[k];
    if (b->solved) {
        cp_count(&cg->p, b->pivot);
        cp_count(&cg->p, b->solved);
    } else if (cg->sym[k]) {
        for (int i = 0; i < 2 * b->n; i++)
            cp_count(&cg->p, cg->sym[k][i]);
    } else if (cg->lin[k]) {
        for (int i = 0; i < b->n * b->n + b->n; i++)
            cp_count(&cg->p, cg->lin[k][i]);
    }
}

/* One part of eval: blocks [from, to). */
static void emit_eval_part(Cg *cg, int part, int from, int to)
{
    Structure *s = cg->s;
    cp_emit(&cg->p, "static int eval_%d(RtEval *e)\n{\n", part);
    cp_locals(&cg->p, true);
    cp_begin_function(&cg->p);
    for (int k = from; k < to; k++)
        count_block(cg, k);
    for (int k = from; k < to; k++) {
        StBlock *b = s->blocks.items[k];
        if (b->solved) {
            StVar *x = s->vars.items[b->vars[0]];
            /* a nonzero constant pivot needs no check */
            if (!(b->pivot->kind == DX_CONST && b->pivot->u.value != 0)) {
                cp_temps(&cg->p, b->pivot);
                cp_emit(&cg->p, "    if (!(fabs(");
                cp_expr(&cg->p, b->pivot);
                cp_emit(&cg->p, ") > 1e-300)) { e->fail_block = %d; return RT_FAIL_SINGULAR; }\n", k);
            }
            cp_temps(&cg->p, b->solved);
            cp_emit(&cg->p, "    a[%d] = ", x->slot);
            cp_expr(&cg->p, b->solved);
            cp_emit(&cg->p, ";\n");
            continue;
        }
        if (cg->sym[k]) {
            int n = b->n;
            DaeExpr **S = cg->sym[k];
            for (int i = 0; i < n; i++) {
                if (S[i]->kind == DX_CONST)
                    continue;
                cp_temps(&cg->p, S[i]);
                cp_emit(&cg->p, "    if (!(fabs(");
                cp_expr(&cg->p, S[i]);
                cp_emit(&cg->p, ") > 1e-300)) { e->fail_block = %d; return RT_FAIL_SINGULAR; }\n", k);
            }
            for (int i = n - 1; i >= 0; i--) {
                cp_temps(&cg->p, S[n + i]);
                cp_emit(&cg->p, "    a[%d] = ", ((StVar *)s->vars.items[b->vars[i]])->slot);
                cp_expr(&cg->p, S[n + i]);
                cp_emit(&cg->p, ";\n");
            }
            continue;
        }
        if (cg->lin[k]) {
            int n = b->n;
            DaeExpr **L = cg->lin[k];
            for (int i = 0; i < n * n + n; i++)
                cp_temps(&cg->p, L[i]);
            cp_emit(&cg->p, "    {\n        double A[%d], r[%d];\n", n * n, n);
            for (int i = 0; i < n * n; i++) {
                if (dae_is_const(L[i], 0)) {
                    cp_emit(&cg->p, "        A[%d] = 0.0;\n", i);
                    continue;
                }
                cp_emit(&cg->p, "        A[%d] = ", i);
                cp_expr(&cg->p, L[i]);
                cp_emit(&cg->p, ";\n");
            }
            for (int i = 0; i < n; i++) {
                cp_emit(&cg->p, "        r[%d] = -(", i);
                cp_expr(&cg->p, L[n * n + i]);
                cp_emit(&cg->p, ");\n");
            }
            cp_emit(&cg->p, "        int rc = rt_solve_linear(e, %d, %d, A, r);\n", k, n);
            cp_emit(&cg->p, "        if (rc) return rc;\n");
            for (int i = 0; i < n; i++)
                cp_emit(&cg->p, "        a[%d] = r[%d];\n", ((StVar *)s->vars.items[b->vars[i]])->slot, i);
            cp_emit(&cg->p, "    }\n");
            continue;
        }
        cp_emit(&cg->p, "    {\n        double z[%d];\n", b->n);
        for (int i = 0; i < b->n; i++)
            cp_emit(&cg->p, "        z[%d] = a[%d];\n", i, ((StVar *)s->vars.items[b->vars[i]])->slot);
        cp_emit(&cg->p, "        int r = rt_solve_block(e, %d, %d, z, b%d_f, b%d_j);\n", k, b->n, k, k);
        cp_emit(&cg->p, "        if (r) return r;\n");
        for (int i = 0; i < b->n; i++)
            cp_emit(&cg->p, "        a[%d] = z[%d];\n", ((StVar *)s->vars.items[b->vars[i]])->slot, i);
        cp_emit(&cg->p, "    }\n");
        /* later blocks must not reuse temporaries computed before the loop
           changed the unknowns they depend on */
        cp_reset(&cg->p);
        for (int j = k + 1; j < to; j++)
            count_block(cg, j);
    }
    cp_emit(&cg->p, "    return 0;\n}\n\n");
}

static void emit_eval(Cg *cg)
{
    Structure *s = cg->s;
    cg->lin = arena_alloc(&cg->d->arena, sizeof(DaeExpr **) * (size_t)(s->blocks.n + 1));
    cg->sym = arena_alloc(&cg->d->arena, sizeof(DaeExpr **) * (size_t)(s->blocks.n + 1));
    cg->pdefault = arena_alloc(&cg->d->arena, sizeof(double) * (size_t)(cg->d->params.n + 1));
    for (int i = 0; i < cg->d->params.n; i++)
        cg->pdefault[i] = ((DaeParam *)cg->d->params.items[i])->value;
    for (int k = 0; k < s->blocks.n; k++) {
        StBlock *b = s->blocks.items[k];
        if (!b->solved)
            cg->lin[k] = linear_parts(cg, b);
        if (cg->lin[k])
            cg->sym[k] = symbolic_linear(cg, b, cg->lin[k]);
        if (!b->solved && !cg->lin[k])
            emit_loop_functions(cg, k, b);
    }
    int parts = 0;
    for (int k = 0; k < s->blocks.n; k += EVAL_PART_BLOCKS) {
        int to = k + EVAL_PART_BLOCKS < s->blocks.n ? k + EVAL_PART_BLOCKS : s->blocks.n;
        emit_eval_part(cg, parts++, k, to);
    }
    /* dx, in parts like everything else */
    CpChunk c = {"derivatives", "RtEval *e", "e",
               "    const double *restrict x = e->x;\n"
               "    const double *restrict a = e->alg;\n"
               "    double *restrict dx = e->dx;\n    (void)x; (void)a; (void)dx;\n",
               false, 0, 0};
    cp_chunk_begin(&cg->p, &c);
    for (int i = 0; i < s->nstates; i++) {
        StVar *x = s->vars.items[s->state_var[i]];
        StVar *dx = s->vars.items[x->deriv];
        cp_chunk_item(&cg->p, &c);
        cp_emit(&cg->p, "    dx[%d] = %s[%d];\n", i, dx->state ? "x" : "a", dx->slot);
    }
    cp_chunk_end(&cg->p, &c);
    cp_emit(&cg->p, "static int eval(RtEval *e)\n{\n    int r;\n    (void)r;\n");
    for (int i = 0; i < parts; i++)
        cp_emit(&cg->p, "    if ((r = eval_%d(e)) != 0) return r;\n", i);
    cp_emit(&cg->p, "    if (e->dx)\n        derivatives(e);\n");
    cp_emit(&cg->p, "    return 0;\n}\n\n");
}

/* Columns: every name of every variable. */
static int emit_columns(Cg *cg, int **col_of_var)
{
    Dae *d = cg->d;
    int ncol = 0;
    *col_of_var = calloc((size_t)d->vars.n + 1, sizeof(int));
    if (!*col_of_var)
        abort();
    cp_emit(&cg->p, "static const char *const column_names[] = {\n");
    for (int i = 0; i < d->vars.n; i++) {
        DaeVar *v = d->vars.items[i];
        (*col_of_var)[i] = ncol;
        for (int j = 0; j < v->names.n; j++) {
            cp_emit(&cg->p, "    ");
            cp_str(&cg->p, v->names.items[j]);
            cp_emit(&cg->p, ",\n");
            ncol++;
        }
    }
    cp_emit(&cg->p, "    \"\"\n};\n\n");
    cg->p.modes = false;
    CpChunk c = {"columns", "const RtEval *e, double *out", "e, out", RO_LOCALS, false, 0, 0};
    cp_chunk_begin(&cg->p, &c);
    int col = 0;
    for (int i = 0; i < d->vars.n; i++) {
        DaeVar *v = d->vars.items[i];
        cp_chunk_item(&cg->p, &c);
        cp_reset(&cg->p);
        DaeExpr *val = v->eliminated ? v->alias_expr : dae_var(&d->t, i, 0);
        cp_count(&cg->p, val);
        cp_temps(&cg->p, val);
        cp_emit(&cg->p, "    out[%d] = ", col);
        cp_expr(&cg->p, val);
        cp_emit(&cg->p, ";\n");
        for (int j = 1; j < v->names.n; j++)
            cp_emit(&cg->p, "    out[%d] = out[%d];\n", col + j, col);
        col += v->names.n;
    }
    cp_chunk_end(&cg->p, &c);
    return ncol;
}

static int emit_targets(Cg *cg, const int *col_of_var)
{
    Dae *d = cg->d;
    int n = 0;
    cp_emit(&cg->p, "static const RtTargetInfo targets[] = {\n");
    for (int i = 0; i < d->vars.n; i++) {
        DaeVar *v = d->vars.items[i];
        if (v->priority == PRIO_NONE)
            continue;
        /* the state this variable is, directly (itself, or a plain alias) */
        int state1 = 0;
        const DaeExpr *val = v->eliminated ? v->alias_expr : NULL;
        int w = !v->eliminated ? i : val && val->kind == DX_VAR && val->u.var.order == 0
                                      ? val->u.var.index : -1;
        int sv = w >= 0 ? stvar(cg, w, 0) : -1;
        if (sv >= 0 && ((StVar *)cg->s->vars.items[sv])->state)
            state1 = ((StVar *)cg->s->vars.items[sv])->slot + 1;
        cp_emit(&cg->p, "    {%d, %d, %d},\n", col_of_var[i], v->priority == PRIO_HIGH, state1);
        n++;
    }
    if (!n)
        cp_emit(&cg->p, "    {0, 0, 0},\n");
    cp_emit(&cg->p, "};\n\n");
    CpChunk c = {"target_values", "const double *p, double *v, double *nom", "p, v, nom",
               "    (void)p; (void)v; (void)nom;\n", false, 0, 0};
    cp_chunk_begin(&cg->p, &c);
    int k = 0;
    for (int i = 0; i < d->vars.n; i++) {
        DaeVar *x = d->vars.items[i];
        if (x->priority == PRIO_NONE)
            continue;
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
        k++;
    }
    cp_chunk_end(&cg->p, &c);
    return n;
}

static void emit_relations(Cg *cg)
{
    Dae *d = cg->d;
    cp_emit(&cg->p, "static const RtRelationInfo relations[] = {\n");
    for (int i = 0; i < cg->rels.n; i++) {
        DaeExpr *r = cg->rels.items[i];
        DaeRelOrigin *o = dae_rel_origin(&d->t, r);
        cp_emit(&cg->p, "    {");
        cp_str(&cg->p, o ? o->instance : "");
        cp_emit(&cg->p, ", ");
        char *text = o ? cp_source_text(o->span) : strdup("?");
        cp_str(&cg->p, text);
        free(text);
        cp_emit(&cg->p, ", ");
        if (o)
            cp_location(&cg->p, o->span);
        else
            cp_str(&cg->p, "");
        int g = cg->guard[i] >= 0 ? cg->guard[i] : -1;
        cp_emit(&cg->p, ", %d, %d},\n", g, g >= 0 ? cg->guard_value[i] : 0);
    }
    if (!cg->rels.n)
        cp_emit(&cg->p, "    {\"\", \"\", \"\", -1, 0},\n");
    cp_emit(&cg->p, "};\n\n");
    cg->p.modes = false;
    CpChunk cz = {"zero_crossings", "const RtEval *e, double *g", "e, g",
                RO_LOCALS "    (void)g;\n", false, 0, 0};
    cp_chunk_begin(&cg->p, &cz);
    for (int i = 0; i < cg->rels.n; i++) {
        DaeExpr *r = cg->rels.items[i];
        cp_chunk_item(&cg->p, &cz);
        cp_reset(&cg->p);
        /* g > 0 exactly when the relation holds (>= for non-strict ones) */
        bool flip = r->kind == DX_LT || r->kind == DX_LE;
        DaeExpr *g = flip ? dae_sub(&d->t, r->u.bin.b, r->u.bin.a)
                          : dae_sub(&d->t, r->u.bin.a, r->u.bin.b);
        cg->p.modes = true; /* operands read frozen modes of inner relations */
        cp_count(&cg->p, g);
        cp_temps(&cg->p, g);
        cp_emit(&cg->p, "    g[%d] = ", i);
        cp_expr(&cg->p, g);
        cp_emit(&cg->p, ";\n");
        cg->p.modes = false;
    }
    cp_chunk_end(&cg->p, &cz);
    CpChunk cr = {"relation_values", "const RtEval *e, int *truth", "e, truth",
                RO_LOCALS "    (void)truth;\n", false, 0, 0};
    cp_chunk_begin(&cg->p, &cr);
    for (int i = 0; i < cg->rels.n; i++) {
        DaeExpr *r = cg->rels.items[i];
        cp_chunk_item(&cg->p, &cr);
        cp_reset(&cg->p);
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

static void emit_asserts(Cg *cg)
{
    Dae *d = cg->d;
    cp_emit(&cg->p, "static const RtAssertInfo asserts[] = {\n");
    for (int i = 0; i < d->asserts.n; i++) {
        DaeAssert *a = d->asserts.items[i];
        cp_emit(&cg->p, "    {");
        cp_str(&cg->p, a->instance);
        cp_emit(&cg->p, ", ");
        cp_str(&cg->p, a->message);
        cp_emit(&cg->p, ", ");
        cp_location(&cg->p, a->span);
        cp_emit(&cg->p, "},\n");
    }
    if (!d->asserts.n)
        cp_emit(&cg->p, "    {\"\", \"\", \"\"},\n");
    cp_emit(&cg->p, "};\n\n");
    cg->p.modes = false;
    CpChunk c = {"check_asserts", "const RtEval *e", "e", RO_LOCALS, true, 0, 0};
    cp_chunk_begin(&cg->p, &c);
    for (int i = 0; i < d->asserts.n; i++) {
        DaeAssert *a = d->asserts.items[i];
        cp_chunk_item(&cg->p, &c);
        cp_reset(&cg->p);
        cp_count(&cg->p, a->cond);
        cp_temps(&cg->p, a->cond);
        cp_emit(&cg->p, "    if (!(");
        cp_expr(&cg->p, a->cond);
        cp_emit(&cg->p, ")) return %d;\n", i);
    }
    cp_chunk_end(&cg->p, &c);
}

static void emit_blocks(Cg *cg)
{
    Dae *d = cg->d;
    Structure *s = cg->s;
    cp_emit(&cg->p, "static const RtBlockInfo blocks[] = {\n");
    DaeNames nm = dae_names(d);
    for (int k = 0; k < s->blocks.n; k++) {
        StBlock *b = s->blocks.items[k];
        StEq *q = s->eqs.items[b->eqs[0]];
        DaeEq *o = d->eqs.items[q->base];
        char *what = NULL;
        size_t sz = 0;
        FILE *fp = open_memstream(&what, &sz);
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
        fclose(fp);
        if (strlen(what) > 400)
            strcpy(what + 396, "...");
        cp_emit(&cg->p, "    {%d, ", b->n);
        cp_str(&cg->p, what);
        free(what);
        cp_emit(&cg->p, ", ");
        cp_location(&cg->p, o->span);
        cp_emit(&cg->p, "},\n");
    }
    if (!s->blocks.n)
        cp_emit(&cg->p, "    {0, \"\", \"\"},\n");
    cp_emit(&cg->p, "};\n\n");
}

/* ---- the Jacobian's sparsity -------------------------------------------- */

/* Which states each unknown depends on, through the blocks in order (the
   unknowns of one block share their inputs).  Sets are sorted arrays; a
   set that would exceed the cap means "dense", and the whole pattern is
   then dropped (the runtime's dense differences are as good). */
typedef struct DepSet {
    int *s;             /* state indices */
    int n;              /* entries, or -1 for dense */
} DepSet;

static int emit_sparsity(Cg *cg)
{
    Structure *s = cg->s;
    int ns = s->nstates;
    if (ns < 8)
        return 0; /* dense is as cheap */
    int cap = ns / 4 + 8;
    DepSet *dep = calloc((size_t)s->vars.n + 1, sizeof *dep);
    int *mark = calloc((size_t)ns + 1, sizeof(int)), stamp = 0;
    int *buf = malloc(sizeof(int) * (size_t)(ns + 1));
    if (!dep || !mark || !buf)
        abort();
    bool dense = false;
    for (int k = 0; k < s->blocks.n && !dense; k++) {
        StBlock *b = s->blocks.items[k];
        stamp++;
        int n = 0;
        for (int i = 0; i < b->n && !dense; i++) {
            StEq *q = s->eqs.items[b->eqs[i]];
            for (int a = 0; a < q->nadj && !dense; a++) {
                StVar *x = s->vars.items[q->adj[a]];
                if (x->state) {
                    if (mark[x->slot] != stamp) {
                        mark[x->slot] = stamp;
                        buf[n++] = x->slot;
                    }
                    continue;
                }
                DepSet *d = &dep[q->adj[a]];
                if (d->n < 0) {
                    dense = true;
                    break;
                }
                for (int j = 0; j < d->n; j++) {
                    if (mark[d->s[j]] != stamp) {
                        mark[d->s[j]] = stamp;
                        buf[n++] = d->s[j];
                    }
                }
            }
            if (n > cap)
                dense = true;
        }
        if (dense)
            break;
        for (int i = 0; i < b->n; i++) {
            DepSet *d = &dep[b->vars[i]];
            d->n = n;
            d->s = malloc(sizeof(int) * (size_t)(n + 1));
            if (!d->s)
                abort();
            memcpy(d->s, buf, sizeof(int) * (size_t)n);
        }
    }
    int ncolors = 0;
    if (!dense) {
        /* rows: state i's derivative; CSC by counting */
        int *colcount = calloc((size_t)ns + 1, sizeof(int));
        int *rowptr = calloc((size_t)ns + 2, sizeof(int));
        for (int i = 0; i < ns; i++) {
            StVar *x = s->vars.items[s->state_var[i]];
            StVar *dx = s->vars.items[x->deriv];
            if (dx->state) {
                colcount[dx->slot]++;
                rowptr[i + 1] = 1;
            } else {
                DepSet *d = &dep[x->deriv];
                for (int j = 0; j < d->n; j++)
                    colcount[d->s[j]]++;
                rowptr[i + 1] = d->n;
            }
        }
        for (int i = 0; i < ns; i++)
            rowptr[i + 1] += rowptr[i];
        int *rowcols = malloc(sizeof(int) * (size_t)(rowptr[ns] + 1));
        for (int i = 0; i < ns; i++) {
            StVar *x = s->vars.items[s->state_var[i]];
            StVar *dx = s->vars.items[x->deriv];
            if (dx->state)
                rowcols[rowptr[i]] = dx->slot;
            else
                memcpy(rowcols + rowptr[i], dep[x->deriv].s, sizeof(int) * (size_t)dep[x->deriv].n);
        }
        int *colptr = calloc((size_t)ns + 2, sizeof(int));
        for (int j = 0; j < ns; j++)
            colptr[j + 1] = colptr[j] + colcount[j];
        int *fill = calloc((size_t)ns + 1, sizeof(int));
        int *rows = malloc(sizeof(int) * (size_t)(colptr[ns] + 1));
        for (int i = 0; i < ns; i++)
            for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
                int j = rowcols[k];
                rows[colptr[j] + fill[j]++] = i;
            }
        /* greedy coloring: a column takes the first color no column
           sharing one of its rows has */
        int *color = malloc(sizeof(int) * (size_t)(ns + 1));
        int *used = calloc((size_t)ns + 2, sizeof(int));
        for (int j = 0; j < ns; j++)
            color[j] = -1;
        for (int j = 0; j < ns; j++) {
            stamp++;
            for (int k = colptr[j]; k < colptr[j + 1]; k++) {
                int i = rows[k];
                for (int q = rowptr[i]; q < rowptr[i + 1]; q++) {
                    int c = color[rowcols[q]];
                    if (c >= 0)
                        used[c] = stamp;
                }
            }
            int c = 0;
            while (used[c] == stamp)
                c++;
            color[j] = c;
            if (c + 1 > ncolors)
                ncolors = c + 1;
        }
        if (ncolors * 2 > ns) {
            ncolors = 0; /* hardly sparse: dense differences */
        } else {
            cp_emit(&cg->p, "static const int jac_color[] = {");
            for (int j = 0; j < ns; j++)
                cp_emit(&cg->p, "%s%d", cp_list_sep(j), color[j]);
            cp_emit(&cg->p, "\n};\n\nstatic const int jac_colptr[] = {");
            for (int j = 0; j <= ns; j++)
                cp_emit(&cg->p, "%s%d", cp_list_sep(j), colptr[j]);
            cp_emit(&cg->p, "\n};\n\nstatic const int jac_rows[] = {");
            for (int k = 0; k < colptr[ns]; k++)
                cp_emit(&cg->p, "%s%d", cp_list_sep(k), rows[k]);
            if (!colptr[ns])
                cp_emit(&cg->p, "0");
            cp_emit(&cg->p, "\n};\n\n");
        }
        free(colcount); free(rowptr); free(rowcols); free(colptr); free(fill);
        free(rows); free(color); free(used);
    }
    for (int i = 0; i < s->vars.n; i++)
        free(dep[i].s);
    free(dep);
    free(mark);
    free(buf);
    return ncolors;
}

char *cg_generate(Dae *d, Structure *s, const char *model)
{
    Cg cg = {0};
    cg.d = d;
    cg.s = s;
    cg.p.var = emit_var;
    cg.p.var_ctx = &cg;
    cg.p.modes_of = &cg.rel_index;
    int nv = d->vars.n;
    cg.slot_of = calloc((size_t)nv + 1, sizeof(int *));
    cg.norders = calloc((size_t)nv + 1, sizeof(int));
    if (!cg.slot_of || !cg.norders)
        abort();
    for (int i = 0; i < s->vars.n; i++) {
        StVar *x = s->vars.items[i];
        if (x->order + 1 > cg.norders[x->var])
            cg.norders[x->var] = x->order + 1;
    }
    for (int v = 0; v < nv; v++) {
        cg.slot_of[v] = calloc((size_t)cg.norders[v] + 1, sizeof(int));
        if (!cg.slot_of[v])
            abort();
        for (int k = 0; k < cg.norders[v]; k++)
            cg.slot_of[v][k] = -1;
    }
    for (int i = 0; i < s->vars.n; i++) {
        StVar *x = s->vars.items[i];
        cg.slot_of[x->var][x->order] = i;
    }
    /* relations with modes: those in the equations being solved */
    PtrMap seen = {0};
    for (int i = 0; i < s->eqs.n; i++)
        find_relations(&cg, ((StEq *)s->eqs.items[i])->res, &seen);
    ptrmap_free(&seen);
    cg.guard = malloc(sizeof(int) * (size_t)(cg.rels.n + 1));
    cg.guard_value = calloc((size_t)cg.rels.n + 1, sizeof(int));
    if (!cg.guard || !cg.guard_value)
        abort();
    for (int i = 0; i < cg.rels.n; i++)
        cg.guard[i] = -2;
    GuardWalk gw = {{0}};
    for (int i = 0; i < s->eqs.n; i++)
        walk_guards(&cg, &gw, ((StEq *)s->eqs.items[i])->res, -1, 0);
    ptrmap_free(&gw.seen);
    /* a guard must itself be unguarded, or chains could hide events */
    for (int i = 0; i < cg.rels.n; i++)
        if (cg.guard[i] >= 0 && cg.guard[cg.guard[i]] >= 0)
            cg.guard[i] = -1;

    cp_emit(&cg.p, "/* Generated by lmdlc %s from model ", LMDL_VERSION);
    /* the model name is an identifier, but keep comments free of any text
       that could close them */
    for (const char *c = model; *c; c++)
        cp_emit(&cg.p, "%c", (*c == '*' || *c == '/') ? '_' : *c);
    cp_emit(&cg.p, ".  Do not edit. */\n");
    cp_emit(&cg.p, "#include \"rt_model.h\"\n#include <math.h>\n#include <stddef.h>\n\n");
    cg.p.modes = true;
    emit_params(&cg);
    emit_states(&cg);
    emit_eval(&cg);
    int *col_of_var = NULL;
    int ncol = emit_columns(&cg, &col_of_var);
    int ntargets = emit_targets(&cg, col_of_var);
    free(col_of_var);
    emit_relations(&cg);
    emit_asserts(&cg);
    emit_blocks(&cg);
    int ncolors = emit_sparsity(&cg);
    cp_emit(&cg.p, "const RtModel rt_model = {\n");
    cp_emit(&cg.p, "    RT_ABI_VERSION,\n    ");
    cp_str(&cg.p, model);
    cp_emit(&cg.p, ",\n    %d, params, derive_params,\n", d->params.n);
    cp_emit(&cg.p, "    %d, state_names, start,\n", s->nstates);
    cp_emit(&cg.p, "    %d, alg_start,\n    eval,\n", s->nalg);
    cp_emit(&cg.p, "    %d, column_names, columns,\n", ncol);
    cp_emit(&cg.p, "    %d, targets, target_values,\n", ntargets);
    cp_emit(&cg.p, "    %d, relations, zero_crossings, relation_values,\n", cg.rels.n);
    cp_emit(&cg.p, "    %d, asserts, check_asserts,\n", d->asserts.n);
    cp_emit(&cg.p, "    %d, blocks,\n", s->blocks.n);
    if (ncolors)
        cp_emit(&cg.p, "    %d, jac_color, jac_colptr, jac_rows,\n};\n", ncolors);
    else
        cp_emit(&cg.p, "    0, NULL, NULL, NULL,\n};\n");

    for (int v = 0; v < nv; v++)
        free(cg.slot_of[v]);
    free(cg.slot_of);
    free(cg.norders);
    ptrmap_free(&cg.p.uses);
    ptrmap_free(&cg.p.temp);
    ptrmap_free(&cg.rel_index);
    free(cg.guard);
    free(cg.guard_value);
    return cg.p.buf.s;
}

int cg_write_file(const char *path, const char *text)
{
    size_t n = strlen(path) + 32;
    char *tmp = malloc(n);
    if (!tmp)
        abort();
    snprintf(tmp, n, "%s.tmp%ld", path, (long)getpid());
    FILE *fp = fopen(tmp, "wb");
    if (!fp) {
        free(tmp);
        return -1;
    }
    size_t len = strlen(text);
    bool ok = fwrite(text, 1, len, fp) == len;
    ok &= fclose(fp) == 0;
    if (!ok || rename(tmp, path) != 0) {
        int err = errno;
        remove(tmp);
        free(tmp);
        errno = err;
        return -1;
    }
    free(tmp);
    return 0;
}
