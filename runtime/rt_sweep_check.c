/*
 * rt_sweep_check.c - a sweep's sets file checked before any row runs:
 * the header's paths (those --param takes), each row's field count,
 * label and values (through rt_params_apply on a scratch copy of the
 * parameters), the row files against each other and against every file
 * the run reads, by name and by device and inode, and the engine's
 * options.  A typo in row 900 is an error before row 1 runs.
 */
#include "rt_sweep_internal.h"

#include "rt_number.h"
#include "rt_sidecar.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* s without leading and trailing blanks, as a new string. */
char *rt_sweep_trimmed(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    return rt_xstrndup(s, n);
}

/* pattern with every "{row}" replaced by label; NULL stays NULL. */
char *rt_sweep_subst_row(const char *pattern, const char *label)
{
    if (!pattern)
        return NULL;
    size_t n = 0, ll = strlen(label);
    for (const char *p = pattern; *p;)
        if (!strncmp(p, "{row}", 5)) {
            n += ll;
            p += 5;
        } else {
            n++;
            p++;
        }
    char *out = rt_xcalloc(n + 1, 1), *q = out;
    for (const char *p = pattern; *p;)
        if (!strncmp(p, "{row}", 5)) {
            memcpy(q, label, ll);
            q += ll;
            p += 5;
        } else {
            *q++ = *p++;
        }
    return out;
}

int rt_sweep_to_stdout(const char *path)
{
    return !path || !strcmp(path, "-");
}

/* "SETS:LINE: " in front of a message about the sets file. */
void rt_sweep_sets_error(const Sweep *w, long line, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rt_sets_error(w->prog, w->path, line, "%s", msg);
}

/* The header: labels, then parameter paths that --param accepts. */
static int check_header(Sweep *w)
{
    const RtModel *m = w->s->m;
    if (w->sets.n_records == 0) {
        rt_sweep_sets_error(w, 0, "the file is empty: it needs a header naming the "
                   "parameters, then one row per run");
        return -1;
    }
    RtSetsRecord *h = &w->sets.records[0];
    w->n_cols = h->n_fields;
    char *c0 = rt_sweep_trimmed(h->fields[0]);
    w->first = !strcmp(c0, "row") || !strcmp(c0, "id");
    free(c0);
    const char **names = rt_xcalloc((size_t)m->n_params, sizeof *names);
    for (int i = 0; i < m->n_params; i++)
        names[i] = rt_param_info(m, i).name;
    RtNameIndex *ix = rt_names_new(rt_names_of(names), m->n_params);
    int *seen = rt_xcalloc((size_t)m->n_params, sizeof *seen);
    int rc = 0;
    for (int c = w->first; c < w->n_cols && rc == 0; c++) {
        char *unit;
        char *name = rt_sweep_header_name(h->fields[c], &unit);
        free(unit);
        char col[32];
        snprintf(col, sizeof col, "column %d", c + 1);
        size_t len = strlen(name);
        int k = len ? rt_names_find(ix, name, len) : -1;
        RtParamInfo pk = k >= 0 ? rt_param_info(m, k) : (RtParamInfo){0};
        rc = -1;
        if (!len) {
            rt_sweep_sets_error(w, h->line, "%s has no name: the header names a "
                       "parameter in every column", col);
        } else if (k < 0) {
            const char *hint = rt_names_suggest(rt_names_of(names), m->n_params, name, len);
            rt_sweep_sets_error(w, h->line, "%s '%s' is not a parameter of %s%s%s%s",
                       col, name, m->name ? m->name : "the model",
                       hint ? "; did you mean '" : "", hint ? hint : "",
                       hint ? "'?" : "");
        } else if (rt_param_fixed(&pk)) {
            rt_sweep_sets_error(w, h->line, "%s '%s' %s, so a sweep cannot change it", col,
                       name, rt_param_fixed(&pk));
        } else if (pk.structural) {
            rt_sweep_sets_error(w, h->line, "%s '%s' is a structural parameter: it "
                       "chooses the model's equations at compile time, so "
                       "a sweep cannot change it; change it in the model "
                       "and build one simulator per value", col, name);
        } else if (seen[k]) {
            rt_sweep_sets_error(w, h->line, "'%s' is in column %d and again in %s",
                       name, seen[k], col);
        } else {
            seen[k] = c + 1;
            rc = 0;
        }
        free(name);
    }
    free(seen);
    rt_names_free(ix);
    free(names);
    if (rc == 0 && w->sets.n_records < 2) {
        rt_sweep_sets_error(w, h->line, "no rows under the header: nothing to run");
        rc = -1;
    }
    w->n_rows = w->sets.n_records - 1;
    return rc;
}

