/*
 * lsp_json.c - a recursive-descent JSON reader (RFC 8259) for `lmdlc lsp`.
 *
 * It is strict: anything that is not valid JSON (a trailing comma, a
 * control character in a string, a lone surrogate, a number with a
 * leading zero, nesting deeper than LSP_JSON_MAX_DEPTH) makes the whole
 * parse fail with NULL, and the server answers with a parse error
 * instead of guessing.  Every value lives in the caller's arena; nothing
 * is freed on its own.
 */
#include "lsp_json.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct Reader {
    Arena *a;               /* where values go */
    const char *s;          /* the text */
    size_t n;               /* its length */
    size_t i;               /* the next byte */
    int depth;              /* arrays and objects open */
} Reader;

static void skip_ws(Reader *r)
{
    while (r->i < r->n && (r->s[r->i] == ' ' || r->s[r->i] == '\t' || r->s[r->i] == '\n'
                           || r->s[r->i] == '\r'))
        r->i++;
}

static LspJson *value(Reader *r);

static LspJson *new_value(Reader *r, LspJsonKind k)
{
    LspJson *v = arena_alloc(r->a, sizeof *v);
    v->kind = k;
    return v;
}

static bool literal(Reader *r, const char *word)
{
    size_t len = strlen(word);
    if (r->n - r->i < len || memcmp(r->s + r->i, word, len) != 0)
        return false;
    r->i += len;
    return true;
}

static int hex4(Reader *r)
{
    if (r->n - r->i < 4)
        return -1;
    int v = 0;
    for (int k = 0; k < 4; k++) {
        char c = r->s[r->i++];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= c - '0';
        else if (c >= 'a' && c <= 'f')
            v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            v |= c - 'A' + 10;
        else
            return -1;
    }
    return v;
}

