/*
 * dtoa.c - reference tests of rt_dtoa (runtime/common/rt_dtoa.c), label runtime.
 *
 *   rt_dtoa_test [RANDOM_BITS [NICE_DECIMALS]]
 *
 * For every double tried, the output must
 *   1. read back through strtod to the same bits (the sign of zero too);
 *   2. have the syntax and notation rt_dtoa.h promises (plain digits for
 *      decimal exponents -4..16, else d.ddde+XX), with no redundant zeros;
 *   3. be shortest, checked independently with printf: no decimal with
 *      one digit fewer reads back as the double.  The decimals of n digits
 *      nearest to v are printf's %.{n-1}e rounding and the n-digit
 *      neighbour on the other side of v, so "none of those for n - 1
 *      round-trips" proves that nothing shorter does;
 *   4. be the nearest of the shortest: printf's correctly rounded n digits
 *      when those round-trip, else the neighbour that does.
 *
 * Values: random bit patterns, random short decimals ("nice" numbers a
 * simulation prints: 0.25, 1e-3, 42), every binade's first, second and
 * last significands, the subnormal range's edges, powers of 2 and 10 and
 * their neighbours, DBL_MIN/MAX/TRUE_MIN, fixed examples, and a share of
 * the random values again with every rounding decision taken by the
 * exact big-integer path (rt_dtoa_exact_only), which must agree.
 *
 *   rt_dtoa_test --csv FILE
 *
 * checks a simulator's CSV results instead: every field after the header
 * must be exactly rt_dtoa's text of the double it reads back as.  The
 * writer copies the text of a value it has written already (in the row,
 * or in the row before), negated where one column is minus another
 * (runtime/rt_csv.c); this checks that each copy is the text rt_dtoa
 * would have written.
 */
