/*
 * rt_dtoa.c - the shortest round-trip decimal of a double (Schubfach).
 *
 * The method is R. Giulietti's "Schubfach" (The Schubfach way to render
 * doubles, 2020), written here from the paper's argument:
 *
 * A finite double v = c * 2^q has a rounding interval: every real in it
 * reads back as v.  Its ends lie halfway to the neighbouring doubles, at
 * (4c - 2) and (4c + 2) in units of 2^(q-2), or (4c - 1) below when c is
 * the smallest significand of its binade (the double below is closer);
 * the ends belong to the interval when c is even, because strtod rounds
 * a tie to the even significand.  Pick the decimal exponent k with
 * 10^k <= the interval's width (k = floor(log10(2^q)), or
 * floor(log10(3/4 * 2^q)) when the lower neighbour is closer).  Then the
 * interval holds at least one multiple of 10^k and at most one multiple
 * of 10^(k+1), and the shortest decimal in it is
 *
 *   - that multiple of 10^(k+1) when there is one (with more trailing
 *     zeros, it is shorter still, and it is the only candidate), or
 *   - the multiple of 10^k nearest to v among the one or two next to it
 *     that are inside (ties to even).
 *
 * Only the three ends, scaled by 4 * 10^-k, are needed, and only as
 * "rounded to odd" integers: the integer if the scaled value is one,
 * else the odd one of its two neighbours.  That keeps every comparison
 * with the even numbers the selection uses exact.
 *
 * Scaling.  10^-k is held as g * 2^r with a 128-bit g = floor(10^-k *
 * 2^-r) + 1, so the scaled end x * 2^q * 10^-k is (x * 2^h) * g / 2^128
 * plus an error below 2^-69.  The top 64 bits of the product are its
 * integer part and the next 64 its fraction.  A fraction of at least
 * 2^-64 is therefore real and the value is not an integer.  A fraction
 * below 2^-64 means the value is an integer (decided exactly: it is
 * x * 2^(q-k) * 5^-k), or, in a case the paper shows does not arise for
 * doubles, within 2^-64 of one; then an exact big-integer comparison
 * decides.  The table of g is computed exactly, entry by entry, the
 * first time an exponent is needed: about 600 exponents are possible, a
 * simulation uses a few.
 *
 * The output notation is printf's %.17g choice (rt_dtoa.h).
 */
#include "rt_dtoa.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int rt_dtoa_exact_only;
unsigned long rt_dtoa_exact_count;

/* ---- 64 x 64 -> 128 bits ------------------------------------------------ */

static void mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 u128;
    u128 p = (u128)a * b;
    *hi = (uint64_t)(p >> 64);
    *lo = (uint64_t)p;
#else
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    *lo = (mid << 32) | (uint32_t)p00;
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

/* ---- exact big integers, for the table and the rare exact decision ------ */

/* Large enough for 2^1100 (the table) and for x * 2^751 * 5^324 (the
   comparisons); overflow aborts, and cannot happen for doubles. */
enum { BIG_LIMBS = 48 };

typedef struct Big {
    int n;                      /* limbs in use; d[n-1] != 0 unless n == 0 */
    uint32_t d[BIG_LIMBS];      /* little-endian base-2^32 digits */
} Big;

static void big_set(Big *b, uint64_t v)
{
    b->n = 0;
    while (v) {
        b->d[b->n++] = (uint32_t)v;
        v >>= 32;
    }
}

static void big_mul_small(Big *b, uint32_t m)
{
    uint64_t carry = 0;
    for (int i = 0; i < b->n; i++) {
        uint64_t p = (uint64_t)b->d[i] * m + carry;
        b->d[i] = (uint32_t)p;
        carry = p >> 32;
    }
    if (carry) {
        if (b->n >= BIG_LIMBS)
            abort();
        b->d[b->n++] = (uint32_t)carry;
    }
}

/* b *= base^e, base 5 or 10, in steps that fit 32 bits. */
static void big_mul_pow(Big *b, uint32_t base, int e)
{
    int step = base == 5 ? 13 : 9;      /* 5^13 and 10^9 fit 32 bits */
    uint32_t big_step = 1;
    for (int i = 0; i < step; i++)
        big_step *= base;
    for (; e >= step; e -= step)
        big_mul_small(b, big_step);
    uint32_t rest = 1;
    for (; e > 0; e--)
        rest *= base;
    big_mul_small(b, rest);
}

