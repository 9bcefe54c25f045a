/*
 * balance.c - the local balance rule, checked at elaboration: every
 * component has, in its active arms, one equation per variable and
 * output (event variables are no unknowns), counting a for-loop of
 * equations once per iteration, an if-equation as one branch (and every
 * branch must hold as many), a mode chart as one mode, and each
 * connection that drives the component's own output (a composite may
 * write equations for its components' variables, as Simscape's do: its
 * surplus then covers their shortfall); and that each
 * branch variable has the size of its through variable.  Checked once per
 * component and arm pattern, per instance for a component with arrays,
 * whose sizes may differ between instances.
 */
#include "elab_internal.h"
#include "lower.h"

#include "diag.h"

#include <stdio.h>
#include <string.h>

typedef struct Count {
    int eqs;                /* equations in active arms */
    bool bad;               /* an if-equation's branches disagree */
    bool sizes;             /* elab_check_sizes: lower both sides of each
                               equation and compare their sizes */
    bool arrays;            /* elab_inst_arrays(in) */
    Model *m;               /* arrays: to unroll for-loops of equations ... */
    ElabInst *in;           /* ... in this instance */
} Count;

static int count_stmts(PtrVec *v, Count *c);

/* arrays: a for-loop of equations counts its body once per iteration. */
typedef struct CountLoop {
    Count *c;               /* the count */
    PtrVec *body;           /* the loop's statements */
    int total;              /* equations so far */
} CountLoop;

static bool count_iteration(void *ctx)
{
    CountLoop *l = ctx;
    l->total += count_stmts(l->body, l->c);
    return !l->c->bad;
}

static int count_loop(AstStmt *s, Count *c)
{
    CountLoop l = {c, &s->u.for_.body, 0};
    elab_unroll(c->m, c->in, &s->u.for_, true, count_iteration, &l);
    return l.total;
}

static int count_stmt(AstStmt *s, Count *c)
{
    if (s->kind == STMT_EQUATION) {
        /* a vector equation is one equation per element */
        if (!c->arrays)
            return 1;
        LowerValue l, r;
        if (c->sizes) {
            if (!lower_equation_sides(c->m, c->in, s, &l, &r))
                c->bad = true;
            return l.rows * l.cols;
        }
        l = lower_value(c->m, c->in, s->u.eq.lhs);
        if (l.rows * l.cols == 1 && !dae_depends_on_state(l.el[0])) {
            /* 0 == a - b: a constant side takes the other's size */
            r = lower_value(c->m, c->in, s->u.eq.rhs);
            return r.rows * r.cols;
        }
        return l.rows * l.cols;
    }
    if (s->kind == STMT_ASSERT)
        return 0;
    if (s->kind == STMT_LET) {
        if (!c->arrays)
            return count_stmts(&s->u.let_.body, c);
        /* the body's sizes may be its names' (a vector let) */
        ElabLocal *saved = c->m->locals;
        lower_local_defs(c->m, c->in, &s->u.let_.defs);
        int k = count_stmts(&s->u.let_.body, c);
        c->m->locals = saved;
        return k;
    }
    if (s->kind == STMT_FOR)
        return count_loop(s, c);
    int first = -1;
    for (int i = 0; i < s->u.if_.clauses.n; i++) {
        AstClause *cl = s->u.if_.clauses.items[i];
        int k = count_stmts(&cl->body, c);
        if (first < 0) {
            first = k;
        } else if (k != first) {
            if (!c->bad)
                diag_error(cl->span, "the branches of an if-equation must hold the "
                           "same number of equations: the first has %d, this one %d",
                           first, k);
            c->bad = true;
        }
    }
    return first < 0 ? 0 : first;
}

static int count_stmts(PtrVec *v, Count *c)
{
    int n = 0;
    for (int i = 0; i < v->n; i++)
        n += count_stmt(v->items[i], c);
    return n;
}

/* A mode chart counts as the equations of one mode; every mode has as
   many (asserts excluded), as the branches of an if-equation. */
