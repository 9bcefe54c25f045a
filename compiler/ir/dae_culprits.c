/*
 * dae_culprits.c - the notes at the user's own lines that end an error
 * found in library equations (singular, redundant, inconsistent,
 * undetermined, not finite, index reduction): the errors' equations and
 * variables mark their instances and node sets, a set marks its ports'
 * instances, and the notes are the nearest instantiation of each written
 * outside the standard library and every such connect() of each set, in
 * source order (at most 12).
 */
#include "dae.h"

#include "diag.h"

#include <stdlib.h>
#include <string.h>

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

SrcSpan dae_note_culprits(DaeCulprits *c)
{
    SrcSpan last = src_none;
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
        last = notes[i].at;
        i = j;
    }
    free(notes);
    free(shown);
    free(c->inst);
    free(c->set);
    ptrmap_free(&c->index);
    return last;
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
