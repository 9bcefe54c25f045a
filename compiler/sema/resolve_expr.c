/*
 * resolve_expr.c - resolution (resolve.c): checking expressions.
 *
 * Names (dotted references through components and nodes, what each
 * context may read, access), indices and loop variables, calls (built-in
 * and array functions, the special forms value, integ, edge and delay,
 * user functions through resolve_functions.c) and variable records.  A
 * call whose callee names a member (`masses(i)`, `m(i).v(2)`) is an
 * index: it is rewritten here into an indexed name, so that every later
 * pass sees member references as EXPR_NAME only.
 */
#include "resolve_internal.h"

#include "builtin.h"

#include <string.h>

const char *rs_def_kind_name(const SemaDef *d)
{
    return d->ast->kind == DEF_DOMAIN ? "domain"
           : d->ast->kind == DEF_FUNCTION ? "function" : "component";
}

/* Names visible from the current arm, for suggestions. */
static const char *suggest_member(Checker *c, const SemaDef *d, const char *name,
                                  bool outside)
{
    /* Past the error limit nothing is shown; collecting the candidates for
       every unknown name would make a large broken file quadratic. */
    if (diag_too_many())
        return NULL;
    PtrVec v = {0};
    for (int i = 0; i < d->member_list.n; i++) {
        SemaMember *m = d->member_list.items[i];
        if (outside || rs_scope_within(d, c->scope, m->scope))
            ptrvec_push(c->p->arena, &v, (void *)m->name->name);
    }
    return diag_closest(name, (const char *const *)v.items, v.n);
}

void rs_unknown_member(Checker *c, const SemaDef *d, AstNamePart *part,
                           const char *owner, bool outside)
{
    const char *s = suggest_member(c, d, part->sym->name, outside);
    if (outside)
        diag_error(part->span, "%s '%s' has no member '%s'%s", rs_def_kind_name(d),
                   owner, part->sym->name, diag_did_you_mean(s).text);
    else
        diag_error(part->span, "unknown name '%s'%s", part->sym->name,
                   diag_did_you_mean(s).text);
}

/* Whether member `next` of component t may be named from outside t
   (section attributes); reports it when not. */
static bool reachable(const SemaDef *t, const SemaMember *next, const AstNamePart *at)
{
    SrcSpan decl = next->decl ? next->decl->name_span : next->inst->name_span;
    if (next->access == ACCESS_PRIVATE) {
        diag_error(at->span, "%s '%s' of component '%s' is private (Access = "
                   "private): only '%s' itself can use it", sema_member_kind_names[next->kind],
                   next->name->name, t->ast->name->name, t->ast->name->name);
        diag_note(decl, "'%s' is declared here", next->name->name);
        return false;
    }
    /* a node with ExternalAccess = none is a port no block dialog shows,
       still one a composite connects (Battery Builder's adapters) */
    if (next->external == EXT_NONE && next->kind != MEM_NODE) {
        diag_error(at->span, "%s '%s' of '%s' is hidden (ExternalAccess = "
                   "none): it cannot be reached from outside '%s'",
                   next->kind == MEM_INSTANCE ? "component" : sema_member_kind_names[next->kind],
                   next->name->name, t->ast->name->name, t->ast->name->name);
        diag_note(decl, "'%s' is declared here", next->name->name);
        return false;
    }
    return true;
}

/* ---- arrays: loop variables and indices ----------------------------------- */

static bool is_loop_var(const Checker *c, const Sym *s)
{
    for (int i = 0; i < c->loops.n; i++)
        if (c->loops.items[i] == s)
            return true;
    return false;
}

/* Checks index expressions: parameters and loop variables only. */
void rs_check_index_exprs(Checker *c, AstExpr **index, int n)
{
    RefMode mode = c->mode;
    const char *what = c->what;
    c->mode = REF_INDEX;
    c->what = "an index";
    for (int i = 0; i < n; i++)
        rs_check_expr(c, index[i]);
    c->mode = mode;
    c->what = what;
}

/* The indices written on one part of a name fit its member: an array of
   components or nodes takes exactly its declared indices; a parameter,
   variable or output may be a vector (its size is known at elaboration);
   nothing else is indexed. */
