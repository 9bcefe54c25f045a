/*
 * lsp_query.c - hover, go to definition and completion for `lmdlc lsp`.
 *
 * Each request parses and resolves the document (lsp_unit_open) and reads
 * the dotted name at the position from the text: `a.b.c` (indices such as
 * `m(i).x` skipped), up to the identifier under the cursor.  The name is
 * then resolved as the compiler resolves it, through the program's
 * member tables and search path:
 *
 *   - a name of an instance's argument list (`Mass(M = ...)`) is the
 *     argument's member of that component;
 *   - a first part that is a member of the enclosing definition is that
 *     member, and each further part a member of the previous one's
 *     component or domain (`inst.member`, `node.v`);
 *   - otherwise the whole is a definition: a plain name found as
 *     sema_lookup finds it, a dotted one as a package path
 *     (sema_lookup_qualified: `+pkg` folders, -I, LMDL_PATH, the library).
 *
 * Completion blanks the cursor's line before parsing (what is being
 * typed there rarely parses) and offers the members of what precedes a
 * '.', the packages and definitions of a package path, the unit symbols
 * inside a quoted string after a comma (`{1, '`), and otherwise the
 * enclosing definition's members, the file's definitions and the top
 * level of the search path.
 */
#include "lsp_internal.h"

#include "diag.h"
#include "driver.h"
#include "rt_units.h"
#include "sym.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { MAX_PARTS = 32 };

/* The dotted name at a position: its parts up to the cursor's. */
typedef struct Chain {
    Sym *parts[MAX_PARTS];  /* interned names, first to last */
    SrcSpan spans[MAX_PARTS]; /* where each is written */
    int n;                  /* parts read (0: nothing there) */
} Chain;

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static bool ident_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

/* The parts before offset `start` (the beginning of the last part), read
   backwards over `.`, and `(...)` index lists before a `.`. */
static void chain_before(const char *t, uint32_t start, int file, Chain *c)
{
    Sym *parts[MAX_PARTS];
    SrcSpan spans[MAX_PARTS];
    int n = 0;
    uint32_t i = start;
    while (n < MAX_PARTS - 1 && i > 0 && t[i - 1] == '.') {
        i--;
        if (i > 0 && t[i - 1] == ')') {     /* m(i).x */
            int depth = 0;
            while (i > 0) {
                char ch = t[--i];
                depth += ch == ')' ? 1 : ch == '(' ? -1 : 0;
                if (!depth)
                    break;
            }
        }
        uint32_t e = i;
        while (i > 0 && ident_char(t[i - 1]))
            i--;
        if (i == e || !ident_start(t[i]))
            break;
        parts[n] = sym_intern(t + i, e - i);
        spans[n++] = (SrcSpan){file, i, e};
    }
    /* reversed, in front of what c holds */
    memmove(c->parts + n, c->parts, sizeof *c->parts * (size_t)c->n);
    memmove(c->spans + n, c->spans, sizeof *c->spans * (size_t)c->n);
    for (int k = 0; k < n; k++) {
        c->parts[k] = parts[n - 1 - k];
        c->spans[k] = spans[n - 1 - k];
    }
    c->n += n;
}

/* The dotted name whose last part holds offset off, or n == 0. */
static void chain_at(const SrcFile *f, int file, uint32_t off, Chain *c)
{
    c->n = 0;
    const char *t = f->text;
    uint32_t b = off, e = off;
    while (b > 0 && ident_char(t[b - 1]))
        b--;
    while (e < f->len && ident_char(t[e]))
        e++;
    if (b == e || !ident_start(t[b]))
        return;
    c->parts[0] = sym_intern(t + b, e - b);
    c->spans[0] = (SrcSpan){file, b, e};
    c->n = 1;
}

/* The definition of the document whose span holds off. */
static SemaDef *def_at(LspUnit *u, uint32_t off)
{
    for (int i = 0; u->ast && i < u->ast->defs.n; i++) {
        AstDef *ad = u->ast->defs.items[i];
        if (ad && ad->name && off >= ad->span.begin && off <= ad->span.end)
            return u->resolved ? sema_lookup(u->p, ad->name, u->file) : NULL;
    }
    return NULL;
}

