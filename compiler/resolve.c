/*
 * resolve.c - pass 2: find every definition a model uses and check every
 * name written in it.
 *
 * Definitions are looked up in the order of LANGUAGE.md section 1: the
 * same file, NAME.lmdl in the model file's directory, each -I directory,
 * each LMDL_PATH directory, then the standard library (indexed once,
 * recursively, by file stem).  A found name is cached, so each file is
 * read and parsed at most once.
 *
 * Conditional sections make scopes: arm 0 is the unconditional body and
 * every if/elseif/else arm is a child scope of the arm it sits in.  A name
 * may be declared in two sibling arms (only one exists after elaboration),
 * never twice on one path.  Within a definition a reference sees the
 * declarations of its own arm and of its ancestors.  From outside
 * (`child.x`) the union of all arms is visible; elaboration later reports
 * a reference to a member whose arm is not active.
 */
#include "sema.h"

#include "builtin.h"
#include "diag.h"
#include "parse.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define X_NAME(k, s) s,
const char *const sema_member_kind_names[] = {SEMA_MEMBER_KINDS(X_NAME)};

/* One loaded file and the definitions in it. */
typedef struct SemaFile {
    int file;           /* source id */
    AstFile *ast;       /* its tree */
    SymMap defs;        /* Sym* -> SemaDef* */
} SemaFile;

/* ---- the standard library index ------------------------------------------ */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collects every *.lmdl below dir, in sorted order so lookups do not
   depend on the order readdir returns. */
static void index_dir(Program *p, const char *dir, int depth)
{
    if (depth > 16)
        return;
    DIR *d = opendir(dir);
    if (!d)
        return;
    PtrVec names = {0};
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        ptrvec_push(p->arena, &names, arena_strdup(p->arena, e->d_name));
    }
    closedir(d);
    if (names.n)
        qsort(names.items, (size_t)names.n, sizeof(void *), cmp_str);
    for (int i = 0; i < names.n; i++) {
        const char *n = names.items[i];
        char *path = arena_printf(p->arena, "%s/%s", dir, n);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        size_t len = strlen(n);
        if (S_ISDIR(st.st_mode)) {
            index_dir(p, path, depth + 1);
        } else if (len > 5 && strcmp(n + len - 5, ".lmdl") == 0) {
            ptrvec_push(p->arena, &p->stdlib_names, arena_strndup(p->arena, n, len - 5));
            ptrvec_push(p->arena, &p->stdlib_paths, path);
        }
    }
}

Program *sema_program_new(Arena *a, const SemaOptions *opts)
{
    Program *p = arena_alloc(a, sizeof *p);
    p->arena = a;
    p->opts = *opts;
    p->main_file = -1;
    if (opts->stdlib_dir)
        index_dir(p, opts->stdlib_dir, 0);
    return p;
}

static SemaFile *unit_of(Program *p, int file)
{
    for (int i = 0; i < p->files.n; i++) {
        SemaFile *u = p->files.items[i];
        if (u->file == file)
            return u;
    }
    return NULL;
}

/* Parses a file and registers its definitions. */
static SemaFile *add_unit(Program *p, int file)
{
    SemaFile *u = arena_alloc(p->arena, sizeof *u);
    u->file = file;
    u->ast = parse_file(p->arena, file);
    ptrvec_push(p->arena, &p->files, u);
    for (int i = 0; i < u->ast->defs.n; i++) {
        AstDef *ad = u->ast->defs.items[i];
        SemaDef *old = symmap_get(&u->defs, ad->name);
        if (old) {
            diag_error(ad->name_span, "'%s' is defined twice in this file",
                       ad->name->name);
            diag_note(old->ast->name_span, "the first definition of '%s' is here",
                      ad->name->name);
            continue;
        }
        SemaDef *d = arena_alloc(p->arena, sizeof *d);
        d->ast = ad;
        d->file = file;
        symmap_put(&u->defs, ad->name, d);
        ptrvec_push(p->arena, &p->all_defs, d);
    }
    return u;
}

AstFile *sema_add_main(Program *p, int file)
{
    p->main_file = file;
    return add_unit(p, file)->ast;
}