static void big_shl(Big *b, int bits)
{
    if (b->n == 0 || bits == 0)
        return;
    int limbs = bits / 32, s = bits % 32;
    if (b->n + limbs + 1 > BIG_LIMBS)
        abort();
    b->d[b->n + limbs] = 0;
    for (int i = b->n - 1; i >= 0; i--) {
        uint64_t w = (uint64_t)b->d[i] << s;
        b->d[i + limbs + 1] |= (uint32_t)(w >> 32);
        b->d[i + limbs] = (uint32_t)w;
    }
    for (int i = 0; i < limbs; i++)
        b->d[i] = 0;
    b->n += limbs + 1;
    while (b->n > 0 && b->d[b->n - 1] == 0)
        b->n--;
}

static void big_shr(Big *b, int bits)
{
    int limbs = bits / 32, s = bits % 32;
    if (limbs >= b->n) {
        b->n = 0;
        return;
    }
    int n = b->n - limbs;
    for (int i = 0; i < n; i++) {
        uint64_t w = b->d[i + limbs];
        if (i + limbs + 1 < b->n)
            w |= (uint64_t)b->d[i + limbs + 1] << 32;
        b->d[i] = (uint32_t)(w >> s);
    }
    b->n = n;
    while (b->n > 0 && b->d[b->n - 1] == 0)
        b->n--;
}

/* b = floor(b / m). */
static void big_div_small(Big *b, uint32_t m)
{
    uint64_t rem = 0;
    for (int i = b->n - 1; i >= 0; i--) {
        uint64_t cur = rem << 32 | b->d[i];
        b->d[i] = (uint32_t)(cur / m);
        rem = cur % m;
    }
    while (b->n > 0 && b->d[b->n - 1] == 0)
        b->n--;
}

static int big_bitlen(const Big *b)
{
    if (b->n == 0)
        return 0;
    int bits = 32 * (b->n - 1);
    for (uint32_t top = b->d[b->n - 1]; top; top >>= 1)
        bits++;
    return bits;
}

static int big_cmp(const Big *a, const Big *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->d[i] != b->d[i])
            return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

/* ---- the powers of ten ------------------------------------------------ */

/* Decimal exponents e = -k that doubles need: k runs from
   floor(log10(2^-1074)) = -324 to floor(log10(2^971)) = 292. */
enum { POW10_MIN = -292, POW10_MAX = 324 };

typedef struct Pow10 {
    uint64_t hi, lo;            /* g = hi * 2^64 + lo, 2^127 < g <= 2^128 - 1 */
    int flog2;                  /* floor(log2(10^e)) */
    int ready;                  /* computed */
} Pow10;

static Pow10 pow10_table[POW10_MAX - POW10_MIN + 1];

/* g = floor(10^e * 2^(127 - floor(log2 10^e))) + 1, exactly: the first
   time e is needed (out of line: the hot path is pow10_get's test). */
static __attribute__((noinline)) const Pow10 *pow10_compute(Pow10 *p, int e)
{
    Big b;
    big_set(&b, 1);
    if (e >= 0) {
        big_mul_pow(&b, 10, e);
        p->flog2 = big_bitlen(&b) - 1;
        if (p->flog2 < 127)
            big_shl(&b, 127 - p->flog2);
        else
            big_shr(&b, p->flog2 - 127);
    } else {
        Big m;
        big_set(&m, 1);
        big_mul_pow(&m, 10, -e);
        p->flog2 = -big_bitlen(&m);     /* 10^-e is never a power of 2 */
        big_shl(&b, 127 - p->flog2);
        int left = -e;
        for (; left >= 9; left -= 9)
            big_div_small(&b, 1000000000u);
        uint32_t rest = 1;
        for (; left > 0; left--)
            rest *= 10;
        big_div_small(&b, rest);
    }
    if (b.n != 4 || !(b.d[3] >> 31))
        abort();                        /* floor(g) must be in [2^127, 2^128) */
    p->hi = (uint64_t)b.d[3] << 32 | b.d[2];
    p->lo = (uint64_t)b.d[1] << 32 | b.d[0];
    if (++p->lo == 0 && ++p->hi == 0)
        abort();
    p->ready = 1;
    return p;
}

static inline const Pow10 *pow10_get(int e)
{
    Pow10 *p = &pow10_table[e - POW10_MIN];
    return p->ready ? p : pow10_compute(p, e);
}

/* floor(a / 2^22) for negative a too. */
static int floor_shift22(int64_t a)
{
    return (int)(a >= 0 ? a >> 22 : -((-a + (1 << 22) - 1) >> 22));
}

/* floor(log10(2^q)) and floor(log10(3/4 * 2^q)), for |q| <= 1100
   (checked against exact values over that range). */
static int floor_log10_pow2(int q)
{
    return floor_shift22((int64_t)q * 1262611);
}

