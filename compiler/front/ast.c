/*
 * ast.c - builders for the syntax tree, called one per grammar action, and
 * the questions later passes ask of a node.  The tree's printed forms are
 * ast_dump.c; events and mode charts are built in ast_events.c.
 */
#include "ast.h"

#include "diag.h"
#include "source.h"
#include "rt_number.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define X_NAME(k, s) s,
const char *const ast_expr_kind_names[] = {AST_EXPR_KINDS(X_NAME)};
const char *const ast_op_names[] = {AST_OPS(X_NAME)};
#define X_SECWORD(k, w, tok, mem, where, entry, title, col, val, rank) w,
#define X_SECWHERE(k, w, tok, mem, where, entry, title, col, val, rank) where,
#define X_SECTITLE(k, w, tok, mem, where, entry, title, col, val, rank) title,
#define X_SECCOL(k, w, tok, mem, where, entry, title, col, val, rank) col,
#define X_SECVAL(k, w, tok, mem, where, entry, title, col, val, rank) val,
#define X_SECRANK(k, w, tok, mem, where, entry, title, col, val, rank) rank,
const char *const ast_section_names[] = {AST_SECTION_KINDS(X_SECWORD)};
const int ast_section_where[] = {AST_SECTION_KINDS(X_SECWHERE)};
const char *const ast_section_titles[] = {AST_SECTION_KINDS(X_SECTITLE)};
const char *const ast_section_columns[] = {AST_SECTION_KINDS(X_SECCOL)};
const char *const ast_section_values[] = {AST_SECTION_KINDS(X_SECVAL)};
const int ast_section_ranks[] = {AST_SECTION_KINDS(X_SECRANK)};

static AstExpr *new_expr(Arena *a, AstExprKind kind, SrcSpan sp)
{
    AstExpr *e = arena_alloc(a, sizeof *e);
    e->kind = kind;
    e->span = sp;
    return e;
}

AstExpr *ast_num(Arena *a, SrcSpan sp, const char *text, size_t len)
{
    AstExpr *e = new_expr(a, EXPR_NUM, sp);
    e->u.num.text = arena_strndup(a, text, len);
    /* the lexer reported a number out of range; 0 keeps going */
    double v = 0;
    if (rt_number_scan(text, len, 0, &v, NULL, NULL) != RT_NUM_OK)
        v = 0;
    e->u.num.value = v;
    return e;
}

AstExpr *ast_bool(Arena *a, SrcSpan sp, bool v)
{
    AstExpr *e = new_expr(a, EXPR_BOOL, sp);
    e->u.boolean = v;
    return e;
}

AstExpr *ast_str(Arena *a, SrcSpan sp, const char *s)
{
    AstExpr *e = new_expr(a, EXPR_STR, sp);
    e->u.str = s;
    return e;
}

AstExpr *ast_leaf(Arena *a, SrcSpan sp, AstExprKind kind)
{
    return new_expr(a, kind, sp);
}

AstExpr *ast_name(Arena *a, SrcSpan sp, Sym *s)
{
    AstExpr *e = new_expr(a, EXPR_NAME, sp);
    e->u.name.parts = arena_alloc(a, sizeof(AstNamePart));
    e->u.name.parts[0].sym = s;
    e->u.name.parts[0].span = sp;
    e->u.name.n = 1;
    return e;
}

AstExpr *ast_name_append(Arena *a, AstExpr *name, SrcSpan sp, Sym *s)
{
    int n = name->u.name.n;
    AstNamePart *parts = arena_alloc(a, sizeof(AstNamePart) * (size_t)(n + 1));
    memcpy(parts, name->u.name.parts, sizeof(AstNamePart) * (size_t)n);
    parts[n].sym = s;
    parts[n].span = sp;
    name->u.name.parts = parts;
    name->u.name.n = n + 1;
    name->span = src_join(name->span, sp);
    return name;
}

