/*
 * plan_inline.c - the solver's statements made shorter (plan.h).
 *
 * Inlining.  An unknown that exactly one other statement of the solver's
 * evaluations reads, and nothing the runtime reads after one (a
 * derivative, a relation, an assertion, a delay, a loop), is computed
 * inside that statement: in a register, not stored in a[] (a lever's
 * projected length, its spring's stretch, the mass force of a chain of
 * such values).  Its own statement moves among those only complete
 * evaluations compute, for the rows and events, so the values are there
 * for every output; a column of such a value is computed from the
 * solver's values when that is plain arithmetic, so a row that writes it
 * needs no complete evaluation.  LMDL_INLINE=no stores every value.
 *
 * Constants.  In the solver's arithmetic, the constants (parameters,
 * numbers, and expressions of them, which plan_consts computes once) are
 * gathered: a region of + - * / is written as its linear form over the
 * rest (constant times term, summed, plus a constant) when that takes
 * fewer operations, which also makes a product's constant factors one
 * constant (fold_consts).  LMDL_FOLD=no turns it off.
 */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

/* Terms of one region that fold_consts writes as a linear form (and
   4 times as many nodes it looks at). */
enum { FOLD_MAX = 16 };

static StVar *stv(const Plan *p, int i)
{
    return p->s->vars.items[i];
}

/* ---- constants gathered in the solver's arithmetic ----------------------- */

/* A value known once the parameters are: a parameter, a number, or a
   subexpression of them (plan_consts computes it once). */
static bool const_factor(const DaeExpr *e)
{
    return e->kind == DX_PARAM || e->kind == DX_CONST || plan_is_constant(e);
}

static bool arith(const DaeExpr *e)
{
    return e->kind == DX_ADD || e->kind == DX_SUB || e->kind == DX_NEG || e->kind == DX_MUL
           || e->kind == DX_DIV;
}

/* A linear form: the sum of coef[i] * atom[i] and offset, the
   coefficients and the offset constants (NULL: 1, and no offset). */
typedef struct Linear {
    DaeExpr *atom[FOLD_MAX], *coef[FOLD_MAX];
    int n;
    DaeExpr *offset;
    bool over;              /* too many terms or nodes: not used */
    int visits;             /* nodes seen (a shared part is seen again) */
} Linear;

/* fold_consts' memos: a region's root, and a node inside a region. */
typedef struct Folds {
    PtrMap root, inner;
} Folds;

static DaeExpr *fold_consts(Plan *p, DaeExpr *e, Folds *f, bool root);

static DaeExpr *times(DaeExprTable *t, DaeExpr *coef, DaeExpr *c)
{
    return coef ? dae_mul(t, coef, c) : c;
}

/* Adds coef * e to the form: through +, -, unary -, a constant factor and
   a constant divisor; anything else is an atom (folded itself). */
static void linear_add(Plan *p, Linear *l, DaeExpr *e, DaeExpr *coef, Folds *memo)
{
    DaeExprTable *t = &p->d->t;
    if (++l->visits > 4 * FOLD_MAX || l->over) {
        l->over = true;
        return;
    }
    if (const_factor(e)) {
        DaeExpr *v = times(t, coef, e);
        l->offset = l->offset ? dae_add(t, l->offset, v) : v;
        return;
    }
    switch (dae_has_var(e) ? e->kind : DX_CONST) {
    case DX_ADD:
        linear_add(p, l, e->u.bin.a, coef, memo);
        linear_add(p, l, e->u.bin.b, coef, memo);
        return;
    case DX_SUB:
        linear_add(p, l, e->u.bin.a, coef, memo);
        linear_add(p, l, e->u.bin.b, coef ? dae_neg(t, coef) : dae_const(t, -1), memo);
        return;
    case DX_NEG:
        linear_add(p, l, e->u.bin.a, coef ? dae_neg(t, coef) : dae_const(t, -1), memo);
        return;
    case DX_MUL:
        if (const_factor(e->u.bin.a)) {
            linear_add(p, l, e->u.bin.b, times(t, coef, e->u.bin.a), memo);
            return;
        }
        if (const_factor(e->u.bin.b)) {
            linear_add(p, l, e->u.bin.a, times(t, coef, e->u.bin.b), memo);
            return;
        }
        break;
    case DX_DIV:
        if (const_factor(e->u.bin.b)) {
            linear_add(p, l, e->u.bin.a,
                       times(t, coef, dae_div(t, dae_const(t, 1), e->u.bin.b)), memo);
            return;
        }
        break;
    default:
        break;
    }
    DaeExpr *atom = fold_consts(p, e, memo, true);
    for (int i = 0; i < l->n; i++)
        if (l->atom[i] == atom) {
            l->coef[i] = dae_add(t, l->coef[i] ? l->coef[i] : dae_const(t, 1),
                                 coef ? coef : dae_const(t, 1));
            return;
        }
    if (l->n == FOLD_MAX) {
        l->over = true;
        return;
    }
    l->atom[l->n] = atom;
    l->coef[l->n++] = coef;
}

