/*
 * parse.c - pass 1, the driver of the scanner and parser for one file.
 *
 * Before scanning, the bytes are checked: a NUL byte or invalid UTF-8
 * means a binary or mis-encoded file, reported once at its location.  After
 * parsing, expressions too deep for the recursive passes are cut, and
 * descriptions (the comment lines right after a definition's header) and
 * trailing comments of declarations are read off the text.
 */
#include "parse.h"

#include "diag.h"
#include "parser.h"
#include "lexer.h"

#include <stdlib.h>
#include <string.h>

/* Offset of the first bad byte, or -1 when the text is clean UTF-8
   without NULs.  *why says which. */
static long check_bytes(const unsigned char *s, size_t n, const char **why)
{
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        if (c == 0) {
            *why = "the file contains a NUL byte; is it a binary file?";
            return (long)i;
        }
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
                   : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (len == 0 || i + len > n) {
            *why = "invalid UTF-8 byte; .lmdl files are UTF-8 text";
            return (long)i;
        }
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80) {
                *why = "invalid UTF-8 sequence; .lmdl files are UTF-8 text";
                return (long)i;
            }
        }
        /* overlong 3- and 4-byte forms, surrogates, > U+10FFFF */
        if ((c == 0xE0 && s[i + 1] < 0xA0) || (c == 0xED && s[i + 1] > 0x9F)
            || (c == 0xF0 && s[i + 1] < 0x90) || (c == 0xF4 && s[i + 1] > 0x8F)) {
            *why = "invalid UTF-8 sequence; .lmdl files are UTF-8 text";
            return (long)i;
        }
        i += len;
    }
    return -1;
}

/* Text of a comment starting at `p` ('%'), trimmed, up to end of line. */
static char *comment_text(Arena *a, const char *p, const char *end)
{
    while (p < end && *p == '%')
        p++;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    const char *q = p;
    while (q < end && *q != '\n')
        q++;
    while (q > p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'))
        q--;
    return arena_strndup(a, p, (size_t)(q - p));
}

/* The trailing comment on the line where a declaration ends: the first
   '%' after its ';' that is not inside a string. */
static const char *trailing_comment(Arena *a, SrcFile *f, uint32_t end)
{
    const char *p = f->text + end, *stop = f->text + f->len;
    char quote = 0;
    for (; p < stop && *p != '\n'; p++) {
        if ((*p == '\'' || *p == '"') && (!quote || quote == *p))
            quote = quote ? 0 : *p;
        else if (*p == '%' && !quote)
            return comment_text(a, p, stop);
    }
    return NULL;
}

/* Joins the comment-only lines that follow the definition's header line. */
static const char *description(Arena *a, SrcFile *f, const AstDef *d)
{
    const char *p = f->text + d->name_span.end, *stop = f->text + f->len;
    while (p < stop && *p != '\n')
        p++;
    size_t cap = 256, len = 0;
    char *buf = arena_alloc(a, cap);
    while (p < stop) {
        p++; /* past '\n' */
        const char *q = p;
        while (q < stop && (*q == ' ' || *q == '\t'))
            q++;
        if (q >= stop || *q != '%' || (q + 1 < stop && (q[1] == '{' || q[1] == '}')))
            break;
        char *line = comment_text(a, q, stop);
        size_t ll = strlen(line);
        if (len + ll + 2 > cap) {
            while (len + ll + 2 > cap)
                cap *= 2;
            char *nb = arena_alloc(a, cap);
            memcpy(nb, buf, len);
            buf = nb;
        }
        if (len)
            buf[len++] = '\n';
        memcpy(buf + len, line, ll);
        len += ll;
        buf[len] = 0;
        while (p < stop && *p != '\n')
            p++;
    }
    return len ? buf : NULL;
}

static void attach_comments_items(Arena *a, SrcFile *f, PtrVec *items)
{
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind == ITEM_SETUP)
            continue;
        if (it->kind == ITEM_FOR) {
            attach_comments_items(a, f, &it->u.for_.body);
            continue;
        }
        if (it->kind == ITEM_IF) {
            for (int j = 0; j < it->u.if_.clauses.n; j++) {
                AstClause *c = it->u.if_.clauses.items[j];
                attach_comments_items(a, f, &c->body);
            }
            continue;
        }
        AstSectionKind k = it->u.section.kind;
        PtrVec *v = &it->u.section.entries;
        for (int j = 0; j < v->n; j++) {
            if (k == SEC_COMPONENTS) {
                AstInstance *in = v->items[j];
                in->comment = trailing_comment(a, f, in->span.end);
            } else if (ast_section_is_decls(k)) {
                AstDecl *d = v->items[j];
                d->comment = trailing_comment(a, f, d->span.end);
            }
        }
    }
}

