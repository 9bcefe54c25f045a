/*
 * arena_big.c - the big working memory of a large model: mem_big_alloc
 * (mapped on its own from 2 MB on), an arena past its first megabytes
 * (mapped chunks), and a pointer map whose slots outgrow 2 MB, each
 * zeroed, usable to its last byte and given back whole (the ASan build
 * checks the frees and leaks).
 */
#include "arena.h"
#include "unit.h"

#include <stdint.h>
#include <string.h>

static int all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

int main(void)
{
    /* below and above the 2 MB line */
    size_t sizes[] = {100, 2 * 1024 * 1024 - 1, 2 * 1024 * 1024, 5 * 1024 * 1024 + 3};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        unsigned char *p = mem_big_alloc(sizes[k]);
        CHECK(p != NULL);
        CHECK(all_zero(p, sizes[k]));
        memset(p, 0xab, sizes[k]);
        CHECK(p[sizes[k] - 1] == 0xab);
        mem_big_free(p, sizes[k]);
    }

    /* an arena of 24 MB: its later chunks are mapped */
    Arena a = {0};
    unsigned char *first = arena_alloc(&a, 16), *last = NULL;
    for (int i = 0; i < 24 * 1024; i++) {
        last = arena_alloc(&a, 1024);
        CHECK(((uintptr_t)last & 15) == 0);
        CHECK(all_zero(last, 1024));
        memset(last, 0x5a, 1024);
    }
    unsigned char *huge = arena_alloc(&a, 9 * 1024 * 1024); /* a chunk of its own */
    CHECK(all_zero(huge, 9 * 1024 * 1024));
    huge[9 * 1024 * 1024 - 1] = 1;
    CHECK(first[0] == 0 && last[1023] == 0x5a);
    arena_free(&a);
    CHECK(a.head == NULL && a.total == 0);

    /* 300,000 keys: 16 MB of slots */
    PtrMap m = {0};
    static char keys[300000];
    for (int i = 0; i < 300000; i++)
        ptrmap_put(&m, &keys[i], (void *)(intptr_t)(i + 1));
    int wrong = 0;
    for (int i = 0; i < 300000; i++)
        wrong += ptrmap_get(&m, &keys[i]) != (void *)(intptr_t)(i + 1);
    CHECK(wrong == 0);
    ptrmap_clear(&m); /* full: kept, emptied */
    CHECK(m.n == 0 && m.cap > 0 && ptrmap_get(&m, &keys[7]) == NULL);
    ptrmap_put(&m, &keys[7], keys);
    ptrmap_clear(&m); /* nearly empty and big: given back */
    CHECK(m.cap == 0 && m.slots == NULL);
    ptrmap_free(&m);
    return unit_failures();
}