/* The operations the simulator performs for e: its arithmetic nodes that
   read a variable, each distinct node once (the rest are constants);
   counted up to OPS_CAP. */
enum { OPS_CAP = 4 * FOLD_MAX + 1 };

typedef struct Ops {
    const DaeExpr *seen[OPS_CAP];
    int n;
} Ops;

static void arith_ops(const DaeExpr *e, Ops *o)
{
    if (o->n >= OPS_CAP || !dae_has_var(e) || !arith(e))
        return;
    for (int i = 0; i < o->n; i++)
        if (o->seen[i] == e)
            return;
    o->seen[o->n++] = e;
    arith_ops(e->u.bin.a, o);
    if (e->kind != DX_NEG)
        arith_ops(e->u.bin.b, o);
}

/* Whether coefficient c is negative as written (a negative number or a
   negation), so that its term is subtracted. */
static bool minus_coef(const DaeExpr *c)
{
    return c && ((c->kind == DX_CONST && c->u.value < 0) || c->kind == DX_NEG);
}

/* The form as an expression: a term with a positive coefficient first
   (else the constant, the terms subtracted from it), the others in their
   order, a coefficient of -1 (or a negated constant) as a subtraction. */
static DaeExpr *linear_build(DaeExprTable *t, const Linear *l)
{
    int first = 0;
    while (first < l->n && minus_coef(l->coef[first]))
        first++;
    bool from_offset = first == l->n && l->offset;
    DaeExpr *r = from_offset ? l->offset : NULL;
    bool negate = false;
    if (first == l->n && !from_offset) {
        negate = true;          /* -(t1 + t2 + ...) */
        first = 0;
    }
    for (int k = -1; k < l->n; k++) {
        int i = k < 0 ? first : k;
        if (k >= 0 && k == first)
            continue;
        if (i >= l->n)
            continue;
        DaeExpr *c = l->coef[i];
        bool minus = minus_coef(c);
        if (minus)
            c = dae_neg(t, c);
        if (negate)
            minus = false;
        DaeExpr *term = !c || dae_is_const(c, 1) ? l->atom[i] : dae_mul(t, l->atom[i], c);
        r = !r ? term : minus ? dae_sub(t, r, term) : dae_add(t, r, term);
    }
    if (negate)
        r = dae_neg(t, r);
    return l->offset && !from_offset ? dae_add(t, r, l->offset) : r;
}

/* e with the constants of its arithmetic gathered (the solver's values;
   the rest are computed once per row).  Each largest region of + - * /
   and unary minus is written as its linear form over what is not
   (sum of constant * term, plus a constant), the constants multiplied and
   added once with the parameters (plan_consts), when that takes fewer
   operations than the region as written (counted by arith_ops):
   -((s - ((c1 * s - c2 * q) * c3)) * c4) becomes s * K1 + q * K2, three
   operations where there were seven, and a product's constant factors
   are one constant (-(c1 * ((x * c2) * c3)) is -(x * K)).  A region's
   atoms (a product of two variable operands, a function, an if) are
   regions of their own inside.  Like the C compiler's
   -fassociative-math, the result may differ from the original in its
   last bits.  Other nodes stay as they are, with what is under them.
   LMDL_FOLD=no in the environment turns this off (tests/e2e/fold.sh). */
