/*
 * fmu_vars.c - an FMU's variables and their dependencies, from the plan
 * (fmu_vars.h).
 *
 * Columns.  Every column is a variable, named as in the CSV header, with
 * its declaration's comment and its dimension's unit; the top model's
 * outputs have causality output.  A state is the variable of its column
 * when it has one (a variable of order 0, or an eliminated variable whose
 * value is that derivative itself, like w in w == der(theta)), the column
 * of the name lmdlc check gives the state where several columns hold it;
 * otherwise it gets a variable of its own, named as the simulator names it
 * (der(x)).  A state's derivative is the variable of the unknown that
 * holds it: a state, a column, or else a der(NAME) variable of its own.
 *
 * Dependencies.  What each unknown depends on, among the knowns of Model
 * Exchange (the states and the inputs), follows the blocks in evaluation
 * order, as the plan's Jacobian sparsity does: the unknowns of one block
 * depend on whatever its equations mention, directly (a state, an input)
 * or through an unknown solved before.  A column's value is its
 * variable's, or for an eliminated variable its defining expression's,
 * so its dependencies are those of what that expression mentions.
 * Relations count through both branches (the modes are frozen between
 * events), so the sets are exact for the equations as compiled, never
 * smaller than the truth.
 *
 * Initial unknowns.  At initialization the knowns are the inputs and the
 * parameters (FMI 2.0 section 2.2.8: variables with initial = "exact"),
 * and the states are unknowns, computed by rt_init.c: from their start
 * values, then set to their targets' values where every target is on a
 * state, or else by a solve for all targets at once, whose result may
 * depend on every start value, nominal, target value and on whatever the
 * targeted variables read.  So a state's set is its start value's (or its
 * targets' values'), or in a solve the union of all of those; the same
 * walk through the blocks, with states standing for their sets and every
 * parameter counted (and the parameters its default is an expression of,
 * and a table's grid and data), gives the derivatives' and outputs'.
 * The initial event (event variables, mode charts) and delays' start
 * values are not followed: for such models the InitialUnknowns carry no
 * dependencies, which says "on every known".
 */
#include "fmu_vars.h"

#include "lmdl_fmi.h"
#include "rt_model.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define X_FMU_NAME(id, text) text,
const char *const fmu_causality_names[] = {FMU_CAUSALITIES(X_FMU_NAME)};
const char *const fmu_variability_names[] = {FMU_VARIABILITIES(X_FMU_NAME)};

/* ---- the identifier --------------------------------------------------------- */

static const char *const c_keywords[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double",
    "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
    "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct",
    "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "main",
};

void fmu_identifier(const char *model, char *out, size_t len)
{
    char buf[512];
    size_t n = 0;
    for (const unsigned char *c = (const unsigned char *)model; *c && n + 5 < sizeof buf;
         c++) {
        if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')
            || *c == '_')
            buf[n++] = (char)*c;
        else
            n += (size_t)snprintf(buf + n, sizeof buf - n, "_x%02X", *c);
    }
    buf[n] = 0;
    int prefix = n == 0 || (buf[0] >= '0' && buf[0] <= '9') || buf[0] == '_';
    for (size_t i = 0; i < sizeof c_keywords / sizeof c_keywords[0] && !prefix; i++)
        prefix = strcmp(buf, c_keywords[i]) == 0;
    snprintf(out, len, "%s%s", prefix ? "lmdl_" : "", buf);
}

/* ---- sets of knowns ------------------------------------------------------------- */

/* A known is a state j (j) or an input parameter k (nstates + k). */
typedef struct KSet {
    int *k;                 /* sorted knowns */
    int n;                  /* entries */
} KSet;

typedef struct Deps {
    const Plan *p;
    int ns;                 /* states */
    KSet *of;               /* per StVar */
    int *mark, stamp;       /* per known: membership of the set being built */
    int *buf, n, cap;       /* the set being built */
    bool inputs;            /* the model has top-level inputs */
    bool init;              /* initialization: every parameter is a known,
                               and a state stands for state_init[slot] */
    const KSet *state_init; /* with init: per state, its knowns, or NULL
                               (a state then adds nothing) */
    const KSet *param_of;   /* with init: per parameter, it and those its
                               default is an expression of */
} Deps;