AstExpr *ast_der(Arena *a, SrcSpan sp, AstExpr *arg)
{
    AstExpr *e = new_expr(a, EXPR_DER, sp);
    e->u.der.arg = arg;
    return e;
}

/* A dotted or indexed callee can only be a member being indexed
   (`a.v(2)`, `m(1).v(2)`); resolution decides, and reports a function
   called through a dotted name. */
AstExpr *ast_call(Arena *a, SrcSpan sp, AstExpr *callee, PtrVec args)
{
    AstExpr *e = new_expr(a, EXPR_CALL, sp);
    e->u.call.func = callee->u.name.parts[callee->u.name.n - 1].sym;
    e->u.call.func_span = callee->span;
    e->u.call.args = args;
    /* pkg.f(x): resolution looks it up as a package's function */
    e->u.call.qual = callee->u.name.n > 1 ? callee : NULL;
    e->u.call.callee = callee;
    return e;
}

AstExpr *ast_unary(Arena *a, SrcSpan sp, AstOp op, AstExpr *arg)
{
    AstExpr *e = new_expr(a, EXPR_UNARY, sp);
    e->u.unary.op = op;
    e->u.unary.arg = arg;
    return e;
}

AstExpr *ast_binary(Arena *a, SrcSpan sp, AstOp op, AstExpr *l, AstExpr *r)
{
    AstExpr *e = new_expr(a, EXPR_BINARY, sp);
    e->u.binary.op = op;
    e->u.binary.lhs = l;
    e->u.binary.rhs = r;
    return e;
}

AstExpr *ast_if(Arena *a, SrcSpan sp, AstExpr *c, AstExpr *t, AstExpr *el)
{
    AstExpr *e = new_expr(a, EXPR_IF, sp);
    e->u.cond.cond = c;
    e->u.cond.then = t;
    e->u.cond.els = el;
    return e;
}

AstExpr *ast_quantity(Arena *a, SrcSpan sp, AstExpr *v, AstExpr *unit)
{
    AstExpr *e = new_expr(a, EXPR_QUANTITY, sp);
    e->u.quantity.value = v;
    e->u.quantity.unit = unit->u.str;
    e->u.quantity.unit_span = unit->span;
    return e;
}

AstExpr *ast_record(Arena *a, SrcSpan sp, PtrVec fields)
{
    AstExpr *e = new_expr(a, EXPR_RECORD, sp);
    e->u.record.n = fields.n;
    e->u.record.fields = arena_alloc(a, sizeof(AstField) * (size_t)(fields.n + 1));
    /* A map, not a pairwise scan: a generated or fuzzed file may hold
       thousands of fields. */
    SymMap seen = {0};
    for (int i = 0; i < fields.n; i++) {
        AstField *f = fields.items[i];
        if (symmap_get(&seen, f->name))
            diag_error(f->name_span, "field '%s' is given twice", f->name->name);
        symmap_put(&seen, f->name, f);
        e->u.record.fields[i] = *f;
    }
    symmap_free(&seen);
    return e;
}

AstExpr *ast_paren(AstExpr *e, SrcSpan sp)
{
    e->parens = true;
    e->span = sp;
    return e;
}

/* ---- arrays ------------------------------------------------- */

/* `name(args)` followed by `.member`: the indices belong to the last part. */
AstExpr *ast_name_index(Arena *a, AstExpr *name, SrcSpan sp, PtrVec index)
{
    AstNamePart *last = &name->u.name.parts[name->u.name.n - 1];
    last->index = arena_alloc(a, sizeof(AstExpr *) * (size_t)(index.n + 1));
    for (int i = 0; i < index.n; i++) {
        last->index[i] = index.items[i];
        if (last->index[i]->kind == EXPR_OPTION)
            diag_error(last->index[i]->span, "an index is an expression, not "
                       "NAME = value");
    }
    last->nindex = index.n;
    if (index.n == 0)
        diag_error(sp, "'%s()' needs an index", last->sym->name);
    name->span = src_join(name->span, sp);
    return name;
}

