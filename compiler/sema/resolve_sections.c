/*
 * resolve_sections.c - resolution (resolve.c): checking a definition's
 * sections, arm by arm: declarations and their values, instances and
 * their arguments, branches, connections, equations and the statements
 * in them, for-loops and conditional sections.
 */
#include "resolve_internal.h"

#include <string.h>

/* A declaration's right-hand side, by section. */

/* One `param = value` of a node declaration NAME = DOMAIN(param = value):
   a parameter of the domain, set to a value of parameters. */
static void check_domain_setting(Checker *c, SemaDef *dom, AstExpr *g)
{
    if (g->kind != EXPR_OPTION) {
        diag_error(g->span, "a node's domain takes parameter settings, NAME = value");
        return;
    }
    SemaMember *pm = sema_member(dom, g->u.option.name);
    if (!pm || pm->kind != MEM_PARAMETER) {
        PtrVec v = {0};
        for (int i = 0; i < dom->member_list.n; i++) {
            SemaMember *x = dom->member_list.items[i];
            if (x->kind == MEM_PARAMETER)
                ptrvec_push(c->p->arena, &v, (void *)x->name->name);
        }
        const char *s = diag_closest(g->u.option.name->name, (const char *const *)v.items, v.n);
        diag_error(g->u.option.name_span, "domain '%s' has no parameter '%s'%s",
                   dom->ast->name->name, g->u.option.name->name, diag_did_you_mean(s).text);
        return;
    }
    RefMode mode = c->mode;
    const char *what = c->what;
    c->mode = REF_VALUE;
    c->what = "a domain parameter's value";
    rs_check_expr(c, g->u.option.value);
    c->mode = mode;
    c->what = what;
}

static void check_decl(Checker *c, AstSectionKind k, AstDecl *dc, SemaMember *m)
{
    AstExpr *v = dc->value;
    if (dc->untyped && k != SEC_INPUTS && k != SEC_OUTPUTS
        && !(k == SEC_VARIABLES && m && m->event)) {
        diag_error(dc->name_span, "'%s' needs a value: only inputs, outputs and "
                   "event variables may be declared without one (their unit is "
                   "then inferred)", dc->name->name);
        return;
    }
    if (dc->output >= 0 && k != SEC_INTERMEDIATES) {
        if (dc->output == 0)
            diag_error(dc->span, "[a, b] = f(x) defines intermediates; it is "
                       "allowed in 'intermediates', 'let' and a function's "
                       "definitions, not in '%s'", ast_section_names[k]);
        return;
    }
    switch (k) {
    case SEC_NODES: {
        if (dc->index.n)
            rs_check_index_exprs(c, (AstExpr **)dc->index.items, dc->index.n);
        /* NAME = DOMAIN(param = value, ...): the node sets the domain's
           parameters for its network */
        PtrVec *settings = NULL;
        if (v->kind == EXPR_CALL && !v->parens && v->u.call.callee
            && v->u.call.callee->kind == EXPR_NAME) {
            settings = &v->u.call.args;
            v = v->u.call.callee;
        }
        if (v->kind != EXPR_NAME || v->parens) {
            diag_error(v->span, "a node is declared as NAME = DOMAIN; or NAME = "
                       "DOMAIN(param = value);");
            return;
        }
        /* foundation.mechanical.translational.translational style: a
           package-qualified domain */
        bool qual = v->u.name.n > 1;
        Sym *dn = v->u.name.parts[v->u.name.n - 1].sym;
        SemaDef *t = qual ? sema_lookup_qualified(c->p, v, v->span.file)
                          : rs_lookup_at(c->p, dn, v->span.file, v->span);
        if (!t && qual) {
            const char *text = ast_name_text(c->p->arena, v);
            const char *s = rs_suggest_qualified(c->p, text);
            diag_error(v->span, "unknown domain '%s': there is no %s on the "
                       "search path%s", text, rs_package_path(c->p->arena, v),
                       diag_did_you_mean(s).text);
        } else if (!t) {
            const char *s = sema_suggest_def(c->p, dn->name);
            diag_error(v->span, "unknown domain '%s'%s", dn->name, diag_did_you_mean(s).text);
            sema_note_searched(c->p, "domain");
        } else if (t->ast->kind != DEF_DOMAIN) {
            diag_error(v->span, "'%s' is a %s, not a domain", dn->name, rs_def_kind_name(t));
            diag_note(t->ast->name_span, "'%s' is defined here", dn->name);
        } else {
            if (m)
                m->type = t;
            sema_resolve_def(c->p, t);
            for (int i = 0; settings && i < settings->n; i++)
                check_domain_setting(c, t, settings->items[i]);
        }
        return;
    }
    case SEC_VARIABLES: case SEC_OUTPUTS:
        c->mode = REF_VALUE;
        c->what = "a variable's value";
        break;
    case SEC_INPUTS:
        c->mode = REF_VALUE;
        c->what = "an input's default";
        break;
    case SEC_PARAMETERS:
        c->mode = REF_PARAMETER;
        c->what = "a parameter value";
        c->order = m ? m->order : 0;
        break;
    case SEC_ACROSS: case SEC_THROUGH:
        c->mode = REF_VALUE;
        c->what = "a domain variable's value";
        break;
    default: /* intermediates */
        c->mode = REF_EQUATION;
        c->what = "an intermediate";
        break;
    }
    if (v->kind == EXPR_RECORD && (k == SEC_VARIABLES || k == SEC_OUTPUTS))
        rs_check_record(c, v);
    else if (k == SEC_PARAMETERS && ast_any_unit(v))
        rs_check_expr(c, v->u.quantity.value);
    else if (dc->output <= 0)
        rs_check_expr(c, v);
    if (dc->output >= 0)
        rs_check_outputs(dc);
    c->mode = REF_EQUATION;
}

