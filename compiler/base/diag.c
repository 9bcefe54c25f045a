/*
 * diag.c - formatting of errors, warnings and notes: with a quoted source
 * line and a caret underline, or as JSON Lines for tools; plus "did you
 * mean": the closest candidate by edit distance, and the message's suffix
 * (tools/tool.c has the command line's form).
 */
#include "diag.h"

#include "rt_json.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { ERROR_LIMIT = 50 };

static int nerrors, nwarnings, limit_hit;

/* Errors already reported, as hashes of their place and text: the same
   expression can be checked more than once (an intermediate used in two
   equations, a function inlined at one call reached twice), and one
   mistake is reported once.  The notes of a dropped repeat are dropped
   with it. */
static uint64_t *seen;
static size_t nseen, capseen;
static bool dropping;
static FILE *out;
static DiagFormat format = DIAG_FORMAT_TEXT;

void diag_set_stream(FILE *fp)
{
    out = fp;
}

void diag_set_format(DiagFormat f)
{
    format = f;
}

DiagFormat diag_format(void)
{
    return format;
}

/* Bytes of the character echoed at offset i: a valid UTF-8 sequence, or
   one byte (shown as '?' when it is not valid). */
static uint32_t char_length(const SrcFile *f, uint32_t i, uint32_t stop)
{
    const unsigned char *c = (const unsigned char *)f->text + i;
    uint32_t len = *c >= 0x80 ? (uint32_t)rt_utf8_length(c, stop - i) : 1;
    return len ? len : 1;
}

enum { QUOTE_WIDTH = 200 };    /* bytes of a long line that are shown */

static bool continuation(const SrcFile *f, uint32_t i)
{
    return ((unsigned char)f->text[i] & 0xC0) == 0x80;
}

/* Quote line `line` of f and underline the part of it that sp covers.  A
   line longer than QUOTE_WIDTH is shown as a window around the caret, cut
   with "...". */
static void quote(SrcFile *f, SrcSpan sp, int line)
{
    uint32_t start = f->lines[line - 1];
    uint32_t stop = start;
    while (stop < f->len && f->text[stop] != '\n')
        stop++;
    if (stop > start && f->text[stop - 1] == '\r')
        stop--;
    uint32_t b = sp.begin < start ? start : sp.begin;
    if (b > stop)
        b = stop;
    uint32_t ws = start, we = stop;
    if (stop - start > QUOTE_WIDTH) {
        if (b - start > QUOTE_WIDTH / 2)
            ws = b - QUOTE_WIDTH / 2;
        while (ws < b && continuation(f, ws))
            ws++;
        if (we - ws > QUOTE_WIDTH)
            we = ws + QUOTE_WIDTH;
        while (we > b && we < stop && continuation(f, we))
            we--;
    }
    uint32_t e = sp.end > we ? we : sp.end;
    fprintf(out, "%5d | %s", line, ws > start ? "..." : "");
    /* Echo the line, replacing control bytes so the terminal sees nothing
       a file could use to move the cursor or change colours, and invalid
       UTF-8 so that the message itself stays valid text. */
    for (uint32_t i = ws; i < we; i += char_length(f, i, we)) {
        const unsigned char *c = (const unsigned char *)f->text + i;
        if (*c >= 0x80 && rt_utf8_length(c, we - i))
            fwrite(c, 1, char_length(f, i, we), out);
        else
            fputc(*c == '\t' ? '\t' : (*c < 0x20 || *c >= 0x7f) ? '?' : *c, out);
    }
    fprintf(out, "%s\n      | %s", we < stop ? "..." : "", ws > start ? "   " : "");
    /* One underline column per character echoed above. */
    uint32_t i = ws;
    while (i < b) {
        fputc(f->text[i] == '\t' ? '\t' : ' ', out);
        i += char_length(f, i, we);
    }
    fputc('^', out);
    if (i < e)
        i += char_length(f, i, we);
    while (i < e) {
        fputc('~', out);
        i += char_length(f, i, we);
    }
    fputc('\n', out);
}

/* ---- JSON Lines ------------------------------------------------------------ */

