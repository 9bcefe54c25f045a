/*
 * dae_print.c - the readable form of the flat system, as `lmdlc flatten`
 * prints it: run-time parameters with values and units, variables with
 * their names and targets, equations with their origins, assertions, and
 * the counts.  Deterministic: everything in creation order.
 */
#include "dae.h"

#include "diag.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void dae_fput_var(FILE *fp, const char *name, int order)
{
    for (int i = 0; i < order; i++)
        fputs("der(", fp);
    fputs(name, fp);
    for (int i = 0; i < order; i++)
        fputc(')', fp);
}

const char *dae_origin_text(char *buf, size_t len, DaeOriginStyle style, DaeEqKind kind,
                            const char *instance, const char *node, SrcSpan span)
{
    bool of_node = kind == EQ_DOMAIN || kind == EQ_CONSERVATION;
    const char *inst = instance && instance[0] ? instance : NULL;
    SrcFile *f = src_get(span.file);
    int line = 0, col;
    if (f)
        src_linecol(span, &line, &col);
    const char *path = f ? f->path : "?";
    switch (style) {
    case ORIGIN_PROSE:
        if (kind == EQ_CONSERVATION)
            snprintf(buf, len, "the balance of the through variable at node %s", node);
        else if (kind == EQ_DOMAIN)
            snprintf(buf, len, "the domain equation of node %s", node);
        else
            snprintf(buf, len, "this equation of %s", inst ? inst : "the top model");
        break;
    case ORIGIN_SHORT:
        if (of_node)
            snprintf(buf, len, "%s at node %s", kind == EQ_DOMAIN ? "domain equation"
                     : "balance", node ? node : "?");
        else
            snprintf(buf, len, "%s (%s:%d)", inst ? inst : "top model", path, line);
        break;
    case ORIGIN_LISTING: {
        int n = of_node && node ? snprintf(buf, len, "node %s", node)
                                : snprintf(buf, len, "%s", inst ? inst : "(top)");
        if (f && n >= 0 && (size_t)n < len)
            snprintf(buf + n, len - (size_t)n, ", %s:%d", path, line);
        break;
    }
    case ORIGIN_INDEX:
        if (of_node)
            snprintf(buf, len, "node %s", node ? node : "?");
        else
            snprintf(buf, len, "%s, %s:%d", inst ? inst : "(top)", path, line);
        break;
    case ORIGIN_BLOCK:
        if (of_node)
            snprintf(buf, len, " (node %s)", node ? node : "?");
        else if (inst)
            snprintf(buf, len, " (in %s)", inst);
        else
            snprintf(buf, len, "%s", "");
        break;
    }
    return buf;
}

const char *dae_eq_origin(char *buf, size_t len, DaeOriginStyle style, const DaeEq *q)
{
    return dae_origin_text(buf, len, style, q->kind, q->instance, q->what, q->span);
}

void dae_note_fixed(const Dae *d, const DaeRedundant *r)
{
    for (int i = 0; i < r->nfixed; i++) {
        DaeVar *v = d->vars.items[r->fixed[i]];
        diag_note(v->eliminated_by->span, "'%s' is already fixed by this equation%s%s",
                  v->name, v->eliminated_by->instance[0] ? " in " : "",
                  v->eliminated_by->instance);
    }
}

/* `lhs == rhs`, or lhs alone when rhs is NULL, cut to len with "..." */
static void expr_text(Dae *d, const DaeExpr *lhs, const DaeExpr *rhs, char *buf, size_t len)
{
    char *p = NULL;
    size_t sz = 0;
    FILE *fp = open_memstream(&p, &sz);
    if (!fp) {
        snprintf(buf, len, "?");
        return;
    }
    DaeNames nm = dae_names(d);
    dae_print_expr(fp, lhs, &nm);
    if (rhs) {
        fputs(" == ", fp);
        dae_print_expr(fp, rhs, &nm);
    }
    fclose(fp);
    snprintf(buf, len, "%s", p);
    if (strlen(p) >= len && len > 4)
        memcpy(buf + len - 4, "...", 4);
    free(p);
}

void dae_eq_text(Dae *d, const DaeEq *q, char *buf, size_t len)
{
    expr_text(d, q->lhs, q->rhs, buf, len);
}

