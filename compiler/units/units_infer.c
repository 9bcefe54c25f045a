/*
 * units_infer.c - the dimensions of the instance tree, which elaboration
 * leaves open: every declared member's (from its declaration, or for a
 * {v, '*'} parameter from its binding), every untyped port's (inferred),
 * and every dimension elaboration recorded for what it made (run-time
 * parameters, variables, tables: units_fill_dims), so that what the DAE
 * holds has its dimensions once this pass has run.
 */
#include "units_internal.h"

#include <string.h>

/* ---- unit inference ------------------------------------------------------------

   An untyped input (`inputs u; end`) has the unit of what drives it: the
   value bound in the instantiation, the source connected to it, or
   dimensionless when unconnected.  An untyped output (`outputs y; end`)
   has the unit of its defining equation, `y == e` or `der(y) == e` (the
   first one among the component's active equations, also inside let and
   if-equations), or of the child output a composite's connection drives
   it from.  The units are inferred per instance, on demand: an instance's
   equations may need the units of its untyped ports, which may need
   those of other instances.  A port reached again while it is being
   inferred (a loop of untyped blocks) is `unknown`, which fits anything
   for now and is not cached; rounds over every untyped port repeat while
   they make progress, and a port still unknown after that (a loop with no
   unit anywhere) is dimensionless. */

enum { INFER_DEPTH = 1000 };    /* deeper chains finish in later rounds */

static DimInfo defining_dim(Model *m, ElabInst *in, PtrVec *stmts, Sym *name, int depth,
                            bool *found)
{
    for (int i = 0; i < stmts->n && !*found; i++) {
        AstStmt *st = stmts->items[i];
        if (st->kind == STMT_EQUATION) {
            AstExpr *l = st->u.eq.lhs, *r = st->u.eq.rhs;
            for (int side = 0; side < 2; side++, l = st->u.eq.rhs, r = st->u.eq.lhs) {
                bool der = l->kind == EXPR_DER;
                AstExpr *v = der ? l->u.der.arg : l;
                if (!ast_is_simple_name(v) || v->u.name.parts[0].sym != name)
                    continue;
                *found = true;
                DimInfo d = ud_dim_of(m, in, r, depth + 1);
                if (der && d.ok && !d.unknown && !d.is_bool) {
                    Dim s = dim_none();
                    s.e[2] = RT_DIM_DEN;
                    return ud_ranged(r, dim_mul(d.dim, s));
                }
                return d;
            }
        } else if (st->kind == STMT_LET) {
            UnitLocal *saved = m->ulocals;
            ud_local_defs_dims(m, in, &st->u.let_.defs, depth);
            DimInfo d = defining_dim(m, in, &st->u.let_.body, name, depth, found);
            m->ulocals = saved;
            if (*found)
                return d;
        } else if (st->kind == STMT_IF && st->u.if_.clauses.n > 0) {
            AstClause *c = st->u.if_.clauses.items[0];
            DimInfo d = defining_dim(m, in, &c->body, name, depth, found);
            if (*found)
                return d;
        }
    }
    return ud_failed();
}

typedef struct DefSearch {
    Sym *name;              /* the output, or the event variable */
    int depth;              /* of the inference */
    bool found;             /* an equation defines it */
    DimInfo dim;            /* its dimension */
    bool event;             /* an event variable: a when's assignment does */
} DefSearch;

/* An untyped event variable's unit: that of the first value a `when`
   assigns it (y_held = U). */
static DimInfo assigned_dim(Model *m, ElabInst *in, PtrVec *whens, Sym *name, int depth,
                            bool *found)
{
    for (int i = 0; i < whens->n && !*found; i++) {
        AstStmt *st = whens->items[i];
        if (st->kind != STMT_WHEN)
            continue;
        for (int j = 0; j < st->u.if_.clauses.n && !*found; j++) {
            AstClause *c = st->u.if_.clauses.items[j];
            for (int k = 0; k < c->body.n; k++) {
                AstDecl *a = c->body.items[k];
                if (a->name == name) {
                    *found = true;
                    return ud_dim_of(m, in, a->value, depth + 1);
                }
            }
        }
    }
    return ud_failed();
}

