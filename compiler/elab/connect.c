/*
 * connect.c - elaboration's connection step: every connect() of every
 * instance's active sections, once the tree is built.  Nodes are joined
 * by union-find, and the connected nodes become node sets, each not
 * joined to '*' with one copy of its domain's across variables (named
 * after every port on it), built here so that lowering NODE.x never meets
 * a node without its set.  Signal connections bind inputs to the outputs
 * (or inputs) driving them, and a composite's own output driven by a
 * child's becomes an equation; the units of both ends are the unit
 * check's (ElabLink).  Unconnected inputs then take their defaults.
 */
#include "elab_internal.h"

#include "diag.h"
#include "lower.h"

#include <string.h>

static void unite(Model *m, int a, int b)
{
    a = elab_find(m, a);
    b = elab_find(m, b);
    if (a == b)
        return;
    if (m->nodes[a].rank < m->nodes[b].rank) {
        int t = a;
        a = b;
        b = t;
    }
    m->nodes[b].parent = a;
    if (m->nodes[a].rank == m->nodes[b].rank)
        m->nodes[a].rank++;
    m->nodes[a].reference |= m->nodes[b].reference;
}

/* One end of a connect(), resolved. */
typedef struct End {
    AstExpr *ast;           /* as written */
    ElabSlot *slot;         /* node, input or output; NULL for '*' */
    ElabInst *owner;        /* instance of the slot */
    bool own;               /* the slot belongs to the connecting component */
} End;

static const char *end_text(Model *m, End *e)
{
    return ast_name_text(m->arena, e->ast);
}

/* A top-level input has nothing to bind it: it becomes a run-time
   parameter marked as an input, its declared value the default, so that
   --param and an FMU's fmi2SetReal can change it (docs/fmi.md); a vector
   input one per element, u(1) .... */
static void top_input(Model *m, ElabInst *in, ElabSlot *s)
{
    LowerValue v = lower_value(m, in, s->m->decl->value);
    const char *name = elab_qualify(m, in, s->m->decl->name->name);
    int n = v.rows * v.cols;
    LowerValue p = lower_value_new(m, v.rows, v.cols);
    for (int k = 0; k < n; k++) {
        int q = elab_new_param(m, n == 1 && v.rows == 1 ? name
                                   : elab_element_name(m, name, k, v.rows, v.cols),
                               s->m->decl->span, v.el[k]);
        if (k == 0)
            s->param = q;
        DaeParam *dp = elab_param(m, q);
        dp->input = true;
        elab_dim_of_slot(m, &dp->dim, &dp->is_bool, in, s);
        p.el[k] = dae_param(m->t, q);
    }
    lower_set_input(s, p);
}

/* The value of input s of `in`: its binding or connection, else (once
   the connections are known) its declared default. */
static LowerValue input_value(Model *m, ElabInst *in, ElabSlot *s)
{
    if (!s->input) {
        if (in == m->top)
            top_input(m, in, s);
        else
            lower_set_input(s, lower_value(m, in, s->m->decl->value));
    }
    return lower_slot_value(m, in, s);
}

/* A vector input bound or connected to a value of another size than its
   declaration's is an error at `at`. */
static void check_input_size(Model *m, ElabInst *in, ElabSlot *s, SrcSpan at)
{
    AstExpr *decl = s->m->decl ? s->m->decl->value : NULL;
    if (!decl || (!s->vec && !ast_written_as_array(decl)))
        return;
    LowerValue d = lower_value(m, in, decl);
    int rows = s->vec ? s->rows : 1, cols = s->vec ? s->cols : 1;
    if (d.rows * d.cols == rows * cols && (d.rows == rows || d.rows == cols))
        return;
    char a[64], b[64];
    diag_error(at, "input '%s' is declared as a %s, but this gives it a %s",
               s->m->name->name, lower_size_text(a, sizeof a, d.rows, d.cols),
               lower_size_text(b, sizeof b, rows, cols));
    diag_note(s->m->decl->span, "'%s' is declared here", s->m->name->name);
}

