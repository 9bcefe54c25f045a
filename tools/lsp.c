/*
 * lsp.c - `lmdlc lsp`: the Language Server Protocol's JSON-RPC 2.0 over
 * stdin and stdout, with Content-Length framing; the open documents; the
 * lifecycle (initialize, initialized, shutdown, exit); positions and URIs.
 *
 * The loop reads one message at a time and answers it before reading the
 * next: every analysis is quick (one file and what it reaches), so there
 * is no queue and no cancellation.  Bad input never ends the server: a
 * body that is not JSON gets the parse error -32700, a message that is not
 * a request -32600, an unknown request -32601, and an unknown notification
 * is ignored.  Only the end of stdin or `exit` ends it.
 *
 * stdout is the protocol's: the server writes its messages to a copy of
 * the descriptor, and points descriptor 1 at stderr, so that nothing
 * else the compiler might print can corrupt the stream.
 *
 * Positions: the protocol counts characters in UTF-16 code units from 0;
 * lmdl's columns count bytes from 1.  The conversion walks the line's
 * UTF-8: a sequence of 4 bytes (outside the Basic Multilingual Plane) is
 * two units, any other sequence one (a byte that is not valid UTF-8 counts
 * as one unit).
 */
#include "lsp.h"

#include "lsp_internal.h"

#include "diag.h"
#include "driver.h"
#include "outfile.h"
#include "rt_json.h"
#include "sym.h"
#include "tool.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* The largest message body read (a document of 64 MiB is not a model). */
enum { LSP_MAX_BODY = 64 << 20 };

static const char help[] =
    "usage: lmdlc lsp [-I DIR]...\n"
    "\n"
    "A Language Server Protocol server on stdin and stdout, for editors:\n"
    "diagnostics of lmdlc check as you type, hover, go to definition,\n"
    "completion and document symbols (docs/tools.md, \"lsp\").  Definitions\n"
    "are looked up as lmdlc check looks them up: the document's folder,\n"
    "each -I DIR (and the client's initializationOptions.includeDirs), each\n"
    "directory of $LMDL_PATH, then the standard library.\n";

/* ---- documents ------------------------------------------------------------- */

static LspDoc *find_doc(LspServer *s, const char *uri)
{
    for (int i = 0; uri && i < s->ndocs; i++)
        if (strcmp(s->docs[i]->uri, uri) == 0)
            return s->docs[i];
    return NULL;
}

static void set_text(LspDoc *d, const char *text, size_t len)
{
    free(d->text);
    d->text = mem_strndup(text, len);
    d->len = len;
}

static LspDoc *open_doc(LspServer *s, const char *uri, const char *text, size_t len)
{
    LspDoc *d = find_doc(s, uri);
    if (!d) {
        if (s->ndocs == s->capdocs) {
            s->capdocs = s->capdocs ? 2 * s->capdocs : 8;
            s->docs = realloc(s->docs, sizeof *s->docs * (size_t)s->capdocs);
            if (!s->docs)
                abort();
        }
        d = mem_calloc(1, sizeof *d);
        d->uri = mem_strndup(uri, strlen(uri));
        d->path = lsp_path_of_uri(uri);
        s->docs[s->ndocs++] = d;
    }
    set_text(d, text, len);
    return d;
}

static void free_doc(LspDoc *d)
{
    free(d->uri);
    free(d->path);
    free(d->text);
    free(d);
}

static void close_doc(LspServer *s, LspDoc *d)
{
    for (int i = 0; i < s->ndocs; i++)
        if (s->docs[i] == d) {
            memmove(s->docs + i, s->docs + i + 1, sizeof *s->docs * (size_t)(s->ndocs - i - 1));
            s->ndocs--;
            break;
        }
    free_doc(d);
}

/* One change of didChange: the whole text, or (if a client sends them
   though the server asked for full sync) a range replaced. */
static void apply_change(LspDoc *d, const LspJson *change)
{
    LspJson *text = lsp_json_get(change, "text");
    if (!text || text->kind != LSP_JSON_STRING)
        return;
    LspJson *range = lsp_json_get(change, "range");
    if (!range) {
        set_text(d, text->str, text->len);
        return;
    }
    LspJson *st = lsp_json_get(range, "start"), *en = lsp_json_get(range, "end");
    uint32_t a = lsp_offset_at(d->text, d->len, lsp_json_int(st, "line", 0),
                               lsp_json_int(st, "character", 0));
    uint32_t b = lsp_offset_at(d->text, d->len, lsp_json_int(en, "line", 0),
                               lsp_json_int(en, "character", 0));
    if (b < a)
        b = a;
    size_t len = d->len - (b - a) + text->len;
    char *t = malloc(len + 1);
    if (!t)
        abort();
    memcpy(t, d->text, a);
    memcpy(t + a, text->str, text->len);
    memcpy(t + a + text->len, d->text + b, d->len - b);
    t[len] = 0;
    free(d->text);
    d->text = t;
    d->len = len;
}

