/*
 * ast_events.c - the syntax of events and mode charts: the builders the
 * grammar's actions call (their dump is ast_dump.c's).
 *
 * A mode and a mode chart are built part by part as the grammar reads
 * their sections (a chart's modes, transitions and initial sections may
 * come in any order and repeat), so every grammar action stays one call.
 */
#include "ast.h"

#include <string.h>

bool ast_section_is_decls(AstSectionKind k)
{
    return k != SEC_COMPONENTS && k != SEC_BRANCHES && k != SEC_CONNECTIONS
           && k != SEC_EQUATIONS && k != SEC_EVENTS && k != SEC_MODECHARTS
           && k != SEC_ANNOTATIONS;
}

AstStmt *ast_when(Arena *a, SrcSpan sp, PtrVec clauses)
{
    AstStmt *s = ast_stmt_if(a, sp, clauses);   /* the same clauses */
    s->kind = STMT_WHEN;
    return s;
}

AstMode *ast_mode_new(Arena *a)
{
    AstMode *m = arena_alloc(a, sizeof *m);
    m->eqs_span = src_none;
    return m;
}

static void append(Arena *a, PtrVec *to, PtrVec from)
{
    for (int i = 0; i < from.n; i++)
        ptrvec_push(a, to, from.items[i]);
}

AstMode *ast_mode_entry(Arena *a, AstMode *m, PtrVec entry)
{
    append(a, &m->entry, entry);
    return m;
}

AstMode *ast_mode_equations(Arena *a, AstMode *m, SrcSpan sp, PtrVec eqs)
{
    if (m->eqs_span.file < 0)
        m->eqs_span = sp;
    append(a, &m->eqs, eqs);
    return m;
}

AstMode *ast_mode_finish(AstMode *m, SrcSpan sp, SrcSpan name_sp, Sym *name)
{
    m->span = sp;
    m->name_span = name_sp;
    m->name = name;
    return m;
}

AstModeChart *ast_chart_new(Arena *a)
{
    return arena_alloc(a, sizeof(AstModeChart));
}

AstModeChart *ast_chart_modes(Arena *a, AstModeChart *c, PtrVec modes)
{
    append(a, &c->modes, modes);
    return c;
}

AstModeChart *ast_chart_transitions(Arena *a, AstModeChart *c, PtrVec ts)
{
    append(a, &c->transitions, ts);
    return c;
}

AstModeChart *ast_chart_initials(Arena *a, AstModeChart *c, PtrVec ts)
{
    append(a, &c->initials, ts);
    return c;
}

AstModeChart *ast_chart_finish(AstModeChart *c, SrcSpan sp, SrcSpan name_sp, Sym *name)
{
    c->span = sp;
    c->name_span = name_sp;
    c->name = name;
    return c;
}

AstTransition *ast_path_new(Arena *a, SrcSpan sp, Sym *first)
{
    AstTransition *t = arena_alloc(a, sizeof *t);
    return ast_path_add(a, t, sp, first);
}

AstTransition *ast_path_add(Arena *a, AstTransition *t, SrcSpan sp, Sym *next)
{
    AstNamePart *p = arena_alloc(a, sizeof *p * (size_t)(t->n + 1));
    if (t->n)
        memcpy(p, t->path, sizeof *p * (size_t)t->n);
    p[t->n].sym = next;
    p[t->n].span = sp;
    t->path = p;
    t->n++;
    return t;
}

AstTransition *ast_path_finish(AstTransition *t, SrcSpan sp, AstExpr *pred)
{
    t->span = sp;
    t->pred = pred;
    return t;
}
