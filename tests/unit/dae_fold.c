/*
 * dae_fold.c - the DAG's constructors never fold away a value that is not
 * a finite number (dae.h), and dae_nonfinite_part finds what is left.
 *
 * 0 * e and e - e become 0 only when e is finite: a constant, a parameter
 * expression finite at the parameters' defaults, or anything that reads a
 * variable (assumed finite); 0 / e only when e is a constant or parameter
 * expression, finite and nonzero at the defaults.  Derivatives carry no
 * 0 * e terms.  A deeply shared parameter DAG (2^60 paths) is evaluated
 * once per node, so ctest's timeout turns a regression into a failure.
 */
#include "dae.h"
#include "unit.h"

#include <math.h>

enum { DEPTH = 60 };

int main(void)
{
    Arena arena = {0};
    DaeExprTable t = {0};
    dae_table_init(&t, &arena);
    dae_table_param_value(&t, 0, 2);   /* p = 2 */
    dae_table_param_value(&t, 1, 0);   /* q = 0 */
    DaeExpr *zero = dae_const(&t, 0), *one = dae_const(&t, 1);
    DaeExpr *x = dae_var(&t, 0, 0), *y = dae_var(&t, 1, 0);
    DaeExpr *p = dae_param(&t, 0), *q = dae_param(&t, 1);

    /* finite by assumption or by value: 0 */
    CHECK(dae_is_const(dae_mul(&t, zero, x), 0));
    CHECK(dae_is_const(dae_mul(&t, x, zero), 0));
    CHECK(dae_is_const(dae_mul(&t, zero, p), 0));
    CHECK(dae_is_const(dae_mul(&t, zero, dae_div(&t, one, p)), 0));
    CHECK(dae_is_const(dae_div(&t, zero, p), 0));
    CHECK(dae_is_const(dae_div(&t, zero, dae_const(&t, 3)), 0));
    CHECK(dae_is_const(dae_sub(&t, x, x), 0));
    /* not finite, or possibly zero: kept */
    DaeExpr *log0 = dae_func(&t, FN_LOG, zero, NULL);
    CHECK(log0->kind == DX_FUNC);
    CHECK(dae_mul(&t, zero, log0)->kind == DX_MUL);
    CHECK(dae_sub(&t, log0, log0)->kind == DX_SUB);
    DaeExpr *zz = dae_div(&t, zero, zero);
    CHECK(zz->kind == DX_DIV);
    CHECK(dae_div(&t, zero, q)->kind == DX_DIV);
    CHECK(dae_div(&t, zero, x)->kind == DX_DIV);
    DaeExpr *inv_q = dae_div(&t, one, q);
    CHECK(dae_mul(&t, zero, inv_q)->kind == DX_MUL);

    /* derivatives drop zero terms whatever multiplies them */
    PtrMap memo = {0};
    CHECK(dae_is_const(dae_diff_var(&t, dae_mul(&t, inv_q, y), 0, 0, &memo), 0));
    ptrmap_free(&memo);
    memo = (PtrMap){0};
    CHECK(dae_diff_var(&t, dae_mul(&t, x, inv_q), 0, 0, &memo) == inv_q);
    ptrmap_free(&memo);
    memo = (PtrMap){0};
    DaeExpr *dt = dae_diff_time(&t, dae_mul(&t, log0, x), &memo);
    ptrmap_free(&memo);
    CHECK(dt == dae_mul(&t, log0, dae_var(&t, 0, 1)));

    /* what is left is found, innermost first */
    CHECK(dae_nonfinite_part(&t, dae_add(&t, y, zz)) == zz);
    CHECK(dae_nonfinite_part(&t, dae_add(&t, y, dae_mul(&t, zero, log0))) == log0);
    CHECK(dae_nonfinite_part(&t, dae_add(&t, y, inv_q)) == inv_q);
    CHECK(dae_nonfinite_part(&t, dae_add(&t, y, p)) == NULL);
    /* operands of relations are evaluated; untaken branches are not */
    CHECK(dae_nonfinite_part(&t, dae_binary(&t, DX_GT, x, inv_q)) == inv_q);
    /* ... but a bound that is an infinite constant is a finite answer */
    CHECK(dae_nonfinite_part(&t, dae_binary(&t, DX_LT, x, dae_const(&t, INFINITY))) == NULL);
    CHECK(dae_nonfinite_part(&t, dae_binary(&t, DX_LT, x, dae_neg(&t, dae_const(&t, INFINITY)))) == NULL);
    DaeExpr *gate = dae_binary(&t, DX_GT, x, zero);
    CHECK(dae_nonfinite_part(&t, dae_add(&t, y, dae_if(&t, gate, inv_q, zero))) == NULL);
    DaeExpr *pgt1 = dae_binary(&t, DX_GT, p, one);   /* true at p = 2 */
    CHECK(dae_nonfinite_part(&t, dae_add(&t, y, dae_if(&t, pgt1, x, inv_q))) == NULL);
    CHECK(dae_nonfinite_part(&t, dae_add(&t, y, dae_if(&t, pgt1, inv_q, x))) == inv_q);

    /* a shared parameter DAG: e = sin(e + e), 2^60 paths */
    DaeExpr *e = p;
    for (int k = 0; k < DEPTH; k++)
        e = dae_func(&t, FN_SIN, dae_add(&t, e, e), NULL);
    CHECK(dae_is_const(dae_mul(&t, zero, e), 0));
    CHECK(dae_nonfinite_part(&t, dae_add(&t, x, e)) == NULL);
    CHECK(isfinite(dae_eval_params(p, t.pvalue)));

    dae_table_free(&t);
    arena_free(&arena);
    return unit_failures();
}