void dae_expr_text(Dae *d, const DaeExpr *e, char *buf, size_t len)
{
    expr_text(d, e, NULL, buf, len);
}

static void print_origin(FILE *fp, SrcSpan sp, DaeEqKind kind, const char *inst,
                         const char *what)
{
    char buf[4096];
    fprintf(fp, "      %% %s\n", dae_origin_text(buf, sizeof buf, ORIGIN_LISTING, kind, inst,
                                                what, sp));
}

static const char *unit_of(Dim d, char *buf)
{
    return dim_text(d, buf, 64);
}

static void print_params(FILE *fp, Dae *d, DaeNames *nm)
{
    fprintf(fp, "parameters (%d):\n", d->params.n);
    for (int i = 0; i < d->params.n; i++) {
        DaeParam *p = d->params.items[i];
        char u[64];
        fprintf(fp, "  %s = ", p->name);
        if (p->is_bool)
            fputs(p->value != 0 ? "true" : "false", fp);
        else
            fprintf(fp, "%.15g", p->value);
        if (!p->is_bool && !dim_is_none(p->dim))
            fprintf(fp, " %s", unit_of(p->dim, u));
        if (p->expr->kind != DX_CONST) {
            fputs("  := ", fp);
            dae_print_expr(fp, p->expr, nm);
        }
        if (p->structural)
            fputs("  [structural]", fp);
        fputc('\n', fp);
    }
}

static void print_var(FILE *fp, DaeVar *v, DaeNames *nm)
{
    char u[64];
    fprintf(fp, "  %s [%s]", v->name, unit_of(v->dim, u));
    if (v->priority != PRIO_NONE || !dae_is_const(v->start, 0)) {
        fputs(v->priority == PRIO_HIGH ? "  target " : v->priority == PRIO_LOW
                                                           ? "  target (low) "
                                                           : "  start ", fp);
        dae_print_expr(fp, v->start, nm);
        if (v->priority == PRIO_HIGH)
            fputs(" (high)", fp);
    }
    if (v->nominal) {
        fputs("  nominal ", fp);
        dae_print_expr(fp, v->nominal, nm);
    }
    if (v->names.n > 1) {
        fputs("  also", fp);
        for (int j = 1; j < v->names.n; j++)
            fprintf(fp, "%s %s", j > 1 ? "," : "", (const char *)v->names.items[j]);
    }
    fputc('\n', fp);
}

static void print_assigns(FILE *fp, const PtrVec *v, DaeNames *nm, const char *indent)
{
    for (int i = 0; i < v->n; i++) {
        DaeAssign *a = v->items[i];
        fprintf(fp, "%s%s = ", indent, dae_evar_name(nm->ctx, a->evar));
        dae_print_expr(fp, a->value, nm);
        fputc('\n', fp);
    }
}

/* The discrete part (issue 12): event variables, when statements, mode
   charts with their entry actions, resets and transitions. */
