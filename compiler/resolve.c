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

#include <ctype.h>
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
    PtrVec imports;     /* AstImport*: its imports that name something */
} SemaFile;

static void check_imports(Program *p, SemaFile *u);

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
    check_imports(p, u);
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

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Whether text may define name: the name as a whole word right after
   `component` or `domain`, or followed by '(' on a line that starts with
   `function`.  A cheap filter, so that only files that can hold the
   definition are parsed. */
static bool may_define(const char *text, size_t len, const Sym *name)
{
    for (size_t i = 0; i + name->len <= len; i++) {
        if (text[i] != name->name[0] || memcmp(text + i, name->name, name->len) != 0)
            continue;
        size_t j = i + name->len;
        if ((i > 0 && ident_char(text[i - 1])) || (j < len && ident_char(text[j])))
            continue;
        size_t k = i;
        while (k > 0 && (text[k - 1] == ' ' || text[k - 1] == '\t'))
            k--;
        size_t w = k;
        while (w > 0 && ident_char(text[w - 1]))
            w--;
        if ((k - w == 9 && !memcmp(text + w, "component", 9))
            || (k - w == 6 && !memcmp(text + w, "domain", 6)))
            return true;
        size_t b = i;
        while (b > 0 && text[b - 1] != '\n')
            b--;
        while (b < i && (text[b] == ' ' || text[b] == '\t'))
            b++;
        while (j < len && (text[j] == ' ' || text[j] == '\t'))
            j++;
        if (i - b >= 8 && !memcmp(text + b, "function", 8) && j < len && text[j] == '(')
            return true;
    }
    return false;
}

/* NAME in a file of path that defines several things: the file is parsed
   only if its text holds the name, so that unrelated (or broken) files
   next to a model cost nothing and report nothing. */
static SemaDef *find_in_file(Program *p, const char *path, Sym *name)
{
    int id = src_find(path);
    SemaFile *u = id >= 0 ? unit_of(p, id) : NULL;
    if (!u) {
        FILE *fp = fopen(path, "rb");
        if (!fp)
            return NULL;
        char *text = NULL;
        size_t len = 0, cap = 0, n;
        char buf[65536];
        while ((n = fread(buf, 1, sizeof buf, fp)) > 0) {
            if (len + n > cap) {
                cap = (len + n) * 2;
                text = realloc(text, cap);
                if (!text)
                    abort();
            }
            memcpy(text + len, buf, n);
            len += n;
        }
        fclose(fp);
        bool found = text && may_define(text, len, name);
        free(text);
        if (!found)
            return NULL;
        u = unit_for_path(p, path);
    }
    return u ? symmap_get(&u->defs, name) : NULL;
}

/* NAME in any other .lmdl file of dir (not DIR/NAME.lmdl, tried first),
   in the sorted order of the names, so the result does not depend on
   readdir. */
static SemaDef *find_in_dir_files(Program *p, const char *dir, Sym *name)
{
    DIR *dd = opendir(dir);
    if (!dd)
        return NULL;
    PtrVec names = {0};
    struct dirent *e;
    while ((e = readdir(dd)) != NULL) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] != '.' && len > 5 && !strcmp(e->d_name + len - 5, ".lmdl")
            && !(len - 5 == name->len && !strncmp(e->d_name, name->name, name->len)))
            ptrvec_push(p->arena, &names, arena_strdup(p->arena, e->d_name));
    }
    closedir(dd);
    if (names.n)
        qsort(names.items, (size_t)names.n, sizeof(void *), cmp_str);
    SemaDef *d = NULL;
    for (int i = 0; i < names.n && !d; i++) {
        const char *path = arena_printf(p->arena, "%s/%s", dir, (char *)names.items[i]);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
            d = find_in_file(p, path, name);
    }
    return d;
}

/* NAME.lmdl in dir, else a definition of NAME in another file there: for
   the -I and LMDL_PATH directories, which hold libraries of the user's
   own (the model's directory and the standard library are looked up by
   file name only, so a model's neighbours never shadow the library). */
static SemaDef *find_near(Program *p, const char *dir, Sym *name)
{
    SemaDef *d = find_in_dir(p, dir, name);
    return d ? d : find_in_dir_files(p, dir, name);
}

