/*
 * builtin.h - the built-in functions, in one table.
 *
 * Each row is X(id, name, C name, arity, unit rule, lowering, evaluator,
 * finite, derivative):
 *
 *   id          the function's DaeFunc (FN_*);
 *   name        as written in a model;
 *   C name      the function generated C calls for it (<math.h>, or
 *               runtime/common/rt_math.h for MATLAB's mod, rem, ...);
 *   arity       its number of arguments (resolve checks calls against it);
 *   unit rule   how the unit check treats it (BuiltinUnits below);
 *   lowering    what lower.c builds for a call with lowered arguments a
 *               and b in table t: FUNC, a DX_FUNC node, or an expression
 *               that rewrites it into if-expressions over relations (abs,
 *               sign, min, max), so that every zero crossing is an
 *               explicit relation node;
 *   evaluator   its value, an expression in the arguments a and b
 *               (constant folding and dae_eval);
 *   finite      1 when its value is finite for every finite argument
 *               (sin, atan, tanh), 0 when it can be infinite or NaN (log,
 *               sqrt, asin) or overflow (exp, sinh): whether the simplifier
 *               may fold 0 * f(x) to 0 (DXF_FINITE, dae.h);
 *   derivative  the dae_diff.c function giving d f(a, b) from the call and
 *               the derivatives da, db of its arguments.
 *
 * Adding a function is one row here plus its derivative in dae_diff.c, its
 * C function in runtime/common/rt_math.h when the C library has none, and
 * its name in the editors' grammars (HACKING.md); the lowering, the unit
 * check, resolution, evaluation, printing and code generation all read
 * the table.
 */
#ifndef LMDL_BUILTIN_H
#define LMDL_BUILTIN_H

#include <stdbool.h>

/* How the unit check treats a call. */
typedef enum BuiltinUnits {
    BU_DIMLESS,     /* a dimensionless argument, a dimensionless value */
    BU_SAME,        /* any argument; the value has its unit (abs) */
    BU_SIGN,        /* any argument; a dimensionless value (sign) */
    BU_MATCH,       /* two arguments of one unit; the value has it (min, max) */
    BU_MATCH_NONE,  /* two arguments of one unit; dimensionless (atan2) */
    BU_SQRT,        /* even powers; the value has half of each */
    BU_TEST,        /* any argument; a true/false value (isfinite) */
} BuiltinUnits;

