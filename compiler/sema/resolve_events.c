/*
 * resolve_events.c - resolution (resolve.c): when statements and mode
 * charts.
 *
 * A when predicate is an event (initialevent, edge(b), combined with &&
 * and ||); the branches of a when and the entry actions of a mode
 * assign event variables of this component, each at most once per
 * branch.  Two when statements, or a when and a mode chart's entry
 * actions, that assign one variable are an error unless they sit in
 * exclusive arms of a conditional section (they could act at the same
 * event, and which one wins would be arbitrary).  A mode chart's modes
 * have distinct names; transitions name its modes, through at most three
 * (FROM -> INSTANT -> TO); initial predicates read parameters only.
 */
#include "resolve_internal.h"

#include <string.h>

/* One event variable assigned by one when statement or mode chart. */
typedef struct EvAssign {
    SemaMember *var;        /* the event variable */
    SrcSpan at;             /* the first assignment of it there */
    int scope;              /* the arm it is in */
    const void *owner;      /* the when statement or the mode chart */
} EvAssign;

/* Whether a when predicate is an event: true only at instants. */
static bool is_event(const AstExpr *e)
{
    switch (e->kind) {
    case EXPR_NAME:
        return e->u.name.n == 1 && !strcmp(e->u.name.parts[0].sym->name, "initialevent");
    case EXPR_CALL:
        return !strcmp(e->u.call.func->name, "edge");
    case EXPR_BINARY:
        if (e->u.binary.op == OP_OR)
            return is_event(e->u.binary.lhs) && is_event(e->u.binary.rhs);
        if (e->u.binary.op == OP_AND)
            return is_event(e->u.binary.lhs) || is_event(e->u.binary.rhs);
        return false;
    default:
        return false;
    }
}

static const char *a_or_an(SemaMemberKind k)
{
    return k == MEM_INPUT || k == MEM_OUTPUT || k == MEM_INTERMEDIATE ? "an" : "a";
}

/* Assignments NAME = expr; of one when branch or one mode's entry. */
static void check_assigns(Checker *c, PtrVec *v, const void *owner, const char *where)
{
    for (int i = 0; i < v->n; i++) {
        AstDecl *a = v->items[i];
        if (!a)
            continue;
        c->mode = REF_EQUATION;
        c->what = "an event assignment";
        rs_check_expr(c, a->value);
        if (rs_has_der(a->value))
            diag_error(a->value->span, "der() cannot appear in an event assignment");
        SemaMember *m = rs_visible(c->d, a->name, c->scope);
        if (!m) {
            AstNamePart part = {.sym = a->name, .span = a->name_span};
            rs_unknown_member(c, c->d, &part, NULL, false);
            continue;
        }
        if (m->kind != MEM_VARIABLE || !m->event) {
            diag_error(a->name_span, "'%s' is %s %s, not an event variable: %s assigns "
                       "only event variables (declared in 'variables (Event = true)')",
                       a->name->name, m->kind == MEM_VARIABLE ? "a" : a_or_an(m->kind),
                       m->kind == MEM_VARIABLE ? "continuous variable"
                                               : sema_member_kind_names[m->kind], where);
            continue;
        }
        bool twice = false;
        for (int j = 0; j < i && !twice; j++) {
            AstDecl *b = v->items[j];
            if (b && b->name == a->name) {
                diag_error(a->name_span, "'%s' is assigned twice in %s; its "
                           "assignments happen at once, so each variable is assigned "
                           "once", a->name->name, where);
                diag_note(b->name_span, "the first assignment is here");
                twice = true;
            }
        }
        bool known = false;
        for (int j = 0; j < c->assigned.n && !known; j++) {
            EvAssign *x = c->assigned.items[j];
            known = x->var == m && x->owner == owner;
        }
        if (!twice && !known) {
            EvAssign *x = arena_alloc(c->p->arena, sizeof *x);
            *x = (EvAssign){m, a->name_span, c->scope, owner};
            ptrvec_push(c->p->arena, &c->assigned, x);
        }
    }
}

