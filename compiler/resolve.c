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
 *
 * For-loops (issue 11) are not scopes of their own: what a loop around
 * sections declares (the arrays `m(i) = C(...)` and `H(i) = DOMAIN`) is
 * declared in the arm the loop is in, so `connect(A, m(1).P)` outside the
 * loop sees it.  The loop variable is visible only inside the loop's body,
 * and may not hide a member or an enclosing loop's variable.  A call
 * whose callee names a member (`masses(i)`, `m(i).v(2)`) is an index: it
 * is rewritten here into an indexed name, so that every later pass sees
 * member references as EXPR_NAME only.
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

static void declare(Program *p, SemaDef *d, SemaMemberKind kind, Sym *name,
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
    if (!section_allowed(d->ast->kind, k)) {
        diag_error(it->span, "a %s cannot have a '%s' section",
                   d->ast->kind == DEF_DOMAIN ? "domain" : "component",
                   ast_section_names[k]);
        return;
    }
    PtrVec *v = &it->u.section.entries;
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
            declare(p, d, MEM_INSTANCE, in->name, in->name_span, NULL, in, scope);
            SemaMember *m = d->member_list.items[d->member_list.n - 1];
            m->rank = declared_rank(d, k, &in->index, in->name, in->name_span, in_loop);
            /* its type now, so that a reference checked before the
               declaration's section (`connect(A, m(1).P)` above the loop
               that declares m) resolves; check_instance reports a bad one */
            SemaDef *t = sema_lookup(p, in->type, d->file);
            if (t && t->ast->kind == DEF_COMPONENT && t != d)
                m->type = t;
        }
    } else if (k != SEC_BRANCHES && k != SEC_CONNECTIONS && k != SEC_EQUATIONS) {
        for (int j = 0; j < v->n; j++) {
            AstDecl *dc = v->items[j];
            declare(p, d, member_kind_of(k), dc->name, dc->name_span, dc, NULL, scope);
            SemaMember *m = d->member_list.items[d->member_list.n - 1];
            if (k == SEC_NODES)
                m->rank = declared_rank(d, k, &dc->index, dc->name, dc->name_span, in_loop);
            else if (dc->index.n)
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

/* Declares the members of one arm: its own sections first, then the
   arms nested in it, so that every declaration is known before any body is
   checked. */
static void collect_members(Program *p, SemaDef *d, PtrVec *items, int scope)
{
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind == ITEM_SECTION)
            collect_section(p, d, it, scope, false);
        else if (it->kind == ITEM_FOR)
            collect_loop(p, d, it, scope);
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
    REF_INDEX,          /* an index or a for-loop's range: parameters and
                           loop variables */
} RefMode;

typedef struct Checker {
    Program *p;         /* the program */
    SemaDef *d;         /* definition being checked */
    int scope;          /* current arm */
    RefMode mode;       /* what references may name */
    int order;          /* for REF_PARAMETER: order of the parameter */
    const char *what;   /* "a parameter value", for messages */
    PtrVec loops;       /* Sym*: the variables of the enclosing for-loops */
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

/* ---- arrays: loop variables and indices ----------------------------------- */

static bool is_loop_var(const Checker *c, const Sym *s)
{
    for (int i = 0; i < c->loops.n; i++)
        if (c->loops.items[i] == s)
            return true;
    return false;
}

/* Checks index expressions: parameters and loop variables only. */
static void check_index_exprs(Checker *c, AstExpr **index, int n)
{
    RefMode mode = c->mode;
    const char *what = c->what;
    c->mode = REF_INDEX;
    c->what = "an index";
    for (int i = 0; i < n; i++)
        check_expr(c, index[i]);
    c->mode = mode;
    c->what = what;
}

/* The indices written on one part of a name fit its member: an array of
   components or nodes takes exactly its declared indices; a parameter,
   variable or output may be a vector (its size is known at elaboration);
   nothing else is indexed. */
static bool check_part(Checker *c, SemaMember *m, AstNamePart *part)
{
    c->d->has_arrays |= part->nindex > 0;
    if (part->nindex)
        check_index_exprs(c, part->index, part->nindex);
    if (m->kind == MEM_INSTANCE || m->kind == MEM_NODE) {
        if (m->rank && !part->nindex) {
            diag_error(part->span, "'%s' is an array of %ss; name one element, "
                       "as in %s(1)", part->sym->name,
                       m->kind == MEM_NODE ? "node" : "component", part->sym->name);
            return false;
        }
        if (!m->rank && part->nindex) {
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
        && m->kind != MEM_OUTPUT) {
        diag_error(part->span, "'%s' is %s %s and cannot be indexed; parameters, "
                   "variables and outputs may be vectors", part->sym->name,
                   m->kind == MEM_INPUT || m->kind == MEM_INTERMEDIATE ? "an" : "a",
                   sema_member_kind_names[m->kind]);
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
static bool loop_var_misused(Checker *c, AstExpr *e)
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
static void push_loop_var(Checker *c, const AstFor *f)
{
    SemaMember *m = visible(c->d, f->var, c->scope);
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
static void check_range(Checker *c, const AstFor *f)
{
    RefMode mode = c->mode;
    const char *what = c->what;
    c->mode = REF_INDEX;
    c->what = "the range of a for-loop";
    check_expr(c, f->range);
    c->mode = mode;
    c->what = what;
    c->d->has_arrays = true;
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
            if (m->kind == MEM_INSTANCE && !check_part(c, next, &parts[i]))
                return NULL;
            if (m->kind == MEM_NODE && parts[i].nindex) {
                diag_error(parts[i].span, "'%s' is a domain variable and cannot "
                           "be indexed", parts[i].sym->name);
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
    if (loop_var_misused(c, e))
        return;
    SemaMember *m = visible(c->d, first->sym, c->scope);
    if (!m) {
        if (e->u.name.n == 1 && strcmp(first->sym->name, "pi") == 0)
            return;
        unknown_member(c, c->d, first, NULL, false);
        return;
    }
    if (c->mode != REF_EQUATION) {
        if (m->kind != MEM_PARAMETER) {
            diag_error(e->span, "%s may use only parameters%s, and '%s' is %s %s",
                       c->what, c->mode == REF_INDEX ? " and loop variables" : "",
                       first->sym->name,
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
    if (!check_part(c, m, first))
        return;
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

/* arrays: a call whose callee names a member is an index: `masses(i)`
   becomes the name masses with the index (i) on its last part. */
static bool call_is_index(Checker *c, AstExpr *e)
{
    AstExpr *callee = e->u.call.callee;
    if (!callee)
        return false;
    Sym *first = callee->u.name.parts[0].sym;
    if (!is_loop_var(c, first) && !visible(c->d, first, c->scope))
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
                   sema_did_you_mean(s).text);
        return;
    }
    AstExpr *v = o->u.option.value;
    const char *const *ok = is_interp ? interp : extrap;
    int nok = is_interp ? 2 : 3;
    const char *w = ast_is_simple_name(v) && !v->u.name.parts[0].nindex
                        ? v->u.name.parts[0].sym->name : NULL;
    for (int i = 0; w && i < nok; i++)
        if (!strcmp(w, ok[i]))
            return;
    const char *s = w ? diag_closest(w, ok, nok) : NULL;
    diag_error(v->span, "%s is %s%s", n, is_interp ? "linear or smooth"
               : "linear, nearest or error", sema_did_you_mean(s).text);
}

/* arrays: numel, size, sum, zeros, ones, tablelookup, and min/max of one
   vector. */
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
    if (af == AF_TABLELOOKUP && npos != 3 && npos != 5)
        diag_error(e->span, "tablelookup takes 3 arguments (x1d, fd, x1) or 5 "
                   "(x1d, x2d, fd, x1, x2), not %d", npos);
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
        bool parametric = ((af == AF_ZEROS || af == AF_ONES) || (af == AF_SIZE && k == 1)
                           || (af == AF_TABLELOOKUP && k < npos / 2 + 1));
        if (parametric && c->mode != REF_PARAMETER && c->mode != REF_VALUE) {
            c->mode = REF_INDEX;
            c->what = af == AF_TABLELOOKUP ? "the data of a table" : "a size";
        }
        check_expr(c, a);
        c->mode = mode;
        c->what = what;
        k++;
    }
}

static void check_call(Checker *c, AstExpr *e)
{
    if (call_is_index(c, e)) {
        check_name(c, e);
        return;
    }
    AstExpr *callee = e->u.call.callee;
    if (callee && (callee->u.name.n != 1 || callee->u.name.parts[0].nindex)) {
        diag_error(callee->span, "only a plain function name can be called "
                                 "here, not '%s'", ast_name_text(c->p->arena, callee));
    }
    const char *f = e->u.call.func->name;
    int af = array_func_find(f);
    int k = builtin_find(f);
    if (af >= 0 || ((k == FN_MIN || k == FN_MAX) && e->u.call.args.n == 1)) {
        check_array_call(c, e, af);
        return;
    }
    for (int i = 0; i < e->u.call.args.n; i++)
        if (((AstExpr *)e->u.call.args.items[i])->kind == EXPR_OPTION)
            diag_error(((AstExpr *)e->u.call.args.items[i])->span, "'%s' takes no "
                       "NAME = value arguments", f);
    int arity = k >= 0 ? builtin_arity[k] : -1;
    if (arity < 0) {
        PtrVec names = {0};
        for (int i = 0; i < FN_COUNT; i++)
            ptrvec_push(c->p->arena, &names, (void *)builtin_names[i]);
        for (int i = 0; i < AF_COUNT; i++)
            ptrvec_push(c->p->arena, &names, (void *)array_func_names[i]);
        const char *s = diag_closest(f, (const char *const *)names.items, names.n);
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
    /* arrays */
    case EXPR_MATRIX:
        c->d->has_arrays = true;
        for (int i = 0; i < e->u.matrix.rows.n; i++) {
            PtrVec *row = e->u.matrix.rows.items[i];
            for (int j = 0; j < row->n; j++)
                check_expr(c, row->items[j]);
        }
        break;
    case EXPR_RANGE:
        c->d->has_arrays = true;
        check_expr(c, e->u.range.first);
        if (e->u.range.step)
            check_expr(c, e->u.range.step);
        check_expr(c, e->u.range.last);
        break;
    case EXPR_OPTION:
        diag_error(e->span, "NAME = value is an argument of tablelookup, "
                   "not a value");
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
        if (dc->index.n)
            check_index_exprs(c, (AstExpr **)dc->index.items, dc->index.n);
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
    if (in->index.n)
        check_index_exprs(c, (AstExpr **)in->index.items, in->index.n);
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
    if (!check_part(c, m, &e->u.name.parts[0]))
        return;
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
        else
            check_part(c, m, &b->var->u.name.parts[0]);
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
        if (loop_var_misused(c, e)) {
            diag_error(e->span, "'%s' is a loop variable; connect() joins "
                       "nodes, or an output to inputs", e->u.name.parts[0].sym->name);
            continue;
        }
        SemaMember *m = member_in_scope(c, e->u.name.parts[0].sym);
        if (!m) {
            unknown_member(c, c->d, &e->u.name.parts[0], NULL, false);
            continue;
        }
        if (!check_part(c, m, &e->u.name.parts[0]))
            continue;
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
    case STMT_FOR:
        if (c->d->ast->kind == DEF_DOMAIN) {
            diag_error(s->span, "a domain's equations cannot have for-loops");
            break;
        }
        check_range(c, &s->u.for_);
        push_loop_var(c, &s->u.for_);
        check_stmts(c, &s->u.for_.body);
        c->loops.n--;
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
        if (it->kind == ITEM_FOR && c->d->ast->kind != DEF_DOMAIN) {
            c->scope = scope;
            check_range(c, &it->u.for_);
            push_loop_var(c, &it->u.for_);
            check_items(c, &it->u.for_.body, scope);
            c->loops.n--;
            continue;
        }
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

void sema_resolve_def(Program *p, SemaDef *d)
{
    if (d->resolved)
        return;
    d->resolved = true;
    new_scope(p, d, -1, NULL);
    collect_members(p, d, &d->ast->items, 0);
    Checker c = {p, d, 0, REF_EQUATION, 0, "an equation", {0}};
    check_items(&c, &d->ast->items, 0);
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