void sema_note_searched(Program *p, const char *what)
{
    SrcFile *mf = src_get(p->main_file);
    char buf[4096];
    size_t at = 0;
    buf[0] = 0;
#define ADD(...) (at += at < sizeof buf ? (size_t)snprintf(buf + at, sizeof buf - at, __VA_ARGS__) : 0)
    ADD("searched for the %s in: the file itself", what);
    if (mf)
        ADD("; the model's directory %s", mf->dir);
    for (int i = 0; i < p->opts.ninclude; i++)
        ADD("; -I %s", p->opts.include_dirs[i]);
    const char *env = getenv("LMDL_PATH");
    if (env && *env)
        ADD("; LMDL_PATH %s", env);
    if (p->opts.stdlib_dir)
        ADD("; the standard library %s", p->opts.stdlib_dir);
#undef ADD
    if (at >= sizeof buf)
        memcpy(buf + sizeof buf - 4, "...", 4);
    diag_note(src_none, "%s", buf);
}

/* ---- packages ------------------------------------------------------------------

   A folder is a package: a.b.C is the definition C in a/b/C.lmdl below
   one of the roots of the search path (the model's directory, each -I
   directory, each LMDL_PATH directory, the library), tried in that order.
   A file's imports (`import a.b.C;`, `import a.b.*;`) make plain names
   of those packages visible in that file, before the search path. */

static const PtrVec *search_roots(Program *p)
{
    if (p->roots_made)
        return &p->roots;
    p->roots_made = true;
    SrcFile *mf = src_get(p->main_file);
    if (mf)
        ptrvec_push(p->arena, &p->roots, (void *)mf->dir);
    for (int i = 0; i < p->opts.ninclude; i++)
        ptrvec_push(p->arena, &p->roots, (void *)p->opts.include_dirs[i]);
    const char *env = getenv("LMDL_PATH");
    if (env && *env) {
        char *copy = arena_strdup(p->arena, env);
        for (char *save = NULL, *dir = strtok_r(copy, ":", &save); dir;
             dir = strtok_r(NULL, ":", &save))
            if (*dir)
                ptrvec_push(p->arena, &p->roots, dir);
    }
    if (p->opts.stdlib_dir)
        ptrvec_push(p->arena, &p->roots, (void *)p->opts.stdlib_dir);
    return &p->roots;
}

/* "a/b" for the first n parts of a dotted name. */
static char *parts_path(Arena *a, const AstExpr *name, int n)
{
    size_t len = 1;
    for (int i = 0; i < n; i++)
        len += name->u.name.parts[i].sym->len + 1;
    char *s = arena_alloc(a, len), *q = s;
    for (int i = 0; i < n; i++) {
        if (i)
            *q++ = '/';
        memcpy(q, name->u.name.parts[i].sym->name, name->u.name.parts[i].sym->len);
        q += name->u.name.parts[i].sym->len;
    }
    *q = 0;
    return s;
}

/* NAME in package directory pkg ("" for a root itself), on every root. */
static SemaDef *find_in_package(Program *p, const char *pkg, Sym *name)
{
    const PtrVec *roots = search_roots(p);
    for (int i = 0; i < roots->n; i++) {
        const char *dir = *pkg ? arena_printf(p->arena, "%s/%s", (char *)roots->items[i], pkg)
                               : roots->items[i];
        SemaDef *d = find_in_dir(p, dir, name);
        if (d)
            return d;
    }
    return NULL;
}

static bool package_exists(Program *p, const char *pkg)
{
    const PtrVec *roots = search_roots(p);
    for (int i = 0; i < roots->n; i++) {
        struct stat st;
        if (stat(arena_printf(p->arena, "%s/%s", (char *)roots->items[i], pkg), &st) == 0
            && S_ISDIR(st.st_mode))
            return true;
    }
    return false;
}

/* "translational.Mass" for every library file, for suggestions. */
static const char *suggest_qualified(Program *p, const char *name)
{
    if (diag_too_many() || !p->opts.stdlib_dir)
        return NULL;
    size_t root = strlen(p->opts.stdlib_dir) + 1;
    PtrVec v = {0};
    for (int i = 0; i < p->stdlib_paths.n; i++) {
        const char *path = p->stdlib_paths.items[i];
        if (strlen(path) <= root + 5)
            continue;
        char *q = arena_strndup(p->arena, path + root, strlen(path) - root - 5);
        for (char *c = q; *c; c++)
            if (*c == '/')
                *c = '.';
        ptrvec_push(p->arena, &v, q);
    }
    return diag_closest(name, (const char *const *)v.items, v.n);
}