/* A header field "NAME [UNIT]": its name (a new string), and in *unit
   its unit (a new string, "" when it gives none). */
char *rt_sweep_header_name(const char *field, char **unit)
{
    char *name = rt_sweep_trimmed(field);
    size_t n = strlen(name);
    char *open = n && name[n - 1] == ']' ? strrchr(name, '[') : NULL;
    if (!open) {
        *unit = rt_xcalloc(1, 1);
        return name;
    }
    name[n - 1] = 0;
    *unit = rt_sweep_trimmed(open + 1);
    *open = 0;
    char *trimmed = rt_sweep_trimmed(name);
    free(name);
    return trimmed;
}

/* Whether a value is a bare number or vector (no unit after it), which a
   header's unit then applies to. */
static int bare_value(const char *v)
{
    size_t n = strlen(v), used = 0;
    double x;
    if (!n)
        return 0;
    if (v[0] == '[')                /* a vector: nothing after its ']' */
        return v[n - 1] == ']';
    /* a number, all of it: "2 m^3" ends in a digit and is not bare */
    return rt_number_scan(v, n, 1, &x, &used, NULL) == RT_NUM_OK && used == n;
}

/* The row's non-empty values as "path=value" specs for rt_params_apply;
   a header's [UNIT] follows each bare number of its column. */
char **rt_sweep_row_specs(const Sweep *w, long k, int *n)
{
    const RtSetsRecord *h = &w->sets.records[0];
    const RtSetsRecord *r = &w->sets.records[k];
    char **specs = rt_xcalloc((size_t)w->n_cols, sizeof *specs);
    *n = 0;
    for (int c = w->first; c < w->n_cols; c++) {
        char *v = rt_sweep_trimmed(r->fields[c]);
        if (*v) {
            char *unit;
            char *name = rt_sweep_header_name(h->fields[c], &unit);
            int with = *unit && bare_value(v) && strcmp(v, "true") && strcmp(v, "false");
            size_t len = strlen(name) + strlen(v) + strlen(unit) + 3;
            specs[*n] = rt_xcalloc(len, 1);
            snprintf(specs[(*n)++], len, "%s=%s%s%s", name, v, with ? " " : "",
                     with ? unit : "");
            free(name);
            free(unit);
        }
        free(v);
    }
    return specs;
}

void rt_sweep_free_specs(char **specs, int n)
{
    for (int i = 0; i < n; i++)
        free(specs[i]);
    free(specs);
}

static int valid_label(const char *s)
{
    size_t n = strlen(s);
    return n > 0 && n <= MAX_LABEL && strspn(s, LABEL_CHARS) == n
           && s[0] != '.' && s[0] != '-';
}

/* Every row: its field count, its label, and its values on a scratch
   copy of the parameters. */