int lsp_add_sources(LspServer *s, const LspDoc *main, const char *text, size_t len)
{
    for (int i = 0; i < s->ndocs; i++)
        if (s->docs[i] != main && strcmp(s->docs[i]->path, main->path) != 0)
            src_add(s->docs[i]->path, s->docs[i]->text, s->docs[i]->len);
    return src_add(main->path, text, len);
}

void lsp_unit_open(LspServer *s, const LspDoc *d, const char *text, size_t len, LspUnit *u)
{
    memset(u, 0, sizeof *u);
    diag_reset();
    diag_set_stream(s->devnull);
    u->file = lsp_add_sources(s, d, text, len);
    SemaOptions so = {s->include_dirs, s->ninclude, driver_stdlib_dir()};
    u->p = sema_program_new(&u->arena, &so);
    u->ast = sema_add_main(u->p, u->file);
    if (!diag_error_count()) {
        sema_resolve_all(u->p);
        u->resolved = true;
    }
}

void lsp_unit_close(LspUnit *u)
{
    if (u->p)
        sema_program_free(u->p);
    arena_free(&u->arena);
    u->p = NULL;
    diag_flush();
    diag_reset();
    src_free_all();
    sym_free_all();
}

/* ---- positions and URIs ---------------------------------------------------- */

/* UTF-16 code units of the UTF-8 sequence led by byte c (see the top). */
static int units_of(unsigned char c)
{
    return c >= 0xF0 ? 2 : 1;
}