/* The unit for a path, loading it if needed; NULL if it is not a file. */
static SemaFile *unit_for_path(Program *p, const char *path)
{
    int id = src_find(path);
    if (id >= 0) {
        SemaFile *u = unit_of(p, id);
        if (u)
            return u;
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return NULL;
    id = src_load(path);
    if (id < 0)
        return NULL;
    return add_unit(p, id);
}

static SemaDef *find_in_dir(Program *p, const char *dir, Sym *name)
{
    char *path = arena_printf(p->arena, "%s/%s.lmdl", dir, name->name);
    SemaFile *u = unit_for_path(p, path);
    return u ? symmap_get(&u->defs, name) : NULL;
}

SemaDef *sema_lookup(Program *p, Sym *name, int from)
{
    SemaFile *u = unit_of(p, from);
    SemaDef *d = u ? symmap_get(&u->defs, name) : NULL;
    if (d)
        return d;
    d = symmap_get(&p->resolved, name);
    if (d)
        return d;
    SrcFile *mf = src_get(p->main_file);
    if (mf)
        d = find_in_dir(p, mf->dir, name);
    for (int i = 0; !d && i < p->opts.ninclude; i++)
        d = find_in_dir(p, p->opts.include_dirs[i], name);
    const char *env = getenv("LMDL_PATH");
    if (!d && env && *env) {
        char *copy = arena_strdup(p->arena, env);
        for (char *save = NULL, *dir = strtok_r(copy, ":", &save); dir && !d;
             dir = strtok_r(NULL, ":", &save))
            if (*dir)
                d = find_in_dir(p, dir, name);
    }
    for (int i = 0; !d && i < p->stdlib_names.n; i++) {
        if (strcmp(p->stdlib_names.items[i], name->name) == 0) {
            SemaFile *lu = unit_for_path(p, p->stdlib_paths.items[i]);
            if (lu)
                d = symmap_get(&lu->defs, name);
        }
    }
    if (d)
        symmap_put(&p->resolved, name, d);
    return d;
}

/* Every definition name a user might have meant. */
const char *sema_suggest_def(Program *p, const char *name)
{
    /* Past the error limit nothing is shown: do not pay for candidates. */
    if (diag_too_many())
        return NULL;
    PtrVec c = {0};
    for (int i = 0; i < p->all_defs.n; i++)
        ptrvec_push(p->arena, &c, (void *)((SemaDef *)p->all_defs.items[i])->ast->name->name);
    for (int i = 0; i < p->stdlib_names.n; i++)
        ptrvec_push(p->arena, &c, p->stdlib_names.items[i]);
    return diag_closest(name, (const char *const *)c.items, c.n);
}

SemaHint sema_did_you_mean(const char *suggestion)
{
    SemaHint h = {""};
    if (suggestion)
        snprintf(h.text, sizeof h.text, " (did you mean '%s'?)", suggestion);
    return h;
}

/* ---- member tables -------------------------------------------------------- */

static bool scope_within(const SemaDef *d, int inner, int outer)
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

/* The declaration of `name` visible from arm `scope`, or NULL. */
static SemaMember *visible(const SemaDef *d, const Sym *name, int scope)
{
    for (SemaMember *m = symmap_get(&d->members, name); m; m = m->next_same_name)
        if (scope_within(d, scope, m->scope))
            return m;
    return NULL;
}

/* The array grows by doubling; its capacity is the next power of two of
   nscopes, so a component with thousands of arms stays linear. */
static int new_scope(Program *p, SemaDef *d, int parent, const void *item)
{
    int n = d->nscopes;
    if ((n & (n - 1)) == 0) {
        size_t cap = (size_t)(n ? 2 * n : 1);
        int *sp = arena_alloc(p->arena, sizeof(int) * cap);
        const void **si = arena_alloc(p->arena, sizeof(void *) * cap);
        if (n) {
            memcpy(sp, d->scope_parent, sizeof(int) * (size_t)n);
            memcpy(si, d->scope_item, sizeof(void *) * (size_t)n);
        }
        d->scope_parent = sp;
        d->scope_item = si;
    }
    d->scope_parent[n] = parent;
    d->scope_item[n] = item;
    return d->nscopes++;
}

/* Two arms can never be active together only when they lie in different
   clauses of one if: below their lowest common arm, the two branches are
   clauses of the same item. */
static bool exclusive(const SemaDef *d, int a, int b)
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
        if (!exclusive(d, scope, m->scope)) {
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

/* What the declarations of a section are (the section table, ast.h). */
static SemaMemberKind member_kind_of(AstSectionKind k)
{
#define X_SECMEMBER(k, w, tok, mem, where, entry, title, col, val, rank) (int)mem,
    static const int member[] = {AST_SECTION_KINDS(X_SECMEMBER)};
    return (SemaMemberKind)member[k];
}

static bool section_allowed(AstDefKind dk, AstSectionKind k)
{
    return (ast_section_where[k] & (dk == DEF_DOMAIN ? SEC_IN_DOMAIN : SEC_IN_COMPONENT)) != 0;
}

/* ---- section attributes (issue 12; the section attributes of issue 11
   belong here too) ----------------------------------------------------------

   `variables (Event = true, Access = private)`.  This is the one function
   that reads a section's attributes: Event = true makes the variables of
   the section event variables (piecewise constant, changed only by when
   clauses and mode chart entry actions); Access = private hides the
   section's members from outside the component (`child.x`, instance
   arguments); ExternalAccess is accepted and has no effect (lmdlc has no
   block dialogs to hide things from). */
typedef struct SectionAttrs {
    bool event;             /* Event = true */
    bool private_;          /* Access = private */
} SectionAttrs;

static bool attr_word(const AstExpr *v, const char *const *words, int n, int *which)
{
    const char *w = NULL;
    if (v->kind == EXPR_BOOL)
        w = v->u.boolean ? "true" : "false";
    else if (v->kind == EXPR_NAME && v->u.name.n == 1)
        w = v->u.name.parts[0].sym->name;
    for (int i = 0; w && i < n; i++)
        if (!strcmp(w, words[i])) {
            *which = i;
            return true;
        }
    return false;
}

static SectionAttrs sema_section_attrs(AstItem *it)
{
    SectionAttrs at = {false, false};
    AstSectionKind k = it->u.section.kind;
    static const char *const names[] = {"Event", "Access", "ExternalAccess"};
    for (int i = 0; i < it->u.section.attrs.n; i++) {
        AstField *f = it->u.section.attrs.items[i];
        const char *n = f->name->name;
        int which = -1;
        if (!strcmp(n, "Event")) {
            static const char *const tf[] = {"false", "true"};
            if (k != SEC_VARIABLES)
                diag_error(f->name_span, "only a 'variables' section can have Event = "
                           "true, not a '%s' section", ast_section_names[k]);
            else if (!attr_word(f->value, tf, 2, &which))
                diag_error(f->value->span, "Event is true or false");
            else
                at.event = which == 1;
        } else if (!strcmp(n, "Access")) {
            static const char *const acc[] = {"public", "private", "protected"};
            if (!ast_section_is_decls(k) && k != SEC_COMPONENTS)
                diag_error(f->name_span, "a '%s' section has no Access attribute",
                           ast_section_names[k]);
            else if (!attr_word(f->value, acc, 3, &which))
                diag_error(f->value->span, "Access is public, private or protected");
            else
                at.private_ = which > 0;
        } else if (!strcmp(n, "ExternalAccess")) {
            static const char *const ext[] = {"modify", "observe", "none"};
            if (!attr_word(f->value, ext, 3, &which))
                diag_error(f->value->span, "ExternalAccess is modify, observe or none");
        } else {
            const char *sug = diag_closest(n, names, 3);
            diag_error(f->name_span, "unknown section attribute '%s'; the attributes "
                       "are Event, Access and ExternalAccess%s", n,
                       sema_did_you_mean(sug).text);
        }
    }
    return at;
}

/* Declares the members of one arm: its own sections first, then the
   arms nested in it, so that every declaration is known before any body is
   checked. */
static void collect_members(Program *p, SemaDef *d, PtrVec *items, int scope)
{
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind != ITEM_SECTION)
            continue;
        AstSectionKind k = it->u.section.kind;
        if (!section_allowed(d->ast->kind, k)) {
            diag_error(it->span, "a %s cannot have a '%s' section",
                       d->ast->kind == DEF_DOMAIN ? "domain" : "component",
                       ast_section_names[k]);
            continue;
        }
        PtrVec *v = &it->u.section.entries;
        SectionAttrs at = sema_section_attrs(it);
        if (k == SEC_COMPONENTS) {
            for (int j = 0; j < v->n; j++) {
                AstInstance *in = v->items[j];
                declare(p, d, MEM_INSTANCE, in->name, in->name_span, NULL, in, scope);
            }
        } else if (ast_section_is_decls(k)) {
            for (int j = 0; j < v->n; j++) {
                AstDecl *dc = v->items[j];
                SemaMember *m = declare(p, d, member_kind_of(k), dc->name, dc->name_span,
                                        dc, NULL, scope);
                m->event = at.event;
                m->private_ = at.private_;
            }
        }
    }
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind != ITEM_IF)
            continue;
        if (d->ast->kind == DEF_DOMAIN) {
            diag_error(it->span, "a domain cannot have conditional sections");
            continue;
        }
        for (int j = 0; j < it->u.if_.clauses.n; j++) {
            AstClause *c = it->u.if_.clauses.items[j];
            c->arm = new_scope(p, d, scope, it);
            collect_members(p, d, &c->body, c->arm);
        }
    }
}