static SemaMember *member_in_scope(Checker *c, Sym *name)
{
    return rs_visible_somewhere(c->d, name, c->scope);
}

static void check_instance(Checker *c, AstInstance *in)
{
    SemaMember *m = member_in_scope(c, in->name);
    if (in->index.n)
        rs_check_index_exprs(c, (AstExpr **)in->index.items, in->index.n);
    SemaDef *t = in->type_qual ? sema_lookup_qualified(c->p, in->type_qual, in->type_span.file)
                               : rs_lookup_at(c->p, in->type, in->type_span.file, in->type_span);
    if (!t && in->type_qual) {
        const char *text = ast_name_text(c->p->arena, in->type_qual);
        const char *s = rs_suggest_qualified(c->p, text);
        diag_error(in->type_span, "unknown component '%s': there is no %s on "
                   "the search path%s", text, rs_package_path(c->p->arena, in->type_qual),
                   diag_did_you_mean(s).text);
        return;
    }
    if (!t) {
        const char *s = sema_suggest_def(c->p, in->type->name);
        diag_error(in->type_span, "unknown component '%s'%s", in->type->name,
                   diag_did_you_mean(s).text);
        sema_note_searched(c->p, "component");
        return;
    }
    if (t->ast->kind == DEF_FUNCTION) {
        diag_error(in->type_span, "'%s' is a function; only a component can be "
                   "instantiated (call a function in an expression)", in->type->name);
        return;
    }
    if (t->ast->kind != DEF_COMPONENT) {
        diag_error(in->type_span, "'%s' is a domain; instantiate a component "
                   "and declare nodes of a domain in 'nodes'", in->type->name);
        return;
    }
    if (t == c->d) {
        diag_error(in->type_span, "component '%s' cannot contain itself",
                   in->type->name);
        return;
    }
    if (m && m->inst == in)
        m->type = t;
    sema_resolve_def(c->p, t);
    for (int i = 0; i < in->args.n; i++) {
        AstArg *g = in->args.items[i];
        SemaMember *target = sema_member(t, g->name);
        if (!target || (target->kind != MEM_PARAMETER && target->kind != MEM_INPUT
                        && target->kind != MEM_VARIABLE && target->kind != MEM_OUTPUT)) {
            PtrVec v = {0};
            for (int j = 0; j < t->member_list.n && !diag_too_many(); j++) {
                SemaMember *x = t->member_list.items[j];
                if (x->kind == MEM_PARAMETER || x->kind == MEM_INPUT
                    || x->kind == MEM_VARIABLE)
                    ptrvec_push(c->p->arena, &v, (void *)x->name->name);
            }
            const char *s = diag_closest(g->name->name, (const char *const *)v.items, v.n);
            if (target)
                diag_error(g->name_span, "'%s' is a %s of component '%s'; only "
                           "parameters, inputs and variables can be set here",
                           g->name->name, sema_member_kind_names[target->kind],
                           t->ast->name->name);
            else
                diag_error(g->name_span, "component '%s' has no parameter, input "
                           "or variable '%s'%s", t->ast->name->name,
                           g->name->name, diag_did_you_mean(s).text);
            diag_note(t->ast->name_span, "component '%s' is defined here",
                      t->ast->name->name);
            continue;
        }
        if (target->access == ACCESS_PRIVATE) {
            diag_error(g->name_span, "%s '%s' of component '%s' is private (Access "
                       "= private): it cannot be set from outside",
                       sema_member_kind_names[target->kind], g->name->name,
                       t->ast->name->name);
            diag_note(target->decl->name_span, "'%s' is declared here", g->name->name);
            continue;
        }
        if (target->external != EXT_MODIFY) {
            diag_error(g->name_span, "%s '%s' of component '%s' cannot be set from "
                       "outside (ExternalAccess = %s)", sema_member_kind_names[target->kind],
                       g->name->name, t->ast->name->name,
                       target->external == EXT_NONE ? "none" : "observe");
            diag_note(target->decl->name_span, "'%s' is declared here", g->name->name);
            continue;
        }
        c->mode = REF_ARGUMENT;
        c->what = "an instance argument";
        /* an argument converts as the member it sets does (Conversion) */
        ast_set_relative(g->value, target->relative);
        if (g->value->kind == EXPR_RECORD) {
            if (target->kind != MEM_VARIABLE && target->kind != MEM_OUTPUT)
                diag_error(g->value->span, "only a variable's target can be "
                           "overridden with {value = ..., priority = ...}; "
                           "'%s' is a %s", g->name->name,
                           sema_member_kind_names[target->kind]);
            else
                rs_check_record(c, g->value);
        } else {
            rs_check_expr(c, g->value);
        }
        c->mode = REF_EQUATION;
    }
}

