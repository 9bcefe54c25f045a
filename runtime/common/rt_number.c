/*
 * rt_number.c - the strict number reader behind rt_number.h.
 *
 * The syntax is checked here, character by character, and only a text
 * already known to be a plain decimal number is handed to strtod for the
 * value; strtod alone would accept hex, "inf", "nan" and leading spaces,
 * and turn 1e-400 into 0.  The range check uses the digits: a mantissa
 * with a nonzero digit must not come back as 0 or as a subnormal.
 */
#include "rt_number.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int digit_at(const char *s, size_t len, size_t i)
{
    return i < len && isdigit((unsigned char)s[i]);
}

static int letter_at(const char *s, size_t len, size_t i)
{
    return i < len && (isalpha((unsigned char)s[i]) || s[i] == '_');
}

static int word_at(const char *s, size_t len, size_t i, const char *w)
{
    size_t n = strlen(w);
    if (len - i < n)
        return 0;
    for (size_t k = 0; k < n; k++)
        if (tolower((unsigned char)s[i + k]) != w[k])
            return 0;
    return 1;
}

static RtNumStatus refuse(const char **why, const char *text)
{
    if (why)
        *why = text;
    return RT_NUM_SYNTAX;
}

RtNumStatus rt_number_scan(const char *s, size_t len, int allow_sign,
                           double *value, size_t *used, const char **why)
{
    size_t i = 0;
    if (allow_sign && i < len && (s[i] == '+' || s[i] == '-'))
        i++;
    size_t mant = i;
    int nonzero = 0, ndigits = 0;
    while (digit_at(s, len, i)) {
        nonzero |= s[i] != '0';
        ndigits++;
        i++;
    }
    if (ndigits == 1 && s[i - 1] == '0' && i < len && (s[i] == 'x' || s[i] == 'X'))
        return refuse(why, "hexadecimal numbers are not supported; write the "
                      "number in decimal");
    if (i < len && s[i] == '.') {
        i++;
        while (digit_at(s, len, i)) {
            nonzero |= s[i] != '0';
            ndigits++;
            i++;
        }
    }
    if (ndigits == 0) {
        if (word_at(s, len, mant, "inf") || word_at(s, len, mant, "nan"))
            return refuse(why, "infinities and NaN are not numbers here");
        return refuse(why, "expected a number");
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < len && (s[j] == '+' || s[j] == '-'))
            j++;
        if (digit_at(s, len, j)) {
            while (digit_at(s, len, j))
                j++;
            i = j;
        } else if (j > i + 1 || !letter_at(s, len, j)) {
            /* "1e", "1e+", "1e-m": an exponent was begun; "1em" is 1 em */
            return refuse(why, "the exponent after 'e' has no digits");
        }
    }
    /* Plain decimal text now: strtod gives the correctly rounded value. */
    char small[64];
    char *buf = i < sizeof small ? small : malloc(i + 1);
    if (!buf)
        return refuse(why, "out of memory");
    memcpy(buf, s, i);
    buf[i] = 0;
    double v = strtod(buf, NULL);
    if (buf != small)
        free(buf);
    if (isinf(v)) {
        if (why)
            *why = "the number is too large (the largest is about 1.8e308)";
        return RT_NUM_RANGE;
    }
    if (nonzero && fabs(v) < DBL_MIN) {
        if (why)
            *why = "the number is too small (the smallest nonzero magnitude is "
                   "about 2.2e-308; write 0 for zero)";
        return RT_NUM_RANGE;
    }
    *value = v;
    if (used)
        *used = i;
    return RT_NUM_OK;
}

RtNumStatus rt_number_parse(const char *s, int allow_sign, double *value,
                            const char **why)
{
    size_t len = strlen(s), used = 0;
    double v;
    RtNumStatus st = rt_number_scan(s, len, allow_sign, &v, &used, why);
    if (st != RT_NUM_OK)
        return st;
    if (used != len)
        return refuse(why, "unexpected text after the number");
    *value = v;
    return RT_NUM_OK;
}
