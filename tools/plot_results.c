/*
 * plot_results.c - reading a results file and its RESULTS.meta for
 * `lmdlc plot` (plot_results.h).
 *
 * The header is read as RFC 4180 (a quoted name may hold commas, quotes
 * and line breaks; CRLF and a byte order mark are accepted), as
 * RESULTS.meta is; the rows are read by plot.c as they go to gnuplot.
 * RESULTS.meta's format is described in runtime/rt_sidecar.c, which
 * writes it: a fixed header line, then `model`, `column` and `state`
 * records.  It is used only if its `column` records name the results
 * file's header, one for one; otherwise it belongs to another run and the
 * plot says so and draws without units.  Record kinds it does not know
 * are skipped, so the format can grow.
 */
#include "plot_results.h"

#include "tool.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The first line of RESULTS.meta (RT_META_HEADER in runtime/rt_sidecar.h,
   a header the compiler's tools cannot include: it needs GSL's). */
static const char *const meta_header[] = {"record", "name", "unit", "kind", "description"};
enum { META_FIELDS = 5 };

/* ---- memory and text ---------------------------------------------------------- */

static void out_of_memory(void)
{
    if (diag_format() == DIAG_FORMAT_JSON)
        fputs("{\"file\":null,\"line\":null,\"column\":null,\"end_line\":null,"
              "\"end_column\":null,\"severity\":\"error\",\"message\":\"out of memory\","
              "\"notes\":[]}\n", stderr);
    else
        fprintf(stderr, "lmdlc: out of memory\n");
    exit(2);
}

void *plot_xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *plot_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        out_of_memory();
    return p;
}

char *plot_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(plot_xrealloc(NULL, n), s, n);
}

static void strs_add(PlotStrs *l, char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->s = plot_xrealloc(l->s, sizeof *l->s * (size_t)l->cap);
    }
    l->s[l->n++] = s;
}

static void strs_clear(PlotStrs *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->s[i]);
    l->n = 0;
}

static void strs_free(PlotStrs *l)
{
    strs_clear(l);
    free(l->s);
    l->s = NULL;
    l->cap = 0;
}

/* Length of the valid UTF-8 sequence at s, or 0. */
static int utf8_len(const unsigned char *s)
{
    int n = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3
            : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (n == 2 && s[0] < 0xc2)
        return 0;   /* overlong */
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

void plot_put_text(FILE *fp, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = utf8_len(p);
        if (n == 0 || (n == 1 && (*p < 0x20 || *p == 0x7f))) {
            fputc('?', fp);
            p++;
        } else {
            fwrite(p, 1, (size_t)n, fp);
            p += n;
        }
    }
}

/* s as plot_put_text prints it, in a new string. */
static char *harmless(const char *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        out_of_memory();
    plot_put_text(fp, s);
    if (fclose(fp) != 0)
        out_of_memory();
    return text;
}

void plot_message(const char *severity, const char *file, long line, const char *fmt, ...)
{
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    char *raw = plot_xrealloc(NULL, n > 0 ? (size_t)n + 1 : 1);
    raw[0] = 0;
    if (n > 0)
        vsnprintf(raw, (size_t)n + 1, fmt, ap);
    va_end(ap);
    char *msg = harmless(raw), *where = file ? harmless(file) : NULL;
    char lead[64];
    snprintf(lead, sizeof lead, "lmdlc: %s: ", severity);
    tool_message(severity, lead, where, line, NULL, "%s", msg);
    free(raw);
    free(msg);
    free(where);
}

/* ---- CSV records ---------------------------------------------------------------- */

/* Reads one CSV record into r, counting lines in *line.  1 for a record,
   0 at the end of the file, -1 when a quote is never closed. */
static int read_record(FILE *fp, PlotStrs *r, long *line)
{
    strs_clear(r);
    size_t len = 0, cap = 64;
    char *buf = plot_xrealloc(NULL, cap);
    bool quoted = false, any = false;
    for (;;) {
        int c = getc(fp);
        if (c == EOF && (quoted || !any)) {
            free(buf);
            return quoted ? -1 : 0;
        }
        any = true;
        if (quoted && c == '"') {
            int d = getc(fp);
            if (d != '"') {
                quoted = false;     /* a closing quote */
                ungetc(d, fp);
                continue;
            }
        } else if (!quoted && c == '"') {
            quoted = true;
            continue;
        } else if (!quoted && c == '\r') {
            int d = getc(fp);
            ungetc(d, fp);
            if (d == '\n')
                continue;           /* CRLF */
        } else if (!quoted && (c == ',' || c == '\n' || c == EOF)) {
            buf[len] = 0;
            strs_add(r, plot_xstrdup(buf));
            len = 0;
            if (c == ',')
                continue;
            *line += c == '\n';
            free(buf);
            return 1;
        }
        *line += c == '\n';
        if (len + 2 > cap)
            buf = plot_xrealloc(buf, cap *= 2);
        buf[len++] = (char)c;
    }
}

/* Skips a UTF-8 byte order mark. */
static void skip_bom(FILE *fp)
{
    int c = getc(fp);
    if (c == 0xef) {
        if (getc(fp) == 0xbb && getc(fp) == 0xbf)
            return;
        rewind(fp);
    } else if (c != EOF) {
        ungetc(c, fp);
    }
}

