/*
 * plan_eval.c - what eval computes, and when (plan.h).
 *
 * The solver's evaluations.  An explicit stepper evaluates the model 6 to
 * 13 times per step, an implicit one more for its Jacobian, and all it
 * uses of an evaluation is the derivative.  The runtime then evaluates
 * the accepted state once more, completely, for the relations, the
 * assertions, the events and the rows.  So eval's statements are split:
 * those the derivatives need, the relations (a failed trial point is
 * retried with the modes its relations give, rt_eval_past; the event
 * search probes them), the assertions and the delays' arguments (read
 * after every accepted step), come first and are computed at every
 * evaluation; the others (forces nobody integrates, aliases, the
 * unknowns of a symbolic loop that feed no derivative) follow and are
 * computed only by complete evaluations (RtEval.partial clear): for the
 * rows and at events.  The unit is the statement: one
 * unknown of an explicit or symbolically eliminated block, or a whole
 * LU or Newton block.  A statement is the solver's when a root or
 * another solver's statement reads its unknown; each group keeps the
 * blocks' order, and a solver's statement never reads a later one, so
 * both orders are valid.  A solver's statement that only one other
 * reads is computed inside that one, and stored by complete evaluations
 * only (plan_inline.c).
 *
 * Copies.  Index reduction and connections leave statements that only
 * copy a value (der(ma.x) = ma.v, der(der(mb.x)) = der(mb.v)).  Such a
 * statement, when its pivot is a nonzero constant, is not computed: its
 * unknown reads as the one it copies, wherever it is printed (eval, the
 * derivatives, the columns, the relations), so no value is stored twice.
 *
 * Constants.  A subexpression of parameters and constants alone (a lever
 * ratio r12 / (r12 + r23), the pivot of an eliminated loop) has the same
 * value at every evaluation.  The largest such subexpressions of eval,
 * the loops, the relations and the columns are computed once, after the
 * parameters are set (at the end of derive_params), into the slots
 * p[n_params + k] that follow the parameters.  Their order is the nodes'
 * creation order, so a constant's parts that are constants themselves
 * come before it.  On a large model their slots are not in that order:
 * see plan_const_slots, which also copies the parameters the solver's
 * evaluations read next to them.
 *
 * Reciprocals.  A quotient a / b whose divisor is constant (a parameter,
 * a constant of them, a number) is computed as a * (1 / b), 1 / b being
 * a constant like the others: a multiplication instead of a division,
 * which costs 4 to 13 times as much (the lever chain's eval had four
 * divisions per lever, the hand-written right-hand side one).  Like the
 * C compiler's -freciprocal-math, the result may differ from the
 * quotient in its last bit; a divisor of 0 gives an infinite reciprocal,
 * so a * (1 / 0) is infinite or NaN as a / 0 is, and the check after the
 * evaluation names the variable as before.  (Only a divisor below
 * 2.2e-308, subnormal, whose reciprocal overflows, differs more.)
 */
#include "plan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Statements per part of eval (a part is one C function). */
enum { EVAL_PART_STMTS = 64 };

static StVar *stv(const Plan *p, int i)
{
    return p->s->vars.items[i];
}

/* ---- relations in states ------------------------------------------------- */

/* Relations whose operands read algebraic values need an evaluation of
   the model at every point the runtime probes for a crossing.  Where the
   values they read are explicit statements (or symbolically eliminated
   ones) of states, time and parameters, the operands are rewritten over
   those, up to INLINE_MAX nodes: the probes then need no evaluation.
   Modes and delays inside stay as they are (the same frozen values eval
   reads), so the rewritten relation computes exactly what eval would. */
enum { INLINE_MAX = 200 };

typedef struct Inline {
    Plan *p;
    PtrMap memo;            /* node -> rewritten node (modes: themselves) */
    int *block_of;          /* per StVar: its block, or -1 */
    int *index_of;          /* per StVar: its unknown in that block */
} Inline;