static int floor_log10_three_quarters_pow2(int q)
{
    return floor_shift22((int64_t)q * 1262611 - 524031);
}

/* ---- rounding to odd ----------------------------------------------------- */

static const uint64_t pow5_u64[28] = {
    1ull, 5ull, 25ull, 125ull, 625ull, 3125ull, 15625ull, 78125ull,
    390625ull, 1953125ull, 9765625ull, 48828125ull, 244140625ull,
    1220703125ull, 6103515625ull, 30517578125ull, 152587890625ull,
    762939453125ull, 3814697265625ull, 19073486328125ull, 95367431640625ull,
    476837158203125ull, 2384185791015625ull, 11920928955078125ull,
    59604644775390625ull, 298023223876953125ull, 1490116119384765625ull,
    7450580596923828125ull,
};

/* x * 2^q * 10^e is an integer: x * 2^(q+e) * 5^e. */
static int scaled_is_integer(uint64_t x, int q, int e)
{
    if (e < 0 && (-e >= 28 || x % pow5_u64[-e] != 0))
        return 0;
    int twos = 0;
    for (uint64_t y = x; !(y & 1); y >>= 1)
        twos++;
    return q + e + twos >= 0;
}

/* The sign of x * 2^q * 10^e - n, exactly. */
static int scaled_cmp(uint64_t x, int q, int e, uint64_t n)
{
    Big l, r;
    big_set(&l, x);
    big_set(&r, n);
    if (e > 0)
        big_mul_pow(&l, 5, e);
    else
        big_mul_pow(&r, 5, -e);
    if (q + e > 0)
        big_shl(&l, q + e);
    else
        big_shl(&r, -(q + e));
    return big_cmp(&l, &r);
}

/* The rare case of round_to_odd: a fraction below 2^-64 (out of line). */
static __attribute__((noinline)) uint64_t round_exactly(uint64_t whole, uint64_t x,
                                                        int q, int e)
{
    if (!rt_dtoa_exact_only) {
        if (scaled_is_integer(x, q, e))
            return whole;
        rt_dtoa_exact_count++;
    }
    int c = scaled_cmp(x, q, e, whole);
    if (c == 0)
        return whole;
    return c > 0 ? whole | 1 : (whole - 1) | 1;
}

/* x * 2^q * 10^e rounded to odd, given g for 10^e and h = q +
   floor(log2 10^e) + 1 (x * 2^h < 2^64). */
static inline uint64_t round_to_odd(const Pow10 *g, uint64_t x, int h, int q, int e)
{
    uint64_t cp = x << h, a_hi, a_lo, b_hi, b_lo;
    mul64(g->lo, cp, &a_hi, &a_lo);
    mul64(g->hi, cp, &b_hi, &b_lo);
    uint64_t frac = b_lo + a_hi;
    uint64_t whole = b_hi + (frac < a_hi);
    if (frac != 0 && !rt_dtoa_exact_only)
        return whole | 1;
    return round_exactly(whole, x, q, e);
}

/* ---- the shortest decimal -------------------------------------------- */

typedef struct Decimal {
    uint64_t digits;            /* no trailing zeros */
    int exp10;                  /* value = digits * 10^exp10 */
} Decimal;

static Decimal strip_zeros(uint64_t d, int k)
{
    Decimal r;
    while (d % 10 == 0) {
        d /= 10;
        k++;
    }
    r.digits = d;
    r.exp10 = k;
    return r;
}

/* The shortest decimal of a positive finite double, from its fields. */
static Decimal shortest(uint64_t field, int biased)
{
    uint64_t c = biased ? field | 1ull << 52 : field;
    int q = biased ? biased - 1075 : -1074;
    /* Integers below 2^53: the integer itself is the only decimal within
       half a unit of it with so few digits. */
    if (biased && q <= 0 && q >= -52 && (c & ((1ull << -q) - 1)) == 0)
        return strip_zeros(c >> -q, 0);
    int even = !(c & 1);
    int closer = field == 0 && biased > 1;
    uint64_t cbl = 4 * c - 2 + (uint64_t)closer, cb = 4 * c, cbr = 4 * c + 2;
    int k = closer ? floor_log10_three_quarters_pow2(q) : floor_log10_pow2(q);
    const Pow10 *g = pow10_get(-k);
    int h = q + g->flog2 + 1;
    uint64_t vbl = round_to_odd(g, cbl, h, q, -k);
    uint64_t vb = round_to_odd(g, cb, h, q, -k);
    uint64_t vbr = round_to_odd(g, cbr, h, q, -k);
    uint64_t lower = vbl + (uint64_t)!even, upper = vbr - (uint64_t)!even;
    uint64_t s = vb >> 2;
    if (s >= 10) {
        /* the one multiple of 10^(k+1) that may be inside */
        uint64_t sp = s / 10;
        int up_in = lower <= 40 * sp, wp_in = 40 * sp + 40 <= upper;
        if (up_in != wp_in)
            return strip_zeros(sp + (uint64_t)wp_in, k + 1);
    }
    int u_in = lower <= 4 * s, w_in = 4 * s + 4 <= upper;
    if (u_in != w_in)
        return strip_zeros(s + (uint64_t)w_in, k);
    uint64_t mid = 4 * s + 2;
    int up = vb > mid || (vb == mid && (s & 1));
    return strip_zeros(s + (uint64_t)up, k);
}