/* ---- checking bodies ------------------------------------------------------- */

/* What an expression may refer to. */
typedef enum RefMode {
    REF_EQUATION,       /* anything visible, der and time allowed */
    REF_PARAMETER,      /* earlier parameters only */
    REF_CONDITION,      /* parameters only (conditional sections) */
    REF_ARGUMENT,       /* the enclosing component's parameters */
    REF_VALUE,          /* a variable's target: parameters only */
} RefMode;

typedef struct Checker {
    Program *p;         /* the program */
    SemaDef *d;         /* definition being checked */
    int scope;          /* current arm */
    RefMode mode;       /* what references may name */
    int order;          /* for REF_PARAMETER: order of the parameter */
    const char *what;   /* "a parameter value", for messages */
    bool in_when;       /* in a when predicate: edge() and initialevent */
    PtrVec assigned;    /* EvAssign*: event variables assigned so far */
} Checker;

static void check_expr(Checker *c, AstExpr *e);

static const char *def_kind_name(const SemaDef *d)
{
    return d->ast->kind == DEF_DOMAIN ? "domain" : "component";
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
        if (outside || scope_within(d, c->scope, m->scope))
            ptrvec_push(c->p->arena, &v, (void *)m->name->name);
    }
    return diag_closest(name, (const char *const *)v.items, v.n);
}