static DaeExpr *inline_leaf(void *ctx, DaeExprTable *t, const DaeExpr *leaf)
{
    Inline *in = ctx;
    Plan *p = in->p;
    int sv = plan_read_stvar(p, leaf->u.var.index, leaf->u.var.order);
    if (sv < 0)
        return (DaeExpr *)leaf;
    StVar *x = stv(p, sv);
    if (x->state)
        return dae_var(t, x->var, x->order);
    int k = in->block_of[sv], i = in->index_of[sv];
    if (k < 0)
        return (DaeExpr *)leaf;
    const PlanBlock *b = &p->blocks[k];
    DaeExpr *value = b->method == PLAN_EXPLICIT ? b->solved
                     : b->method == PLAN_SYMBOLIC ? b->values[i] : NULL;
    PlanCheck check = b->method == PLAN_EXPLICIT ? b->pivot_check[0]
                      : b->method == PLAN_SYMBOLIC ? b->pivot_check[i] : CHECK_EVAL;
    if (!value || check == CHECK_EVAL)
        return (DaeExpr *)leaf;     /* a loop, or a pivot eval checks */
    return dae_substitute(t, value, inline_leaf, in, &in->memo);
}

/* Whether the relation functions, evaluating e, read an algebraic value
   (modes and delays other than the top are read as they are: a mode's
   operands are not evaluated), counting the nodes into *n (stops past
   INLINE_MAX). */
static bool live_reads_alg(const Plan *p, const DaeExpr *e, bool top, PtrMap *seen, int *n)
{
    if (!dae_has_var(e) || ptrmap_get(seen, e))
        return false;
    ptrmap_put(seen, e, (void *)e);
    if (++*n > INLINE_MAX)
        return true;
    if (e->kind == DX_VAR) {
        int sv = plan_stvar(p, e->u.var.index, e->u.var.order);
        return sv >= 0 && !stv(p, sv)->state;
    }
    if (e->kind == DX_DELAY)
        return true;
    if (!top && ptrmap_get(&p->rel_index, e))
        return false;
    DaeExpr *ops[5];
    for (int i = 0, no = dae_operands(e, ops); i < no; i++)
        if (live_reads_alg(p, ops[i], false, seen, n))
            return true;
    return false;
}

/* A relation on time alone: what its functions evaluate reads no variable
   and no delay, only time, parameters, event variables and the modes of
   other relations (the runtime finds its crossings before it steps). */
static void plan_time_relations(Plan *p)
{
    for (int i = 0; i < p->nrels; i++) {
        PlanRelation *r = &p->rels[i];
        if (r->reads_alg || dae_has_var(r->live) || dae_has_var(r->crossing))
            continue;
        PtrMap seen = {0};
        r->time_only = !plan_contains_delay(r->live, &seen)
                       && !plan_contains_delay(r->crossing, &seen);
        ptrmap_free(&seen);
    }
}

static void plan_live_relations(Plan *p)
{
    DaeExprTable *t = &p->d->t;
    int nv = p->s->vars.n;
    for (int i = 0; i < p->nrels; i++)
        p->rels[i].live = p->rels[i].rel;
    Inline in = {p, {0}, mem_calloc((size_t)nv + 1, sizeof(int)),
                 mem_calloc((size_t)nv + 1, sizeof(int))};
    for (int i = 0; i < nv; i++)
        in.block_of[i] = -1;
    for (int k = 0; k < p->nblocks; k++)
        for (int i = 0; i < p->blocks[k].n; i++) {
            in.block_of[p->blocks[k].vars[i]] = k;
            in.index_of[p->blocks[k].vars[i]] = i;
        }
    for (int i = 0; i < p->nrels; i++)
        ptrmap_put(&in.memo, p->rels[i].rel, p->rels[i].rel);
    for (int i = 0; i < p->delays.n; i++)
        ptrmap_put(&in.memo, p->delays.items[i], p->delays.items[i]);
    for (int i = 0; i < p->nrels; i++) {
        PlanRelation *r = &p->rels[i];
        if (!r->reads_alg)
            continue;
        DaeExpr *rel = r->rel, *live, *crossing;
        if (rel->kind == DX_SEGMENT) {
            crossing = dae_substitute(t, rel->u.seg.x, inline_leaf, &in, &in.memo);
            live = rel;
        } else {
            DaeExpr *a = dae_substitute(t, rel->u.bin.a, inline_leaf, &in, &in.memo);
            DaeExpr *b = dae_substitute(t, rel->u.bin.b, inline_leaf, &in, &in.memo);
            live = dae_binary(t, (DaeExprKind)rel->kind, a, b);
            if (live->kind != rel->kind || live->u.bin.a != a || live->u.bin.b != b)
                continue;   /* folded or reordered: keep the evaluation */
            bool flip = rel->kind == DX_LT || rel->kind == DX_LE;
            crossing = flip ? dae_sub(t, b, a) : dae_sub(t, a, b);
        }
        PtrMap seen = {0};
        int n = 0;
        bool alg = live_reads_alg(p, live == rel ? crossing : live, true, &seen, &n);
        ptrmap_free(&seen);
        if (alg)
            continue;
        r->live = live;
        r->crossing = crossing;
        r->reads_alg = false;
    }
    ptrmap_free(&in.memo);
    free(in.block_of);
    free(in.index_of);
}

