/*
 * builtin.c - the tables the X-macros of dae.h and builtin.h make: the
 * names, arities, C operators and precedences of the expression kinds,
 * and the names, arities, unit rules and finiteness of the built-in
 * functions, the array functions and the special forms, with the lookups
 * by name.
 */
#include "dae.h"

#include <math.h>
#include <string.h>

#define X_KNAME(k, s, n, c, p) s,
#define X_KARITY(k, s, n, c, p) n,
#define X_KCOP(k, s, n, c, p) c,
#define X_KPREC(k, s, n, c, p) p,
const char *const dae_kind_names[] = {DAE_EXPR_KINDS(X_KNAME)};
const int dae_kind_arity[] = {DAE_EXPR_KINDS(X_KARITY)};
const char *const dae_kind_cop[] = {DAE_EXPR_KINDS(X_KCOP)};
const int dae_kind_prec[] = {DAE_EXPR_KINDS(X_KPREC)};
_Static_assert(DX_KIND_COUNT <= 256, "DaeExpr.kind is one byte");

#define X_BNAME(id, name, c, arity, units, lower, eval, finite, diff) name,
#define X_BCNAME(id, name, c, arity, units, lower, eval, finite, diff) c,
#define X_BARITY(id, name, c, arity, units, lower, eval, finite, diff) arity,
#define X_BUNITS(id, name, c, arity, units, lower, eval, finite, diff) units,
#define X_BFINITE(id, name, c, arity, units, lower, eval, finite, diff) finite,
const char *const builtin_names[] = {LMDL_BUILTINS(X_BNAME)};
const char *const builtin_c_names[] = {LMDL_BUILTINS(X_BCNAME)};
const int builtin_arity[] = {LMDL_BUILTINS(X_BARITY)};
const BuiltinUnits builtin_units[] = {LMDL_BUILTINS(X_BUNITS)};
const bool builtin_finite[] = {LMDL_BUILTINS(X_BFINITE)};

#define X_AFNAME(id, name, lo, hi, what, units, sizes) name,
#define X_AFLO(id, name, lo, hi, what, units, sizes) lo,
#define X_AFHI(id, name, lo, hi, what, units, sizes) hi,
#define X_AFUNITS(id, name, lo, hi, what, units, sizes) units,
#define X_AFSIZES(id, name, lo, hi, what, units, sizes) sizes,
const char *const array_func_names[] = {LMDL_ARRAY_FUNCS(X_AFNAME)};
const int array_func_min_args[] = {LMDL_ARRAY_FUNCS(X_AFLO)};
const int array_func_max_args[] = {LMDL_ARRAY_FUNCS(X_AFHI)};
const ArrayUnits array_func_units[] = {LMDL_ARRAY_FUNCS(X_AFUNITS)};
const int array_func_sizes[] = {LMDL_ARRAY_FUNCS(X_AFSIZES)};

int array_func_find(const char *name)
{
    for (int k = 0; k < AF_COUNT; k++)
        if (strcmp(array_func_names[k], name) == 0)
            return k;
    return -1;
}

bool builtin_constant(const char *name, double *v)
{
    static const struct { const char *name; double value; } table[] = {
#define X_CONST(n, val) {n, val},
        LMDL_CONSTANTS(X_CONST)
#undef X_CONST
    };
    for (size_t k = 0; k < sizeof table / sizeof table[0]; k++) {
        if (!strcmp(table[k].name, name)) {
            if (v)
                *v = table[k].value;
            return true;
        }
    }
    return false;
}

int builtin_find(const char *name)
{
    for (int k = 0; k < FN_NAMED; k++)
        if (strcmp(builtin_names[k], name) == 0)
            return k;
    return -1;
}

#define X_SFNAME(id, name, lo, hi) name,
#define X_SFLO(id, name, lo, hi) lo,
#define X_SFHI(id, name, lo, hi) hi,
const char *const special_names[] = {LMDL_SPECIAL_FORMS(X_SFNAME)};
const int special_min_args[] = {LMDL_SPECIAL_FORMS(X_SFLO)};
const int special_max_args[] = {LMDL_SPECIAL_FORMS(X_SFHI)};

int special_find(const char *name)
{
    for (int k = 0; k < SF_COUNT; k++)
        if (strcmp(special_names[k], name) == 0)
            return k;
    return -1;
}