static int count_chart(AstModeChart *mc, Count *c)
{
    int first = -1;
    AstMode *m0 = NULL;
    for (int i = 0; i < mc->modes.n; i++) {
        AstMode *mo = mc->modes.items[i];
        int k = count_stmts(&mo->eqs, c);
        if (first < 0) {
            first = k;
            m0 = mo;
        } else if (k != first) {
            if (!c->bad) {
                diag_error(mo->name_span, "mode '%s' of mode chart '%s' has %d "
                           "equation%s, but mode '%s' has %d; every mode has the same "
                           "number of equations (asserts excluded)", mo->name->name,
                           mc->name->name, k, k == 1 ? "" : "s", m0->name->name, first);
                diag_note(m0->name_span, "mode '%s' is here", m0->name->name);
            }
            c->bad = true;
        }
    }
    return first < 0 ? 0 : first;
}

/* A branch's variable has as many elements as the through variable at
   each of its ends (a vector domain's through variable takes a vector). */
static void check_branch_size(Model *m, ElabInst *in, AstBranch *b)
{
    ElabSlot *s = elab_slot(in, b->var->u.name.parts[0].sym);
    if (!s || !s->active || s->var < 0)
        return;
    int n = s->vec && !b->var->u.name.parts[0].nindex ? s->rows * s->cols : 1;
    AstExpr *ends[2] = {b->from, b->to};
    for (int i = 0; i < 2; i++) {
        if (ends[i]->kind != EXPR_NAME)
            continue;
        ElabInst *owner = in;
        SemaMember *through = NULL;
        ElabSlot *node = lower_resolve(m, in, ends[i], &owner, &through);
        if (!node || !through || node->node < 0)
            continue;
        ElabSlot *ds = elab_domain_slot(m, m->nodes[node->node].domain, through);
        int count = elab_slot_numel(ds);
        if (count != n) {
            diag_error(b->var->span, "the branch variable '%s' has %d element%s, but "
                       "the through variable '%s' has %d; they must be of one size",
                       ast_name_text(m->arena, b->var), n, n == 1 ? "" : "s",
                       ast_name_text(m->arena, ends[i]), count);
            return;
        }
    }
}

static void count_section(Model *m, ElabInst *in, AstItem *it, void *ctx)
{
    if (it->u.section.kind == SEC_BRANCHES && !((Count *)ctx)->sizes)
        for (int i = 0; i < it->u.section.entries.n; i++)
            if (it->u.section.entries.items[i])
                check_branch_size(m, in, it->u.section.entries.items[i]);
    if (it->u.section.initial)
        return; /* equations(Initial = true) hold at t = 0 only: targets */
    (void)m;
    (void)in;
    if (it->u.section.kind == SEC_EQUATIONS)
        ((Count *)ctx)->eqs += count_stmts(&it->u.section.entries, ctx);
    if (it->u.section.kind == SEC_MODECHARTS)
        for (int i = 0; i < it->u.section.entries.n; i++)
            ((Count *)ctx)->eqs += count_chart(it->u.section.entries.items[i], ctx);
}

/* One instance's count: its equations against its unknowns. */
typedef struct Tally {
    int eqs;                /* equations in its active arms */
    int nvars, nout;        /* variables and outputs (elements) */
    bool bad;               /* an if-equation's branches disagree */
    char names[512];        /* its variables and outputs, for the note */
} Tally;

static void tally(Model *m, ElabInst *in, Tally *t)
{
    Count c = {0, false, false, elab_inst_arrays(in), m, in};
    elab_each_section(m, in, count_section, &c);
    for (int i = 0; i < m->conn_eqs.n; i++)
        if (((ElabConnEq *)m->conn_eqs.items[i])->in == in)
            c.eqs++;
    t->eqs = c.eqs;
    t->bad = c.bad;
    t->nvars = t->nout = 0;
    size_t len = 0;
    t->names[0] = 0;
    for (int i = 0; i < in->def->member_list.n; i++) {
        ElabSlot *s = &in->slots[i];
        if (!s->active || (s->m->kind != MEM_VARIABLE && s->m->kind != MEM_OUTPUT)
            || s->m->event)
            continue;   /* event variables are no unknowns */
        /* arrays: a vector counts its elements */
        int count = elab_slot_numel(s);
        if (s->m->kind == MEM_VARIABLE)
            t->nvars += count;
        else
            t->nout += count;
        if (len + s->m->name->len + 8 < sizeof t->names)
            len += (size_t)snprintf(t->names + len, sizeof t->names - len, "%s%s",
                                    len ? ", " : "", s->m->name->name);
        else if (len + 8 < sizeof t->names && !strstr(t->names, "..."))
            len += (size_t)snprintf(t->names + len, sizeof t->names - len, ", ...");
    }
}