void rs_check_when(Checker *c, AstStmt *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->u.if_.clauses.n; i++) {
        AstClause *cl = s->u.if_.clauses.items[i];
        c->mode = REF_EQUATION;
        c->what = "a when predicate";
        c->in_when = true;
        rs_check_expr(c, cl->cond);
        c->in_when = false;
        if (!is_event(cl->cond))
            diag_error(cl->cond->span, "a when predicate is an event: initialevent, "
                       "edge(b), or events combined with && and ||");
        check_assigns(c, &cl->body, s, "a when clause");
    }
    c->mode = REF_EQUATION;
    c->what = "an equation";
}

static int mode_index(const AstModeChart *mc, const Sym *name)
{
    for (int i = 0; i < mc->modes.n; i++)
        if (((AstMode *)mc->modes.items[i])->name == name)
            return i;
    return -1;
}

/* A mode named in a transition or an initial statement. */
static void check_mode_name(Checker *c, const AstModeChart *mc, const AstNamePart *part)
{
    if (mode_index(mc, part->sym) >= 0)
        return;
    const char *names[64];
    int n = 0;
    for (int i = 0; i < mc->modes.n && n < 64; i++)
        names[n++] = ((AstMode *)mc->modes.items[i])->name->name;
    const char *sug = diag_closest(part->sym->name, names, n);
    diag_error(part->span, "unknown mode '%s' in mode chart '%s'%s", part->sym->name,
               mc->name->name, diag_did_you_mean(sug).text);
    (void)c;
}

void rs_check_chart(Checker *c, AstModeChart *mc)
{
    if (!mc)
        return;
    if (mc->modes.n == 0)
        diag_error(mc->name_span, "mode chart '%s' has no modes", mc->name->name);
    for (int i = 0; i < mc->modes.n; i++) {
        AstMode *m = mc->modes.items[i];
        int first = mode_index(mc, m->name);
        if (first < i) {
            diag_error(m->name_span, "mode '%s' is declared twice in mode chart '%s'",
                       m->name->name, mc->name->name);
            diag_note(((AstMode *)mc->modes.items[first])->name_span,
                      "the first mode '%s' is here", m->name->name);
        }
        check_assigns(c, &m->entry, mc, "an entry action");
        c->mode = REF_EQUATION;
        c->what = "an equation";
        rs_check_stmts(c, &m->eqs);
    }
    for (int i = 0; i < mc->transitions.n; i++) {
        AstTransition *t = mc->transitions.items[i];
        if (!t)
            continue;
        if (t->n > 3)
            diag_error(t->path[3].span, "a transition passes through at most three "
                       "modes (FROM -> INSTANT -> TO), and this one names %d", t->n);
        for (int k = 0; k < t->n; k++)
            check_mode_name(c, mc, &t->path[k]);
        c->mode = REF_EQUATION;
        c->what = "a transition predicate";
        rs_check_expr(c, t->pred);
    }
    for (int i = 0; i < mc->initials.n; i++) {
        AstTransition *t = mc->initials.items[i];
        if (!t)
            continue;
        check_mode_name(c, mc, &t->path[0]);
        c->mode = REF_CONDITION;
        c->what = "an initial predicate of a mode chart";
        rs_check_expr(c, t->pred);
    }
    c->mode = REF_EQUATION;
    c->what = "an equation";
}

/* Two when statements (or a when and a chart's entry actions) that
   assign one event variable. */
void rs_check_assigned_once(Checker *c)
{
    for (int i = 0; i < c->assigned.n; i++) {
        EvAssign *a = c->assigned.items[i];
        for (int j = 0; j < i; j++) {
            EvAssign *b = c->assigned.items[j];
            if (b->var != a->var || b->owner == a->owner
                || rs_exclusive(c->d, a->scope, b->scope))
                continue;
            diag_error(a->at, "event variable '%s' is assigned by two when clauses "
                       "or mode charts, which could act at the same event; assign it "
                       "in one place (elsewhen branches are tried in order)",
                       a->var->name->name);
            diag_note(b->at, "it is also assigned here");
            break;
        }
    }
}