static void add(Deps *d, int k)
{
    if (d->mark[k] == d->stamp)
        return;
    d->mark[k] = d->stamp;
    if (d->n == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 64;
        d->buf = realloc(d->buf, sizeof *d->buf * (size_t)d->cap);
        if (!d->buf)
            abort();
    }
    d->buf[d->n++] = k;
}

static void add_set(Deps *d, const KSet *k)
{
    for (int i = 0; i < k->n; i++)
        add(d, k->k[i]);
}

static void add_stvar(Deps *d, int sv)
{
    if (sv < 0)
        return;
    StVar *x = d->p->s->vars.items[sv];
    if (x->state) {
        if (!d->init)
            add(d, x->slot);
        else if (d->state_init)
            add_set(d, &d->state_init[x->slot]);
        return;
    }
    KSet *k = &d->of[sv];
    for (int i = 0; i < k->n; i++)
        add(d, k->k[i]);
}

/* Parameter k: with its default's parameters once they are known. */
static void add_param(Deps *d, int k)
{
    if (d->param_of && d->param_of[k].k)
        add_set(d, &d->param_of[k]);
    else
        add(d, d->ns + k);
}

/* The inputs and variables an expression mentions (visited once each);
   with d->init, the parameters too. */
static void add_expr(Deps *d, const DaeExpr *e, PtrMap *seen)
{
    if (ptrmap_get(seen, e))
        return;
    ptrmap_put(seen, e, (void *)e);
    if (e->kind == DX_PARAM) {
        DaeParam *q = d->p->d->params.items[e->u.index];
        if (d->init)
            add_param(d, e->u.index);
        else if (q->input)
            add(d, d->ns + e->u.index);
        return;
    }
    if (d->init && e->kind == DX_SEGMENT) {
        const DaeTable *t = e->u.seg.tab;
        for (int i = 0; i < t->n[e->u.seg.axis]; i++)
            add_param(d, t->grid[e->u.seg.axis] + i);
    }
    if (d->init && e->kind == DX_LOOKUP) {
        const DaeTable *t = e->u.look.s1->u.seg.tab;
        for (int i = 0; i < t->n[0] * (t->axes == 2 ? t->n[1] : 1); i++)
            add_param(d, t->data + i);
    }
    if (e->kind == DX_VAR) {
        add_stvar(d, plan_stvar(d->p, e->u.var.index, e->u.var.order));
        return;
    }
    DaeExpr *kids[3];
    for (int i = 0, n = dae_children(e, kids); i < n; i++)
        add_expr(d, kids[i], seen);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The set built so far, sorted, as a new KSet. */
static KSet take(Deps *d)
{
    KSet k = {malloc(sizeof(int) * (size_t)(d->n + 1)), d->n};
    if (!k.k)
        abort();
    if (d->n > 0)   /* no buffer yet while nothing was added */
        memcpy(k.k, d->buf, sizeof(int) * (size_t)d->n);
    qsort(k.k, (size_t)k.n, sizeof(int), cmp_int);
    return k;
}

static void begin(Deps *d)
{
    d->stamp++;
    d->n = 0;
}

static void add_expr_once(Deps *d, const DaeExpr *e)
{
    if (!e)
        return;
    PtrMap seen = {0};
    add_expr(d, e, &seen);
    ptrmap_free(&seen);
}

/* A column's variable vi: its unknown, or what its definition mentions. */
static void add_column(Deps *d, int vi)
{
    DaeVar *v = d->p->d->vars.items[vi];
    if (v->eliminated)
        add_expr_once(d, v->alias_expr);
    else
        add_stvar(d, plan_stvar(d->p, vi, 0));
}

/* The sets of every unknown, block by block (forgetting earlier ones). */
static void deps_of_blocks(Deps *d)
{
    const Plan *p = d->p;
    Structure *s = p->s;
    for (int i = 0; i < s->vars.n; i++) {
        free(d->of[i].k);
        d->of[i] = (KSet){NULL, 0};
    }
    for (int b = 0; b < p->nblocks; b++) {
        const PlanBlock *blk = &p->blocks[b];
        begin(d);
        for (int i = 0; i < blk->n; i++) {
            StEq *q = s->eqs.items[blk->eqs[i]];
            for (int a = 0; a < q->nadj; a++)
                add_stvar(d, q->adj[a]);    /* this block's own: empty yet */
            if (d->inputs || d->init) {
                PtrMap seen = {0};
                add_expr(d, q->res, &seen);
                ptrmap_free(&seen);
            }
        }
        for (int i = 0; i < blk->n; i++)
            d->of[blk->vars[i]] = take(d);
    }
}

/* ---- the variables ---------------------------------------------------------------- */

typedef struct Builder {
    FmuModel *fm;
    int cap;
} Builder;

static FmuVar *new_var(Builder *b)
{
    FmuModel *fm = b->fm;
    if (fm->nvars == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        fm->vars = realloc(fm->vars, sizeof *fm->vars * (size_t)b->cap);
        if (!fm->vars)
            abort();
    }
    FmuVar *v = &fm->vars[fm->nvars++];
    memset(v, 0, sizeof *v);
    return v;
}

static char *var_text(const char *name, int order)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        abort();
    dae_fput_var(fp, name, order);
    fclose(fp);
    return text;
}

