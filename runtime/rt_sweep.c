/*
 * rt_sweep.c - --sweep SETS.csv: one run per row of a sets file, each
 * row's results in its own file, and a summary CSV (docs/sweeps.md).
 *
 * The sets file has a header naming the parameters (the paths --param
 * takes), optionally a first column `row` or `id` of row labels, and one
 * row per run; a value is what --param would take after '=' ('250 mm'),
 * and an empty field leaves the parameter as it is.  Everything is
 * checked before any row runs: the paths, the field counts, the labels,
 * every value (rt_sweep_check.c: through rt_params_apply, the --param code path, on a
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
#include "rt_sweep_internal.h"
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


/* The results and event log names of a row's child: set in the child
   just before it returns to main, and kept reachable until it exits. */
static char *child_out, *child_events;




/* A message as one line: a newline in a file name must not split it. */
static char *one_line(const char *msg)
{
    char *s = rt_xstrdup(msg);
    for (char *c = s; *c; c++)
        if (iscntrl((unsigned char)*c))
            *c = ' ';
    return s;
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

/* The summary's column names. */
static void make_header(Sweep *w, const char *vars)
{
    int n_vars = 0;
    for (const char *at = vars; at; n_vars++) {
        const char *comma = rt_names_end(at);
        at = comma ? comma + 1 : NULL;
    }
    w->n_final = 1 + n_vars;
    int n_params = w->n_cols - w->first;
    w->n_header = 1 + n_params + 2 + w->n_final;
    w->header = rt_xcalloc((size_t)w->n_header, sizeof *w->header);
    int i = 0;
    w->header[i++] = rt_xstrdup("row");
    for (int c = w->first; c < w->n_cols; c++)
        w->header[i++] = rt_sweep_trimmed(w->sets.records[0].fields[c]);
    w->status_col = i;
    w->header[i++] = rt_xstrdup("status");
    w->header[i++] = rt_xstrdup("message");
    w->header[i++] = rt_xstrdup("time");
    for (const char *at = vars; at && i < w->n_header;) {
        const char *comma = rt_names_end(at);
        size_t len = comma ? (size_t)(comma - at) : strlen(at);
        w->header[i++] = rt_xstrndup(at, len);
        at = comma ? comma + 1 : NULL;
    }
}

static void write_fields(FILE *fp, char *const *fields, int n)
{
    rt_csv_record(fp, (const char *const *)fields, n);
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
    char *out = rt_sweep_subst_row(s->opt.out_path, w->labels[k - 1]);
    char *events = rt_sweep_subst_row(s->opt.events_path, w->labels[k - 1]);
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
        char **specs = rt_sweep_row_specs(w, k, &n);
        int rc = rt_params_apply(s, specs, n);
        rt_sweep_free_specs(specs, n);
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
    if (rt_sweep_to_stdout(path))
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
                   rt_sweep_to_stdout(w->o->summary_path) ? "standard output"
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
    char *out = rt_sweep_subst_row(w->s->opt.out_path, w->labels[k - 1]);
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
    char *out = rt_sweep_subst_row(w->s->opt.out_path, w->labels[k - 1]);
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
        rt_sweep_sets_error(&w, line, "%s", err);
        return RT_EXIT_USAGE;
    }
    /* no file the sweep writes may be the sets file (rt_inputs.c) */
    rt_inputs_add(&s->opt, w.path, "the sets file");
    if (rt_sweep_check(&w) != 0) {
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
