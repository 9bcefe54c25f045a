/*
 * resolve.c - pass 2: find every definition a model uses and check every
 * name written in it.  This file is the pass's entry points; its jobs are
 * in files of their own, which share resolve_internal.h:
 *
 *   resolve_lookup.c     a definition by its plain name: the search path
 *                        (docs/language.md, "Finding definitions"), the
 *                        library's index
 *   resolve_packages.c   packages (folders) and imports
 *   resolve_members.c    member tables, conditional arms, section attributes
 *   resolve_sections.c   a definition's sections: declarations, instances,
 *                        branches, connections, equations, loops, arms
 *   resolve_expr.c       expressions: names, indices, calls, special forms
 *   resolve_functions.c  function bodies, user calls, lets (local names)
 *   resolve_events.c     when statements and mode charts
 *   resolve_inherit.c    component attributes; subclassing (< Base)
 *   resolve_setup.c      the legacy setup function, as asserts and values
 *   resolve_enums.c      enumerations: MATLAB class files, simscape.enum.*
 *   resolve_order.c      declarations after the parameters they read
 *
 * Conditional sections make scopes: arm 0 is the unconditional body and
 * every if/elseif/else arm is a child scope of the arm it sits in.  A name
 * may be declared in two sibling arms (only one exists after elaboration),
 * never twice on one path.  Within a definition a reference sees the
 * declarations of its own arm and of its ancestors, and a name declared in
 * every clause of an if that has an else (one exists whichever is active).  From outside
 * (`child.x`) the union of all arms is visible; elaboration later reports
 * a reference to a member whose arm is not active.
 *
 * For-loops are not scopes of their own: what a loop around
 * sections declares (the arrays `m(i) = C(...)` and `H(i) = DOMAIN`) is
 * declared in the arm the loop is in, so `connect(A, m(1).P)` outside the
 * loop sees it.  The loop variable is visible only inside the loop's body,
 * and may not hide a member or an enclosing loop's variable.  A call
 * whose callee names a member (`masses(i)`, `m(i).v(2)`) is an index: it
 * is rewritten into an indexed name (resolve_expr.c), so that every later
 * pass sees member references as EXPR_NAME only.
 */
#include "resolve_internal.h"

#include <string.h>
#include <strings.h>

#define X_NAME(k, s) s,
const char *const sema_member_kind_names[] = {SEMA_MEMBER_KINDS(X_NAME)};

static int count_entries(const SemaDef *d, AstSectionKind k)
{
    int n = 0;
    for (int i = 0; i < d->ast->items.n; i++) {
        AstItem *it = d->ast->items.items[i];
        if (it->kind == ITEM_SECTION && it->u.section.kind == k)
            n += it->u.section.entries.n;
    }
    return n;
}

/* A domain's sections as Simscape writes them: `variables` declares the
   across variables and `variables(Balancing = true)` the through
   variables (lmdl's `across` and `through` sections say the same). */
static void domain_sections(SemaDef *d)
{
    for (int i = 0; i < d->ast->items.n; i++) {
        AstItem *it = d->ast->items.items[i];
        if (it->kind != ITEM_SECTION || it->u.section.kind != SEC_VARIABLES)
            continue;
        const char *b = rs_section_attr(it, "Balancing");
        it->u.section.kind = b && !strcasecmp(b, "true") ? SEC_THROUGH : SEC_ACROSS;
        /* Balancing is said by the kind now; other attributes stay to be
           checked (and refused) */
        int keep = 0;
        for (int j = 0; j < it->u.section.attrs.n; j++) {
            AstArg *g = it->u.section.attrs.items[j];
            if (strcmp(g->name->name, "Balancing"))
                it->u.section.attrs.items[keep++] = g;
        }
        it->u.section.attrs.n = keep;
    }
}

void sema_resolve_def(Program *p, SemaDef *d)
{
    if (d->resolved)
        return;
    d->resolved = true;
    if (d->ast->kind == DEF_FUNCTION) {
        rs_resolve_function(p, d);
        return;
    }
    if (d->ast->kind == DEF_COMPONENT) {
        rs_inherit(p, d);
        rs_lower_setup(p, d);
    } else {
        domain_sections(d);
    }
    rs_order_members(p, d);
    rs_new_scope(p, d, -1, NULL);
    rs_collect_members(p, d, &d->ast->items, 0);
    Checker c = {p, d, 0, REF_EQUATION, 0, "an equation", NULL, {0}, false, {0}};
    rs_check_items(&c, &d->ast->items, 0);
    rs_check_assigned_once(&c);
    if (d->ast->kind == DEF_DOMAIN) {
        int na = count_entries(d, SEC_ACROSS), nt = count_entries(d, SEC_THROUGH);
        int ne = count_entries(d, SEC_EQUATIONS);
        if (na != nt + ne)
            diag_error(d->ast->name_span, "domain '%s' has %d across variable%s "
                       "but %d through variable%s and %d equation%s; a domain "
                       "needs as many across variables as through variables "
                       "plus equations", d->ast->name->name, na, na == 1 ? "" : "s",
                       nt, nt == 1 ? "" : "s", ne, ne == 1 ? "" : "s");
    }
}

void sema_resolve_all(Program *p)
{
    SemaFile *u = rs_unit_of(p, p->main_file);
    if (!u)
        return;
    for (int i = 0; i < u->ast->defs.n; i++) {
        SemaDef *d = symmap_get(&u->defs, ((AstDef *)u->ast->defs.items[i])->name);
        if (d)
            sema_resolve_def(p, d);
    }
}

SemaDef *sema_resolve(Program *p, const char *top)
{
    SemaFile *u = rs_unit_of(p, p->main_file);
    if (!u)
        return NULL;
    SemaDef *t = NULL;
    if (top) {
        t = sema_lookup(p, sym_cstr(top), p->main_file);
        if (!t) {
            const char *s = sema_suggest_def(p, top);
            diag_error(src_none, "no component named '%s' for --top%s", top,
                       diag_did_you_mean(s).text);
            return NULL;
        }
    } else {
        for (int i = u->ast->defs.n - 1; i >= 0 && !t; i--) {
            AstDef *ad = u->ast->defs.items[i];
            if (ad->kind == DEF_COMPONENT)
                t = symmap_get(&u->defs, ad->name);
        }
        if (!t) {
            /* A file of domains has nothing to simulate, but its own
               errors say more than the lack of a component does. */
            sema_resolve_all(p);
            if (!diag_error_count() && u->ast->defs.n == 0)
                diag_error((SrcSpan){p->main_file, 0, 0}, "this file has no "
                           "definitions; a model file defines at least one "
                           "component");
            else if (!diag_error_count())
                diag_error((SrcSpan){p->main_file, 0, 0},
                           "this file defines no component to use as the model");
            return NULL;
        }
    }
    if (t->ast->kind != DEF_COMPONENT) {
        diag_error(t->ast->name_span, "'%s' is a %s; the top-level model "
                   "must be a component", t->ast->name->name, rs_def_kind_name(t));
        return NULL;
    }
    sema_resolve_all(p);
    sema_resolve_def(p, t);
    p->top = t;
    return t;
}

void sema_program_free(Program *p)
{
    for (int i = 0; i < p->files.n; i++)
        symmap_free(&((SemaFile *)p->files.items[i])->defs);
    for (int i = 0; i < p->all_defs.n; i++)
        symmap_free(&((SemaDef *)p->all_defs.items[i])->members);
    symmap_free(&p->resolved);
    symmap_free(&p->stdlib_once);
    symmap_free(&p->enums);
}