AstExpr *ast_name_member(Arena *a, AstExpr *name, SrcSpan index_sp, PtrVec index,
                         SrcSpan member_sp, Sym *member)
{
    return ast_name_append(a, ast_name_index(a, name, index_sp, index), member_sp, member);
}

AstExpr *ast_matrix(Arena *a, SrcSpan sp, PtrVec rows)
{
    AstExpr *e = new_expr(a, EXPR_MATRIX, sp);
    e->u.matrix.rows = rows;
    return e;
}

PtrVec *ast_matrix_row(Arena *a, PtrVec *row, AstExpr *e)
{
    if (!row)
        row = arena_alloc(a, sizeof *row);
    ptrvec_push(a, row, e);
    return row;
}

/* `a:b`, and `a:s:b` read as (a:s):b, the way MATLAB reads it. */
AstExpr *ast_range(Arena *a, SrcSpan sp, AstExpr *lhs, AstExpr *rhs)
{
    if (lhs->kind == EXPR_RANGE && !lhs->parens && !lhs->u.range.step) {
        lhs->u.range.step = lhs->u.range.last;
        lhs->u.range.last = rhs;
        lhs->span = sp;
        return lhs;
    }
    AstExpr *e = new_expr(a, EXPR_RANGE, sp);
    e->u.range.first = lhs;
    e->u.range.last = rhs;
    return e;
}

AstExpr *ast_option(Arena *a, SrcSpan sp, Sym *name, SrcSpan name_sp, AstExpr *v)
{
    AstExpr *e = new_expr(a, EXPR_OPTION, sp);
    e->u.option.name = name;
    e->u.option.name_span = name_sp;
    e->u.option.value = v;
    return e;
}

AstDecl *ast_decl_indexed(Arena *a, SrcSpan sp, SrcSpan name_sp, Sym *name,
                          PtrVec index, AstExpr *v)
{
    AstDecl *d = ast_decl(a, sp, name_sp, name, v);
    d->index = index;
    return d;
}

AstInstance *ast_instance_indexed(Arena *a, SrcSpan sp, SrcSpan name_sp, Sym *name,
                                  PtrVec index, SrcSpan type_sp, Sym *type,
                                  PtrVec args)
{
    AstInstance *in = ast_instance(a, sp, name_sp, name, type_sp, type, args);
    in->index = index;
    return in;
}

AstInstance *ast_instance_indexed_qual(Arena *a, SrcSpan sp, SrcSpan name_sp, Sym *name,
                                       PtrVec index, AstExpr *type, PtrVec args)
{
    AstInstance *in = ast_instance_qual(a, sp, name_sp, name, type, args);
    in->index = index;
    return in;
}

static AstFor for_of(SrcSpan var_sp, Sym *var, AstExpr *range, PtrVec body)
{
    AstFor f = {var, var_sp, range, body};
    return f;
}

AstItem *ast_item_for(Arena *a, SrcSpan sp, SrcSpan var_sp, Sym *var,
                      AstExpr *range, PtrVec items)
{
    AstItem *it = arena_alloc(a, sizeof *it);
    it->kind = ITEM_FOR;
    it->span = sp;
    it->u.for_ = for_of(var_sp, var, range, items);
    return it;
}

AstStmt *ast_stmt_for(Arena *a, SrcSpan sp, SrcSpan var_sp, Sym *var,
                      AstExpr *range, PtrVec body)
{
    AstStmt *s = arena_alloc(a, sizeof *s);
    s->kind = STMT_FOR;
    s->span = sp;
    s->u.for_ = for_of(var_sp, var, range, body);
    return s;
}

AstField *ast_field(Arena *a, SrcSpan sp, Sym *name, AstExpr *value)
{
    AstField *f = arena_alloc(a, sizeof *f);
    f->name = name;
    f->name_span = sp;
    f->value = value;
    return f;
}

/* A declaration's or argument's whole value: a quantity in it (or in its
   record's value field) may have an affine unit, {25, 'degC'}. */