bool rs_check_part(Checker *c, SemaMember *m, AstNamePart *part)
{
    c->d->has_arrays |= part->nindex > 0;
    if (part->nindex)
        rs_check_index_exprs(c, part->index, part->nindex);
    if (m->kind == MEM_INSTANCE || m->kind == MEM_NODE) {
        if (m->rank && !part->nindex) {
            diag_error(part->span, "'%s' is an array of %ss; name one element, "
                       "as in %s(1)", part->sym->name,
                       m->kind == MEM_NODE ? "node" : "component", part->sym->name);
            return false;
        }
        if (!m->rank && part->nindex) {
            /* C(1) of one component is C, as x(1) of a scalar is x */
            bool ones = true;
            for (int i = 0; i < part->nindex; i++)
                ones = ones && part->index[i]->kind == EXPR_NUM
                       && part->index[i]->u.num.value == 1;
            if (ones) {
                part->nindex = 0;
                return true;
            }
            diag_error(part->span, "'%s' is a %s, not an array, and cannot be "
                       "indexed", part->sym->name, sema_member_kind_names[m->kind]);
            return false;
        }
        if (part->nindex > 1) {
            diag_error(part->span, "'%s' is an array with one index, not %d",
                       part->sym->name, part->nindex);
            return false;
        }
        return true;
    }
    if (part->nindex && m->kind != MEM_PARAMETER && m->kind != MEM_VARIABLE
        && m->kind != MEM_OUTPUT && m->kind != MEM_INTERMEDIATE && m->kind != MEM_INPUT) {
        diag_error(part->span, "'%s' is %s %s and cannot be indexed; parameters, "
                   "variables, inputs, outputs and intermediates may be vectors",
                   part->sym->name, m->kind == MEM_INPUT || m->kind == MEM_INTERMEDIATE
                   ? "an" : "a", sema_member_kind_names[m->kind]);
        return false;
    }
    if (part->nindex > 2) {
        diag_error(part->span, "'%s' has %d indices; a vector takes one and a "
                   "matrix two", part->sym->name, part->nindex);
        return false;
    }
    return true;
}

/* A loop variable named where a member is expected. */
bool rs_loop_var_misused(Checker *c, AstExpr *e)
{
    AstNamePart *first = &e->u.name.parts[0];
    if (!is_loop_var(c, first->sym))
        return false;
    if (e->u.name.n > 1 || first->nindex)
        diag_error(e->span, "'%s' is a loop variable, a number: it has no "
                   "members or elements", first->sym->name);
    return true;
}

/* The loop variable of a for-loop may not hide a member or the variable
   of an enclosing loop. */
void rs_push_loop_var(Checker *c, const AstFor *f)
{
    SemaMember *m = rs_visible(c->d, f->var, c->scope);
    if (is_loop_var(c, f->var))
        diag_error(f->var_span, "'%s' is already the variable of an enclosing "
                   "for-loop", f->var->name);
    else if (m)
        diag_error(f->var_span, "the loop variable '%s' would hide the %s '%s' of "
                   "%s '%s'", f->var->name, sema_member_kind_names[m->kind],
                   f->var->name, c->d->ast->kind == DEF_DOMAIN ? "domain" : "component",
                   c->d->ast->name->name);
    ptrvec_push(c->p->arena, &c->loops, f->var);
}

/* A for-loop's range: parameters and enclosing loops' variables. */
void rs_check_range(Checker *c, const AstFor *f)
{
    RefMode mode = c->mode;
    const char *what = c->what;
    c->mode = REF_INDEX;
    c->what = "the range of a for-loop";
    rs_check_expr(c, f->range);
    c->mode = mode;
    c->what = what;
    c->d->has_arrays = true;
}

/* Resolves the rest of a dotted name after member m (which has been
   resolved in definition d).  Returns the final member or NULL. */
SemaMember *rs_resolve_tail(Checker *c, SemaMember *m, AstExpr *e, int i)
{
    AstNamePart *parts = e->u.name.parts;
    int n = e->u.name.n;
    for (; i < n; i++) {
        if (m->kind == MEM_NODE || m->kind == MEM_INSTANCE) {
            SemaDef *t = m->type;
            if (!t)
                return NULL; /* already reported */
            if (!t->resolved && m->kind == MEM_INSTANCE)
                sema_resolve_def(c->p, t);
            SemaMember *next = sema_member(t, parts[i].sym);
            if (!next || (m->kind == MEM_NODE && next->kind != MEM_ACROSS
                          && next->kind != MEM_THROUGH && next->kind != MEM_PARAMETER)) {
                rs_unknown_member(c, t, &parts[i], t->ast->name->name, true);
                return NULL;
            }
            if (m->kind == MEM_INSTANCE && !reachable(t, next, &parts[i]))
                return NULL;
            if (m->kind == MEM_INSTANCE && !rs_check_part(c, next, &parts[i]))
                return NULL;
            if (m->kind == MEM_NODE) {
                /* a vector domain variable or parameter (NODE.x_i, NODE.x_i(2)):
                   the reader's equations may be vector equations */
                if (parts[i].nindex || (next->decl && ast_written_as_array(next->decl->value)))
                    c->d->has_arrays = true;
                if (parts[i].nindex && parts[i].nindex > 2) {
                    diag_error(parts[i].span, "'%s' has %d indices; a vector takes one "
                               "and a matrix two", parts[i].sym->name, parts[i].nindex);
                    return NULL;
                }
                if (parts[i].nindex)
                    rs_check_index_exprs(c, parts[i].index, parts[i].nindex);
            }
            m = next;
        } else {
            diag_error(parts[i].span, "'%s' is %s %s and has no members",
                       parts[i - 1].sym->name,
                       m->kind == MEM_INPUT || m->kind == MEM_OUTPUT
                           || m->kind == MEM_INTERMEDIATE ? "an" : "a",
                       sema_member_kind_names[m->kind]);
            return NULL;
        }
    }
    return m;
}

