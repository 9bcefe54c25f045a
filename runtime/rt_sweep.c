/*
 * rt_sweep.c - --sweep SETS.csv: one run per row of a sets file, each
 * row's results in its own file, and a summary CSV (docs/sweeps.md).
 *
 * The sets file has a header naming the parameters (the paths --param
 * takes), optionally a first column `row` or `id` of row labels, and one
 * row per run; a value is what --param would take after '=' ('250 mm'),
 * and an empty field leaves the parameter as it is.  Everything is
 * checked before any row runs: the paths, the field counts, the labels,
 * every value (through rt_params_apply, the --param code path, on a
 * scratch copy of the parameters), and the output names, so a typo in
 * row 900 does not surface after 899 runs.
 *
 * Each row runs in a forked child.  The child applies the row's values
 * with rt_params_apply and returns RT_SWEEP_CHILD to main, which carries
 * on exactly as for a single run, so a row's results are the bytes a
 * plain `--param` run writes.  The parent reads the child's stderr
 * through a pipe (passing it on, and keeping the first error line as the
 * row's message), its exit status, and the last row of its results file
 * (the final values), and writes one summary line.  A failed row never
 * stops the others; a crash in a row cannot take the sweep down.
 *
 * Engines that spread rows over machines (GNU parallel, Slurm) run one
 * row per process with --sweep-row K, which writes the row's summary line
 * next to its results (RESULTS.summary, atomically); --sweep-collect
 * merges those into the summary afterwards, marking rows whose line is
 * missing or belongs to another sets file.  --sweep-check validates and
 * prints the number of rows (lmdlc sweep uses it before it builds a job).
 *
 * Summary columns: row, each parameter column as given, status (ok, the
 * exit status, or "signal N"), message, then the final time and the final
 * values of the --vars columns (only those: every column of a large
 * model would make the summary unreadable).
 */
#include "rt_sweep.h"
#include "rt_json.h"

#include "rt_sidecar.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Labels become parts of file names, so they are kept to these. */
#define LABEL_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" \
                    "0123456789_.+-"
enum { MAX_LABEL = 64, MAX_MESSAGE = 2048 };

/* The results and event log names of a row's child: set in the child
   just before it returns to main, and kept reachable until it exits. */
static char *child_out, *child_events;

/* One sweep: the sets file checked against the model. */
typedef struct Sweep {
    RtSim *s;                   /* the simulation with the base parameters */
    const RtSweepOptions *o;    /* the options as given */
    const char *prog;           /* for messages */
    const char *path;           /* the sets file's name */
    RtSets sets;                /* its records; records[0] is the header */
    int first;                  /* 1 when column 1 holds row labels */
    int n_cols;                 /* fields per record */
    long n_rows;                /* records after the header */
    char **labels;              /* per row: what {row} becomes */
    int n_header;               /* summary columns */
    char **header;              /* their names */
    int status_col;             /* index of "status" in the summary */
    int n_final;                /* final values: time and the --vars */
    FILE *summary;              /* where summary lines go, or NULL */
    int in_child;               /* this process is a row's child */
} Sweep;

/* s without leading and trailing blanks, as a new string. */
static char *trimmed(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    return rt_xstrndup(s, n);
}

/* pattern with every "{row}" replaced by label; NULL stays NULL. */
static char *subst_row(const char *pattern, const char *label)
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

/* A message as one line: a newline in a file name must not split it. */
static char *one_line(const char *msg)
{
    char *s = rt_xstrdup(msg);
    for (char *c = s; *c; c++)
        if (iscntrl((unsigned char)*c))
            *c = ' ';
    return s;
}

static int to_stdout(const char *path)
{
    return !path || !strcmp(path, "-");
}

int rt_sweep_flag(RtSweepOptions *o, const char *arg)
{
    if (!strcmp(arg, "--sweep-collect"))
        o->collect = 1;
    else if (!strcmp(arg, "--sweep-check"))
        o->check = 1;
    else
        return 0;
    o->given = 1;
    return 1;
}