/* ---- expression depth ----------------------------------------------------

   Every later pass walks expressions recursively, and a left-associative
   chain such as 1+1+...+1 is as deep as it is long while bison's stack
   stays flat.  So expressions are cut at a fixed depth here, once: an
   over-deep subtree is replaced by 0 and the expression is reported.  The
   walk keeps its own stack on the heap, as it must not recurse either. */

enum { MAX_EXPR_DEPTH = 1000 };

typedef struct DepthSlot {
    AstExpr **slot;     /* where the expression hangs in the tree */
    int depth;          /* 1 for the root */
} DepthSlot;

typedef struct DepthWalk {
    Arena *arena;       /* for the replacement leaves */
    DepthSlot *stack;   /* slots still to visit */
    size_t n, cap;      /* entries used and allocated */
    int depth;          /* of the children being pushed */
} DepthWalk;

static void push_slot(DepthWalk *w, AstExpr **slot, int depth)
{
    if (!*slot)
        return;
    if (w->n == w->cap) {
        w->cap = w->cap ? w->cap * 2 : 64;
        w->stack = realloc(w->stack, w->cap * sizeof *w->stack);
        if (!w->stack)
            abort();
    }
    w->stack[w->n++] = (DepthSlot){slot, depth};
}

static void push_child(AstExpr **slot, void *walk)
{
    DepthWalk *w = walk;
    push_slot(w, slot, w->depth);
}

static void limit_expr(DepthWalk *w, AstExpr **root)
{
    if (!*root)
        return;
    SrcSpan where = (*root)->span;
    bool cut = false;
    push_slot(w, root, 1);
    while (w->n > 0) {
        DepthSlot s = w->stack[--w->n];
        AstExpr *e = *s.slot;
        if (s.depth > MAX_EXPR_DEPTH) {
            *s.slot = ast_num(w->arena, e->span, "0", 1);
            cut = true;
            continue;
        }
        w->depth = s.depth + 1;
        ast_each_child(e, push_child, w);
    }
    if (cut)
        diag_error(where, "this expression is nested more than %d levels "
                   "deep; split it into intermediates", MAX_EXPR_DEPTH);
}

/* The values of local definitions; the decls of `[a, b] = f(x)` share
   their call, which is cut once. */
static void limit_index(DepthWalk *w, PtrVec *index);

static void limit_decls(DepthWalk *w, PtrVec *decls)
{
    AstExpr *shared = NULL, *cut = NULL;
    for (int i = 0; i < decls->n; i++) {
        AstDecl *d = decls->items[i];
        if (d->output > 0 && d->value == shared) {
            d->value = cut;
            continue;
        }
        shared = d->value;
        limit_expr(w, &d->value);
        limit_index(w, &d->index);
        cut = d->value;
    }
}

static void limit_stmts(DepthWalk *w, PtrVec *stmts)
{
    for (int i = 0; i < stmts->n; i++) {
        AstStmt *s = stmts->items[i];
        switch (s->kind) {
        case STMT_EQUATION:
            limit_expr(w, &s->u.eq.lhs);
            if (s->u.eq.rhs != s->u.eq.lhs)
                limit_expr(w, &s->u.eq.rhs);
            break;
        case STMT_ASSERT:
            limit_expr(w, &s->u.assert_.cond);
            break;
        case STMT_ASSIGN:
            limit_expr(w, &s->u.eq.rhs);
            break;
        case STMT_CALL:
            limit_expr(w, &s->u.eq.lhs);
            break;
        case STMT_IF:
            for (int j = 0; j < s->u.if_.clauses.n; j++) {
                AstClause *c = s->u.if_.clauses.items[j];
                limit_expr(w, &c->cond);
                limit_stmts(w, &c->body);
            }
            break;
        case STMT_LET:
            limit_decls(w, &s->u.let_.defs);
            limit_stmts(w, &s->u.let_.body);
            break;
        case STMT_FOR:
            limit_expr(w, &s->u.for_.range);
            limit_stmts(w, &s->u.for_.body);
            break;
        case STMT_WHEN:
            for (int j = 0; j < s->u.if_.clauses.n; j++) {
                AstClause *c = s->u.if_.clauses.items[j];
                limit_expr(w, &c->cond);
                limit_decls(w, &c->body);
            }
            break;
        default:
            break;
        }
    }
}