static void check_name(Checker *c, AstExpr *e)
{
    if (rs_check_local_name(c, e))
        return;
    AstNamePart *first = &e->u.name.parts[0];
    if (rs_loop_var_misused(c, e))
        return;
    SemaMember *m = rs_visible_somewhere(c->d, first->sym, c->scope);
    if (!m) {
        if (e->u.name.n == 1 && builtin_constant(first->sym->name, NULL))
            return;
        double ev;
        if (c->mode != REF_EQUATION && rs_names_package(c->p, e)
            && !rs_enum_value(c->p, e, &ev)) {
            /* MATLAB code of a package (a function, a class): a value
               lmdl cannot compute, an error only where it is needed (a
               domain parameter no component reads is never computed) */
            e->kind = EXPR_MATLAB;
            return;
        }
        if (rs_enum_value(c->p, e, &ev)) {
            /* an enumeration's member: its value, from here on */
            e->kind = EXPR_NUM;
            e->u.num.value = ev;
            e->u.num.text = arena_printf(c->p->arena, "%.17g", ev);
            return;
        }
        if (e->u.name.n == 1 && strcmp(first->sym->name, "initialevent") == 0) {
            if (!c->in_when)
                diag_error(e->span, "initialevent is only true in a when predicate");
            return;
        }
        rs_unknown_member(c, c->d, first, NULL, false);
        return;
    }
    /* NODE.param, a domain parameter: a parameter too */
    bool domain_param = m->kind == MEM_NODE && e->u.name.n == 2 && m->type
                        && sema_member(m->type, e->u.name.parts[1].sym)
                        && sema_member(m->type, e->u.name.parts[1].sym)->kind == MEM_PARAMETER;
    if (c->mode != REF_EQUATION && !domain_param) {
        if (m->kind != MEM_PARAMETER) {
            diag_error(e->span, "%s may use only parameters%s, and '%s' is %s %s",
                       c->what, c->mode == REF_INDEX ? " and loop variables" : "",
                       first->sym->name,
                       m->kind == MEM_INPUT || m->kind == MEM_OUTPUT
                           || m->kind == MEM_INTERMEDIATE ? "an" : "a",
                       sema_member_kind_names[m->kind]);
            if (c->mode == REF_ARGUMENT && (m->kind == MEM_INPUT || m->kind == MEM_OUTPUT
                                            || m->kind == MEM_VARIABLE))
                diag_note(e->span, "a value that changes during the run reaches a "
                          "child through a connection: give the child an input for "
                          "it, and write connect(%s, CHILD.INPUT) in a connections "
                          "section", first->sym->name);
            return;
        }
        if ((c->mode == REF_PARAMETER || c->mode == REF_GUARD) && m->order >= c->order
            && !c->d->cyclic) {
            diag_error(e->span, "parameter '%s' is used before it is declared%s",
                       first->sym->name, c->mode == REF_GUARD
                       ? ": a conditional section's condition reads parameters "
                         "declared above the section" : "");
            diag_note(m->decl->name_span, "'%s' is declared here", first->sym->name);
            return;
        }
    }
    if (!rs_check_part(c, m, first))
        return;
    SemaMember *last = rs_resolve_tail(c, m, e, 1);
    if (!last)
        return;
    if (last->kind == MEM_NODE || last->kind == MEM_INSTANCE) {
        char *t = ast_name_text(c->p->arena, e);
        diag_error(e->span, "'%s' is a %s, not a value%s", t,
                   sema_member_kind_names[last->kind],
                   last->kind == MEM_NODE ? "; use one of its variables, "
                                            "such as its position" : "");
    }
}

/* ---- special forms: value(), integ(), edge(), delay() ---- */

/* The first subexpression of e for which hit holds, or NULL: e itself,
   then its operands in order (calls' arguments, der()'s, conditions'). */