static void print_discrete(FILE *fp, Dae *d, DaeNames *nm)
{
    int shown = 0;
    for (int i = 0; i < d->evars.n; i++)
        shown += !((DaeEvar *)d->evars.items[i])->hidden;
    if (shown) {
        fprintf(fp, "\nevent variables (%d):\n", shown);
        for (int i = 0; i < d->evars.n; i++) {
            DaeEvar *v = d->evars.items[i];
            if (v->hidden)
                continue;
            char u[64];
            fprintf(fp, "  %s [%s]  start ", v->name, unit_of(v->dim, u));
            dae_print_expr(fp, v->start, nm);
            fputc('\n', fp);
        }
    }
    if (d->whens.n)
        fprintf(fp, "\nwhen (%d):\n", d->whens.n);
    for (int i = 0; i < d->whens.n; i++) {
        DaeWhen *w = d->whens.items[i];
        for (int j = 0; j < w->branches.n; j++) {
            DaeBranch *b = w->branches.items[j];
            fputs(j ? "  elsewhen " : "  when ", fp);
            dae_print_expr(fp, b->pred, nm);
            fputc('\n', fp);
            print_assigns(fp, &b->assigns, nm, "    ");
        }
        print_origin(fp, w->span, EQ_COMPONENT, w->instance, NULL);
    }
    if (d->charts.n)
        fprintf(fp, "\nmode charts (%d):\n", d->charts.n);
    for (int i = 0; i < d->charts.n; i++) {
        DaeChart *c = d->charts.items[i];
        fprintf(fp, "  %s: %d modes, %d equations each, mode in %s, start ", c->name,
                c->modes.n, c->neqs, dae_evar_name(d, c->evar));
        dae_print_expr(fp, ((DaeEvar *)d->evars.items[c->evar])->start, nm);
        fputc('\n', fp);
        print_origin(fp, c->span, EQ_COMPONENT, c->instance, NULL);
        for (int j = 0; j < c->modes.n; j++) {
            DaeMode *m = c->modes.items[j];
            fprintf(fp, "    mode %d %s\n", j + 1, m->name);
            if (m->entry.n)
                fputs("      entry:\n", fp);
            print_assigns(fp, &m->entry, nm, "        ");
            for (int k = 0; k < m->resets.n; k++) {
                DaeReset *r = m->resets.items[k];
                /* the state it sets is the plan's choice (plan_modes.c) */
                fputs("      reset on entry: ", fp);
                dae_print_expr(fp, r->res, nm);
                fputs(" == 0\n", fp);
            }
        }
        for (int j = 0; j < c->transitions.n; j++) {
            DaeTransition *t = c->transitions.items[j];
            fputs("    ", fp);
            for (int k = 0; k < t->n; k++)
                fprintf(fp, "%s%s", k ? " -> " : "", ((DaeMode *)c->modes.items[t->path[k]])->name);
            fputs(" : ", fp);
            dae_print_expr(fp, t->pred, nm);
            fputc('\n', fp);
        }
    }
}

void dae_print(FILE *fp, Dae *d, const char *model, bool simplified)
{
    DaeNames nm = dae_names(d);
    fprintf(fp, "model %s (%s; %d component instance%s)\n\n", model,
            simplified ? "flattened and simplified" : "flattened, before simplification",
            d->ncomponents, d->ncomponents == 1 ? "" : "s");
    print_params(fp, d, &nm);
    int left = 0;
    for (int i = 0; i < d->vars.n; i++)
        left += !((DaeVar *)d->vars.items[i])->eliminated;
    fprintf(fp, "\nvariables (%d):\n", simplified ? left : d->vars.n);
    for (int i = 0; i < d->vars.n; i++) {
        DaeVar *v = d->vars.items[i];
        if (!simplified || !v->eliminated)
            print_var(fp, v, &nm);
    }
    if (simplified && left < d->vars.n) {
        fprintf(fp, "\neliminated (%d):\n", d->vars.n - left);
        for (int i = 0; i < d->vars.n; i++) {
            DaeVar *v = d->vars.items[i];
            if (!v->eliminated)
                continue;
            fprintf(fp, "  %s = ", v->name);
            dae_print_expr(fp, v->alias_expr, &nm);
            if (v->names.n > 1) {
                fputs("  also", fp);
                for (int j = 1; j < v->names.n; j++)
                    fprintf(fp, "%s %s", j > 1 ? "," : "", (const char *)v->names.items[j]);
            }
            fputc('\n', fp);
        }
    }
    fprintf(fp, "\nequations (%d):\n", d->eqs.n);
    for (int i = 0; i < d->eqs.n; i++) {
        DaeEq *q = d->eqs.items[i];
        fprintf(fp, "  %d: ", i + 1);
        dae_print_expr(fp, q->lhs, &nm);
        fputs(" == ", fp);
        dae_print_expr(fp, q->rhs, &nm);
        fputc('\n', fp);
        print_origin(fp, q->span, q->kind, q->instance, q->what);
    }
    if (d->observed.n) {
        fprintf(fp, "\nintermediates (%d, logged on request):\n", d->observed.n);
        for (int i = 0; i < d->observed.n; i++) {
            DaeObserved *o = d->observed.items[i];
            char u[64];
            fprintf(fp, "  %s [%s] = ", o->name, unit_of(o->dim, u));
            dae_print_expr(fp, o->expr, &nm);
            fputc('\n', fp);
        }
    }
    if (d->asserts.n) {
        fprintf(fp, "\nassertions (%d):\n", d->asserts.n);
        for (int i = 0; i < d->asserts.n; i++) {
            DaeAssert *a = d->asserts.items[i];
            fputs("  ", fp);
            dae_print_expr(fp, a->cond, &nm);
            fprintf(fp, "  '%s'\n", a->message);
            print_origin(fp, a->span, EQ_COMPONENT, a->instance, NULL);
        }
    }
    print_discrete(fp, d, &nm);
    fprintf(fp, "\ncounts: %d equations, %d variables", d->eqs.n,
            simplified ? left : d->vars.n);
    if (simplified)
        fprintf(fp, " (before simplification: %d equations, %d variables)",
                d->raw_eqs, d->raw_vars);
    fputc('\n', fp);
}