#include "rt_dtoa.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long n_checked, n_failed, n_nearest_too_long;

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_random(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double from_bits(uint64_t b)
{
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

static uint64_t to_bits(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

static void failure(double v, const char *out, const char *why)
{
    if (n_failed++ < 20)
        fprintf(stderr, "FAIL: %a (%.17g): rt_dtoa gave '%s': %s\n", v, v, out, why);
}

static int round_trips(const char *text, double v)
{
    return to_bits(strtod(text, NULL)) == to_bits(v);
}

/* A decimal as integer digits M (no more than 17 of them) and the
   exponent of its first digit: M * 10^(x - len(M) + 1). */
typedef struct Dec {
    uint64_t m;
    int n;                      /* digits in m */
    int x;                      /* decimal exponent of the first digit */
} Dec;

static int decimal_round_trips(Dec d, double v)
{
    char text[64];
    snprintf(text, sizeof text, "%s%" PRIu64 "e%d", signbit(v) ? "-" : "",
             d.m, d.x - d.n + 1);
    return round_trips(text, v);
}

/* printf's correctly rounded n significant digits of |v|. */
static Dec printf_digits(double v, int n)
{
    char text[64];
    snprintf(text, sizeof text, "%.*e", n - 1, fabs(v));
    Dec d = {0, n, 0};
    char *e = strchr(text, 'e');
    for (char *c = text; c < e; c++)
        if (*c >= '0' && *c <= '9')
            d.m = d.m * 10 + (uint64_t)(*c - '0');
    d.x = atoi(e + 1);
    return d;
}

static uint64_t pow10_u(int n)
{
    uint64_t p = 1;
    while (n-- > 0)
        p *= 10;
    return p;
}

/* The n-digit decimals just above and just below d. */
static Dec dec_up(Dec d)
{
    d.m++;
    if (d.m == pow10_u(d.n)) {
        d.m /= 10;
        d.x++;
    }
    return d;
}

static Dec dec_down(Dec d)
{
    if (d.m == pow10_u(d.n - 1)) {
        d.m = pow10_u(d.n) - 1;
        d.x--;
        return d;
    }
    d.m--;
    return d;
}

/* Some decimal of n significant digits reads back as v. */
static int some_n_digits_round_trip(double v, int n)
{
    Dec d = printf_digits(v, n);
    return decimal_round_trips(d, v) || decimal_round_trips(dec_up(d), v)
           || decimal_round_trips(dec_down(d), v);
}

/* All of [lo, hi) are decimal digits. */
static int all_digits(const char *lo, const char *hi)
{
    for (const char *c = lo; c < hi; c++)
        if (*c < '0' || *c > '9')
            return 0;
    return 1;
}

/* Parses rt_dtoa's output into its significant digits and exponent,
   checking the syntax and the notation rule.  Returns 0, or -1 with
   *why set. */
static int parse_output(const char *s, Dec *d, const char **why)
{
    if (*s == '-')
        s++;
    const char *end = s + strlen(s), *e = strchr(s, 'e');
    const char *mend = e ? e : end, *point = memchr(s, '.', (size_t)(mend - s));
    const char *iend = point ? point : mend;
    char digits[40];
    int nd = 0, x;
    if (iend == s || !all_digits(s, iend) || (point && (point + 1 == mend
        || !all_digits(point + 1, mend) || mend[-1] == '0'))) {
        *why = "malformed significand (or a trailing zero after the point)";
        return -1;
    }
    if (e) {
        const char *ex = e + 1;
        size_t el = strlen(ex);
        if (iend - s != 1 || *s == '0' || (ex[0] != '+' && ex[0] != '-') || el < 3
            || el > 4 || !all_digits(ex + 1, end) || (el == 4 && ex[1] == '0')) {
            *why = "malformed scientific notation";
            return -1;
        }
        x = atoi(ex);
    } else if (*s != '0') {
        x = (int)(iend - s) - 1;
    } else {
        if (iend - s != 1 || !point) {
            *why = "leading zero";
            return -1;
        }
        const char *f = point + 1;
        while (*f == '0')
            f++;
        x = -(int)(f - point);
        s = f;
        iend = f;
    }
    for (const char *c = s; c < mend && nd < 39; c++)
        if (c != point)
            digits[nd++] = *c;
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    if (nd > 17) {
        *why = "more than 17 significant digits";
        return -1;
    }
    int plain = x >= -4 && x < 17;
    if (plain == (e != NULL)) {
        *why = e ? "scientific notation where %.17g is plain"
                 : "plain notation where %.17g is scientific";
        return -1;
    }
    d->m = 0;
    for (int i = 0; i < nd; i++)
        d->m = d->m * 10 + (uint64_t)(digits[i] - '0');
    d->n = nd;
    d->x = x;
    return 0;
}

static void check(double v)
{
    char out[RT_DTOA_SIZE + 8];
    memset(out, 'X', sizeof out);
    int len = rt_dtoa(v, out);
    if (!isfinite(v))
        return;
    n_checked++;
    if (len <= 0 || len >= RT_DTOA_SIZE || (int)strlen(out) != len) {
        failure(v, out, "bad length");
        return;
    }
    if (!round_trips(out, v)) {
        failure(v, out, "does not read back as the same double");
        return;
    }
    if (v == 0) {
        if (strcmp(out, signbit(v) ? "-0" : "0"))
            failure(v, out, "zero is written 0 or -0");
        return;
    }
    if ((out[0] == '-') != (signbit(v) != 0)) {
        failure(v, out, "wrong sign");
        return;
    }
    Dec mine;
    const char *why = "";
    if (parse_output(out, &mine, &why) != 0) {
        failure(v, out, why);
        return;
    }
    if (mine.n > 1 && some_n_digits_round_trip(v, mine.n - 1)) {
        failure(v, out, "not the shortest: fewer digits read back too");
        return;
    }
    Dec nearest = printf_digits(v, mine.n);
    Dec want = nearest;
    if (!decimal_round_trips(nearest, v)) {
        n_nearest_too_long++;
        want = decimal_round_trips(dec_up(nearest), v) ? dec_up(nearest) : dec_down(nearest);
    }
    if (want.m != mine.m || want.x != mine.x)
        failure(v, out, "not the nearest of the shortest decimals");
}

/* The same value with every decision on the exact path. */
static void check_exact_path(double v)
{
    char fast[RT_DTOA_SIZE], exact[RT_DTOA_SIZE];
    rt_dtoa(v, fast);
    rt_dtoa_exact_only = 1;
    rt_dtoa(v, exact);
    rt_dtoa_exact_only = 0;
    n_checked++;
    if (strcmp(fast, exact))
        failure(v, fast, "the exact path disagrees");
}

static void check_both_signs(double v)
{
    check(v);
    check(-v);
}

static void check_neighbours(double v)
{
    check_both_signs(v);
    check_both_signs(nextafter(v, INFINITY));
    check_both_signs(nextafter(v, 0));
}

static void expect(double v, const char *want)
{
    char out[RT_DTOA_SIZE];
    rt_dtoa(v, out);
    n_checked++;
    if (strcmp(out, want)) {
        n_failed++;
        fprintf(stderr, "FAIL: %.17g: rt_dtoa gave '%s', expected '%s'\n", v, out, want);
    }
}

/* --csv FILE: every field of every row but the first is rt_dtoa's text
   of its value.  0 when they all are, 1 on the first that is not. */
static int check_csv(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        perror(path);
        return 1;
    }
    char *line = NULL;
    size_t cap = 0;
    long row = 0, fields = 0;
    while (getline(&line, &cap, fp) > 0) {
        if (row++ == 0)
            continue;           /* the header */
        line[strcspn(line, "\n")] = 0;
        int col = 0;
        for (char *f = line, *end; f; f = end ? end + 1 : NULL, col++) {
            end = strchr(f, ',');
            if (end)
                *end = 0;
            char buf[RT_DTOA_SIZE], *stop;
            double v = strtod(f, &stop);
            rt_dtoa(v, buf);
            if (*stop || strcmp(buf, f) != 0) {
                printf("FAIL: %s row %ld column %d is \"%s\"; rt_dtoa writes \"%s\"\n", path,
                       row, col + 1, f, buf);
                free(line);
                fclose(fp);
                return 1;
            }
            fields++;
        }
    }
    free(line);
    fclose(fp);
    printf("%s: %ld rows, %ld fields, each rt_dtoa's text of its value\n", path, row - 1,
           fields);
    return row > 1 ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--csv"))
        return check_csv(argv[2]);
    long n_random = argc > 1 ? atol(argv[1]) : 1000000;
    long n_nice = argc > 2 ? atol(argv[2]) : 300000;

    /* the notation, on fixed examples */
    expect(1.5, "1.5");
    expect(-2.5, "-2.5");
    expect(0.0, "0");
    expect(-0.0, "-0");
    expect(100, "100");
    expect(0.001, "0.001");
    expect(0.0001, "0.0001");
    expect(0.00001, "1e-05");
    expect(1e-9, "1e-09");
    expect(123456789012.0, "123456789012");
    expect(1e16, "10000000000000000");
    expect(1e17, "1e+17");
    expect(1e22, "1e+22");
    expect(1e100, "1e+100");
    expect(0.1 + 0.2, "0.30000000000000004");
    expect(0.3, "0.3");
    expect(1.0 / 3, "0.3333333333333333");
    expect(2.0 / 3, "0.6666666666666666");
    expect(DBL_MAX, "1.7976931348623157e+308");
    expect(DBL_MIN, "2.2250738585072014e-308");
    expect(DBL_TRUE_MIN, "5e-324");
    expect(-DBL_TRUE_MIN, "-5e-324");
    expect(9007199254740993.0, "9007199254740992");
    expect(1.2345678901234567e300, "1.2345678901234567e+300");
    expect(5e-324 * 3, "1.5e-323");
    expect(INFINITY, "inf");
    expect(-INFINITY, "-inf");
    expect(NAN, "nan");

    /* every binade: its first, second and last significands, and random
       ones (the asymmetric interval at a power of 2 included) */
    for (uint64_t e = 0; e < 2047; e++) {
        uint64_t fields[] = {0, 1, 2, (1ull << 52) - 1, (1ull << 52) - 2,
                             next_random() >> 12, next_random() >> 12};
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
            check_both_signs(from_bits(e << 52 | fields[i]));
    }
    /* the subnormals: the smallest, each power of 2, the largest */
    for (uint64_t f = 1; f < 1000; f++)
        check(from_bits(f));
    for (int b = 0; b < 52; b++)
        check_neighbours(from_bits(1ull << b));
    check_neighbours(from_bits((1ull << 52) - 1));
    check_neighbours(DBL_MIN);
    check_neighbours(DBL_MAX);
    check_neighbours(DBL_TRUE_MIN);
    /* powers of 2 and of 10, and their neighbours */
    for (int b = -1074; b <= 1023; b++)
        check_neighbours(ldexp(1, b));
    for (int k = -323; k <= 308; k++) {
        char text[16];
        snprintf(text, sizeof text, "1e%d", k);
        check_neighbours(strtod(text, NULL));
    }
    /* integers around 2^53 */
    for (int64_t i = -50; i < 100; i++)
        check((double)((INT64_C(1) << 53) + i));

    /* random bit patterns */
    for (long i = 0; i < n_random; i++) {
        uint64_t b = next_random();
        if ((b >> 52 & 0x7ff) == 0x7ff)
            continue;
        check(from_bits(b));
    }
    /* random short decimals of 1 to 17 digits over the whole range */
    for (long i = 0; i < n_nice; i++) {
        int digits = 1 + (int)(next_random() % 17);
        uint64_t m = next_random() % pow10_u(digits);
        int x = (int)(next_random() % 640) - 330;
        char text[64];
        snprintf(text, sizeof text, "%" PRIu64 "e%d", m, x);
        double v = strtod(text, NULL);
        if (v != 0 && isfinite(v))
            check(v);
    }
    unsigned long exact_needed = rt_dtoa_exact_count;

    /* the exact path, on its own */
    for (long i = 0; i < n_random / 10; i++) {
        uint64_t b = next_random();
        if ((b >> 52 & 0x7ff) != 0x7ff)
            check_exact_path(from_bits(b));
    }
    for (int b = -1074; b <= 1023; b++)
        check_exact_path(ldexp(1, b));
    for (long i = 0; i < n_nice / 10; i++) {
        char text[64];
        snprintf(text, sizeof text, "%" PRIu64 "e%d", next_random() % 100000,
                 (int)(next_random() % 640) - 330);
        double v = strtod(text, NULL);
        if (v != 0 && isfinite(v))
            check_exact_path(v);
    }

    printf("rt_dtoa: %ld values checked, %ld failures; %ld where printf's "
           "nearest digits of the shortest length do not round-trip; %lu "
           "decisions needed the exact path\n", n_checked, n_failed,
           n_nearest_too_long, exact_needed);
    return n_failed ? 1 : 0;
}
