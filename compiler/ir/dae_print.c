/*
 * dae_print.c - the readable form of the flat system, as `lmdlc flatten`
 * prints it: run-time parameters with values and units, variables with
 * their names and targets, equations with their origins, assertions, and
 * the counts; and the printing of one expression, in the language's
 * syntax, which messages and the generated C's comments use; and the
 * parameter values an assertion's message shows, in their declared
 * units.  Deterministic: everything in creation order.
 */
#include "dae.h"

#include "diag.h"
#include "rt_units.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- expressions ------------------------------------------------------------ */

static void print_num(FILE *fp, double v)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.15g", v);
    fputs(buf, fp);
}

/* "min" or "max" for the if-expression dae_min or dae_max made
   (`if a <= b, a else b end`), else NULL: printed as the call, each
   operand once, so a nested min or max prints in its size (a DAG printed
   as a tree would repeat every operand in the condition and a branch). */
static const char *extremum_name(const DaeExpr *e)
{
    if (e->kind != DX_IF)
        return NULL;
    const DaeExpr *c = e->u.cond.c;
    if ((c->kind != DX_LE && c->kind != DX_GE) || c->u.bin.a != e->u.cond.a
        || c->u.bin.b != e->u.cond.b)
        return NULL;
    return c->kind == DX_LE ? "min" : "max";
}

static void print_at(FILE *fp, const DaeExpr *e, const DaeNames *n, int ctx, bool right,
                     long *left)
{
    /* a DAG printed as a tree can be exponentially larger than the DAG:
       the print stops after its budget of nodes, with "..." */
    if (*left <= 0) {
        if (*left == 0)
            fputs("...", fp);
        *left = -1;
        return;
    }
    --*left;
    const char *call = extremum_name(e);
    if (call) {
        fputs(call, fp);
        fputc('(', fp);
        print_at(fp, e->u.cond.a, n, 0, false, left);
        fputs(", ", fp);
        print_at(fp, e->u.cond.b, n, 0, false, left);
        fputc(')', fp);
        return;
    }
    int p = dae_kind_prec[e->kind];
    bool paren = p < ctx || (p == ctx && right && p != 7 && p != 0)
                 || (p == ctx && !right && p == 7)
                 || (e->kind == DX_CONST && e->u.value < 0 && ctx > 4);
    if (paren)
        fputc('(', fp);
    switch (e->kind) {
    case DX_CONST: print_num(fp, e->u.value); break;
    case DX_PARAM: fputs(n->param(n->ctx, e->u.index), fp); break;
    case DX_TIME: fputs("time", fp); break;
    case DX_VAR:
        dae_fput_var(fp, n->var(n->ctx, e->u.var.index), e->u.var.order);
        break;
    case DX_EVAR:
        if (n->evar)
            fputs(n->evar(n->ctx, e->u.evar.index), fp);
        else
            fprintf(fp, "ev[%d]", e->u.evar.index);
        break;
    case DX_INITIAL: fputs("initialevent", fp); break;
    case DX_DELAY:
        fputs("delay(", fp);
        print_at(fp, e->u.cond.c, n, 0, false, left);
        fputs(", ", fp);
        print_at(fp, e->u.cond.a, n, 0, false, left);
        if (e->u.cond.b) {
            fputs(", History = ", fp);
            print_at(fp, e->u.cond.b, n, 0, false, left);
        }
        fputc(')', fp);
        break;
    case DX_EDGE:
        fputs("edge(", fp);
        print_at(fp, e->u.bin.a, n, 0, false, left);
        fputc(')', fp);
        break;
    case DX_NEG:
        fputc('-', fp);
        print_at(fp, e->u.bin.a, n, 6, true, left);
        break;
    case DX_NOT:
        fputc('~', fp);
        print_at(fp, e->u.bin.a, n, 6, true, left);
        break;
    case DX_FUNC:
        fputs(builtin_names[e->u.fn.fn], fp);
        fputc('(', fp);
        print_at(fp, e->u.fn.a, n, 0, false, left);
        if (e->u.fn.b) {
            fputs(", ", fp);
            print_at(fp, e->u.fn.b, n, 0, false, left);
        }
        fputc(')', fp);
        break;
    case DX_SEGMENT: {
        const DaeTable *tb = e->u.seg.tab;
        int g = tb->grid[e->u.seg.axis];
        fprintf(fp, "segment(%s..%s, ", n->param(n->ctx, g),
                n->param(n->ctx, g + tb->n[e->u.seg.axis] - 1));
        print_at(fp, e->u.seg.x, n, 0, false, left);
        fputc(')', fp);
        break;
    }
    case DX_LOOKUP: {
        /* tablelookup(grid.., data.., query): a derivative names its
           orders, tablelookup_dx1 ... */
        const DaeExpr *s1 = e->u.look.s1, *s2 = e->u.look.s2;
        const DaeTable *tb = s1->u.seg.tab;
        fputs("tablelookup", fp);
        for (int k = 0; k < e->u.look.d1; k++)
            fputs("_dx1", fp);
        for (int k = 0; k < e->u.look.d2; k++)
            fputs("_dx2", fp);
        fputc('(', fp);
        for (int a = 0; a < tb->axes; a++)
            fprintf(fp, "%s..%s, ", n->param(n->ctx, tb->grid[a]),
                    n->param(n->ctx, tb->grid[a] + tb->n[a] - 1));
        int nd = tb->n[0] * (tb->axes == 2 ? tb->n[1] : 1);
        fprintf(fp, "%s..%s, ", n->param(n->ctx, tb->data),
                n->param(n->ctx, tb->data + nd - 1));
        print_at(fp, s1->u.seg.x, n, 0, false, left);
        if (s2) {
            fputs(", ", fp);
            print_at(fp, s2->u.seg.x, n, 0, false, left);
        }
        fprintf(fp, ", %s, %s)", tb->interp == RT_INTERP_SMOOTH ? "smooth" : "linear",
                tb->extrap == RT_EXTRAP_LINEAR ? "linear"
                : tb->extrap == RT_EXTRAP_NEAREST ? "nearest" : "error");
        break;
    }
    case DX_IF:
        fputs("if ", fp);
        print_at(fp, e->u.cond.c, n, 0, false, left);
        fputs(", ", fp);
        print_at(fp, e->u.cond.a, n, 0, false, left);
        fputs(" else ", fp);
        print_at(fp, e->u.cond.b, n, 0, false, left);
        fputs(" end", fp);
        break;
    default: {
        print_at(fp, e->u.bin.a, n, p, false, left);
        fputc(' ', fp);
        fputs(dae_kind_names[e->kind], fp);
        fputc(' ', fp);
        print_at(fp, e->u.bin.b, n, p, true, left);
        break;
    }
    }
    if (paren)
        fputc(')', fp);
}