/* The member `name` of d, resolving d first. */
static SemaMember *member_of(LspUnit *u, SemaDef *d, Sym *name)
{
    if (!d)
        return NULL;
    sema_resolve_def(u->p, d);
    return sema_member(d, name);
}

/* What a name at a position is. */
typedef struct Target {
    SemaMember *m;          /* a member, */
    SemaDef *owner;         /* declared in this definition; */
    SemaDef *def;           /* or a definition */
} Target;

/* An argument name of an instance in d's items, at off: that instance. */
static const AstInstance *instance_arg_at(const PtrVec *items, uint32_t off, Sym **arg)
{
    for (int i = 0; items && i < items->n; i++) {
        const AstItem *it = items->items[i];
        const AstInstance *found = NULL;
        if (it->kind == ITEM_IF)
            for (int j = 0; !found && j < it->u.if_.clauses.n; j++)
                found = instance_arg_at(&((AstClause *)it->u.if_.clauses.items[j])->body,
                                        off, arg);
        else if (it->kind == ITEM_FOR)
            found = instance_arg_at(&it->u.for_.body, off, arg);
        else if (it->kind == ITEM_SECTION && it->u.section.kind == SEC_COMPONENTS)
            for (int j = 0; j < it->u.section.entries.n; j++) {
                const AstInstance *in = it->u.section.entries.items[j];
                for (int k = 0; k < in->args.n; k++) {
                    const AstArg *g = in->args.items[k];
                    if (off >= g->name_span.begin && off <= g->name_span.end) {
                        *arg = g->name;
                        return in;
                    }
                }
            }
        if (found)
            return found;
    }
    return NULL;
}

/* Resolves the parts of c (up to k of them) from definition ctx. */
static Target resolve_chain(LspUnit *u, SemaDef *ctx, const Chain *c, int k)
{
    Target t = {0};
    SemaMember *m = member_of(u, ctx, c->parts[0]);
    if (m) {
        SemaDef *owner = ctx;
        for (int i = 1; m && i < k; i++) {
            owner = m->type;
            m = member_of(u, owner, c->parts[i]);
        }
        if (m) {
            t.m = m;
            t.owner = owner;
            return t;
        }
    }
    if (!u->resolved)
        return t;
    if (k == 1) {
        t.def = sema_lookup(u->p, c->parts[0], u->file);
        return t;
    }
    /* a package path: a fake EXPR_NAME of the parts */
    AstNamePart parts[MAX_PARTS];
    memset(parts, 0, sizeof parts);
    for (int i = 0; i < k; i++) {
        parts[i].sym = c->parts[i];
        parts[i].span = c->spans[i];
    }
    AstExpr e = {.kind = EXPR_NAME, .span = src_join(c->spans[0], c->spans[k - 1])};
    e.u.name.parts = parts;
    e.u.name.n = k;
    t.def = sema_lookup_qualified(u->p, &e, u->file);
    return t;
}

/* The target at an LSP position of the opened unit. */
static Target target_at(LspUnit *u, int line, int ch)
{
    Target t = {0};
    const SrcFile *f = src_get(u->file);
    uint32_t off = lsp_offset_at(f->text, f->len, line, ch);
    Chain c;
    chain_at(f, u->file, off, &c);
    if (!c.n)
        return t;
    chain_before(f->text, c.spans[0].begin, u->file, &c);
    SemaDef *ctx = def_at(u, off);
    Sym *arg = NULL;
    const AstInstance *in = ctx ? instance_arg_at(&ctx->ast->items, off, &arg) : NULL;
    if (in) {
        SemaMember *im = member_of(u, ctx, in->name);
        t.m = im ? member_of(u, im->type, arg) : NULL;
        t.owner = im ? im->type : NULL;
        if (t.m)
            return t;
    }
    return resolve_chain(u, ctx, &c, c.n);
}

static SrcSpan member_name_span(const SemaMember *m)
{
    return m->kind == MEM_INSTANCE ? m->inst->name_span : m->decl->name_span;
}

/* ---- definition ------------------------------------------------------------- */

void lsp_definition(LspServer *s, const LspDoc *d, int line, int character, FILE *fp)
{
    LspUnit u;
    lsp_unit_open(s, d, d->text, d->len, &u);
    Target t = target_at(&u, line, character);
    if (t.m && (t.m->decl || t.m->inst))
        lsp_put_location(fp, member_name_span(t.m));
    else if (t.def)
        lsp_put_location(fp, t.def->ast->name_span);
    else
        fputs("null", fp);
    lsp_unit_close(&u);
}