static void search_section(Model *m, ElabInst *in, AstItem *it, void *ctx)
{
    DefSearch *ds = ctx;
    if (ds->found)
        return;
    if (it->u.section.kind == SEC_EQUATIONS && !ds->event)
        ds->dim = defining_dim(m, in, &it->u.section.entries, ds->name, ds->depth,
                               &ds->found);
    else if (it->u.section.kind == SEC_EVENTS && ds->event)
        ds->dim = assigned_dim(m, in, &it->u.section.entries, ds->name, ds->depth,
                               &ds->found);
}

AstArg *ud_argument_of(ElabInst *in, Sym *name)
{
    for (int i = 0; in->ast && i < in->ast->args.n; i++) {
        AstArg *g = in->ast->args.items[i];
        if (g->name == name)
            return g;
    }
    return NULL;
}

/* The unit of an untyped port of instance `in`, inferred. */
static DimInfo infer_port(Model *m, ElabInst *in, ElabSlot *s, int depth)
{
    if (s->dim_state == 2)
        return ud_ok_dim(s->dim);
    if (s->dim_state == 1 || depth > INFER_DEPTH)
        return ud_unknown();
    s->dim_state = 1;
    /* what drives a port is outside any let or function being checked */
    UnitLocal *usaved = m->ulocals;
    ElabLocal *lsaved = m->locals;
    m->ulocals = NULL;
    m->locals = NULL;
    DimInfo r = ud_ok_dim(dim_none());
    AstArg *g = s->m->kind == MEM_INPUT ? ud_argument_of(in, s->m->name) : NULL;
    if (g && in->parent) {
        r = ud_dim_of(m, in->parent, g->value, depth + 1);
    } else if (s->driver) {
        r = ud_slot_info(m, s->driver_owner, s->driver, depth + 1);
    } else if (s->m->kind == MEM_OUTPUT || (s->m->kind == MEM_VARIABLE && s->m->event)) {
        bool event = s->m->kind == MEM_VARIABLE;
        DefSearch ds = {s->m->name, depth, false, ud_failed(), event};
        elab_each_section(m, in, search_section, &ds);
        r = ds.dim;
        if (!ds.found && event) {
            diag_error(s->m->decl->name_span, "the unit of event variable '%s' of "
                       "component '%s' cannot be inferred: no when clause assigns it; "
                       "declare its unit, as in %s = {0, 'm'};", s->m->name->name,
                       in->def->ast->name->name, s->m->name->name);
            r = ud_failed();
        } else if (!ds.found) {
            diag_error(s->m->decl->name_span, "the unit of output '%s' of component "
                       "'%s' cannot be inferred: no equation defines it as '%s == "
                       "...'; declare its unit, as in %s = {0, 'm'};", s->m->name->name,
                       in->def->ast->name->name, s->m->name->name, s->m->name->name);
            r = ud_failed();
        }
    }
    m->ulocals = usaved;
    m->locals = lsaved;
    s->dim_state = 0;
    if (r.ok && r.unknown)
        return r;
    s->dim_state = 2;
    s->dim = r.ok && !r.is_bool ? r.dim : dim_none();
    return r.ok ? ud_ok_dim(s->dim) : r;
}

/* The dimension of a member declared with its unit: its declaration's
   value's (a variable's value field), and for a {v, '*'} parameter bound
   by its instantiation, the binding's (read in the parent, with the loop
   variables it was made with).  A member reached again while it is being
   computed (a declaration that reads itself) fits anything. */