/* s as a JSON string (rt_json.c: the writer the simulator uses too). */
static void json_string(FILE *fp, const char *s)
{
    rt_json_string(fp, s, strlen(s));
}

/* "file", "line", "column", "end_line", "end_column": lines and columns
   count from 1, columns in code points as in the text format, and the end
   is exclusive (the column just past the last character).  Without a
   location they are null. */
static void json_location(FILE *fp, SrcSpan sp)
{
    SrcFile *f = src_get(sp.file);
    if (!f) {
        fputs("\"file\":null,\"line\":null,\"column\":null,"
              "\"end_line\":null,\"end_column\":null", fp);
        return;
    }
    int line, col, eline, ecol;
    src_linecol(sp, &line, &col);
    uint32_t end = sp.end < sp.begin ? sp.begin : sp.end;
    src_linecol((SrcSpan){sp.file, end, end}, &eline, &ecol);
    fputs("\"file\":", fp);
    json_string(fp, f->path);
    fprintf(fp, ",\"line\":%d,\"column\":%d,\"end_line\":%d,\"end_column\":%d", line,
            col, eline, ecol);
}

/* The error or warning being built, in a memory stream: its object up to
   the open notes array, closed by diag_flush(). */
static FILE *pending;
static char *pending_text;
static size_t pending_len;
static int pending_notes;

static void drop_pending(void)
{
    if (pending)
        fclose(pending);
    free(pending_text);
    pending = NULL;
    pending_text = NULL;
}

void diag_flush(void)
{
    if (!out)
        out = stderr;
    if (pending) {
        fclose(pending);
        pending = NULL;
        fwrite(pending_text, 1, pending_len, out);
        fputs("]}\n", out);
    }
    drop_pending();
    fflush(out);
}

static char *vformat(const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    char *s = malloc(n > 0 ? (size_t)n + 1 : 1);
    if (!s)
        abort();
    s[0] = 0;
    if (n > 0)
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

/* A note goes into the pending diagnostic's notes; an error or warning
   (or a note with nothing before it) starts a new object. */
static void json_report(const char *kind, SrcSpan sp, const char *fmt, va_list ap)
{
    char *msg = vformat(fmt, ap);
    if (strcmp(kind, "note") == 0 && pending) {
        fputs(pending_notes++ ? ",{" : "{", pending);
        json_location(pending, sp);
        fputs(",\"message\":", pending);
        json_string(pending, msg);
        fputc('}', pending);
    } else {
        diag_flush();
        pending = open_memstream(&pending_text, &pending_len);
        if (!pending)
            abort();
        pending_notes = 0;
        fputc('{', pending);
        json_location(pending, sp);
        fprintf(pending, ",\"severity\":\"%s\",\"message\":", kind);
        json_string(pending, msg);
        fputs(",\"notes\":[", pending);
    }
    free(msg);
}

void diag_json_message(const char *severity, const char *file, long line,
                       const char *message)
{
    diag_flush();
    fputc('{', out);
    if (file) {
        fputs("\"file\":", out);
        json_string(out, file);
        if (line > 0)
            fprintf(out, ",\"line\":%ld", line);
        else
            fputs(",\"line\":null", out);
        fputs(",\"column\":null,\"end_line\":null,\"end_column\":null", out);
    } else {
        json_location(out, src_none);
    }
    fprintf(out, ",\"severity\":\"%s\",\"message\":", severity);
    json_string(out, message);
    fputs(",\"notes\":[]}\n", out);
    fflush(out);
}

const char *diag_take_format_option(int *argc, char **argv)
{
    static const char opt[] = "--diagnostics-format";
    const size_t len = sizeof opt - 1;
    const char *bad = NULL;
    int kept = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i], *v;
        if (strncmp(a, opt, len) == 0 && a[len] == '=')
            v = a + len + 1;
        else if (strcmp(a, opt) == 0)
            v = i + 1 < *argc ? argv[++i] : "";
        else {
            argv[kept++] = argv[i];
            continue;
        }
        if (strcmp(v, "json") == 0)
            diag_set_format(DIAG_FORMAT_JSON);
        else if (strcmp(v, "text") == 0)
            diag_set_format(DIAG_FORMAT_TEXT);
        else if (!bad)
            bad = v;
    }
    argv[kept] = NULL;
    *argc = kept;
    return bad;
}