static const AstExpr *find_sub(const AstExpr *e, bool (*hit)(const AstExpr *))
{
    if (hit(e))
        return e;
    const AstExpr *kids[3] = {NULL, NULL, NULL};
    switch (e->kind) {
    case EXPR_CALL:
        for (int i = 0; i < e->u.call.args.n; i++) {
            const AstExpr *r = find_sub(e->u.call.args.items[i], hit);
            if (r)
                return r;
        }
        return NULL;
    case EXPR_DER: kids[0] = e->u.der.arg; break;
    case EXPR_UNARY: kids[0] = e->u.unary.arg; break;
    case EXPR_BINARY: kids[0] = e->u.binary.lhs; kids[1] = e->u.binary.rhs; break;
    case EXPR_IF:
        kids[0] = e->u.cond.cond;
        kids[1] = e->u.cond.then;
        kids[2] = e->u.cond.els;
        break;
    case EXPR_QUANTITY: kids[0] = e->u.quantity.value; break;
    default: break;
    }
    for (int i = 0; i < 3; i++) {
        const AstExpr *r = kids[i] ? find_sub(kids[i], hit) : NULL;
        if (r)
            return r;
    }
    return NULL;
}

static bool is_der(const AstExpr *e)
{
    return e->kind == EXPR_DER;
}

static bool is_special(const AstExpr *e, int sf)
{
    return e->kind == EXPR_CALL && special_find(e->u.call.func->name) == sf;
}

static bool is_der_or_integ(const AstExpr *e)
{
    return is_der(e) || is_special(e, SF_INTEG);
}

static bool is_delay(const AstExpr *e)
{
    return is_special(e, SF_DELAY);
}

bool rs_has_der(const AstExpr *e)
{
    return find_sub(e, is_der) != NULL;
}

static bool has_delay(const AstExpr *e)
{
    return find_sub(e, is_delay) != NULL;
}

/* delay(u, tau) and delay(u, tau, History = h, MaximumDelay = m): u and
   tau any expressions without der() or delay(); History and MaximumDelay
   (EXPR_OPTION arguments) parametric.  Whether tau is parametric (else
   MaximumDelay is required) is elaboration's question (lower.c). */
static void check_delay(Checker *c, AstExpr *e)
{
    if (c->mode != REF_EQUATION || c->d->ast->kind != DEF_COMPONENT) {
        diag_error(e->span, "delay() cannot appear in %s; it belongs in a "
                   "component's equations or intermediates", c->what);
        return;
    }
    int npos = 0;
    const AstExpr *seen[2] = {NULL, NULL};
    static const char *const names[] = {"History", "MaximumDelay"};
    for (int i = 0; i < e->u.call.args.n; i++) {
        AstExpr *a = e->u.call.args.items[i];
        if (a->kind != EXPR_OPTION) {
            if (seen[0] || seen[1]) {
                diag_error(a->span, "delay's u and tau come before History = and "
                           "MaximumDelay =");
                return;
            }
            npos++;
            RefMode mode = c->mode;
            rs_check_expr(c, a);
            c->mode = mode;
            if (rs_has_der(a) || has_delay(a))
                diag_error(a->span, "delay's %s cannot contain der() or delay()",
                           npos == 1 ? "u" : "tau");
            continue;
        }
        const char *n = a->u.option.name->name;
        int which = !strcmp(n, "History") ? 0 : !strcmp(n, "MaximumDelay") ? 1 : -1;
        if (which < 0) {
            const char *sug = diag_closest(n, names, 2);
            diag_error(a->u.option.name_span, "delay takes History = and "
                       "MaximumDelay =, not '%s'%s", n, diag_did_you_mean(sug).text);
            continue;
        }
        if (seen[which]) {
            diag_error(a->u.option.name_span, "%s is given twice", names[which]);
            continue;
        }
        seen[which] = a;
        RefMode mode = c->mode;
        const char *what = c->what;
        c->mode = REF_CONDITION;
        c->what = which ? "delay's MaximumDelay" : "delay's History";
        rs_check_expr(c, a->u.option.value);
        c->mode = mode;
        c->what = what;
    }
    if (npos != 2)
        diag_error(e->span, "delay takes u and tau (then History = and MaximumDelay = "
                   "if needed), not %d argument%s", npos, npos == 1 ? "" : "s");
}

/* edge(b): true only at the instant b turns true; an event, for a when
   predicate. */
static void check_edge(Checker *c, AstExpr *e)
{
    if (!c->in_when)
        diag_error(e->span, "edge() is an event and only has a meaning in a "
                   "when predicate");
    else if (e->u.call.args.n != 1)
        diag_error(e->span, "'edge' takes 1 argument, not %d", e->u.call.args.n);
    bool was = c->in_when;
    c->in_when = false;
    for (int i = 0; i < e->u.call.args.n; i++)
        rs_check_expr(c, e->u.call.args.items[i]);
    c->in_when = was;
}

/* value(x, 'unit'[, 'linear'|'affine']), integ(e), edge(b) and delay(...);
   false when e is not a special form.  The unit string is read by the
   unit check. */