/* ---- notes at the user's own lines ----------------------------------------- */

void dae_culprits_init(DaeCulprits *c, Dae *d)
{
    c->d = d;
    c->inst = mem_calloc((size_t)d->ninstances + 1, 1);
    c->set = mem_calloc((size_t)d->nsets + 1, 1);
    c->index = (PtrMap){0};
    for (int i = 0; i < d->ninstances; i++)
        ptrmap_put(&c->index, d->instances[i].path, (void *)(intptr_t)(i + 1));
}

static void culprit_instance(DaeCulprits *c, const char *path)
{
    int i = (int)(intptr_t)ptrmap_get(&c->index, path) - 1;
    if (i >= 0)
        c->inst[i] = 1;
}

void dae_culprit_set(DaeCulprits *c, int set)
{
    if (set < 0 || set >= c->d->nsets || c->set[set])
        return;
    c->set[set] = 1;
    const DaeNodeSet *s = &c->d->sets[set];
    for (int i = 0; i < s->nports; i++)
        if (c->d->ports[s->port0 + i].inst >= 0)
            c->inst[c->d->ports[s->port0 + i].inst] = 1;
}

void dae_culprit_var(DaeCulprits *c, int var)
{
    DaeVar *v = c->d->vars.items[var];
    if (v->set >= 0)
        dae_culprit_set(c, v->set);
    else
        culprit_instance(c, v->instance);
}

void dae_culprit_eq(DaeCulprits *c, const DaeEq *q)
{
    culprit_instance(c, q->instance);
    dae_culprit_set(c, q->set);
    enum { SHOWN = 64 };
    const DaeExpr *side[2] = {q->orig_lhs ? q->orig_lhs : q->lhs,
                              q->orig_rhs ? q->orig_rhs : q->rhs};
    for (int k = 0; k < 2; k++) {
        int vars[SHOWN];
        int n = dae_var_reads(side[k], vars, SHOWN);
        for (int i = 0; i < n && i < SHOWN; i++)
            if (((DaeVar *)c->d->vars.items[vars[i]])->set >= 0)
                dae_culprit_var(c, vars[i]);
    }
}

typedef struct PlaceNote {
    SrcSpan at;             /* the user's line */
    int seq;                /* the order it was made in: ties in place */
    bool connect;           /* a connection's note, else a declaration's */
    const char *name;       /* the instance's path, or the node's name */
    char text[256];         /* the note */
} PlaceNote;

