/*
 * arena.h - bump allocators freed per phase.
 *
 * Every pass allocates its long-lived data in an arena and drops it in one
 * call when the pass's output is no longer needed (QBE's pools, Lua's
 * per-function state).  Nothing allocated here is freed individually.
 */
#ifndef LMDL_ARENA_H
#define LMDL_ARENA_H

#include <stddef.h>

typedef struct ArenaChunk ArenaChunk;

/* A growable region; zero-initialise it to get an empty arena. */
typedef struct Arena {
    ArenaChunk *head;   /* the chunk currently being filled */
    size_t total;       /* bytes handed out, for --time-passes style reports */
} Arena;

void *arena_alloc(Arena *a, size_t size);           /* zeroed, 16-aligned */
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
char *arena_printf(Arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The strings of parts[0 .. n) joined by dots (instance paths): cheaper
   than arena_printf, which formats twice. */
char *arena_dotted(Arena *a, const char *const *parts, int n);
void arena_free(Arena *a);                          /* drop everything */

/* A vector of pointers living in an arena (grows by doubling). */
typedef struct PtrVec {
    void **items;   /* the elements */
    int n;          /* how many are used */
    int cap;        /* how many fit before the next growth */
} PtrVec;

void ptrvec_push(Arena *a, PtrVec *v, void *item);


/* A hash map from pointers to pointers (open addressing), for memo
   tables keyed by node identity. */
typedef struct PtrMapSlot {
    const void *key;    /* NULL marks an empty slot */
    void *val;          /* its value */
} PtrMapSlot;

typedef struct PtrMap {
    PtrMapSlot *slots;  /* cap entries */
    size_t cap;         /* slots, a power of two */
    size_t n;           /* keys present */
} PtrMap;

void *ptrmap_get(const PtrMap *m, const void *key);
void ptrmap_put(PtrMap *m, const void *key, void *val);
void ptrmap_free(PtrMap *m);
/* Empties the map and keeps its slots for the next use (a memo reused
   many times allocates once); a map far bigger than it was filled is
   freed instead, so that clearing costs no more than the puts did. */
void ptrmap_clear(PtrMap *m);

/* Heap memory for working arrays that a pass frees itself: zeroed, never
   NULL (an exhausted heap aborts, like the arena). */
void *mem_calloc(size_t n, size_t size);
/* Writes the decimal digits of v at p (no terminator) and returns the end:
   at most 20 bytes.  The one integer printer of the compiler's hot text
   (tables, locations, origins), two digits per division. */
char *mem_decimal(char *p, unsigned long v);
/* Zeroed memory for a big working array (a memo of a large model): from
   2 MB on, mapped on its own with huge pages advised; freed with
   mem_big_free and the same n. */
void *mem_big_alloc(size_t n);
void mem_big_free(void *p, size_t n);
/* A heap copy of the n bytes at s, with a NUL after them. */
char *mem_strndup(const char *s, size_t n);

#endif
