/*
 * resolve_members.c - resolution (resolve.c): each definition's member
 * table, its conditional arms (scopes) and its sections' attributes.
 *
 * Conditional sections make scopes: arm 0 is the unconditional body and
 * every if/elseif/else arm is a child scope of the arm it sits in.  A name
 * may be declared in two sibling arms (only one exists after elaboration),
 * never twice on one path.  Every declaration of a definition is collected
 * before any of its bodies is checked.
 */
#include "resolve_internal.h"

#include <string.h>
#include <strings.h>

/* ---- member tables -------------------------------------------------------- */

bool rs_scope_within(const SemaDef *d, int inner, int outer)
{
    for (int s = inner; s >= 0; s = s == 0 ? -1 : d->scope_parent[s])
        if (s == outer)
            return true;
    return false;
}

SemaMember *sema_member(const SemaDef *d, const Sym *name)
{
    return symmap_get(&d->members, name);
}

/* True when `name` exists whichever arms are active below arm a: it is
   declared in a itself, or in every clause of an if inside a that has an
   else (Simscape's variants that each declare the same parameter). */
static bool declared_throughout(const SemaDef *d, const Sym *name, int a)
{
    for (SemaMember *m = symmap_get(&d->members, name); m; m = m->next_same_name)
        if (m->scope == a)
            return true;
    for (int x = 1; x < d->nscopes; x++) {
        if (d->scope_parent[x] != a)
            continue;
        const AstItem *it = d->scope_item[x];
        const PtrVec *cl = &it->u.if_.clauses;
        const AstClause *first = cl->items[0];
        if (first->arm != x)
            continue; /* each if once, at its first clause */
        const AstClause *last = cl->items[cl->n - 1];
        bool all = last->cond == NULL;
        for (int j = 0; all && j < cl->n; j++)
            all = declared_throughout(d, name, ((const AstClause *)cl->items[j])->arm);
        if (all)
            return true;
    }
    return false;
}

/* The declaration of `name` visible from arm `scope`, or NULL: one in the
   arm or an arm around it, or one declared in every clause of an if with
   an else there (elaboration then picks the active clause's by name). */
SemaMember *rs_visible(const SemaDef *d, const Sym *name, int scope)
{
    SemaMember *first = symmap_get(&d->members, name);
    for (SemaMember *m = first; m; m = m->next_same_name)
        if (rs_scope_within(d, scope, m->scope))
            return m;
    if (!first || !first->next_same_name)
        return NULL;
    for (int s = scope; s >= 0; s = s == 0 ? -1 : d->scope_parent[s])
        if (declared_throughout(d, name, s))
            for (SemaMember *m = first; m; m = m->next_same_name)
                if (rs_scope_within(d, m->scope, s))
                    return m;
    return NULL;
}

/* Any declaration of `name` in the definition: what a reference sees when
   no arm around it declares the name, as Simscape compiles a variant
   with the parameter values it is given.  Elaboration, which knows the
   active arms, reports a member that does not exist there. */
SemaMember *rs_visible_somewhere(const SemaDef *d, const Sym *name, int scope)
{
    SemaMember *m = rs_visible(d, name, scope);
    return m ? m : symmap_get(&d->members, name);
}

/* The array grows by doubling; its capacity is the next power of two of
   nscopes, so a component with thousands of arms stays linear. */
int rs_new_scope(Program *p, SemaDef *d, int parent, const void *item)
{
    int n = d->nscopes;
    if ((n & (n - 1)) == 0) {
        size_t cap = (size_t)(n ? 2 * n : 1);
        int *sp = arena_alloc(p->arena, sizeof(int) * cap);
        int *so = arena_alloc(p->arena, sizeof(int) * cap);
        const void **si = arena_alloc(p->arena, sizeof(void *) * cap);
        if (n) {
            memcpy(sp, d->scope_parent, sizeof(int) * (size_t)n);
            memcpy(so, d->scope_order, sizeof(int) * (size_t)n);
            memcpy(si, d->scope_item, sizeof(void *) * (size_t)n);
        }
        d->scope_parent = sp;
        d->scope_order = so;
        d->scope_item = si;
    }
    d->scope_parent[n] = parent;
    d->scope_order[n] = d->member_list.n;
    d->scope_item[n] = item;
    return d->nscopes++;
}

/* Two arms can never be active together only when they lie in different
   clauses of one if: below their lowest common arm, the two branches are
   clauses of the same item. */
bool rs_exclusive(const SemaDef *d, int a, int b)
{
    for (int x = a; x >= 0; x = x == 0 ? -1 : d->scope_parent[x]) {
        for (int y = b; y >= 0; y = y == 0 ? -1 : d->scope_parent[y]) {
            int px = x == 0 ? -1 : d->scope_parent[x];
            int py = y == 0 ? -1 : d->scope_parent[y];
            if (x != y && px == py && px >= 0)
                return d->scope_item[x] == d->scope_item[y];
            if (x == y)
                return false; /* one contains the other */
        }
    }
    return false;
}

