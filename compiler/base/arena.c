/*
 * arena.c - chunked bump allocation.
 *
 * Chunks are malloc'ed and chained; a request larger than the default chunk
 * gets a chunk of its own.  Past its first megabytes an arena's chunks,
 * and any working array from 2 MB on (mem_big_alloc: hash tables and
 * memos), are mapped on their own with huge pages advised.  Allocation
 * failure is fatal: there is no useful recovery for a compiler that ran
 * out of memory.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include "arena.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

struct ArenaChunk {
    ArenaChunk *next;   /* older chunk */
    size_t used;        /* bytes used in data[] */
    size_t size;        /* capacity of data[] */
    size_t mapped;      /* bytes mapped for it (a big chunk), 0: calloc'ed */
    _Alignas(16) unsigned char data[];
};

/* Chunks are calloc'ed: large zeroed allocations come straight from the
   kernel's zero pages, so allocation itself need not clear memory.  An
   arena's chunks double from 64 KB to 1 MB, so the many arenas of a small
   model cost little to clear and a large model's few. */
enum { CHUNK_FIRST = 64 * 1024, CHUNK_MAX = 1024 * 1024 };

/* Big zeroed memory (mem_big_alloc, and an arena's chunks past
   BIG_AFTER bytes, a large model's) is mapped on its own at a multiple of
   BIG and marked for huge pages where the system has them: one page fault
   and one TLB entry per 2 MB instead of 512, for the nodes and memo
   slots that hash lookups reach at random. */
enum { BIG = 2 * 1024 * 1024, BIG_AFTER = 4 * 1024 * 1024, BIG_CHUNK = 2 * BIG };

/* The bytes mapped for a big allocation of n bytes. */
static size_t big_size(size_t n)
{
    return (n + BIG - 1) / BIG * BIG;
}

/* Zeroed memory of big_size(n) bytes at a multiple of BIG, or NULL. */
static void *map_big(size_t n)
{
    size_t want = big_size(n);
    unsigned char *p = mmap(NULL, want + BIG, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    size_t lead = (BIG - (uintptr_t)p % BIG) % BIG;
    if (lead)
        munmap(p, lead);
    if (BIG - lead)
        munmap(p + lead + want, BIG - lead);
#ifdef MADV_HUGEPAGE
    madvise(p + lead, want, MADV_HUGEPAGE); /* advice: no matter if refused */
#endif
    return p + lead;
}

void *mem_big_alloc(size_t n)
{
    void *p = n >= BIG ? map_big(n) : NULL;
    return p ? p : mem_calloc(n, 1);
}

void mem_big_free(void *p, size_t n)
{
    if (!p)
        return;
    if (n >= BIG)
        munmap(p, big_size(n));
    else
        free(p);
}

/* A zeroed chunk of at least cap bytes of data, mapped; NULL when mapping
   fails (the caller falls back on calloc). */
static ArenaChunk *map_chunk(size_t cap)
{
    ArenaChunk *c = map_big(sizeof *c + cap);
    if (c) {
        c->mapped = big_size(sizeof *c + cap);
        c->size = c->mapped - sizeof *c;
    }
    return c;
}

void *arena_alloc(Arena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    ArenaChunk *c = a->head;
    if (!c || c->size - c->used < size) {
        size_t next = c ? (c->size < CHUNK_MAX ? 2 * c->size : CHUNK_MAX) : CHUNK_FIRST;
        if (next > CHUNK_MAX)
            next = CHUNK_MAX;
        size_t cap = size > next ? size : next;
        c = a->total >= BIG_AFTER ? map_chunk(cap > BIG_CHUNK ? cap : BIG_CHUNK) : NULL;
        if (!c) {
            c = calloc(1, sizeof *c + cap);
            if (!c) {
                fputs("lmdlc: out of memory\n", stderr);
                abort();
            }
            c->size = cap;
        }
        c->used = 0;
        c->next = a->head;
        a->head = c;
    }
    void *p = c->data + c->used;
    c->used += size;
    a->total += size;
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *arena_strdup(Arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = arena_alloc(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

char *arena_dotted(Arena *a, const char *const *parts, int n)
{
    size_t len[8], total = 0;
    for (int i = 0; i < n && i < 8; i++)
        total += (len[i] = strlen(parts[i])) + 1;
    char *p = arena_alloc(a, total + 1), *at = p;
    for (int i = 0; i < n && i < 8; i++) {
        if (i)
            *at++ = '.';
        memcpy(at, parts[i], len[i]);
        at += len[i];
    }
    *at = 0;
    return p;
}

void arena_free(Arena *a)
{
    ArenaChunk *c = a->head;
    while (c) {
        ArenaChunk *next = c->next;
        if (c->mapped)
            munmap(c, c->mapped);
        else
            free(c);
        c = next;
    }
    a->head = NULL;
    a->total = 0;
}

void ptrvec_push(Arena *a, PtrVec *v, void *item)
{
    if (v->n == v->cap) {
        int cap = v->cap ? v->cap * 2 : 4;
        void **items = arena_alloc(a, sizeof(void *) * (size_t)cap);
        if (v->n)
            memcpy(items, v->items, sizeof(void *) * (size_t)v->n);
        v->items = items;
        v->cap = cap;
    }
    v->items[v->n++] = item;
}

static size_t ptr_hash(const void *p)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

void *ptrmap_get(const PtrMap *m, const void *key)
{
    if (!m->cap)
        return NULL;
    for (size_t i = ptr_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (m->slots[i].key == key)
            return m->slots[i].val;
        if (!m->slots[i].key)
            return NULL;
    }
}

void ptrmap_put(PtrMap *m, const void *key, void *val)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 16;
        PtrMapSlot *slots = mem_big_alloc(cap * sizeof *slots);
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->slots[i].key)
                continue;
            size_t j = ptr_hash(m->slots[i].key) & (cap - 1);
            while (slots[j].key)
                j = (j + 1) & (cap - 1);
            slots[j] = m->slots[i];
        }
        mem_big_free(m->slots, m->cap * sizeof *m->slots);
        m->slots = slots;
        m->cap = cap;
    }
    size_t i = ptr_hash(key) & (m->cap - 1);
    while (m->slots[i].key && m->slots[i].key != key)
        i = (i + 1) & (m->cap - 1);
    if (!m->slots[i].key)
        m->n++;
    m->slots[i].key = key;
    m->slots[i].val = val;
}

void ptrmap_free(PtrMap *m)
{
    mem_big_free(m->slots, m->cap * sizeof *m->slots);
    *m = (PtrMap){0};
}

void ptrmap_clear(PtrMap *m)
{
    if (m->cap > 64 && m->n * 8 < m->cap)
        ptrmap_free(m);
    else if (m->n) {
        memset(m->slots, 0, m->cap * sizeof *m->slots);
        m->n = 0;
    }
}

void *mem_calloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        abort();
    return p;
}

/* "00" .. "99". */
static const char two_digits[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

char *mem_decimal(char *p, unsigned long v)
{
    char digits[20];
    char *end = digits + sizeof digits, *d = end;
    while (v >= 100) {
        d -= 2;
        memcpy(d, two_digits + 2 * (v % 100), 2);
        v /= 100;
    }
    if (v >= 10) {
        d -= 2;
        memcpy(d, two_digits + 2 * v, 2);
    } else {
        *--d = (char)('0' + v);
    }
    memcpy(p, d, (size_t)(end - d));
    return p + (end - d);
}

char *mem_strndup(const char *s, size_t n)
{
    char *p = mem_calloc(n + 1, 1);
    memcpy(p, s, n);
    return p;
}
