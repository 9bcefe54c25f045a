/*
 * units.h - dimensions: SI exponent vectors and their algebra (units.c).
 *
 * A Dim is the vector of SI base exponents; angles are dimensionless.
 * Unit strings are read by the runtime's shared parser (rt_units.h) so the
 * compiler and the simulator agree on every symbol; units_read_quantity
 * and units_read_value are the compiler's readers of the strings a model
 * writes, reporting errors inside the string.  The pass that checks the
 * model's dimensions is units/units_check.h.
 */
#ifndef LMDL_UNITS_H
#define LMDL_UNITS_H

#include "arena.h"
#include "rt_units.h"
#include "source.h"

#include <stdbool.h>

/* Exponents stay within -RT_DIM_MAX..RT_DIM_MAX (rt_units.h), stored in
   twelfths (RT_DIM_DEN: m^0.5 is 6): the unit check refuses any
   expression whose dimension leaves that range, so the operations below
   never overflow a short (dim_pow holds a product past the range just
   outside it). */
typedef struct Dim {
    short e[RT_DIM_COUNT];          /* exponents of m kg s A K mol cd, in
                                       twelfths */
} Dim;

static inline Dim dim_none(void)
{
    Dim d = {{0}};
    return d;
}

bool dim_eq(Dim a, Dim b);
bool dim_is_none(Dim a);
Dim dim_mul(Dim a, Dim b);
Dim dim_div(Dim a, Dim b);
Dim dim_pow(Dim a, int n);
/* a^(num/den) into *out, when every exponent comes out a whole number of
   twelfths within range ((m^2)^0.5, m^(1/3) cubed); else false. */
bool dim_root(Dim a, long num, long den, Dim *out);
/* Every exponent within -RT_DIM_MAX..RT_DIM_MAX; else *worst is the index
   of the first one outside. */
bool dim_in_range(Dim a, int *worst);
/* Readable unit text for messages: "N", "N*m", "m/s^2", "1". */
const char *dim_text(Dim d, char *buf, size_t len);
/* "in N", or "dimensionless". */
const char *dim_phrase(Dim d, char *buf, size_t len);
/* The same for messages: "dimensionless" instead of "1". */
const char *dim_text_msg(Dim d, char *buf, size_t len);

/* The unit of a {value, 'unit'} literal, `text` as written between the
   quotes at `unit_span` (quotes included): '*' (the binding's unit,
   dimensionless when unbound), '*(UNIT)' (UNIT when unbound), or a unit.
   NULL after an error reported inside the string.  In arena a.  An
   affine unit (degC, degF) is allowed when absolute (a declaration's or
   argument's whole value): an absolute temperature, or with relative (its
   member has Conversion = relative) a difference, its offset dropped. */
const RtUnit *units_read_quantity(Arena *a, const char *text, SrcSpan unit_span,
                                  bool absolute, bool relative);
/* The unit asked of value(x, 'unit'): an affine temperature unit is
   allowed, its offset in *offset.  NULL after an error. */
const RtUnit *units_read_value(Arena *a, const char *text, SrcSpan span, double *offset);

#endif