static int check_rows(Sweep *w)
{
    RtSim *s = w->s;
    const RtModel *m = s->m;
    size_t np = (size_t)(m->n_params > 0 ? m->n_params : 0);
    RtSim scratch = *s;
    scratch.p = rt_xcalloc(rt_param_slots(m) + 1, sizeof *scratch.p);
    scratch.overridden = rt_xcalloc(np, sizeof *scratch.overridden);
    w->labels = rt_xcalloc((size_t)w->n_rows, sizeof *w->labels);
    int rc = 0;
    for (long k = 1; k <= w->n_rows && rc == 0; k++) {
        const RtSetsRecord *r = &w->sets.records[k];
        if (r->n_fields != w->n_cols) {
            rt_sweep_sets_error(w, r->line, "row %ld has %d field%s, but the header "
                       "has %d", k, r->n_fields, r->n_fields == 1 ? "" : "s",
                       w->n_cols);
            rc = -1;
            break;
        }
        if (w->first) {
            w->labels[k - 1] = rt_sweep_trimmed(r->fields[0]);
            if (!valid_label(w->labels[k - 1])) {
                rt_sweep_sets_error(w, r->line, "row %ld: the label '%s' must be 1 to "
                           "%d letters, digits, '_', '.', '+' or '-', not "
                           "starting with '.' or '-' (it names files)", k,
                           w->labels[k - 1], MAX_LABEL);
                rc = -1;
                break;
            }
        } else {
            char num[32];
            snprintf(num, sizeof num, "%ld", k);
            w->labels[k - 1] = rt_xstrdup(num);
        }
        memcpy(scratch.p, s->p, rt_param_slots(m) * sizeof *s->p);
        memcpy(scratch.overridden, s->overridden, np);
        int n;
        char **specs = rt_sweep_row_specs(w, k, &n);
        if (rt_params_apply(&scratch, specs, n) != 0) {
            RtMsg g;
            FILE *o = rt_msg_begin(&g, stderr, w->prog, "note", NULL, NULL);
            g.file = w->path;   /* the place, as JSON has it */
            g.line = r->line;
            fprintf(o, "in %s, line %ld (row %ld)\n", w->path, r->line, k);
            rt_msg_end(&g);
            rc = -1;
        }
        rt_sweep_free_specs(specs, n);
    }
    free(scratch.p);
    free(scratch.overridden);
    if (rc == 0 && w->first) {
        RtNameIndex *ix = rt_names_new(rt_names_of((const char *const *)w->labels),
                                       (int)w->n_rows);
        for (long k = 0; k < w->n_rows && rc == 0; k++) {
            const char *l = w->labels[k];
            int first = rt_names_find(ix, l, strlen(l));
            if (first != k) {
                rt_sweep_sets_error(w, w->sets.records[k + 1].line, "the label '%s' "
                           "of row %ld is also row %d's: labels name files, "
                           "so they must differ", l, k + 1, first + 1);
                rc = -1;
            }
        }
        rt_names_free(ix);
    }
    return rc;
}

/* One file a sweep writes: whose and what. */
typedef struct SweepFile {
    char *path;             /* the file */
    long row;               /* its row (1 ...), or 0 for the sweep's summary */
    int what;               /* SWEEP_FILE_* */
    int replaced;           /* written by a rename (compared by its entry) */
    struct stat st;         /* what it is, when `there` */
    int there;              /* it exists */
} SweepFile;

enum { SWEEP_RESULTS, SWEEP_EVENTS, SWEEP_META, SWEEP_ROW_SUMMARY, SWEEP_SUMMARY };
static const char *const sweep_file_what[] = {
    "the results", "the event log", "the units file", "the summary line",
    "the summary",
};

