/*
 * rt_units.h - unit strings to SI scale and dimension.
 *
 * Shared by the compiler (reading {value, 'unit'} literals) and the
 * simulator (--param 'lever.r12=250 mm'), so both read units alike.
 * A unit string is a product and quotient of symbols with whole or
 * fractional powers (halves, thirds, quarters, sixths, twelfths; at most
 * RT_DIM_MAX in magnitude, in each power and in the result): 'N*m',
 * 'kg*m^2', 'm/s^2', '1', '1/s', 'm^0.5', 'Pa^(1/3)'.  Symbols are the SI base and
 * derived units, g, min, h (and hr), rad, deg, rev, rpm, in, ft, mi, mph,
 * L, bar, psi, lbf, kgf, lbm, slug, with any SI prefix.  Angles are
 * dimensionless (rad = 1).
 */
#ifndef LMDL_RT_UNITS_H
#define LMDL_RT_UNITS_H

#include <stddef.h>

enum { RT_DIM_COUNT = 7 }; /* m kg s A K mol cd */

/* Every exponent of a dimension lies in -RT_DIM_MAX..RT_DIM_MAX, in unit
   strings and in every dimension the compiler computes (m^99 is far past
   any physics; the limit keeps sums and powers from wrapping around).
   Exponents are stored in twelfths (RT_DIM_DEN), so that a unit may have
   fractional powers as Simscape's do ('m^0.5', 'Pa^(1/3)'): m is 12,
   m^0.5 is 6, N is {12, 12, -24, 0, 0, 0, 0}.  A short holds a sum of
   two stored exponents in range. */
enum { RT_DIM_MAX = 99, RT_DIM_DEN = 12 };

typedef struct RtUnit {
    double scale;                   /* SI value of one unit */
    short dim[RT_DIM_COUNT];        /* exponents of m kg s A K mol cd, in
                                       twelfths (RT_DIM_DEN) */
    double offset;                  /* degC, degF: x in the unit is
                                       x * scale + offset in SI (an absolute
                                       temperature); 0 for every other unit */
} RtUnit;

/* Parses `s`.  Returns 0 and fills *u, or -1 and writes a message and the
   byte offset of the problem in s to err/errpos. */
int rt_unit_parse(const char *s, RtUnit *u, char *err, size_t errlen,
                  size_t *errpos);

/* The same, except that the whole string may also be one of the affine
   temperature units degC and degF: a temperature T (in K) is then
   T / u->scale - *offset in that unit (*offset is 0 for every other
   unit).  Only the compiler's value() uses it. */
int rt_unit_parse_affine(const char *s, RtUnit *u, double *offset, char *err,
                         size_t errlen, size_t *errpos);

/* Writes a readable unit for a dimension ("N", "N*m", "m/s^2", "1"). */
void rt_unit_format(const short dim[RT_DIM_COUNT], char *buf, size_t len);

/* The i-th unit symbol that unit strings may use (the table's, then the
   affine degC and degF), from 0; NULL past the last.  Without SI prefixes
   (any symbol takes one: 'mm', 'kN').  For completion in editors. */
const char *rt_unit_name(int i);

/* The base unit ("m", "kg", ...) of dimension k, for messages. */
const char *rt_unit_base(int k);

#endif
