/*
 * rt_csv.c - the results CSV and the event log (TOOLS.md).
 *
 * Results: `time` and then the selected column names, one row per output
 * time and two per event.  Values use %.17g, which round-trips every
 * double, so a result read back is the number the simulator had.  Every
 * row is flushed as it is written: a run that fails (or is killed) keeps
 * every row up to that point.
 *
 * Event log: `time,instance,condition,value`, one line per relation that
 * changed, value true or false; for a table's segment mode, the part of
 * the grid the query entered: "[0.1, 0.2]", "before 0", "beyond 0.9".
 *
 * Fields are quoted (RFC 4180) only when they need it, so ordinary names
 * and conditions stay readable and `cut -d,` keeps working on them.
 */
#include "rt_internal.h"

#include <string.h>

void rt_csv_field(FILE *fp, const char *text)
{
    if (!text)
        text = "";
    size_t n = strlen(text);
    int quote = strpbrk(text, ",\"\r\n") != NULL
                || (n > 0 && (text[0] == ' ' || text[n - 1] == ' '));
    if (!quote) {
        fputs(text, fp);
        return;
    }
    fputc('"', fp);
    for (const char *c = text; *c; c++) {
        if (*c == '"')
            fputc('"', fp);
        fputc(*c, fp);
    }
    fputc('"', fp);
}

/* Flushes, and turns a write error into a failure of the run. */
static int finish_line(RtSim *s, FILE *fp, const char *path, double t)
{
    if (fflush(fp) != 0 || ferror(fp)) {
        rt_fail_simple(&s->fail, RT_FAILKIND_IO, t, -1);
        s->fail.name = path ? path : "standard output";
        return -1;
    }
    return 0;
}

int rt_csv_header(RtSim *s)
{
    const RtModel *m = s->m;
    fputs("time", s->out);
    for (int i = 0; i < s->opt.n_vars; i++) {
        fputc(',', s->out);
        rt_csv_field(s->out, m->column_names[s->opt.vars[i]]);
    }
    fputc('\n', s->out);
    return finish_line(s, s->out, s->opt.out_path, 0);
}

int rt_csv_row(RtSim *s, double t, const double *x, const double *dx,
               const double *alg)
{
    const RtModel *m = s->m;
    if (m->columns && m->n_columns > 0) {
        RtEval e = rt_eval_make(s, t, x, (double *)dx, (double *)alg, s->modes);
        m->columns(&e, s->cols);
    }
    fprintf(s->out, "%.17g", t);
    for (int i = 0; i < s->opt.n_vars; i++)
        fprintf(s->out, ",%.17g", s->cols[s->opt.vars[i]]);
    fputc('\n', s->out);
    return finish_line(s, s->out, s->opt.out_path, t);
}

int rt_csv_events_header(RtSim *s)
{
    if (!s->events)
        return 0;
    fputs("time,instance,condition,value\n", s->events);
    return finish_line(s, s->events, s->opt.events_path, 0);
}

int rt_csv_event(RtSim *s, double t, int relation, int value)
{
    if (!s->events)
        return 0;
    const RtRelationInfo *r = &s->m->relations[relation];
    fprintf(s->events, "%.17g,", t);
    rt_csv_field(s->events, r->instance);
    fputc(',', s->events);
    rt_csv_field(s->events, r->condition);
    if (r->table1 && r->table1 <= s->m->n_tables) {
        /* a segment mode: the part of the grid the query has entered */
        const RtTableInfo *tb = &s->m->tables[r->table1 - 1];
        const double *g = s->p + tb->grid[r->axis];
        int n = tb->n[r->axis];
        char text[80];
        if (value <= 0)
            snprintf(text, sizeof text, "before %.10g", g[0]);
        else if (value >= n)
            snprintf(text, sizeof text, "beyond %.10g", g[n - 1]);
        else
            snprintf(text, sizeof text, "[%.10g, %.10g]", g[value - 1], g[value]);
        fputc(',', s->events);
        rt_csv_field(s->events, text);
        fputc('\n', s->events);
    } else {
        fprintf(s->events, ",%s\n", value ? "true" : "false");
    }
    return finish_line(s, s->events, s->opt.events_path, t);
}
