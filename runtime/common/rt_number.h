/*
 * rt_number.h - the one number syntax of lmdl, for model files, --param
 * values and every simulator option.
 *
 * Shared by the compiler (the lexer's numbers) and the simulator, so a
 * number means the same everywhere: decimal digits with an optional
 * fraction and exponent (1, 2.5, .5, 1., 1e-3, 3.0E+2).  Hexadecimal,
 * hex floats, inf, nan, an exponent without digits and junk around the
 * number are refused.  A number's magnitude must be 0 or lie between
 * DBL_MIN (2.2e-308) and DBL_MAX (1.8e308): 1e400 and 1e-400 are both
 * errors, never a silent infinity or 0.
 */
#ifndef LMDL_RT_NUMBER_H
#define LMDL_RT_NUMBER_H

#include <stddef.h>

typedef enum RtNumStatus {
    RT_NUM_OK,      /* a number in range */
    RT_NUM_SYNTAX,  /* not a number, or a malformed one */
    RT_NUM_RANGE,   /* well formed, but too large or too small for a double */
} RtNumStatus;

/* Reads the number at the start of s[0..len).  With allow_sign a leading
   '+' or '-' is part of it (in model files the sign is an operator).  The
   number ends where the syntax ends: "5mm" reads 5 and leaves "mm", and
   "1em" reads 1 (an 'e' followed by a letter is not an exponent).  On
   RT_NUM_OK sets *value and *used (bytes read); otherwise *why is a short
   phrase for a message ("hexadecimal numbers are not supported"). */
RtNumStatus rt_number_scan(const char *s, size_t len, int allow_sign,
                           double *value, size_t *used, const char **why);

/* The whole NUL-terminated string must be one number (no spaces). */
RtNumStatus rt_number_parse(const char *s, int allow_sign, double *value,
                            const char **why);

#endif
