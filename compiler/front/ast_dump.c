/*
 * ast_dump.c - the syntax tree in text: an expression as the source would
 * write it, fully parenthesised (ast_print_expr, for messages and the
 * dump), and the tree dump behind `lmdlc check --dump-ast` that the
 * golden tests read (ast_dump_file).
 */
#include "ast.h"

#include <stdio.h>
#include <string.h>

#define X_STMT_NAME(k, s) s,
static const char *const stmt_names[] = {AST_STMT_KINDS(X_STMT_NAME)};
#undef X_STMT_NAME

/* ---- printing ---------------------------------------------------------- */

static void print_string(FILE *fp, const char *s)
{
    fputc('\'', fp);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', fp);
        fputc(*s, fp);
    }
    fputc('\'', fp);
}

/* Prints fully parenthesised binary expressions, so the dump shows how
   precedence and associativity were applied. */
void ast_print_expr(FILE *fp, const AstExpr *e)
{
    switch (e->kind) {
    case EXPR_NUM: fputs(e->u.num.text, fp); break;
    case EXPR_BOOL: fputs(e->u.boolean ? "true" : "false", fp); break;
    case EXPR_STR: print_string(fp, e->u.str); break;
    case EXPR_TIME: fputs("time", fp); break;
    case EXPR_REF: fputs("*", fp); break;
    case EXPR_END: fputs("end", fp); break;
    case EXPR_COLON: fputs(":", fp); break;
    case EXPR_NAME:
        for (int i = 0; i < e->u.name.n; i++) {
            const AstNamePart *np = &e->u.name.parts[i];
            fprintf(fp, "%s%s", i ? "." : "", np->sym->name);
            for (int j = 0; j < np->nindex; j++) {
                fputs(j ? ", " : "(", fp);
                ast_print_expr(fp, np->index[j]);
            }
            if (np->nindex)
                fputc(')', fp);
        }
        break;
    case EXPR_MATRIX:
        fputc('[', fp);
        for (int i = 0; i < e->u.matrix.rows.n; i++) {
            const PtrVec *row = e->u.matrix.rows.items[i];
            if (i)
                fputs("; ", fp);
            for (int j = 0; j < row->n; j++) {
                if (j)
                    fputs(", ", fp);
                ast_print_expr(fp, row->items[j]);
            }
        }
        fputc(']', fp);
        break;
    case EXPR_RANGE:
        fputc('(', fp);
        ast_print_expr(fp, e->u.range.first);
        if (e->u.range.step) {
            fputc(':', fp);
            ast_print_expr(fp, e->u.range.step);
        }
        fputc(':', fp);
        ast_print_expr(fp, e->u.range.last);
        fputc(')', fp);
        break;
    case EXPR_OPTION:
        fprintf(fp, "%s = ", e->u.option.name->name);
        ast_print_expr(fp, e->u.option.value);
        break;
    case EXPR_DER:
        fputs("der(", fp);
        ast_print_expr(fp, e->u.der.arg);
        fputc(')', fp);
        break;
    case EXPR_CALL:
        if (e->u.call.callee)
            ast_print_expr(fp, e->u.call.callee);
        else
            fputs(e->u.call.func->name, fp);
        fputc('(', fp);
        for (int i = 0; i < e->u.call.args.n; i++) {
            if (i)
                fputs(", ", fp);
            ast_print_expr(fp, e->u.call.args.items[i]);
        }
        fputc(')', fp);
        break;
    case EXPR_UNARY:
        if (e->u.unary.op == OP_TRANSPOSE) {
            fputc('(', fp);
            ast_print_expr(fp, e->u.unary.arg);
            fputs(")'", fp);
            break;
        }
        fputs(e->u.unary.op == OP_NOT ? "~" : ast_op_names[e->u.unary.op], fp);
        fputc('(', fp);
        ast_print_expr(fp, e->u.unary.arg);
        fputc(')', fp);
        break;
    case EXPR_BINARY:
        fputc('(', fp);
        ast_print_expr(fp, e->u.binary.lhs);
        fprintf(fp, " %s ", ast_op_names[e->u.binary.op]);
        ast_print_expr(fp, e->u.binary.rhs);
        fputc(')', fp);
        break;
    case EXPR_IF:
        fputs("if ", fp);
        ast_print_expr(fp, e->u.cond.cond);
        fputs(", ", fp);
        ast_print_expr(fp, e->u.cond.then);
        fputs(" else ", fp);
        ast_print_expr(fp, e->u.cond.els);
        fputs(" end", fp);
        break;
    case EXPR_QUANTITY:
        fputc('{', fp);
        ast_print_expr(fp, e->u.quantity.value);
        fputs(", ", fp);
        print_string(fp, e->u.quantity.unit);
        fputc('}', fp);
        break;
    case EXPR_RECORD:
        fputc('{', fp);
        for (int i = 0; i < e->u.record.n; i++) {
            fprintf(fp, "%s%s = ", i ? ", " : "", e->u.record.fields[i].name->name);
            ast_print_expr(fp, e->u.record.fields[i].value);
        }
        fputc('}', fp);
        break;
    default: fputs("?", fp); break;
    }
}