static void connect_signals(Model *m, ElabInst *in, End *ends, int n, AstConnect *c)
{
    End *src = NULL;
    for (int i = 0; i < n; i++) {
        End *e = &ends[i];
        bool is_src = (e->slot->m->kind == MEM_OUTPUT && !e->own)
                      || (e->slot->m->kind == MEM_INPUT && e->own);
        if (!is_src)
            continue;
        if (src) {
            diag_error(e->ast->span, "cannot connect two outputs, '%s' and '%s'; "
                       "one output drives one or more inputs",
                       end_text(m, src), end_text(m, e));
            return;
        }
        src = e;
    }
    if (!src) {
        diag_error(c->span, "this connection has no output to drive its inputs");
        return;
    }
    /* a vector output drives a vector input element by element */
    LowerValue value = src->slot->m->kind == MEM_OUTPUT
                           ? lower_slot_value(m, src->owner, src->slot)
                           : input_value(m, src->owner, src->slot);
    for (int i = 0; i < n; i++) {
        End *e = &ends[i];
        if (e == src)
            continue;
        e->slot->driver = src->slot;
        e->slot->driver_owner = src->owner;
        /* the units of its ends are checked by the unit check */
        ElabLink *l = arena_alloc(m->arena, sizeof *l);
        *l = (ElabLink){src->slot, e->slot, src->owner, e->owner, end_text(m, src),
                        end_text(m, e), e->ast->span};
        ptrvec_push(m->arena, &m->links, l);
        if (e->slot->m->kind == MEM_OUTPUT) {
            /* The composite's own output follows the child's. */
            LowerValue own = lower_slot_value(m, e->owner, e->slot);
            if (own.rows * own.cols != value.rows * value.cols) {
                char a[64], b[64];
                diag_error(e->ast->span, "output '%s' is a %s, but '%s' is a %s",
                           end_text(m, e), lower_size_text(a, sizeof a, own.rows, own.cols),
                           end_text(m, src),
                           lower_size_text(b, sizeof b, value.rows, value.cols));
                continue;
            }
            for (int k = 0; k < own.rows * own.cols; k++) {
                ElabConnEq *q = arena_alloc(m->arena, sizeof *q);
                q->lhs = own.el[k];
                q->rhs = value.el[k];
                q->in = in;
                q->span = c->span;
                ptrvec_push(m->arena, &m->conn_eqs, q);
            }
            continue;
        }
        if (e->slot->input) {
            diag_error(e->ast->span, "input '%s' is already bound", end_text(m, e));
            if (e->slot->bound_at.file >= 0)
                diag_note(e->slot->bound_at, "it is bound here");
            continue;
        }
        lower_set_input(e->slot, value);
        e->slot->bound_at = e->ast->span;
        check_input_size(m, e->owner, e->slot, e->ast->span);
    }
}

/* Keeps what a connect() of nodes joined (inst.h, ElabConnect). */
static void record_connect(Model *m, ElabInst *in, AstConnect *c, End *ends, int n)
{
    ElabConnect *k = arena_alloc(m->arena, sizeof *k);
    k->span = c->span;
    k->in = in;
    k->node = arena_alloc(m->arena, sizeof(int) * (size_t)(n + 1));
    k->own = arena_alloc(m->arena, sizeof(bool) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        if (!ends[i].slot)
            continue;
        k->node[k->n] = ends[i].slot->node;
        k->own[k->n++] = ends[i].own;
    }
    ptrvec_push(m->arena, &m->connects, k);
}

