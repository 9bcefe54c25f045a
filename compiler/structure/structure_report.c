/*
 * structure_report.c - what the structural analysis tells a user: the
 * diagnosis of a structurally singular system (its Dulmage-Mendelsohn
 * parts, from alternating paths: Pothen and Fan 1990) and the index report
 * of `lmdlc check`.
 */
#include "st.h"

#include "diag.h"

#include <stdlib.h>
#include <string.h>

/* Reports a structurally singular system with its DM parts. */
void st_report_singular(St *t, Matcher *m)
{
    Dae *d = t->d;
    int neq = t->s->eqs.n, nv = d->vars.n;
    /* under-determined: alternating paths from unmatched variables */
    char *in_under_v = mem_calloc((size_t)nv, 1), *in_under_e = mem_calloc((size_t)neq, 1);
    char *in_over_v = mem_calloc((size_t)nv, 1), *in_over_e = mem_calloc((size_t)neq, 1);
    /* variable -> equations incidence */
    int *vstart = mem_calloc((size_t)nv + 1, sizeof(int));
    for (int e = 0; e < neq; e++)
        for (int k = 0; k < st_eq_at(t, e)->nadj; k++)
            vstart[st_base_adj(t, e, k) + 1]++;
    for (int v = 0; v < nv; v++)
        vstart[v + 1] += vstart[v];
    int *vlist = mem_calloc((size_t)vstart[nv] + 1, sizeof(int));
    int *fill = mem_calloc((size_t)nv + 1, sizeof(int));
    for (int e = 0; e < neq; e++)
        for (int k = 0; k < st_eq_at(t, e)->nadj; k++) {
            int v = st_base_adj(t, e, k);
            vlist[vstart[v] + fill[v]++] = e;
        }
    int *queue = mem_calloc((size_t)(nv + neq) + 1, sizeof(int));
    int qh = 0, qt = 0;
    for (int v = 0; v < nv; v++) {
        DaeVar *dv = d->vars.items[v];
        if (!dv->eliminated && m->assign[v] < 0) {
            in_under_v[v] = 1;
            queue[qt++] = v;
        }
    }
    while (qh < qt) {
        int v = queue[qh++];
        for (int i = vstart[v]; i < vstart[v + 1]; i++) {
            int e = vlist[i];
            if (in_under_e[e])
                continue;
            in_under_e[e] = 1;
            int w = m->eq_mate[e];
            if (w >= 0 && !in_under_v[w]) {
                in_under_v[w] = 1;
                queue[qt++] = w;
            }
        }
    }
    qh = qt = 0;
    for (int e = 0; e < neq; e++) {
        if (m->eq_mate[e] < 0) {
            in_over_e[e] = 1;
            queue[qt++] = e;
        }
    }
    while (qh < qt) {
        int e = queue[qh++];
        for (int k = 0; k < st_eq_at(t, e)->nadj; k++) {
            int v = st_base_adj(t, e, k);
            if (in_over_v[v])
                continue;
            in_over_v[v] = 1;
            int e2 = m->assign[v];
            if (e2 >= 0 && !in_over_e[e2]) {
                in_over_e[e2] = 1;
                queue[qt++] = e2;
            }
        }
    }
    /* the message */
    char names[1024] = "";
    size_t len = 0;
    int nunder = 0, nover = 0, nover_v = 0;
    for (int v = 0; v < nv; v++) {
        if (!in_under_v[v])
            continue;
        nunder++;
        const char *n = ((DaeVar *)d->vars.items[v])->name;
        if (len + strlen(n) + 8 < sizeof names)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "", n);
    }
    /* eliminated aliases of undetermined variables are undetermined too */
    for (int v = 0; v < nv; v++) {
        DaeVar *dv = d->vars.items[v];
        if (!dv->eliminated || !dv->alias_expr)
            continue;
        for (int w = 0; w < nv; w++) {
            if (!in_under_v[w] || !dae_mentions_var(&d->t, dv->alias_expr, w, 0))
                continue;
            nunder++;
            if (len + strlen(dv->name) + 8 < sizeof names)
                len += (size_t)snprintf(names + len, sizeof names - len, ", %s", dv->name);
            break;
        }
    }
    for (int e = 0; e < neq; e++)
        nover += in_over_e[e];
    for (int v = 0; v < nv; v++)
        nover_v += in_over_v[v];
    SrcSpan where = src_none;
    for (int e = 0; e < neq && where.file < 0; e++)
        if (in_over_e[e] || in_under_e[e])
            where = ((DaeEq *)d->eqs.items[st_eq_at(t, e)->base])->span;
    if (nunder && d->redundant.n) {
        DaeEq *r = ((DaeRedundant *)d->redundant.items[0])->eq;
        char text[200];
        dae_eq_text(d, r, text, sizeof text);
        diag_error(r->span, "the model is singular: %d variable%s cannot be determined "
                   "separately (%s), because %d equation%s only repeat%s what other "
                   "equations already fix", nunder, nunder == 1 ? "" : "s", names,
                   d->redundant.n, d->redundant.n == 1 ? "" : "s",
                   d->redundant.n == 1 ? "s" : "");
        for (int i = 0; i < d->redundant.n && i < 8; i++) {
            DaeRedundant *rq = d->redundant.items[i];
            DaeEq *q = rq->eq;
            char org[200];
            dae_eq_origin(org, sizeof org, ORIGIN_SHORT, q);
            if (i)
                diag_note(q->span, "this equation also repeats others  [%s]", org);
            else
                diag_note(q->span, "this equation adds nothing  [%s]", org);
            dae_note_fixed(d, rq);
        }
    } else if (nunder && nover)
        diag_error(where, "the model is structurally singular: %d variable%s cannot be "
                   "determined (%s), while %d equation%s over-determine %d other "
                   "variable%s", nunder, nunder == 1 ? "" : "s", names, nover,
                   nover == 1 ? "" : "s", nover_v, nover_v == 1 ? "" : "s");
    else if (nunder)
        diag_error(where, "the model is structurally singular: no equation determines "
                   "%s", names);
    else
        diag_error(where, "the model is structurally singular: %d equation%s "
                   "over-determine %d variable%s", nover, nover == 1 ? "" : "s",
                   nover_v, nover_v == 1 ? "" : "s");
    int notes = d->redundant.n ? 12 : 0;
    for (int e = 0; e < neq && notes < 12; e++) {
        if (!in_over_e[e] && !in_under_e[e])
            continue;
        DaeEq *q = d->eqs.items[st_eq_at(t, e)->base];
        char text[200], org[200];
        dae_eq_text(d, q, text, sizeof text);
        dae_eq_origin(org, sizeof org, ORIGIN_SHORT, q);
        diag_note(q->span, "%s equation: %s  [%s]", in_over_e[e] ? "over-determining"
                  : "involved", text, org);
        notes++;
    }
    /* the user's lines: instantiations and connections of what is involved */
    DaeCulprits c;
    dae_culprits_init(&c, d);
    for (int i = 0; i < d->redundant.n; i++) {
        DaeRedundant *rq = d->redundant.items[i];
        dae_culprit_eq(&c, rq->eq);
        for (int k = 0; k < rq->nfixed; k++)
            dae_culprit_eq(&c, ((DaeVar *)d->vars.items[rq->fixed[k]])->eliminated_by);
    }
    for (int e = 0; e < neq; e++)
        if (in_over_e[e] || in_under_e[e])
            dae_culprit_eq(&c, d->eqs.items[st_eq_at(t, e)->base]);
    for (int v = 0; v < nv; v++)
        if (in_under_v[v])
            dae_culprit_var(&c, v);
    SrcSpan last = dae_note_culprits(&c);
    /* what to do about it, at the user's last line named */
    SrcSpan at = last.file >= 0 ? last
                 : d->redundant.n ? ((DaeRedundant *)d->redundant.items[0])->eq->span : where;
    if ((d->redundant.n || nover) && nunder)
        diag_note(at, "to fix it: either a part of the model floats (nothing fixes "
                  "its positions or potentials: connect it to a fixed point, a "
                  "reference or the rest of the model), or the same quantity is "
                  "fixed in two places (two fixed points or sources on one rigid "
                  "path): remove one of them, or put a compliant element (a spring, "
                  "a damper, a resistor) between them");
    else if (d->redundant.n || nover)
        diag_note(at, "to fix it: the same quantity is fixed in two places (two "
                  "fixed points or sources on one rigid path, a rigid link between "
                  "fixed nodes): remove one of them, or put a compliant element (a "
                  "spring, a damper, a resistor) between them");
    else
        diag_note(at, "to fix it: give each of these variables an equation, or "
                  "connect the nodes they belong to");
    free(in_under_v); free(in_under_e); free(in_over_v); free(in_over_e);
    free(vstart); free(vlist); free(fill); free(queue);
}

