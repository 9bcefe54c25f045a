/*
 * doc.c - `lmdlc doc NAME` and `lmdlc doc FILE.lmdl`, a tool (not a
 * pass): prints what a user needs to instantiate a component: its
 * description, nodes with their domains, parameters with defaults and
 * units, inputs, outputs and variables, each with its trailing comment.
 * A file argument (one ending in .lmdl or with a '/') documents every
 * definition of the file, in order.
 * Members of conditional sections are listed with the condition under
 * which they exist, in the user's own words (the source text).
 */
#include "doc.h"

#include "diag.h"
#include "paths.h"

#include <errno.h>
#include <string.h>

static const char *text_of(Arena *a, SrcSpan sp)
{
    SrcFile *f = src_get(sp.file);
    if (!f)
        return "";
    /* Collapse runs of white space, and MATLAB's '...' continuations with
       the rest of their lines, so multi-line expressions print on one
       line. */
    char *s = arena_alloc(a, sp.end - sp.begin + 1), *q = s;
    bool space = false;
    for (uint32_t i = sp.begin; i < sp.end && i < f->len; i++) {
        char c = f->text[i];
        if (c == '.' && i + 2 < sp.end && f->text[i + 1] == '.' && f->text[i + 2] == '.') {
            while (i + 1 < sp.end && f->text[i + 1] != '\n')
                i++;
            space = true;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            space = true;
            continue;
        }
        if (space && q > s)
            *q++ = ' ';
        space = false;
        *q++ = c;
    }
    *q = 0;
    return s;
}

/* The source of a statement as written, lines kept, dedented by the
   indentation of its first line. */
static const char *raw_text(Arena *a, SrcSpan sp)
{
    SrcFile *f = src_get(sp.file);
    if (!f)
        return "";
    uint32_t ls = sp.begin;
    while (ls > 0 && f->text[ls - 1] != '\n')
        ls--;
    uint32_t indent = sp.begin - ls;
    char *out = arena_alloc(a, sp.end - sp.begin + 2), *q = out;
    for (uint32_t i = sp.begin; i < sp.end && i < f->len; i++) {
        char c = f->text[i];
        if (c == '\r')
            continue;
        *q++ = c;
        if (c == '\n') {
            uint32_t k = 0;
            while (k < indent && i + 1 < sp.end && (f->text[i + 1] == ' ' || f->text[i + 1] == '\t')) {
                i++;
                k++;
            }
        }
    }
    *q = 0;
    return out;
}

typedef struct DocRow {
    AstSectionKind kind;    /* section the member comes from */
    const char *name;       /* member name */
    const char *value;      /* declaration's right-hand side, as written */
    const char *comment;    /* trailing comment */
    const char *cond;       /* condition for it to exist, or NULL */
} DocRow;

/* A member's name as declared: `m(i)` for an array element. */
static const char *indexed_name(Arena *a, const Sym *name, const PtrVec *index)
{
    if (!index->n)
        return name->name;
    const AstExpr *first = index->items[0], *last = index->items[index->n - 1];
    SrcSpan sp = {first->span.file, first->span.begin, last->span.end};
    return arena_printf(a, "%s(%s)", name->name, text_of(a, sp));
}

/* A variables section with Event = true. */
static bool is_event_section(const AstItem *it)
{
    for (int i = 0; i < it->u.section.attrs.n; i++) {
        const AstArg *g = it->u.section.attrs.items[i];
        if (!strcmp(g->name->name, "Event") && g->value->kind == EXPR_BOOL
            && g->value->u.boolean)
            return true;
    }
    return false;
}