static void connect_one(Model *m, ElabInst *in, AstConnect *c)
{
    int n = c->ends.n;
    End *ends = arena_alloc(m->arena, sizeof(End) * (size_t)(n + 1));
    int nodes = 0, signals = 0, refs = 0;
    for (int i = 0; i < n; i++) {
        AstExpr *a = c->ends.items[i];
        ends[i].ast = a;
        if (a->kind == EXPR_REF) {
            refs++;
            continue;
        }
        SemaMember *nm = NULL;
        ElabInst *owner = in;
        ElabSlot *s = lower_resolve(m, in, a, &owner, &nm);
        if (!s)
            return;
        ends[i].slot = s;
        ends[i].owner = owner;
        ends[i].own = owner == in;
        if (s->m->kind == MEM_NODE)
            nodes++;
        else
            signals++;
    }
    if (nodes && signals) {
        End *node = NULL, *sig = NULL;
        for (int i = 0; i < n; i++) {
            if (!ends[i].slot)
                continue;
            if (ends[i].slot->m->kind == MEM_NODE && !node)
                node = &ends[i];
            if (ends[i].slot->m->kind != MEM_NODE && !sig)
                sig = &ends[i];
        }
        diag_error(sig->ast->span, "cannot connect the %s '%s' to the node '%s'; "
                   "nodes connect to nodes, outputs to inputs",
                   sema_member_kind_names[sig->slot->m->kind], end_text(m, sig),
                   end_text(m, node));
        return;
    }
    if (signals) {
        if (refs) {
            diag_error(c->span, "'*' is the reference node; signals cannot connect to it");
            return;
        }
        connect_signals(m, in, ends, n, c);
        return;
    }
    End *first = NULL;
    for (int i = 0; i < n; i++) {
        End *e = &ends[i];
        if (!e->slot)
            continue;
        if (!first) {
            first = e;
            continue;
        }
        SemaDef *d1 = first->slot->m->type, *d2 = e->slot->m->type;
        if (d1 != d2) {
            diag_error(e->ast->span, "cannot connect '%s' (%s) to '%s' (%s): they "
                       "are nodes of different domains", end_text(m, e),
                       d2->ast->name->name, end_text(m, first), d1->ast->name->name);
            return;
        }
        unite(m, first->slot->node, e->slot->node);
    }
    if (first)
        record_connect(m, in, c, ends, n);
    if (first && refs)
        m->nodes[elab_find(m, first->slot->node)].reference = true;
    if (!first && refs)
        diag_error(c->span, "this connects only '*' to itself");
}

static void connect_section(Model *m, ElabInst *in, AstItem *it, void *ctx)
{
    (void)ctx;
    if (it->u.section.kind != SEC_CONNECTIONS)
        return;
    for (int j = 0; j < it->u.section.entries.n; j++)
        connect_one(m, in, it->u.section.entries.items[j]);
}

static const char *port_name(Model *m, ElabNode *n, const char *across)
{
    const char *parts[] = {n->inst->path, n->name->name, across};
    if (n->inst->path[0])
        return arena_dotted(m->arena, parts, 3);
    return arena_dotted(m->arena, parts + 1, 2);
}

/* The size of domain member dm: a vector domain variable or parameter
   is rows x cols (scope.c, elab_domain_inst). */
static int member_count(Model *m, SemaDef *dom, SemaMember *dm, int *rows, int *cols)
{
    ElabSlot *ds = elab_domain_slot(m, dom, dm);
    *rows = ds->vec ? ds->rows : 1;
    *cols = ds->vec ? ds->cols : 1;
    return *rows * *cols;
}

/* Connected nodes form sets (union-find roots, numbered in the order
   their first node was declared); each set not joined to '*' gets its
   across variables.  Built when the connections are joined, so that
   lowering NODE.x never meets a node without its set. */