static AstExpr *whole_quantity(AstExpr *v)
{
    if (v && v->kind == EXPR_RECORD)
        v = ast_record_field(v, "value");
    return v && v->kind == EXPR_QUANTITY ? v : NULL;
}

void ast_set_relative(AstExpr *v, bool relative)
{
    if ((v = whole_quantity(v)))
        v->u.quantity.relative = relative;
}

static void mark_absolute(AstExpr *v)
{
    if ((v = whole_quantity(v)))
        v->u.quantity.absolute = true;
}

AstDecl *ast_decl(Arena *a, SrcSpan sp, SrcSpan name_sp, Sym *name, AstExpr *v)
{
    mark_absolute(v);
    AstDecl *d = arena_alloc(a, sizeof *d);
    d->name = name;
    d->name_span = name_sp;
    d->span = sp;
    d->value = v;
    d->output = -1;
    return d;
}

AstDecl *ast_untyped_decl(Arena *a, SrcSpan sp, SrcSpan name_sp, Sym *name)
{
    AstDecl *d = ast_decl(a, sp, name_sp, name, ast_num(a, name_sp, "0", 1));
    d->untyped = true;
    return d;
}

PtrVec ast_multi_decl(Arena *a, SrcSpan sp, PtrVec names, AstExpr *call)
{
    PtrVec v = {0};
    if (call->kind != EXPR_CALL || call->parens)
        diag_error(call->span, "[a, b] = ... takes the outputs of a function "
                   "call, as in [a, b] = f(x)");
    for (int i = 0; i < names.n; i++) {
        AstIdent *id = names.items[i];
        AstDecl *d = ast_decl(a, sp, id->span, id->sym, call);
        d->output = i;
        ptrvec_push(a, &v, d);
    }
    return v;
}

AstIdent *ast_ident(Arena *a, SrcSpan sp, Sym *name)
{
    AstIdent *id = arena_alloc(a, sizeof *id);
    id->sym = name;
    id->span = sp;
    return id;
}

AstStmt *ast_let(Arena *a, SrcSpan sp, PtrVec defs, PtrVec body)
{
    AstStmt *s = arena_alloc(a, sizeof *s);
    s->kind = STMT_LET;
    s->span = sp;
    s->u.let_.defs = defs;
    s->u.let_.body = body;
    return s;
}

AstArg *ast_arg(Arena *a, SrcSpan name_sp, Sym *name, AstExpr *v)
{
    mark_absolute(v);
    AstArg *g = arena_alloc(a, sizeof *g);
    g->name = name;
    g->name_span = name_sp;
    g->value = v;
    return g;
}

AstArg *ast_arg_field(Arena *a, SrcSpan name_sp, Sym *name, Sym *field, SrcSpan field_sp,
                      AstExpr *v)
{
    AstArg *g = ast_arg(a, name_sp, name, v);
    g->field = field;
    (void)field_sp;
    return g;
}

/* The arguments of one variable given field by field (x.value = ...,
   x.priority = ..., and x = v as its value) as one record. */
static PtrVec merge_fields(Arena *a, PtrVec args)
{
    bool any = false;
    for (int i = 0; i < args.n && !any; i++)
        any = ((AstArg *)args.items[i])->field != NULL;
    if (!any)
        return args;
    PtrVec out = {0};
    SymMap at = {0};   /* name -> 1 + index in out of its merged argument */
    for (int i = 0; i < args.n; i++) {
        AstArg *g = args.items[i];
        AstArg *m = NULL;
        int k = (int)(intptr_t)symmap_get(&at, g->name);
        if (k)
            m = out.items[k - 1];
        bool has_field = g->field != NULL;
        if (!m && !has_field) {
            ptrvec_push(a, &out, g);
            symmap_put(&at, g->name, (void *)(intptr_t)out.n);
            continue;
        }
        if (!m) {
            m = ast_arg(a, g->name_span, g->name, NULL);
            ptrvec_push(a, &out, m);
            symmap_put(&at, g->name, (void *)(intptr_t)out.n);
        }
        /* gather the fields as a record */
        PtrVec fields = {0};
        AstExpr *rec = m->value;
        if (rec && rec->kind == EXPR_RECORD) {
            for (int j = 0; j < rec->u.record.n; j++)
                ptrvec_push(a, &fields, &rec->u.record.fields[j]);
        } else if (rec) {
            ptrvec_push(a, &fields, ast_field(a, m->name_span, sym_cstr("value"), rec));
        }
        ptrvec_push(a, &fields, ast_field(a, g->name_span,
                                          has_field ? g->field : sym_cstr("value"), g->value));
        SrcSpan sp = rec ? src_join(rec->span, g->value->span) : g->value->span;
        m->value = ast_record(a, sp, fields);
    }
    symmap_free(&at);
    return out;
}