static void collect(Arena *a, PtrVec *rows, PtrVec *items, const char *cond)
{
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind == ITEM_SECTION) {
            AstSectionKind k = it->u.section.kind;
            for (int j = 0; j < it->u.section.entries.n; j++) {
                DocRow *r = arena_alloc(a, sizeof *r);
                r->kind = k;
                r->cond = cond;
                if (!ast_section_is_decls(k) && k != SEC_COMPONENTS) {
                    void *entry = it->u.section.entries.items[j];
                    SrcSpan sp = k == SEC_BRANCHES ? ((AstBranch *)entry)->span
                                 : k == SEC_CONNECTIONS ? ((AstConnect *)entry)->span
                                 : k == SEC_MODECHARTS ? ((AstModeChart *)entry)->span
                                 : ((AstStmt *)entry)->span;
                    r->name = "";
                    r->value = k == SEC_BRANCHES || k == SEC_CONNECTIONS ? text_of(a, sp)
                                                                         : raw_text(a, sp);
                } else if (k == SEC_COMPONENTS) {
                    AstInstance *in = it->u.section.entries.items[j];
                    r->name = indexed_name(a, in->name, &in->index);
                    r->value = in->type->name;
                    r->comment = in->comment;
                } else {
                    AstDecl *d = it->u.section.entries.items[j];
                    r->name = indexed_name(a, d->name, &d->index);
                    r->value = d->untyped ? "(unit inferred)" : text_of(a, d->value->span);
                    r->comment = d->comment;
                    if (is_event_section(it))   /* events, mode charts */
                        r->comment = arena_printf(a, "event variable%s%s",
                                                  d->comment ? ": " : "",
                                                  d->comment ? d->comment : "");
                }
                ptrvec_push(a, rows, r);
            }
            continue;
        }
        if (it->kind == ITEM_FOR) {
            /* arrays: what a for-loop repeats, under its range */
            const char *here = arena_printf(a, "for %s = %s", it->u.for_.var->name,
                                            text_of(a, it->u.for_.range->span));
            collect(a, rows, &it->u.for_.body,
                    cond ? arena_printf(a, "%s, %s", cond, here) : here);
            continue;
        }
        const char *negated = NULL;
        for (int j = 0; j < it->u.if_.clauses.n; j++) {
            AstClause *c = it->u.if_.clauses.items[j];
            const char *here;
            const char *ct = c->cond ? text_of(a, c->cond->span) : NULL;
            if (ct && negated)
                here = arena_printf(a, "%s and %s", negated, ct);
            else if (ct)
                here = ct;
            else
                here = negated ? negated : "otherwise";
            const char *full = cond ? arena_printf(a, "%s, %s", cond, here) : here;
            collect(a, rows, &c->body, full);
            if (ct)
                negated = negated ? arena_printf(a, "%s and not %s", negated, ct)
                                  : arena_printf(a, "not %s", ct);
        }
    }
}

static int count_kind(PtrVec *rows, AstSectionKind k)
{
    int n = 0;
    for (int i = 0; i < rows->n; i++) {
        DocRow *r = rows->items[i];
        n += r->kind == k;
    }
    return n;
}

static void print_group(FILE *fp, PtrVec *rows, AstSectionKind k)
{
    int width = 0, vwidth = 0;
    if (!count_kind(rows, k))
        return;
    for (int i = 0; i < rows->n; i++) {
        DocRow *r = rows->items[i];
        if (r->kind != k)
            continue;
        if ((int)strlen(r->name) > width)
            width = (int)strlen(r->name);
        if ((int)strlen(r->value) > vwidth)
            vwidth = (int)strlen(r->value);
    }
    if (vwidth > 40)
        vwidth = 40;
    fprintf(fp, "\n%s:\n", ast_section_titles[k]);
    for (int i = 0; i < rows->n; i++) {
        DocRow *r = rows->items[i];
        if (r->kind != k)
            continue;
        if (*r->name) {
            fprintf(fp, "  %-*s  %-*s", width, r->name, vwidth, r->value);
        } else {
            fputs("  ", fp);
            for (const char *c = r->value; *c; c++) {
                fputc(*c, fp);
                if (*c == '\n')
                    fputs("  ", fp);
            }
        }
        if (r->comment && *r->comment)
            fprintf(fp, "  %s", r->comment);
        if (r->cond)   /* a for-loop's range reads as itself */
            fprintf(fp, strncmp(r->cond, "for ", 4) ? "  [only if %s]" : "  [%s]", r->cond);
        fputc('\n', fp);
    }
}

/* Markdown table cells: '|' would end the cell. */
static void md_cell(FILE *fp, const char *s, bool code)
{
    if (code)
        fputc('`', fp);
    for (; s && *s; s++) {
        if (*s == '|')
            fputs("\\|", fp);
        else if (*s == '`' && code)
            fputc('\'', fp);
        else
            fputc(*s, fp);
    }
    if (code)
        fputc('`', fp);
}

