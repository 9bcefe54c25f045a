/*
 * resolve_setup.c - resolution (resolve.c): Simscape's legacy `function
 * setup`, rewritten into what the rest of the language says.
 *
 * Older libraries check their parameters and compute private ones in a
 * setup function that runs once, before the simulation:
 *
 *   function setup
 *     if k <= 0
 *       pm_error('simscape:GreaterThanZero', 'Spring rate');
 *     end
 *     omega = 2 * pi * f;
 *   end
 *
 * Here each pm_error (or error) under its if-conditions becomes an
 * assertion that the conditions do not hold, with a message made of its
 * arguments; each assignment to a parameter becomes that parameter's
 * value (the declaration moves after every other parameter, so that the
 * value may read any of them), and an assignment to a variable becomes
 * its value (its start, with the declaration's priority).  An
 * assignment under a condition is an if-expression over the value before
 * it.  Warnings (pm_warning, warning) are dropped: they change nothing.
 * The syntax trees of a base component are shared, so nothing here
 * changes a section in place: a section that changes is replaced in this
 * definition's own list of items by a copy.
 */
#include "resolve_internal.h"

#include <string.h>

/* One name's value so far (an assignment, or the declaration's). */
typedef struct Assigned {
    Sym *name;              /* the parameter or variable */
    AstExpr *value;         /* its value after the setup so far */
    SrcSpan at;             /* the last assignment */
} Assigned;

typedef struct Setup {
    Program *p;
    SemaDef *d;
    PtrVec assigned;        /* Assigned*, in order of the first assignment */
    PtrVec asserts;         /* AstStmt* (STMT_ASSERT) */
} Setup;

/* The declaration of `name` in a section at the top level of the items,
   with the section (and the index of the declaration in it). */
static AstDecl *find_decl(const PtrVec *items, Sym *name, AstItem **sec, int *at)
{
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind != ITEM_SECTION || !ast_section_is_decls(it->u.section.kind))
            continue;
        for (int j = 0; j < it->u.section.entries.n; j++) {
            AstDecl *dc = it->u.section.entries.items[j];
            if (dc->name == name) {
                *sec = it;
                *at = j;
                return dc;
            }
        }
    }
    return NULL;
}

static Assigned *assigned(Setup *s, Sym *name)
{
    for (int i = 0; i < s->assigned.n; i++) {
        Assigned *a = s->assigned.items[i];
        if (a->name == name)
            return a;
    }
    return NULL;
}

/* The words of an error call as one message: pm_error(ID, args...) says
   what ID says of its arguments; error(msg) says msg. */
static const char *error_message(Setup *s, const AstExpr *call, const char *fn)
{
    const PtrVec *args = &call->u.call.args;
    char buf[512];
    size_t n = 0;
    buf[0] = 0;
    int first = !strcmp(fn, "pm_error") ? 1 : 0;
    for (int i = first; i < args->n; i++) {
        const AstExpr *g = args->items[i];
        const char *t = g->kind == EXPR_STR ? g->u.str : "?";
        n += (size_t)snprintf(buf + n, n < sizeof buf ? sizeof buf - n : 0, "%s%s",
                              i > first ? ", " : "", t);
        if (n >= sizeof buf)
            break;
    }
    const char *id = first && args->n > 0 && ((AstExpr *)args->items[0])->kind == EXPR_STR
                         ? ((AstExpr *)args->items[0])->u.str : NULL;
    if (!id)
        return arena_strdup(s->p->arena, buf[0] ? buf : "the setup function's check failed");
    /* the messages of Simscape's common identifiers */
    static const struct { const char *id, *fmt; } known[] = {
        {"simscape:GreaterThanZero", "%s must be greater than zero"},
        {"simscape:GreaterThanOrEqualToZero", "%s must be greater than or equal to zero"},
        {"simscape:LessThanZero", "%s must be less than zero"},
        {"simscape:LessThanOrEqualToZero", "%s must be less than or equal to zero"},
        {"simscape:NotZero", "%s must not be zero"},
        {"simscape:GreaterThan", "%s must be greater than the other parameter"},
        {"simscape:LessThan", "%s must be less than the other parameter"},
    };
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        if (!strcmp(id, known[k].id))
            return arena_printf(s->p->arena, known[k].fmt, buf[0] ? buf : "the parameter");
    return arena_printf(s->p->arena, "%s (%s)", buf[0] ? buf : "the setup function's check failed",
                        id);
}

static AstExpr *and_of(Arena *a, AstExpr *x, AstExpr *y)
{
    if (!x)
        return y;
    if (!y)
        return x;
    return ast_binary(a, src_join(x->span, y->span), OP_AND, x, y);
}

static void lower_stmts(Setup *s, const PtrVec *body, AstExpr *cond);