static void unknown_member(Checker *c, const SemaDef *d, AstNamePart *part,
                           const char *owner, bool outside)
{
    const char *s = suggest_member(c, d, part->sym->name, outside);
    if (outside)
        diag_error(part->span, "%s '%s' has no member '%s'%s", def_kind_name(d),
                   owner, part->sym->name, sema_did_you_mean(s).text);
    else
        diag_error(part->span, "unknown name '%s'%s", part->sym->name,
                   sema_did_you_mean(s).text);
}

/* Resolves the rest of a dotted name after member m (which has been
   resolved in definition d).  Returns the final member or NULL. */
static SemaMember *resolve_tail(Checker *c, SemaMember *m, AstExpr *e, int i)
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
                          && next->kind != MEM_THROUGH)) {
                unknown_member(c, t, &parts[i], t->ast->name->name, true);
                return NULL;
            }
            if (next->private_) {
                diag_error(parts[i].span, "'%s' is private to component '%s' "
                           "(Access = private)", parts[i].sym->name, t->ast->name->name);
                return NULL;
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
    AstNamePart *first = &e->u.name.parts[0];
    SemaMember *m = visible(c->d, first->sym, c->scope);
    if (!m) {
        if (e->u.name.n == 1 && strcmp(first->sym->name, "pi") == 0)
            return;
        if (e->u.name.n == 1 && strcmp(first->sym->name, "initialevent") == 0) {
            if (!c->in_when)
                diag_error(e->span, "initialevent is only true in a when predicate");
            return;
        }
        unknown_member(c, c->d, first, NULL, false);
        return;
    }
    if (c->mode != REF_EQUATION) {
        if (m->kind != MEM_PARAMETER) {
            diag_error(e->span, "%s may use only parameters, and '%s' is %s %s",
                       c->what, first->sym->name,
                       m->kind == MEM_INPUT || m->kind == MEM_OUTPUT
                           || m->kind == MEM_INTERMEDIATE ? "an" : "a",
                       sema_member_kind_names[m->kind]);
            return;
        }
        if (c->mode == REF_PARAMETER && m->order >= c->order) {
            diag_error(e->span, "parameter '%s' is used before it is declared",
                       first->sym->name);
            diag_note(m->decl->name_span, "'%s' is declared here", first->sym->name);
            return;
        }
    }
    SemaMember *last = resolve_tail(c, m, e, 1);
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

static bool has_delay(const AstExpr *e)
{
    switch (e->kind) {
    case EXPR_CALL:
        if (!strcmp(e->u.call.func->name, "delay"))
            return true;
        for (int i = 0; i < e->u.call.args.n; i++)
            if (has_delay(e->u.call.args.items[i]))
                return true;
        return false;
    case EXPR_DER: return has_delay(e->u.der.arg);
    case EXPR_UNARY: return has_delay(e->u.unary.arg);
    case EXPR_BINARY: return has_delay(e->u.binary.lhs) || has_delay(e->u.binary.rhs);
    case EXPR_IF:
        return has_delay(e->u.cond.cond) || has_delay(e->u.cond.then) || has_delay(e->u.cond.els);
    case EXPR_QUANTITY: return has_delay(e->u.quantity.value);
    default: return false;
    }
}

static bool has_der(const AstExpr *e);

/* delay(u, tau) and delay(u, tau, History = h, MaximumDelay = m) (issue
   12): u and tau any expressions without der() or delay(); History and
   MaximumDelay parametric.  Whether tau is parametric (else MaximumDelay
   is required) is elaboration's question (lower.c). */
static void check_delay(Checker *c, AstExpr *e)
{
    int npos = 0;
    const AstField *seen[2] = {NULL, NULL};
    static const char *const names[] = {"History", "MaximumDelay"};
    for (int i = 0; i < e->u.call.args.n; i++) {
        AstExpr *a = e->u.call.args.items[i];
        bool named = a->kind == EXPR_RECORD && a->u.record.n == 1;
        if (!named) {
            if (seen[0] || seen[1]) {
                diag_error(a->span, "delay's u and tau come before History = and "
                           "MaximumDelay =");
                return;
            }
            npos++;
            RefMode mode = c->mode;
            check_expr(c, a);
            c->mode = mode;
            if (has_der(a) || has_delay(a))
                diag_error(a->span, "delay's %s cannot contain der() or delay()",
                           npos == 1 ? "u" : "tau");
            continue;
        }
        const AstField *fl = &a->u.record.fields[0];
        int which = !strcmp(fl->name->name, "History") ? 0
                    : !strcmp(fl->name->name, "MaximumDelay") ? 1 : -1;
        if (which < 0) {
            const char *sug = diag_closest(fl->name->name, names, 2);
            diag_error(fl->name_span, "delay takes History = and MaximumDelay =, not "
                       "'%s'%s", fl->name->name, sema_did_you_mean(sug).text);
            continue;
        }
        if (seen[which]) {
            diag_error(fl->name_span, "%s is given twice", names[which]);
            continue;
        }
        seen[which] = fl;
        RefMode mode = c->mode;
        const char *what = c->what;
        c->mode = REF_CONDITION;
        c->what = which ? "delay's MaximumDelay" : "delay's History";
        check_expr(c, fl->value);
        c->mode = mode;
        c->what = what;
    }
    if (npos != 2)
        diag_error(e->span, "delay takes u and tau (then History = and MaximumDelay = "
                   "if needed), not %d argument%s", npos, npos == 1 ? "" : "s");
}

static void check_call(Checker *c, AstExpr *e)
{
    const char *f = e->u.call.func->name;
    if (!strcmp(f, "edge")) {
        /* edge(b): true only when b turns true; an event, for when */
        if (!c->in_when)
            diag_error(e->span, "edge() is an event and only has a meaning in a "
                       "when predicate");
        else if (e->u.call.args.n != 1)
            diag_error(e->span, "'edge' takes 1 argument, not %d", e->u.call.args.n);
        bool was = c->in_when;
        c->in_when = false;
        for (int i = 0; i < e->u.call.args.n; i++)
            check_expr(c, e->u.call.args.items[i]);
        c->in_when = was;
        return;
    }
    if (!strcmp(f, "delay")) {
        check_delay(c, e);
        return;
    }
    for (int i = 0; i < e->u.call.args.n; i++) {
        AstExpr *a = e->u.call.args.items[i];
        if (a->kind == EXPR_RECORD && a->u.record.n == 1 && a->span.begin == a->u.record.fields[0].name_span.begin) {
            diag_error(a->span, "'%s' takes no named arguments (NAME = value is for "
                       "delay's History and MaximumDelay)", f);
            return;
        }
    }
    int k = builtin_find(f);
    int arity = k >= 0 ? builtin_arity[k] : -1;
    if (arity < 0) {
        const char *s = diag_closest(f, builtin_names, FN_COUNT);
        diag_error(e->u.call.func_span, "unknown function '%s'%s", f,
                   sema_did_you_mean(s).text);
    } else if (arity != e->u.call.args.n) {
        diag_error(e->span, "'%s' takes %d argument%s, not %d", f, arity,
                   arity == 1 ? "" : "s", e->u.call.args.n);
    }
    for (int i = 0; i < e->u.call.args.n; i++)
        check_expr(c, e->u.call.args.items[i]);
}

static void check_expr(Checker *c, AstExpr *e)
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
            SemaMember *m = visible(c->d, e->u.der.arg->u.name.parts[0].sym, c->scope);
            if (m && m->event)
                diag_error(e->span, "'%s' is an event variable, piecewise constant: "
                           "der() of it is zero", m->name->name);
        }
        check_expr(c, e->u.der.arg);
        break;
    case EXPR_CALL:
        check_call(c, e);
        break;
    case EXPR_UNARY:
        check_expr(c, e->u.unary.arg);
        break;
    case EXPR_BINARY:
        check_expr(c, e->u.binary.lhs);
        check_expr(c, e->u.binary.rhs);
        break;
    case EXPR_IF:
        check_expr(c, e->u.cond.cond);
        check_expr(c, e->u.cond.then);
        check_expr(c, e->u.cond.els);
        break;
    case EXPR_QUANTITY:
        check_expr(c, e->u.quantity.value);
        break;
    case EXPR_RECORD:
        diag_error(e->span, "a {name = value, ...} form is only allowed as a "
                            "variable's declaration or override");
        break;
    default:
        break;
    }
}