static void make_sets(Model *m)
{
    int *set_of_root = arena_alloc(m->arena, sizeof(int) * (size_t)(m->nnodes + 1));
    for (int i = 0; i < m->nnodes; i++)
        set_of_root[i] = -1;
    for (int i = 0; i < m->nnodes; i++) {
        int r = elab_find(m, i);
        if (set_of_root[r] < 0) {
            ElabSet *s = arena_alloc(m->arena, sizeof *s);
            s->domain = m->nodes[i].domain;
            s->reference = m->nodes[r].reference;
            set_of_root[r] = m->sets.n;
            ptrvec_push(m->arena, &m->sets, s);
        }
        ElabSet *s = m->sets.items[set_of_root[r]];
        ptrvec_push(m->arena, &s->nodes, &m->nodes[i]);
        m->nodes[i].set = set_of_root[r];
    }
    for (int i = 0; i < m->nnodes; i++)
        m->nodes[elab_find(m, i)].set = m->nodes[i].set;
    for (int k = 0; k < m->sets.n; k++) {
        ElabSet *s = m->sets.items[k];
        ElabNode *first = s->nodes.items[0];
        s->name = first->inst->path[0]
                      ? arena_dotted(&m->dae_arena,
                                     (const char *const[]){first->inst->path,
                                                           first->name->name}, 2)
                      : elab_dae_str(m, first->name->name);
        int nm = s->domain->member_list.n;
        s->across_var = arena_alloc(m->arena, sizeof(int) * (size_t)(nm + 1));
        if (s->reference)
            continue;
        ElabInst *din = elab_domain_inst(m, s->domain);
        for (int j = 0; j < nm; j++) {
            SemaMember *am = s->domain->member_list.items[j];
            s->across_var[j] = -1;
            if (am->kind != MEM_ACROSS)
                continue;
            /* a vector domain variable: one unknown per element, made
               consecutively, named x(1) ... */
            int rows, cols;
            int count = member_count(m, s->domain, am, &rows, &cols);
            AstExpr *val = am->decl->value;
            LowerValue start = lower_value(m, din, val->kind == EXPR_RECORD
                                                      ? ast_record_field(val, "value") : val);
            s->across_var[j] = m->vars.n;
            for (int e = 0; e < count; e++) {
                ElabVar *v = arena_alloc(m->arena, sizeof *v);
                v->name = port_name(m, first, am->name->name);
                if (count > 1)
                    v->name = elab_element_name(m, v->name, e, rows, cols);
                for (int q = 0; q < s->nodes.n; q++) {
                    ElabNode *node = s->nodes.items[q];
                    const char *pn = port_name(m, node, am->name->name);
                    if (count > 1)
                        pn = elab_element_name(m, pn, e, rows, cols);
                    ptrvec_push(m->arena, &v->names, (void *)pn);
                    if (node->inst->external == EXT_NONE)
                        ptrvec_push(m->arena, &v->hidden, (void *)pn);
                }
                v->kind = VAR_NODE;
                v->span = am->decl->name_span;
                v->description = am->decl->comment;
                v->owner = first->inst;
                elab_dim_of_slot(m, &v->dim, NULL, din, &din->slots[j]);
                v->start = start.el && e < start.rows * start.cols ? start.el[e]
                                                                    : dae_const(m->t, 0);
                ptrvec_push(m->arena, &m->vars, v);
            }
        }
    }
}


/* ---- domain parameters ------------------------------------------------------

   A node reads its domain's parameters as NODE.param.  Their values are
   the network's: a node declaration NAME = DOMAIN(param = value) sets
   param for the node set it is in, and a set no declaration sets has the
   domain's default.  Two declarations of one set that set a parameter
   differently are an error.  A parameter read before the sets are known
   (by another parameter's value) gets the default, and its value is set
   once they are (connect.c, set_node_params). */

/* The `param = value` of node `n`'s declaration for member pm, or NULL. */
static AstExpr *node_setting(Model *m, ElabNode *n, SemaMember *pm)
{
    ElabSlot *s = elab_slot(n->inst, n->name);
    (void)m;
    if (!s || !s->m->decl)
        return NULL;
    AstExpr *v = s->m->decl->value;
    if (v->kind != EXPR_CALL)
        return NULL;
    for (int i = 0; i < v->u.call.args.n; i++) {
        AstExpr *g = v->u.call.args.items[i];
        if (g->kind == EXPR_OPTION && g->u.option.name == pm->name)
            return g->u.option.value;
    }
    return NULL;
}

static int group_find(int *g, int k)
{
    while (g[k] != k)
        k = g[k] = g[g[k]];
    return k;
}

/* The propagation groups of the sets: a component that propagates
   (every component but one declared with Propagation = blocks) joins the
   sets of its nodes of one domain. */
static void make_groups(Model *m)
{
    int n = m->sets.n;
    m->set_group = arena_alloc(m->arena, sizeof(int) * (size_t)(n + 1));
    for (int k = 0; k < n; k++)
        m->set_group[k] = k;
    for (int i = 0; i < m->insts.n; i++) {
        ElabInst *in = m->insts.items[i];
        if (in->def->propagation == SEMA_PROP_BLOCKS)
            continue;
        int first = -1;
        for (int j = 0; j < in->def->member_list.n; j++) {
            ElabSlot *sl = &in->slots[j];
            if (!sl->active || sl->m->kind != MEM_NODE || sl->node < 0 || sl->m->rank)
                continue;
            int k = m->nodes[elab_find(m, sl->node)].set;
            if (k < 0 || k >= n)
                continue;
            ElabSet *set = m->sets.items[k];
            if (first < 0) {
                first = k;
                continue;
            }
            ElabSet *f = m->sets.items[first];
            if (f->domain != set->domain)
                continue;
            m->set_group[group_find(m->set_group, k)] = group_find(m->set_group, first);
        }
    }
    /* each group's sets, as a chain from its root */
    m->group_next = arena_alloc(m->arena, sizeof(int) * (size_t)(n + 1));
    for (int k = 0; k < n; k++)
        m->group_next[k] = -1;
    for (int k = n - 1; k >= 0; k--) {
        int r = group_find(m->set_group, k);
        if (r != k) {
            m->group_next[k] = m->group_next[r];
            m->group_next[r] = k;
        }
    }
}