/* ---- notation ------------------------------------------------------------ */

static const char two_digits[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static const uint64_t pow10_u64[20] = {
    1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
    100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
    1000000000000ull, 10000000000000ull, 100000000000000ull,
    1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
    1000000000000000000ull, 10000000000000000000ull,
};

/* Digits in d > 0: from its bit length (log10(2) ~ 1233/4096), then one
   comparison. */
static int digit_count(uint64_t d)
{
    int bits = 64 - __builtin_clzll(d);
    int n = (bits * 1233) >> 12;
    return n + 1 - (d < pow10_u64[n]);
}

/* The four digits of r < 10^4 at p. */
static void put4(char *p, uint32_t r)
{
    memcpy(p, two_digits + 2 * (r / 100), 2);
    memcpy(p + 2, two_digits + 2 * (r % 100), 2);
}

/* The n digits of d at out: eight at a time in 32-bit arithmetic while
   more than eight are left, then two at a time. */
static void put_digits(char *out, uint64_t d, int n)
{
    char *p = out + n;
    while (d >= 100000000) {
        uint32_t r = (uint32_t)(d % 100000000);
        d /= 100000000;
        p -= 8;
        put4(p, r / 10000);
        put4(p + 4, r % 10000);
    }
    uint32_t e = (uint32_t)d;
    while (e >= 100) {
        uint32_t r = e % 100;
        e /= 100;
        p -= 2;
        memcpy(p, two_digits + 2 * r, 2);
    }
    d = e;
    if (d >= 10) {
        p -= 2;
        memcpy(p, two_digits + 2 * d, 2);
    } else {
        *--p = (char)('0' + d);
    }
}

int rt_dtoa(double v, char *buf)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    char *p = buf;
    uint64_t field = bits & ((1ull << 52) - 1);
    int biased = (int)(bits >> 52 & 0x7ff);
    if (biased == 0x7ff) {
        const char *text = field ? "nan" : bits >> 63 ? "-inf" : "inf";
        size_t len = strlen(text);
        memcpy(buf, text, len + 1);
        return (int)len;
    }
    if (bits >> 63)
        *p++ = '-';
    if (biased == 0 && field == 0) {
        *p++ = '0';
        *p = 0;
        return (int)(p - buf);
    }
    Decimal d = shortest(field, biased);
    int n = digit_count(d.digits);
    int x = d.exp10 + n - 1;            /* value = d.ddd * 10^x */
    /* The digits are written where they go, and a point is made room for
       by moving single bytes: copying the digits as a block right after
       put_digits wrote them in pairs would load across several stores
       (a stalled store forward, once the most expensive step here). */
    if (x >= -4 && x < 17) {
        if (x < 0) {
            *p++ = '0';
            *p++ = '.';
            for (int i = 0; i < -x - 1; i++)
                *p++ = '0';
            put_digits(p, d.digits, n);
            p += n;
        } else if (x >= n - 1) {
            put_digits(p, d.digits, n);
            p += n;
            for (int i = 0; i < x - (n - 1); i++)
                *p++ = '0';
        } else {
            put_digits(p + 1, d.digits, n);
            for (int i = 0; i <= x; i++)
                p[i] = p[i + 1];
            p[x + 1] = '.';
            p += n + 1;
        }
    } else {
        put_digits(p + 1, d.digits, n);
        p[0] = p[1];
        if (n > 1) {
            p[1] = '.';
            p += n + 1;
        } else {
            p += 1;
        }
        *p++ = 'e';
        *p++ = x < 0 ? '-' : '+';
        int a = x < 0 ? -x : x;
        if (a >= 100) {
            *p++ = (char)('0' + a / 100);
            a %= 100;
        }
        memcpy(p, two_digits + 2 * a, 2);
        p += 2;
    }
    *p = 0;
    return (int)(p - buf);
}