/* Checks `{value = ..., priority = ..., nominal = ...}`. */
static void check_record(Checker *c, AstExpr *e)
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
            check_expr(c, f->value);
        } else {
            const char *names[] = {"value", "priority", "nominal"};
            const char *s = diag_closest(n, names, 3);
            diag_error(f->name_span, "unknown field '%s'; a variable takes "
                       "value, priority and nominal%s", n, sema_did_you_mean(s).text);
        }
    }
}

/* A declaration's right-hand side, by section. */
static void check_decl(Checker *c, AstSectionKind k, AstDecl *dc, SemaMember *m)
{
    AstExpr *v = dc->value;
    switch (k) {
    case SEC_NODES: {
        if (!ast_is_simple_name(v)) {
            diag_error(v->span, "a node is declared as NAME = DOMAIN;");
            return;
        }
        Sym *dn = v->u.name.parts[0].sym;
        SemaDef *t = sema_lookup(c->p, dn, c->d->file);
        if (!t) {
            const char *s = sema_suggest_def(c->p, dn->name);
            diag_error(v->span, "unknown domain '%s'%s", dn->name, sema_did_you_mean(s).text);
        } else if (t->ast->kind != DEF_DOMAIN) {
            diag_error(v->span, "'%s' is a component, not a domain", dn->name);
            diag_note(t->ast->name_span, "'%s' is defined here", dn->name);
        } else {
            if (m)
                m->type = t;
            sema_resolve_def(c->p, t);
        }
        return;
    }
    case SEC_VARIABLES: case SEC_OUTPUTS:
        c->mode = REF_VALUE;
        c->what = "a variable's value";
        break;
    case SEC_INPUTS:
        c->mode = REF_VALUE;
        c->what = "an input's default";
        break;
    case SEC_PARAMETERS:
        c->mode = REF_PARAMETER;
        c->what = "a parameter value";
        c->order = m ? m->order : 0;
        break;
    case SEC_ACROSS: case SEC_THROUGH:
        c->mode = REF_VALUE;
        c->what = "a domain variable's value";
        break;
    default: /* intermediates */
        c->mode = REF_EQUATION;
        c->what = "an intermediate";
        break;
    }
    if (v->kind == EXPR_RECORD && (k == SEC_VARIABLES || k == SEC_OUTPUTS))
        check_record(c, v);
    else
        check_expr(c, v);
    c->mode = REF_EQUATION;
}

