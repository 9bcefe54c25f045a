/*
 * lsp_symbols.c - textDocument/documentSymbol for `lmdlc lsp`: the
 * document's definitions (components, domains, functions), each with its
 * members (nodes, inputs, outputs, parameters, variables, intermediates,
 * components, across and through variables) as children, read from the
 * syntax tree alone, so that a document with errors still has its
 * outline (what the parser recovered).  Members of conditional sections
 * and for-loops are listed with the others, their detail saying so.
 */
#include "lsp_internal.h"

/* The member kind of each section's entries, or -1 (the section table's
   member column, ast.h). */
#define X_SECMEM(k, w, tok, mem, where, entry, title, col, val, rank) mem,
static const int section_member[] = {AST_SECTION_KINDS(X_SECMEM)};

int lsp_member_symbol_kind(SemaMemberKind k)
{
    switch (k) {
    case MEM_NODE: return 11;           /* Interface: a port */
    case MEM_INPUT:
    case MEM_OUTPUT: return 8;          /* Field */
    case MEM_PARAMETER: return 14;      /* Constant */
    case MEM_INSTANCE: return 19;       /* Object */
    default: return 13;                 /* Variable */
    }
}

static void put_symbol_head(FILE *fp, const char *name, const char *detail, int kind,
                            SrcSpan span, SrcSpan name_span)
{
    /* the range must hold the selection range */
    SrcSpan range = span;
    if (range.file != name_span.file)
        range = name_span;
    else
        range = src_join(span, name_span);
    fputs("{\"name\":", fp);
    lsp_put_string(fp, name);
    fputs(",\"detail\":", fp);
    lsp_put_string(fp, detail);
    fprintf(fp, ",\"kind\":%d,\"range\":", kind);
    lsp_put_range(fp, range);
    fputs(",\"selectionRange\":", fp);
    lsp_put_range(fp, name_span);
}

static void put_member(FILE *fp, int *count, SemaMemberKind k, const Sym *name, SrcSpan span,
                       SrcSpan name_span, const char *where)
{
    if (!name)
        return;
    char detail[128];
    snprintf(detail, sizeof detail, "%s%s%s", sema_member_kind_names[k], where ? ", " : "",
             where ? where : "");
    fputs((*count)++ ? "," : "", fp);
    put_symbol_head(fp, name->name, detail, lsp_member_symbol_kind(k), span, name_span);
    fputs("}", fp);
}

/* The members declared in items (and in the ifs and for-loops among
   them); `where` is "conditional" or "in a for-loop" below the top. */
static void put_members(FILE *fp, int *count, const PtrVec *items, const char *where)
{
    for (int i = 0; items && i < items->n; i++) {
        const AstItem *it = items->items[i];
        if (!it)
            continue;
        if (it->kind == ITEM_IF) {
            for (int j = 0; j < it->u.if_.clauses.n; j++) {
                const AstClause *c = it->u.if_.clauses.items[j];
                put_members(fp, count, &c->body, "conditional");
            }
            continue;
        }
        if (it->kind == ITEM_FOR) {
            put_members(fp, count, &it->u.for_.body, "in a for-loop");
            continue;
        }
        if (it->kind != ITEM_SECTION || section_member[it->u.section.kind] < 0)
            continue;
        SemaMemberKind k = (SemaMemberKind)section_member[it->u.section.kind];
        for (int j = 0; j < it->u.section.entries.n; j++) {
            if (it->u.section.kind == SEC_COMPONENTS) {
                const AstInstance *in = it->u.section.entries.items[j];
                put_member(fp, count, k, in->name, in->span, in->name_span, where);
            } else if (ast_section_is_decls(it->u.section.kind)) {
                const AstDecl *d = it->u.section.entries.items[j];
                put_member(fp, count, k, d->name, d->span, d->name_span, where);
            }
        }
    }
}

void lsp_document_symbols(LspServer *s, const LspDoc *d, FILE *fp)
{
    LspUnit u;
    lsp_unit_open(s, d, d->text, d->len, &u);
    fputc('[', fp);
    for (int i = 0; u.ast && i < u.ast->defs.n; i++) {
        const AstDef *ad = u.ast->defs.items[i];
        if (!ad || !ad->name)
            continue;
        int kind = ad->kind == DEF_COMPONENT ? 5 : ad->kind == DEF_DOMAIN ? 23 : 12;
        const char *what = ad->kind == DEF_COMPONENT ? "component"
                           : ad->kind == DEF_DOMAIN ? "domain" : "function";
        fputs(i ? "," : "", fp);
        put_symbol_head(fp, ad->name->name, what, kind, ad->span, ad->name_span);
        fputs(",\"children\":[", fp);
        int count = 0;
        /* a subclass's own items (items gets the base's at resolution) */
        const PtrVec *items = ad->base && ad->own_items.n ? &ad->own_items : &ad->items;
        if (ad->kind != DEF_FUNCTION)
            put_members(fp, &count, items, NULL);
        fputs("]}", fp);
    }
    fputc(']', fp);
    lsp_unit_close(&u);
}