/* ---- the results file ------------------------------------------------------------ */

static int by_name(const void *a, const void *b)
{
    const PlotName *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->col > y->col) - (x->col < y->col);
}

int plot_column(const PlotResults *r, const char *name)
{
    int lo = 0, hi = r->names.n - 1;    /* the first at or after name */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(r->sorted[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < r->names.n - 1 && strcmp(r->sorted[lo].name, name) == 0 ? r->sorted[lo].col
                                                                        : -1;
}

int plot_results_open(PlotResults *r, const char *path)
{
    r->path = path;
    r->fp = fopen(path, "r");
    if (!r->fp) {
        plot_message("error", NULL, 0, "cannot read '%s': %s", path, strerror(errno));
        return 1;
    }
    skip_bom(r->fp);
    int got = read_record(r->fp, &r->names, &r->line);
    if (got <= 0 || r->names.n < 2 || strcmp(r->names.s[0], "time") != 0) {
        plot_message("error", NULL, 0, "'%s' is not a results file: its header must be "
                     "'time' and at least one column", path);
        return 1;
    }
    int n = r->names.n - 1;
    r->sorted = plot_xrealloc(NULL, sizeof *r->sorted * (size_t)n);
    for (int i = 0; i < n; i++)
        r->sorted[i] = (PlotName){r->names.s[i + 1], i + 1};
    qsort(r->sorted, (size_t)n, sizeof *r->sorted, by_name);
    return 0;
}

void plot_results_free(PlotResults *r)
{
    if (r->fp)
        fclose(r->fp);
    strs_free(&r->names);
    strs_free(&r->units);
    strs_free(&r->descs);
    free(r->sorted);
    free(r->meta_path);
    free(r->model);
    free(r->output);
    free(r->states);
}

const char *plot_unit(const PlotResults *r, int col)
{
    return r->have_meta && r->units.s[col][0] ? r->units.s[col] : NULL;
}

/* ---- RESULTS.meta ---------------------------------------------------------------- */

/* Why RESULTS.meta was not used, as a note. */
static void meta_ignored(const PlotResults *r, const char *why)
{
    plot_message("note", NULL, 0, "no units: '%s' %s; the y axes show no units",
                 r->meta_path, why);
}

/* Reads the records after the header; NULL, or why the file is not this
   results file's description. */
static const char *meta_records(PlotResults *r, FILE *fp, PlotStrs *rec)
{
    static const char *const other_run = "describes other columns (it was written "
                                         "by another run)";
    int ncol = r->names.n, col = 0, got;
    long line = 0;
    bool *is_state = plot_xcalloc((size_t)ncol, sizeof *is_state);
    const char *why = NULL;
    while (!why && (got = read_record(fp, rec, &line)) > 0) {
        if (rec->n < META_FIELDS)
            continue;       /* a blank line */
        if (strcmp(rec->s[0], "model") == 0) {
            free(r->model);
            r->model = plot_xstrdup(rec->s[1]);
        } else if (strcmp(rec->s[0], "column") == 0) {
            if (col >= ncol || strcmp(rec->s[1], r->names.s[col]) != 0) {
                why = other_run;
                break;
            }
            strs_add(&r->units, plot_xstrdup(rec->s[2]));
            strs_add(&r->descs, plot_xstrdup(rec->s[4]));
            r->output[col++] = strcmp(rec->s[3], "output") == 0;
        } else if (strcmp(rec->s[0], "state") == 0) {
            int c = plot_column(r, rec->s[1]);
            if (c > 0 && !is_state[c]) {
                is_state[c] = true;
                r->states[r->nstates++] = c;
            }
        }
    }
    free(is_state);
    if (!why && got < 0)
        why = "has a quote that is never closed";
    if (!why && col != ncol)
        why = other_run;
    return why;
}

void plot_meta_read(PlotResults *r)
{
    size_t n = strlen(r->path) + 6;
    r->meta_path = plot_xrealloc(NULL, n);
    snprintf(r->meta_path, n, "%s.meta", r->path);
    FILE *fp = fopen(r->meta_path, "r");
    if (!fp) {
        meta_ignored(r, errno == ENOENT ? "is missing (the simulator writes it beside "
                     "its -o FILE, not for standard output)" : strerror(errno));
        return;
    }
    r->output = plot_xcalloc((size_t)r->names.n, sizeof *r->output);
    r->states = plot_xcalloc((size_t)r->names.n, sizeof *r->states);
    PlotStrs rec = {0};
    long line = 0;
    bool header = read_record(fp, &rec, &line) > 0 && rec.n == META_FIELDS;
    for (int i = 0; header && i < META_FIELDS; i++)
        header = strcmp(rec.s[i], meta_header[i]) == 0;
    const char *why = header ? meta_records(r, fp, &rec)
                             : "is not a results description (its first line is not "
                               "'record,name,unit,kind,description')";
    strs_free(&rec);
    fclose(fp);
    if (why) {
        meta_ignored(r, why);
        free(r->model);
        r->model = NULL;
        strs_free(&r->units);
        strs_free(&r->descs);
        r->nstates = 0;
        return;
    }
    r->have_meta = true;
}