static SemaMember *member_in_scope(Checker *c, Sym *name)
{
    return visible(c->d, name, c->scope);
}

static void check_instance(Checker *c, AstInstance *in)
{
    SemaMember *m = member_in_scope(c, in->name);
    SemaDef *t = sema_lookup(c->p, in->type, c->d->file);
    if (!t) {
        const char *s = sema_suggest_def(c->p, in->type->name);
        diag_error(in->type_span, "unknown component '%s'%s", in->type->name,
                   sema_did_you_mean(s).text);
        return;
    }
    if (t->ast->kind != DEF_COMPONENT) {
        diag_error(in->type_span, "'%s' is a domain; instantiate a component "
                   "and declare nodes of a domain in 'nodes'", in->type->name);
        return;
    }
    if (t == c->d) {
        diag_error(in->type_span, "component '%s' cannot contain itself",
                   in->type->name);
        return;
    }
    if (m && m->inst == in)
        m->type = t;
    sema_resolve_def(c->p, t);
    for (int i = 0; i < in->args.n; i++) {
        AstArg *g = in->args.items[i];
        SemaMember *target = sema_member(t, g->name);
        if (!target || (target->kind != MEM_PARAMETER && target->kind != MEM_INPUT
                        && target->kind != MEM_VARIABLE && target->kind != MEM_OUTPUT)) {
            PtrVec v = {0};
            for (int j = 0; j < t->member_list.n && !diag_too_many(); j++) {
                SemaMember *x = t->member_list.items[j];
                if (x->kind == MEM_PARAMETER || x->kind == MEM_INPUT
                    || x->kind == MEM_VARIABLE)
                    ptrvec_push(c->p->arena, &v, (void *)x->name->name);
            }
            const char *s = diag_closest(g->name->name, (const char *const *)v.items, v.n);
            if (target)
                diag_error(g->name_span, "'%s' is a %s of component '%s'; only "
                           "parameters, inputs and variables can be set here",
                           g->name->name, sema_member_kind_names[target->kind],
                           t->ast->name->name);
            else
                diag_error(g->name_span, "component '%s' has no parameter, input "
                           "or variable '%s'%s", t->ast->name->name,
                           g->name->name, sema_did_you_mean(s).text);
            diag_note(t->ast->name_span, "component '%s' is defined here",
                      t->ast->name->name);
            continue;
        }
        if (target->private_)
            diag_error(g->name_span, "'%s' is private to component '%s' (Access = "
                       "private) and cannot be set here", g->name->name,
                       t->ast->name->name);
        c->mode = REF_ARGUMENT;
        c->what = "an instance argument";
        if (g->value->kind == EXPR_RECORD) {
            if (target->kind != MEM_VARIABLE && target->kind != MEM_OUTPUT)
                diag_error(g->value->span, "only a variable's target can be "
                           "overridden with {value = ..., priority = ...}; "
                           "'%s' is a %s", g->name->name,
                           sema_member_kind_names[target->kind]);
            else
                check_record(c, g->value);
        } else {
            check_expr(c, g->value);
        }
        c->mode = REF_EQUATION;
    }
}