static int by_file(const void *a, const void *b)
{
    const SweepFile *x = *(const SweepFile *const *)a, *y = *(const SweepFile *const *)b;
    if (x->st.st_dev != y->st.st_dev)
        return x->st.st_dev < y->st.st_dev ? -1 : 1;
    if (x->st.st_ino != y->st.st_ino)
        return x->st.st_ino < y->st.st_ino ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

static void name_file(char *buf, size_t len, const SweepFile *f)
{
    if (f->row)
        snprintf(buf, len, "%s of row %ld", sweep_file_what[f->what], f->row);
    else
        snprintf(buf, len, "%s", sweep_file_what[f->what]);
}

/* Two files of the sweep that are one: an error naming both. */
static int same_file_error(const Sweep *w, const SweepFile *a, const SweepFile *b)
{
    char x[96], y[96];
    name_file(x, sizeof x, a);
    name_file(y, sizeof y, b);
    if (!strcmp(a->path, b->path))
        rt_usage_error(w->prog, "'%s' would be both %s and %s: every file a sweep "
                       "writes must be its own%s", a->path, x, y,
                       a->row && b->row && a->row != b->row
                           ? " (labels such as 'x' and 'x.meta' collide through "
                             "the units file RESULTS.meta)"
                           : "");
    else
        rt_usage_error(w->prog, "'%s' (%s) and '%s' (%s) are the same file", a->path,
                       x, b->path, y);
    return -1;
}

/* Every file the sweep writes, compared with the files it reads (the sets
   file, --input) and with each other, by name and by device and inode,
   before any row runs: no row may write another's file, its sidecars
   (RESULTS.meta, and RESULTS.summary for rows run one at a time)
   included, nor the summary. */
static int check_outputs(Sweep *w)
{
    const RtOptions *o = &w->s->opt;
    int rows_summary = w->o->row != 0 || w->o->collect;
    const char *sum = rt_sweep_to_stdout(w->o->summary_path) ? NULL : w->o->summary_path;
    size_t cap = (size_t)w->n_rows * 4 + 1, n = 0;
    SweepFile *files = rt_xcalloc(cap, sizeof *files);
    for (long k = 1; k <= w->n_rows; k++) {
        char *res = rt_sweep_subst_row(o->out_path, w->labels[k - 1]);
        files[n++] = (SweepFile){.path = res, .row = k, .what = SWEEP_RESULTS};
        files[n++] = (SweepFile){.path = rt_meta_path(res), .row = k, .what = SWEEP_META,
                                 .replaced = 1};
        if (o->events_path)
            files[n++] = (SweepFile){.path = rt_sweep_subst_row(o->events_path, w->labels[k - 1]),
                                     .row = k, .what = SWEEP_EVENTS};
        if (rows_summary) {
            size_t len = strlen(res) + sizeof ".summary";
            char *p = rt_xcalloc(len, 1);
            snprintf(p, len, "%s.summary", res);
            files[n++] = (SweepFile){.path = p, .row = k, .what = SWEEP_ROW_SUMMARY,
                                     .replaced = 1};
        }
    }
    if (sum)
        files[n++] = (SweepFile){.path = rt_xstrdup(sum), .what = SWEEP_SUMMARY};
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        char what[96];
        name_file(what, sizeof what, &files[i]);
        rc = rt_refuse_input(w->prog, o, files[i].path, files[i].replaced, what);
    }
    /* by name, then the files that exist by device and inode */
    const char **names = rt_xcalloc(n + 1, sizeof *names);
    for (size_t i = 0; i < n; i++)
        names[i] = files[i].path;
    RtNameIndex *ix = rc == 0 ? rt_names_new(rt_names_of(names), (int)n) : NULL;
    for (size_t i = 0; ix && i < n && rc == 0; i++) {
        int first = rt_names_find(ix, names[i], strlen(names[i]));
        if (first >= 0 && (size_t)first != i)
            rc = same_file_error(w, &files[first], &files[i]);
    }
    rt_names_free(ix);
    free(names);
    SweepFile **there = rt_xcalloc(n + 1, sizeof *there);
    size_t nthere = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        SweepFile *f = &files[i];
        f->there = (f->replaced ? lstat(f->path, &f->st) : stat(f->path, &f->st)) == 0;
        if (f->there && S_ISREG(f->st.st_mode))
            there[nthere++] = f;
    }
    qsort(there, nthere, sizeof *there, by_file);
    for (size_t i = 1; i < nthere && rc == 0; i++)
        if (by_file(&there[i - 1], &there[i]) != 0 && there[i - 1]->st.st_dev == there[i]->st.st_dev
            && there[i - 1]->st.st_ino == there[i]->st.st_ino)
            rc = same_file_error(w, there[i - 1], there[i]);
    free(there);
    for (size_t i = 0; i < n; i++)
        free(files[i].path);
    free(files);
    return rc;
}