/* ---- hover ------------------------------------------------------------------ */

/* The source text of a span, white space runs as one space. */
static void put_text(FILE *fp, SrcSpan sp)
{
    const SrcFile *f = src_get(sp.file);
    bool space = false;
    for (uint32_t i = sp.begin; f && i < sp.end && i < f->len; i++) {
        char c = f->text[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            space = true;
            continue;
        }
        if (space)
            fputc(' ', fp);
        space = false;
        fputc(c, fp);
    }
}

static const char *def_kind(const SemaDef *d)
{
    return d->ast->kind == DEF_COMPONENT ? "component"
           : d->ast->kind == DEF_DOMAIN ? "domain" : "function";
}

static void put_where(FILE *fp, const SemaDef *d)
{
    const SrcFile *f = src_get(d->file);
    fprintf(fp, "\n\n*%s* `%s`, in %s", def_kind(d), d->ast->name->name,
            f ? f->path : "?");
}

/* The markdown of a member: kind, declaration, unit, description. */
static void hover_member(FILE *m, const Target *t)
{
    const SemaMember *mem = t->m;
    fprintf(m, "```lmdl\n(%s) ", sema_member_kind_names[mem->kind]);
    if (mem->kind == MEM_INSTANCE) {
        fprintf(m, "%s = ", mem->name->name);
        put_text(m, (SrcSpan){mem->inst->span.file, mem->inst->type_span.begin,
                              mem->inst->span.end});
        fputs("\n```", m);
        if (mem->inst->comment)
            fprintf(m, "\n\n%s", mem->inst->comment);
        if (mem->type && mem->type->ast->description)
            fprintf(m, "\n\n%s: %s", mem->type->ast->name->name,
                    mem->type->ast->description);
    } else {
        const AstDecl *dc = mem->decl;
        fprintf(m, "%s", mem->name->name);
        if (dc->value && !dc->untyped) {
            fputs(" = ", m);
            put_text(m, dc->value->span);
        }
        fputs("\n```", m);
        if (dc->value && dc->value->kind == EXPR_QUANTITY && dc->value->u.quantity.unit)
            fprintf(m, "\n\nunit: `%s`", dc->value->u.quantity.unit);
        else if (mem->kind == MEM_NODE && mem->type)
            fprintf(m, "\n\ndomain: `%s`", mem->type->ast->name->name);
        if (dc->comment)
            fprintf(m, "\n\n%s", dc->comment);
    }
    if (t->owner)
        put_where(m, t->owner);
}

static void hover_def(FILE *m, const SemaDef *d)
{
    fprintf(m, "```lmdl\n%s %s\n```", def_kind(d), d->ast->name->name);
    if (d->ast->description)
        fprintf(m, "\n\n%s", d->ast->description);
    const SrcFile *f = src_get(d->file);
    fprintf(m, "\n\n*in* %s", f ? f->path : "?");
}

void lsp_hover(LspServer *s, const LspDoc *d, int line, int character, FILE *fp)
{
    LspUnit u;
    lsp_unit_open(s, d, d->text, d->len, &u);
    Target t = target_at(&u, line, character);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        abort();
    if (t.m && (t.m->decl || t.m->inst))
        hover_member(m, &t);
    else if (t.def)
        hover_def(m, t.def);
    fclose(m);
    if (len) {
        fputs("{\"contents\":{\"kind\":\"markdown\",\"value\":", fp);
        lsp_put_string(fp, text);
        fputs("}}", fp);
    } else {
        fputs("null", fp);
    }
    free(text);
    lsp_unit_close(&u);
}

/* ---- completion ------------------------------------------------------------- */

/* CompletionItemKind of the protocol */
enum {
    CI_FUNCTION = 3, CI_FIELD = 5, CI_VARIABLE = 6, CI_CLASS = 7, CI_INTERFACE = 8,
    CI_MODULE = 9, CI_UNIT = 11, CI_CONSTANT = 21, CI_STRUCT = 22,
};

typedef struct Items {
    FILE *fp;               /* where the items go */
    Arena *a;               /* for the labels seen */
    PtrVec seen;            /* char*: labels given, once each */
} Items;