static int by_place(const void *a, const void *b)
{
    const PlaceNote *x = a, *y = b;
    if (x->at.file != y->at.file)
        return x->at.file < y->at.file ? -1 : 1;
    if (x->at.begin != y->at.begin)
        return x->at.begin < y->at.begin ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* One note for the n notes made at one place: a line of a component the
   model instantiates several times declares one instance, or joins one
   node, per instance, and is shown once ("'p1.a' and 'p2.a' are declared
   here"; "this connection is part of node p1.a.P (p1.a.P, p1.b.P), and
   of node p2.a.P in another instance").  When the instances' connections
   join one node, the note is the one node's. */
static void note_place(const PlaceNote *g, size_t n)
{
    enum { NAMED = 4 };
    /* the distinct names, in order (node names repeat, instance paths not) */
    const char **names = mem_calloc(n, sizeof *names);
    size_t nn = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        while (k < nn && strcmp(names[k], g[i].name) != 0)
            k++;
        if (k == nn)
            names[nn++] = g[i].name;
    }
    if (nn == 1) {
        diag_note(g->at, "%s", g->text);
        free(names);
        return;
    }
    size_t first = g->connect ? 1 : 0; /* a connection's first node is in its text */
    size_t rest = nn - first, shown = rest < NAMED ? rest : NAMED, at = 0;
    char list[400];
    list[0] = 0;
    for (size_t i = 0; i < shown && at < sizeof list; i++) {
        const char *sep = i == 0 ? "" : i + 1 == rest ? " and " : ", ";
        at += (size_t)snprintf(list + at, sizeof list - at, g->connect ? "%s%s" : "%s'%s'",
                               sep, names[first + i]);
    }
    free(names);
    if (shown < rest && at < sizeof list)
        snprintf(list + at, sizeof list - at, " and %zu more", rest - shown);
    if (g->connect)
        diag_note(g->at, "%s, and of node%s %s in %s", g->text, rest == 1 ? "" : "s", list,
                  rest == 1 ? "another instance" : "other instances");
    else
        diag_note(g->at, "%s are declared here", list);
}

/* "a.P, b.P": the ports of a set, at most 6 */
static void port_list(const Dae *d, const DaeNodeSet *s, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (int p = 0; p < s->nports && at < len; p++) {
        const DaePort *port = &d->ports[s->port0 + p];
        const char *inst = port->inst >= 0 ? d->instances[port->inst].path : "";
        if (p == 6 || at + strlen(inst) + strlen(port->name) + 8 >= len) {
            snprintf(buf + at, len - at, ", ...");
            return;
        }
        at += (size_t)snprintf(buf + at, len - at, "%s%s%s%s", p ? ", " : "", inst,
                               inst[0] ? "." : "", port->name);
    }
}

void dae_note_culprits(DaeCulprits *c)
{
    enum { MAX_NOTES = 12 };
    Dae *d = c->d;
    size_t cap = (size_t)d->ninstances + (size_t)d->nconnects + 1;
    PlaceNote *notes = mem_calloc(cap, sizeof *notes);
    char *shown = mem_calloc((size_t)d->ninstances + 1, 1);
    size_t n = 0;
    for (int i = 0; i < d->ninstances; i++) {
        if (!c->inst[i])
            continue;
        /* the nearest instantiation the user wrote */
        int j = i;
        while (j >= 0 && !d->instances[j].user)
            j = d->instances[j].parent;
        if (j < 0 || shown[j])
            continue;
        shown[j] = 1;
        notes[n].at = d->instances[j].decl;
        notes[n].seq = (int)n;
        notes[n].name = d->instances[j].path;
        snprintf(notes[n++].text, sizeof notes->text, "'%s' is declared here",
                 d->instances[j].path);
    }
    for (int i = 0; i < d->nconnects; i++) {
        const DaeConnect *k = &d->connects[i];
        if (!k->user || k->set < 0 || !c->set[k->set])
            continue;
        char ports[200];
        port_list(d, &d->sets[k->set], ports, sizeof ports);
        notes[n].at = k->span;
        notes[n].seq = (int)n;
        notes[n].connect = true;
        notes[n].name = d->sets[k->set].name;
        snprintf(notes[n++].text, sizeof notes->text, "this connection is part of node %s (%s)",
                 d->sets[k->set].name, ports);
    }
    qsort(notes, n, sizeof *notes, by_place);
    /* one note per place (and kind), at most MAX_NOTES */
    for (size_t i = 0, made = 0; i < n && made < MAX_NOTES; made++) {
        size_t j = i + 1;
        while (j < n && notes[j].at.file == notes[i].at.file
               && notes[j].at.begin == notes[i].at.begin
               && notes[j].connect == notes[i].connect)
            j++;
        note_place(notes + i, j - i);
        i = j;
    }
    free(notes);
    free(shown);
    free(c->inst);
    free(c->set);
    ptrmap_free(&c->index);
}

void dae_note_eq_places(Dae *d, const DaeEq *q, const DaeRedundant *r)
{
    DaeCulprits c;
    dae_culprits_init(&c, d);
    dae_culprit_eq(&c, q);
    for (int i = 0; r && i < r->nfixed; i++)
        dae_culprit_eq(&c, ((DaeVar *)d->vars.items[r->fixed[i]])->eliminated_by);
    dae_note_culprits(&c);
}
