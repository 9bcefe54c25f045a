/*
 * rt_sets.c - reading a CSV file (RFC 4180) into records of fields: the
 * sets file of a parameter sweep, and the one-row summaries that rows
 * run apart (--sweep-row) leave for --sweep-collect (rt_sweep.c).
 *
 * The format is RFC 4180 with the leniencies people's tools need:
 *
 *   - records end with CRLF or LF, and the last one may have no line end;
 *   - a field is either plain (no quote in it) or quoted from its first
 *     character to a closing quote, with "" for a quote; a quoted field
 *     may hold commas and line ends;
 *   - a UTF-8 byte order mark at the start (spreadsheets write one) is
 *     skipped, and so are empty lines, so a trailing blank line or a
 *     visual gap between groups of rows is not a record.
 *
 * Anything else (a quote inside a plain field, text after a closing
 * quote, an unterminated quote, a NUL byte) is an error with the line it
 * is on: a sets file is hand-written often enough that guessing what a
 * malformed line meant would run the wrong experiment.  Whether the
 * records have the right number of fields is the caller's business, which
 * knows what the columns are.
 */
#include "rt_sweep.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A sets file larger than this is surely not one (a results file given
   by mistake): refused instead of read into memory. */
#define RT_SETS_MAX_BYTES (256L << 20)

typedef struct Reader {
    const char *at, *end;       /* the unread text */
    long line;                  /* line of *at, 1-based */
    char *field;                /* the field being read */
    size_t len, cap;            /* its length and allocation */
    char *err;                  /* where a message goes */
    size_t errlen;
    long *errline;              /* the line of the error */
} Reader;

/* realloc that never returns NULL: stops the run like rt_xcalloc */
static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p) {
        fputs("error: out of memory\n", stderr);
        exit(RT_EXIT_SIM);
    }
    return p;
}

static void add_char(Reader *r, char c)
{
    if (r->len + 1 >= r->cap) {
        r->cap = r->cap ? 2 * r->cap : 64;
        r->field = xrealloc(r->field, r->cap);
    }
    r->field[r->len++] = c;
}

static int fail_at(Reader *r, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, r->errlen, fmt, ap);
    va_end(ap);
    *r->errline = line;
    return -1;
}

static int at_line_end(const Reader *r)
{
    return r->at < r->end && (*r->at == '\n'
                              || (*r->at == '\r' && r->at + 1 < r->end
                                  && r->at[1] == '\n'));
}

static void skip_line_end(Reader *r)
{
    r->at += *r->at == '\r' ? 2 : 1;
    r->line++;
}

/* One field into r->field; leaves r->at on the ',' or line end after it. */
static int read_field(Reader *r)
{
    r->len = 0;
    if (r->at < r->end && *r->at == '"') {
        long start = r->line;
        r->at++;
        for (;;) {
            if (r->at >= r->end)
                return fail_at(r, start, "a quoted field that never ends "
                               "(its closing quote is missing)");
            char c = *r->at++;
            if (c == 0)
                return fail_at(r, r->line, "a NUL byte");
            if (c == '"') {
                if (r->at < r->end && *r->at == '"') {
                    add_char(r, '"');
                    r->at++;
                    continue;
                }
                break;
            }
            if (c == '\n')
                r->line++;
            add_char(r, c);
        }
        if (r->at < r->end && *r->at != ',' && !at_line_end(r))
            return fail_at(r, r->line, "text after the closing quote of a "
                           "field (a quote inside a quoted field is "
                           "written twice: \"\")");
    } else {
        while (r->at < r->end && *r->at != ',' && !at_line_end(r)) {
            char c = *r->at++;
            if (c == 0)
                return fail_at(r, r->line, "a NUL byte");
            if (c == '"')
                return fail_at(r, r->line, "a quote inside an unquoted "
                               "field (quote the whole field, and write "
                               "each quote in it twice)");
            add_char(r, c);
        }
    }
    add_char(r, 0);
    return 0;
}

/* The records, from r->at to the end. */
static int read_records(Reader *r, RtSets *sets)
{
    long cap = 0;
    while (r->at < r->end) {
        if (at_line_end(r)) {           /* an empty line: no record */
            skip_line_end(r);
            continue;
        }
        if (sets->n_records == cap) {
            cap = cap ? 2 * cap : 16;
            sets->records = xrealloc(sets->records,
                                     (size_t)cap * sizeof *sets->records);
        }
        RtSetsRecord *rec = &sets->records[sets->n_records++];
        memset(rec, 0, sizeof *rec);
        rec->line = r->line;
        int fcap = 0;
        for (;;) {
            if (read_field(r) != 0)
                return -1;
            if (rec->n_fields == fcap) {
                fcap = fcap ? 2 * fcap : 8;
                rec->fields = xrealloc(rec->fields,
                                       (size_t)fcap * sizeof *rec->fields);
            }
            rec->fields[rec->n_fields++] = rt_xstrdup(r->field);
            if (r->at < r->end && *r->at == ',') {
                r->at++;
                continue;
            }
            if (r->at < r->end)
                skip_line_end(r);
            break;
        }
    }
    return 0;
}

int rt_sets_read(const char *path, RtSets *sets, char *err, size_t errlen,
                 long *errline)
{
    memset(sets, 0, sizeof *sets);
    *errline = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(err, errlen, "cannot read it: %s", strerror(errno));
        return -1;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 65536 > cap) {
            cap = cap ? 2 * cap : 65536;
            text = xrealloc(text, cap);
        }
        size_t got = fread(text + len, 1, cap - len, fp);
        len += got;
        if (len > (size_t)RT_SETS_MAX_BYTES) {
            snprintf(err, errlen, "it is larger than %ld MiB; is it the "
                     "right file?", RT_SETS_MAX_BYTES >> 20);
            free(text);
            fclose(fp);
            return -1;
        }
        if (got == 0)
            break;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        snprintf(err, errlen, "cannot read it");
        free(text);
        return -1;
    }
    Reader r = {text, text + len, 1, NULL, 0, 0, err, errlen, errline};
    if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
        r.at += 3;
    int rc = read_records(&r, sets);
    free(r.field);
    free(text);
    if (rc != 0)
        rt_sets_free(sets);
    return rc;
}

void rt_sets_free(RtSets *sets)
{
    for (long i = 0; i < sets->n_records; i++) {
        for (int j = 0; j < sets->records[i].n_fields; j++)
            free(sets->records[i].fields[j]);
        free(sets->records[i].fields);
    }
    free(sets->records);
    memset(sets, 0, sizeof *sets);
}