/* ---- the statements ------------------------------------------------------ */

typedef struct Slice {
    Plan *p;
    int *stmt_of;           /* per StVar: its statement, or -1 */
    bool *solver;           /* per statement: the solver's */
    int *work;              /* statements to look at */
    int nwork;              /* entries in work */
} Slice;

static void need_stvar(Slice *sl, int sv)
{
    if (sv >= 0 && sl->p->copy_of[sv] >= 0)
        sv = sl->p->copy_of[sv];
    if (sv < 0 || stv(sl->p, sv)->state)
        return;
    int k = sl->stmt_of[sv];
    if (k < 0 || sl->solver[k])
        return;
    sl->solver[k] = true;
    sl->work[sl->nwork++] = k;
}

static void need_var(void *ctx, int var, int order)
{
    Slice *sl = ctx;
    need_stvar(sl, plan_stvar(sl->p, var, order));
}

/* The expressions statement st evaluates, into roots (at most cap). */
int plan_stmt_exprs(const Plan *p, PlanStmt st, DaeExpr **roots, int cap)
{
    const PlanBlock *b = &p->blocks[st.block];
    int n = 0;
    switch (b->method) {
    case PLAN_EXPLICIT:
        roots[n++] = b->solved;
        if (b->pivot_check[0] == CHECK_EVAL)
            roots[n++] = b->pivot;
        break;
    case PLAN_SYMBOLIC:
        roots[n++] = b->values[st.i];
        if (b->pivot_check[st.i] == CHECK_EVAL)
            roots[n++] = b->pivots[st.i];
        break;
    case PLAN_LU:
        for (int i = 0; i < b->n * b->n && n < cap; i++)
            roots[n++] = b->A[i];
        for (int i = 0; i < b->n && n < cap; i++)
            roots[n++] = b->r0[i];
        break;
    case PLAN_NEWTON:
        for (int i = 0; i < b->n && n < cap; i++)
            roots[n++] = b->res[i];
        for (int i = 0; i < b->n * b->n && n < cap; i++)
            roots[n++] = b->jac[i];
        break;
    default:
        break;
    }
    return n;
}

int plan_stmt_cap(const PlanBlock *b)
{
    return b->method == PLAN_EXPLICIT || b->method == PLAN_SYMBOLIC ? 2 : b->n * b->n + b->n;
}

DaeExpr **plan_roots_buffer(const Plan *p)
{
    int cap = 2;
    for (int k = 0; k < p->nblocks; k++) {
        int c = plan_stmt_cap(&p->blocks[k]);
        cap = c > cap ? c : cap;
    }
    return mem_calloc((size_t)cap + 1, sizeof(DaeExpr *));
}

/* The value statement (block k, unknown i) copies, as an StVar, or -1. */
static int copied(const Plan *p, int k, int i)
{
    const PlanBlock *b = &p->blocks[k];
    const DaeExpr *v = b->method == PLAN_EXPLICIT ? b->solved
                       : b->method == PLAN_SYMBOLIC ? b->values[i] : NULL;
    if (!v || v->kind != DX_VAR || b->pivot_check[b->method == PLAN_EXPLICIT ? 0 : i]
        != CHECK_NEVER)
        return -1;
    return plan_stvar(p, v->u.var.index, v->u.var.order);
}

/* Plan.copy_of, each copy resolved to the value it finally reads (the
   value copied is computed before the copy: an earlier block, or a later
   unknown of the same symbolic block). */
