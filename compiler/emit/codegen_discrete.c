/*
 * codegen_discrete.c - the C of the discrete part: the event
 * variables' start values, the update function of the event iteration
 * (when clauses, mode chart transitions and entry actions), the state
 * resets of the modes, and the mode charts' table.
 *
 * The update function runs once per event iteration (runtime/
 * rt_events.c).  Relations read the modes as codegen's eval does, but
 * here md is the relations' values now and pre their values at the
 * previous iteration, so edge(b) is `b && !b at pre`.  No temporaries
 * are made in it (every expression is printed whole), so an expression
 * under edge() can be printed with either array.  The assignments of one
 * branch, and the entry actions of one mode, are computed into locals
 * first and stored after, so they read the values before any of them:
 * they happen at once.
 *
 * A chart's mode is event variable `evar` (1-based); its hidden `next`
 * holds the mode a compound transition A -> B -> C goes on to after the
 * instantaneous B, which holds for exactly one iteration.  Transitions
 * from the active mode are tested in order, the first that holds is
 * taken, and the entered mode's entry actions run in the same iteration.
 * A simple transition holds while its predicate is true; a compound one
 * only when its predicate turns true (true now, false at the previous
 * iteration), since after the reset it may still be true where the
 * crossing was (free -> impact -> free : x <= 0).
 * At the initial event the initial mode is entered (its entry actions
 * run).
 */
#include "codegen.h"

#include "cprint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The locals of update and reset. */
#define UPDATE_LOCALS                                                      \
    "    const double t = e->t;\n    const double *restrict x = e->x;\n"  \
    "    const double *restrict p = e->p;\n"                               \
    "    const double *restrict a = e->alg;\n"                             \
    "    const int *md = e->modes;\n"                                      \
    "    (void)t; (void)x; (void)p; (void)a; (void)md; (void)pre; (void)initial;\n"

void cg_evar_start(CPrint *p, const Dae *d)
{
    CpChunk c = {.name = "evar_start", .params = "const double *p, double *ev",
                 .args = "p, ev", .prologue = "    (void)p; (void)ev;\n"};
    cp_chunk_begin(p, &c);
    for (int i = 0; i < d->evars.n; i++) {
        DaeEvar *v = d->evars.items[i];
        cp_chunk_item(p, &c);
        cp_reset(p);
        cp_emit(p, "    ev[%d] = ", i);
        cp_expr(p, v->start);
        cp_emit(p, ";\n");
    }
    cp_chunk_end(p, &c);
}

/* Simultaneous assignments: every value first, then every store. */
static void emit_assigns(CPrint *p, const PtrVec *v, const char *indent)
{
    for (int i = 0; i < v->n; i++) {
        DaeAssign *a = v->items[i];
        cp_emit(p, "%sconst double v%d = ", indent, i);
        cp_expr(p, a->value);
        cp_emit(p, ";\n");
    }
    for (int i = 0; i < v->n; i++)
        cp_emit(p, "%sevn[%d] = v%d;\n", indent, ((DaeAssign *)v->items[i])->evar, i);
}

/* The entry actions of mode j (0-based) of chart c. */
static void emit_entry(CPrint *p, const DaeChart *c, int j, const char *indent)
{
    const DaeMode *m = c->modes.items[j];
    if (m->entry.n == 0)
        return;
    cp_emit(p, "%s{\n", indent);
    char deeper[32];
    snprintf(deeper, sizeof deeper, "%s    ", indent);
    emit_assigns(p, &m->entry, deeper);
    cp_emit(p, "%s}\n", indent);
}