#define LMDL_BUILTINS(X)                                                     \
    X(FN_SIN, "sin", "sin", 1, BU_DIMLESS, FUNC, sin(a), 1, diff_sin)               \
    X(FN_COS, "cos", "cos", 1, BU_DIMLESS, FUNC, cos(a), 1, diff_cos)               \
    X(FN_TAN, "tan", "tan", 1, BU_DIMLESS, FUNC, tan(a), 0, diff_tan)               \
    X(FN_ASIN, "asin", "asin", 1, BU_DIMLESS, FUNC, asin(a), 0, diff_asin)           \
    X(FN_ACOS, "acos", "acos", 1, BU_DIMLESS, FUNC, acos(a), 0, diff_acos)           \
    X(FN_ATAN, "atan", "atan", 1, BU_DIMLESS, FUNC, atan(a), 1, diff_atan)           \
    X(FN_ATAN2, "atan2", "atan2", 2, BU_MATCH_NONE, FUNC, atan2(a, b), 1, diff_atan2) \
    X(FN_SINH, "sinh", "sinh", 1, BU_DIMLESS, FUNC, sinh(a), 0, diff_sinh)           \
    X(FN_COSH, "cosh", "cosh", 1, BU_DIMLESS, FUNC, cosh(a), 0, diff_cosh)           \
    X(FN_TANH, "tanh", "tanh", 1, BU_DIMLESS, FUNC, tanh(a), 1, diff_tanh)           \
    X(FN_EXP, "exp", "exp", 1, BU_DIMLESS, FUNC, exp(a), 0, diff_exp)               \
    X(FN_LOG, "log", "log", 1, BU_DIMLESS, FUNC, log(a), 0, diff_log)               \
    X(FN_LOG10, "log10", "log10", 1, BU_DIMLESS, FUNC, log10(a), 0, diff_log10)       \
    X(FN_SQRT, "sqrt", "sqrt", 1, BU_SQRT, FUNC, sqrt(a), 0, diff_sqrt)              \
    X(FN_ABS, "abs", "abs", 1, BU_SAME, dae_abs(t, a), NAN, 1, NULL)                \
    X(FN_SIGN, "sign", "sign", 1, BU_SIGN, dae_sign(t, a), NAN, 1, NULL)             \
    X(FN_MIN, "min", "min", 2, BU_MATCH, dae_min(t, a, b), NAN, 1, NULL)            \
    X(FN_MAX, "max", "max", 2, BU_MATCH, dae_max(t, a, b), NAN, 1, NULL) \
    X(FN_FLOOR, "floor", "floor", 1, BU_SAME, FUNC, floor(a), 1, diff_zero)     \
    X(FN_CEIL, "ceil", "ceil", 1, BU_SAME, FUNC, ceil(a), 1, diff_zero)         \
    X(FN_ROUND, "round", "round", 1, BU_SAME, FUNC, round(a), 1, diff_zero)     \
    X(FN_FIX, "fix", "trunc", 1, BU_SAME, FUNC, trunc(a), 1, diff_zero)         \
    X(FN_MOD, "mod", "rt_mod", 2, BU_MATCH, FUNC, rt_mod(a, b), 1, diff_mod)    \
    X(FN_REM, "rem", "rt_rem", 2, BU_MATCH, FUNC, rt_rem(a, b), 0, diff_rem)    \
    X(FN_ISFINITE, "isfinite", "rt_isfinite", 1, BU_TEST, FUNC, rt_isfinite(a), 1, \
      diff_zero)                                                                 \
    X(FN_ISINF, "isinf", "rt_isinf", 1, BU_TEST, FUNC, rt_isinf(a), 1, diff_zero) \
    X(FN_ISNAN, "isnan", "rt_isnan", 1, BU_TEST, FUNC, rt_isnan(a), 1, diff_zero) \
    X(FN_NEABS, "neabs", "fabs", 1, BU_SAME, FUNC, fabs(a), 1, diff_neabs)     \
    X(FN_NESIGN, "nesign", "rt_sign", 1, BU_SIGN, FUNC, rt_sign(a), 1, diff_zero) \
    /* MATLAB's conversions: the integer types round, double and single are \
       the number itself, logical is the test x ~= 0 */                    \
    X(FN_INT8, "int8", "round", 1, BU_SAME, FUNC, round(a), 1, diff_zero)       \
    X(FN_INT16, "int16", "round", 1, BU_SAME, FUNC, round(a), 1, diff_zero)     \
    X(FN_INT32, "int32", "round", 1, BU_SAME, FUNC, round(a), 1, diff_zero)     \
    X(FN_INT64, "int64", "round", 1, BU_SAME, FUNC, round(a), 1, diff_zero)     \
    X(FN_UINT8, "uint8", "round", 1, BU_SAME, FUNC, round(a), 1, diff_zero)     \
    X(FN_UINT16, "uint16", "round", 1, BU_SAME, FUNC, round(a), 1, diff_zero)   \
    X(FN_UINT32, "uint32", "round", 1, BU_SAME, FUNC, round(a), 1, diff_zero)   \
    X(FN_UINT64, "uint64", "round", 1, BU_SAME, FUNC, round(a), 1, diff_zero)   \
    X(FN_DOUBLE, "double", "", 1, BU_SAME, a, a, 1, NULL)                       \
    X(FN_SINGLE, "single", "", 1, BU_SAME, a, a, 1, NULL)                       \
    X(FN_LOGICAL, "logical", "", 1, BU_TEST, dae_binary(t, DX_NE, a, dae_const(t, 0)), \
      a != 0, 1, NULL)                                                          \
    X(FN_FMIN, "fmin", "fmin", 2, BU_MATCH, FUNC, fmin(a, b), 1, diff_fmin)          \
    X(FN_FMAX, "fmax", "fmax", 2, BU_MATCH, FUNC, fmax(a, b), 1, diff_fmax)

