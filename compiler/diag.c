/*
 * diag.c - formatting of errors, warnings and notes with a quoted source
 * line and a caret underline, plus the edit-distance helper behind
 * "did you mean" suggestions.
 */
#include "diag.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { ERROR_LIMIT = 50 };

static int nerrors, nwarnings, limit_hit;
static FILE *out;

void diag_set_stream(FILE *fp)
{
    out = fp;
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static uint32_t utf8_length(const unsigned char *s, uint32_t n)
{
    uint32_t len = s[0] >= 0xC2 && s[0] <= 0xDF ? 2
                 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
                 : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    if (len == 0 || len > n)
        return 0;
    for (uint32_t k = 1; k < len; k++)
        if ((s[k] & 0xC0) != 0x80)
            return 0;
    if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] > 0x9F)
        || (s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] > 0x8F))
        return 0;
    return len;
}

/* Bytes of the character echoed at offset i: a valid UTF-8 sequence, or
   one byte (shown as '?' when it is not valid). */
static uint32_t char_length(const SrcFile *f, uint32_t i, uint32_t stop)
{
    const unsigned char *c = (const unsigned char *)f->text + i;
    uint32_t len = *c >= 0x80 ? utf8_length(c, stop - i) : 1;
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
        if (*c >= 0x80 && utf8_length(c, we - i))
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

static void vreport(const char *kind, SrcSpan sp, const char *fmt, va_list ap)
{
    if (!out)
        out = stderr;
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

void diag_error(SrcSpan sp, const char *fmt, ...)
{
    if (limit_hit)
        return;
    if (nerrors == ERROR_LIMIT) {
        limit_hit = 1;
        fprintf(out ? out : stderr,
                "lmdlc: error: too many errors (%d); stopping here\n",
                ERROR_LIMIT);
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
    nwarnings++;
    va_list ap;
    va_start(ap, fmt);
    vreport("warning", sp, fmt, ap);
    va_end(ap);
}

void diag_note(SrcSpan sp, const char *fmt, ...)
{
    if (limit_hit)
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
