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
#include <string.h>

/* Written without allocating anything more. */
static void out_of_memory(void)
{
    if (rt_diag_json())
        fputs("{\"file\":null,\"line\":null,\"column\":null,\"end_line\":null,"
              "\"end_column\":null,\"severity\":\"error\",\"message\":\"out of memory\","
              "\"notes\":[]}\n", stderr);
    else
        fputs("error: out of memory\n", stderr);
    exit(RT_EXIT_SIM);
}

void *rt_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *rt_xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q)
        out_of_memory();
    return q;
}

char *rt_xstrndup(const char *s, size_t n)
{
    char *p = rt_xcalloc(n + 1, 1);
    memcpy(p, s, n);
    return p;
}

char *rt_xstrdup(const char *s)
{
    return rt_xstrndup(s, strlen(s));
}