static void indent(FILE *fp, int depth)
{
    for (int i = 0; i < depth; i++)
        fputs("  ", fp);
}

static void dump_at(FILE *fp, SrcSpan sp)
{
    int line, col;
    src_linecol(sp, &line, &col);
    fprintf(fp, " @%d:%d", line, col);
}

/* ---- events and mode charts ------------------------------------------------ */

static void dump_assigns(FILE *fp, const PtrVec *v, int depth)
{
    for (int i = 0; i < v->n; i++) {
        const AstDecl *d = v->items[i];
        indent(fp, depth);
        fprintf(fp, "%s", d->name->name);
        dump_at(fp, d->span);
        fputs(" = ", fp);
        ast_print_expr(fp, d->value);
        fputc('\n', fp);
    }
}

static void dump_when(FILE *fp, const AstStmt *s, int depth)
{
    for (int i = 0; i < s->u.if_.clauses.n; i++) {
        const AstClause *c = s->u.if_.clauses.items[i];
        indent(fp, depth);
        fputs(i ? "elsewhen " : "when ", fp);
        ast_print_expr(fp, c->cond);
        fputc('\n', fp);
        dump_assigns(fp, &c->body, depth + 1);
    }
}

static void dump_path(FILE *fp, const AstTransition *t, int depth)
{
    indent(fp, depth);
    for (int k = 0; k < t->n; k++)
        fprintf(fp, "%s%s", k ? " -> " : "", t->path[k].sym->name);
    dump_at(fp, t->span);
    fputs(" : ", fp);
    ast_print_expr(fp, t->pred);
    fputc('\n', fp);
}

static void dump_chart(FILE *fp, const AstModeChart *c, int depth)
{
    indent(fp, depth);
    fprintf(fp, "modechart %s", c->name ? c->name->name : "?");
    dump_at(fp, c->span);
    fputc('\n', fp);
    for (int i = 0; i < c->modes.n; i++) {
        const AstMode *m = c->modes.items[i];
        indent(fp, depth + 1);
        fprintf(fp, "mode %s", m->name ? m->name->name : "?");
        dump_at(fp, m->span);
        fputc('\n', fp);
        if (m->entry.n) {
            indent(fp, depth + 2);
            fputs("entry\n", fp);
            dump_assigns(fp, &m->entry, depth + 3);
        }
        for (int j = 0; j < m->eqs.n; j++) {
            const AstStmt *st = m->eqs.items[j];
            indent(fp, depth + 2);
            if (st->kind == STMT_EQUATION) {
                ast_print_expr(fp, st->u.eq.lhs);
                fputs(" == ", fp);
                ast_print_expr(fp, st->u.eq.rhs);
            } else {
                fputs(st->kind == STMT_ASSERT ? "assert" : "if-equation", fp);
            }
            fputc('\n', fp);
        }
    }
    for (int i = 0; i < c->transitions.n; i++)
        dump_path(fp, c->transitions.items[i], depth + 1);
    for (int i = 0; i < c->initials.n; i++) {
        indent(fp, depth + 1);
        fputs("initial\n", fp);
        dump_path(fp, c->initials.items[i], depth + 2);
    }
}

static void dump_stmts(FILE *fp, const PtrVec *v, int depth);
static void dump_decl(FILE *fp, const AstDecl *d, int depth);

/* The indices of a declaration in a for-loop: `(i)`. */
static void dump_index(FILE *fp, const PtrVec *index)
{
    for (int j = 0; j < index->n; j++) {
        fputs(j ? ", " : "(", fp);
        ast_print_expr(fp, index->items[j]);
    }
    if (index->n)
        fputc(')', fp);
}

