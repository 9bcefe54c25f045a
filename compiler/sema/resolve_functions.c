/*
 * resolve_functions.c - resolution (resolve.c): function bodies, calls of
 * user functions, lets and the chain of local names they define.
 *
 * A function's body sees only its arguments and its earlier definitions
 * (a barrier in the chain of locals stops the lookup there); a let's
 * names are seen by its later definitions and its equations, in front of
 * the component's members, which they hide there.  A call is checked
 * against the function's arguments; a function calling itself, directly
 * or through others, is found on the stack of bodies being checked.
 */
#include "resolve_internal.h"

#include "builtin.h"

#include <stdio.h>
#include <string.h>

static ResolveLocal *push_local(Checker *c, Sym *name, SrcSpan at)
{
    ResolveLocal *l = arena_alloc(c->p->arena, sizeof *l);
    l->name = name;
    l->span = at;
    l->up = c->locals;
    c->locals = l;
    return l;
}

/* The local definition of `name` in scope, stopping at a barrier. */
static ResolveLocal *find_local(const Checker *c, const Sym *name, bool *behind_barrier)
{
    *behind_barrier = false;
    for (ResolveLocal *l = c->locals; l; l = l->up) {
        if (!l->name) {
            *behind_barrier = true;
            return NULL;
        }
        if (l->name == name)
            return l;
    }
    return NULL;
}

bool rs_is_local(const Checker *c, const Sym *name)
{
    bool barrier;
    return find_local(c, name, &barrier) != NULL;
}

/* A name that is a local (let, argument, definition): true when e is
   decided here (resolved or reported). */
bool rs_check_local_name(Checker *c, AstExpr *e)
{
    if (!c->locals)
        return false;
    AstNamePart *first = &e->u.name.parts[0];
    bool barrier;
    ResolveLocal *l = find_local(c, first->sym, &barrier);
    if (l) {
        if (e->u.name.n > 1)
            diag_error(e->u.name.parts[1].span, "'%s' is a local name and has no "
                       "members", first->sym->name);
        /* a vector or matrix argument or definition: x(i), M(i, :) */
        if (first->nindex > 2)
            diag_error(first->span, "'%s' has %d indices; a vector takes one and a "
                       "matrix two", first->sym->name, first->nindex);
        else if (first->nindex)
            rs_check_index_exprs(c, first->index, first->nindex);
        return true;
    }
    if (!barrier)
        return false;
    if (e->u.name.n == 1 && builtin_constant(first->sym->name, NULL))
        return true;
    PtrVec v = {0};
    for (ResolveLocal *x = c->locals; x && x->name && !diag_too_many(); x = x->up)
        ptrvec_push(c->p->arena, &v, (void *)x->name->name);
    const char *s = diag_closest(first->sym->name, (const char *const *)v.items, v.n);
    diag_error(first->span, "unknown name '%s' in function '%s': a function's "
               "body sees only its arguments and its earlier definitions%s",
               first->sym->name, c->d->ast->name->name, diag_did_you_mean(s).text);
    return true;
}

/* Defines a local; no name is defined twice in one function or let
   (a let's name hides a member of the same name inside the let). */
static void define_local(Checker *c, AstDecl *d, ResolveLocal *floor)
{
    for (ResolveLocal *l = c->locals; l && l != floor && l->name; l = l->up) {
        if (l->name == d->name) {
            diag_error(d->name_span, "'%s' is defined twice", d->name->name);
            diag_note(l->span, "the first definition of '%s' is here", d->name->name);
            return;
        }
    }
    /* a let's name may be a member's too, as in Simscape: inside the let
       it is the let's */
    push_local(c, d->name, d->name_span);
}

/* `[a, b] = f(x)`: the call is to a user function with enough outputs. */
void rs_check_outputs(AstDecl *dc)
{
    AstExpr *v = dc->value;
    if (v->kind != EXPR_CALL || v->parens)
        return; /* reported by the parser */
    SemaDef *f = v->u.call.fn;
    if (!f) {
        if (dc->output == 0 && (builtin_find(v->u.call.func->name) >= 0
                                || special_find(v->u.call.func->name) >= 0))
            diag_error(v->span, "'%s' has one result; [a, b] = ... takes the "
                       "outputs of a function with several", v->u.call.func->name);
        return;
    }
    if (dc->output == f->ast->outputs.n) {
        diag_error(dc->name_span, "function '%s' has %d output%s; there is none "
                   "left for '%s'", f->ast->name->name, f->ast->outputs.n,
                   f->ast->outputs.n == 1 ? "" : "s", dc->name->name);
        diag_note(f->ast->name_span, "'%s' is defined here", f->ast->name->name);
    }
}

