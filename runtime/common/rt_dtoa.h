/*
 * rt_dtoa.h - the shortest decimal that reads back as the same double.
 *
 * rt_dtoa writes the fewest significant digits that strtod turns back
 * into exactly the same double, and of those candidates the one nearest
 * to the double (ties to an even last digit).  The notation is the one
 * printf's %.17g would choose for the value: plain digits when the
 * decimal exponent X (the value is d.ddd * 10^X) satisfies -5 < X < 17,
 * scientific otherwise, with a signed exponent of at least two digits:
 *
 *   1.5   0.001   -0   123456789012   1e-09   5e-324
 *   1.7976931348623157e+308   0.30000000000000004   inf   -inf   nan
 *
 * So every value prints in the same notation as before, only without
 * the digits %.17g adds beyond what the double holds.
 */
#ifndef LMDL_RT_DTOA_H
#define LMDL_RT_DTOA_H

/* Room for the longest result ("-2.2250738585072014e-308") and a NUL. */
#define RT_DTOA_SIZE 32

/* Writes v into buf (RT_DTOA_SIZE bytes) with a terminating NUL and
   returns the length without it. */
int rt_dtoa(double v, char *buf);

/* Test hook: when set, every rounding decision goes through the exact
   big-integer comparison that otherwise serves only the cases the
   128-bit product cannot decide, so tests can check that path on many
   values.  Off (0) in simulators. */
extern int rt_dtoa_exact_only;
/* Test hook: how many rounding decisions needed the exact comparison
   without rt_dtoa_exact_only. */
extern unsigned long rt_dtoa_exact_count;

#endif
