/*
 * dtoa_core.c - rt_dtoa's decimal alone (its digits and exponent, no
 * text), for dtoa_vs_fmt.cpp: this file compiles runtime/common/rt_dtoa.c
 * into itself to reach its static shortest().  Bench only.
 */
#include "rt_dtoa.c"

unsigned long long rt_dtoa_decimal(double v);

/* v: a positive finite double. */
unsigned long long rt_dtoa_decimal(double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    Decimal d = shortest(bits & ((1ull << 52) - 1), (int)(bits >> 52 & 0x7ff));
    return d.digits + (unsigned long long)d.exp10;
}