static void md_group(FILE *fp, PtrVec *rows, AstSectionKind k)
{
    if (!count_kind(rows, k))
        return;
    fprintf(fp, "\n**%s**\n\n| %s | %s | description | exists |\n|---|---|---|---|\n",
            ast_section_titles[k], ast_section_columns[k], ast_section_values[k]);
    for (int i = 0; i < rows->n; i++) {
        DocRow *r = rows->items[i];
        if (r->kind != k)
            continue;
        fputs("| ", fp);
        md_cell(fp, r->name, true);
        fputs(" | ", fp);
        md_cell(fp, r->value, true);
        fputs(" | ", fp);
        md_cell(fp, r->comment ? r->comment : "", false);
        fputs(" | ", fp);
        md_cell(fp, r->cond ? r->cond : "always", false);
        fputs(" |\n", fp);
    }
}

static void md_code(FILE *fp, PtrVec *rows, AstSectionKind k)
{
    if (!count_kind(rows, k))
        return;
    fprintf(fp, "\n**%s**\n\n```\n", ast_section_titles[k]);
    const char *cond = NULL;
    for (int i = 0; i < rows->n; i++) {
        DocRow *r = rows->items[i];
        if (r->kind != k)
            continue;
        if (r->cond != cond && (!r->cond || !cond || strcmp(r->cond, cond)))
            fprintf(fp, "%% %s\n", r->cond ? r->cond : "always");
        cond = r->cond;
        fprintf(fp, "%s\n", r->value);
    }
    fputs("```\n", fp);
}


/* A function: its header, description and definitions. */
static void doc_function(FILE *fp, Program *p, SemaDef *d, bool markdown, const char *libdir)
{
    AstDef *ad = d->ast;
    SrcFile *f = src_get(d->file);
    const char *path = f ? f->path : "?";
    if (markdown)
        fprintf(fp, "## %s\n\n", ad->name->name);
    fputs(markdown ? "`function [" : "function [", fp);
    for (int i = 0; i < ad->outputs.n; i++)
        fprintf(fp, "%s%s", i ? ", " : "", ((AstIdent *)ad->outputs.items[i])->sym->name);
    fprintf(fp, "] = %s(", ad->name->name);
    for (int i = 0; i < ad->inputs.n; i++)
        fprintf(fp, "%s%s", i ? ", " : "", ((AstIdent *)ad->inputs.items[i])->sym->name);
    const char *lib = paths_below(path, libdir);
    if (markdown)
        fprintf(fp, ")`, in `%s%s`.\n", lib ? "library/" : "", lib ? lib : path);
    else
        fprintf(fp, ")  (%s)\n", path);
    if (ad->description) {
        fputc('\n', fp);
        for (const char *s = ad->description; *s;) {
            const char *e = strchr(s, '\n');
            size_t n = e ? (size_t)(e - s) : strlen(s);
            fprintf(fp, "%s%.*s\n", markdown ? "" : "  ", (int)n, s);
            s += n + (e ? 1 : 0);
        }
    }
    fputs(markdown ? "\n**Definitions**\n\n```\n" : "\nDefinitions:\n", fp);
    SrcSpan last = {-1, 0, 0};
    for (int i = 0; i < ad->defs.n; i++) {
        AstDecl *dc = ad->defs.items[i];
        if (dc->span.begin == last.begin && dc->span.file == last.file)
            continue; /* [a, b] = f(x): one line */
        last = dc->span;
        fprintf(fp, "%s%s\n", markdown ? "" : "  ", raw_text(p->arena, dc->span));
    }
    fputs(markdown ? "```\n\n" : "", fp);
}

void doc_print(FILE *fp, Program *p, SemaDef *d, bool markdown, const char *libdir)
{
    AstDef *ad = d->ast;
    SrcFile *f = src_get(d->file);
    if (ad->kind == DEF_FUNCTION) {
        doc_function(fp, p, d, markdown, libdir);
        return;
    }
    PtrVec rows = {0};
    collect(p->arena, &rows, &ad->items, NULL);
    /* the sections this kind of definition has, by their rank */
    AstSectionKind shown[SEC_KIND_COUNT];
    int nshown = 0;
    int where = ad->kind == DEF_DOMAIN ? SEC_IN_DOMAIN : SEC_IN_COMPONENT;
    for (int rank = 0; rank < SEC_KIND_COUNT; rank++)
        for (int k = 0; k < SEC_KIND_COUNT; k++)
            if (ast_section_ranks[k] == rank && (ast_section_where[k] & where))
                shown[nshown++] = (AstSectionKind)k;
    if (markdown) {
        fprintf(fp, "## %s\n\n", ad->name->name);
        if (ad->description) {
            for (const char *s = ad->description; *s;) {
                const char *e = strchr(s, '\n');
                size_t n = e ? (size_t)(e - s) : strlen(s);
                fprintf(fp, "%.*s\n", (int)n, s);
                s += n + (e ? 1 : 0);
            }
        }
        const char *path = f ? f->path : "?";
        const char *lib = paths_below(path, libdir);
        fprintf(fp, "\n%s, in `%s%s`.\n", ad->kind == DEF_DOMAIN ? "Domain" : "Component",
                lib ? "library/" : "", lib ? lib : path);
        for (int i = 0; i < nshown; i++) {
            if (ast_section_columns[shown[i]])
                md_group(fp, &rows, shown[i]);
            else
                md_code(fp, &rows, shown[i]);
        }
        fputc('\n', fp);
        return;
    }
    fprintf(fp, "%s %s  (%s)\n", ad->kind == DEF_DOMAIN ? "domain" : "component",
            ad->name->name, f ? f->path : "?");
    if (ad->description) {
        fputc('\n', fp);
        for (const char *s = ad->description; *s;) {
            const char *e = strchr(s, '\n');
            size_t n = e ? (size_t)(e - s) : strlen(s);
            fprintf(fp, "  %.*s\n", (int)n, s);
            s += n + (e ? 1 : 0);
        }
    }
    for (int i = 0; i < nshown; i++)
        print_group(fp, &rows, shown[i]);
}