/* The value of domain parameter pm in the network of node `node` (the
   sets of its propagation group): the setting of a node declaration
   there, else the default.  Once per group and parameter. */
static LowerValue network_value(Model *m, int node, SemaMember *pm, SrcSpan at)
{
    ElabNode *root = &m->nodes[elab_find(m, node)];
    ElabInst *din = elab_domain_inst(m, root->domain);
    if (root->set < 0 || root->set >= m->sets.n || !m->set_group)
        return lower_value(m, din, pm->decl->value);
    int g = group_find(m->set_group, root->set);
    void *key = (void *)(intptr_t)(((intptr_t)g << 16) + pm->order + 1);
    LowerValue *known = ptrmap_get(&m->group_values, key);
    if (known)
        return *known;
    LowerValue v = {0, 0, NULL};
    SrcSpan first = src_none;
    bool conflict = false;
    for (int k = g; k >= 0 && !conflict; k = m->group_next[k]) {
        ElabSet *set = m->sets.items[k];
        for (int i = 0; i < set->nodes.n && !conflict; i++) {
            ElabNode *n = set->nodes.items[i];
            AstExpr *setting = node_setting(m, n, pm);
            if (!setting)
                continue;
            LowerValue x = lower_value(m, n->inst, setting);
            int rows, cols;
            int count = member_count(m, root->domain, pm, &rows, &cols);
            if (x.rows * x.cols != count) {
                char a[64], b[64];
                diag_error(setting->span, "this node sets the domain parameter '%s' to "
                           "a %s, but its domain declares a %s", pm->name->name,
                           lower_size_text(a, sizeof a, x.rows, x.cols),
                           lower_size_text(b, sizeof b, rows, cols));
                diag_note(pm->decl->span, "'%s' is declared here", pm->name->name);
                if (n->inst->ast)
                    diag_note(n->inst->ast->span, "in '%s', declared here", n->inst->path);
                continue;   /* the network keeps the domain's value */
            }
            if (!v.el) {
                v = x;
                first = setting->span;
                continue;
            }
            bool same = x.rows == v.rows && x.cols == v.cols;
            for (int e = 0; same && e < x.rows * x.cols; e++)
                same = x.el[e] == v.el[e];
            if (!same) {
                diag_error(setting->span, "this node sets the domain parameter '%s' of "
                           "its network to another value than a node connected to it; "
                           "a network takes its domain parameters from one place",
                           pm->name->name);
                diag_note(first, "'%s' is set here", pm->name->name);
                diag_note(at, "'%s' is read here", pm->name->name);
                conflict = true;
            }
        }
    }
    if (!v.el)
        v = lower_value(m, din, pm->decl->value);
    LowerValue *keep = arena_alloc(m->arena, sizeof *keep);
    *keep = v;
    ptrmap_put(&m->group_values, key, keep);
    return v;
}

/* Gives the n parameters of np the value v, element by element (v has
   the domain's size: network_value keeps a setting of another size out);
   whether one changed. */
static bool put_node_param(Model *m, ElabNodeParam *np, LowerValue v)
{
    bool changed = false;
    for (int k = 0; k < np->n && k < v.rows * v.cols; k++) {
        DaeParam *dp = elab_param(m, np->param + k);
        if (dp->expr != v.el[k]) {
            dp->expr = v.el[k];
            changed = true;
        }
    }
    return changed;
}