static SemaMember *declare(Program *p, SemaDef *d, SemaMemberKind kind, Sym *name,
                           SrcSpan at, AstDecl *decl, AstInstance *inst, int scope)
{
    SemaMember *first = symmap_get(&d->members, name);
    for (SemaMember *m = first; m; m = m->next_same_name) {
        if (!rs_exclusive(d, scope, m->scope)) {
            diag_error(at, "'%s' is declared twice in %s '%s'", name->name,
                       d->ast->kind == DEF_DOMAIN ? "domain" : "component",
                       d->ast->name->name);
            diag_note(m->decl ? m->decl->name_span : m->inst->name_span,
                      "the first declaration of '%s' (a %s) is here",
                      name->name, sema_member_kind_names[m->kind]);
            break; /* still declared, so uses of it raise no more errors */
        }
    }
    SemaMember *m = arena_alloc(p->arena, sizeof *m);
    m->kind = kind;
    m->name = name;
    m->decl = decl;
    m->inst = inst;
    m->scope = scope;
    m->order = d->member_list.n;
    m->next_same_name = first;
    symmap_put(&d->members, name, m);
    ptrvec_push(p->arena, &d->member_list, m);
    return m;
}

/* ---- section attributes ------------------------------------------------------

   Simscape's member attributes: Access = public | private | protected,
   ExternalAccess = modify | observe | none, Conversion = absolute |
   relative, Event = true (event variables: piecewise constant, changed
   only by when clauses and mode chart entry actions), Balancing = true
   (a domain's through variables), Initial = true (initial equations);
   Hidden (a member a block dialog does not show), CompileReuse (a
   compiler hint) and Size (fixed or variable: lmdl sizes every parameter
   by its value) are accepted and mean nothing to a simulation.  Anything
   else is an error at the attribute. */

#define MEMBER_SECTIONS                                                      \
    ((1u << SEC_PARAMETERS) | (1u << SEC_VARIABLES) | (1u << SEC_INTERMEDIATES) \
     | (1u << SEC_NODES) | (1u << SEC_INPUTS) | (1u << SEC_OUTPUTS)         \
     | (1u << SEC_COMPONENTS))

/* X(name, its values, the sections that take it) */
#define SECTION_ATTRIBUTES(X)                                                \
    X("Access", "public, private or protected", MEMBER_SECTIONS)             \
    X("ExternalAccess", "modify, observe or none", MEMBER_SECTIONS)          \
    X("Conversion", "absolute or relative",                                  \
      (1u << SEC_PARAMETERS) | (1u << SEC_VARIABLES) | (1u << SEC_INPUTS)    \
      | (1u << SEC_OUTPUTS) | (1u << SEC_INTERMEDIATES))                     \
    X("Event", "true or false", 1u << SEC_VARIABLES)                         \
    X("Balancing", "true or false", 1u << SEC_VARIABLES)                     \
    X("Initial", "true or false", 1u << SEC_EQUATIONS)                        \
    X("Hidden", "true or false", MEMBER_SECTIONS)                            \
    X("CompileReuse", "true or false", 1u << SEC_COMPONENTS)                 \
    X("Size", "fixed or variable", 1u << SEC_PARAMETERS)

typedef struct SectionAttrs {
    SemaAccess access;      /* Access (protected is private from outside) */
    SemaExternal external;  /* ExternalAccess */
    bool event;             /* Event = true: the section's variables are
                               event variables */
    bool relative;          /* Conversion = relative */
} SectionAttrs;

/* The word an attribute's value is written as ("" for another form). */
static const char *attr_word(const AstExpr *v)
{
    return ast_is_simple_name(v) ? v->u.name.parts[0].sym->name
           : v->kind == EXPR_BOOL ? (v->u.boolean ? "true" : "false")
           : "";
}

/* The value of a section's attribute `name` as written, or NULL. */
const char *rs_section_attr(const AstItem *it, const char *name)
{
    for (int i = 0; i < it->u.section.attrs.n; i++) {
        AstArg *g = it->u.section.attrs.items[i];
        if (!strcmp(g->name->name, name))
            return attr_word(g->value);
    }
    return NULL;
}

static bool one_of(const char *word, const char *a, const char *b, const char *c)
{
    return !strcasecmp(word, a) || !strcasecmp(word, b) || (c && !strcasecmp(word, c));
}