static void dump_for_head(FILE *fp, const AstFor *f)
{
    fprintf(fp, " %s = ", f->var->name);
    ast_print_expr(fp, f->range);
    fputc('\n', fp);
}

static void dump_stmt(FILE *fp, const AstStmt *s, int depth)
{
    indent(fp, depth);
    fputs(stmt_names[s->kind], fp);
    dump_at(fp, s->span);
    switch (s->kind) {
    case STMT_EQUATION:
        fputc(' ', fp);
        ast_print_expr(fp, s->u.eq.lhs);
        fputs(" == ", fp);
        ast_print_expr(fp, s->u.eq.rhs);
        fputc('\n', fp);
        break;
    case STMT_ASSERT:
        fputc(' ', fp);
        ast_print_expr(fp, s->u.assert_.cond);
        fputs(", ", fp);
        print_string(fp, s->u.assert_.msg);
        fputc('\n', fp);
        break;
    case STMT_IF:
        fputc('\n', fp);
        for (int i = 0; i < s->u.if_.clauses.n; i++) {
            AstClause *c = s->u.if_.clauses.items[i];
            indent(fp, depth + 1);
            if (c->cond) {
                fputs(i ? "elseif " : "if ", fp);
                ast_print_expr(fp, c->cond);
            } else {
                fputs("else", fp);
            }
            fputc('\n', fp);
            dump_stmts(fp, &c->body, depth + 2);
        }
        break;
    case STMT_LET:
        fputc('\n', fp);
        for (int i = 0; i < s->u.let_.defs.n; i++)
            dump_decl(fp, s->u.let_.defs.items[i], depth + 1);
        indent(fp, depth);
        fputs("in\n", fp);
        dump_stmts(fp, &s->u.let_.body, depth + 1);
        break;
    case STMT_FOR:
        dump_for_head(fp, &s->u.for_);
        dump_stmts(fp, &s->u.for_.body, depth + 1);
        break;
    case STMT_ASSIGN:
        fputc(' ', fp);
        ast_print_expr(fp, s->u.eq.lhs);
        fputs(" = ", fp);
        ast_print_expr(fp, s->u.eq.rhs);
        fputc('\n', fp);
        break;
    case STMT_CALL:
        fputc(' ', fp);
        ast_print_expr(fp, s->u.eq.lhs);
        fputc('\n', fp);
        break;
    default: break;
    }
}

static void dump_decl(FILE *fp, const AstDecl *d, int depth)
{
    indent(fp, depth);
    fprintf(fp, "%s", d->name->name);
    dump_index(fp, &d->index);
    dump_at(fp, d->span);
    if (d->untyped) {
        fputs(" (untyped)\n", fp);
        return;
    }
    fputs(" = ", fp);
    ast_print_expr(fp, d->value);
    if (d->output >= 0)
        fprintf(fp, " [output %d]", d->output + 1);
    if (d->comment)
        fprintf(fp, "  %% %s", d->comment);
    fputc('\n', fp);
}

static void dump_stmts(FILE *fp, const PtrVec *v, int depth)
{
    for (int i = 0; i < v->n; i++)
        dump_stmt(fp, v->items[i], depth);
}

static void dump_items(FILE *fp, const PtrVec *items, int depth);