/* ---- reporting ----------------------------------------------------------- */

static void vreport(const char *kind, SrcSpan sp, const char *fmt, va_list ap)
{
    if (!out)
        out = stderr;
    if (format == DIAG_FORMAT_JSON) {
        json_report(kind, sp, fmt, ap);
        return;
    }
    SrcFile *f = src_get(sp.file);
    if (f) {
        int line, col;
        src_linecol(sp, &line, &col);
        fprintf(out, "%s:%d:%d: %s: ", f->path, line, col, kind);
    } else {
        fprintf(out, "lmdlc: %s: ", kind);
    }
    vfprintf(out, fmt, ap);
    fputc('\n', out);
    if (f) {
        int line, col;
        src_linecol(sp, &line, &col);
        quote(f, sp, line);
    }
}

static void report(const char *kind, SrcSpan sp, const char *fmt, ...) DIAG_PRINTF(3, 4);
static void report(const char *kind, SrcSpan sp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(kind, sp, fmt, ap);
    va_end(ap);
}

/* FNV-1a over the span and the formatted message. */
static uint64_t error_hash(SrcSpan sp, const char *fmt, va_list ap)
{
    char *msg = vformat(fmt, ap);
    uint64_t h = 1469598103934665603u;
    uint32_t w[3] = {(uint32_t)sp.file, sp.begin, sp.end};
    const unsigned char *b = (const unsigned char *)w;
    for (size_t i = 0; i < sizeof w; i++)
        h = (h ^ b[i]) * 1099511628211u;
    for (const unsigned char *c = (const unsigned char *)msg; *c; c++)
        h = (h ^ *c) * 1099511628211u;
    free(msg);
    return h ? h : 1;
}

/* Whether this error was reported before; records it if not.  An open
   addressing table, grown at half full. */
/* Every call of diag_error, a dropped repeat included: whether a step
   met an error (diag_error_attempts), even one said before. */
static int nattempts;

static bool repeated(uint64_t h)
{
    if (2 * (nseen + 1) > capseen) {
        size_t cap = capseen ? 2 * capseen : 256;
        uint64_t *t = calloc(cap, sizeof *t);
        if (!t)
            abort();
        for (size_t i = 0; i < capseen; i++)
            for (size_t j = seen[i] & (cap - 1); seen[i]; j = (j + 1) & (cap - 1))
                if (!t[j]) {
                    t[j] = seen[i];
                    break;
                }
        free(seen);
        seen = t;
        capseen = cap;
    }
    size_t j = h & (capseen - 1);
    for (; seen[j]; j = (j + 1) & (capseen - 1))
        if (seen[j] == h)
            return true;
    seen[j] = h;
    nseen++;
    return false;
}

/* The calls whose function bodies are being checked, outermost first. */
enum { MAX_CONTEXTS = 32 };
typedef struct Context {
    SrcSpan call;           /* the call */
    char *name;             /* the function's name */
    char *where;            /* the body, for the note */
} Context;
static Context contexts[MAX_CONTEXTS];
static int ncontexts;       /* may exceed MAX_CONTEXTS: the rest are not kept */

void diag_push_context(SrcSpan call, const char *name, const char *where, ...)
{
    if (ncontexts < MAX_CONTEXTS) {
        va_list ap;
        va_start(ap, where);
        contexts[ncontexts].call = call;
        contexts[ncontexts].name = strdup(name);
        contexts[ncontexts].where = vformat(where, ap);
        va_end(ap);
        if (!contexts[ncontexts].name)
            abort();
    }
    ncontexts++;
}

void diag_pop_context(void)
{
    if (ncontexts <= 0)
        return;
    if (--ncontexts < MAX_CONTEXTS) {
        free(contexts[ncontexts].name);
        free(contexts[ncontexts].where);
    }
}

/* An error inside function bodies: at the outermost call, then the inner
   calls and the body. */