/* Equations less unknowns of an instance: 0 when balanced.  Once per
   component and arm pattern, per instance for a component with arrays
   (whose sizes may differ between instances); the tally is kept in
   `seen`. */
static Tally *tally_of(Model *m, ElabInst *in, SymMap *seen)
{
    Sym *key = sym_cstr(arena_printf(m->arena, "%s/%s%s", in->def->ast->name->name,
                                     in->arm_key, elab_inst_arrays(in) ? in->path : ""));
    Tally *t = symmap_get(seen, key);
    if (t)
        return t;
    t = arena_alloc(m->arena, sizeof *t);
    tally(m, in, t);
    symmap_put(seen, key, t);
    return t;
}

static int excess(const Tally *t)
{
    return t->eqs - t->nvars - t->nout;
}

/* Simscape's composites may write equations for their components'
   public variables (port_A.mdot == mdot_A): a composite with more
   equations than unknowns is balanced when its components are short by
   as many, and they are then balanced with it. */
static bool covered(Model *m, ElabInst *in, SymMap *seen)
{
    Tally *t = tally_of(m, in, seen);
    int over = excess(t);
    if (t->bad || over <= 0)
        return false;
    for (int i = 0; i < in->children.n; i++) {
        Tally *c = tally_of(m, in->children.items[i], seen);
        if (!c->bad && excess(c) < 0)
            over += excess(c);
    }
    return over == 0;
}

static void check_balance(Model *m, ElabInst *in, SymMap *seen, PtrMap *said)
{
    /* a hidden component checked on its own is a base for others to
       extend (foundation.electrical.branch): its own count is theirs */
    if (in == m->top && in->def->hidden)
        return;
    Tally *t = tally_of(m, in, seen);
    if (t->bad || excess(t) == 0)
        return;
    if (excess(t) > 0 ? covered(m, in, seen) : in->parent && covered(m, in->parent, seen))
        return;
    /* once per component and arm pattern (per instance with arrays) */
    if (ptrmap_get(said, t))
        return;
    ptrmap_put(said, t, t);
    diag_error(in->def->ast->name_span, "component '%s' has %d equation%s but %d "
               "variable%s and %d output%s; every component needs one equation "
               "per variable and output", in->def->ast->name->name, t->eqs,
               t->eqs == 1 ? "" : "s", t->nvars, t->nvars == 1 ? "" : "s", t->nout,
               t->nout == 1 ? "" : "s");
    if (t->names[0])
        diag_note(in->def->ast->name_span, "its variables and outputs: %s", t->names);
    int lack = 0;
    for (int i = 0; excess(t) > 0 && i < in->children.n; i++) {
        Tally *c = tally_of(m, in->children.items[i], seen);
        lack -= !c->bad && excess(c) < 0 ? excess(c) : 0;
    }
    if (lack)
        diag_note(in->def->ast->name_span, "its components lack %d equation%s, which "
                  "its own equations may supply (port.x == ...), but it has %d more "
                  "than its variables and outputs", lack, lack == 1 ? "" : "s", excess(t));
    if (in->path[0] && in->ast)
        diag_note(in->ast->span, "instantiated here as '%s'", in->path);
}


void elab_check_balance(Model *m)
{
    SymMap seen = {0};
    PtrMap said = {0};
    for (int i = 0; i < m->insts.n; i++)
        check_balance(m, m->insts.items[i], &seen, &said);
    symmap_free(&seen);
    ptrmap_free(&said);
}

void elab_check_sizes(Model *m)
{
    for (int i = 0; i < m->insts.n; i++) {
        ElabInst *in = m->insts.items[i];
        if (!elab_inst_arrays(in))
            continue;
        Count c = {0, false, true, true, m, in};
        elab_each_section(m, in, count_section, &c);
    }
}
