/*
 * lower.h - an AST expression, read in the context of one instance, to a
 * DAE expression (lower.c).
 *
 * Shared by elaborate (parameter values, targets, input bindings), the unit
 * check (integer exponents) and flatten (equations).
 */
#ifndef LMDL_LOWER_H
#define LMDL_LOWER_H

#include "inst.h"

#include <stdlib.h>

DaeExpr *lower_expr(Model *m, ElabInst *in, AstExpr *e);
/* e's binary operator applied to a and b (e's operands, lowered, or
   elements of them), a relation noted as a zero crossing at e. */
DaeExpr *lower_binary_node(Model *m, ElabInst *in, AstExpr *e, DaeExpr *a, DaeExpr *b);
/* A declaration's value: its expression, or for `[a, b] = f(x)` the
   output of the call it takes. */
DaeExpr *lower_decl(Model *m, ElabInst *in, AstDecl *d);
/* An intermediate's value, lowered once per instance (at: the use, for
   the error of an intermediate defined in terms of itself). */
DaeExpr *lower_intermediate(Model *m, ElabInst *owner, ElabSlot *s, SrcSpan at);
/* Lowers local definitions in order, binding each on m->locals (the
   caller saves and restores m->locals around them). */
void lower_local_defs(Model *m, ElabInst *in, PtrVec *defs);
/* The slot a dotted name ends at, following children; NULL after an
   error.  *node_member is set when the name ends at NODE.ACROSS. */
ElabSlot *lower_resolve(Model *m, ElabInst *in, AstExpr *name, ElabInst **owner,
                        SemaMember **node_member);

/* ---- arrays (lower_array.c) ----------------------------------------------

   A value with a shape: rows * cols elements, column-major (MATLAB's
   order).  Vector and matrix expressions are lowered to one of these, and
   scalarized there: a vector parameter is its element parameters, a sum
   is a sum of elements.  lower_expr takes the scalar path and calls
   lower_value only for what can be a vector. */
typedef struct LowerValue {
    int rows, cols;         /* its size */
    DaeExpr **el;           /* rows * cols elements */
} LowerValue;

/* NODE.x as node slot s reads it (connect.c): domain member nm's
   variables in the node's set, or the run-time parameters of its network,
   one per element of a vector domain variable or parameter. */
LowerValue elab_node_value(Model *m, ElabSlot *s, SemaMember *nm, SrcSpan at);
/* The value of a parameter, variable, input or output slot (of owner):
   its element or elements. */
LowerValue lower_slot_value(Model *m, ElabInst *owner, ElabSlot *s);
/* Gives input slot s the value v (a vector input: its elements). */
void lower_set_input(ElabSlot *s, LowerValue v);
/* tablelookup(...) (lower_table.c): one lookup node. */
DaeExpr *lower_table(Model *m, ElabInst *in, AstExpr *e);
/* The value of local name e (a let's or a function's argument or
   definition), if e names one. */
bool lower_local_value(Model *m, AstExpr *e, LowerValue *out);
/* The first output of a call of a user function, inlined (lower.c). */
LowerValue lower_call_value(Model *m, ElabInst *in, AstExpr *call);
/* The value of a definition: e = x, or one output of [a, b] = f(x). */
LowerValue lower_decl_value(Model *m, ElabInst *in, AstDecl *d);
LowerValue lower_value(Model *m, ElabInst *in, AstExpr *e);
/* The two sides of equation s, of one size (a vector equation is one
   equation per element); false after an error, said: a side's own, or
   sides of different sizes. */
bool lower_equation_sides(Model *m, ElabInst *in, AstStmt *s, LowerValue *l, LowerValue *r);
/* Whether name e is a let's or a function's local (it hides members). */
bool lower_is_local(Model *m, AstExpr *e);
/* arrays: intermediate s of `owner` (a vector or matrix, or one value),
   lowered once. */
LowerValue lower_intermediate_value(Model *m, ElabInst *owner, ElabSlot *s, SrcSpan at);
/* A value of rows * cols elements, to fill (lower_array.c). */
LowerValue lower_value_new(Model *m, int rows, int cols);
/* lower_matrix.c: the matrix functions of LMDL_ARRAY_FUNCS beyond sum,
   size, numel, the fills and tablelookup, with their n positional
   arguments. */
LowerValue lower_matrix_call(Model *m, ElabInst *in, AstExpr *e, int af, AstExpr **args, int n);
/* A scalar built-in called with a vector or matrix (sqrt(v), max(a, v)):
   element by element into *out, true; false for a call of scalars. */
bool lower_elementwise(Model *m, ElabInst *in, AstExpr *e, LowerValue *out);
/* Built-in k of lowered arguments a and b (NULL for one argument), as
   the table's lowering column says (lower.c). */
DaeExpr *lower_builtin(Model *m, ElabInst *in, AstExpr *e, DaeFunc k, DaeExpr *a, DaeExpr *b);
/* The one element of v, or an error at e (which is not one value). */
DaeExpr *lower_scalar_of(Model *m, LowerValue v, AstExpr *e);
/* A name whose slot s is a vector or whose last part is indexed. */
DaeExpr *lower_indexed(Model *m, ElabInst *in, AstExpr *e, ElabSlot *s);
/* Array functions called in a scalar context (numel, sum, tablelookup ...). */
DaeExpr *lower_array_call(Model *m, ElabInst *in, AstExpr *e);
/* An integer known at compile time (an index, a size): the parameters it
   reads become structural.  False after an error at e. */
bool lower_int(Model *m, ElabInst *in, AstExpr *e, const char *what, long *out);
/* The values of a for-loop's range: a:s:b counted (first, step, n), or
   another row vector of integers (vals, n; heap, lower_range_free).
   False after an error (reported when `report`). */
typedef struct LowerRange {
    long first, step;       /* a:s:b: the values first + k * step ... */
    long n;                 /* ... for k = 0 .. n - 1 */
    long *vals;             /* or these n values; NULL for a:s:b */
} LowerRange;
bool lower_range(Model *m, ElabInst *in, AstExpr *range, LowerRange *r, bool report);
static inline long lower_range_at(const LowerRange *r, long k)
{
    return r->vals ? r->vals[k] : r->first + k * r->step;
}
static inline void lower_range_free(LowerRange *r)
{
    free(r->vals);
    r->vals = NULL;
}
/* Element part->index of the array slot s (components or nodes), the
   index read in context `in`; NULL after an error. */
ElabSlot *lower_element(Model *m, ElabInst *in, ElabSlot *s, AstNamePart *part);
/* The variable a branch carries (`f`, or an element `f(i)`), or -1. */
int lower_var_index(Model *m, ElabInst *in, AstExpr *name);
/* "1-by-3 vector", "2-by-2 matrix", "scalar": for messages. */
const char *lower_size_text(char *buf, size_t len, int rows, int cols);

#endif
