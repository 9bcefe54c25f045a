/*
 * lsp_internal.h - what the files of `lmdlc lsp` share: the server's
 * state and open documents (lsp.c), positions and URIs (lsp.c), the
 * diagnostics of a document (lsp_check.c), and the queries on a parsed
 * and resolved document (lsp_query.c, lsp_symbols.c).  Only tools/lsp*.c
 * include it; the command's entry point is lsp.h.
 *
 * Every analysis starts from nothing and ends with nothing: the open
 * documents are added to the source table (so that a lookup of another
 * open file reads its unsaved text, not the disk), the compiler runs, and
 * then the sources, the interned names and the diagnostics counters are
 * dropped (src_free_all, sym_free_all, diag_reset), as `lmdlc check DIR`
 * does between files.  The server keeps only the documents' texts.
 */
#ifndef LMDL_LSP_INTERNAL_H
#define LMDL_LSP_INTERNAL_H

#include "lsp_json.h"

#include "sema.h"
#include "source.h"

#include <stdbool.h>
#include <stdio.h>

/* An open document: the client owns its text; we keep the latest. */
typedef struct LspDoc {
    char *uri;              /* as the client names it */
    char *path;             /* the file it is (the URI's path), for lookups
                               and messages */
    char *text;             /* its contents, as last sent (malloc) */
    size_t len;             /* bytes in text */
} LspDoc;

typedef struct LspServer {
    FILE *out;              /* the protocol stream (the real stdout) */
    FILE *devnull;          /* where the check's summary goes */
    LspDoc **docs;          /* the open documents */
    int ndocs, capdocs;     /* entries in docs, and room */
    const char **include_dirs; /* -I DIR and initializationOptions.includeDirs */
    int ninclude, capinclude;  /* entries in include_dirs, and room */
    bool initialized;       /* initialize was answered */
    bool shutdown;          /* shutdown was received */
} LspServer;

/* A document parsed and resolved for one query (lsp_unit_open). */
typedef struct LspUnit {
    Arena arena;            /* the program's syntax trees and tables */
    Program *p;             /* the program, its main file the document */
    AstFile *ast;           /* the document's tree (possibly partial) */
    int file;               /* the document's source id */
    bool resolved;          /* it parsed without errors and was resolved */
} LspUnit;

/* Adds the open documents other than `main` to the source table, then
   main itself with `text` (its text, or an edited copy); returns main's
   source id. */
int lsp_add_sources(LspServer *s, const LspDoc *main, const char *text, size_t len);
/* Parses and resolves the document (text as in lsp_add_sources), its
   diagnostics discarded. */
void lsp_unit_open(LspServer *s, const LspDoc *d, const char *text, size_t len, LspUnit *u);
/* Frees the program and everything the compiler holds (see above). */
void lsp_unit_close(LspUnit *u);

/* ---- positions (LSP: 0-based lines, characters in UTF-16 code units) ---- */

/* The byte offset in text of an LSP position (clamped to its line and to
   the text). */
uint32_t lsp_offset_at(const char *text, size_t len, int line, int character);
/* Writes {"line":L,"character":C} for byte offset off of source f. */
void lsp_put_position(FILE *fp, const SrcFile *f, uint32_t off);
/* Writes {"start":...,"end":...} for a span (0:0 when it has no file). */
void lsp_put_range(FILE *fp, SrcSpan sp);
/* Writes {"uri":...,"range":...} for a span of a loaded file. */
void lsp_put_location(FILE *fp, SrcSpan sp);
/* "file:///a/b%20c.lmdl" for "/a/b c.lmdl", and back (malloc). */
char *lsp_uri_of_path(const char *path);
char *lsp_path_of_uri(const char *uri);
/* s as a JSON string. */
void lsp_put_string(FILE *fp, const char *s);

/* ---- lsp_check.c ---- */

/* Checks the document as `lmdlc check` would and sends
   textDocument/publishDiagnostics (an empty list when it is clean). */
void lsp_publish_diagnostics(LspServer *s, const LspDoc *d);
/* An empty list for uri: the editor forgets its diagnostics (didClose). */
void lsp_clear_diagnostics(LspServer *s, const char *uri);
/* Sends one notification or response: body is a JSON object. */
void lsp_send(LspServer *s, const char *body, size_t len);

/* ---- lsp_query.c: each writes the JSON result of its request ---- */

void lsp_hover(LspServer *s, const LspDoc *d, int line, int character, FILE *fp);
void lsp_definition(LspServer *s, const LspDoc *d, int line, int character, FILE *fp);
void lsp_completion(LspServer *s, const LspDoc *d, int line, int character, FILE *fp);

/* ---- lsp_symbols.c ---- */

void lsp_document_symbols(LspServer *s, const LspDoc *d, FILE *fp);
/* The SymbolKind of LSP for a member kind, and the word for it. */
int lsp_member_symbol_kind(SemaMemberKind k);

#endif
