/*
 * lsp_json.h - the JSON that `lmdlc lsp` reads: a small, careful reader
 * of one JSON text into a tree of values in an arena (the messages of the
 * Language Server Protocol, and the JSON Lines of diag.c), and the
 * look-ups the server needs on it.  Writing goes through rt_json.c's
 * string writer (rt_json_string) and plain fprintf.
 */
#ifndef LMDL_LSP_JSON_H
#define LMDL_LSP_JSON_H

#include "arena.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum LspJsonKind {
    LSP_JSON_NULL,
    LSP_JSON_BOOL,
    LSP_JSON_NUMBER,
    LSP_JSON_STRING,
    LSP_JSON_ARRAY,
    LSP_JSON_OBJECT,
} LspJsonKind;

typedef struct LspJson LspJson;
struct LspJson {
    LspJsonKind kind;       /* which fields below are live */
    bool boolean;           /* LSP_JSON_BOOL */
    double number;          /* LSP_JSON_NUMBER */
    const char *str;        /* LSP_JSON_STRING: decoded, NUL-terminated UTF-8 */
    size_t len;             /* its length in bytes (it may hold a NUL) */
    LspJson **items;        /* LSP_JSON_ARRAY: the elements; LSP_JSON_OBJECT:
                               the values, in order */
    const char **keys;      /* LSP_JSON_OBJECT: the keys, same order */
    int n;                  /* entries in items (and keys) */
};

/* Parses the n bytes at text as one JSON value (surrounded by white space
   only), in arena a.  NULL when it is not valid JSON, nests deeper than
   LSP_JSON_MAX_DEPTH, or is malformed in any way. */
enum { LSP_JSON_MAX_DEPTH = 128 };
LspJson *lsp_json_parse(Arena *a, const char *text, size_t n);

/* obj's member key, or NULL (obj NULL or not an object: NULL). */
LspJson *lsp_json_get(const LspJson *obj, const char *key);
/* The string at key, or NULL when absent or not a string. */
const char *lsp_json_str(const LspJson *obj, const char *key);
/* The number at key as an int, or dflt when absent or not a number. */
int lsp_json_int(const LspJson *obj, const char *key, int dflt);

#endif
