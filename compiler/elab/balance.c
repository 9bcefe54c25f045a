/*
 * balance.c - the local balance rule, checked at elaboration: every
 * component has, in its active arms, one equation per variable and
 * output (event variables are no unknowns), counting a for-loop of
 * equations once per iteration, an if-equation as one branch (and every
 * branch must hold as many), a mode chart as one mode, and each
 * connection that drives the component's own output.  Checked once per
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
        if (!c->in->def->has_arrays)
            return 1;
        LowerValue l = lower_value(c->m, c->in, s->u.eq.lhs);
        return l.rows * l.cols;
    }
    if (s->kind == STMT_ASSERT)
        return 0;
    if (s->kind == STMT_LET)
        return count_stmts(&s->u.let_.body, c);
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

static void count_section(Model *m, ElabInst *in, AstItem *it, void *ctx)
{
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

static void check_balance(Model *m, ElabInst *in, SymMap *seen)
{
    /* a hidden component checked on its own is a base for others to
       extend (foundation.electrical.branch): its own count is theirs */
    if (in == m->top && in->def->hidden)
        return;
    /* once per component and arm pattern; per instance for one with arrays,
       whose sizes may differ between instances */
    Sym *key = sym_cstr(arena_printf(m->arena, "%s/%s%s", in->def->ast->name->name,
                                     in->arm_key, in->def->has_arrays ? in->path : ""));
    if (symmap_get(seen, key))
        return;
    symmap_put(seen, key, in);
    Count c = {0, false, m, in};
    elab_each_section(m, in, count_section, &c);
    for (int i = 0; i < m->conn_eqs.n; i++)
        if (((ElabConnEq *)m->conn_eqs.items[i])->in == in)
            c.eqs++;
    int nvars = 0, nout = 0;
    size_t len = 0;
    char names[512] = "";
    for (int i = 0; i < in->def->member_list.n; i++) {
        ElabSlot *s = &in->slots[i];
        if (!s->active || (s->m->kind != MEM_VARIABLE && s->m->kind != MEM_OUTPUT)
            || s->m->event)
            continue;   /* event variables are no unknowns */
        /* arrays: a vector counts its elements */
        int count = s->vec ? s->rows * s->cols : 1;
        if (s->m->kind == MEM_VARIABLE)
            nvars += count;
        else
            nout += count;
        if (len + s->m->name->len + 8 < sizeof names)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s",
                                    len ? ", " : "", s->m->name->name);
        else if (len + 8 < sizeof names && !strstr(names, "..."))
            len += (size_t)snprintf(names + len, sizeof names - len, ", ...");
    }
    if (c.bad || c.eqs == nvars + nout)
        return;
    diag_error(in->def->ast->name_span, "component '%s' has %d equation%s but %d "
               "variable%s and %d output%s; every component needs one equation "
               "per variable and output", in->def->ast->name->name, c.eqs,
               c.eqs == 1 ? "" : "s", nvars, nvars == 1 ? "" : "s", nout,
               nout == 1 ? "" : "s");
    if (len)
        diag_note(in->def->ast->name_span, "its variables and outputs: %s", names);
    if (in->path[0] && in->ast)
        diag_note(in->ast->span, "instantiated here as '%s'", in->path);
}


void elab_check_balance(Model *m)
{
    SymMap seen = {0};
    for (int i = 0; i < m->insts.n; i++)
        check_balance(m, m->insts.items[i], &seen);
    symmap_free(&seen);
}