static void item(Items *it, const char *label, int kind, const char *detail)
{
    for (int i = 0; i < it->seen.n; i++)
        if (strcmp(it->seen.items[i], label) == 0)
            return;
    ptrvec_push(it->a, &it->seen, arena_strdup(it->a, label));
    fputs(it->seen.n > 1 ? ",{\"label\":" : "{\"label\":", it->fp);
    lsp_put_string(it->fp, label);
    fprintf(it->fp, ",\"kind\":%d", kind);
    if (detail) {
        fputs(",\"detail\":", it->fp);
        lsp_put_string(it->fp, detail);
    }
    fputc('}', it->fp);
}

static int member_item_kind(SemaMemberKind k)
{
    switch (k) {
    case MEM_NODE: return CI_INTERFACE;
    case MEM_PARAMETER: return CI_CONSTANT;
    case MEM_INSTANCE: return CI_FIELD;
    default: return CI_VARIABLE;
    }
}

static void member_items(Items *it, LspUnit *u, SemaDef *d)
{
    if (!d)
        return;
    sema_resolve_def(u->p, d);
    for (int i = 0; i < d->member_list.n; i++) {
        const SemaMember *m = d->member_list.items[i];
        const char *detail = sema_member_kind_names[m->kind];
        if (m->kind == MEM_INSTANCE && m->type)
            detail = arena_printf(it->a, "component %s", m->type->ast->name->name);
        else if (m->decl && m->decl->value && m->decl->value->kind == EXPR_QUANTITY
                 && m->decl->value->u.quantity.unit)
            detail = arena_printf(it->a, "%s, unit %s", detail,
                                  m->decl->value->u.quantity.unit);
        item(it, m->name->name, member_item_kind(m->kind), detail);
    }
}

/* The roots of the search path, in lookup order, as resolution makes
   them (resolve_packages.c): the document's folder (and the folder above
   its +package folders), each include directory, $LMDL_PATH, the
   library. */
static void search_roots(LspServer *s, LspUnit *u, PtrVec *roots)
{
    const SrcFile *f = src_get(u->file);
    ptrvec_push(&u->arena, roots, f->dir);
    char *root = arena_strdup(&u->arena, f->dir);
    for (char *slash; (slash = strrchr(root, '/')) && slash[1] == '+';)
        *slash = 0;
    if (strcmp(root, f->dir) != 0)
        ptrvec_push(&u->arena, roots, root);
    for (int i = 0; i < s->ninclude; i++)
        ptrvec_push(&u->arena, roots, (void *)s->include_dirs[i]);
    const char *env = getenv("LMDL_PATH");
    char *copy = env ? arena_strdup(&u->arena, env) : NULL;
    for (char *save = NULL, *dir = copy ? strtok_r(copy, ":", &save) : NULL; dir;
         dir = strtok_r(NULL, ":", &save))
        ptrvec_push(&u->arena, roots, dir);
    ptrvec_push(&u->arena, roots, (void *)driver_stdlib_dir());
}

/* The entries of one folder: +pkg and plain folders as packages, .lmdl
   and .ssc files as definitions. */
static void folder_items(Items *it, const char *dir, bool packages_only)
{
    DIR *dd = opendir(dir);
    if (!dd)
        return;
    struct dirent *e;
    while ((e = readdir(dd)) != NULL) {
        const char *n = e->d_name;
        if (n[0] == '.')
            continue;
        char *path = arena_printf(it->a, "%s/%s", dir, n);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        size_t len = strlen(n);
        if (S_ISDIR(st.st_mode) && (n[0] == '+' || !packages_only)) {
            const char *name = n[0] == '+' ? n + 1 : n;
            if (ident_start(name[0]))
                item(it, name, CI_MODULE, "package");
        } else if (!packages_only && S_ISREG(st.st_mode)
                   && ((len > 5 && !strcmp(n + len - 5, ".lmdl"))
                       || (len > 4 && !strcmp(n + len - 4, ".ssc")))) {
            size_t stem = len - (n[len - 1] == 'l' ? 5 : 4);
            item(it, arena_strndup(it->a, n, stem), CI_CLASS, "definition");
        }
    }
    closedir(dd);
}

/* The packages and definitions of package `parts` (a.b), on every root,
   in both forms (+a/+b and a/b). */