static void check_imports(Program *p, SemaFile *u)
{
    for (int i = 0; i < u->ast->imports.n; i++) {
        AstImport *im = u->ast->imports.items[i];
        const AstExpr *nm = im->name;
        int n = nm->u.name.n;
        char *text = ast_name_text(p->arena, nm);
        if (im->late) {
            diag_error(im->span, "an import comes before the first definition of "
                       "the file (its scope is the whole file)");
            continue;
        }
        const char *full = parts_path(p->arena, nm, n);
        if (im->all) {
            if (!package_exists(p, full)) {
                diag_error(nm->span, "cannot import '%s.*': there is no package "
                           "'%s' (a folder %s) on the search path", text, text, full);
                continue;
            }
        } else if (!package_exists(p, full)
                   && !find_in_package(p, parts_path(p->arena, nm, n - 1),
                                       nm->u.name.parts[n - 1].sym)) {
            const char *s = suggest_qualified(p, text);
            diag_error(nm->span, "cannot import '%s': there is no %s.lmdl and no "
                       "package '%s' on the search path%s", text, full, text,
                       sema_did_you_mean(s).text);
            continue;
        }
        ptrvec_push(p->arena, &u->imports, im);
    }
}

/* A plain name through the imports of the file it is written in. */
static SemaDef *find_imported(Program *p, SemaFile *u, Sym *name)
{
    for (int i = 0; u && i < u->imports.n; i++) {
        AstImport *im = u->imports.items[i];
        const AstExpr *nm = im->name;
        int n = nm->u.name.n;
        SemaDef *d = NULL;
        if (im->all)
            d = find_in_package(p, parts_path(p->arena, nm, n), name);
        else if (nm->u.name.parts[n - 1].sym == name)
            d = find_in_package(p, parts_path(p->arena, nm, n - 1), name);
        if (d)
            return d;
    }
    return NULL;
}

SemaDef *sema_lookup_qualified(Program *p, const AstExpr *name, int from)
{
    int n = name->u.name.n;
    Sym *last = name->u.name.parts[n - 1].sym;
    const char *rest = parts_path(p->arena, name, n - 1);
    SemaDef *d = find_in_package(p, rest, last);
    /* relative to an imported package: after `import a.*`, b.C is a/b/C;
       after `import a.b`, b.C is a/b/C too */
    SemaFile *u = unit_of(p, from);
    for (int i = 0; !d && u && i < u->imports.n; i++) {
        AstImport *im = u->imports.items[i];
        const AstExpr *nm = im->name;
        int k = nm->u.name.n;
        if (im->all)
            d = find_in_package(p, arena_printf(p->arena, "%s/%s",
                                                parts_path(p->arena, nm, k), rest), last);
        else if (nm->u.name.parts[k - 1].sym == name->u.name.parts[0].sym)
            d = find_in_package(p, k > 1 ? arena_printf(p->arena, "%s/%s",
                                                         parts_path(p->arena, nm, k - 1), rest)
                                         : rest, last);
    }
    return d;
}

/* The library files whose stem is `name`, beyond the first: a plain name
   two packages define is ambiguous. */
static bool report_ambiguous(Program *p, Sym *name, SrcSpan at)
{
    int first = -1, second = -1;
    for (int i = 0; i < p->stdlib_names.n && second < 0; i++) {
        if (strcmp(p->stdlib_names.items[i], name->name))
            continue;
        if (first < 0)
            first = i;
        else
            second = i;
    }
    if (second < 0)
        return false;
    SemaFile *a = unit_for_path(p, p->stdlib_paths.items[first]);
    SemaFile *b = unit_for_path(p, p->stdlib_paths.items[second]);
    SemaDef *da = a ? symmap_get(&a->defs, name) : NULL;
    SemaDef *db = b ? symmap_get(&b->defs, name) : NULL;
    if (!da || !db)
        return false;
    diag_error(at, "'%s' is ambiguous: two packages of the library define it, "
               "%s and %s; write the package-qualified name or import the one "
               "you mean", name->name, (char *)p->stdlib_paths.items[first],
               (char *)p->stdlib_paths.items[second]);
    diag_note(da->ast->name_span, "one '%s' is defined here", name->name);
    diag_note(db->ast->name_span, "the other is defined here");
    return true;
}