/* The most nodes one expression prints (DaeNames.budget, when 0). */
enum { PRINT_NODES = 100000 };

void dae_print_expr(FILE *fp, const DaeExpr *e, const DaeNames *names)
{
    long left = names->budget > 0 ? names->budget : PRINT_NODES;
    print_at(fp, e, names, 0, false, &left);
}


void dae_fput_var(FILE *fp, const char *name, int order)
{
    for (int i = 0; i < order; i++)
        fputs("der(", fp);
    fputs(name, fp);
    for (int i = 0; i < order; i++)
        fputc(')', fp);
}

/* Appends the strings of a NULL-ended list and, when line >= 0, ":line"
   to buf (len bytes, len > 0), cut to fit: snprintf's result for the
   formats below, without its cost (a big model asks 100,000s of times). */
static void append(char *buf, size_t len, int line, ...)
{
    size_t at = strlen(buf);
    va_list ap;
    va_start(ap, line);
    for (const char *s; (s = va_arg(ap, const char *));) {
        size_t n = strlen(s);
        if (n > len - 1 - at)
            n = len - 1 - at;
        memcpy(buf + at, s, n);
        at += n;
    }
    va_end(ap);
    if (line >= 0) {
        char num[24];
        num[0] = ':';
        size_t n = (size_t)(mem_decimal(num + 1, (unsigned)line) - num);
        if (n > len - 1 - at)
            n = len - 1 - at;
        memcpy(buf + at, num, n);
        at += n;
    }
    buf[at] = 0;
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
    case ORIGIN_LISTING:
        buf[0] = 0;
        if (of_node && node)
            append(buf, len, -1, "node ", node, (char *)NULL);
        else
            append(buf, len, -1, inst ? inst : "(top)", (char *)NULL);
        if (f)
            append(buf, len, line, ", ", path, (char *)NULL);
        break;
    case ORIGIN_INDEX:
        buf[0] = 0;
        if (of_node)
            append(buf, len, -1, "node ", node ? node : "?", (char *)NULL);
        else
            append(buf, len, line, inst ? inst : "(top)", ", ", path, (char *)NULL);
        break;
    case ORIGIN_BLOCK:
        buf[0] = 0;
        if (of_node)
            append(buf, len, -1, " (node ", node ? node : "?", ")", (char *)NULL);
        else if (inst)
            append(buf, len, -1, " (in ", inst, ")", (char *)NULL);
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
    nm.budget = (long)len;  /* every node prints at least one byte */
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

/* The discrete part: event variables, when statements, mode
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

/* v in p's declared unit when that is not SI ('-1 A*hr', for -3600 C in
   SI), as the user wrote it; false when there is none to show. */
static bool declared_unit(const DaeParam *p, double v, char *buf, size_t len)
{
    RtUnit u;
    double offset = 0;
    if (!p->unit || p->is_bool || rt_unit_parse_affine(p->unit, &u, &offset, NULL, 0, NULL) != 0)
        return false;
    if (u.scale == 1 && offset == 0)
        return false;   /* the SI unit itself: the SI text says it */
    if (p->unit_relative)
        offset = 0;
    snprintf(buf, len, "%.10g %s", v / u.scale - offset, p->unit);
    return true;
}

void dae_param_values_text(const Dae *d, const DaeExpr *e, const double *values,
                           char *buf, size_t len)
{
    enum { SHOWN = 8 };
    int k[SHOWN];
    int n = dae_param_reads(e, k, SHOWN);
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < n && i < SHOWN && at < len; i++) {
        const DaeParam *p = d->params.items[k[i]];
        char unit[64] = "";
        if (!p->is_bool && !dim_is_none(p->dim)) {
            unit[0] = ' ';
            dim_text(p->dim, unit + 1, sizeof unit - 1);
        }
        if (p->is_bool)
            at += (size_t)snprintf(buf + at, len - at, "%s%s = %s", i ? ", " : " (",
                                   p->name, values[k[i]] != 0 ? "true" : "false");
        else if (declared_unit(p, values[k[i]], unit, sizeof unit))
            at += (size_t)snprintf(buf + at, len - at, "%s%s = %s", i ? ", " : " (",
                                   p->name, unit);
        else
            at += (size_t)snprintf(buf + at, len - at, "%s%s = %.10g%s", i ? ", " : " (",
                                   p->name, values[k[i]], unit);
    }
    if (n > SHOWN && at < len)
        at += (size_t)snprintf(buf + at, len - at, ", ...");
    if (n > 0 && at < len)
        snprintf(buf + at, len - at, ")");
}