static bool continuation(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

uint32_t lsp_offset_at(const char *text, size_t len, int line, int character)
{
    size_t i = 0;
    for (int l = 0; l < line && i < len; i++)
        if (text[i] == '\n')
            l++;
    int units = 0;
    while (i < len && text[i] != '\n' && units < character) {
        units += units_of((unsigned char)text[i]);
        i++;
        while (i < len && continuation((unsigned char)text[i]))
            i++;
    }
    return (uint32_t)i;
}

void lsp_put_position(FILE *fp, const SrcFile *f, uint32_t off)
{
    int line = 0, ch = 0;
    if (f) {
        if (off > f->len)
            off = (uint32_t)f->len;
        line = src_line_index(f, off);
        for (uint32_t i = f->lines[line]; i < off; i++)
            if (!continuation((unsigned char)f->text[i]))
                ch += units_of((unsigned char)f->text[i]);
    }
    fprintf(fp, "{\"line\":%d,\"character\":%d}", line, ch);
}

void lsp_put_range(FILE *fp, SrcSpan sp)
{
    const SrcFile *f = src_get(sp.file);
    uint32_t end = sp.end < sp.begin ? sp.begin : sp.end;
    fputs("{\"start\":", fp);
    lsp_put_position(fp, f, f ? sp.begin : 0);
    fputs(",\"end\":", fp);
    lsp_put_position(fp, f, f ? end : 0);
    fputc('}', fp);
}

void lsp_put_location(FILE *fp, SrcSpan sp)
{
    const SrcFile *f = src_get(sp.file);
    char *uri = lsp_uri_of_path(f ? f->path : "");
    fputs("{\"uri\":", fp);
    lsp_put_string(fp, uri);
    fputs(",\"range\":", fp);
    lsp_put_range(fp, sp);
    fputc('}', fp);
    free(uri);
}

void lsp_put_string(FILE *fp, const char *s)
{
    rt_json_string(fp, s, strlen(s));
}

static bool uri_plain(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
           || strchr("-._~/+", c);
}

char *lsp_uri_of_path(const char *path)
{
    char *abs = NULL;
    if (path[0] != '/') {   /* relative to where the server runs */
        char cwd[4096];
        if (getcwd(cwd, sizeof cwd)) {
            abs = malloc(strlen(cwd) + strlen(path) + 2);
            if (!abs)
                abort();
            sprintf(abs, "%s/%s", cwd, path[0] == '.' && path[1] == '/' ? path + 2 : path);
            path = abs;
        }
    }
    char *uri = malloc(strlen(path) * 3 + 8), *q = uri;
    if (!uri)
        abort();
    q += sprintf(q, "file://");
    for (const unsigned char *c = (const unsigned char *)path; *c; c++)
        q += uri_plain(*c) ? sprintf(q, "%c", *c) : sprintf(q, "%%%02X", *c);
    free(abs);
    return uri;
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

char *lsp_path_of_uri(const char *uri)
{
    /* file:///path, or file://localhost/path; any other scheme (an
       untitled buffer) stands for itself */
    const char *p = uri;
    if (strncasecmp(p, "file://", 7) == 0) {
        p += 7;
        if (strncasecmp(p, "localhost/", 10) == 0)
            p += 9;
    }
    char *path = malloc(strlen(p) + 1), *q = path;
    if (!path)
        abort();
    for (; *p; p++) {
        int hi, lo;
        if (*p == '%' && (hi = hexval(p[1])) >= 0 && (lo = hexval(p[2])) >= 0
            && (hi || lo)) {
            *q++ = (char)(hi * 16 + lo);
            p += 2;
        } else {
            *q++ = *p;
        }
    }
    *q = 0;
    return path;
}

/* ---- messages -------------------------------------------------------------- */

void lsp_send(LspServer *s, const char *body, size_t len)
{
    fprintf(s->out, "Content-Length: %zu\r\n\r\n", len);
    fwrite(body, 1, len, s->out);
    fflush(s->out);
}

/* The id of a request, echoed as it came (a number or a string). */
static void put_id(FILE *fp, const LspJson *id)
{
    if (!id || id->kind == LSP_JSON_NULL)
        fputs("null", fp);
    else if (id->kind == LSP_JSON_STRING)
        rt_json_string(fp, id->str, id->len);
    else if (id->kind == LSP_JSON_NUMBER && id->number == (double)(long long)id->number)
        fprintf(fp, "%lld", (long long)id->number);
    else if (id->kind == LSP_JSON_NUMBER)
        fprintf(fp, "%.17g", id->number);
    else
        fputs("null", fp);
}

/* A response to request id, opened in memory up to its id: the caller
   writes the rest, closes fp and sends *buf. */
static FILE *open_response(const LspJson *id, char **buf, size_t *len)
{
    *buf = NULL;
    *len = 0;
    FILE *fp = open_memstream(buf, len);
    if (!fp)
        abort();
    fputs("{\"jsonrpc\":\"2.0\",\"id\":", fp);
    put_id(fp, id);
    return fp;
}

static void send_error(LspServer *s, const LspJson *id, int code, const char *message)
{
    char *buf;
    size_t len;
    FILE *fp = open_response(id, &buf, &len);
    fprintf(fp, ",\"error\":{\"code\":%d,\"message\":", code);
    lsp_put_string(fp, message);
    fputs("}}", fp);
    fclose(fp);
    lsp_send(s, buf, len);
    free(buf);
}

static void put_capabilities(FILE *fp)
{
    fputs("{\"capabilities\":{"
          "\"positionEncoding\":\"utf-16\","
          "\"textDocumentSync\":{\"openClose\":true,\"change\":1,"
          "\"save\":{\"includeText\":false}},"
          "\"hoverProvider\":true,"
          "\"definitionProvider\":true,"
          "\"completionProvider\":{\"triggerCharacters\":[\".\",\"'\"]},"
          "\"documentSymbolProvider\":true},"
          "\"serverInfo\":{\"name\":\"lmdlc\",\"version\":\"" LMDL_VERSION "\"}}",
          fp);
}

static void add_include(LspServer *s, const char *dir)
{
    if (s->ninclude == s->capinclude) {
        s->capinclude = s->capinclude ? 2 * s->capinclude : 8;
        s->include_dirs = realloc(s->include_dirs, sizeof *s->include_dirs
                                                       * (size_t)s->capinclude);
        if (!s->include_dirs)
            abort();
    }
    s->include_dirs[s->ninclude++] = mem_strndup(dir, strlen(dir));
}

/* initializationOptions: {"includeDirs": ["DIR", ...]} */
static void initialize(LspServer *s, const LspJson *params)
{
    LspJson *dirs = lsp_json_get(lsp_json_get(params, "initializationOptions"),
                                 "includeDirs");
    for (int i = 0; dirs && dirs->kind == LSP_JSON_ARRAY && i < dirs->n; i++)
        if (dirs->items[i]->kind == LSP_JSON_STRING)
            add_include(s, dirs->items[i]->str);
    s->initialized = true;
}

/* The text document and position of a request's params. */
static LspDoc *doc_of(LspServer *s, const LspJson *params)
{
    return find_doc(s, lsp_json_str(lsp_json_get(params, "textDocument"), "uri"));
}

/* Answers a request: writes its result into fp; false for an unknown
   method. */
/* The requests on a position of a document: the function that answers,
   and the answer for a document that is not open. */
static const struct {
    const char *method;
    void (*at)(LspServer *s, const LspDoc *d, int line, int character, FILE *fp);
    const char *none;
} position_requests[] = {
    {"textDocument/hover", lsp_hover, "null"},
    {"textDocument/definition", lsp_definition, "null"},
    {"textDocument/completion", lsp_completion, "[]"},
};

static bool answer(LspServer *s, const char *method, const LspJson *params, FILE *fp)
{
    LspDoc *d = doc_of(s, params);
    LspJson *pos = lsp_json_get(params, "position");
    int line = lsp_json_int(pos, "line", 0), ch = lsp_json_int(pos, "character", 0);
    for (size_t i = 0; i < sizeof position_requests / sizeof position_requests[0]; i++) {
        if (strcmp(method, position_requests[i].method) == 0) {
            if (d)
                position_requests[i].at(s, d, line, ch, fp);
            else
                fputs(position_requests[i].none, fp);
            return true;
        }
    }
    if (strcmp(method, "initialize") == 0) {
        initialize(s, params);
        put_capabilities(fp);
    } else if (strcmp(method, "shutdown") == 0) {
        s->shutdown = true;
        fputs("null", fp);
    } else if (strcmp(method, "textDocument/documentSymbol") == 0) {
        if (d)
            lsp_document_symbols(s, d, fp);
        else
            fputs("[]", fp);
    } else {
        return false;
    }
    return true;
}

static void request(LspServer *s, const LspJson *id, const char *method, const LspJson *params)
{
    if (!s->initialized && strcmp(method, "initialize") != 0) {
        send_error(s, id, -32002, "the server is not initialized");
        return;
    }
    if (s->shutdown) {
        send_error(s, id, -32600, "the server is shut down: only exit is accepted");
        return;
    }
    if (s->initialized && strcmp(method, "initialize") == 0) {
        send_error(s, id, -32600, "initialize was received already: it is sent once");
        return;
    }
    char *buf;
    size_t len;
    FILE *fp = open_response(id, &buf, &len);
    fputs(",\"result\":", fp);
    bool known = answer(s, method, params, fp);
    fputc('}', fp);
    fclose(fp);
    if (known) {
        lsp_send(s, buf, len);
    } else {
        char *msg = malloc(strlen(method) + 32);
        if (!msg)
            abort();
        sprintf(msg, "unknown method '%s'", method);
        send_error(s, id, -32601, msg);
        free(msg);
    }
    free(buf);
}

/* A notification; returns false for exit. */
static bool notification(LspServer *s, const char *method, const LspJson *params)
{
    if (strcmp(method, "exit") == 0)
        return false;
    if (!s->initialized || s->shutdown)
        return true;
    LspJson *td = lsp_json_get(params, "textDocument");
    const char *uri = lsp_json_str(td, "uri");
    LspDoc *d = find_doc(s, uri);
    if (strcmp(method, "textDocument/didOpen") == 0) {
        LspJson *text = lsp_json_get(td, "text");
        if (uri && text && text->kind == LSP_JSON_STRING)
            lsp_publish_diagnostics(s, open_doc(s, uri, text->str, text->len));
    } else if (strcmp(method, "textDocument/didChange") == 0 && d) {
        LspJson *changes = lsp_json_get(params, "contentChanges");
        for (int i = 0; changes && changes->kind == LSP_JSON_ARRAY && i < changes->n; i++)
            apply_change(d, changes->items[i]);
        lsp_publish_diagnostics(s, d);
        /* the other open documents read this one's unsaved text: what
           they use may have changed (each check takes milliseconds) */
        for (int i = 0; i < s->ndocs; i++)
            if (s->docs[i] != d)
                lsp_publish_diagnostics(s, s->docs[i]);
    } else if (strcmp(method, "textDocument/didClose") == 0 && d) {
        lsp_clear_diagnostics(s, d->uri);  /* the editor forgets them */
        close_doc(s, d);
    } else if (strcmp(method, "textDocument/didSave") == 0 && d) {
        LspJson *text = lsp_json_get(params, "text");
        if (text && text->kind == LSP_JSON_STRING)
            set_text(d, text->str, text->len);
        /* a saved file may change what the other open documents see */
        for (int i = 0; i < s->ndocs; i++)
            lsp_publish_diagnostics(s, s->docs[i]);
    }
    return true;
}

/* One message; returns false for exit. */
static bool handle(LspServer *s, const char *body, size_t n)
{
    Arena a = {0};
    bool go_on = true;
    LspJson *msg = lsp_json_parse(&a, body, n);
    const char *method = lsp_json_str(msg, "method");
    LspJson *id = lsp_json_get(msg, "id");
    if (!msg) {
        send_error(s, NULL, -32700, "parse error: the message is not valid JSON");
    } else if (msg->kind != LSP_JSON_OBJECT) {
        send_error(s, NULL, -32600, "invalid request: a message is a JSON object");
    } else if (!method) {
        /* a response to a request of ours (we send none), or nonsense */
        if (!lsp_json_get(msg, "result") && !lsp_json_get(msg, "error"))
            send_error(s, id, -32600, "invalid request: no method");
    } else if (id && id->kind != LSP_JSON_NUMBER && id->kind != LSP_JSON_STRING) {
        send_error(s, NULL, -32600, "invalid request: an id is a number or a string");
    } else if (id) {
        request(s, id, method, lsp_json_get(msg, "params"));
    } else {
        go_on = notification(s, method, lsp_json_get(msg, "params"));
    }
    arena_free(&a);
    return go_on;
}

/* Reads the header block; returns the body's length, -1 at the end of
   the input, -2 for a block without a usable Content-Length. */
static long read_header(FILE *in)
{
    char line[1024];
    long length = -2;
    bool any = false;
    for (;;) {
        if (!fgets(line, sizeof line, in))
            return -1;
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = 0;
        if (!n) {
            if (any)
                return length;
            continue;   /* blank lines between messages */
        }
        any = true;
        if (strncasecmp(line, "Content-Length:", 15) == 0) {
            char *end;
            long v = strtol(line + 15, &end, 10);
            while (*end == ' ' || *end == '\t')
                end++;
            length = (*end || v < 0 || v > LSP_MAX_BODY) ? -2 : v;
        }
    }
}

static int serve(LspServer *s, FILE *in)
{
    for (;;) {
        long n = read_header(in);
        if (n == -1)
            return 1;   /* the client went away without exit */
        if (n == -2) {
            fputs("lmdlc lsp: a message without a valid Content-Length: ignored\n", stderr);
            continue;
        }
        char *body = malloc((size_t)n + 1);
        if (!body)
            abort();
        size_t got = fread(body, 1, (size_t)n, in);
        body[got] = 0;
        if (got < (size_t)n) {
            free(body);
            return 1;
        }
        bool go_on = handle(s, body, (size_t)n);
        free(body);
        if (!go_on)
            return s->shutdown ? 0 : 1;
    }
}

int lsp_main(int argc, char **argv)
{
    LspServer s = {0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(help, stdout);
            return 0;
        } else if (strcmp(argv[i], "-I") == 0 && i + 1 < argc) {
            add_include(&s, argv[++i]);
        } else if (strncmp(argv[i], "-I", 2) == 0 && argv[i][2]) {
            add_include(&s, argv[i] + 2);
        } else if (strcmp(argv[i], "--stdio") == 0) {
            /* what some clients pass: stdio is the only transport */
        } else {
            tool_message("error", "lmdlc: ", NULL, 0, "Try 'lmdlc lsp --help'.",
                         "%s '%s'", strcmp(argv[i], "-I") == 0 ? "-I needs a directory:"
                                    : "lsp: unexpected argument", argv[i]);
            return 1;
        }
    }
    /* the protocol gets its own copy of stdout; fd 1 goes to stderr */
    fflush(stdout);
    int fd = dup(STDOUT_FILENO);
    s.out = fd >= 0 ? fdopen(fd, "w") : NULL;
    s.devnull = outfile_null();
    if (!s.out || !s.devnull || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        fputs("lmdlc lsp: cannot set up the protocol's streams\n", stderr);
        return 1;
    }
    diag_set_format(DIAG_FORMAT_JSON);
    int status = serve(&s, stdin);
    for (int i = 0; i < s.ndocs; i++)
        free_doc(s.docs[i]);
    free(s.docs);
    for (int i = 0; i < s.ninclude; i++)
        free((char *)s.include_dirs[i]);
    free(s.include_dirs);
    diag_set_stream(stderr);
    fclose(s.devnull);
    fclose(s.out);
    return status;
}