/* Checks a list of local definitions in order, defining each name after
   its value is checked (so a definition cannot use itself). */
static void check_local_defs(Checker *c, PtrVec *defs, ResolveLocal *floor)
{
    for (int i = 0; i < defs->n; i++) {
        AstDecl *d = defs->items[i];
        if (d->output <= 0)
            rs_check_expr(c, d->value);
        if (d->output >= 0)
            rs_check_outputs(d);
        define_local(c, d, floor);
    }
}

void rs_check_let(Checker *c, AstStmt *s)
{
    ResolveLocal *saved = c->locals;
    check_local_defs(c, &s->u.let_.defs, saved);
    rs_check_stmts(c, &s->u.let_.body);
    c->locals = saved;
}

/* The body of a function: arguments, then definitions in order; every
   output must be defined. */
void rs_resolve_function(Program *p, SemaDef *d)
{
    AstDef *ad = d->ast;
    Checker c = {p, d, 0, REF_FUNCTION, 0, "a function", NULL, {0}, false, {0}};
    ResolveLocal *floor = push_local(&c, NULL, ad->name_span);
    ptrvec_push(p->arena, &p->fn_stack, d);
    if (builtin_find(ad->name->name) >= 0 || special_find(ad->name->name) >= 0)
        diag_error(ad->name_span, "'%s' is a built-in function; a function "
                   "cannot take its name", ad->name->name);
    for (int i = 0; i < ad->inputs.n; i++) {
        AstIdent *a = ad->inputs.items[i];
        AstDecl fake = {.name = a->sym, .name_span = a->span, .output = -1};
        define_local(&c, &fake, floor);
    }
    check_local_defs(&c, &ad->defs, floor);
    for (int i = 0; i < ad->outputs.n; i++) {
        AstIdent *o = ad->outputs.items[i];
        bool barrier;
        ResolveLocal *l = find_local(&c, o->sym, &barrier);
        bool is_input = false;
        for (int j = 0; j < ad->inputs.n; j++)
            is_input |= ((AstIdent *)ad->inputs.items[j])->sym == o->sym;
        if (!l || is_input)
            diag_error(o->span, "function '%s' never defines its output '%s' in "
                       "its definitions", ad->name->name, o->sym->name);
    }
    p->fn_stack.n--;
}

/* A call of a user function; false when the name is no definition. */
bool rs_check_function_call(Checker *c, AstExpr *e)
{
    Sym *name = e->u.call.func;
    SemaDef *f = e->u.call.qual ? sema_lookup_qualified(c->p, e->u.call.qual, e->u.call.func_span.file)
                                : rs_lookup_at(c->p, name, e->u.call.func_span.file, e->u.call.func_span);
    if (!f)
        return false;
    if (f->ast->kind != DEF_FUNCTION) {
        diag_error(e->u.call.func_span, "'%s' is a %s, not a function", name->name,
                   rs_def_kind_name(f));
        diag_note(f->ast->name_span, "'%s' is defined here", name->name);
        return true;
    }
    for (int i = 0; i < c->p->fn_stack.n; i++) {
        if (c->p->fn_stack.items[i] != f)
            continue;
        char cycle[512];
        size_t len = 0;
        for (int j = i; j < c->p->fn_stack.n && len < sizeof cycle - 80; j++)
            len += (size_t)snprintf(cycle + len, sizeof cycle - len, "%s -> ",
                                    ((SemaDef *)c->p->fn_stack.items[j])->ast->name->name);
        snprintf(cycle + len, sizeof cycle - len, "%s", name->name);
        diag_error(e->u.call.func_span, "function '%s' calls itself (%s); a "
                   "function cannot be recursive, directly or through others",
                   name->name, cycle);
        return true;
    }
    sema_resolve_def(c->p, f);
    int want = f->ast->inputs.n, got = e->u.call.args.n;
    if (want != got) {
        diag_error(e->span, "function '%s' takes %d argument%s, not %d", name->name,
                   want, want == 1 ? "" : "s", got);
        diag_note(f->ast->name_span, "'%s' is defined here", name->name);
    }
    e->u.call.fn = f;
    for (int i = 0; i < got; i++)
        rs_check_expr(c, e->u.call.args.items[i]);
    return true;
}