static void plan_copies(Plan *p)
{
    int nv = p->s->vars.n;
    p->copy_of = arena_alloc(&p->arena, sizeof(int) * (size_t)(nv + 1));
    for (int i = 0; i < nv; i++)
        p->copy_of[i] = -1;
    for (int k = 0; k < p->nblocks; k++) {
        const PlanBlock *b = &p->blocks[k];
        if (b->method != PLAN_EXPLICIT && b->method != PLAN_SYMBOLIC)
            continue;
        for (int i = b->n - 1; i >= 0; i--) {
            int src = copied(p, k, i);
            if (src < 0 || src == b->vars[i])
                continue;
            if (p->copy_of[src] >= 0)
                src = p->copy_of[src];
            p->copy_of[b->vars[i]] = src;
            p->ncopies++;
        }
    }
}

void plan_each_root(const Plan *p, DaeVarVisit fn, void *ctx)
{
    Structure *s = p->s;
    DaeExprTable *t = &p->d->t;
    /* every state's derivative, and what the relations read */
    for (int i = 0; i < s->nstates; i++) {
        StVar *x = stv(p, s->state_var[i]);
        if (x->deriv >= 0)
            fn(ctx, stv(p, x->deriv)->var, stv(p, x->deriv)->order);
    }
    for (int i = 0; i < p->nrels; i++) {
        DaeExpr *roots[2] = {p->rels[i].live, p->rels[i].crossing};
        dae_each_var(t, roots, 2, fn, ctx);
    }
    /* ... and what the runtime reads after every accepted step: the
       assertions' conditions and the delays' arguments */
    for (int i = 0; i < p->d->asserts.n; i++) {
        DaeExpr *cond = ((DaeAssert *)p->d->asserts.items[i])->cond;
        dae_each_var(t, &cond, 1, fn, ctx);
    }
    for (int i = 0; i < p->delays.n; i++) {
        DaeExpr *dl = p->delays.items[i];
        DaeExpr *roots[2] = {dl->u.cond.c, dl->u.cond.a};
        dae_each_var(t, roots, 2, fn, ctx);
    }
}

static void plan_stmts(Plan *p)
{
    Structure *s = p->s;
    int nst = 0;
    for (int k = 0; k < p->nblocks; k++) {
        const PlanBlock *b = &p->blocks[k];
        if (b->method != PLAN_EXPLICIT && b->method != PLAN_SYMBOLIC) {
            nst++;
            continue;
        }
        for (int i = 0; i < b->n; i++)
            nst += p->copy_of[b->vars[i]] < 0;
    }
    PlanStmt *all = mem_calloc((size_t)nst + 1, sizeof *all);
    Slice sl = {p, mem_calloc((size_t)s->vars.n + 1, sizeof(int)),
                mem_calloc((size_t)nst + 1, sizeof(bool)),
                mem_calloc((size_t)nst + 1, sizeof(int)), 0};
    for (int i = 0; i < s->vars.n; i++)
        sl.stmt_of[i] = -1;
    int n = 0;
    for (int k = 0; k < p->nblocks; k++) {
        const PlanBlock *b = &p->blocks[k];
        if (b->method == PLAN_EXPLICIT || b->method == PLAN_SYMBOLIC) {
            for (int i = b->n - 1; i >= 0; i--) {
                if (p->copy_of[b->vars[i]] >= 0)
                    continue;
                sl.stmt_of[b->vars[i]] = n;
                all[n++] = (PlanStmt){k, b->method == PLAN_EXPLICIT ? 0 : i, NULL};
            }
        } else {
            for (int i = 0; i < b->n; i++)
                sl.stmt_of[b->vars[i]] = n;
            all[n++] = (PlanStmt){k, -1, NULL};
        }
    }
    plan_each_root(p, need_var, &sl);
    DaeExpr **roots = plan_roots_buffer(p);
    while (sl.nwork > 0) {
        PlanStmt st = all[sl.work[--sl.nwork]];
        int nr = plan_stmt_exprs(p, st, roots, plan_stmt_cap(&p->blocks[st.block]));
        dae_each_var(&p->d->t, roots, nr, need_var, &sl);
    }
    free(roots);
    bool *moved = mem_calloc((size_t)nst + 1, sizeof(bool));
    plan_pick_inlined(p, all, nst, sl.solver, moved);
    p->nstmts = nst;
    p->stmts = arena_alloc(&p->arena, sizeof(PlanStmt) * (size_t)(nst + 1));
    p->block_solver = arena_alloc(&p->arena, sizeof(bool) * (size_t)(p->nblocks + 1));
    int m = 0;
    for (int i = 0; i < nst; i++) {
        if (sl.solver[i])
            p->block_solver[all[i].block] = true;
        if (sl.solver[i] && !moved[i])
            p->stmts[m++] = all[i];
    }
    p->nsolver = m;
    /* the moved statements first among the others: they read only the
       solver's values and each other's, in their order */
    for (int i = 0; i < nst; i++)
        if (moved[i]) {
            p->stmts[m++] = all[i];
            p->ninlined++;
        }
    for (int i = 0; i < nst; i++)
        if (!sl.solver[i])
            p->stmts[m++] = all[i];
    free(moved);
    /* parts of at most EVAL_PART_STMTS statements, none straddling the
       two groups */
    int solver_parts = (p->nsolver + EVAL_PART_STMTS - 1) / EVAL_PART_STMTS;
    int rest = nst - p->nsolver;
    int rest_parts = (rest + EVAL_PART_STMTS - 1) / EVAL_PART_STMTS;
    p->nparts_solver = solver_parts;
    p->nparts = solver_parts + rest_parts;
    p->part_start = arena_alloc(&p->arena, sizeof(int) * (size_t)(p->nparts + 1));
    for (int i = 0; i < solver_parts; i++)
        p->part_start[i] = i * EVAL_PART_STMTS;
    for (int i = 0; i < rest_parts; i++)
        p->part_start[solver_parts + i] = p->nsolver + i * EVAL_PART_STMTS;
    p->part_start[p->nparts] = nst;
    free(all);
    free(sl.stmt_of);
    free(sl.solver);
    free(sl.work);
}

