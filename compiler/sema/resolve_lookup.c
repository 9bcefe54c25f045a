/*
 * resolve_lookup.c - resolution (resolve.c): finding a definition by a
 * plain name.
 *
 * Definitions are looked up in the order of docs/language.md ("Finding
 * definitions"): the same file, its imports (resolve_packages.c),
 * NAME.lmdl (or NAME.ssc) in the model file's directory, each -I directory, each
 * LMDL_PATH directory, then the standard library (indexed once, recursively, by file stem).  A found
 * name is cached, so each file is read and parsed at most once.  A plain
 * name found by its stem in two library packages is ambiguous.  The
 * suggestions of "did you mean" for a definition and the note naming the
 * places searched are made here too.
 */
#include "resolve_internal.h"

#include "parse.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the standard library index ------------------------------------------ */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t rs_source_stem(const char *file)
{
    size_t len = strlen(file);
    if (len > 5 && strcmp(file + len - 5, ".lmdl") == 0)
        return len - 5;
    if (len > 4 && strcmp(file + len - 4, ".ssc") == 0)
        return len - 4;
    return 0;
}

/* Collects every *.lmdl and *.ssc below dir, in sorted order so lookups do not
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
        size_t stem = rs_source_stem(n);
        if (S_ISDIR(st.st_mode)) {
            index_dir(p, path, depth + 1);
        } else if (stem) {
            ptrvec_push(p->arena, &p->stdlib_names, arena_strndup(p->arena, n, stem));
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

SemaFile *rs_unit_of(Program *p, int file)
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
    rs_check_imports(p, u);
    return u;
}

AstFile *sema_add_main(Program *p, int file)
{
    p->main_file = file;
    return add_unit(p, file)->ast;
}

/* The unit for a path, loading it if needed; NULL if it is not a file. */
SemaFile *rs_unit_for_path(Program *p, const char *path)
{
    int id = src_find(path);
    if (id >= 0) {
        SemaFile *u = rs_unit_of(p, id);
        /* loaded by an earlier run of this process (check DIR), not yet
           parsed for this program */
        return u ? u : add_unit(p, id);
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return NULL;
    id = src_load(path);
    if (id < 0)
        return NULL;
    return add_unit(p, id);
}

SemaDef *rs_find_in_dir(Program *p, const char *dir, Sym *name)
{
    /* NAME.lmdl, else Simscape's NAME.ssc */
    static const char *const ext[] = {"lmdl", "ssc"};
    for (int i = 0; i < 2; i++) {
        char *path = arena_printf(p->arena, "%s/%s.%s", dir, name->name, ext[i]);
        SemaFile *u = rs_unit_for_path(p, path);
        if (u)
            return symmap_get(&u->defs, name);
    }
    return NULL;
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
    SemaFile *u = id >= 0 ? rs_unit_of(p, id) : NULL;
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
        u = rs_unit_for_path(p, path);
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
        size_t stem = rs_source_stem(e->d_name);
        if (e->d_name[0] != '.' && stem
            && !(stem == name->len && !strncmp(e->d_name, name->name, name->len)))
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
    SemaDef *d = rs_find_in_dir(p, dir, name);
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

/* The library files whose stem is `name`, beyond the first: a plain name
   two packages define is ambiguous. */
static bool report_ambiguous(Program *p, Sym *name, SrcSpan at)
{
    if (symmap_get(&p->stdlib_once, name))
        return false;
    int first = -1, second = -1;
    for (int i = 0; i < p->stdlib_names.n && second < 0; i++) {
        if (strcmp(p->stdlib_names.items[i], name->name))
            continue;
        if (first < 0)
            first = i;
        else
            second = i;
    }
    if (second < 0) {
        symmap_put(&p->stdlib_once, name, name);
        return false;
    }
    SemaFile *a = rs_unit_for_path(p, p->stdlib_paths.items[first]);
    SemaFile *b = rs_unit_for_path(p, p->stdlib_paths.items[second]);
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
SemaDef *rs_lookup_at(Program *p, Sym *name, int from, SrcSpan at)
{
    SemaDef *d = sema_lookup(p, name, from);
    SrcFile *f = d ? src_get(d->file) : NULL;
    size_t n = p->opts.stdlib_dir ? strlen(p->opts.stdlib_dir) : 0;
    /* found by its stem in the library: another package may have it too */
    if (f && n && !strncmp(f->path, p->opts.stdlib_dir, n) && f->path[n] == '/'
        && d->file != from && !rs_find_imported(p, rs_unit_of(p, from), name))
        report_ambiguous(p, name, at);
    return d;
}

SemaDef *sema_lookup(Program *p, Sym *name, int from)
{
    SemaFile *u = rs_unit_of(p, from);
    SemaDef *d = u ? symmap_get(&u->defs, name) : NULL;
    if (d)
        return d;
    d = rs_find_imported(p, u, name);
    if (d)
        return d;
    d = symmap_get(&p->resolved, name);
    if (d)
        return d;
    SrcFile *mf = src_get(p->main_file);
    if (mf)
        d = rs_find_in_dir(p, mf->dir, name);
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
            SemaFile *lu = rs_unit_for_path(p, p->stdlib_paths.items[i]);
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
