/*
 * rt_names.c - parameter and column names to indices, and "did you mean".
 *
 * A large model has hundreds of thousands of columns, and --vars and
 * --param look names up, so lookups go through an open-addressing hash
 * table (FNV-1a, linear probing, load at most one half) instead of a scan
 * per name.  Names are the model's own strings; the table stores indices.
 * Building it hashes every byte of every name (a millisecond at 100,000
 * columns), so a --vars list of a few names is found by a scan that
 * reads the first byte of most names instead.
 *
 * Suggestions run only on the error path, so they may scan: a name whose
 * last path component matches ("r12" for "lever.r12") wins, then the
 * closest name by edit distance if it is close enough to be a typo.
 */
#include "rt_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct RtNameIndex {
    RtNames names;              /* the model's names */
    size_t mask;                /* table size - 1 (a power of two) */
    int *slot;                  /* name index, or -1 for empty */
};

static uint64_t hash(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211u;
    }
    return h;
}

static int same(const char *name, const char *s, size_t len)
{
    return strncmp(name, s, len) == 0 && name[len] == 0;
}

RtNameIndex *rt_names_new(RtNames names, int n)
{
    RtNameIndex *ix = rt_xcalloc(1, sizeof *ix);
    size_t size = 8;
    while (size < 2 * (size_t)(n > 0 ? n : 0))
        size *= 2;
    ix->names = names;
    ix->mask = size - 1;
    ix->slot = rt_xcalloc(size, sizeof *ix->slot);
    for (size_t i = 0; i < size; i++)
        ix->slot[i] = -1;
    for (int k = 0; k < n; k++) {
        const char *name = rt_name(names, k);
        size_t len = strlen(name);
        size_t i = (size_t)hash(name, len) & ix->mask;
        /* The first of two equal names keeps the slot. */
        while (ix->slot[i] >= 0 && !same(rt_name(names, ix->slot[i]), name, len))
            i = (i + 1) & ix->mask;
        if (ix->slot[i] < 0)
            ix->slot[i] = k;
    }
    return ix;
}

int rt_names_find(const RtNameIndex *ix, const char *name, size_t len)
{
    size_t i = (size_t)hash(name, len) & ix->mask;
    while (ix->slot[i] >= 0) {
        if (same(rt_name(ix->names, ix->slot[i]), name, len))
            return ix->slot[i];
        i = (i + 1) & ix->mask;
    }
    return -1;
}

void rt_names_free(RtNameIndex *ix)
{
    if (!ix)
        return;
    free(ix->slot);
    free(ix);
}

/* Levenshtein distance, two rows; gives up (returns limit + 1) early. */
static size_t distance(const char *a, size_t la, const char *b, size_t limit)
{
    size_t lb = strlen(b);
    if ((la > lb ? la - lb : lb - la) > limit)
        return limit + 1;
    size_t *prev = rt_xcalloc(lb + 1, sizeof *prev);
    size_t *cur = rt_xcalloc(lb + 1, sizeof *cur);
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        size_t *t = prev;
        prev = cur;
        cur = t;
    }
    size_t d = prev[lb];
    free(prev);
    free(cur);
    return d;
}

const char *rt_names_end(const char *s)
{
    int depth = 0;
    for (; *s; s++) {
        if (*s == '(')
            depth++;
        else if (*s == ')' && depth > 0)
            depth--;
        else if (*s == ',' && depth == 0)
            return s;
    }
    return NULL;
}

/* Names in a list up to which rt_names_list scans instead of hashing. */
enum { LIST_SCAN = 8 };

/* The first of names[0 .. n) that is s[0 .. len) (len > 0), or -1: what
   rt_names_find answers, by a scan. */
static int first_named(RtNames names, int n, const char *s, size_t len)
{
    for (int j = 0; j < n; j++)
        if (rt_name(names, j)[0] == s[0] && same(rt_name(names, j), s, len))
            return j;
    return -1;
}

int *rt_names_list(RtNames names, int n, const char *list, int skip_empty,
                   int *nsel, const char **bad, size_t *badlen)
{
    size_t cap = 1;
    for (const char *c = list; *c; c++)
        cap += *c == ',';
    int *sel = rt_xcalloc(cap, sizeof *sel);
    *nsel = 0;
    /* A few names are found by a scan that reads one byte of most names;
       hashing every name costs more than that up to LIST_SCAN of them. */
    RtNameIndex *ix = cap > LIST_SCAN ? rt_names_new(names, n) : NULL;
    int rc = 0;
    for (const char *at = list;;) {
        const char *comma = rt_names_end(at);
        size_t len = comma ? (size_t)(comma - at) : strlen(at);
        int k = !len ? -1 : ix ? rt_names_find(ix, at, len) : first_named(names, n, at, len);
        int whole = 0;
        if (k < 0 && len) {
            /* a vector or matrix named whole, y: its elements y(1) ...,
               in their order */
            for (int j = 0; j < n; j++)
                whole += !strncmp(rt_name(names, j), at, len) && rt_name(names, j)[len] == '(';
        }
        if (k >= 0) {
            sel[(*nsel)++] = k;
        } else if (whole) {
            cap += (size_t)whole;
            sel = rt_xrealloc(sel, cap * sizeof *sel);
            for (int j = 0; j < n; j++)
                if (!strncmp(rt_name(names, j), at, len) && rt_name(names, j)[len] == '(')
                    sel[(*nsel)++] = j;
        } else if (len || !skip_empty) {
            *bad = at;
            *badlen = len;
            rc = -1;
            break;
        }
        if (!comma)
            break;
        at = comma + 1;
    }
    rt_names_free(ix);
    if (rc == 0)
        return sel;
    free(sel);
    return NULL;
}

const char *rt_names_suggest(RtNames names, int n, const char *name, size_t len)
{
    const char *suffix = NULL;
    int n_suffix = 0;
    for (int k = 0; k < n; k++) {
        const char *nk = rt_name(names, k);
        size_t l = strlen(nk);
        if (l > len && nk[l - len - 1] == '.' && strncmp(nk + l - len, name, len) == 0) {
            suffix = nk;
            n_suffix++;
        }
    }
    if (n_suffix == 1)
        return suffix;
    size_t limit = len < 6 ? 2 : len / 3;
    const char *best = NULL;
    size_t best_d = limit + 1;
    for (int k = 0; k < n; k++) {
        size_t d = distance(name, len, rt_name(names, k), limit);
        if (d < best_d) {
            best_d = d;
            best = rt_name(names, k);
        }
    }
    return best;
}