/* The layout of a[]: the solver's unknowns first, so that the runtime
   can keep, copy and restore that prefix alone between rows. */
static void plan_slots(Plan *p)
{
    Structure *s = p->s;
    int nv = s->vars.n, next = 0;
    p->slot = arena_alloc(&p->arena, sizeof(int) * (size_t)(nv + 1));
    for (int i = 0; i < nv; i++)
        p->slot[i] = stv(p, i)->state ? stv(p, i)->slot : -1;
    for (int j = 0; j < p->nstmts; j++) {
        if (j == p->nsolver)
            p->nalg_solver = next;
        PlanStmt st = p->stmts[j];
        const PlanBlock *b = &p->blocks[st.block];
        for (int i = 0; i < b->n; i++)
            if (plan_stmt_writes(b, st, i) && p->slot[b->vars[i]] < 0)
                p->slot[b->vars[i]] = next++;
    }
    if (p->nsolver == p->nstmts)
        p->nalg_solver = next;
    for (int i = 0; i < nv; i++)
        if (p->slot[i] < 0)
            p->slot[i] = next++;   /* copies (never written) */
}

/* Which columns read what only complete evaluations compute: a row of
   columns that do not needs no evaluation beyond the solver's. */
typedef struct ColumnReads {
    const Plan *p;
    bool complete;
} ColumnReads;

static void column_var(void *ctx, int var, int order)
{
    ColumnReads *c = ctx;
    int sv = plan_read_stvar(c->p, var, order);
    if (sv >= 0 && !stv(c->p, sv)->state && !plan_solver_value(c->p, sv))
        c->complete = true;
}

static void plan_column_reads(Plan *p)
{
    for (int k = 0; k < p->ncolumns; k++) {
        PlanColumn *c = &p->columns[k];
        if (c->same_as >= 0) {
            c->complete = p->columns[c->same_as].complete;
            continue;
        }
        DaeExpr *val = plan_column_value(p, c);
        ColumnReads r = {p, false};
        if (val)
            dae_each_var(&p->d->t, &val, 1, column_var, &r);
        c->complete = r.complete;
    }
}

/* The states the relation functions read (Plan.rel_states). */
typedef struct RelStates {
    const Plan *p;
    bool *read;             /* per state */
} RelStates;

static void rel_state(void *ctx, int var, int order)
{
    RelStates *r = ctx;
    int sv = plan_read_stvar(r->p, var, order);
    if (sv >= 0 && stv(r->p, sv)->state)
        r->read[r->p->slot[sv]] = true;
}