static void dump_section(FILE *fp, const AstItem *it, int depth)
{
    AstSectionKind k = it->u.section.kind;
    const PtrVec *v = &it->u.section.entries;
    indent(fp, depth);
    fputs(ast_section_names[k], fp);
    for (int i = 0; i < it->u.section.attrs.n; i++) {
        AstArg *g = it->u.section.attrs.items[i];
        fprintf(fp, "%s%s = ", i ? ", " : "(", g->name->name);
        ast_print_expr(fp, g->value);
        if (i == it->u.section.attrs.n - 1)
            fputc(')', fp);
    }
    dump_at(fp, it->span);
    fputc('\n', fp);
    for (int i = 0; i < v->n; i++) {
        switch (k) {
        case SEC_COMPONENTS: {
            AstInstance *in = v->items[i];
            indent(fp, depth + 1);
            fprintf(fp, "%s", in->name->name);
            dump_index(fp, &in->index);
            dump_at(fp, in->span);
            fputs(" = ", fp);
            if (in->type_qual)
                ast_print_expr(fp, in->type_qual);
            else
                fputs(in->type->name, fp);
            fputc('(', fp);
            for (int j = 0; j < in->args.n; j++) {
                AstArg *g = in->args.items[j];
                fprintf(fp, "%s%s = ", j ? ", " : "", g->name->name);
                ast_print_expr(fp, g->value);
            }
            fputs(")\n", fp);
            break;
        }
        case SEC_BRANCHES: {
            AstBranch *b = v->items[i];
            indent(fp, depth + 1);
            ast_print_expr(fp, b->var);
            dump_at(fp, b->span);
            fputs(" : ", fp);
            ast_print_expr(fp, b->from);
            fputs(" -> ", fp);
            ast_print_expr(fp, b->to);
            fputc('\n', fp);
            break;
        }
        case SEC_CONNECTIONS: {
            AstConnect *c = v->items[i];
            indent(fp, depth + 1);
            fputs("connect", fp);
            dump_at(fp, c->span);
            fputc(' ', fp);
            for (int j = 0; j < c->ends.n; j++) {
                if (j)
                    fputs(", ", fp);
                ast_print_expr(fp, c->ends.items[j]);
            }
            fputc('\n', fp);
            break;
        }
        case SEC_EQUATIONS:
            dump_stmt(fp, v->items[i], depth + 1);
            break;
        case SEC_EVENTS:
            dump_when(fp, v->items[i], depth + 1);
            break;
        case SEC_MODECHARTS:
            dump_chart(fp, v->items[i], depth + 1);
            break;
        default:
            dump_decl(fp, v->items[i], depth + 1);
            break;
        }
    }
}

static void dump_items(FILE *fp, const PtrVec *items, int depth)
{
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind == ITEM_SECTION) {
            dump_section(fp, it, depth);
            continue;
        }
        if (it->kind == ITEM_SETUP) {
            indent(fp, depth);
            fputs("function setup", fp);
            dump_at(fp, it->span);
            fputc('\n', fp);
            dump_stmts(fp, &it->u.setup.body, depth + 1);
            continue;
        }
        if (it->kind == ITEM_FOR) {
            indent(fp, depth);
            fputs("for", fp);
            dump_at(fp, it->span);
            dump_for_head(fp, &it->u.for_);
            dump_items(fp, &it->u.for_.body, depth + 1);
            continue;
        }
        for (int j = 0; j < it->u.if_.clauses.n; j++) {
            AstClause *c = it->u.if_.clauses.items[j];
            indent(fp, depth);
            if (c->cond) {
                fputs(j ? "elseif " : "if ", fp);
                ast_print_expr(fp, c->cond);
            } else {
                fputs("else", fp);
            }
            dump_at(fp, c->span);
            fputc('\n', fp);
            dump_items(fp, &c->body, depth + 1);
        }
    }
}

static void dump_idents(FILE *fp, const PtrVec *v)
{
    for (int i = 0; i < v->n; i++)
        fprintf(fp, "%s%s", i ? ", " : "", ((AstIdent *)v->items[i])->sym->name);
}

void ast_dump_file(FILE *fp, const AstFile *f)
{
    for (int i = 0; i < f->imports.n; i++) {
        AstImport *im = f->imports.items[i];
        fputs("import ", fp);
        ast_print_expr(fp, im->name);
        fputs(im->all ? ".*" : "", fp);
        dump_at(fp, im->span);
        fputc('\n', fp);
    }
    for (int i = 0; i < f->defs.n; i++) {
        AstDef *d = f->defs.items[i];
        if (d->kind == DEF_FUNCTION) {
            fputs("function [", fp);
            dump_idents(fp, &d->outputs);
            fprintf(fp, "] = %s(", d->name->name);
            dump_idents(fp, &d->inputs);
            fputc(')', fp);
            dump_at(fp, d->span);
            fputc('\n', fp);
            for (int j = 0; j < d->defs.n; j++)
                dump_decl(fp, d->defs.items[j], 1);
            continue;
        }
        fprintf(fp, "%s %s", d->kind == DEF_DOMAIN ? "domain" : "component",
                d->name->name);
        dump_at(fp, d->span);
        fputc('\n', fp);
        if (d->description) {
            indent(fp, 1);
            fputs("description ", fp);
            print_string(fp, d->description);
            fputc('\n', fp);
        }
        dump_items(fp, &d->items, 1);
    }
}