static char *copy(const char *s)
{
    char *c = strdup(s);
    if (!c)
        abort();
    return c;
}

/* The dimension of derivative `order` of a variable of dimension dim. */
static Dim per_second(Dim dim, int order)
{
    dim.e[2] = (short)(dim.e[2] - order * RT_DIM_DEN);
    return dim;
}

/* A 128-bit content hash (two FNV-1a streams) as a GUID. */
static void make_guid(char out[40], const char *text)
{
    uint64_t h1 = 14695981039346656037ull, h2 = 0x6c62272e07bb0142ull;
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        h1 = (h1 ^ *c) * 1099511628211ull;
        h2 = (h2 ^ *c) * 0x100000001b3ull;
        h2 ^= h2 >> 29;
    }
    snprintf(out, 40, "{%08x-%04x-%04x-%04x-%04x%08x}", (unsigned)(h1 >> 32),
             (unsigned)(h1 >> 16) & 0xffff, (unsigned)h1 & 0xffff, (unsigned)(h2 >> 48),
             (unsigned)(h2 >> 32) & 0xffff, (unsigned)h2);
}

/* ---- initial unknowns -------------------------------------------------------- */

/* Per parameter: it and the parameters its default is an expression of
   (earlier ones), so that a change of those reaches what reads it. */
static KSet *param_closures(Deps *d)
{
    Dae *dae = d->p->d;
    KSet *of = calloc((size_t)dae->params.n + 1, sizeof *of);
    if (!of)
        abort();
    d->param_of = of;
    for (int k = 0; k < dae->params.n; k++) {
        DaeParam *q = dae->params.items[k];
        begin(d);
        add(d, d->ns + k);
        add_expr_once(d, q->expr);
        of[k] = take(d);
    }
    return of;
}

/* Per state, the knowns its initial value depends on (rt_init.c): its
   start value, or its targets' values when every target is on a state,
   or after a solve everything the solve reads. */
static void initial_states(Deps *d, KSet *st)
{
    const Plan *p = d->p;
    Dae *dae = p->d;
    Structure *s = p->s;
    int ns = s->nstates;
    bool direct = p->ntargets > 0;
    for (int k = 0; k < p->ntargets; k++)
        direct &= p->targets[k].state1 > 0 && p->targets[k].state1 <= ns;
    if (p->ntargets == 0 || direct) {
        for (int j = 0; j < ns; j++) {
            StVar *x = s->vars.items[s->state_var[j]];
            DaeVar *v = dae->vars.items[x->var];
            bool targeted = false;
            begin(d);
            for (int k = 0; k < p->ntargets; k++) {
                if (p->targets[k].state1 - 1 != j)
                    continue;
                DaeVar *tv = dae->vars.items[p->targets[k].var];
                add_expr_once(d, tv->start);
                targeted = true;
            }
            if (!targeted && x->order == 0)    /* a derivative starts at 0 */
                add_expr_once(d, v->start);
            st[j] = take(d);
        }
        return;
    }
    /* a solve: the targeted variables through the equations, states aside */
    d->state_init = NULL;
    deps_of_blocks(d);
    begin(d);
    for (int j = 0; j < ns; j++) {
        StVar *x = s->vars.items[s->state_var[j]];
        DaeVar *v = dae->vars.items[x->var];
        if (x->order == 0) {
            add_expr_once(d, v->start);
            add_expr_once(d, v->nominal);
        }
    }
    for (int k = 0; k < p->ntargets; k++) {
        DaeVar *tv = dae->vars.items[p->targets[k].var];
        add_expr_once(d, tv->start);
        add_expr_once(d, tv->nominal);
        add_column(d, p->targets[k].var);
    }
    for (int j = 0; j < ns; j++)
        st[j] = take(d);
}