static DimInfo type_slot(Model *m, ElabInst *owner, ElabSlot *s, int depth)
{
    if (s->dim_state == 1)
        return ud_unknown();
    if (s->dim_state == 0) {
        s->dim_state = 1;
        /* a declaration is outside any let or function being checked */
        UnitLocal *usaved = m->ulocals;
        ElabLocal *lsaved = m->locals;
        m->ulocals = NULL;
        m->locals = NULL;
        AstDecl *d = s->m->decl;
        AstExpr *val = !d ? NULL
                       : s->m->kind == MEM_VARIABLE || s->m->kind == MEM_OUTPUT
                           ? ast_record_field(d->value, "value")
                           : d->value;
        DimInfo r = val ? ud_dim_of(m, owner, val, depth + 1) : ud_ok_dim(dim_none());
        s->is_bool = r.ok && r.is_bool;
        s->dim = r.ok && !r.is_bool ? r.dim : dim_none();
        AstArg *g = s->any_unit ? ud_argument_of(owner, s->m->name) : NULL;
        if (g && owner->parent) {
            ElabInst *p = owner->parent;
            const ElabEnv *env = p->env;
            p->env = owner->parent_env;
            DimInfo b = ud_dim_of(m, p, g->value, depth + 1);
            p->env = env;
            if (b.ok && !b.is_bool && !b.unknown)
                s->dim = b.dim;
        }
        m->ulocals = usaved;
        m->locals = lsaved;
        s->dim_state = 2;
    }
    DimInfo r = {s->dim, s->is_bool, s->fits_any, true, false};
    return r;
}

DimInfo ud_slot_info(Model *m, ElabInst *owner, ElabSlot *s, int depth)
{
    if (s->untyped)
        return infer_port(m, owner, s, depth);
    return type_slot(m, owner, s, depth);
}

void ud_infer_all(Model *m)
{
    bool progress = true, left = true;
    for (int round = 0; left && progress; round++) {
        progress = left = false;
        for (int i = 0; i < m->insts.n; i++) {
            ElabInst *in = m->insts.items[i];
            for (int j = 0; j < in->def->member_list.n; j++) {
                ElabSlot *s = &in->slots[j];
                if (!s->active || !s->untyped || s->dim_state == 2)
                    continue;
                infer_port(m, in, s, 0);
                if (s->dim_state == 2)
                    progress = true;
                else
                    left = true;
            }
        }
    }
    for (int i = 0; left && i < m->insts.n; i++) {
        ElabInst *in = m->insts.items[i];
        for (int j = 0; j < in->def->member_list.n; j++) {
            ElabSlot *s = &in->slots[j];
            if (s->active && s->untyped && s->dim_state != 2)
                s->dim_state = 2; /* a loop with no unit in it: dimensionless */
        }
    }
}

void ud_type_all(Model *m)
{
    for (int i = 0; i < m->insts.n; i++) {
        ElabInst *in = m->insts.items[i];
        for (int j = 0; j < in->def->member_list.n; j++) {
            ElabSlot *s = &in->slots[j];
            if (!s->active)
                continue;
            switch (s->m->kind) {
            case MEM_PARAMETER: case MEM_VARIABLE: case MEM_OUTPUT: case MEM_INPUT:
                ud_slot_info(m, in, s, 0);
                break;
            default:
                break;
            }
        }
    }
}

/* ---- the dimensions elaboration recorded ------------------------------------- */

void units_fill_dims(Model *m)
{
    for (; m->dim_done < m->dim_todo.n; m->dim_done++) {
        ElabDimTodo *t = m->dim_todo.items[m->dim_done];
        DimInfo r;
        if (t->slot) {
            r = ud_slot_info(m, t->in, t->slot, 0);
        } else {
            /* read as lowering read it: with its loop variables and the
               let and function names it saw */
            const ElabEnv *env = t->in->env;
            ElabLocal *locals = m->locals;
            UnitLocal *ulocals = m->ulocals;
            t->in->env = t->env;
            m->locals = t->locals;
            m->ulocals = NULL;
            r = ud_dim_of(m, t->in, t->expr, 0);
            t->in->env = env;
            m->locals = locals;
            m->ulocals = ulocals;
        }
        *t->dim = r.ok && !r.is_bool && !r.unknown ? r.dim : dim_none();
        if (t->is_bool)
            *t->is_bool = r.ok && r.is_bool;
    }
}
