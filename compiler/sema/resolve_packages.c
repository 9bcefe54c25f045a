/*
 * resolve_packages.c - resolution (resolve.c): packages and imports.
 *
 * A folder is a package: a.b.C is the definition C in +a/+b/C.ssc (as
 * Simscape and MATLAB keep packages) or a/b/C.lmdl below one of the
 * roots of the search path (the model's directory, each -I
 * directory, each LMDL_PATH directory, the library), tried in that order.
 * A file's imports (`import a.b.C;`, `import a.b.*;`) make plain names
 * of those packages visible in that file, before the search path.
 */
#include "resolve_internal.h"

#include "paths.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const PtrVec *search_roots(Program *p)
{
    if (p->roots_made)
        return &p->roots;
    p->roots_made = true;
    SrcFile *mf = src_get(p->main_file);
    if (mf) {
        ptrvec_push(p->arena, &p->roots, (void *)mf->dir);
        /* a model in DIR/+a/+b/C.ssc is a.b.C: DIR is a root too */
        char *root = paths_package_root(mf->dir);
        if (root) {
            ptrvec_push(p->arena, &p->roots, arena_strdup(p->arena, root));
            free(root);
        }
    }
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

/* "+a/+b" for "a/b": the package's folder as MATLAB names it. */
static char *plus_path(Arena *a, const char *pkg)
{
    size_t n = 1, parts = 1;
    for (const char *c = pkg; *c; c++)
        parts += *c == '/';
    n += strlen(pkg) + parts;
    char *s = arena_alloc(a, n), *q = s;
    *q++ = '+';
    for (const char *c = pkg; *c; c++) {
        *q++ = *c;
        if (*c == '/')
            *q++ = '+';
    }
    *q = 0;
    return s;
}

/* The folder of package pkg ("a/b") below root, as a +a/+b folder
   (MATLAB's) or an a/b one (lmdl's); form 0 or 1. */
static const char *package_dir(Program *p, const char *root, const char *pkg, int form)
{
    if (!*pkg)
        return root;
    return arena_printf(p->arena, "%s/%s", root, form ? pkg : plus_path(p->arena, pkg));
}

/* NAME in package directory pkg ("" for a root itself), on every root. */
static SemaDef *find_in_package(Program *p, const char *pkg, Sym *name)
{
    const PtrVec *roots = search_roots(p);
    for (int i = 0; i < roots->n; i++) {
        for (int form = 0; form < (*pkg ? 2 : 1); form++) {
            SemaDef *d = rs_find_in_dir(p, package_dir(p, roots->items[i], pkg, form), name);
            if (d)
                return d;
        }
    }
    return NULL;
}

static bool package_exists(Program *p, const char *pkg)
{
    const PtrVec *roots = search_roots(p);
    for (int i = 0; i < roots->n; i++) {
        for (int form = 0; form < 2; form++) {
            struct stat st;
            if (stat(package_dir(p, roots->items[i], pkg, form), &st) == 0
                && S_ISDIR(st.st_mode))
                return true;
        }
    }
    return false;
}

bool rs_names_package(Program *p, const AstExpr *e)
{
    return e->kind == EXPR_NAME && e->u.name.n >= 2
           && package_exists(p, parts_path(p->arena, e, 1));
}

const char *rs_package_file(Program *p, const AstExpr *e, int k, const char *ext)
{
    const char *pkg = parts_path(p->arena, e, k - 1);
    const char *name = e->u.name.parts[k - 1].sym->name;
    const PtrVec *roots = search_roots(p);
    for (int i = 0; i < roots->n; i++) {
        for (int form = 0; form < (*pkg ? 2 : 1); form++) {
            const char *path = arena_printf(p->arena, "%s/%s.%s",
                                            package_dir(p, roots->items[i], pkg, form),
                                            name, ext);
            struct stat st;
            if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
                return path;
        }
    }
    return NULL;
}

/* "translational.Mass" for every library file, for suggestions. */
const char *rs_suggest_qualified(Program *p, const char *name)
{
    if (diag_too_many() || !p->opts.stdlib_dir)
        return NULL;
    size_t root = strlen(p->opts.stdlib_dir) + 1;
    PtrVec v = {0};
    for (int i = 0; i < p->stdlib_paths.n; i++) {
        const char *path = p->stdlib_paths.items[i];
        const char *base = strrchr(path, '/');
        size_t stem = rs_source_stem(base ? base + 1 : path);
        size_t end = (size_t)((base ? base + 1 : path) - path) + stem;
        if (end <= root)
            continue;
        /* a/b/C or +a/+b/C: a.b.C */
        char *q = arena_alloc(p->arena, end - root + 1), *o = q;
        for (size_t k = root; k < end; k++) {
            if (path[k] == '+' && (k == root || path[k - 1] == '/'))
                continue;
            *o++ = path[k] == '/' ? '.' : path[k];
        }
        *o = 0;
        ptrvec_push(p->arena, &v, q);
    }
    return diag_closest(name, (const char *const *)v.items, v.n);
}

void rs_check_imports(Program *p, SemaFile *u)
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
                           "'%s' (a folder %s or %s) on the search path", text, text,
                           plus_path(p->arena, full), full);
                continue;
            }
        } else if (!package_exists(p, full)
                   && !find_in_package(p, parts_path(p->arena, nm, n - 1),
                                       nm->u.name.parts[n - 1].sym)) {
            const char *s = rs_suggest_qualified(p, text);
            diag_error(nm->span, "cannot import '%s': there is no %s and no "
                       "package '%s' on the search path%s", text,
                       rs_package_path(p->arena, nm), text, diag_did_you_mean(s).text);
            continue;
        }
        ptrvec_push(p->arena, &u->imports, im);
    }
}

/* A plain name through the imports of the file it is written in. */
SemaDef *rs_find_imported(Program *p, SemaFile *u, Sym *name)
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
    SemaFile *u = rs_unit_of(p, from);
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

const char *rs_package_path(Arena *a, const AstExpr *name)
{
    int n = name->u.name.n;
    const char *pkg = parts_path(a, name, n - 1), *last = name->u.name.parts[n - 1].sym->name;
    if (!*pkg)
        return arena_printf(a, "%s.ssc or %s.lmdl", last, last);
    return arena_printf(a, "%s/%s.ssc or %s/%s.lmdl", plus_path(a, pkg), last, pkg, last);
}