void struct_report(FILE *fp, const Structure *s, Dae *d)
{
    fprintf(fp, "  states:                   %d", s->nstates);
    for (int i = 0; i < s->nstates; i++) {
        StVar *x = s->vars.items[s->state_var[i]];
        DaeVar *v = d->vars.items[x->var];
        fprintf(fp, "%s", i ? ", " : " (");
        dae_fput_var(fp, dae_shown_name(v), x->order);
    }
    fprintf(fp, "%s\n", s->nstates ? ")" : "");
    fprintf(fp, "  differential index:       %d\n", s->index);
    fprintf(fp, "  differentiated equations: %d\n", s->ndiff);
    int shown = 0;
    for (int i = 0; i < s->eqs.n && shown < 20; i++) {
        StEq *q = s->eqs.items[i];
        if (q->level == 0 || q->deriv >= 0)
            continue;
        DaeEq *o = d->eqs.items[q->base];
        fprintf(fp, "    %dx  ", q->level);
        DaeNames nm = dae_names(d);
        dae_print_expr(fp, o->lhs, &nm);
        fputs(" == ", fp);
        dae_print_expr(fp, o->rhs, &nm);
        char org[4096];
        fprintf(fp, "   %% %s\n", dae_eq_origin(org, sizeof org, ORIGIN_INDEX, o));
        shown++;
    }
    int dummies = 0;
    for (int i = 0; i < s->vars.n; i++)
        dummies += ((StVar *)s->vars.items[i])->dummy;
    fprintf(fp, "  dummy derivatives:        %d\n", dummies);
}