static void plan_rel_states(Plan *p)
{
    int ns = p->s->nstates;
    RelStates r = {p, mem_calloc((size_t)ns + 1, sizeof(bool))};
    for (int i = 0; i < p->nrels; i++) {
        DaeExpr *roots[2] = {p->rels[i].live, p->rels[i].crossing};
        dae_each_var(&p->d->t, roots, 2, rel_state, &r);
    }
    p->rel_states = arena_alloc(&p->arena, sizeof(int) * (size_t)(ns + 1));
    for (int j = 0; j < ns; j++)
        if (r.read[j])
            p->rel_states[p->nrel_states++] = j;
    free(r.read);
}

/* ---- constants ------------------------------------------------------------ */

/* A node computed once: parameters and constants only (no variable,
   time, event variable or mode below it: the flags but DXF_FINITE), and
   not a leaf. */
bool plan_is_constant(const DaeExpr *e)
{
    return (e->flags & ~DXF_FINITE) == 0 && !dae_is_leaf(e);
}

static void find_consts(Plan *p, DaeExpr *e, PtrMap *seen)
{
    if (!e || dae_is_leaf(e) || ptrmap_get(seen, e))
        return;
    ptrmap_put(seen, e, e);
    if (plan_is_constant(e)) {
        ptrvec_push(&p->arena, &p->consts, e);
        return;
    }
    if (e->kind == DX_DIV) {
        DaeExpr *b = e->u.bin.b;
        if (b->kind == DX_PARAM || b->kind == DX_CONST || plan_is_constant(b)) {
            DaeExpr *r = dae_div(&p->d->t, dae_const(&p->d->t, 1), b);
            ptrmap_put(&p->recips, e, r);
            find_consts(p, r, seen);
            find_consts(p, e->u.bin.a, seen);
            return;
        }
    }
    DaeExpr *ops[5];
    for (int i = 0, n = dae_operands(e, ops); i < n; i++)
        find_consts(p, ops[i], seen);
}