/* The functions of vectors and matrices, another table, since
   they are not scalar functions of scalars: they are evaluated when an
   expression is lowered (lower_array.c: to constants, sums, products and
   elements), or become a table lookup node (tablelookup).
   X(id, name, fewest arguments, most arguments, what it gives, units,
     sizes):
     fewest/most  positional arguments (tablelookup also takes the named
                  ones interpolation = and extrapolation =)
     gives        for messages: what the call's value is
     units        how the unit check treats it (ArrayUnits below)
     sizes        the first argument that is a size or a count, read at
                  compile time (-1: none) */
typedef enum ArrayUnits {
    AU_COUNT,       /* a dimensionless count of any argument (numel) */
    AU_FILL,        /* dimensionless values (zeros, eye) */
    AU_SAME,        /* the first argument's unit (sum, repmat, diff) */
    AU_MATCH,       /* the first two arguments of one unit, the value's
                       (linspace) */
    AU_DIMLESS,     /* a dimensionless argument (prod) */
    AU_PRODUCT,     /* the product of the first two arguments' (dot, cross) */
    AU_TEST,        /* true/false (all, any) */
    AU_TABLE,       /* tablelookup's own rule */
} ArrayUnits;

#define LMDL_ARRAY_FUNCS(X)                                                  \
    X(AF_NUMEL, "numel", 1, 1, "the number of elements", AU_COUNT, -1)      \
    X(AF_SIZE, "size", 1, 2, "the size along a dimension", AU_COUNT, 1)      \
    X(AF_LENGTH, "length", 1, 1, "the largest dimension", AU_COUNT, -1)      \
    X(AF_SUM, "sum", 1, 1, "the sum of the elements", AU_SAME, -1)           \
    X(AF_PROD, "prod", 1, 1, "the product of the elements", AU_DIMLESS, -1)  \
    X(AF_MEAN, "mean", 1, 1, "the mean of the elements", AU_SAME, -1)        \
    X(AF_CUMSUM, "cumsum", 1, 1, "the cumulative sums", AU_SAME, -1)         \
    X(AF_DIFF, "diff", 1, 2, "the differences of neighbours", AU_SAME, 1)    \
    X(AF_DOT, "dot", 2, 2, "the dot product", AU_PRODUCT, -1)                \
    X(AF_CROSS, "cross", 2, 2, "the cross product", AU_PRODUCT, -1)          \
    X(AF_NORM, "norm", 1, 1, "the Euclidean norm", AU_SAME, -1)              \
    X(AF_ALL, "all", 1, 1, "whether every element is nonzero", AU_TEST, -1)  \
    X(AF_ANY, "any", 1, 1, "whether some element is nonzero", AU_TEST, -1)   \
    X(AF_ZEROS, "zeros", 1, 2, "a matrix of zeros", AU_FILL, 0)              \
    X(AF_ONES, "ones", 1, 2, "a matrix of ones", AU_FILL, 0)                 \
    X(AF_EYE, "eye", 1, 2, "an identity matrix", AU_FILL, 0)                 \
    X(AF_REPMAT, "repmat", 2, 3, "the matrix repeated in blocks", AU_SAME, 1) \
    X(AF_RESHAPE, "reshape", 2, 3, "the elements in another shape", AU_SAME, 1) \
    X(AF_LINSPACE, "linspace", 2, 3, "evenly spaced points", AU_MATCH, 2)   \
    X(AF_DIAG, "diag", 1, 1, "a diagonal matrix, or a matrix's diagonal", AU_SAME, -1) \
    X(AF_TRIL, "tril", 1, 1, "the lower triangle", AU_SAME, -1)              \
    X(AF_TRIU, "triu", 1, 1, "the upper triangle", AU_SAME, -1)              \
    X(AF_TABLELOOKUP, "tablelookup", 3, 5, "the value interpolated in a table", AU_TABLE, -1)