/* An argument that names a file rather than a definition: it ends in
   .lmdl or has a directory in it (definition names have neither). */
static bool names_file(const char *arg)
{
    size_t n = strlen(arg);
    return strchr(arg, '/') || (n > 5 && strcmp(arg + n - 5, ".lmdl") == 0);
}

/* `lmdlc doc FILE.lmdl`: every definition of the file, in its order,
   once the whole file resolves. */
static int doc_file(const DriverOptions *o, Program *p)
{
    int file = src_load(o->file);
    if (file < 0) {
        diag_error(src_none, "cannot read '%s': %s", o->file, strerror(errno));
        return 2;
    }
    AstFile *ast = sema_add_main(p, file);
    if (!diag_error_count())
        sema_resolve_all(p);
    if (!diag_error_count() && ast->defs.n == 0)
        diag_error((SrcSpan){file, 0, 0}, "this file has no definitions to document");
    if (diag_error_count())
        return 2;
    for (int i = 0; i < ast->defs.n; i++) {
        SemaDef *d = sema_lookup(p, ((AstDef *)ast->defs.items[i])->name, file);
        if (i && !o->markdown)
            fputc('\n', o->out);
        if (d)
            doc_print(o->out, p, d, o->markdown, driver_stdlib_dir());
    }
    return 0;
}

/* A package path, foundation.electrical.elements.resistor, looked up as
   a model's `components` section would. */
static SemaDef *lookup_path(Arena *a, Program *p, const char *path)
{
    AstExpr *name = NULL;
    for (const char *s = path; *s;) {
        const char *dot = strchr(s, '.');
        size_t n = dot ? (size_t)(dot - s) : strlen(s);
        if (n == 0)
            return NULL;
        Sym *part = sym_intern(s, n);
        name = name ? ast_name_append(a, name, src_none, part) : ast_name(a, src_none, part);
        s += n + (dot ? 1 : 0);
    }
    return name ? sema_lookup_qualified(p, name, p->main_file) : NULL;
}

int doc_run(const DriverOptions *o)
{
    Arena arena = {0};
    Arena *ast_arena = &arena;
    SemaOptions so = {o->include_dirs, o->ninclude, driver_stdlib_dir()};
    Program *p = sema_program_new(ast_arena, &so);
    if (names_file(o->file)) {
        int status = doc_file(o, p);
        sema_program_free(p);
        arena_free(&arena);
        return status;
    }
    /* A name, not a file: the current directory plays the model file's. */
    p->main_file = src_add("./(doc)", "", 0);
    SemaDef *d = strchr(o->file, '.') ? lookup_path(ast_arena, p, o->file)
                                      : sema_lookup(p, sym_cstr(o->file), p->main_file);
    if (!d) {
        if (!diag_error_count()) {
            const char *s = sema_suggest_def(p, o->file);
            diag_error(src_none, "unknown component '%s'%s", o->file,
                       diag_did_you_mean(s).text);
        }
        sema_program_free(p);
        arena_free(&arena);
        return 2;
    }
    sema_resolve_def(p, d);
    if (!diag_error_count())
        doc_print(o->out, p, d, o->markdown, driver_stdlib_dir());
    sema_program_free(p);
    arena_free(&arena);
    return diag_error_count() ? 2 : 0;
}