AstInstance *ast_instance(Arena *a, SrcSpan sp, SrcSpan name_sp, Sym *name,
                          SrcSpan type_sp, Sym *type, PtrVec args)
{
    AstInstance *in = arena_alloc(a, sizeof *in);
    in->name = name;
    in->name_span = name_sp;
    in->type = type;
    in->type_span = type_sp;
    args = merge_fields(a, args);
    in->args = args;
    in->span = sp;
    /* a name set twice: a few arguments (nearly every instance) are
       compared pairwise, more through a map */
    SymMap seen = {0};
    for (int i = 0; i < args.n; i++) {
        AstArg *g = args.items[i];
        bool twice = false;
        if (args.n <= 8) {
            for (int j = 0; j < i && !twice; j++)
                twice = ((AstArg *)args.items[j])->name == g->name;
        } else {
            twice = symmap_get(&seen, g->name) != NULL;
            symmap_put(&seen, g->name, g);
        }
        if (twice)
            diag_error(g->name_span, "'%s' is set twice in this instance",
                       g->name->name);
    }
    symmap_free(&seen);
    return in;
}

AstInstance *ast_instance_qual(Arena *a, SrcSpan sp, SrcSpan name_sp, Sym *name,
                               AstExpr *type, PtrVec args)
{
    AstInstance *in = ast_instance(a, sp, name_sp, name, type->span,
                                   type->u.name.parts[type->u.name.n - 1].sym, args);
    in->type_qual = type;
    return in;
}

void ast_file_import(Arena *a, AstFile *f, SrcSpan sp, AstExpr *name, bool all,
                     int ndefs)
{
    AstImport *im = arena_alloc(a, sizeof *im);
    im->name = name;
    im->all = all;
    im->span = sp;
    im->late = ndefs > 0;
    ptrvec_push(a, &f->imports, im);
}

AstBranch *ast_branch(Arena *a, SrcSpan sp, AstExpr *var, AstExpr *from,
                      AstExpr *to)
{
    AstBranch *b = arena_alloc(a, sizeof *b);
    b->var = var;
    b->from = from;
    b->to = to;
    b->span = sp;
    if (from->kind == EXPR_REF && to->kind == EXPR_REF)
        diag_error(sp, "a branch cannot run from '*' to '*'");
    return b;
}

AstConnect *ast_connect(Arena *a, SrcSpan sp, PtrVec ends)
{
    AstConnect *c = arena_alloc(a, sizeof *c);
    c->ends = ends;
    c->span = sp;
    if (ends.n < 2)
        diag_error(sp, "connect() needs at least two ends");
    return c;
}

AstStmt *ast_equation(Arena *a, SrcSpan sp, AstExpr *e)
{
    AstStmt *s = arena_alloc(a, sizeof *s);
    s->kind = STMT_EQUATION;
    s->span = sp;
    if (e->kind == EXPR_BINARY && e->u.binary.op == OP_EQ && !e->parens) {
        s->u.eq.lhs = e->u.binary.lhs;
        s->u.eq.rhs = e->u.binary.rhs;
    } else {
        diag_error(e->span, "expected an equation 'LHS == RHS'");
        s->u.eq.lhs = e;
        s->u.eq.rhs = e;
    }
    return s;
}