/* The dependencies of every initial unknown (fmu_xml.c: the outputs, the
   states and the derivatives), as 1-based variable indices. */
static void initial_deps(FmuModel *fm, Deps *d, const int *param_var, const int *der_of,
                         const int *col_var)
{
    const Plan *p = d->p;
    Structure *s = p->s;
    int ns = s->nstates;
    KSet *st = calloc((size_t)ns + 1, sizeof *st);
    int *state_of = malloc(sizeof(int) * (size_t)(fm->nvars + 1));
    if (!st || !state_of)
        abort();
    d->init = true;
    KSet *param_of = param_closures(d);
    initial_states(d, st);
    d->state_init = st;
    deps_of_blocks(d);
    for (int i = 0; i < fm->nvars; i++)
        state_of[i] = -1;
    for (int j = 0; j < ns; j++)
        state_of[fm->state_var[j]] = j;
    for (int i = 0; i < fm->nvars; i++) {
        FmuVar *f = &fm->vars[i];
        if (state_of[i] < 0 && der_of[i] < 0 && f->causality != FMU_OUTPUT)
            continue;
        begin(d);
        if (state_of[i] >= 0)
            add_set(d, &st[state_of[i]]);
        else if (der_of[i] >= 0)
            add_stvar(d, ((StVar *)s->vars.items[s->state_var[der_of[i]]])->deriv);
        else
            add_column(d, col_var[f->index]);
        f->init_deps = malloc(sizeof(int) * (size_t)(d->n + 1));
        if (!f->init_deps)
            abort();
        for (int q = 0; q < d->n; q++)     /* states stood for their sets */
            f->init_deps[q] = 1 + param_var[d->buf[q] - ns];
        f->ninit_deps = d->n;
        qsort(f->init_deps, (size_t)f->ninit_deps, sizeof(int), cmp_int);
    }
    fm->init_deps = true;
    d->init = false;
    d->state_init = NULL;
    d->param_of = NULL;
    for (int j = 0; j < ns; j++)
        free(st[j].k);
    for (int k = 0; k < p->d->params.n; k++)
        free(param_of[k].k);
    free(st);
    free(param_of);
    free(state_of);
}

/* Whether a column's value is a mode chart's mode: a whole number, an
   Integer variable. */
static bool is_chart_mode(const Dae *d, const DaeExpr *val)
{
    if (val->kind != DX_EVAR)
        return false;
    for (int i = 0; i < d->charts.n; i++)
        if (((const DaeChart *)d->charts.items[i])->evar == val->u.evar.index)
            return true;
    return false;
}