/* The entry actions of the mode a runtime value names. */
static void emit_entry_of(CPrint *p, const DaeChart *c, const char *mode)
{
    int any = 0;
    for (int j = 0; j < c->modes.n; j++)
        any |= ((DaeMode *)c->modes.items[j])->entry.n > 0;
    if (!any)
        return;
    cp_emit(p, "            switch (%s) {\n", mode);
    for (int j = 0; j < c->modes.n; j++) {
        if (((DaeMode *)c->modes.items[j])->entry.n == 0)
            continue;
        cp_emit(p, "            case %d:\n", j + 1);
        emit_entry(p, c, j, "                ");
        cp_emit(p, "                break;\n");
    }
    cp_emit(p, "            default: break;\n            }\n");
}

static void emit_chart_update(CPrint *p, const Dae *d, const DaeChart *c)
{
    char comment[256];
    snprintf(comment, sizeof comment, "mode chart %s of %s", c->name,
             c->instance[0] ? c->instance : "the top model");
    cp_emit(p, "    /* ");
    cp_comment(p, comment);
    cp_emit(p, " */\n    {\n");
    cp_emit(p, "        const int mode = (int)e->ev[%d], next = (int)e->ev[%d];\n", c->evar,
            c->next);
    cp_emit(p, "        if (next > 0) {\n");
    cp_emit(p, "            /* the instantaneous mode of a compound transition held "
            "for one iteration */\n");
    cp_emit(p, "            evn[%d] = next;\n            evn[%d] = 0;\n", c->evar, c->next);
    emit_entry_of(p, c, "next");
    cp_emit(p, "        } else if (initial) {\n");
    emit_entry_of(p, c, "mode");
    cp_emit(p, "        } else {\n            switch (mode) {\n");
    for (int j = 0; j < c->modes.n; j++) {
        const DaeMode *m = c->modes.items[j];
        cp_emit(p, "            case %d: /* ", j + 1);
        cp_comment(p, m->name);
        cp_emit(p, " */\n");
        for (int k = 0; k < c->transitions.n; k++) {
            const DaeTransition *tr = c->transitions.items[k];
            if (tr->path[0] != j)
                continue;
            int to = tr->path[1];
            cp_emit(p, "                if (");
            cp_expr(p, tr->pred);
            if (tr->n == 3) {
                /* a compound transition fires when its predicate turns
                   true: after it, the predicate may still hold (the
                   reset state is where the crossing was) */
                const char *md = p->md;
                p->md = "pre";
                cp_emit(p, " && !(");
                cp_expr(p, tr->pred);
                cp_emit(p, ")");
                p->md = md;
            }
            cp_emit(p, ") {\n");
            cp_emit(p, "                    evn[%d] = %d;\n", c->evar, to + 1);
            if (tr->n == 3)
                cp_emit(p, "                    evn[%d] = %d;\n", c->next, tr->path[2] + 1);
            emit_entry(p, c, to, "                    ");
            cp_emit(p, "                    break;\n                }\n");
        }
        cp_emit(p, "                break;\n");
    }
    cp_emit(p, "            default: break;\n            }\n        }\n    }\n");
    (void)d;
}

void cg_update(CPrint *p, const Dae *d)
{
    if (d->whens.n == 0 && d->charts.n == 0)
        return;
    bool modes = p->modes;
    p->modes = true;
    CpChunk c = {.name = "update",
                 .params = "const RtEval *e, const int *pre, int initial, double *restrict evn",
                 .args = "e, pre, initial, evn", .prologue = UPDATE_LOCALS};
    cp_chunk_begin(p, &c);
    for (int i = 0; i < d->whens.n; i++) {
        const DaeWhen *w = d->whens.items[i];
        cp_chunk_item(p, &c);
        cp_reset(p);
        char where[256];
        snprintf(where, sizeof where, "when of %s", w->instance[0] ? w->instance : "the top model");
        cp_emit(p, "    /* ");
        cp_comment(p, where);
        cp_emit(p, " */\n");
        for (int j = 0; j < w->branches.n; j++) {
            const DaeBranch *b = w->branches.items[j];
            cp_emit(p, "    %sif (", j ? "else " : "");
            cp_expr(p, b->pred);
            cp_emit(p, ") {\n");
            emit_assigns(p, &b->assigns, "        ");
            cp_emit(p, "    }\n");
        }
    }
    for (int i = 0; i < d->charts.n; i++) {
        cp_chunk_item(p, &c);
        cp_reset(p);
        emit_chart_update(p, d, d->charts.items[i]);
    }
    cp_chunk_end(p, &c);
    p->modes = modes;
}