AstExpr *ast_message_call(Arena *a, SrcSpan sp, AstExpr *callee, const PtrVec *call)
{
    if (!call) {
        diag_error(sp, "expected the assert's message as a string: "
                   "assert(COND, 'message'); found name '%s'",
                   callee->u.name.parts[0].sym->name);
        return ast_str(a, sp, "");
    }
    PtrVec args = *call;
    bool strings = args.n > 0;
    for (int i = 0; i < args.n; i++)
        strings = strings && ((AstExpr *)args.items[i])->kind == EXPR_STR;
    if (!ast_is_simple_name(callee) || strcmp(callee->u.name.parts[0].sym->name, "message")
        || !strings) {
        diag_error(sp, "an assert's message is a string, or message('id', 'text', ...) "
                   "of strings");
        return ast_str(a, sp, "");
    }
    /* message('id', 'a', 'b') reads "id (a, b)" */
    size_t len = 1;
    for (int i = 0; i < args.n; i++)
        len += strlen(((AstExpr *)args.items[i])->u.str) + 3;
    char *s = arena_alloc(a, len + 2);
    size_t at = 0;
    for (int i = 0; i < args.n; i++) {
        const char *p = ((AstExpr *)args.items[i])->u.str;
        const char *sep = i == 0 ? "" : i == 1 ? " (" : ", ";
        at += (size_t)snprintf(s + at, len + 2 - at, "%s%s", sep, p);
    }
    if (args.n > 1)
        snprintf(s + at, len + 2 - at, ")");
    return ast_str(a, sp, s);
}

AstStmt *ast_assert(Arena *a, SrcSpan sp, AstExpr *cond, AstExpr *msg, PtrVec opts)
{
    AstStmt *s = arena_alloc(a, sizeof *s);
    s->kind = STMT_ASSERT;
    s->span = sp;
    s->u.assert_.cond = cond;
    if (msg) {
        s->u.assert_.msg = msg->u.str;
        s->u.assert_.msg_span = msg->span;
    } else {
        /* assert(cond): the message is the condition as written */
        const SrcFile *f = src_get(cond->span.file);
        uint32_t n = f && cond->span.end <= f->len ? cond->span.end - cond->span.begin : 0;
        s->u.assert_.msg = arena_printf(a, "assertion failed: %.*s", (int)n,
                                        n ? f->text + cond->span.begin : "");
        s->u.assert_.msg_span = cond->span;
    }
    s->u.assert_.opts = opts;
    return s;
}

AstStmt *ast_stmt_if(Arena *a, SrcSpan sp, PtrVec clauses)
{
    AstStmt *s = arena_alloc(a, sizeof *s);
    s->kind = STMT_IF;
    s->span = sp;
    s->u.if_.clauses = clauses;
    return s;
}

AstClause *ast_clause(Arena *a, SrcSpan sp, AstExpr *cond, PtrVec body)
{
    AstClause *c = arena_alloc(a, sizeof *c);
    c->cond = cond;
    c->body = body;
    c->span = sp;
    c->arm = -1;
    return c;
}

AstItem *ast_section(Arena *a, SrcSpan sp, AstSectionKind kind, PtrVec entries)
{
    AstItem *it = arena_alloc(a, sizeof *it);
    it->kind = ITEM_SECTION;
    it->span = sp;
    it->u.section.kind = kind;
    it->u.section.entries = entries;
    return it;
}

AstItem *ast_section_attrs(Arena *a, SrcSpan sp, AstSectionKind kind, PtrVec entries,
                           PtrVec attrs)
{
    AstItem *it = ast_section(a, sp, kind, entries);
    it->u.section.attrs = attrs;
    SymMap seen = {0};
    for (int i = 0; i < attrs.n; i++) {
        AstArg *g = attrs.items[i];
        if (symmap_get(&seen, g->name))
            diag_error(g->name_span, "attribute '%s' is given twice", g->name->name);
        symmap_put(&seen, g->name, g);
    }
    symmap_free(&seen);
    return it;
}