static SectionAttrs section_attrs(Program *p, AstItem *it)
{
#define X_ATTRNAME(n, vals, where) n,
#define X_ATTRVALS(n, vals, where) vals,
#define X_ATTRWHERE(n, vals, where) where,
    static const char *const names[] = {SECTION_ATTRIBUTES(X_ATTRNAME)};
    static const char *const values[] = {SECTION_ATTRIBUTES(X_ATTRVALS)};
    static const unsigned where[] = {SECTION_ATTRIBUTES(X_ATTRWHERE)};
    enum { NATTR = sizeof names / sizeof names[0] };
    SectionAttrs r = {ACCESS_PUBLIC, EXT_MODIFY, false, false};
    AstSectionKind k = it->u.section.kind;
    for (int i = 0; i < it->u.section.attrs.n; i++) {
        AstArg *g = it->u.section.attrs.items[i];
        const char *n = g->name->name;
        int a = 0;
        while (a < NATTR && strcmp(names[a], n))
            a++;
        if (a == NATTR || !(where[a] & (1u << k))) {
            PtrVec v = {0};
            for (int j = 0; j < NATTR; j++)
                if (where[j] & (1u << k))
                    ptrvec_push(p->arena, &v, (void *)names[j]);
            const char *s = diag_closest(n, (const char *const *)v.items, v.n);
            if (a < NATTR)
                diag_error(g->name_span, "'%s' sections take no attribute '%s'",
                           ast_section_names[k], n);
            else
                diag_error(g->name_span, "unknown attribute '%s' of '%s' sections%s",
                           n, ast_section_names[k], diag_did_you_mean(s).text);
            continue;
        }
        const char *word = attr_word(g->value);
        bool ok = true;
        if (!strcmp(n, "Access")) {
            ok = one_of(word, "public", "private", "protected");
            if (ok && strcasecmp(word, "public"))
                r.access = ACCESS_PRIVATE;
        } else if (!strcmp(n, "ExternalAccess")) {
            ok = one_of(word, "modify", "observe", "none");
            r.external = !strcasecmp(word, "none") ? EXT_NONE
                         : !strcasecmp(word, "observe") ? EXT_OBSERVE : EXT_MODIFY;
        } else if (!strcmp(n, "Conversion")) {
            ok = one_of(word, "absolute", "relative", NULL);
            r.relative = !strcasecmp(word, "relative");
        } else if (!strcmp(n, "Size")) {
            /* a parameter whose size an instance may change: every
               parameter is, here (a binding gives a vector its size) */
            ok = one_of(word, "fixed", "variable", NULL);
        } else {
            ok = one_of(word, "true", "false", NULL);
            if (!strcmp(n, "Event"))
                r.event = !strcasecmp(word, "true");
            if (!strcmp(n, "Initial"))
                it->u.section.initial = !strcasecmp(word, "true");
        }
        if (!ok)
            diag_error(g->value->span, "%s is %s", n, values[a]);
    }
    return r;
}

/* What the declarations of a section are (the section table, ast.h). */
static SemaMemberKind member_kind_of(AstSectionKind k)
{
#define X_SECMEMBER(k, w, tok, mem, where, entry, title, col, val, rank) (int)mem,
    static const int member[] = {AST_SECTION_KINDS(X_SECMEMBER)};
    return (SemaMemberKind)member[k];
}

bool rs_section_allowed(AstDefKind dk, AstSectionKind k)
{
    return (ast_section_where[k] & (dk == DEF_DOMAIN ? SEC_IN_DOMAIN : SEC_IN_COMPONENT)) != 0;
}

/* arrays: the indices of a declaration `m(i) = ...` fit where it is: one
   index, inside a for-loop, for components and nodes; and a component or
   node declared inside a loop is an array. */
static int declared_rank(SemaDef *d, AstSectionKind k, PtrVec *index, Sym *name,
                         SrcSpan at, bool in_loop)
{
    const char *what = k == SEC_COMPONENTS ? "component" : "node";
    if (index->n && !in_loop) {
        diag_error(at, "'%s(...)' declares an array element, which belongs in a "
                   "for-loop: for i = 1:N ... %s(i) = ...", name->name, name->name);
        return 0;
    }
    if (!index->n && in_loop) {
        diag_error(at, "a %s declared in a for-loop is an array element and "
                   "needs the loop's index: %s(i)", what, name->name);
        return 0;
    }
    if (index->n > 1) {
        diag_error(at, "an array of %ss has one index, not %d", what, index->n);
        return 1;
    }
    (void)d;
    return index->n;
}

/* Declares what one section declares (nothing for the sections that
   declare nothing). */