void cg_charts(CPrint *p, const Dae *d)
{
    if (d->charts.n == 0)
        return;
    for (int i = 0; i < d->charts.n; i++) {
        const DaeChart *c = d->charts.items[i];
        cp_emit(p, "static const char *const chart_modes_%d[] = {", i);
        for (int j = 0; j < c->modes.n; j++) {
            cp_emit(p, "%s", j ? ", " : "");
            cp_str(p, ((DaeMode *)c->modes.items[j])->name);
        }
        cp_emit(p, "};\n");
    }
    size_t pool_at = cp_pool_begin(p);
    cp_emit(p, "static const RtChartInfo charts[] = {\n");
    for (int i = 0; i < d->charts.n; i++) {
        const DaeChart *c = d->charts.items[i];
        cp_emit(p, "    {");
        cp_str(p, c->instance);
        cp_emit(p, ", ");
        cp_str(p, c->name);
        cp_emit(p, ", ");
        cp_location(p, c->span);
        cp_emit(p, ", %d, %d, chart_modes_%d, %d", c->evar, c->modes.n, i, c->next);
        cp_location_end(p, c->span);
        cp_emit(p, "},\n");
    }
    cp_emit(p, "};\n\n");
    cp_pool_end(p, pool_at);
}

void cg_discrete_fields(CPrint *p, const Dae *d)
{
    if (d->evars.n == 0)
        return;
    cp_emit(p, "    .n_evars = %d, .evar_start = evar_start,\n", d->evars.n);
    if (d->whens.n || d->charts.n)
        cp_emit(p, "    .update = update,\n");
    if (d->charts.n)
        cp_emit(p, "    .n_charts = %d, .charts = charts,\n", d->charts.n);
    int resets = 0;
    for (int i = 0; i < d->charts.n; i++) {
        const DaeChart *c = d->charts.items[i];
        for (int j = 0; j < c->modes.n; j++)
            resets |= ((DaeMode *)c->modes.items[j])->resets.n > 0;
    }
    if (resets)
        cp_emit(p, "    .reset = reset,\n");
}

/* The resets: on entering a mode, each of its constraints on states sets
   the state it was solved for (plan: DaeReset.var, order, value),
   simultaneously. */
void cg_reset(CPrint *p, const Plan *pl)
{
    const Dae *d = pl->d;
    int any = 0;
    for (int i = 0; i < d->charts.n; i++) {
        const DaeChart *c = d->charts.items[i];
        for (int j = 0; j < c->modes.n; j++)
            any |= ((DaeMode *)c->modes.items[j])->resets.n > 0;
    }
    if (!any)
        return;
    cp_reset(p);
    cp_emit(p, "static void reset(const RtEval *e, int chart, double *xn)\n{\n");
    cp_emit(p, "    const double t = e->t;\n    const double *restrict x = e->x;\n"
               "    const double *restrict p = e->p;\n"
               "    const double *restrict a = e->alg;\n"
               "    (void)t; (void)x; (void)p; (void)a;\n");
    cp_emit(p, "    switch (chart) {\n");
    bool modes = p->modes;
    p->modes = false;   /* a reset evaluates its relations */
    for (int i = 0; i < d->charts.n; i++) {
        const DaeChart *c = d->charts.items[i];
        cp_emit(p, "    case %d:\n        switch ((int)e->ev[%d]) {\n", i, c->evar);
        for (int j = 0; j < c->modes.n; j++) {
            const DaeMode *m = c->modes.items[j];
            if (m->resets.n == 0)
                continue;
            cp_emit(p, "        case %d: {\n", j + 1);
            for (int k = 0; k < m->resets.n; k++) {
                const DaeReset *r = m->resets.items[k];
                cp_emit(p, "            const double v%d = ", k);
                cp_expr(p, r->value);
                cp_emit(p, ";\n");
            }
            for (int k = 0; k < m->resets.n; k++) {
                const DaeReset *r = m->resets.items[k];
                int sv = plan_stvar(pl, r->var, r->order);
                const StVar *x = sv >= 0 ? pl->s->vars.items[sv] : NULL;
                if (x && x->state)
                    cp_emit(p, "            xn[%d] = v%d;\n", x->slot, k);
            }
            cp_emit(p, "            break;\n        }\n");
        }
        cp_emit(p, "        default: break;\n        }\n        break;\n");
    }
    p->modes = modes;
    cp_emit(p, "    default: break;\n    }\n}\n\n");
}