AstItem *ast_item_if(Arena *a, SrcSpan sp, PtrVec clauses)
{
    AstItem *it = arena_alloc(a, sizeof *it);
    it->kind = ITEM_IF;
    it->span = sp;
    it->u.if_.clauses = clauses;
    return it;
}

AstDef *ast_def(Arena *a, SrcSpan sp, AstDefKind kind, SrcSpan name_sp,
                Sym *name, PtrVec items)
{
    AstDef *d = arena_alloc(a, sizeof *d);
    d->kind = kind;
    d->name = name;
    d->name_span = name_sp;
    d->span = sp;
    d->items = items;
    return d;
}

AstDef *ast_component_head(Arena *a, SrcSpan name_sp, Sym *name, PtrVec attrs, AstExpr *base)
{
    AstDef *d = ast_def(a, name_sp, DEF_COMPONENT, name_sp, name, (PtrVec){0});
    d->attrs = attrs;
    d->base = base;
    return d;
}

AstDef *ast_def_body(AstDef *d, SrcSpan sp, PtrVec items)
{
    d->span = sp;
    d->items = items;
    d->own_items = items;
    return d;
}

AstItem *ast_setup(Arena *a, SrcSpan sp, PtrVec body)
{
    AstItem *it = arena_alloc(a, sizeof *it);
    it->kind = ITEM_SETUP;
    it->span = sp;
    it->u.setup.body = body;
    return it;
}

AstStmt *ast_assign(Arena *a, SrcSpan sp, AstExpr *name, AstExpr *value)
{
    AstStmt *s = arena_alloc(a, sizeof *s);
    s->kind = STMT_ASSIGN;
    s->span = sp;
    s->u.eq.lhs = name;
    s->u.eq.rhs = value;
    return s;
}

AstStmt *ast_call_stmt(Arena *a, SrcSpan sp, AstExpr *call)
{
    AstStmt *s = arena_alloc(a, sizeof *s);
    s->kind = STMT_CALL;
    s->span = sp;
    s->u.eq.lhs = call;
    s->u.eq.rhs = NULL;
    return s;
}

AstDef *ast_function(Arena *a, SrcSpan sp, SrcSpan name_sp, Sym *name,
                     PtrVec outputs, PtrVec inputs, PtrVec defs)
{
    AstDef *d = ast_def(a, sp, DEF_FUNCTION, name_sp, name, (PtrVec){0});
    d->outputs = outputs;
    d->inputs = inputs;
    d->defs = defs;
    return d;
}

void ast_each_child(AstExpr *e, void (*fn)(AstExpr **slot, void *ctx), void *ctx)
{
#define CHILD(x) do { if (x) fn(&(x), ctx); } while (0)
    switch (e->kind) {
    case EXPR_DER: CHILD(e->u.der.arg); break;
    case EXPR_UNARY: CHILD(e->u.unary.arg); break;
    case EXPR_QUANTITY: CHILD(e->u.quantity.value); break;
    case EXPR_BINARY:
        CHILD(e->u.binary.lhs);
        CHILD(e->u.binary.rhs);
        break;
    case EXPR_IF:
        CHILD(e->u.cond.cond);
        CHILD(e->u.cond.then);
        CHILD(e->u.cond.els);
        break;
    case EXPR_CALL:
        for (int i = 0; i < e->u.call.args.n; i++)
            CHILD(*(AstExpr **)&e->u.call.args.items[i]);
        CHILD(e->u.call.callee);
        break;
    case EXPR_NAME:
        for (int i = 0; i < e->u.name.n; i++)
            for (int j = 0; j < e->u.name.parts[i].nindex; j++)
                CHILD(e->u.name.parts[i].index[j]);
        break;
    case EXPR_MATRIX:
        for (int i = 0; i < e->u.matrix.rows.n; i++) {
            PtrVec *row = e->u.matrix.rows.items[i];
            for (int j = 0; j < row->n; j++)
                CHILD(*(AstExpr **)&row->items[j]);
        }
        break;
    case EXPR_RANGE:
        CHILD(e->u.range.first);
        CHILD(e->u.range.step);
        CHILD(e->u.range.last);
        break;
    case EXPR_OPTION: CHILD(e->u.option.value); break;
    case EXPR_RECORD:
        for (int i = 0; i < e->u.record.n; i++)
            CHILD(e->u.record.fields[i].value);
        break;
    default: /* leaves */
        break;
    }
#undef CHILD
}