static bool check_special_call(Checker *c, AstExpr *e)
{
    int k = special_find(e->u.call.func->name);
    if (k < 0)
        return false;
    if (k == SF_EDGE) {
        check_edge(c, e);
        return true;
    }
    if (k == SF_DELAY) {
        check_delay(c, e);
        return true;
    }
    if (k == SF_BLEND || k == SF_LIMIT) {
        /* Simscape's functions of a fixed number of expressions */
        const char *args = k == SF_BLEND ? "y1, y2, x1, x2, x" : "x, lower, upper, smoothing";
        if (e->u.call.args.n != special_min_args[k])
            diag_error(e->span, "%s takes %d arguments (%s), not %d", special_names[k],
                       special_min_args[k], args, e->u.call.args.n);
        for (int i = 0; i < e->u.call.args.n; i++)
            rs_check_expr(c, e->u.call.args.items[i]);
        return true;
    }
    const char *f = special_names[k];
    int n = e->u.call.args.n, lo = special_min_args[k], hi = special_max_args[k];
    AstExpr **a = (AstExpr **)e->u.call.args.items;
    if (n < lo || n > hi) {
        diag_error(e->span, "'%s' takes %d or %d arguments, not %d", f, lo, hi, n);
        return true;
    }
    if (k == SF_VALUE) {
        rs_check_expr(c, a[0]);
        if (a[1]->kind != EXPR_STR)
            diag_error(a[1]->span, "the second argument of value() is a unit, "
                       "as in value(x, 'mm')");
        if (n == 3 && (a[2]->kind != EXPR_STR || (strcmp(a[2]->u.str, "linear")
                                                 && strcmp(a[2]->u.str, "affine"))))
            diag_error(a[2]->span, "the third argument of value() is 'linear' or "
                       "'affine'");
        return true;
    }
    /* integ */
    if (n == 2) {
        diag_error(a[1]->span, "integ(e, t_L) with a lower limit is not "
                   "supported; integ(e) integrates e from the start of the "
                   "simulation");
        return true;
    }
    if (c->mode != REF_EQUATION || c->d->ast->kind != DEF_COMPONENT) {
        diag_error(e->span, "integ() cannot appear in %s; it belongs in a "
                   "component's equations or intermediates", c->what);
        return true;
    }
    const AstExpr *inner = find_sub(a[0], is_der_or_integ);
    if (inner)
        diag_error(inner->span, "the argument of integ() cannot contain %s",
                   inner->kind == EXPR_DER ? "der()" : "another integ()");
    rs_check_expr(c, a[0]);
    return true;
}

/* Every function name a user might have meant: the built-in ones, the
   special forms and the functions loaded so far. */
static const char *suggest_function(Checker *c, const char *f)
{
    if (diag_too_many())
        return NULL;
    PtrVec v = {0};
    /* the special forms first: of two as close, integ before int8 */
    for (int i = 0; i < SF_COUNT; i++)
        ptrvec_push(c->p->arena, &v, (void *)special_names[i]);
    for (int i = 0; i < FN_NAMED; i++)
        ptrvec_push(c->p->arena, &v, (void *)builtin_names[i]);
    for (int i = 0; i < AF_COUNT; i++)
        ptrvec_push(c->p->arena, &v, (void *)array_func_names[i]);
    for (int i = 0; i < c->p->all_defs.n; i++) {
        AstDef *d = ((SemaDef *)c->p->all_defs.items[i])->ast;
        if (d->kind == DEF_FUNCTION)
            ptrvec_push(c->p->arena, &v, (void *)d->name->name);
    }
    return diag_closest(f, (const char *const *)v.items, v.n);
}

/* arrays: a call whose callee names a member is an index: `masses(i)`
   becomes the name masses with the index (i) on its last part. */
static bool call_is_index(Checker *c, AstExpr *e)
{
    AstExpr *callee = e->u.call.callee;
    if (!callee)
        return false;
    Sym *first = callee->u.name.parts[0].sym;
    if (!is_loop_var(c, first) && !rs_is_local(c, first)
        && !rs_visible_somewhere(c->d, first, c->scope))
        return false;
    PtrVec args = e->u.call.args;
    AstNamePart *parts = callee->u.name.parts;
    int n = callee->u.name.n;
    e->kind = EXPR_NAME;
    e->u.name.parts = parts;
    e->u.name.n = n;
    parts[n - 1].index = (AstExpr **)args.items;
    parts[n - 1].nindex = args.n;
    for (int i = 0; i < args.n; i++)
        if (((AstExpr *)args.items[i])->kind == EXPR_OPTION)
            diag_error(((AstExpr *)args.items[i])->span, "an index is an "
                       "expression, not NAME = value");
    if (!args.n)
        diag_error(e->span, "'%s()' needs an index", parts[n - 1].sym->name);
    return true;
}