static void error_in_context(SrcSpan sp, const char *fmt, va_list ap)
{
    int n = ncontexts < MAX_CONTEXTS ? ncontexts : MAX_CONTEXTS;
    char *msg = vformat(fmt, ap);
    char *full = malloc(strlen(msg) + strlen(contexts[0].name) + 32);
    if (!full)
        abort();
    sprintf(full, "in this call of '%s': %s", contexts[0].name, msg);
    uint64_t h = 1469598103934665603u;
    for (const unsigned char *c = (const unsigned char *)full; *c; c++)
        h = (h ^ *c) * 1099511628211u;
    uint32_t w[3] = {(uint32_t)contexts[0].call.file, contexts[0].call.begin,
                     contexts[0].call.end};
    for (size_t i = 0; i < sizeof w; i++)
        h = (h ^ ((const unsigned char *)w)[i]) * 1099511628211u;
    dropping = repeated(h ? h : 1);
    if (!dropping) {
        nerrors++;
        report("error", contexts[0].call, "%s", full);
        for (int k = 1; k < n; k++)
            report("note", contexts[k].call, "in the call of '%s' in %s",
                   contexts[k].name, contexts[k - 1].where);
        report("note", sp, "here, in %s", contexts[n - 1].where);
    }
    free(full);
    free(msg);
}

void diag_error(SrcSpan sp, const char *fmt, ...)
{
    nattempts++;
    if (limit_hit)
        return;
    if (ncontexts > 0 && nerrors < ERROR_LIMIT) {
        va_list cp;
        va_start(cp, fmt);
        error_in_context(sp, fmt, cp);
        va_end(cp);
        return;
    }
    va_list hp;
    va_start(hp, fmt);
    dropping = repeated(error_hash(sp, fmt, hp));
    va_end(hp);
    if (dropping)
        return;
    if (nerrors == ERROR_LIMIT) {
        limit_hit = 1;
        report("error", src_none, "too many errors (%d); stopping here", ERROR_LIMIT);
        nerrors++;
        return;
    }
    nerrors++;
    va_list ap;
    va_start(ap, fmt);
    vreport("error", sp, fmt, ap);
    va_end(ap);
}

void diag_warning(SrcSpan sp, const char *fmt, ...)
{
    if (limit_hit)
        return;
    dropping = false;
    nwarnings++;
    va_list ap;
    va_start(ap, fmt);
    vreport("warning", sp, fmt, ap);
    va_end(ap);
}

void diag_note(SrcSpan sp, const char *fmt, ...)
{
    if (limit_hit || dropping)
        return;
    va_list ap;
    va_start(ap, fmt);
    vreport("note", sp, fmt, ap);
    va_end(ap);
}

int diag_error_count(void)
{
    return nerrors;
}

int diag_error_attempts(void)
{
    return nattempts;
}

int diag_warning_count(void)
{
    return nwarnings;
}

int diag_too_many(void)
{
    return limit_hit;
}

void diag_reset(void)
{
    nerrors = nwarnings = limit_hit = 0;
    drop_pending();
    free(seen);
    seen = NULL;
    nseen = capseen = 0;
    dropping = false;
}

/* Levenshtein distance with one rolling row; names are short. */
static int distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 1000;
    int row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            int best = diag + cost;
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *diag_closest(const char *name, const char *const *cands, int n)
{
    if (limit_hit)
        return NULL;        /* the message it is for will not be shown */
    const char *best = NULL;
    int bestd = 1000;
    size_t len = strlen(name);
    int allowed = len <= 3 ? 1 : len <= 6 ? 2 : 3;
    for (int i = 0; i < n; i++) {
        if (!cands[i] || strcmp(cands[i], name) == 0)
            continue;
        int d = distance(name, cands[i]);
        if (d < bestd) {
            bestd = d;
            best = cands[i];
        }
    }
    return bestd <= allowed ? best : NULL;
}

DiagHint diag_did_you_mean(const char *suggestion)
{
    DiagHint h = {""};
    if (suggestion)
        snprintf(h.text, sizeof h.text, " (did you mean '%s'?)", suggestion);
    return h;
}