/* ---- delays ------------------------------------------------------------- */

/* The delays: where each was written, the value of each argument u at an
   evaluated point (what the runtime's history keeps), and each one's
   bound (MaximumDelay, or its parametric tau) and History (NAN: u's
   value at the start). */
void cg_delays(CPrint *p, const Plan *pl)
{
    const Dae *d = pl->d;
    if (pl->delays.n == 0)
        return;
    size_t pool_at = cp_pool_begin(p);
    cp_emit(p, "static const RtDelayInfo delays[] = {\n");
    for (int k = 0; k < pl->delays.n; k++) {
        const DaeDelay *dl = ptrmap_get(&d->t.delays, pl->delays.items[k]);
        cp_emit(p, "    {");
        cp_str(p, dl ? dl->instance : "");
        cp_emit(p, ", ");
        if (dl)
            cp_location(p, dl->span);
        else
            cp_str(p, "");
        cp_location_end(p, dl ? dl->span : src_none);
        cp_emit(p, "},\n");
    }
    cp_emit(p, "};\n\n");
    cp_pool_end(p, pool_at);
    bool modes = p->modes;
    p->modes = true;
    CpChunk c = {.name = "delay_args", .params = "const RtEval *e, double *restrict u", .args = "e, u",
                 .prologue = RO_LOCALS};
    cp_chunk_begin(p, &c);
    for (int k = 0; k < pl->delays.n; k++) {
        const DaeExpr *n = pl->delays.items[k];
        cp_chunk_item(p, &c);
        cp_reset(p);
        cp_emit(p, "    u[%d] = ", k);
        cp_expr(p, n->u.cond.c);
        cp_emit(p, ";\n");
    }
    cp_chunk_end(p, &c);
    p->modes = modes;
    CpChunk cb = {.name = "delay_params", .params = "const double *p, double *tmax, double *hist",
                  .args = "p, tmax, hist", .prologue = "    (void)p;\n"};
    cp_chunk_begin(p, &cb);
    for (int k = 0; k < pl->delays.n; k++) {
        const DaeExpr *n = pl->delays.items[k];
        const DaeDelay *dl = ptrmap_get(&d->t.delays, n);
        cp_chunk_item(p, &cb);
        cp_reset(p);
        cp_emit(p, "    tmax[%d] = ", k);
        if (dl && dl->max)
            cp_expr(p, dl->max);
        else
            cp_emit(p, "INFINITY");
        cp_emit(p, ";\n    hist[%d] = ", k);
        if (n->u.cond.b)
            cp_expr(p, n->u.cond.b);
        else
            cp_emit(p, "NAN");
        cp_emit(p, ";\n");
    }
    cp_chunk_end(p, &cb);
}

void cg_delay_fields(CPrint *p, const Plan *pl)
{
    if (pl->delays.n == 0)
        return;
    cp_emit(p, "    .n_delays = %d, .delays = delays, .delay_args = delay_args,\n"
               "    .delay_params = delay_params,\n", pl->delays.n);
}