static void limit_index(DepthWalk *w, PtrVec *index)
{
    for (int k = 0; k < index->n; k++)
        limit_expr(w, (AstExpr **)&index->items[k]);
}

/* The expressions of a mode chart. */
static void limit_chart(DepthWalk *w, AstModeChart *mc)
{
    for (int i = 0; i < mc->modes.n; i++) {
        AstMode *m = mc->modes.items[i];
        limit_decls(w, &m->entry);
        limit_stmts(w, &m->eqs);
    }
    PtrVec *lists[] = {&mc->transitions, &mc->initials};
    for (int l = 0; l < 2; l++)
        for (int i = 0; i < lists[l]->n; i++)
            limit_expr(w, &((AstTransition *)lists[l]->items[i])->pred);
}

static void limit_items(DepthWalk *w, PtrVec *items)
{
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind == ITEM_SETUP) {
            limit_stmts(w, &it->u.setup.body);
            continue;
        }
        if (it->kind == ITEM_FOR) {
            limit_expr(w, &it->u.for_.range);
            limit_items(w, &it->u.for_.body);
            continue;
        }
        if (it->kind == ITEM_IF) {
            for (int j = 0; j < it->u.if_.clauses.n; j++) {
                AstClause *c = it->u.if_.clauses.items[j];
                limit_expr(w, &c->cond);
                limit_items(w, &c->body);
            }
            continue;
        }
        PtrVec *v = &it->u.section.entries;
        switch (it->u.section.kind) {
        case SEC_EQUATIONS: case SEC_EVENTS:
            limit_stmts(w, v);
            break;
        case SEC_MODECHARTS:
            for (int j = 0; j < v->n; j++)
                limit_chart(w, v->items[j]);
            break;
        case SEC_COMPONENTS:
            for (int j = 0; j < v->n; j++) {
                AstInstance *in = v->items[j];
                for (int k = 0; k < in->args.n; k++)
                    limit_expr(w, &((AstArg *)in->args.items[k])->value);
                limit_index(w, &in->index);
            }
            break;
        case SEC_BRANCHES:
            for (int j = 0; j < v->n; j++) {
                AstBranch *b = v->items[j];
                limit_expr(w, &b->var);
                limit_expr(w, &b->from);
                limit_expr(w, &b->to);
            }
            break;
        case SEC_CONNECTIONS:
            for (int j = 0; j < v->n; j++) {
                AstConnect *c = v->items[j];
                for (int k = 0; k < c->ends.n; k++)
                    limit_expr(w, (AstExpr **)&c->ends.items[k]);
            }
            break;
        default:
            limit_decls(w, v);
            break;
        }
    }
}

AstFile *parse_file(Arena *a, int file)
{
    SrcFile *f = src_get(file);
    AstFile *out = arena_alloc(a, sizeof *out);
    out->file = file;
    const char *why = NULL;
    long bad = check_bytes((const unsigned char *)f->text, f->len, &why);
    if (bad >= 0) {
        diag_error((SrcSpan){file, (uint32_t)bad, (uint32_t)bad + 1}, "%s", why);
        return out;
    }

    ParseCtx pc = {0};
    pc.arena = a;
    pc.file = file;
    pc.result = out;
    pc.last_span = pc.prev_span = (SrcSpan){file, 0, 0};
    yyscan_t scanner;
    if (yylex_init_extra(&pc, &scanner) != 0) {
        diag_error(src_none, "cannot start the scanner");
        return out;
    }
    pc.scanner = scanner;
    YY_BUFFER_STATE buf = yy_scan_bytes(f->text, (int)f->len, scanner);
    yyparse(&pc);
    yy_delete_buffer(buf, scanner);
    yylex_destroy(scanner);

    DepthWalk walk = {a, NULL, 0, 0, 0};
    for (int i = 0; i < out->defs.n; i++) {
        AstDef *d = out->defs.items[i];
        limit_items(&walk, &d->items);
        limit_decls(&walk, &d->defs);
        d->description = description(a, f, d);
        attach_comments_items(a, f, &d->items);
    }
    free(walk.stack);
    return out;
}