FmuModel *fmu_model_make(const Plan *p, const char *model, const char *c_text)
{
    Dae *d = p->d;
    Structure *s = p->s;
    FmuModel *fm = calloc(1, sizeof *fm);
    if (!fm)
        abort();
    Builder b = {fm, 0};
    fm->name = model;
    fmu_identifier(model, fm->ident, sizeof fm->ident);
    make_guid(fm->guid, c_text);
    fm->nstates = s->nstates;
    fm->nrels = p->nrels;
    int ns = s->nstates;
    fm->state_var = calloc((size_t)ns + 1, sizeof(int));
    fm->der_var = calloc((size_t)ns + 1, sizeof(int));
    int *colof = malloc(sizeof(int) * (size_t)(s->vars.n + 1));    /* StVar -> column */
    int *param_var = calloc((size_t)d->params.n + 1, sizeof(int));
    if (!fm->state_var || !fm->der_var || !colof || !param_var)
        abort();
    for (int i = 0; i < s->vars.n; i++)
        colof[i] = -1;

    /* every column, in the CSV header's order, but those hidden by
       ExternalAccess = none; columns of one value (the names of one node
       variable, a variable and its alias) are aliases: one value
       reference, the first's (FMI 2.0, 2.2.7) */
    PtrMap vr_of = {0};     /* a column's value -> 1 + its value reference */
    for (int k = 0; k < p->ncolumns - p->n_hidden; k++) {
        const PlanColumn *c = &p->columns[k];
        FmuVar *f = new_var(&b);
        f->name = copy(c->name);
        f->description = c->description;
        DaeExpr *val = plan_column_value(p, c);
        f->integer = is_chart_mode(d, val);
        uintptr_t vr1 = (uintptr_t)ptrmap_get(&vr_of, val);
        if (!vr1) {
            vr1 = (uintptr_t)(f->integer ? ++fm->nints : ++fm->nreals);
            ptrmap_put(&vr_of, val, (void *)vr1);
        }
        f->vr = (unsigned)(vr1 - 1);
        f->causality = c->output ? FMU_OUTPUT : FMU_LOCAL;
        /* an event variable changes at events only */
        f->variability = c->var < 0 && c->expr && c->expr->kind == DX_EVAR ? FMU_DISCRETE
                                                                            : FMU_CONTINUOUS;
        f->dim = c->dim;
        f->kind = LMDL_FMI_COLUMN;
        f->index = k;
    }
    for (int i = 0; i < d->vars.n; i++) {
        DaeVar *v = d->vars.items[i];
        int sv = v->eliminated ? -1 : plan_stvar(p, i, 0);
        if (sv >= 0)
            colof[sv] = p->first_column[i];
    }
    /* eliminated variables that are a derivative unknown themselves */
    for (int i = 0; i < d->vars.n; i++) {
        DaeVar *v = d->vars.items[i];
        const DaeExpr *a = v->eliminated ? v->alias_expr : NULL;
        if (!a || a->kind != DX_VAR)
            continue;
        int sv = plan_stvar(p, a->u.var.index, a->u.var.order);
        if (sv >= 0 && colof[sv] < 0)
            colof[sv] = p->first_column[i];
    }
    /* a state's variable is preferably the column named as lmdlc check and
       the simulator name the state (dae_shown_name: lever.theta, not the
       node port lever.R.theta that is first among its columns) */
    for (int j = 0; j < ns; j++) {
        int sv = s->state_var[j];
        StVar *x = s->vars.items[sv];
        if (x->order != 0)
            continue;
        const char *name = dae_shown_name(d->vars.items[x->var]);
        for (int k = 0; k < p->ncolumns - p->n_hidden; k++) {
            int c = p->columns[k].var;
            if (c < 0 || strcmp(p->columns[k].name, name) != 0)
                continue;
            DaeVar *cv = d->vars.items[c];
            const DaeExpr *a = cv->eliminated ? cv->alias_expr : NULL;
            if (c == x->var
                || (a && a->kind == DX_VAR && a->u.var.index == x->var && a->u.var.order == 0))
                colof[sv] = k;
            break;
        }
    }
    ptrmap_free(&vr_of);
    /* states, then their derivatives */
    for (int j = 0; j < ns; j++) {
        int sv = s->state_var[j];
        if (colof[sv] >= 0) {
            fm->state_var[j] = colof[sv];   /* columns come first: index = column */
            continue;
        }
        StVar *x = s->vars.items[sv];
        DaeVar *v = d->vars.items[x->var];
        FmuVar *f = new_var(&b);
        f->name = var_text(dae_shown_name(v), x->order);
        f->vr = (unsigned)fm->nreals++;
        f->causality = FMU_LOCAL;
        f->variability = FMU_CONTINUOUS;
        f->dim = per_second(v->dim, x->order);
        f->kind = LMDL_FMI_STATE;
        f->index = j;
        fm->state_var[j] = fm->nvars - 1;
    }
    for (int j = 0; j < ns; j++) {
        StVar *x = s->vars.items[s->state_var[j]];
        /* a derivative that is a copy of another unknown (der(x) == v) is
           that unknown's variable */
        int dv = p->copy_of[x->deriv] >= 0 ? p->copy_of[x->deriv] : x->deriv;
        StVar *dx = s->vars.items[dv];
        if (dx->state) {
            fm->der_var[j] = fm->state_var[dx->slot];
        } else if (colof[dv] >= 0) {
            fm->der_var[j] = colof[dv];
        } else {
            DaeVar *v = d->vars.items[x->var];
            FmuVar *f = new_var(&b);
            f->name = var_text(dae_shown_name(v), x->order + 1);
            f->vr = (unsigned)fm->nreals++;
            f->causality = FMU_LOCAL;
            f->variability = FMU_CONTINUOUS;
            f->dim = per_second(v->dim, x->order + 1);
            f->kind = LMDL_FMI_DERIVATIVE;
            f->index = j;
            fm->der_var[j] = fm->nvars - 1;
        }
        fm->vars[fm->der_var[j]].derivative_of = fm->state_var[j] + 1;
    }
    /* parameters and inputs */
    bool inputs = false;
    for (int k = 0; k < d->params.n; k++) {
        DaeParam *q = d->params.items[k];
        FmuVar *f = new_var(&b);
        f->name = copy(q->name);
        f->boolean = q->is_bool;
        f->vr = (unsigned)(q->is_bool ? fm->nbools++ : fm->nreals++);
        bool input = q->input && !q->structural;
        inputs |= input;
        f->causality = input ? FMU_INPUT : FMU_PARAMETER;
        /* a structural parameter, or one --param may not set (Access =
           private, or in a component under ExternalAccess = observe|none),
           keeps its value: fixed, and fmi2SetReal refuses a change */
        f->variability = input ? (q->is_bool ? FMU_DISCRETE : FMU_CONTINUOUS)
                         : q->structural || q->access != RT_PARAM_PUBLIC ? FMU_FIXED
                                                                         : FMU_TUNABLE;
        f->has_start = true;
        f->start = q->value;
        f->dim = q->dim;
        f->kind = input ? LMDL_FMI_INPUT : LMDL_FMI_PARAM;
        f->index = k;
        param_var[k] = fm->nvars - 1;
    }

    /* dependencies of the outputs and the derivatives */
    Deps dp = {p, ns, calloc((size_t)s->vars.n + 1, sizeof(KSet)),
               calloc((size_t)(ns + d->params.n) + 1, sizeof(int)), 0, NULL, 0, 0, inputs,
               false, NULL, NULL};
    if (!dp.of || !dp.mark)
        abort();
    deps_of_blocks(&dp);
    int *der_of = malloc(sizeof(int) * (size_t)(fm->nvars + 1));   /* var -> state */
    int *col_var = malloc(sizeof(int) * (size_t)(p->ncolumns + 1)); /* column -> DaeVar */
    if (!der_of || !col_var)
        abort();
    for (int i = 0; i < fm->nvars; i++)
        der_of[i] = -1;
    for (int j = 0; j < ns; j++)
        der_of[fm->der_var[j]] = j;
    for (int k = 0; k < p->ncolumns; k++)
        col_var[k] = p->columns[k].var;
    for (int i = 0; i < fm->nvars; i++) {
        FmuVar *f = &fm->vars[i];
        if (f->causality != FMU_OUTPUT && der_of[i] < 0)
            continue;
        begin(&dp);
        if (der_of[i] >= 0) {
            /* a derivative: the unknown that holds it */
            StVar *x = s->vars.items[s->state_var[der_of[i]]];
            add_stvar(&dp, x->deriv);
        } else {
            /* a column: its variable, or what its definition mentions */
            int vi = col_var[f->index];
            DaeVar *v = d->vars.items[vi];
            PtrMap seen = {0};
            if (v->eliminated)
                add_expr(&dp, v->alias_expr, &seen);
            else
                add_stvar(&dp, plan_stvar(p, vi, 0));
            ptrmap_free(&seen);
        }
        f->deps = malloc(sizeof(int) * (size_t)(dp.n + 1));
        if (!f->deps)
            abort();
        for (int q = 0; q < dp.n; q++) {
            int k = dp.buf[q];
            f->deps[q] = 1 + (k < ns ? fm->state_var[k] : param_var[k - ns]);
        }
        f->ndeps = dp.n;
        qsort(f->deps, (size_t)f->ndeps, sizeof(int), cmp_int);
    }
    /* the initial event and delays' start values are not followed */
    if (d->evars.n == 0 && d->charts.n == 0 && p->delays.n == 0)
        initial_deps(fm, &dp, param_var, der_of, col_var);
    free(der_of);
    free(col_var);
    for (int i = 0; i < s->vars.n; i++)
        free(dp.of[i].k);
    free(dp.of);
    free(dp.mark);
    free(dp.buf);
    free(colof);
    free(param_var);
    return fm;
}

void fmu_model_free(FmuModel *fm)
{
    if (!fm)
        return;
    for (int i = 0; i < fm->nvars; i++) {
        free(fm->vars[i].name);
        free(fm->vars[i].deps);
        free(fm->vars[i].init_deps);
    }
    free(fm->vars);
    free(fm->state_var);
    free(fm->der_var);
    free(fm);
}