static void collect_section(Program *p, SemaDef *d, AstItem *it, int scope, bool in_loop)
{
    AstSectionKind k = it->u.section.kind;
    if (!rs_section_allowed(d->ast->kind, k)) {
        diag_error(it->span, "a %s cannot have a '%s' section",
                   d->ast->kind == DEF_DOMAIN ? "domain" : "component",
                   ast_section_names[k]);
        return;
    }
    PtrVec *v = &it->u.section.entries;
    SectionAttrs at = section_attrs(p, it);
    if (in_loop && k != SEC_COMPONENTS && k != SEC_NODES && k != SEC_CONNECTIONS
        && k != SEC_BRANCHES && k != SEC_EQUATIONS) {
        diag_error(it->span, "a for-loop may hold components, nodes, "
                   "connections, branches and equations, not a '%s' section: "
                   "declare the vector outside the loop", ast_section_names[k]);
        return;
    }
    if (k == SEC_COMPONENTS) {
        for (int j = 0; j < v->n; j++) {
            AstInstance *in = v->items[j];
            SemaMember *m = declare(p, d, MEM_INSTANCE, in->name, in->name_span, NULL, in,
                                    scope);
            m->access = at.access;
            m->external = at.external;
            m->rank = declared_rank(d, k, &in->index, in->name, in->name_span, in_loop);
            /* its type now, so that a reference checked before the
               declaration's section (`connect(A, m(1).P)` above the loop
               that declares m) resolves; check_instance reports a bad one */
            SemaDef *t = in->type_qual ? sema_lookup_qualified(p, in->type_qual, in->type_span.file)
                                       : sema_lookup(p, in->type, in->type_span.file);
            if (t && t->ast->kind == DEF_COMPONENT && t != d)
                m->type = t;
        }
    } else if (ast_section_is_decls(k)) {
        for (int j = 0; j < v->n; j++) {
            AstDecl *dc = v->items[j];
            SemaMember *m = declare(p, d, member_kind_of(k), dc->name, dc->name_span, dc,
                                    NULL, scope);
            m->access = at.access;
            m->external = at.external;
            m->event = at.event;
            m->relative = at.relative;
            /* Conversion = relative: {10, 'degC'} is a difference of 10 K */
            if (at.relative)
                ast_set_relative(dc->value, true);
            if (k == SEC_NODES) {
                m->rank = declared_rank(d, k, &dc->index, dc->name, dc->name_span, in_loop);
                /* its domain now, so that NODE.param reads in sections checked
                   before the nodes section resolve; check_decl reports a bad one */
                AstExpr *dn = dc->value;
                if (dn->kind == EXPR_CALL && dn->u.call.callee)
                    dn = dn->u.call.callee;
                if (dn->kind == EXPR_NAME && !dn->parens) {
                    int n = dn->u.name.n;
                    SemaDef *t = n > 1 ? sema_lookup_qualified(p, dn, dn->span.file)
                                       : sema_lookup(p, dn->u.name.parts[0].sym, dn->span.file);
                    if (t && t->ast->kind == DEF_DOMAIN) {
                        sema_resolve_def(p, t);
                        m->type = t;
                    }
                }
            } else if (dc->index.n)
                diag_error(dc->name_span, "only components and nodes are declared "
                           "with an index; a vector %s is declared by its value, "
                           "as in %s = {zeros(1, N), 'm'}",
                           sema_member_kind_names[m->kind], dc->name->name);
        }
    }
}

/* arrays: the sections of a for-loop's body, and the loops nested in it,
   declare into the arm the loop is in. */
static void collect_loop(Program *p, SemaDef *d, AstItem *loop, int scope)
{
    d->has_arrays = true;
    if (d->ast->kind == DEF_DOMAIN) {
        diag_error(loop->span, "a domain cannot have for-loops");
        return;
    }
    PtrVec *body = &loop->u.for_.body;
    for (int i = 0; i < body->n; i++) {
        AstItem *it = body->items[i];
        if (it->kind == ITEM_SECTION)
            collect_section(p, d, it, scope, true);
        else if (it->kind == ITEM_FOR)
            collect_loop(p, d, it, scope);
        else
            diag_error(it->span, "a conditional section cannot be inside a "
                       "for-loop; put the for-loop inside the conditional "
                       "section, or use an if-equation");
    }
}

/* Declares the members of one arm and of the arms nested in it, in source
   order (a member's order is where it is written, as elaboration declares
   them), so that every declaration is known before any body is checked. */
void rs_collect_members(Program *p, SemaDef *d, PtrVec *items, int scope)
{
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind == ITEM_SECTION)
            collect_section(p, d, it, scope, false);
        else if (it->kind == ITEM_FOR)
            collect_loop(p, d, it, scope);
        if (it->kind != ITEM_IF)
            continue;
        if (d->ast->kind == DEF_DOMAIN) {
            diag_error(it->span, "a domain cannot have conditional sections");
            continue;
        }
        for (int j = 0; j < it->u.if_.clauses.n; j++) {
            AstClause *c = it->u.if_.clauses.items[j];
            c->arm = rs_new_scope(p, d, scope, it);
            rs_collect_members(p, d, &c->body, c->arm);
        }
    }
}
