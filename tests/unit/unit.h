/*
 * unit.h - the few checks the unit tests of tests/unit share: each
 * failed CHECK prints its file, line and expression and counts; main
 * returns unit_failures() so ctest sees the failure.
 */
#ifndef LMDL_UNIT_H
#define LMDL_UNIT_H

#include <stdio.h>

static int unit_failed;

#define CHECK(cond)                                                        \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,        \
                    __LINE__, #cond);                                      \
            unit_failed++;                                                 \
        }                                                                  \
    } while (0)

static inline int unit_failures(void)
{
    if (!unit_failed)
        printf("ok\n");
    return unit_failed != 0;
}

#endif