/* arrays: `interpolation = linear|smooth`, `extrapolation = ...`. */
static void check_table_option(AstExpr *o)
{
    const char *n = o->u.option.name->name;
    static const char *const names[] = {"interpolation", "extrapolation"};
    static const char *const interp[] = {"linear", "smooth"};
    static const char *const extrap[] = {"linear", "nearest", "error"};
    bool is_interp = !strcmp(n, "interpolation");
    if (!is_interp && strcmp(n, "extrapolation")) {
        const char *s = diag_closest(n, names, 2);
        diag_error(o->u.option.name_span, "unknown option '%s' of tablelookup; it "
                   "takes interpolation = and extrapolation =%s", n,
                   diag_did_you_mean(s).text);
        return;
    }
    AstExpr *v = o->u.option.value;
    /* Simscape's simscape.enum.interpolation.smooth is `smooth`: the name
       keeps its last part (the same rewrite each time, so a base's shared
       tree may take it) */
    if (v->kind == EXPR_NAME && v->u.name.n == 4 && !v->u.name.parts[3].nindex
        && !strcmp(v->u.name.parts[0].sym->name, "simscape")
        && !strcmp(v->u.name.parts[1].sym->name, "enum")
        && !strcmp(v->u.name.parts[2].sym->name, n)) {
        v->u.name.parts[0] = v->u.name.parts[3];
        v->u.name.n = 1;
    }
    const char *const *ok = is_interp ? interp : extrap;
    int nok = is_interp ? 2 : 3;
    const char *w = ast_is_simple_name(v) && !v->u.name.parts[0].nindex
                        ? v->u.name.parts[0].sym->name : NULL;
    for (int i = 0; w && i < nok; i++)
        if (!strcmp(w, ok[i]))
            return;
    const char *s = w ? diag_closest(w, ok, nok) : NULL;
    diag_error(v->span, "%s is %s%s", n, is_interp ? "linear or smooth"
               : "linear, nearest or error", diag_did_you_mean(s).text);
}

/* arrays: the functions of vectors and matrices (LMDL_ARRAY_FUNCS), and
   min/max of one vector. */
static void check_array_call(Checker *c, AstExpr *e, int af)
{
    const char *f = e->u.call.func->name;
    PtrVec *args = &e->u.call.args;
    int npos = 0;
    c->d->has_arrays = true;
    for (int i = 0; i < args->n; i++) {
        AstExpr *a = args->items[i];
        if (a->kind != EXPR_OPTION) {
            npos++;
            continue;
        }
        if (af == AF_TABLELOOKUP)
            check_table_option(a);
        else
            diag_error(a->span, "'%s' takes no NAME = value arguments", f);
    }
    int lo = af >= 0 ? array_func_min_args[af] : 1;
    int hi = af >= 0 ? array_func_max_args[af] : 1;
    if (af == AF_TABLELOOKUP && (npos == 7 || npos == 9))
        diag_error(e->span, "Simscape's %d-D tablelookup is not supported yet; "
                   "tables of one and two variables are", (npos - 1) / 2);
    else if (af == AF_TABLELOOKUP && npos != 3 && npos != 5)
        diag_error(e->span, "tablelookup takes 3 arguments (x1d, fd, x1) or 5 "
                   "(x1d, x2d, fd, x1, x2), not %d", npos);
    else if ((af == AF_ZEROS || af == AF_ONES) && npos > 2)
        diag_error(e->span, "Simscape's arrays of %d dimensions (%s(...) of %d sizes) "
                   "are not supported yet; vectors and matrices are", npos, f, npos);
    else if (npos < lo || npos > hi)
        diag_error(e->span, "'%s' takes %s%d argument%s, not %d", f,
                   lo == hi ? "" : lo + 1 == hi ? "1 or " : "", hi, hi == 1 ? "" : "s",
                   npos);
    RefMode mode = c->mode;
    const char *what = c->what;
    int k = 0;
    for (int i = 0; i < args->n; i++) {
        AstExpr *a = args->items[i];
        if (a->kind == EXPR_OPTION)
            continue;
        /* sizes are fixed at compile time; a table's data are parameters */
        int sizes = af >= 0 ? array_func_sizes[af] : -1;
        bool parametric = (sizes >= 0 && k >= sizes)
                          || (af == AF_TABLELOOKUP && k < npos / 2 + 1);
        if (parametric && c->mode != REF_PARAMETER && c->mode != REF_VALUE) {
            c->mode = REF_INDEX;
            c->what = af == AF_TABLELOOKUP ? "the data of a table" : "a size";
        }
        /* size(x), numel(x), length(x) read x's size only, which is fixed
           when the model is compiled: x may be a variable even where a
           size is asked for, as in ones(size(x)) */
        if ((af == AF_SIZE || af == AF_NUMEL || af == AF_LENGTH) && k == 0
            && c->mode == REF_INDEX) {
            c->mode = REF_EQUATION;
            c->what = "an equation";
        }
        rs_check_expr(c, a);
        c->mode = mode;
        c->what = what;
        k++;
    }
}