static DaeExpr *fold_consts(Plan *p, DaeExpr *e, Folds *f, bool root)
{
    DaeExprTable *t = &p->d->t;
    if (!dae_has_var(e) || !arith(e))
        return e;
    PtrMap *memo = root ? &f->root : &f->inner;
    DaeExpr *done = ptrmap_get(memo, e);
    if (done)
        return done;
    /* as written, each operand folded (the operands of a product of two
       variable operands, or of a quotient by one, are regions of their
       own) */
    DaeExpr *r;
    bool linear = e->kind == DX_ADD || e->kind == DX_SUB || e->kind == DX_NEG
                  || ((e->kind == DX_MUL || e->kind == DX_DIV) && const_factor(e->u.bin.b))
                  || (e->kind == DX_MUL && const_factor(e->u.bin.a));
    if (e->kind == DX_NEG)
        r = dae_neg(t, fold_consts(p, e->u.bin.a, f, false));
    else
        r = dae_binary(t, (DaeExprKind)e->kind, fold_consts(p, e->u.bin.a, f, !linear),
                       fold_consts(p, e->u.bin.b, f, !linear));
    /* a region's root: its linear form, when that is shorter */
    if (root && linear) {
        Linear l = {.n = 0};
        linear_add(p, &l, e, NULL, f);
        if (!l.over && l.n > 0) {
            DaeExpr *lin = linear_build(t, &l);
            Ops a = {.n = 0}, b = {.n = 0};
            arith_ops(lin, &a);
            arith_ops(r, &b);
            if (a.n < b.n)
                r = lin;
        }
    }
    ptrmap_put(memo, e, r);
    return r;
}

/* ---- values the solver's statements inline ------------------------------ */

typedef struct Uses {
    const Plan *p;
    int *uses;              /* per StVar: the solver's statements reading it */
    bool *pinned;           /* per StVar: read where it must be stored */
    bool pin;               /* what the visit does: pin, or count */
} Uses;

static void use_var(void *ctx, int var, int order)
{
    Uses *u = ctx;
    int sv = plan_read_stvar(u->p, var, order);
    if (sv < 0)
        return;
    if (u->pin)
        u->pinned[sv] = true;
    else
        u->uses[sv]++;
}

/* A statement whose value can be printed inside another's: one unknown
   of an explicit or symbolic block, with no pivot checked in eval. */
static bool inlinable(const Plan *p, PlanStmt st)
{
    const PlanBlock *b = &p->blocks[st.block];
    if (b->method == PLAN_EXPLICIT)
        return b->pivot_check[0] != CHECK_EVAL;
    return b->method == PLAN_SYMBOLIC && b->pivot_check[st.i] != CHECK_EVAL;
}

static int stmt_stvar(const Plan *p, PlanStmt st)
{
    return p->blocks[st.block].vars[st.i < 0 ? 0 : st.i];
}

/* Which of the solver's statements are inlined (moved[j]): those whose
   unknown exactly one other solver's statement reads, and nothing the
   runtime reads after a solver's evaluation (a derivative, a relation,
   an assertion, a delay, a loop).  Such a value is computed where it is
   read, in a register rather than in a[], and stored by complete
   evaluations only (for the rows and events). */
void plan_pick_inlined(const Plan *p, const PlanStmt *all, int nst, const bool *solver,
                         bool *moved)
{
    Structure *s = p->s;
    DaeExprTable *t = &p->d->t;
    int nv = s->vars.n;
    Uses u = {p, mem_calloc((size_t)nv + 1, sizeof(int)),
              mem_calloc((size_t)nv + 1, sizeof(bool)), true};
    plan_each_root(p, use_var, &u);
    DaeExpr **roots = plan_roots_buffer(p);
    for (int j = 0; j < nst; j++) {
        if (!solver[j])
            continue;
        int nr = plan_stmt_exprs(p, all[j], roots, plan_stmt_cap(&p->blocks[all[j].block]));
        u.pin = !inlinable(p, all[j]);  /* a loop's or a checked pivot's */
        dae_each_var(t, roots, nr, use_var, &u);
    }
    free(roots);
    const char *env = getenv("LMDL_INLINE");   /* "no": none (tests/e2e/inline.sh) */
    bool off = env && !strcmp(env, "no");
    for (int j = 0; j < nst; j++) {
        int sv = stmt_stvar(p, all[j]);
        moved[j] = !off && solver[j] && inlinable(p, all[j]) && !u.pinned[sv]
                   && u.uses[sv] == 1;
    }
    free(u.uses);
    free(u.pinned);
}

typedef struct Inliner {
    Plan *p;
    DaeExpr **value;        /* per StVar: a moved statement's value, or NULL */
    PtrMap memo;            /* node -> rewritten node (modes: themselves) */
} Inliner;