#define X_AF_ENUM(id, name, lo, hi, what, units, sizes) id,
typedef enum ArrayFunc { LMDL_ARRAY_FUNCS(X_AF_ENUM) AF_COUNT } ArrayFunc;

extern const char *const array_func_names[];
extern const int array_func_min_args[];
extern const ArrayUnits array_func_units[];
extern const int array_func_sizes[];
extern const int array_func_max_args[];

/* The array function called `name`, or -1. */
int array_func_find(const char *name);

#define X_BI_ENUM(id, name, c, arity, units, lower, eval, finite, diff) id,
typedef enum DaeFunc { LMDL_BUILTINS(X_BI_ENUM) FN_COUNT } DaeFunc;
/* The rows before FN_NAMED are the functions a model calls by name; fmin
   and fmax are made only by dae_min and dae_max, for operands that are
   constants and parameters: they need no zero crossing, and each operand
   appears once (a max of n parameters is n - 1 calls, not an if-expression
   that repeats its operands). */
enum { FN_NAMED = FN_FMIN };

/* The special forms: written like calls, but they are not functions of
   numbers, so they have no DaeFunc node; resolution, the unit check and
   lowering treat each one (resolve_expr.c, units_dim.c, lower.c).
   X(id, name, fewest arguments, most arguments) */
#define LMDL_SPECIAL_FORMS(X)                                                \
    X(SF_VALUE, "value", 2, 3)  /* value(x, 'unit'[, 'linear'|'affine']):    \
                                   the number of x in that unit */          \
    X(SF_INTEG, "integ", 1, 2)  /* integ(e): the time integral of e from the \
                                   start, a new state (integ(e, t_L) is   \
                                   refused) */                              \
    X(SF_EDGE, "edge", 1, 1)    /* edge(b): the event of b turning true, in \
                                   a when predicate only (DX_EDGE) */      \
    X(SF_DELAY, "delay", 2, 4)  /* delay(u, tau[, History = h][,          \
                                   MaximumDelay = m]): u at t - tau       \
                                   (DX_DELAY, a DaeDelay) */              \
    X(SF_BLEND, "simscape.function.blend", 5, 5) /* blend(y1, y2, x1, x2, \
                                   x): y1 up to x1, y2 from x2, a smooth  \
                                   step (3u^2 - 2u^3) between */          \
    X(SF_LIMIT, "simscape.function.limit", 4, 4) /* limit(x, lower, upper, \
                                   smoothing): x clamped to [lower, upper] \
                                   (smoothing = true is refused) */

#define X_SF_ENUM(id, name, lo, hi) id,
typedef enum SpecialForm { LMDL_SPECIAL_FORMS(X_SF_ENUM) SF_COUNT } SpecialForm;

extern const char *const special_names[];
extern const int special_min_args[];
extern const int special_max_args[];

/* The special form called `name`, or -1. */
int special_find(const char *name);

/* The named constants, MATLAB's: a member of the same name hides one.
   X(name, value) */
#define LMDL_CONSTANTS(X)                                                    \
    X("pi", 3.14159265358979323846)                                          \
    X("eps", 2.220446049250313080847e-16) /* the spacing of doubles at 1 */  \
    X("inf", INFINITY)                                                       \
    X("Inf", INFINITY)                                                       \
    X("NaN", NAN)                                                            \
    X("nan", NAN)

/* Whether `name` is a named constant; its value in *v. */
bool builtin_constant(const char *name, double *v);

/* The columns that every pass may read, indexed by DaeFunc. */
extern const char *const builtin_names[];
extern const char *const builtin_c_names[];
extern const int builtin_arity[];
extern const BuiltinUnits builtin_units[];
extern const bool builtin_finite[];

/* The builtin called `name`, or -1. */
int builtin_find(const char *name);

#endif