/* sema_lookup, reporting at `at` a plain name that is ambiguous. */
static SemaDef *lookup_at(Program *p, Sym *name, int from, SrcSpan at)
{
    SemaDef *d = sema_lookup(p, name, from);
    SrcFile *f = d ? src_get(d->file) : NULL;
    size_t n = p->opts.stdlib_dir ? strlen(p->opts.stdlib_dir) : 0;
    /* found by its stem in the library: another package may have it too */
    if (f && n && !strncmp(f->path, p->opts.stdlib_dir, n) && f->path[n] == '/'
        && d->file != from && !find_imported(p, unit_of(p, from), name))
        report_ambiguous(p, name, at);
    return d;
}

SemaDef *sema_lookup(Program *p, Sym *name, int from)
{
    SemaFile *u = unit_of(p, from);
    SemaDef *d = u ? symmap_get(&u->defs, name) : NULL;
    if (d)
        return d;
    d = find_imported(p, u, name);
    if (d)
        return d;
    d = symmap_get(&p->resolved, name);
    if (d)
        return d;
    SrcFile *mf = src_get(p->main_file);
    if (mf)
        d = find_in_dir(p, mf->dir, name);
    for (int i = 0; !d && i < p->opts.ninclude; i++)
        d = find_near(p, p->opts.include_dirs[i], name);
    const char *env = getenv("LMDL_PATH");
    if (!d && env && *env) {
        char *copy = arena_strdup(p->arena, env);
        for (char *save = NULL, *dir = strtok_r(copy, ":", &save); dir && !d;
             dir = strtok_r(NULL, ":", &save))
            if (*dir)
                d = find_near(p, dir, name);
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

/* ---- section attributes ------------------------------------------------------

   parameters(Access = private), variables(Access = private, Event = true),
   intermediates(Access = private), components(ExternalAccess = modify |
   observe | none).  Anything else is an error at the attribute.  Event =
   true makes the variables of the section event variables (issue 12):
   piecewise constant, changed only by when clauses and mode chart entry
   actions. */

/* X(name, its values, the sections that take it) */
#define SECTION_ATTRIBUTES(X)                                                \
    X("Access", "public or private",                                         \
      (1 << SEC_PARAMETERS) | (1 << SEC_VARIABLES) | (1 << SEC_INTERMEDIATES)) \
    X("ExternalAccess", "modify, observe or none", 1 << SEC_COMPONENTS)       \
    X("Event", "true or false", 1 << SEC_VARIABLES)

typedef struct SectionAttrs {
    SemaAccess access;      /* Access */
    SemaExternal external;  /* ExternalAccess */
    bool event;             /* Event = true: the section's variables are
                               event variables (issue 12) */
} SectionAttrs;

static SectionAttrs section_attrs(Program *p, AstItem *it)
{
#define X_ATTRNAME(n, vals, where) n,
#define X_ATTRVALS(n, vals, where) vals,
#define X_ATTRWHERE(n, vals, where) where,
    static const char *const names[] = {SECTION_ATTRIBUTES(X_ATTRNAME)};
    static const char *const values[] = {SECTION_ATTRIBUTES(X_ATTRVALS)};
    static const unsigned where[] = {SECTION_ATTRIBUTES(X_ATTRWHERE)};
    enum { NATTR = sizeof names / sizeof names[0] };
    SectionAttrs r = {ACCESS_PUBLIC, EXT_MODIFY, false};
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
                diag_error(g->name_span, "a '%s' section has no attribute '%s'",
                           ast_section_names[k], n);
            else
                diag_error(g->name_span, "unknown attribute '%s' of a '%s' section%s",
                           n, ast_section_names[k], sema_did_you_mean(s).text);
            continue;
        }
        AstExpr *v = g->value;
        const char *word = ast_is_simple_name(v) ? v->u.name.parts[0].sym->name
                           : v->kind == EXPR_BOOL ? (v->u.boolean ? "true" : "false")
                           : "";
        bool ok = true;
        if (!strcmp(n, "Access")) {
            ok = !strcmp(word, "public") || !strcmp(word, "private");
            if (!strcmp(word, "private"))
                r.access = ACCESS_PRIVATE;
        } else if (!strcmp(n, "ExternalAccess")) {
            ok = !strcmp(word, "modify") || !strcmp(word, "observe") || !strcmp(word, "none");
            r.external = !strcmp(word, "none") ? EXT_NONE
                         : !strcmp(word, "observe") ? EXT_OBSERVE : EXT_MODIFY;
        } else {
            ok = !strcmp(word, "true") || !strcmp(word, "false");
            r.event = !strcmp(word, "true");
        }
        if (!ok)
            diag_error(v->span, "%s is %s", n, values[a]);
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
            m->external = at.external;
            m->rank = declared_rank(d, k, &in->index, in->name, in->name_span, in_loop);
            /* its type now, so that a reference checked before the
               declaration's section (`connect(A, m(1).P)` above the loop
               that declares m) resolves; check_instance reports a bad one */
            SemaDef *t = in->type_qual ? sema_lookup_qualified(p, in->type_qual, d->file)
                                       : sema_lookup(p, in->type, d->file);
            if (t && t->ast->kind == DEF_COMPONENT && t != d)
                m->type = t;
        }
    } else if (ast_section_is_decls(k)) {
        for (int j = 0; j < v->n; j++) {
            AstDecl *dc = v->items[j];
            SemaMember *m = declare(p, d, member_kind_of(k), dc->name, dc->name_span, dc,
                                    NULL, scope);
            m->access = at.access;
            m->event = at.event;
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
    REF_FUNCTION,       /* a function's body: its locals, no der or time */
    REF_INDEX,          /* an index or a for-loop's range: parameters and
                           loop variables */
} RefMode;

/* A name defined by a let or in a function's body (an argument or a
   definition), innermost first.  A barrier stands below a function's
   names: nothing outside the function is visible from its body. */
typedef struct ResolveLocal {
    Sym *name;                  /* the name (NULL for a barrier) */
    SrcSpan span;               /* where it is defined */
    struct ResolveLocal *up;    /* the next one out */
} ResolveLocal;

typedef struct Checker {
    Program *p;         /* the program */
    SemaDef *d;         /* definition being checked */
    int scope;          /* current arm */
    RefMode mode;       /* what references may name */
    int order;          /* for REF_PARAMETER: order of the parameter */
    const char *what;   /* "a parameter value", for messages */
    ResolveLocal *locals; /* let and function names in scope, or NULL */
    PtrVec loops;       /* Sym*: the variables of the enclosing for-loops */
    bool in_when;       /* in a when predicate: edge() and initialevent */
    PtrVec assigned;    /* EvAssign*: event variables assigned so far */
} Checker;

static void check_expr(Checker *c, AstExpr *e);

static const char *def_kind_name(const SemaDef *d)
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
    if (next->kind == MEM_INSTANCE && next->external == EXT_NONE) {
        diag_error(at->span, "component '%s' of '%s' is hidden (ExternalAccess = "
                   "none): it cannot be reached from outside '%s'", next->name->name,
                   t->ast->name->name, t->ast->name->name);
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
            if (m->kind == MEM_INSTANCE && !reachable(t, next, &parts[i]))
                return NULL;
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

static bool check_local_name(Checker *c, AstExpr *e);

static void check_name(Checker *c, AstExpr *e)
{
    if (check_local_name(c, e))
        return;
    AstNamePart *first = &e->u.name.parts[0];
    if (loop_var_misused(c, e))
        return;
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

/* "a/b/c" for the name a.b.c: its file below a root, without .lmdl. */
static const char *package_path(Arena *a, const AstExpr *name)
{
    char *t = ast_name_text(a, name);
    for (char *q = t; *q; q++)
        if (*q == '.')
            *q = '/';
    return t;
}

/* ---- special forms: value(), integ() ---- */

/* The first der() or integ() inside e, or NULL. */
static AstExpr *find_der_or_integ(AstExpr *e)
{
    AstExpr *kids[3] = {NULL, NULL, NULL};
    switch (e->kind) {
    case EXPR_DER:
        return e;
    case EXPR_CALL:
        if (special_find(e->u.call.func->name) == SF_INTEG)
            return e;
        for (int i = 0; i < e->u.call.args.n; i++) {
            AstExpr *r = find_der_or_integ(e->u.call.args.items[i]);
            if (r)
                return r;
        }
        return NULL;
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
        AstExpr *r = kids[i] ? find_der_or_integ(kids[i]) : NULL;
        if (r)
            return r;
    }
    return NULL;
}

/* ---- special forms of issue 12: edge(), delay() ---- */

static bool has_delay(const AstExpr *e)
{
    switch (e->kind) {
    case EXPR_CALL:
        if (special_find(e->u.call.func->name) == SF_DELAY)
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
            check_expr(c, a);
            c->mode = mode;
            if (has_der(a) || has_delay(a))
                diag_error(a->span, "delay's %s cannot contain der() or delay()",
                           npos == 1 ? "u" : "tau");
            continue;
        }
        const char *n = a->u.option.name->name;
        int which = !strcmp(n, "History") ? 0 : !strcmp(n, "MaximumDelay") ? 1 : -1;
        if (which < 0) {
            const char *sug = diag_closest(n, names, 2);
            diag_error(a->u.option.name_span, "delay takes History = and "
                       "MaximumDelay =, not '%s'%s", n, sema_did_you_mean(sug).text);
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
        check_expr(c, a->u.option.value);
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
        check_expr(c, e->u.call.args.items[i]);
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
    const char *f = special_names[k];
    int n = e->u.call.args.n, lo = special_min_args[k], hi = special_max_args[k];
    AstExpr **a = (AstExpr **)e->u.call.args.items;
    if (n < lo || n > hi) {
        diag_error(e->span, "'%s' takes %d or %d arguments, not %d", f, lo, hi, n);
        return true;
    }
    if (k == SF_VALUE) {
        check_expr(c, a[0]);
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
    AstExpr *inner = find_der_or_integ(a[0]);
    if (inner)
        diag_error(inner->span, "the argument of integ() cannot contain %s",
                   inner->kind == EXPR_DER ? "der()" : "another integ()");
    check_expr(c, a[0]);
    return true;
}

/* Every function name a user might have meant: the built-in ones, the
   special forms and the functions loaded so far. */
static const char *suggest_function(Checker *c, const char *f)
{
    if (diag_too_many())
        return NULL;
    PtrVec v = {0};
    for (int i = 0; i < FN_NAMED; i++)
        ptrvec_push(c->p->arena, &v, (void *)builtin_names[i]);
    for (int i = 0; i < SF_COUNT; i++)
        ptrvec_push(c->p->arena, &v, (void *)special_names[i]);
    for (int i = 0; i < AF_COUNT; i++)
        ptrvec_push(c->p->arena, &v, (void *)array_func_names[i]);
    for (int i = 0; i < c->p->all_defs.n; i++) {
        AstDef *d = ((SemaDef *)c->p->all_defs.items[i])->ast;
        if (d->kind == DEF_FUNCTION)
            ptrvec_push(c->p->arena, &v, (void *)d->name->name);
    }
    return diag_closest(f, (const char *const *)v.items, v.n);
}

static bool check_function_call(Checker *c, AstExpr *e);

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
        if (((AstExpr *)e->u.call.args.items[i])->kind == EXPR_OPTION) {
            diag_error(((AstExpr *)e->u.call.args.items[i])->span, "'%s' takes no "
                       "NAME = value arguments", f);
            return;
        }
    }
    int arity = k >= 0 ? builtin_arity[k] : -1;
    if (k < 0 && !e->u.call.qual && check_special_call(c, e))
        return;
    if (k < 0 && check_function_call(c, e))
        return;
    if (arity < 0 && e->u.call.qual) {
        diag_error(e->u.call.func_span, "unknown function '%s': there is no "
                   "function file %s.lmdl on the search path",
                   ast_name_text(c->p->arena, e->u.call.qual),
                   package_path(c->p->arena, e->u.call.qual));
    } else if (arity < 0) {
        const char *s = suggest_function(c, f);
        diag_error(e->u.call.func_span, "unknown function '%s'%s", f,
                   sema_did_you_mean(s).text);
        sema_note_searched(c->p, "function");
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
        if (ast_any_unit(e))
            diag_error(e->u.quantity.unit_span, "the unit '*' (the unit of the value "
                       "bound at instantiation) is only a parameter's declared unit, "
                       "as in k = {1, '*'};");
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
        diag_error(e->span, "NAME = value is an argument of tablelookup or delay, "
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
static void check_outputs(AstDecl *dc);

static void check_decl(Checker *c, AstSectionKind k, AstDecl *dc, SemaMember *m)
{
    AstExpr *v = dc->value;
    if (dc->untyped && k != SEC_INPUTS && k != SEC_OUTPUTS) {
        diag_error(dc->name_span, "'%s' needs a value: only inputs and outputs "
                   "may be declared without one (their unit is then inferred)",
                   dc->name->name);
        return;
    }
    if (dc->output >= 0 && k != SEC_INTERMEDIATES) {
        if (dc->output == 0)
            diag_error(dc->span, "[a, b] = f(x) defines intermediates; it is "
                       "allowed in 'intermediates', 'let' and a function's "
                       "definitions, not in '%s'", ast_section_names[k]);
        return;
    }
    switch (k) {
    case SEC_NODES: {
        if (dc->index.n)
            check_index_exprs(c, (AstExpr **)dc->index.items, dc->index.n);
        if (v->kind != EXPR_NAME || v->parens) {
            diag_error(v->span, "a node is declared as NAME = DOMAIN;");
            return;
        }
        /* foundation.mechanical.translational.translational style: a
           package-qualified domain */
        bool qual = v->u.name.n > 1;
        Sym *dn = v->u.name.parts[v->u.name.n - 1].sym;
        SemaDef *t = qual ? sema_lookup_qualified(c->p, v, c->d->file)
                          : lookup_at(c->p, dn, c->d->file, v->span);
        if (!t && qual) {
            const char *text = ast_name_text(c->p->arena, v);
            const char *s = suggest_qualified(c->p, text);
            diag_error(v->span, "unknown domain '%s': there is no %s.lmdl on the "
                       "search path%s", text, package_path(c->p->arena, v),
                       sema_did_you_mean(s).text);
        } else if (!t) {
            const char *s = sema_suggest_def(c->p, dn->name);
            diag_error(v->span, "unknown domain '%s'%s", dn->name, sema_did_you_mean(s).text);
            sema_note_searched(c->p, "domain");
        } else if (t->ast->kind != DEF_DOMAIN) {
            diag_error(v->span, "'%s' is a %s, not a domain", dn->name, def_kind_name(t));
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
    else if (k == SEC_PARAMETERS && ast_any_unit(v))
        check_expr(c, v->u.quantity.value);
    else if (dc->output <= 0)
        check_expr(c, v);
    if (dc->output >= 0)
        check_outputs(dc);
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
    SemaDef *t = in->type_qual ? sema_lookup_qualified(c->p, in->type_qual, c->d->file)
                               : lookup_at(c->p, in->type, c->d->file, in->type_span);
    if (!t && in->type_qual) {
        const char *text = ast_name_text(c->p->arena, in->type_qual);
        const char *s = suggest_qualified(c->p, text);
        diag_error(in->type_span, "unknown component '%s': there is no %s.lmdl on "
                   "the search path%s", text, package_path(c->p->arena, in->type_qual),
                   sema_did_you_mean(s).text);
        return;
    }
    if (!t) {
        const char *s = sema_suggest_def(c->p, in->type->name);
        diag_error(in->type_span, "unknown component '%s'%s", in->type->name,
                   sema_did_you_mean(s).text);
        sema_note_searched(c->p, "component");
        return;
    }
    if (t->ast->kind == DEF_FUNCTION) {
        diag_error(in->type_span, "'%s' is a function; only a component can be "
                   "instantiated (call a function in an expression)", in->type->name);
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
        if (target->access == ACCESS_PRIVATE) {
            diag_error(g->name_span, "%s '%s' of component '%s' is private (Access "
                       "= private): it cannot be set from outside",
                       sema_member_kind_names[target->kind], g->name->name,
                       t->ast->name->name);
            diag_note(target->decl->name_span, "'%s' is declared here", g->name->name);
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
static void check_let(Checker *c, AstStmt *s);
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
    case STMT_LET:
        check_let(c, s);
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

/* ---- functions and local names --------------------------------------------

   A function's body sees only its arguments and its earlier definitions
   (a barrier in the chain of locals stops the lookup there); a let's
   names are seen by its later definitions and its equations, in front of
   the component's members, which they may not hide.  A call is checked
   against the function's arguments; a function calling itself, directly
   or through others, is found on the stack of bodies being checked. */

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

/* A name that is a local (let, argument, definition): true when e is
   decided here (resolved or reported). */
static bool check_local_name(Checker *c, AstExpr *e)
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
        return true;
    }
    if (!barrier)
        return false;
    if (e->u.name.n == 1 && strcmp(first->sym->name, "pi") == 0)
        return true;
    PtrVec v = {0};
    for (ResolveLocal *x = c->locals; x && x->name && !diag_too_many(); x = x->up)
        ptrvec_push(c->p->arena, &v, (void *)x->name->name);
    const char *s = diag_closest(first->sym->name, (const char *const *)v.items, v.n);
    diag_error(first->span, "unknown name '%s' in function '%s': a function's "
               "body sees only its arguments and its earlier definitions%s",
               first->sym->name, c->d->ast->name->name, sema_did_you_mean(s).text);
    return true;
}

/* Defines a local; a let name may not hide a member, and no name is
   defined twice in one function or let. */
static void define_local(Checker *c, AstDecl *d, ResolveLocal *floor)
{
    for (ResolveLocal *l = c->locals; l && l != floor && l->name; l = l->up) {
        if (l->name == d->name) {
            diag_error(d->name_span, "'%s' is defined twice", d->name->name);
            diag_note(l->span, "the first definition of '%s' is here", d->name->name);
            return;
        }
    }
    if (c->d->ast->kind != DEF_FUNCTION) {
        SemaMember *m = visible(c->d, d->name, c->scope);
        if (m) {
            diag_error(d->name_span, "'%s' is already a %s of component '%s'; a "
                       "let defines new names", d->name->name,
                       sema_member_kind_names[m->kind], c->d->ast->name->name);
            return;
        }
    }
    push_local(c, d->name, d->name_span);
}

/* `[a, b] = f(x)`: the call is to a user function with enough outputs. */
static void check_outputs(AstDecl *dc)
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
            check_expr(c, d->value);
        if (d->output >= 0)
            check_outputs(d);
        define_local(c, d, floor);
    }
}

static void check_let(Checker *c, AstStmt *s)
{
    ResolveLocal *saved = c->locals;
    check_local_defs(c, &s->u.let_.defs, saved);
    check_stmts(c, &s->u.let_.body);
    c->locals = saved;
}

/* The body of a function: arguments, then definitions in order; every
   output must be defined. */
static void resolve_function(Program *p, SemaDef *d)
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
static bool check_function_call(Checker *c, AstExpr *e)
{
    Sym *name = e->u.call.func;
    SemaDef *f = e->u.call.qual ? sema_lookup_qualified(c->p, e->u.call.qual, c->d->file)
                                : lookup_at(c->p, name, c->d->file, e->u.call.func_span);
    if (!f)
        return false;
    if (f->ast->kind != DEF_FUNCTION) {
        diag_error(e->u.call.func_span, "'%s' is a %s, not a function", name->name,
                   def_kind_name(f));
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
        check_expr(c, e->u.call.args.items[i]);
    return true;
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
            AstNamePart part = {.sym = a->name, .span = a->name_span};
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
    if (d->ast->kind == DEF_FUNCTION) {
        resolve_function(p, d);
        return;
    }
    new_scope(p, d, -1, NULL);
    collect_members(p, d, &d->ast->items, 0);
    Checker c = {p, d, 0, REF_EQUATION, 0, "an equation", NULL, {0}, false, {0}};
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
        diag_error(t->ast->name_span, "'%s' is a %s; the top-level model "
                   "must be a component", t->ast->name->name, def_kind_name(t));
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