/* `node.through` as a branch end. */
static void check_branch_end(Checker *c, AstExpr *e)
{
    if (e->kind == EXPR_REF)
        return;
    SemaMember *m = member_in_scope(c, e->u.name.parts[0].sym);
    if (!m || m->kind != MEM_NODE || e->u.name.n != 2) {
        diag_error(e->span, "a branch end is NODE.THROUGH (a node of this "
                   "component and its domain's through variable) or '*'");
        return;
    }
    SemaMember *t = resolve_tail(c, m, e, 1);
    if (t && t->kind != MEM_THROUGH)
        diag_error(e->u.name.parts[1].span, "'%s' is an across variable; a "
                   "branch names the through variable", t->name->name);
}

static void check_branch(Checker *c, AstBranch *b)
{
    if (!ast_is_simple_name(b->var)) {
        diag_error(b->var->span, "a branch carries a variable of this component");
    } else {
        SemaMember *m = member_in_scope(c, b->var->u.name.parts[0].sym);
        if (!m)
            unknown_member(c, c->d, &b->var->u.name.parts[0], NULL, false);
        else if (m->kind != MEM_VARIABLE)
            diag_error(b->var->span, "a branch carries a variable, and '%s' is "
                       "a %s", m->name->name, sema_member_kind_names[m->kind]);
        else if (m->event)
            diag_error(b->var->span, "a branch carries a continuous variable, and "
                       "'%s' is an event variable", m->name->name);
    }
    check_branch_end(c, b->from);
    check_branch_end(c, b->to);
}

static void check_connect(Checker *c, AstConnect *cn)
{
    for (int i = 0; i < cn->ends.n; i++) {
        AstExpr *e = cn->ends.items[i];
        if (e->kind == EXPR_REF)
            continue;
        SemaMember *m = member_in_scope(c, e->u.name.parts[0].sym);
        if (!m) {
            unknown_member(c, c->d, &e->u.name.parts[0], NULL, false);
            continue;
        }
        SemaMember *last = resolve_tail(c, m, e, 1);
        if (last && last->kind != MEM_NODE && last->kind != MEM_INPUT
            && last->kind != MEM_OUTPUT) {
            char *t = ast_name_text(c->p->arena, e);
            diag_error(e->span, "'%s' is a %s; connect() joins nodes, or an "
                       "output to inputs", t, sema_member_kind_names[last->kind]);
        }
    }
}

static void check_stmts(Checker *c, PtrVec *v);
static void check_when(Checker *c, AstStmt *s);
static void check_chart(Checker *c, AstModeChart *mc);

static void check_stmt(Checker *c, AstStmt *s)
{
    switch (s->kind) {
    case STMT_EQUATION:
        check_expr(c, s->u.eq.lhs);
        check_expr(c, s->u.eq.rhs);
        break;
    case STMT_ASSERT:
        check_expr(c, s->u.assert_.cond);
        break;
    case STMT_IF:
        for (int i = 0; i < s->u.if_.clauses.n; i++) {
            AstClause *cl = s->u.if_.clauses.items[i];
            if (cl->cond)
                check_expr(c, cl->cond);
            check_stmts(c, &cl->body);
        }
        break;
    default:
        break;
    }
}

static void check_stmts(Checker *c, PtrVec *v)
{
    for (int i = 0; i < v->n; i++)
        check_stmt(c, v->items[i]);
}

/* Checks the items of one arm, then the arms nested in it. */
static void check_items(Checker *c, PtrVec *items, int scope)
{
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind != ITEM_SECTION)
            continue;
        AstSectionKind k = it->u.section.kind;
        if (!section_allowed(c->d->ast->kind, k))
            continue;
        c->scope = scope;
        PtrVec *v = &it->u.section.entries;
        for (int j = 0; j < v->n; j++) {
            switch (k) {
            case SEC_COMPONENTS: check_instance(c, v->items[j]); break;
            case SEC_BRANCHES: check_branch(c, v->items[j]); break;
            case SEC_CONNECTIONS: check_connect(c, v->items[j]); break;
            case SEC_EQUATIONS: check_stmt(c, v->items[j]); break;
            case SEC_EVENTS: check_when(c, v->items[j]); break;
            case SEC_MODECHARTS: check_chart(c, v->items[j]); break;
            default: {
                AstDecl *dc = v->items[j];
                SemaMember *m = member_in_scope(c, dc->name);
                check_decl(c, k, dc, m && m->decl == dc ? m : NULL);
                break;
            }
            }
        }
    }
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind != ITEM_IF || c->d->ast->kind == DEF_DOMAIN)
            continue;
        for (int j = 0; j < it->u.if_.clauses.n; j++) {
            AstClause *cl = it->u.if_.clauses.items[j];
            if (cl->cond) {
                c->scope = scope;
                c->mode = REF_CONDITION;
                c->what = "the condition of a conditional section";
                check_expr(c, cl->cond);
                c->mode = REF_EQUATION;
            }
            check_items(c, &cl->body, cl->arm);
        }
    }
}

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

