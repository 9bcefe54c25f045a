/*
 * cprint_long.c - cp_put_long, the printer of the generated C's integers
 * (mem_decimal, two digits per division, and the sign), against printf's
 * "%ld": every value from -100,000 to 100,000 and the edges of int and
 * long.
 */
#include "cprint.h"
#include "unit.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int same_as_printf(CpBuf *b, long v)
{
    char ref[32];
    b->n = 0;
    cp_put_long(b, v);
    snprintf(ref, sizeof ref, "%ld", v);
    return b->s && strcmp(b->s, ref) == 0;
}

int main(void)
{
    CpBuf b = {0};
    const long edges[] = {LONG_MIN, LONG_MIN + 1, LONG_MAX, INT_MIN, INT_MAX,
                          -1000000000L, 999999999L, 1000000000L, 99, 100, -9, -10};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        CHECK(same_as_printf(&b, edges[i]));
    int wrong = 0;
    for (long v = -100000; v <= 100000; v++)
        wrong += !same_as_printf(&b, v);
    CHECK(wrong == 0);
    free(b.s);
    return unit_failures();
}