int elab_node_param(Model *m, int node, SemaMember *pm, SrcSpan at)
{
    void *key = (void *)(intptr_t)(((intptr_t)node << 16) + pm->order + 1);
    int k = (int)(intptr_t)ptrmap_get(&m->node_params, key);
    if (k)
        return ((ElabNodeParam *)m->node_param_list.items[k - 1])->param;
    ElabNode *n = &m->nodes[node];
    ElabInst *din = elab_domain_inst(m, n->domain);
    int rows, cols;
    int count = member_count(m, n->domain, pm, &rows, &cols);
    /* before the sets are known: the default, until set_node_params */
    LowerValue v = m->sets_made ? network_value(m, node, pm, at)
                                : lower_value(m, din, pm->decl->value);
    const char *name = n->inst->path[0]
                           ? arena_dotted(m->arena, (const char *const[]){n->inst->path,
                                                                           n->name->name,
                                                                           pm->name->name}, 3)
                           : arena_dotted(m->arena, (const char *const[]){n->name->name,
                                                                           pm->name->name}, 2);
    int first = -1;
    for (int e = 0; e < count; e++) {
        const char *en = count > 1 ? elab_element_name(m, name, e, rows, cols) : name;
        int p = elab_new_param(m, en, at, e < v.rows * v.cols ? v.el[e] : dae_const(m->t, 0));
        if (first < 0)
            first = p;
        DaeParam *dp = elab_param(m, p);
        elab_dim_of_slot(m, &dp->dim, &dp->is_bool, din, &din->slots[pm->order]);
        dp->access = RT_PARAM_NETWORK; /* the network's: set where it is set */
    }
    ElabNodeParam *np = arena_alloc(m->arena, sizeof *np);
    *np = (ElabNodeParam){node, pm, first, count, at};
    ptrvec_push(m->arena, &m->node_param_list, np);
    ptrmap_put(&m->node_params, key, (void *)(intptr_t)m->node_param_list.n);
    return first;
}

LowerValue elab_node_value(Model *m, ElabSlot *s, SemaMember *nm, SrcSpan at)
{
    DaeExprTable *t = m->t;
    ElabNode *node = &m->nodes[elab_find(m, s->node)];
    int rows = 1, cols = 1;
    int count = nm ? member_count(m, node->domain, nm, &rows, &cols) : 1;
    LowerValue v = lower_value_new(m, count ? rows : 1, count ? cols : 1);
    for (int k = 0; k < count; k++)
        v.el[k] = dae_const(t, 0);
    if (nm && nm->kind == MEM_PARAMETER) {
        int p = elab_node_param(m, s->node, nm, at);
        for (int k = 0; k < count; k++)
            v.el[k] = dae_param(t, p + k);
        return v;
    }
    if (!nm || nm->kind != MEM_ACROSS) {
        diag_error(at, "a node's through variable cannot be used in an "
                   "equation; declare a branch variable for it");
        return v;
    }
    if (node->set < 0 || node->set >= m->sets.n) {
        /* sets are made with the connections, before anything that may
           read NODE.x is lowered */
        diag_error(at, "internal error: node '%s' has no node set yet",
                   s->m->name->name);
        return v;
    }
    ElabSet *set = m->sets.items[node->set];
    for (int k = 0; k < count && !set->reference; k++)
        v.el[k] = dae_var(t, set->across_var[nm->order] + k, 0);
    return v;
}

/* The sets are known: the parameters read before get their network's
   values, and every value is computed again in order. */
static void set_node_params(Model *m)
{
    make_groups(m);
    m->sets_made = true;
    bool changed = false;
    for (int i = 0; i < m->node_param_list.n; i++) {
        ElabNodeParam *np = m->node_param_list.items[i];
        changed |= put_node_param(m, np, network_value(m, np->node, np->member, np->at));
    }
    if (changed)
        elab_reevaluate_params(m);
}

void elab_connect(Model *m)
{
    for (int i = 0; i < m->insts.n; i++)
        elab_each_section(m, m->insts.items[i], connect_section, NULL);
    make_sets(m);
    set_node_params(m);
    for (int i = 0; i < m->insts.n; i++) {
        ElabInst *in = m->insts.items[i];
        for (int j = 0; j < in->def->member_list.n; j++) {
            ElabSlot *s = &in->slots[j];
            if (!s->active || s->m->kind != MEM_INPUT)
                continue;
            bool bound = s->input && !s->driver; /* by an argument */
            input_value(m, in, s);
            if (bound)
                check_input_size(m, in, s, s->bound_at);
        }
    }
}