/* ---- events and mode charts (issue 12) ------------------------------------

   A when predicate is an event (initialevent, edge(b), combined with &&
   and ||); the branches of a when and the entry actions of a mode
   assign event variables of this component, each at most once per
   branch.  Two when statements, or a when and a mode chart's entry
   actions, that assign one variable are an error unless they sit in
   exclusive arms of a conditional section (they could act at the same
   event, and which one wins would be arbitrary).  A mode chart's modes
   have distinct names; transitions name its modes, through at most three
   (FROM -> INSTANT -> TO); initial predicates read parameters only. */

/* One event variable assigned by one when statement or mode chart. */
typedef struct EvAssign {
    SemaMember *var;        /* the event variable */
    SrcSpan at;             /* the first assignment of it there */
    int scope;              /* the arm it is in */
    const void *owner;      /* the when statement or the mode chart */
} EvAssign;

static bool has_der(const AstExpr *e)
{
    switch (e->kind) {
    case EXPR_DER: return true;
    case EXPR_CALL:
        for (int i = 0; i < e->u.call.args.n; i++)
            if (has_der(e->u.call.args.items[i]))
                return true;
        return false;
    case EXPR_UNARY: return has_der(e->u.unary.arg);
    case EXPR_BINARY: return has_der(e->u.binary.lhs) || has_der(e->u.binary.rhs);
    case EXPR_IF:
        return has_der(e->u.cond.cond) || has_der(e->u.cond.then) || has_der(e->u.cond.els);
    case EXPR_QUANTITY: return has_der(e->u.quantity.value);
    default: return false;
    }
}

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
        check_expr(c, a->value);
        if (has_der(a->value))
            diag_error(a->value->span, "der() cannot appear in an event assignment");
        SemaMember *m = visible(c->d, a->name, c->scope);
        if (!m) {
            AstNamePart part = {a->name, a->name_span};
            unknown_member(c, c->d, &part, NULL, false);
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

static void check_when(Checker *c, AstStmt *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->u.if_.clauses.n; i++) {
        AstClause *cl = s->u.if_.clauses.items[i];
        c->mode = REF_EQUATION;
        c->what = "a when predicate";
        c->in_when = true;
        check_expr(c, cl->cond);
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
               mc->name->name, sema_did_you_mean(sug).text);
    (void)c;
}

static void check_chart(Checker *c, AstModeChart *mc)
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
        check_stmts(c, &m->eqs);
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
        check_expr(c, t->pred);
    }
    for (int i = 0; i < mc->initials.n; i++) {
        AstTransition *t = mc->initials.items[i];
        if (!t)
            continue;
        check_mode_name(c, mc, &t->path[0]);
        c->mode = REF_CONDITION;
        c->what = "an initial predicate of a mode chart";
        check_expr(c, t->pred);
    }
    c->mode = REF_EQUATION;
    c->what = "an equation";
}

/* Two when statements (or a when and a chart's entry actions) that
   assign one event variable. */
static void check_assigned_once(Checker *c)
{
    for (int i = 0; i < c->assigned.n; i++) {
        EvAssign *a = c->assigned.items[i];
        for (int j = 0; j < i; j++) {
            EvAssign *b = c->assigned.items[j];
            if (b->var != a->var || b->owner == a->owner
                || exclusive(c->d, a->scope, b->scope))
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

void sema_resolve_def(Program *p, SemaDef *d)
{
    if (d->resolved)
        return;
    d->resolved = true;
    new_scope(p, d, -1, NULL);
    collect_members(p, d, &d->ast->items, 0);
    Checker c = {p, d, 0, REF_EQUATION, 0, "an equation", false, {0}};
    check_items(&c, &d->ast->items, 0);
    check_assigned_once(&c);
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
    SemaFile *u = unit_of(p, p->main_file);
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
    SemaFile *u = unit_of(p, p->main_file);
    if (!u)
        return NULL;
    SemaDef *t = NULL;
    if (top) {
        t = sema_lookup(p, sym_cstr(top), p->main_file);
        if (!t) {
            const char *s = sema_suggest_def(p, top);
            diag_error(src_none, "no component named '%s' for --top%s", top,
                       sema_did_you_mean(s).text);
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
        diag_error(t->ast->name_span, "'%s' is a domain; the top-level model "
                   "must be a component", t->ast->name->name);
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
}
