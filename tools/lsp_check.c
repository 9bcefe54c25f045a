/*
 * lsp_check.c - a document's diagnostics for `lmdlc lsp`: the document's
 * text (not the file on disk) goes through driver_run as `lmdlc check`
 * runs it (a library component with nodes checked as one, a closed model
 * as a model, a file of domains or functions as such), with the one
 * diagnostics module (diag.c) writing its machine-readable form, JSON
 * Lines (docs/tools.md, "Machine-readable diagnostics"), into memory.
 * Each line becomes an LSP Diagnostic:
 *
 *   severity  error 1, warning 2, note 3 (a note is nested in its
 *             diagnostic, except one with nothing before it)
 *   range     from line/column and end_line/end_column (1-based, columns in
 *             code points, end exclusive) to the protocol's 0-based UTF-16
 *             positions, through the byte offsets of the source
 *   notes     relatedInformation, each at its own place; a note without a
 *             place is appended to the message
 *
 * A diagnostic about another file (a library component the document
 * uses) or about no place is shown at the start of the document, its
 * message led by the place it is about, and that place as related
 * information.
 */
#include "lsp_internal.h"

#include "diag.h"
#include "driver.h"
#include "sym.h"

#include <stdlib.h>
#include <string.h>

/* The byte offset of 1-based line and code-point column in f. */
static uint32_t offset_of(const SrcFile *f, int line, int col)
{
    if (!f || line < 1)
        return 0;
    if (line > f->nlines)
        return (uint32_t)f->len;
    uint32_t i = f->lines[line - 1];
    for (int c = 1; c < col && i < f->len && f->text[i] != '\n'; c++) {
        i++;
        while (i < f->len && ((unsigned char)f->text[i] & 0xC0) == 0x80)
            i++;
    }
    return i;
}

/* The span a JSON diagnostic or note is about, or src_none. */
static SrcSpan span_of(const LspJson *o)
{
    const char *path = lsp_json_str(o, "file");
    int id = path ? src_find(path) : -1;
    if (id < 0)
        return src_none;
    const SrcFile *f = src_get(id);
    int line = lsp_json_int(o, "line", 1), col = lsp_json_int(o, "column", 1);
    SrcSpan sp = {id, offset_of(f, line, col), 0};
    sp.end = offset_of(f, lsp_json_int(o, "end_line", line), lsp_json_int(o, "end_column", col));
    if (sp.end < sp.begin)
        sp.end = sp.begin;
    return sp;
}

static int severity_of(const char *s)
{
    return !s ? 1 : !strcmp(s, "warning") ? 2 : !strcmp(s, "note") ? 3 : 1;
}

static void put_related(FILE *fp, SrcSpan sp, const char *message, bool *first)
{
    fputs(*first ? "{\"location\":" : ",{\"location\":", fp);
    *first = false;
    lsp_put_location(fp, sp);
    fputs(",\"message\":", fp);
    lsp_put_string(fp, message ? message : "");
    fputc('}', fp);
}

/* One line of diag's JSON as an LSP Diagnostic of document `file`. */
static void put_diagnostic(FILE *fp, const LspJson *o, int file)
{
    SrcSpan sp = span_of(o);
    const char *msg = lsp_json_str(o, "message");
    const char *path = lsp_json_str(o, "file");
    LspJson *notes = lsp_json_get(o, "notes");
    /* the message, with where it is when that is not this document, and
       the notes that have no place */
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        abort();
    if (sp.file != file && path)
        fprintf(m, "%s:%d:%d: ", path, lsp_json_int(o, "line", 0),
                lsp_json_int(o, "column", 0));
    fputs(msg ? msg : "", m);
    for (int i = 0; notes && notes->kind == LSP_JSON_ARRAY && i < notes->n; i++)
        if (span_of(notes->items[i]).file < 0)
            fprintf(m, "\nnote: %s", lsp_json_str(notes->items[i], "message"));
    fclose(m);

    fputs("{\"range\":", fp);
    lsp_put_range(fp, sp.file == file ? sp : (SrcSpan){file, 0, 0});
    fprintf(fp, ",\"severity\":%d,\"source\":\"lmdlc\",\"message\":",
            severity_of(lsp_json_str(o, "severity")));
    lsp_put_string(fp, text);
    free(text);
    fputs(",\"relatedInformation\":[", fp);
    bool first = true;
    if (sp.file != file && sp.file >= 0)
        put_related(fp, sp, "here", &first);
    for (int i = 0; notes && notes->kind == LSP_JSON_ARRAY && i < notes->n; i++) {
        SrcSpan nsp = span_of(notes->items[i]);
        if (nsp.file >= 0)
            put_related(fp, nsp, lsp_json_str(notes->items[i], "message"), &first);
    }
    fputs("]}", fp);
}

/* A publishDiagnostics notification being written: its envelope, then
   the diagnostics (comma-separated), then publish_end sends it. */
typedef struct Publish {
    FILE *fp;
    char *buf;
    size_t len;
} Publish;

/* (pb stays where it is: the stream writes through its buf and len) */
static void publish_begin(Publish *pb, const char *uri)
{
    *pb = (Publish){NULL, NULL, 0};
    pb->fp = open_memstream(&pb->buf, &pb->len);
    if (!pb->fp)
        abort();
    fputs("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/publishDiagnostics\","
          "\"params\":{\"uri\":", pb->fp);
    lsp_put_string(pb->fp, uri);
    fputs(",\"diagnostics\":[", pb->fp);
}

static void publish_end(LspServer *s, Publish *pb)
{
    fputs("]}}", pb->fp);
    fclose(pb->fp);
    lsp_send(s, pb->buf, pb->len);
    free(pb->buf);
}

void lsp_clear_diagnostics(LspServer *s, const char *uri)
{
    Publish pb;
    publish_begin(&pb, uri);
    publish_end(s, &pb);
}

void lsp_publish_diagnostics(LspServer *s, const LspDoc *d)
{
    char *lines = NULL;
    size_t nlines = 0;
    FILE *mem = open_memstream(&lines, &nlines);
    if (!mem)
        abort();
    diag_reset();
    diag_set_format(DIAG_FORMAT_JSON);
    diag_set_stream(mem);
    int file = lsp_add_sources(s, d, d->text, d->len);
    DriverOptions o = {0};
    o.command = CMD_CHECK;
    o.file = d->path;
    o.include_dirs = s->include_dirs;
    o.ninclude = s->ninclude;
    o.out = s->devnull;
    o.loaded = true;
    o.source = file;
    driver_run(&o);
    diag_flush();
    diag_set_stream(s->devnull);
    fclose(mem);

    Publish pb;
    publish_begin(&pb, d->uri);
    FILE *fp = pb.fp;
    int count = 0;
    for (char *line = lines; line && *line;) {
        char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        Arena a = {0};
        LspJson *diag = lsp_json_parse(&a, line, n);
        if (diag && diag->kind == LSP_JSON_OBJECT) {
            if (count++)
                fputc(',', fp);
            put_diagnostic(fp, diag, file);
        }
        arena_free(&a);
        line += n + (nl ? 1 : 0);
    }
    publish_end(s, &pb);
    free(lines);
    diag_reset();
    src_free_all();
    sym_free_all();
}