/* -o and --events name one file per row; the summary is none of them. */
static int check_paths(Sweep *w)
{
    const RtOptions *o = &w->s->opt;
    const char *prog = w->prog;
    if (rt_sweep_to_stdout(o->out_path)) {
        rt_usage_error(prog, "a sweep writes each row's results to its own "
                       "file: give -o with {row} in the name, e.g. -o "
                       "'out-{row}.csv'");
        return -1;
    }
    if (o->events_path && !strcmp(o->events_path, "-")) {
        rt_usage_error(prog, "a sweep writes each row's event log to its own "
                       "file: give --events with {row} in the name, e.g. "
                       "--events 'events-{row}.csv'");
        return -1;
    }
    const char *pats[] = {o->out_path, o->events_path};
    const char *opts[] = {"-o", "--events"};
    for (int i = 0; i < 2; i++) {
        if (pats[i] && w->n_rows > 1 && !strstr(pats[i], "{row}")) {
            rt_usage_error(prog, "%s '%s' has no {row} in it: all %ld rows "
                           "would write that one file; put {row} where the "
                           "row's number (or label) goes, e.g. 'out-{row}.csv'",
                           opts[i], pats[i], w->n_rows);
            return -1;
        }
    }
    if (o->events_path && !strcmp(o->events_path, o->out_path)) {
        rt_usage_error(prog, "-o and --events name the same files '%s'",
                       o->out_path);
        return -1;
    }
    /* a row's sidecars (RESULTS.meta; RESULTS.summary for --sweep-row)
       replace whatever file has their name: not the event log (each
       row's open_outputs compares the files too, this refuses the
       patterns before any row runs) */
    const char *sides[] = {".meta", ".summary"};
    for (int i = 0; o->events_path && i < 1 + (w->o->row != 0); i++) {
        size_t n = strlen(o->out_path);
        if (!strncmp(o->events_path, o->out_path, n)
            && !strcmp(o->events_path + n, sides[i])) {
            rt_usage_error(prog, "--events '%s' is the %s of each row's results "
                           "('%s' beside '%s'): it would replace the event log; "
                           "name another file", o->events_path,
                           i ? "summary line" : "units file", sides[i], o->out_path);
            return -1;
        }
    }
    return check_outputs(w);
}

/* The mode options against each other and the row count. */
static int check_mode(const Sweep *w)
{
    const RtSweepOptions *o = w->o;
    if (o->row && (o->collect || o->check)) {
        rt_usage_error(w->prog, "--sweep-row runs one row; it does not go "
                       "with --sweep-collect or --sweep-check");
        return -1;
    }
    if (o->collect && o->check) {
        rt_usage_error(w->prog, "--sweep-collect and --sweep-check do not go "
                       "together");
        return -1;
    }
    if (o->row && o->summary_path) {
        rt_usage_error(w->prog, "--sweep-row writes its summary line next to "
                       "its results (RESULTS.summary); --sweep-summary is for "
                       "--sweep and --sweep-collect");
        return -1;
    }
    if (o->row > w->n_rows) {
        rt_usage_error(w->prog, "--sweep-row %ld: %s has %ld row%s", o->row,
                       w->path, w->n_rows, w->n_rows == 1 ? "" : "s");
        return -1;
    }
    return 0;
}

int rt_sweep_check(Sweep *w)
{
    return check_header(w) != 0 || check_rows(w) != 0 || check_paths(w) != 0
           || check_mode(w) != 0 ? -1 : 0;
}