/* MATLAB's functional forms of the operators: ge(a, b) is a >= b. */
static const struct { const char *name; AstOp op; int arity; } operator_funcs[] = {
    {"ge", OP_GE, 2}, {"gt", OP_GT, 2}, {"le", OP_LE, 2}, {"lt", OP_LT, 2},
    {"eq", OP_EQ, 2}, {"ne", OP_NE, 2}, {"and", OP_AND, 2}, {"or", OP_OR, 2},
    {"not", OP_NOT, 1}, {"plus", OP_ADD, 2}, {"minus", OP_SUB, 2},
    {"times", OP_EMUL, 2}, {"rdivide", OP_EDIV, 2}, {"power", OP_EPOW, 2},
    {"mtimes", OP_MUL, 2}, {"mrdivide", OP_DIV, 2}, {"mpower", OP_POW, 2},
    {"uminus", OP_NEG, 1}, {"uplus", OP_PLUS, 1},
};

/* A call of an operator's functional form (a name no member or function
   of the model takes), rewritten in place as the operator. */
static bool rewrite_operator_call(Checker *c, AstExpr *e)
{
    if (e->u.call.qual || e->u.call.fn)
        return false;
    const char *f = e->u.call.func->name;
    for (size_t i = 0; i < sizeof operator_funcs / sizeof operator_funcs[0]; i++) {
        if (strcmp(operator_funcs[i].name, f))
            continue;
        if (rs_visible_somewhere(c->d, e->u.call.func, c->scope) || sema_lookup(c->p, e->u.call.func,
                                                                     e->u.call.func_span.file))
            return false; /* the model's own */
        int n = e->u.call.args.n;
        if (n != operator_funcs[i].arity) {
            diag_error(e->span, "'%s' takes %d argument%s, not %d", f, operator_funcs[i].arity,
                       operator_funcs[i].arity == 1 ? "" : "s", n);
            return true;
        }
        AstExpr **a = (AstExpr **)e->u.call.args.items;
        SrcSpan sp = e->span;
        if (n == 1) {
            e->kind = EXPR_UNARY;
            e->u.unary.op = operator_funcs[i].op;
            e->u.unary.arg = a[0];
        } else {
            e->kind = EXPR_BINARY;
            e->u.binary.op = operator_funcs[i].op;
            e->u.binary.lhs = a[0];
            e->u.binary.rhs = a[1];
        }
        e->span = sp;
        e->parens = true; /* it was one expression: printed with its parentheses */
        rs_check_expr(c, e);
        return true;
    }
    return false;
}

/* Functions of Simscape's namespaces, written qualified: simscape.tablelookup
   is tablelookup; simscape.function.blend a special form. */
static void namespace_alias(Checker *c, AstExpr *e)
{
    if (!e->u.call.qual)
        return;
    const char *text = ast_name_text(c->p->arena, e->u.call.qual);
    if (!strcmp(text, "simscape.tablelookup")) {
        e->u.call.func = sym_cstr("tablelookup");
        e->u.call.qual = NULL;
    } else if (special_find(text) >= 0) {
        e->u.call.func = sym_cstr(text);
        e->u.call.qual = NULL;
    }
}

static void check_call(Checker *c, AstExpr *e)
{
    if (call_is_index(c, e)) {
        check_name(c, e);
        return;
    }
    namespace_alias(c, e);
    if (rewrite_operator_call(c, e))
        return;
    AstExpr *callee = e->u.call.callee;
    for (int i = 0; callee && i < callee->u.name.n; i++)
        if (callee->u.name.parts[i].nindex) {
            diag_error(callee->span, "only a function's name can be called, not "
                       "'%s'", ast_name_text(c->p->arena, callee));
            break;
        }
    const char *f = e->u.call.func->name;
    int af = e->u.call.qual ? -1 : array_func_find(f);
    int k = e->u.call.qual ? -1 : builtin_find(f);
    if (af >= 0 || ((k == FN_MIN || k == FN_MAX) && e->u.call.args.n == 1)) {
        check_array_call(c, e, af);
        return;
    }
    /* NAME = value belongs to tablelookup and delay only: reported once,
       and the call is not checked further */
    int sf = e->u.call.qual ? -1 : special_find(f);
    for (int i = 0; sf != SF_DELAY && i < e->u.call.args.n; i++) {
        AstExpr *a = e->u.call.args.items[i];
        if (a->kind == EXPR_OPTION) {
            if (!strcmp(f, "scatteredlookup"))
                diag_error(a->span, "Simscape's options of scatteredlookup (%s = ...) "
                           "are not supported yet", a->u.option.name->name);
            else
                diag_error(a->span, "'%s' takes no NAME = value arguments", f);
            return;
        }
    }
    int arity = k >= 0 ? builtin_arity[k] : -1;
    if (k < 0 && !e->u.call.qual && check_special_call(c, e))
        return;
    if (k < 0 && rs_check_function_call(c, e))
        return;
    if (arity < 0 && e->u.call.qual) {
        diag_error(e->u.call.func_span, "unknown function '%s': there is no "
                   "function file %s on the search path",
                   ast_name_text(c->p->arena, e->u.call.qual),
                   rs_package_path(c->p->arena, e->u.call.qual));
    } else if (arity < 0) {
        const char *s = suggest_function(c, f);
        diag_error(e->u.call.func_span, "unknown function '%s'%s", f,
                   diag_did_you_mean(s).text);
        sema_note_searched(c->p, "function");
    } else if (arity != e->u.call.args.n) {
        diag_error(e->span, "'%s' takes %d argument%s, not %d", f, arity,
                   arity == 1 ? "" : "s", e->u.call.args.n);
    }
    for (int i = 0; i < e->u.call.args.n; i++)
        rs_check_expr(c, e->u.call.args.items[i]);
}