static void package_items(Items *it, LspServer *s, LspUnit *u, const Chain *c, int k)
{
    PtrVec roots = {0};
    search_roots(s, u, &roots);
    for (int form = 0; form < 2; form++) {
        char *rel = arena_strdup(it->a, "");
        for (int i = 0; i < k; i++)
            rel = arena_printf(it->a, "%s%s%s%s", rel, i ? "/" : "", form ? "" : "+",
                               c->parts[i]->name);
        for (int r = 0; r < roots.n; r++)
            folder_items(it, arena_printf(it->a, "%s/%s", (char *)roots.items[r], rel),
                         false);
    }
}

/* Inside a quoted string whose quote follows a comma: a unit. */
static bool in_unit_string(const char *t, uint32_t off)
{
    uint32_t b = off;
    while (b > 0 && t[b - 1] != '\n')
        b--;
    bool in = false;
    uint32_t open = 0;
    for (uint32_t i = b; i < off; i++) {
        if (t[i] == '%' && !in)
            return false;   /* a comment */
        if (t[i] != '\'')
            continue;
        if (in) {
            in = false;
            continue;
        }
        /* a quote opens a string after an operator or bracket, not after a
           name or closing bracket (the transpose) */
        uint32_t j = i;
        while (j > b && (t[j - 1] == ' ' || t[j - 1] == '\t'))
            j--;
        if (j == b || strchr(",([{=+-*/;:", t[j - 1])) {
            in = true;
            open = j;
        }
    }
    return in && open > b && t[open - 1] == ',';
}

static void unit_items(Items *it)
{
    for (int i = 0; rt_unit_name(i); i++)
        item(it, rt_unit_name(i), CI_UNIT, "unit");
}

void lsp_completion(LspServer *s, const LspDoc *d, int line, int character, FILE *fp)
{
    uint32_t off = lsp_offset_at(d->text, d->len, line, character);
    Arena a = {0};
    Items it = {fp, &a, {0}};
    fputs("{\"isIncomplete\":false,\"items\":[", fp);
    if (in_unit_string(d->text, off)) {
        unit_items(&it);
        fputs("]}", fp);
        arena_free(&a);
        return;
    }
    /* the line being typed, blanked, so that the rest parses */
    char *copy = mem_strndup(d->text, d->len);
    uint32_t b = off, e = off;
    while (b > 0 && copy[b - 1] != '\n')
        b--;
    while (e < d->len && copy[e] != '\n')
        e++;
    memset(copy + b, ' ', e - b);
    LspUnit u;
    lsp_unit_open(s, d, copy, d->len, &u);
    free(copy);
    /* the name typed so far, and what precedes it */
    uint32_t start = off;
    while (start > 0 && ident_char(d->text[start - 1]))
        start--;
    Chain c = {.n = 0};
    chain_before(d->text, start, u.file, &c);
    SemaDef *ctx = def_at(&u, off);
    if (c.n) {
        Target t = resolve_chain(&u, ctx, &c, c.n);
        if (t.m && t.m->type)
            member_items(&it, &u, t.m->type);
        else if (!t.m)
            package_items(&it, s, &u, &c, c.n);
    } else {
        member_items(&it, &u, ctx);
        for (int i = 0; u.ast && i < u.ast->defs.n; i++) {
            const AstDef *ad = u.ast->defs.items[i];
            if (ad && ad->name)
                item(&it, ad->name->name, ad->kind == DEF_COMPONENT ? CI_CLASS
                                          : ad->kind == DEF_DOMAIN ? CI_STRUCT : CI_FUNCTION,
                     ad->kind == DEF_COMPONENT ? "component"
                     : ad->kind == DEF_DOMAIN ? "domain" : "function");
        }
        PtrVec roots = {0};
        search_roots(s, &u, &roots);
        for (int r = 0; r < roots.n; r++)
            folder_items(&it, roots.items[r], r > 0);
        /* the library's definitions outside packages, by their stems */
        for (int i = 0; i < u.p->stdlib_names.n; i++)
            if (!strstr(u.p->stdlib_paths.items[i], "/+"))
                item(&it, u.p->stdlib_names.items[i], CI_CLASS, "library definition");
    }
    fputs("]}", fp);
    lsp_unit_close(&u);
    arena_free(&a);
}