int rt_sweep_option(RtSweepOptions *o, const char *prog, const char *opt,
                    const char *val)
{
    o->given = 1;
    if (!strcmp(opt, "--sweep")) {
        o->sets_path = val;
        return 0;
    }
    if (!strcmp(opt, "--sweep-summary")) {
        o->summary_path = val;
        return 0;
    }
    /* --sweep-row: a positive decimal integer, nothing else */
    char *end;
    errno = 0;
    long k = strtol(val, &end, 10);
    if (!isdigit((unsigned char)*val) || *end || errno == ERANGE || k < 1) {
        rt_usage_error(prog, "--sweep-row expects a row number (1 for the "
                       "first row under the header), not '%s'", val);
        return -1;
    }
    o->row = k;
    return 0;
}

/* "SETS:LINE: " in front of a message about the sets file. */
static void sets_error(const Sweep *w, long line, const char *fmt, ...)
    RT_PRINTF(3, 4);
static void sets_error(const Sweep *w, long line, const char *fmt, ...)
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
        sets_error(w, 0, "the file is empty: it needs a header naming the "
                   "parameters, then one row per run");
        return -1;
    }
    RtSetsRecord *h = &w->sets.records[0];
    w->n_cols = h->n_fields;
    char *c0 = trimmed(h->fields[0]);
    w->first = !strcmp(c0, "row") || !strcmp(c0, "id");
    free(c0);
    const char **names = rt_xcalloc((size_t)m->n_params, sizeof *names);
    for (int i = 0; i < m->n_params; i++)
        names[i] = m->params[i].name;
    RtNameIndex *ix = rt_names_new(names, m->n_params);
    int *seen = rt_xcalloc((size_t)m->n_params, sizeof *seen);
    int rc = 0;
    for (int c = w->first; c < w->n_cols && rc == 0; c++) {
        char *name = trimmed(h->fields[c]);
        char col[32];
        snprintf(col, sizeof col, "column %d", c + 1);
        size_t len = strlen(name);
        int k = len ? rt_names_find(ix, name, len) : -1;
        rc = -1;
        if (!len) {
            sets_error(w, h->line, "%s has no name: the header names a "
                       "parameter in every column", col);
        } else if (k < 0) {
            const char *hint = rt_names_suggest(names, m->n_params, name, len);
            sets_error(w, h->line, "%s '%s' is not a parameter of %s%s%s%s",
                       col, name, m->name ? m->name : "the model",
                       hint ? "; did you mean '" : "", hint ? hint : "",
                       hint ? "'?" : "");
        } else if (rt_param_fixed(&m->params[k])) {
            sets_error(w, h->line, "%s '%s' %s, so a sweep cannot change it", col,
                       name, rt_param_fixed(&m->params[k]));
        } else if (m->params[k].structural) {
            sets_error(w, h->line, "%s '%s' is a structural parameter: it "
                       "chooses the model's equations at compile time, so "
                       "a sweep cannot change it; change it in the model "
                       "and build one simulator per value", col, name);
        } else if (seen[k]) {
            sets_error(w, h->line, "'%s' is in column %d and again in %s",
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
        sets_error(w, h->line, "no rows under the header: nothing to run");
        rc = -1;
    }
    w->n_rows = w->sets.n_records - 1;
    return rc;
}

/* The row's non-empty values as "path=value" specs for rt_params_apply. */
static char **row_specs(const Sweep *w, long k, int *n)
{
    const RtSetsRecord *h = &w->sets.records[0];
    const RtSetsRecord *r = &w->sets.records[k];
    char **specs = rt_xcalloc((size_t)w->n_cols, sizeof *specs);
    *n = 0;
    for (int c = w->first; c < w->n_cols; c++) {
        char *v = trimmed(r->fields[c]);
        if (*v) {
            size_t len = strlen(h->fields[c]) + strlen(v) + 2;
            specs[*n] = rt_xcalloc(len, 1);
            snprintf(specs[(*n)++], len, "%s=%s", h->fields[c], v);
        }
        free(v);
    }
    return specs;
}

static void free_specs(char **specs, int n)
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
            sets_error(w, r->line, "row %ld has %d field%s, but the header "
                       "has %d", k, r->n_fields, r->n_fields == 1 ? "" : "s",
                       w->n_cols);
            rc = -1;
            break;
        }
        if (w->first) {
            w->labels[k - 1] = trimmed(r->fields[0]);
            if (!valid_label(w->labels[k - 1])) {
                sets_error(w, r->line, "row %ld: the label '%s' must be 1 to "
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
        char **specs = row_specs(w, k, &n);
        if (rt_params_apply(&scratch, specs, n) != 0) {
            RtMsg g;
            FILE *o = rt_msg_begin(&g, stderr, w->prog, "note", NULL, NULL);
            g.file = w->path;   /* the place, as JSON has it */
            g.line = r->line;
            fprintf(o, "in %s, line %ld (row %ld)\n", w->path, r->line, k);
            rt_msg_end(&g);
            rc = -1;
        }
        free_specs(specs, n);
    }
    free(scratch.p);
    free(scratch.overridden);
    if (rc == 0 && w->first) {
        RtNameIndex *ix = rt_names_new((const char *const *)w->labels,
                                       (int)w->n_rows);
        for (long k = 0; k < w->n_rows && rc == 0; k++) {
            const char *l = w->labels[k];
            int first = rt_names_find(ix, l, strlen(l));
            if (first != k) {
                sets_error(w, w->sets.records[k + 1].line, "the label '%s' "
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
    const char *sum = to_stdout(w->o->summary_path) ? NULL : w->o->summary_path;
    size_t cap = (size_t)w->n_rows * 4 + 1, n = 0;
    SweepFile *files = rt_xcalloc(cap, sizeof *files);
    for (long k = 1; k <= w->n_rows; k++) {
        char *res = subst_row(o->out_path, w->labels[k - 1]);
        files[n++] = (SweepFile){.path = res, .row = k, .what = SWEEP_RESULTS};
        files[n++] = (SweepFile){.path = rt_meta_path(res), .row = k, .what = SWEEP_META,
                                 .replaced = 1};
        if (o->events_path)
            files[n++] = (SweepFile){.path = subst_row(o->events_path, w->labels[k - 1]),
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
    RtNameIndex *ix = rc == 0 ? rt_names_new(names, (int)n) : NULL;
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
    if (to_stdout(o->out_path)) {
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

/* The summary's column names. */
static void make_header(Sweep *w, const char *vars)
{
    int n_vars = 0;
    if (vars) {
        n_vars = 1;
        for (const char *c = vars; *c; c++)
            n_vars += *c == ',';
    }
    w->n_final = 1 + n_vars;
    int n_params = w->n_cols - w->first;
    w->n_header = 1 + n_params + 2 + w->n_final;
    w->header = rt_xcalloc((size_t)w->n_header, sizeof *w->header);
    int i = 0;
    w->header[i++] = rt_xstrdup("row");
    for (int c = w->first; c < w->n_cols; c++)
        w->header[i++] = trimmed(w->sets.records[0].fields[c]);
    w->status_col = i;
    w->header[i++] = rt_xstrdup("status");
    w->header[i++] = rt_xstrdup("message");
    w->header[i++] = rt_xstrdup("time");
    for (const char *at = vars; at && i < w->n_header;) {
        const char *comma = strchr(at, ',');
        size_t len = comma ? (size_t)(comma - at) : strlen(at);
        w->header[i++] = rt_xstrndup(at, len);
        at = comma ? comma + 1 : NULL;
    }
}

static void write_fields(FILE *fp, char *const *fields, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            fputc(',', fp);
        rt_csv_field(fp, fields[i]);
    }
    fputc('\n', fp);
}

static void free_fields(char **fields, int n)
{
    for (int i = 0; i < n; i++)
        free(fields[i]);
    free(fields);
}

/* A summary line with the row's label and values filled in. */
static char **new_line(const Sweep *w, long k)
{
    char **f = rt_xcalloc((size_t)w->n_header, sizeof *f);
    f[0] = rt_xstrdup(w->labels[k - 1]);
    for (int c = w->first; c < w->n_cols; c++)
        f[1 + c - w->first] = rt_xstrdup(w->sets.records[k].fields[c]);
    return f;
}

/* The last data row of the CSV results file path, split into up to n
   fields in out[] (left NULL when the file has no data row, is not a
   results CSV, or is older than the row's run: a row that failed before
   it opened its results must not show the last sweep's values). */
static void final_values(const char *path, time_t started, char **out, int n)
{
    struct stat st;
    if (stat(path, &st) != 0 || st.st_mtime < started - 1)
        return;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return;
    char head[5];
    long end;
    if (fread(head, 1, 5, fp) != 5 || memcmp(head, "time", 4) != 0
        || (head[4] != ',' && head[4] != '\n' && head[4] != '\r')
        || fseek(fp, 0, SEEK_END) != 0 || (end = ftell(fp)) < 0) {
        fclose(fp);
        return;
    }
    /* back over the final line end, then to the line end before it */
    char buf[4096];
    long start = end;
    int found = 0, trailing = 1;
    while (start > 0 && !found) {
        long chunk = start < (long)sizeof buf ? start : (long)sizeof buf;
        if (fseek(fp, start - chunk, SEEK_SET) != 0
            || fread(buf, 1, (size_t)chunk, fp) != (size_t)chunk)
            break;
        long i = chunk;
        while (i > 0) {
            char c = buf[--i];
            if (trailing && (c == '\n' || c == '\r')) {
                end = start - chunk + i;
                continue;
            }
            trailing = 0;
            if (c == '\n') {
                start = start - chunk + i + 1;
                found = 1;
                break;
            }
        }
        if (!found)
            start -= chunk;
    }
    if (!found || end <= start || fseek(fp, start, SEEK_SET) != 0) {
        fclose(fp);
        return;
    }
    char *line = rt_xcalloc((size_t)(end - start) + 1, 1);
    if (fread(line, 1, (size_t)(end - start), fp) == (size_t)(end - start)) {
        char *at = line;
        for (int i = 0; i < n && at; i++) {
            char *comma = strchr(at, ',');
            out[i] = comma ? rt_xstrndup(at, (size_t)(comma - at)) : rt_xstrdup(at);
            at = comma ? comma + 1 : NULL;
        }
    }
    free(line);
    fclose(fp);
}

/* ---- a row's messages as JSON ------------------------------------------------------ */

/* A line a row's child wrote as JSON (the objects of rt_report.c, with
   LMDL_DIAGNOSTICS_FORMAT=json) as the text line it stands for,
   "LOCATION: SEVERITY: MESSAGE", "PROG: SEVERITY: FILE:LINE: MESSAGE" or
   "PROG: SEVERITY: MESSAGE", so that the row's message in the summary is
   the same in both formats; NULL when the line is no such object. */
static char *json_line_text(const char *prog, const char *line)
{
    const char *p = line;
    char *file = NULL, *severity = NULL, *message = NULL, *text = NULL;
    long at[2] = {0, 0};        /* line, column; 0 unknown */
    if (*p++ != '{')
        return NULL;
    while (*p == '"') {
        p++;
        char *key = rt_json_decode(&p);
        if (!key || *p++ != ':') {
            free(key);
            goto done;
        }
        char **str = !strcmp(key, "file") ? &file : !strcmp(key, "severity") ? &severity
                     : !strcmp(key, "message") ? &message : NULL;
        char *end = NULL;
        int bad = 0;
        if (*p == '"') {
            p++;
            char *v = rt_json_decode(&p);
            bad = !v;
            if (str && v && !*str)
                *str = v;
            else
                free(v);
        } else if (!strncmp(p, "null", 4)) {
            p += 4;
        } else if (*p == '[') {
            bad = rt_json_skip_array(&p) != 0;
        } else {
            long v = strtol(p, &end, 10);
            bad = end == p;
            p = end;
            if (!strcmp(key, "line") || !strcmp(key, "column"))
                at[key[0] == 'c'] = v;
        }
        free(key);
        if (bad)
            goto done;
        if (*p == ',')
            p++;
    }
    if (*p != '}' || !severity || !message)
        goto done;
    size_t n = strlen(prog) + (file ? strlen(file) : 0) + strlen(severity)
               + strlen(message) + 64;
    text = rt_xcalloc(n, 1);
    if (file && at[0] > 0 && at[1] > 0)
        snprintf(text, n, "%s:%ld:%ld: %s: %s", file, at[0], at[1], severity, message);
    else if (file && at[0] > 0)
        snprintf(text, n, "%s: %s: %s:%ld: %s", prog, severity, file, at[0], message);
    else
        snprintf(text, n, "%s: %s: %s", prog, severity, message);
done:
    free(file);
    free(severity);
    free(message);
    return text;
}

/* What a row's child said on stderr: passed on as it comes, with its
   first error line (or else its last line) kept as the row's message. */
typedef struct ChildErr {
    const char *prog;           /* the program, for JSON lines */
    char line[MAX_MESSAGE];     /* the line being read, truncated */
    size_t len;                 /* its length */
    char *error;                /* the first line with ": error: " */
    char *last;                 /* the last non-empty line */
} ChildErr;

static void child_line(ChildErr *e)
{
    e->line[e->len] = 0;
    if (e->len == 0)
        return;
    char *text = e->line[0] == '{' ? json_line_text(e->prog, e->line) : NULL;
    const char *line = text ? text : e->line;
    if (!e->error && strstr(line, ": error: "))
        e->error = rt_xstrdup(line);
    free(e->last);
    e->last = rt_xstrdup(line);
    free(text);
    e->len = 0;
}

static void drain_stderr(int fd, ChildErr *e)
{
    char buf[4096];
    for (;;) {
        ssize_t got = read(fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        fwrite(buf, 1, (size_t)got, stderr);
        for (ssize_t i = 0; i < got; i++) {
            if (buf[i] == '\n')
                child_line(e);
            else if (buf[i] != '\r' && e->len + 1 < sizeof e->line)
                e->line[e->len++] = buf[i];
        }
    }
    fflush(stderr);
    child_line(e);
}

/* Runs row k in a child.  In the parent: fills the summary line f and
   returns the row's exit status (128 + N for a signal N).  In the child
   (w->in_child set): returns RT_SWEEP_CHILD, or RT_EXIT_USAGE when its
   values are refused after all. */
static int run_row(Sweep *w, long k, char **f)
{
    RtSim *s = w->s;
    char *out = subst_row(s->opt.out_path, w->labels[k - 1]);
    char *events = subst_row(s->opt.events_path, w->labels[k - 1]);
    int fds[2];
    if (pipe(fds) != 0) {
        rt_usage_error(w->prog, "cannot make a pipe: %s", strerror(errno));
        free(out);
        free(events);
        return RT_EXIT_SIM;
    }
    fflush(NULL);           /* nothing buffered may be written twice */
    time_t started = time(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        w->in_child = 1;
        close(fds[0]);
        dup2(fds[1], STDERR_FILENO);
        close(fds[1]);
        int n;
        char **specs = row_specs(w, k, &n);
        int rc = rt_params_apply(s, specs, n);
        free_specs(specs, n);
        child_out = out;
        child_events = events;
        s->opt.out_path = child_out;
        s->opt.events_path = child_events;
        return rc == 0 ? RT_SWEEP_CHILD : RT_EXIT_USAGE;
    }
    close(fds[1]);
    int status = RT_EXIT_SIM, signo = 0;
    ChildErr e = {w->prog, {0}, 0, NULL, NULL};
    char msg[MAX_MESSAGE + 64];
    msg[0] = 0;
    if (pid < 0) {
        snprintf(msg, sizeof msg, "cannot start the row: %s", strerror(errno));
        close(fds[0]);
    } else {
        drain_stderr(fds[0], &e);
        close(fds[0]);
        int ws = 0;
        while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
            ;
        if (WIFEXITED(ws)) {
            status = WEXITSTATUS(ws);
        } else if (WIFSIGNALED(ws)) {
            signo = WTERMSIG(ws);
            status = 128 + signo;
            snprintf(msg, sizeof msg, "killed by signal %d (%s)", signo,
                     strsignal(signo));
        }
    }
    char num[32];
    if (signo)
        snprintf(num, sizeof num, "signal %d", signo);
    else if (status == 0)
        snprintf(num, sizeof num, "ok");
    else
        snprintf(num, sizeof num, "%d", status);
    f[w->status_col] = rt_xstrdup(num);
    if (status != 0 && !msg[0])
        snprintf(msg, sizeof msg, "%s", e.error ? e.error : e.last ? e.last
                 : "(no message)");
    f[w->status_col + 1] = one_line(msg);
    final_values(out, started, f + w->status_col + 2, w->n_final);
    free(e.error);
    free(e.last);
    free(out);
    free(events);
    return status;
}

static void sweep_free(Sweep *w)
{
    if (w->labels)
        for (long k = 0; k < w->n_rows; k++)
            free(w->labels[k]);
    free(w->labels);
    if (w->header)
        free_fields(w->header, w->n_header);
    rt_sets_free(&w->sets);
}

/* The summary: standard output, or the named file (never through a
   symbolic link). */
static FILE *open_summary(const Sweep *w)
{
    const char *path = w->o->summary_path;
    if (to_stdout(path))
        return stdout;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0666);
    FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!fp) {
        rt_usage_error(w->prog, "cannot write the summary '%s': %s", path,
                       strerror(errno));
        if (fd >= 0)
            close(fd);
    }
    return fp;
}

static int close_summary(const Sweep *w, FILE *fp)
{
    int bad = fp == stdout ? fflush(fp) != 0 : fclose(fp) != 0;
    if (bad)
        rt_message(stderr, w->prog, "error", "cannot write the summary '%s'",
                   to_stdout(w->o->summary_path) ? "standard output"
                   : w->o->summary_path);
    return bad ? -1 : 0;
}

/* The two lines of a row's RESULTS.summary. */
typedef struct Fragment {
    const Sweep *w;             /* the sweep */
    char *const *f;             /* the row's summary line */
} Fragment;

static void fill_fragment(FILE *fp, const void *ctx)
{
    const Fragment *fr = ctx;
    write_fields(fp, fr->w->header, fr->w->n_header);
    write_fields(fp, fr->f, fr->w->n_header);
}

/* --sweep-row: the row's summary line, written atomically next to its
   results as RESULTS.summary (a collect never sees half a file). */
static int write_fragment(const Sweep *w, long k, char **f)
{
    char *out = subst_row(w->s->opt.out_path, w->labels[k - 1]);
    size_t n = strlen(out) + 16;
    char *path = rt_xcalloc(n, 1);
    snprintf(path, n, "%s.summary", out);
    Fragment fr = {w, f};
    int rc = rt_sidecar_replace(path, fill_fragment, &fr);
    if (rc != 0)
        rt_message(stderr, w->prog, "error", "cannot write the row's summary '%s': %s",
                   path, strerror(errno));
    free(out);
    free(path);
    return rc;
}

/* --sweep-collect: row k's line from its RESULTS.summary, checked to be
   this sets file's row under this header; 1 if the row succeeded. */
static int collect_row(const Sweep *w, long k, char **f)
{
    char *out = subst_row(w->s->opt.out_path, w->labels[k - 1]);
    size_t n = strlen(out) + 16;
    char *path = rt_xcalloc(n, 1);
    snprintf(path, n, "%s.summary", out);
    free(out);
    char err[256], msg[MAX_MESSAGE];
    const char *status = "missing";
    long line;
    RtSets frag;
    struct stat st;
    msg[0] = 0;
    if (stat(path, &st) != 0 && errno == ENOENT) {
        snprintf(msg, sizeof msg, "no summary line '%s': the row has not "
                 "run, or has not finished", path);
    } else if (rt_sets_read(path, &frag, err, sizeof err, &line) != 0) {
        status = "unreadable";
        snprintf(msg, sizeof msg, "%s:%ld: %s", path, line, err);
    } else {
        int good = frag.n_records == 2;
        for (int i = 0; good && i < w->n_header; i++)
            good = frag.records[0].n_fields == w->n_header
                   && frag.records[1].n_fields == w->n_header
                   && !strcmp(frag.records[0].fields[i], w->header[i])
                   && (i >= w->status_col
                       || !strcmp(frag.records[1].fields[i], f[i]));
        if (good) {
            for (int i = w->status_col; i < w->n_header; i++) {
                free(f[i]);
                f[i] = rt_xstrdup(frag.records[1].fields[i]);
            }
        } else {
            status = "mismatch";
            snprintf(msg, sizeof msg, "'%s' is not this row's summary line "
                     "(another sets file, or other --vars): run the row "
                     "again", path);
        }
        rt_sets_free(&frag);
    }
    if (msg[0]) {
        f[w->status_col] = rt_xstrdup(status);
        f[w->status_col + 1] = one_line(msg);
    }
    free(path);
    return !strcmp(f[w->status_col], "ok");
}

/* Every row of the sweep, or the collected lines, into the summary. */
static int run_all(Sweep *w)
{
    long failed = 0;
    int rc = 0;
    write_fields(w->summary, w->header, w->n_header);
    for (long k = 1; k <= w->n_rows; k++) {
        char **f = new_line(w, k);
        int ok;
        if (w->o->collect) {
            ok = collect_row(w, k, f);
        } else {
            int st = run_row(w, k, f);
            if (w->in_child) {
                free_fields(f, w->n_header);
                return st;
            }
            ok = st == 0;
            if (!ok && !w->s->opt.quiet)
                rt_message(stderr, w->prog, "note", "row %s failed (status %s); the "
                           "other rows go on", w->labels[k - 1], f[w->status_col]);
        }
        failed += !ok;
        write_fields(w->summary, f, w->n_header);
        if (fflush(w->summary) != 0)
            rc = -1;
        free_fields(f, w->n_header);
    }
    if (failed && !w->s->opt.quiet)
        rt_message(stderr, w->prog, "note", "%ld of %ld rows %s", failed, w->n_rows,
                   w->o->collect ? "did not succeed" : "failed");
    return rc != 0 ? RT_EXIT_SIM : failed ? RT_EXIT_SIM : RT_EXIT_OK;
}

int rt_sweep_run(RtSim *s, const RtSweepOptions *o, const char *vars)
{
    Sweep w;
    memset(&w, 0, sizeof w);
    w.s = s;
    w.o = o;
    w.prog = s->prog;
    w.path = o->sets_path;
    if (!w.path) {
        rt_usage_error(w.prog, "--sweep-row, --sweep-summary, --sweep-collect "
                       "and --sweep-check need --sweep SETS.csv");
        return RT_EXIT_USAGE;
    }
    char err[256];
    long line;
    if (rt_sets_read(w.path, &w.sets, err, sizeof err, &line) != 0) {
        sets_error(&w, line, "%s", err);
        return RT_EXIT_USAGE;
    }
    /* no file the sweep writes may be the sets file (rt_inputs.c) */
    rt_inputs_add(&s->opt, w.path, "the sets file");
    if (check_header(&w) != 0 || check_rows(&w) != 0 || check_paths(&w) != 0
        || check_mode(&w) != 0) {
        sweep_free(&w);
        return RT_EXIT_USAGE;
    }
    make_header(&w, vars);
    int status;
    if (o->check) {
        printf("%ld\n", w.n_rows);
        status = RT_EXIT_OK;
    } else if (o->row) {
        char **f = new_line(&w, o->row);
        status = run_row(&w, o->row, f);
        if (!w.in_child && write_fragment(&w, o->row, f) != 0)
            status = RT_EXIT_SIM;
        if (!w.in_child && status > 128)
            status = RT_EXIT_SIM;
        free_fields(f, w.n_header);
    } else if (!(w.summary = open_summary(&w))) {
        status = RT_EXIT_USAGE;
    } else {
        status = run_all(&w);
        if (w.in_child) {
            if (w.summary != stdout)
                fclose(w.summary);
        } else if (close_summary(&w, w.summary) != 0) {
            status = RT_EXIT_SIM;
        }
    }
    sweep_free(&w);
    return status;
}