static void lower_stmt(Setup *s, const AstStmt *st, AstExpr *cond)
{
    Arena *a = s->p->arena;
    switch (st->kind) {
    case STMT_ASSIGN: {
        Sym *name = st->u.eq.lhs->u.name.parts[0].sym;
        Assigned *x = assigned(s, name);
        if (!x) {
            AstItem *sec;
            int at;
            AstDecl *dc = find_decl(&s->d->ast->items, name, &sec, &at);
            if (!dc || (sec->u.section.kind != SEC_PARAMETERS
                        && sec->u.section.kind != SEC_VARIABLES)) {
                diag_error(st->u.eq.lhs->span, "the setup function assigns '%s', which is "
                           "not a parameter or variable of '%s'", name->name,
                           s->d->ast->name->name);
                return;
            }
            x = arena_alloc(a, sizeof *x);
            x->name = name;
            AstExpr *v = ast_record_field(dc->value, "value");
            x->value = v ? v : dc->value;
            ptrvec_push(a, &s->assigned, x);
        }
        x->value = cond ? ast_if(a, st->span, cond, st->u.eq.rhs, x->value) : st->u.eq.rhs;
        x->at = st->span;
        return;
    }
    case STMT_CALL: {
        const AstExpr *call = st->u.eq.lhs;
        const AstExpr *callee = call->u.call.callee;
        const char *fn = callee && callee->kind == EXPR_NAME && callee->u.name.n == 1
                             ? callee->u.name.parts[0].sym->name : "";
        if (!strcmp(fn, "pm_warning") || !strcmp(fn, "warning"))
            return;
        if (strcmp(fn, "pm_error") && strcmp(fn, "error")) {
            diag_error(call->span, "Simscape's setup function may check parameters "
                       "(pm_error, error) and assign them; calling '%s' there is not "
                       "supported yet", callee ? ast_name_text(a, callee) : "?");
            return;
        }
        const char *msg = error_message(s, call, fn);
        AstExpr *holds = cond ? ast_unary(a, cond->span, OP_NOT, ast_paren(cond, cond->span))
                              : ast_bool(a, call->span, false);
        AstExpr *text = ast_str(a, call->span, msg);
        ptrvec_push(a, &s->asserts, ast_assert(a, st->span, holds, text, (PtrVec){0}));
        return;
    }
    case STMT_IF: {
        AstExpr *none_before = NULL;
        for (int i = 0; i < st->u.if_.clauses.n; i++) {
            AstClause *c = st->u.if_.clauses.items[i];
            AstExpr *here = and_of(a, cond, and_of(a, none_before, c->cond));
            lower_stmts(s, &c->body, here);
            if (c->cond) {
                AstExpr *neg = ast_unary(a, c->cond->span, OP_NOT,
                                         ast_paren(c->cond, c->cond->span));
                none_before = and_of(a, none_before, neg);
            }
        }
        return;
    }
    default:
        return;
    }
}

static void lower_stmts(Setup *s, const PtrVec *body, AstExpr *cond)
{
    for (int i = 0; i < body->n; i++)
        if (body->items[i])
            lower_stmt(s, body->items[i], cond);
}

/* items with item `old` replaced by `by` (NULL: removed). */
static void replace_item(Arena *a, PtrVec *items, AstItem *old, AstItem *by)
{
    PtrVec out = {0};
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it != old)
            ptrvec_push(a, &out, it);
        else if (by)
            ptrvec_push(a, &out, by);
    }
    *items = out;
}

/* A copy of a section, its entries copied too (so they may change). */
static AstItem *copy_section(Arena *a, const AstItem *it)
{
    AstItem *c = arena_alloc(a, sizeof *c);
    *c = *it;
    c->u.section.entries = (PtrVec){0};
    for (int i = 0; i < it->u.section.entries.n; i++)
        ptrvec_push(a, &c->u.section.entries, it->u.section.entries.items[i]);
    return c;
}

static void apply(Setup *s)
{
    Arena *a = s->p->arena;
    PtrVec *items = &s->d->ast->items;
    for (int i = 0; i < s->assigned.n; i++) {
        Assigned *x = s->assigned.items[i];
        AstItem *sec;
        int at;
        AstDecl *dc = find_decl(items, x->name, &sec, &at);
        if (!dc)
            continue;
        AstDecl *nd = arena_alloc(a, sizeof *nd);
        *nd = *dc;
        AstItem *copy = copy_section(a, sec);
        if (sec->u.section.kind == SEC_PARAMETERS) {
            /* after every parameter: the value may read any of them */
            nd->value = x->value;
            PtrVec rest = {0};
            for (int j = 0; j < copy->u.section.entries.n; j++)
                if (j != at)
                    ptrvec_push(a, &rest, copy->u.section.entries.items[j]);
            copy->u.section.entries = rest;
            replace_item(a, items, sec, copy);
            PtrVec one = {0};
            ptrvec_push(a, &one, nd);
            AstItem *moved = ast_section_attrs(a, x->at, SEC_PARAMETERS, one,
                                               sec->u.section.attrs);
            ptrvec_push(a, items, moved);
        } else {
            /* a variable: the value of its target */
            if (dc->value->kind == EXPR_RECORD) {
                PtrVec fields = {0};
                for (int j = 0; j < dc->value->u.record.n; j++) {
                    AstField *f = arena_alloc(a, sizeof *f);
                    *f = dc->value->u.record.fields[j];
                    if (!strcmp(f->name->name, "value"))
                        f->value = x->value;
                    ptrvec_push(a, &fields, f);
                }
                nd->value = ast_record(a, dc->value->span, fields);
            } else {
                nd->value = x->value;
            }
            copy->u.section.entries.items[at] = nd;
            replace_item(a, items, sec, copy);
        }
    }
    if (s->asserts.n)
        ptrvec_push(a, items, ast_section(a, ((AstStmt *)s->asserts.items[0])->span,
                                          SEC_EQUATIONS, s->asserts));
}

void rs_lower_setup(Program *p, SemaDef *d)
{
    PtrVec *items = &d->ast->items;
    bool any = false;
    for (int i = 0; i < items->n && !any; i++)
        any = ((AstItem *)items->items[i])->kind == ITEM_SETUP;
    if (!any)
        return;
    Setup s = {p, d, {0}, {0}};
    PtrVec rest = {0};
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind != ITEM_SETUP) {
            ptrvec_push(p->arena, &rest, it);
            continue;
        }
        lower_stmts(&s, &it->u.setup.body, NULL);
    }
    *items = rest;
    apply(&s);
}