void rs_check_expr(Checker *c, AstExpr *e)
{
    switch (e->kind) {
    case EXPR_NUM: case EXPR_BOOL: case EXPR_REF:
        break;
    case EXPR_STR:
        diag_error(e->span, "a string cannot be used as a value here");
        break;
    case EXPR_TIME:
        if (c->mode != REF_EQUATION)
            diag_error(e->span, "%s cannot depend on time", c->what);
        break;
    case EXPR_NAME:
        check_name(c, e);
        break;
    case EXPR_DER:
        if (c->mode != REF_EQUATION)
            diag_error(e->span, "der() cannot appear in %s", c->what);
        if (ast_is_simple_name(e->u.der.arg)) {
            SemaMember *m = rs_visible_somewhere(c->d, e->u.der.arg->u.name.parts[0].sym, c->scope);
            if (m && m->event)
                diag_error(e->span, "'%s' is an event variable, piecewise constant: "
                           "der() of it is zero", m->name->name);
        }
        rs_check_expr(c, e->u.der.arg);
        break;
    case EXPR_CALL:
        check_call(c, e);
        break;
    case EXPR_UNARY:
        rs_check_expr(c, e->u.unary.arg);
        break;
    case EXPR_BINARY:
        rs_check_expr(c, e->u.binary.lhs);
        rs_check_expr(c, e->u.binary.rhs);
        break;
    case EXPR_IF:
        rs_check_expr(c, e->u.cond.cond);
        rs_check_expr(c, e->u.cond.then);
        rs_check_expr(c, e->u.cond.els);
        break;
    case EXPR_QUANTITY:
        if (ast_any_unit(e))
            diag_error(e->u.quantity.unit_span, "the unit '*' (the unit of the value "
                       "bound at instantiation) is only a parameter's declared unit, "
                       "as in k = {1, '*'};");
        rs_check_expr(c, e->u.quantity.value);
        break;
    case EXPR_RECORD:
        diag_error(e->span, "a {name = value, ...} form is only allowed as a "
                            "variable's declaration or override");
        break;
    /* arrays */
    case EXPR_MATRIX:
        c->d->has_arrays = true;
        for (int i = 0; i < e->u.matrix.rows.n; i++) {
            PtrVec *row = e->u.matrix.rows.items[i];
            for (int j = 0; j < row->n; j++)
                rs_check_expr(c, row->items[j]);
        }
        break;
    case EXPR_RANGE:
        c->d->has_arrays = true;
        rs_check_expr(c, e->u.range.first);
        if (e->u.range.step)
            rs_check_expr(c, e->u.range.step);
        rs_check_expr(c, e->u.range.last);
        break;
    case EXPR_OPTION:
        diag_error(e->span, "NAME = value is an argument of tablelookup or delay, "
                   "not a value");
        break;
    default:
        break;
    }
}

/* Checks `{value = ..., priority = ..., nominal = ...}`. */
void rs_check_record(Checker *c, AstExpr *e)
{
    for (int i = 0; i < e->u.record.n; i++) {
        AstField *f = &e->u.record.fields[i];
        const char *n = f->name->name;
        if (strcmp(n, "priority") == 0) {
            AstExpr *v = f->value;
            bool ok = v->kind == EXPR_NAME && v->u.name.n == 2
                      && strcmp(v->u.name.parts[0].sym->name, "priority") == 0;
            const char *lvl = ok ? v->u.name.parts[1].sym->name : "";
            if (!ok || (strcmp(lvl, "high") && strcmp(lvl, "low") && strcmp(lvl, "none")))
                diag_error(v->span, "a priority is priority.high, priority.low "
                                    "or priority.none");
        } else if (strcmp(n, "value") == 0 || strcmp(n, "nominal") == 0) {
            rs_check_expr(c, f->value);
        } else {
            const char *names[] = {"value", "priority", "nominal"};
            const char *s = diag_closest(n, names, 3);
            diag_error(f->name_span, "unknown field '%s'; a variable takes "
                       "value, priority and nominal%s", n, diag_did_you_mean(s).text);
        }
    }
}