/* `node.through` as a branch end. */
static void check_branch_end(Checker *c, AstExpr *e)
{
    if (e->kind == EXPR_REF)
        return;
    SemaMember *m = member_in_scope(c, e->u.name.parts[0].sym);
    if (!m || m->kind != MEM_NODE || e->u.name.n != 2) {
        diag_error(e->span, "a branch end is NODE.THROUGH (a node of this "
                   "component and its domain's through variable) or '*'");
        return;
    }
    if (!rs_check_part(c, m, &e->u.name.parts[0]))
        return;
    SemaMember *t = rs_resolve_tail(c, m, e, 1);
    if (t && t->kind != MEM_THROUGH)
        diag_error(e->u.name.parts[1].span, "'%s' is an across variable; a "
                   "branch names the through variable", t->name->name);
}

static void check_branch(Checker *c, AstBranch *b)
{
    if (!ast_is_simple_name(b->var)) {
        diag_error(b->var->span, "a branch carries a variable of this component");
    } else {
        SemaMember *m = member_in_scope(c, b->var->u.name.parts[0].sym);
        if (!m)
            rs_unknown_member(c, c->d, &b->var->u.name.parts[0], NULL, false);
        else if (m->kind != MEM_VARIABLE)
            diag_error(b->var->span, "a branch carries a variable, and '%s' is "
                       "a %s", m->name->name, sema_member_kind_names[m->kind]);
        else
            rs_check_part(c, m, &b->var->u.name.parts[0]);
    }
    check_branch_end(c, b->from);
    check_branch_end(c, b->to);
}

static void check_connect(Checker *c, AstConnect *cn)
{
    for (int i = 0; i < cn->ends.n; i++) {
        AstExpr *e = cn->ends.items[i];
        if (e->kind == EXPR_REF)
            continue;
        if (rs_loop_var_misused(c, e)) {
            diag_error(e->span, "'%s' is a loop variable; connect() joins "
                       "nodes, or an output to inputs", e->u.name.parts[0].sym->name);
            continue;
        }
        SemaMember *m = member_in_scope(c, e->u.name.parts[0].sym);
        if (!m) {
            rs_unknown_member(c, c->d, &e->u.name.parts[0], NULL, false);
            continue;
        }
        if (!rs_check_part(c, m, &e->u.name.parts[0]))
            continue;
        SemaMember *last = rs_resolve_tail(c, m, e, 1);
        if (last && last->kind != MEM_NODE && last->kind != MEM_INPUT
            && last->kind != MEM_OUTPUT) {
            char *t = ast_name_text(c->p->arena, e);
            diag_error(e->span, "'%s' is a %s; connect() joins nodes, or an "
                       "output to inputs", t, sema_member_kind_names[last->kind]);
        }
    }
}

