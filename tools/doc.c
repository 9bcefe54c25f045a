/*
 * doc.c - `lmdlc doc NAME`, a tool (not a pass): prints what a user
 * needs to instantiate a component: its description, nodes with their
 * domains, parameters with defaults and units, inputs, outputs and
 * variables, each with its trailing comment.
 * Members of conditional sections are listed with the condition under
 * which they exist, in the user's own words (the source text).
 */
#include "doc.h"

#include "diag.h"

#include <string.h>

static const char *text_of(Arena *a, SrcSpan sp)
{
    SrcFile *f = src_get(sp.file);
    if (!f)
        return "";
    /* Collapse runs of white space so multi-line expressions print on one
       line. */
    char *s = arena_alloc(a, sp.end - sp.begin + 1), *q = s;
    bool space = false;
    for (uint32_t i = sp.begin; i < sp.end && i < f->len; i++) {
        char c = f->text[i];
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

/* A variables section with Event = true. */
static bool is_event_section(const AstItem *it)
{
    for (int i = 0; i < it->u.section.attrs.n; i++) {
        const AstField *f = it->u.section.attrs.items[i];
        if (!strcmp(f->name->name, "Event") && f->value->kind == EXPR_BOOL
            && f->value->u.boolean)
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
                    r->name = in->name->name;
                    r->value = in->type->name;
                    r->comment = in->comment;
                } else {
                    AstDecl *d = it->u.section.entries.items[j];
                    r->name = d->name->name;
                    r->value = text_of(a, d->value->span);
                    r->comment = d->comment;
                    if (is_event_section(it))   /* issue 12 */
                        r->comment = arena_printf(a, "event variable%s%s",
                                                  d->comment ? ": " : "",
                                                  d->comment ? d->comment : "");
                }
                ptrvec_push(a, rows, r);
            }
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
        if (r->cond)
            fprintf(fp, "  [only if %s]", r->cond);
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

static const char *shown_path(const char *path, const char *libdir)
{
    size_t n = libdir ? strlen(libdir) : 0;
    if (n && strncmp(path, libdir, n) == 0 && path[n] == '/')
        return path + n + 1;
    return path;
}

void doc_print(FILE *fp, Program *p, SemaDef *d, bool markdown, const char *libdir)
{
    AstDef *ad = d->ast;
    SrcFile *f = src_get(d->file);
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
        fprintf(fp, "\n%s, in `library/%s`.\n", ad->kind == DEF_DOMAIN ? "Domain"
                : "Component", shown_path(f ? f->path : "?", libdir));
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

int doc_run(const DriverOptions *o)
{
    Arena arena = {0};
    Arena *ast_arena = &arena;
    SemaOptions so = {o->include_dirs, o->ninclude, driver_stdlib_dir()};
    Program *p = sema_program_new(ast_arena, &so);
    /* A name, not a file: the current directory plays the model file's. */
    p->main_file = src_add("./(doc)", "", 0);
    SemaDef *d = sema_lookup(p, sym_cstr(o->file), p->main_file);
    if (!d) {
        if (!diag_error_count()) {
            const char *s = sema_suggest_def(p, o->file);
            diag_error(src_none, "unknown component '%s'%s", o->file,
                       sema_did_you_mean(s).text);
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