static DaeExpr *inline_moved(void *ctx, DaeExprTable *t, const DaeExpr *leaf)
{
    Inliner *in = ctx;
    int sv = plan_read_stvar(in->p, leaf->u.var.index, leaf->u.var.order);
    if (sv < 0 || !in->value[sv])
        return (DaeExpr *)leaf;
    return dae_map_leaves(t, in->value[sv], DXF_VAR, inline_moved, in, &in->memo);
}

/* Whether e reads only what every evaluation computes (states, the
   solver's values, parameters, time, the modes), as eval would: no delay
   or table, whose reads the column code does not share with eval.  A
   relation with a mode is read as its mode (the column code prints it
   so, PlanColumn.value), its operands not at all. */
static bool solver_arith(const Plan *p, DaeExpr *e, PtrMap *seen)
{
    if (!dae_has_var(e) || ptrmap_get(seen, e))
        return true;
    ptrmap_put(seen, e, e);
    if (e->kind == DX_VAR) {
        int sv = plan_read_stvar(p, e->u.var.index, e->u.var.order);
        return sv >= 0 && (stv(p, sv)->state || plan_solver_value(p, sv));
    }
    if (ptrmap_get(&p->rel_index, e))
        return e->kind != DX_SEGMENT;
    if (e->kind == DX_DELAY || e->kind == DX_LOOKUP || e->kind == DX_SEGMENT)
        return false;
    DaeExpr *kids[3];
    for (int i = 0, nk = dae_children(e, kids); i < nk; i++)
        if (!solver_arith(p, kids[i], seen))
            return false;
    return true;
}

/* A column of a moved unknown: its value over the solver's, when that is
   arithmetic (solver_arith); otherwise it reads its slot, which complete
   evaluations fill, and a row that writes it asks for one. */
static void inline_columns(Plan *p, Inliner *in)
{
    DaeExprTable *t = &p->d->t;
    PtrMap seen = {0}; /* one column's walk at a time */
    for (int k = 0; k < p->ncolumns; k++) {
        PlanColumn *c = &p->columns[k];
        if (c->same_as >= 0)
            continue;
        DaeExpr *v = plan_column_value(p, c);
        DaeExpr *w = v ? dae_map_leaves(t, v, DXF_VAR, inline_moved, in, &in->memo) : v;
        if (w != v && solver_arith(p, w, &seen))
            c->value = w;
        ptrmap_clear(&seen);
    }
    ptrmap_free(&seen);
}

/* The solver's statements' values, with the moved statements' values
   inlined; and the columns of moved unknowns (inline_columns). */
void plan_inline_values(Plan *p)
{
    int nmoved = p->ninlined;
    DaeExprTable *t = &p->d->t;
    Inliner in = {p, mem_calloc((size_t)p->s->vars.n + 1, sizeof(DaeExpr *)), {0}};
    for (int j = p->nsolver; j < p->nsolver + nmoved; j++) {
        PlanStmt st = p->stmts[j];
        const PlanBlock *b = &p->blocks[st.block];
        in.value[stmt_stvar(p, st)] = b->method == PLAN_EXPLICIT ? b->solved : b->values[st.i];
    }
    for (int i = 0; i < p->nrels; i++)
        ptrmap_put(&in.memo, p->rels[i].rel, p->rels[i].rel);
    for (int i = 0; i < p->delays.n; i++)
        ptrmap_put(&in.memo, p->delays.items[i], p->delays.items[i]);
    const char *env = getenv("LMDL_FOLD");
    bool fold = !(env && !strcmp(env, "no"));
    Folds folds = {{0}, {0}};
    for (int j = 0; j < p->nsolver; j++) {
        PlanStmt *st = &p->stmts[j];
        if (!inlinable(p, *st))
            continue;
        const PlanBlock *b = &p->blocks[st->block];
        DaeExpr *v = b->method == PLAN_EXPLICIT ? b->solved : b->values[st->i];
        DaeExpr *w = nmoved ? dae_map_leaves(t, v, DXF_VAR, inline_moved, &in, &in.memo) : v;
        if (fold)
            w = fold_consts(p, w, &folds, true);
        st->value = w != v ? w : NULL;
    }
    ptrmap_free(&folds.root);
    ptrmap_free(&folds.inner);
    if (nmoved)
        inline_columns(p, &in);
    ptrmap_free(&in.memo);
    free(in.value);
}