static void check_stmt(Checker *c, AstStmt *s)
{
    switch (s->kind) {
    case STMT_EQUATION:
        rs_check_expr(c, s->u.eq.lhs);
        rs_check_expr(c, s->u.eq.rhs);
        break;
    case STMT_ASSERT:
        rs_check_expr(c, s->u.assert_.cond);
        for (int i = 0; i < s->u.assert_.opts.n; i++) {
            AstExpr *o = s->u.assert_.opts.items[i];
            const char *n = o->u.option.name->name;
            if (strcmp(n, "Warn") && strcmp(n, "Action")) {
                diag_error(o->u.option.name_span, "an assert takes Warn = true|false or "
                           "Action = simscape.enum.assert.action.none|warn|error, not "
                           "'%s'", n);
                continue;
            }
            RefMode mode = c->mode;
            const char *what = c->what;
            c->mode = REF_VALUE;
            c->what = "an assert's option";
            rs_check_expr(c, o->u.option.value);
            c->mode = mode;
            c->what = what;
        }
        break;
    case STMT_IF:
        for (int i = 0; i < s->u.if_.clauses.n; i++) {
            AstClause *cl = s->u.if_.clauses.items[i];
            if (cl->cond)
                rs_check_expr(c, cl->cond);
            rs_check_stmts(c, &cl->body);
        }
        break;
    case STMT_LET:
        rs_check_let(c, s);
        break;
    case STMT_FOR:
        if (c->d->ast->kind == DEF_DOMAIN) {
            diag_error(s->span, "a domain's equations cannot have for-loops");
            break;
        }
        rs_check_range(c, &s->u.for_);
        rs_push_loop_var(c, &s->u.for_);
        rs_check_stmts(c, &s->u.for_.body);
        c->loops.n--;
        break;
    default:
        break;
    }
}

void rs_check_stmts(Checker *c, PtrVec *v)
{
    for (int i = 0; i < v->n; i++)
        check_stmt(c, v->items[i]);
}

/* Checks the items of one arm, then the arms nested in it. */
void rs_check_items(Checker *c, PtrVec *items, int scope)
{
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind != ITEM_SECTION)
            continue;
        AstSectionKind k = it->u.section.kind;
        if (!rs_section_allowed(c->d->ast->kind, k))
            continue;
        c->scope = scope;
        PtrVec *v = &it->u.section.entries;
        for (int j = 0; j < v->n; j++) {
            switch (k) {
            case SEC_COMPONENTS: check_instance(c, v->items[j]); break;
            case SEC_BRANCHES: check_branch(c, v->items[j]); break;
            case SEC_CONNECTIONS: check_connect(c, v->items[j]); break;
            case SEC_EQUATIONS: check_stmt(c, v->items[j]); break;
            case SEC_EVENTS: rs_check_when(c, v->items[j]); break;
            case SEC_MODECHARTS: rs_check_chart(c, v->items[j]); break;
            default: {
                AstDecl *dc = v->items[j];
                SemaMember *m = member_in_scope(c, dc->name);
                check_decl(c, k, dc, m && m->decl == dc ? m : NULL);
                break;
            }
            }
        }
    }
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind == ITEM_FOR && c->d->ast->kind != DEF_DOMAIN) {
            c->scope = scope;
            rs_check_range(c, &it->u.for_);
            rs_push_loop_var(c, &it->u.for_);
            rs_check_items(c, &it->u.for_.body, scope);
            c->loops.n--;
            continue;
        }
        if (it->kind != ITEM_IF || c->d->ast->kind == DEF_DOMAIN)
            continue;
        for (int j = 0; j < it->u.if_.clauses.n; j++) {
            AstClause *cl = it->u.if_.clauses.items[j];
            if (cl->cond) {
                c->scope = scope;
                /* an arm of -1: an if in a for-loop, already an error */
                int arm0 = ((AstClause *)it->u.if_.clauses.items[0])->arm;
                c->mode = arm0 >= 0 ? REF_GUARD : REF_CONDITION;
                c->order = arm0 >= 0 ? c->d->scope_order[arm0] : 0;
                c->what = "the condition of a conditional section";
                rs_check_expr(c, cl->cond);
                c->mode = REF_EQUATION;
            }
            rs_check_items(c, &cl->body, cl->arm);
        }
    }
}
