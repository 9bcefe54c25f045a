/*
 * sym.c - the intern table: open hashing with chains, doubled when the load
 * factor passes one.
 */
#include "sym.h"

#include "arena.h"

#include <stdlib.h>
#include <string.h>

static Arena sym_arena;
static Sym **buckets;
static size_t nbuckets, nsyms;

uint32_t sym_hash_bytes(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

static void grow(void)
{
    size_t n = nbuckets ? nbuckets * 2 : 1024;
    Sym **b = calloc(n, sizeof *b);
    if (!b)
        abort();
    for (size_t i = 0; i < nbuckets; i++) {
        for (Sym *s = buckets[i], *next; s; s = next) {
            next = s->next;
            s->next = b[s->hash & (n - 1)];
            b[s->hash & (n - 1)] = s;
        }
    }
    free(buckets);
    buckets = b;
    nbuckets = n;
}

Sym *sym_intern(const char *s, size_t len)
{
    if (nsyms >= nbuckets)
        grow();
    uint32_t h = sym_hash_bytes(s, len);
    for (Sym *p = buckets[h & (nbuckets - 1)]; p; p = p->next)
        if (p->hash == h && p->len == len && memcmp(p->name, s, len) == 0)
            return p;
    Sym *p = arena_alloc(&sym_arena, sizeof *p);
    p->name = arena_strndup(&sym_arena, s, len);
    p->len = len;
    p->hash = h;
    p->next = buckets[h & (nbuckets - 1)];
    buckets[h & (nbuckets - 1)] = p;
    nsyms++;
    return p;
}

Sym *sym_cstr(const char *s)
{
    return sym_intern(s, strlen(s));
}

void sym_free_all(void)
{
    free(buckets);
    buckets = NULL;
    nbuckets = nsyms = 0;
    arena_free(&sym_arena);
}