static size_t put_utf8(char *q, uint32_t cp)
{
    if (cp < 0x80) {
        q[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        q[0] = (char)(0xC0 | (cp >> 6));
        q[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        q[0] = (char)(0xE0 | (cp >> 12));
        q[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        q[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    q[0] = (char)(0xF0 | (cp >> 18));
    q[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    q[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    q[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* A string whose opening quote is at r->i; the decoded text is never
   longer than the source, so one allocation of the rest's size bounds it
   (found by a first scan to the closing quote). */
static const char *string(Reader *r, size_t *len)
{
    r->i++; /* the opening quote */
    size_t end = r->i;
    while (end < r->n && r->s[end] != '"')
        end += r->s[end] == '\\' ? 2 : 1;
    if (end >= r->n)
        return NULL;
    char *out = arena_alloc(r->a, end - r->i + 1), *q = out;
    while (r->i < r->n) {
        unsigned char c = (unsigned char)r->s[r->i++];
        if (c == '"') {
            *q = 0;
            *len = (size_t)(q - out);
            return out;
        }
        if (c < 0x20)
            return NULL;
        if (c != '\\') {
            *q++ = (char)c;
            continue;
        }
        if (r->i >= r->n)
            return NULL;
        char e = r->s[r->i++];
        switch (e) {
        case '"': *q++ = '"'; break;
        case '\\': *q++ = '\\'; break;
        case '/': *q++ = '/'; break;
        case 'b': *q++ = '\b'; break;
        case 'f': *q++ = '\f'; break;
        case 'n': *q++ = '\n'; break;
        case 'r': *q++ = '\r'; break;
        case 't': *q++ = '\t'; break;
        case 'u': {
            int u = hex4(r);
            if (u < 0 || (u >= 0xDC00 && u <= 0xDFFF))
                return NULL;
            uint32_t cp = (uint32_t)u;
            if (u >= 0xD800 && u <= 0xDBFF) {   /* a pair: \uD83D\uDE00 */
                if (r->n - r->i < 2 || r->s[r->i] != '\\' || r->s[r->i + 1] != 'u')
                    return NULL;
                r->i += 2;
                int lo = hex4(r);
                if (lo < 0xDC00 || lo > 0xDFFF)
                    return NULL;
                cp = 0x10000 + (((uint32_t)u - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
            }
            /* \uXXXX is 6 bytes of source for at most 3 of output, a pair
               12 for 4: the allocation holds */
            q += put_utf8(q, cp);
            break;
        }
        default:
            return NULL;
        }
    }
    return NULL;
}

static bool digits(Reader *r)
{
    size_t start = r->i;
    while (r->i < r->n && r->s[r->i] >= '0' && r->s[r->i] <= '9')
        r->i++;
    return r->i > start;
}

static LspJson *number(Reader *r)
{
    size_t start = r->i;
    if (r->s[r->i] == '-')
        r->i++;
    if (r->i < r->n && r->s[r->i] == '0')
        r->i++;
    else if (!digits(r))
        return NULL;
    if (r->i < r->n && r->s[r->i] == '.') {
        r->i++;
        if (!digits(r))
            return NULL;
    }
    if (r->i < r->n && (r->s[r->i] == 'e' || r->s[r->i] == 'E')) {
        r->i++;
        if (r->i < r->n && (r->s[r->i] == '+' || r->s[r->i] == '-'))
            r->i++;
        if (!digits(r))
            return NULL;
    }
    char buf[64];
    size_t len = r->i - start;
    if (len >= sizeof buf)
        len = sizeof buf - 1;   /* precision beyond 63 characters is not needed */
    memcpy(buf, r->s + start, len);
    buf[len] = 0;
    LspJson *v = new_value(r, LSP_JSON_NUMBER);
    v->number = strtod(buf, NULL);
    return v;
}

/* The elements of an array or the members of an object, growing by
   doubling in the arena. */
static void push(Reader *r, LspJson *v, LspJson *item, const char *key, int *cap)
{
    if (v->n == *cap) {
        int nc = *cap ? 2 * *cap : 4;
        LspJson **items = arena_alloc(r->a, sizeof *items * (size_t)nc);
        const char **keys = arena_alloc(r->a, sizeof *keys * (size_t)nc);
        if (v->n) {
            memcpy(items, v->items, sizeof *items * (size_t)v->n);
            memcpy(keys, v->keys, sizeof *keys * (size_t)v->n);
        }
        v->items = items;
        v->keys = keys;
        *cap = nc;
    }
    v->keys[v->n] = key;
    v->items[v->n++] = item;
}

static LspJson *container(Reader *r, bool object)
{
    if (++r->depth > LSP_JSON_MAX_DEPTH)
        return NULL;
    r->i++; /* [ or { */
    LspJson *v = new_value(r, object ? LSP_JSON_OBJECT : LSP_JSON_ARRAY);
    int cap = 0;
    char close = object ? '}' : ']';
    skip_ws(r);
    if (r->i < r->n && r->s[r->i] == close) {
        r->i++;
        r->depth--;
        return v;
    }
    for (;;) {
        const char *key = NULL;
        skip_ws(r);
        if (object) {
            size_t len;
            if (r->i >= r->n || r->s[r->i] != '"' || !(key = string(r, &len)))
                return NULL;
            skip_ws(r);
            if (r->i >= r->n || r->s[r->i] != ':')
                return NULL;
            r->i++;
        }
        LspJson *item = value(r);
        if (!item)
            return NULL;
        push(r, v, item, key, &cap);
        skip_ws(r);
        if (r->i >= r->n)
            return NULL;
        if (r->s[r->i] == ',') {
            r->i++;
            continue;
        }
        if (r->s[r->i] != close)
            return NULL;
        r->i++;
        r->depth--;
        return v;
    }
}

static LspJson *value(Reader *r)
{
    skip_ws(r);
    if (r->i >= r->n)
        return NULL;
    char c = r->s[r->i];
    if (c == '{' || c == '[')
        return container(r, c == '{');
    if (c == '"') {
        size_t len;
        const char *s = string(r, &len);
        if (!s)
            return NULL;
        LspJson *v = new_value(r, LSP_JSON_STRING);
        v->str = s;
        v->len = len;
        return v;
    }
    if (c == '-' || (c >= '0' && c <= '9'))
        return number(r);
    if (literal(r, "true") || literal(r, "false")) {
        LspJson *v = new_value(r, LSP_JSON_BOOL);
        v->boolean = r->s[r->i - 1] == 'e' && r->s[r->i - 2] == 'u';
        return v;
    }
    if (literal(r, "null"))
        return new_value(r, LSP_JSON_NULL);
    return NULL;
}

LspJson *lsp_json_parse(Arena *a, const char *text, size_t n)
{
    Reader r = {a, text, n, 0, 0};
    LspJson *v = value(&r);
    if (!v)
        return NULL;
    skip_ws(&r);
    return r.i == r.n ? v : NULL;
}

LspJson *lsp_json_get(const LspJson *obj, const char *key)
{
    if (!obj || obj->kind != LSP_JSON_OBJECT)
        return NULL;
    for (int i = 0; i < obj->n; i++)
        if (strcmp(obj->keys[i], key) == 0)
            return obj->items[i];
    return NULL;
}

const char *lsp_json_str(const LspJson *obj, const char *key)
{
    LspJson *v = lsp_json_get(obj, key);
    return v && v->kind == LSP_JSON_STRING ? v->str : NULL;
}

int lsp_json_int(const LspJson *obj, const char *key, int dflt)
{
    LspJson *v = lsp_json_get(obj, key);
    if (!v || v->kind != LSP_JSON_NUMBER || !isfinite(v->number) || v->number < -2e9
        || v->number > 2e9)
        return dflt;
    return (int)v->number;
}