/* Whether a declaration's value is written as an array: a matrix literal
   of more than one element, or zeros/ones (of any size but 1), in a
   quantity or a record's value field. */
bool ast_written_as_array(const AstExpr *v)
{
    if (v && v->kind == EXPR_RECORD)
        v = ast_record_field((AstExpr *)v, "value");
    if (v && v->kind == EXPR_QUANTITY)
        v = v->u.quantity.value;
    while (v && v->kind == EXPR_UNARY)
        v = v->u.unary.arg;
    if (!v)
        return false;
    if (v->kind == EXPR_BINARY)
        return ast_written_as_array(v->u.binary.lhs) || ast_written_as_array(v->u.binary.rhs);
    if (v->kind == EXPR_MATRIX)
        return v->u.matrix.rows.n > 1
               || (v->u.matrix.rows.n == 1 && ((PtrVec *)v->u.matrix.rows.items[0])->n > 1);
    if (v->kind == EXPR_CALL && v->u.call.func
        && (!strcmp(v->u.call.func->name, "zeros") || !strcmp(v->u.call.func->name, "ones"))) {
        for (int i = 0; i < v->u.call.args.n; i++) {
            AstExpr *a = v->u.call.args.items[i];
            if (a->kind != EXPR_NUM || a->u.num.value != 1)
                return true;
        }
    }
    return false;
}

bool ast_any_unit(const AstExpr *e)
{
    return e->kind == EXPR_QUANTITY && e->u.quantity.unit[0] == '*';
}

int ast_call_positional(const AstExpr *call, AstExpr **out, int cap)
{
    int n = 0;
    for (int i = 0; i < call->u.call.args.n; i++) {
        AstExpr *a = call->u.call.args.items[i];
        if (a->kind != EXPR_OPTION && n < cap)
            out[n] = a;
        n += a->kind != EXPR_OPTION;
    }
    return n;
}

AstExpr *ast_record_field(AstExpr *e, const char *name)
{
    if (e->kind != EXPR_RECORD)
        return strcmp(name, "value") == 0 ? e : NULL;
    for (int i = 0; i < e->u.record.n; i++)
        if (!strcmp(e->u.record.fields[i].name->name, name))
            return e->u.record.fields[i].value;
    return NULL;
}

bool ast_is_simple_name(const AstExpr *e)
{
    return e->kind == EXPR_NAME && e->u.name.n == 1;
}

char *ast_name_text(Arena *a, const AstExpr *e)
{
    if (e->kind == EXPR_REF)
        return arena_strdup(a, "*");
    if (e->kind != EXPR_NAME)
        return arena_strdup(a, "?");
    /* an indexed name reads as written: m(i+1).P */
    SrcFile *f = src_get(e->span.file);
    for (int i = 0; i < e->u.name.n; i++)
        if (e->u.name.parts[i].nindex && f && e->span.end <= f->len)
            return arena_strndup(a, f->text + e->span.begin, e->span.end - e->span.begin);
    size_t len = 0;
    for (int i = 0; i < e->u.name.n; i++)
        len += e->u.name.parts[i].sym->len + 1;
    char *s = arena_alloc(a, len + 1), *p = s;
    for (int i = 0; i < e->u.name.n; i++) {
        if (i)
            *p++ = '.';
        memcpy(p, e->u.name.parts[i].sym->name, e->u.name.parts[i].sym->len);
        p += e->u.name.parts[i].sym->len;
    }
    *p = 0;
    return s;
}
