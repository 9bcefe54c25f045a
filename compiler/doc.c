/*
 * doc.c - prints what a user needs to instantiate a component: its
 * description, nodes with their domains, parameters with defaults and
 * units, inputs, outputs and variables, each with its trailing comment.
 * Members of conditional sections are listed with the condition under
 * which they exist, in the user's own words (the source text).
 */
#include "doc.h"

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

typedef struct DocRow {
    AstSectionKind kind;    /* section the member comes from */
    const char *name;       /* member name */
    const char *value;      /* declaration's right-hand side, as written */
    const char *comment;    /* trailing comment */
    const char *cond;       /* condition for it to exist, or NULL */
} DocRow;

static void collect(Arena *a, PtrVec *rows, PtrVec *items, const char *cond)
{
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind == ITEM_SECTION) {
            AstSectionKind k = it->u.section.kind;
            if (k == SEC_BRANCHES || k == SEC_CONNECTIONS || k == SEC_EQUATIONS)
                continue;
            for (int j = 0; j < it->u.section.entries.n; j++) {
                DocRow *r = arena_alloc(a, sizeof *r);
                r->kind = k;
                r->cond = cond;
                if (k == SEC_COMPONENTS) {
                    AstInstance *in = it->u.section.entries.items[j];
                    r->name = in->name->name;
                    r->value = in->type->name;
                    r->comment = in->comment;
                } else {
                    AstDecl *d = it->u.section.entries.items[j];
                    r->name = d->name->name;
                    r->value = text_of(a, d->value->span);
                    r->comment = d->comment;
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

static void print_group(FILE *fp, PtrVec *rows, const char *title,
                        AstSectionKind k1, AstSectionKind k2)
{
    int width = 0, vwidth = 0, n = 0;
    for (int i = 0; i < rows->n; i++) {
        DocRow *r = rows->items[i];
        if (r->kind != k1 && r->kind != k2)
            continue;
        n++;
        if ((int)strlen(r->name) > width)
            width = (int)strlen(r->name);
        if ((int)strlen(r->value) > vwidth)
            vwidth = (int)strlen(r->value);
    }
    if (!n)
        return;
    if (vwidth > 40)
        vwidth = 40;
    fprintf(fp, "\n%s:\n", title);
    for (int i = 0; i < rows->n; i++) {
        DocRow *r = rows->items[i];
        if (r->kind != k1 && r->kind != k2)
            continue;
        fprintf(fp, "  %-*s  %-*s", width, r->name, vwidth, r->value);
        if (r->comment && *r->comment)
            fprintf(fp, "  %s", r->comment);
        if (r->cond)
            fprintf(fp, "  [only if %s]", r->cond);
        fputc('\n', fp);
    }
}

void doc_print(FILE *fp, Program *p, SemaDef *d)
{
    AstDef *ad = d->ast;
    SrcFile *f = src_get(d->file);
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
    PtrVec rows = {0};
    collect(p->arena, &rows, &ad->items, NULL);
    if (ad->kind == DEF_DOMAIN) {
        print_group(fp, &rows, "Across variables", SEC_ACROSS, SEC_ACROSS);
        print_group(fp, &rows, "Through variables", SEC_THROUGH, SEC_THROUGH);
        return;
    }
    print_group(fp, &rows, "Nodes", SEC_NODES, SEC_NODES);
    print_group(fp, &rows, "Parameters", SEC_PARAMETERS, SEC_PARAMETERS);
    print_group(fp, &rows, "Inputs", SEC_INPUTS, SEC_INPUTS);
    print_group(fp, &rows, "Outputs", SEC_OUTPUTS, SEC_OUTPUTS);
    print_group(fp, &rows, "Variables", SEC_VARIABLES, SEC_VARIABLES);
    print_group(fp, &rows, "Intermediates", SEC_INTERMEDIATES, SEC_INTERMEDIATES);
    print_group(fp, &rows, "Components", SEC_COMPONENTS, SEC_COMPONENTS);
}
