/*
 * resolve_inherit.c - resolution (resolve.c): what a definition's header
 * says beyond its name.
 *
 * Simscape's subclassing: `component NAME < pkg.Base` extends a base
 * component.  The subclass has every member, section and equation of the
 * base (the base's own base first), then its own; it may not declare a
 * name the base declares.  This is done on the syntax tree: the
 * definition's items become the base's items followed by its own, so
 * every later pass sees one component.  The base's items keep their
 * source locations, and the names in them are looked up from the base's
 * file (each lookup goes by the file its name is written in).
 *
 * Component attributes, `component (Propagation = blocks, Hidden = true)`,
 * are checked here.  Propagation (propagates, the default; blocks, or
 * `none` as some libraries write it; source) says whether the networks
 * of a component's nodes share their domain parameters
 * (docs/simscape.md); Hidden only hides a block from a library browser.
 */
#include "resolve_internal.h"

#include <string.h>
#include <strings.h>

/* X(name, its values) */
#define COMPONENT_ATTRIBUTES(X)                                             \
    X("Propagation", "propagates, blocks or source")                        \
    X("Hidden", "true or false")

static void check_attrs(Program *p, SemaDef *d)
{
#define X_CATTR(n, vals) n,
    static const char *const names[] = {COMPONENT_ATTRIBUTES(X_CATTR)};
#undef X_CATTR
    enum { NATTR = sizeof names / sizeof names[0] };
    for (int i = 0; i < d->ast->attrs.n; i++) {
        AstArg *g = d->ast->attrs.items[i];
        const char *n = g->name->name;
        const AstExpr *v = g->value;
        const char *word = ast_is_simple_name(v) ? v->u.name.parts[0].sym->name
                           : v->kind == EXPR_BOOL ? (v->u.boolean ? "true" : "false")
                           : "";
        if (!strcmp(n, "Propagation")) {
            if (strcasecmp(word, "propagates") && strcasecmp(word, "blocks") && strcasecmp(word, "source")
                && strcasecmp(word, "none"))
                diag_error(v->span, "Propagation is propagates, blocks or source");
            else
                d->propagation = !strcasecmp(word, "source") ? SEMA_PROP_SOURCE
                                 : !strcasecmp(word, "propagates") ? SEMA_PROP_PROPAGATES
                                                               : SEMA_PROP_BLOCKS;
        } else if (!strcmp(n, "Hidden")) {
            if (strcasecmp(word, "true") && strcasecmp(word, "false"))
                diag_error(v->span, "Hidden is true or false");
            d->hidden = !strcasecmp(word, "true");
        } else {
            const char *s = diag_closest(n, names, NATTR);
            diag_error(g->name_span, "unknown attribute '%s' of a component%s", n,
                       diag_did_you_mean(s).text);
        }
    }
    (void)p;
}

/* The names the items declare at their top level and in their arms and
   loops, each with where. */
static void declared_names(Program *p, const PtrVec *items, PtrVec *names, PtrVec *spans)
{
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind == ITEM_SETUP)
            continue;
        if (it->kind == ITEM_IF) {
            for (int j = 0; j < it->u.if_.clauses.n; j++)
                declared_names(p, &((AstClause *)it->u.if_.clauses.items[j])->body, names,
                               spans);
            continue;
        }
        if (it->kind == ITEM_FOR) {
            declared_names(p, &it->u.for_.body, names, spans);
            continue;
        }
        AstSectionKind k = it->u.section.kind;
        for (int j = 0; j < it->u.section.entries.n; j++) {
            if (k == SEC_COMPONENTS) {
                AstInstance *in = it->u.section.entries.items[j];
                ptrvec_push(p->arena, names, in->name);
                ptrvec_push(p->arena, spans, &in->name_span);
            } else if (ast_section_is_decls(k)) {
                AstDecl *dc = it->u.section.entries.items[j];
                ptrvec_push(p->arena, names, dc->name);
                ptrvec_push(p->arena, spans, &dc->name_span);
            }
        }
    }
}

void rs_inherit(Program *p, SemaDef *d)
{
    AstDef *ad = d->ast;
    check_attrs(p, d);
    if (!ad->base)
        return;
    AstExpr *bn = ad->base;
    char *text = ast_name_text(p->arena, bn);
    SemaDef *b = bn->u.name.n > 1 ? sema_lookup_qualified(p, bn, bn->span.file)
                                  : rs_lookup_at(p, bn->u.name.parts[0].sym, bn->span.file,
                                                 bn->span);
    if (!b) {
        const char *s = bn->u.name.n > 1 ? rs_suggest_qualified(p, text)
                                         : sema_suggest_def(p, text);
        diag_error(bn->span, "unknown component '%s' to extend: there is no %s on the "
                   "search path%s", text, rs_package_path(p->arena, bn),
                   diag_did_you_mean(s).text);
        if (bn->u.name.n == 1)
            sema_note_searched(p, "component");
        return;
    }
    if (b->ast->kind != DEF_COMPONENT) {
        diag_error(bn->span, "'%s' is a %s; a component extends a component", text,
                   rs_def_kind_name(b));
        diag_note(b->ast->name_span, "'%s' is defined here", text);
        return;
    }
    if (b == d || b->inheriting) {
        diag_error(bn->span, "'%s' extends itself: its chain of base components "
                   "comes back to it", ad->name->name);
        return;
    }
    /* the base's own base first */
    d->inheriting = true;
    sema_resolve_def(p, b);
    d->inheriting = false;
    d->base = b;
    /* no name twice */
    PtrVec bnames = {0}, bspans = {0}, onames = {0}, ospans = {0};
    declared_names(p, &b->ast->items, &bnames, &bspans);
    declared_names(p, &ad->own_items, &onames, &ospans);
    bool clash = false;
    for (int i = 0; i < onames.n; i++) {
        for (int j = 0; j < bnames.n; j++) {
            if (onames.items[i] != bnames.items[j])
                continue;
            const char *n = ((Sym *)onames.items[i])->name;
            diag_error(*(SrcSpan *)ospans.items[i], "'%s' is a member of '%s', which "
                       "'%s' extends: a subclass cannot declare it again", n,
                       b->ast->name->name, ad->name->name);
            diag_note(*(SrcSpan *)bspans.items[j], "'%s' is declared here", n);
            clash = true;
            break;
        }
    }
    if (clash)
        return;
    PtrVec merged = {0};
    for (int i = 0; i < b->ast->items.n; i++)
        ptrvec_push(p->arena, &merged, b->ast->items.items[i]);
    for (int i = 0; i < ad->own_items.n; i++)
        ptrvec_push(p->arena, &merged, ad->own_items.items[i]);
    ad->items = merged;
    if (!ad->description)
        ad->description = b->ast->description;
}