static int by_id(const void *a, const void *b)
{
    const DaeExpr *x = *(DaeExpr *const *)a, *y = *(DaeExpr *const *)b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* ---- the slots of the constants ----------------------------------------- */

/* The values an explicit model reads at every evaluation, in the order it
   first reads them: the constants, and copies of the parameters (the
   parameters themselves lie in the order of the model's declarations,
   each component's next to each other, most of them unread there: on a
   chain of levers the solver's evaluation read two cache lines of p[]
   per lever, where its six values fit in one). */
typedef struct SlotOrder {
    Plan *p;
    uint8_t *seen;          /* per node id, a bit: walked */
    int *pos;               /* per constant (computation order): its slot, or -1 */
    int next;               /* the next free slot */
} SlotOrder;

static void order_reads(SlotOrder *o, DaeExpr *e)
{
    if (!e)
        return;
    if (e->kind == DX_PARAM) {
        if (!o->p->solver_copy[e->u.index])
            o->p->solver_copy[e->u.index] = 1 + o->next++;
        return;
    }
    if (dae_is_leaf(e) || (o->seen[e->id >> 3] >> (e->id & 7) & 1))
        return;
    o->seen[e->id >> 3] |= (uint8_t)(1u << (e->id & 7));
    if (plan_is_constant(e)) {
        int k = (int)(intptr_t)ptrmap_get(&o->p->const_index, e);
        if (k && o->pos[k - 1] < 0)
            o->pos[k - 1] = o->next++;
        return;
    }
    DaeExpr *r = e->kind == DX_DIV ? ptrmap_get(&o->p->recips, e) : NULL;
    if (r) {
        order_reads(o, e->u.bin.a);
        order_reads(o, r);
        return;
    }
    DaeExpr *ops[5];
    for (int i = 0, n = dae_operands(e, ops); i < n; i++)
        order_reads(o, ops[i]);
}

/* Below this many slots (parameters and constants: 8 KB), p[] is small
   enough to stay in the first-level cache whatever its order, and the
   generated C reads every parameter in place, under its own index. */
enum { COPY_MIN_SLOTS = 1024 };

/* Gives the constants and the copies their slots: first what the
   solver's statements and the relations read, in that order, then the
   other constants in their computation order.  Wherever eval or a
   relation reads a copied parameter, it reads the copy.  A small p[],
   or LMDL_PARAM_COPIES=no in the environment (tests/e2e/param_copies.sh
   compares the two), keeps the computation order and makes no copies. */
static void plan_const_slots(Plan *p)
{
    int nc = p->consts.n;
    p->solver_copy = arena_alloc(&p->arena, sizeof(int) * ((size_t)p->d->params.n + 1));
    p->nconst_slots = nc;
    /* the computation order, which the walk below reads to tell the
       constants, and then replaces with their slots */
    for (int i = 0; i < nc; i++)
        ptrmap_put(&p->const_index, p->consts.items[i], (void *)(intptr_t)(i + 1));
    const char *env = getenv("LMDL_PARAM_COPIES");
    if (p->d->params.n + nc < COPY_MIN_SLOTS || (env && strcmp(env, "no") == 0))
        return;
    SlotOrder o = {.p = p, .pos = mem_calloc((size_t)nc + 1, sizeof(int)),
                   .seen = mem_calloc((size_t)p->d->t.count / 8 + 1, 1)};
    for (int i = 0; i < nc; i++)
        o.pos[i] = -1;
    DaeExpr **roots = plan_roots_buffer(p);
    for (int j = 0; j < p->nsolver; j++) {
        const PlanStmt *st = &p->stmts[j];
        if (st->value) {
            order_reads(&o, st->value);
            continue;
        }
        int nr = plan_stmt_exprs(p, *st, roots, plan_stmt_cap(&p->blocks[st->block]));
        for (int i = 0; i < nr; i++)
            order_reads(&o, roots[i]);
    }
    free(roots);
    for (int i = 0; i < p->nrels; i++) {
        order_reads(&o, p->rels[i].live);
        order_reads(&o, p->rels[i].crossing);
    }
    free(o.seen);
    for (int i = 0; i < nc; i++) {
        if (o.pos[i] < 0)
            o.pos[i] = o.next++;
        ptrmap_put(&p->const_index, p->consts.items[i], (void *)(intptr_t)(o.pos[i] + 1));
    }
    p->nconst_slots = o.next;
    free(o.pos);
}

static void plan_consts(Plan *p)
{
    PtrMap seen = {0};
    DaeExpr **roots = plan_roots_buffer(p);
    for (int k = 0; k < p->nblocks; k++) {
        PlanBlock *b = &p->blocks[k];
        int cap = plan_stmt_cap(b);
        if (b->method == PLAN_SYMBOLIC) {
            for (int i = 0; i < b->n; i++) {
                int nr = plan_stmt_exprs(p, (PlanStmt){k, i, NULL}, roots, cap);
                for (int j = 0; j < nr; j++)
                    find_consts(p, roots[j], &seen);
            }
        } else {
            int nr = plan_stmt_exprs(p, (PlanStmt){k, 0, NULL}, roots, cap);
            for (int j = 0; j < nr; j++)
                find_consts(p, roots[j], &seen);
        }
    }
    free(roots);
    for (int j = 0; j < p->nsolver; j++)
        find_consts(p, p->stmts[j].value, &seen);
    for (int i = 0; i < p->nrels; i++) {
        find_consts(p, p->rels[i].live, &seen);
        find_consts(p, p->rels[i].crossing, &seen);
    }
    /* the pivots checked once, so that a table checks them (codegen) */
    for (int k = 0; k < p->nblocks; k++) {
        const PlanBlock *b = &p->blocks[k];
        if (b->method == PLAN_EXPLICIT && b->pivot_check[0] == CHECK_ONCE)
            find_consts(p, b->pivot, &seen);
        else if (b->method == PLAN_SYMBOLIC)
            for (int i = 0; i < b->n; i++)
                if (b->pivot_check[i] == CHECK_ONCE)
                    find_consts(p, b->pivots[i], &seen);
    }
    for (int i = 0; i < p->ncolumns; i++) {
        const PlanColumn *c = &p->columns[i];
        if (c->same_as >= 0)
            continue;
        DaeVar *v = c->var >= 0 ? p->d->vars.items[c->var] : NULL;
        find_consts(p, c->value ? c->value : !v ? c->expr : v->eliminated ? v->alias_expr : NULL,
                    &seen);
    }
    ptrmap_free(&seen);
    if (p->consts.n > 1)
        qsort(p->consts.items, (size_t)p->consts.n, sizeof *p->consts.items, by_id);
    plan_const_slots(p);
}

void plan_eval(Plan *p)
{
    plan_copies(p);
    plan_live_relations(p);
    plan_time_relations(p);
    plan_stmts(p);
    plan_slots(p);
    plan_inline_values(p);
    plan_column_reads(p);
    plan_rel_states(p);
    plan_consts(p);
}
