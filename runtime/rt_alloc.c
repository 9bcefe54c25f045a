/*
 * rt_alloc.c - allocation for the runtime.
 *
 * A simulator that runs out of memory cannot do anything useful, and
 * checking every allocation in every module would bury the numerics, so
 * allocation failure stops the run here with a message (exit 3).  Zero
 * sizes are allowed and return a valid pointer, because models with no
 * states, relations or targets are ordinary.
 */
#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>

void *rt_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        fputs("error: out of memory\n", stderr);
        exit(RT_EXIT_SIM);
    }
    return p;
}

void *rt_xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q) {
        fputs("error: out of memory\n", stderr);
        exit(RT_EXIT_SIM);
    }
    return q;
}
