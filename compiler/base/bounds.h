/*
 * bounds.h - the limits of what one model may make the compiler do, one
 * row each: name, value, what it bounds.  Each is far beyond a real model
 * and far below what would exhaust the machine: a model past one gets a
 * located error that names the limit (docs/language.md, "Limits"), never
 * an unbounded elaboration, an exponential inlining or a gigabyte of C.
 */
#ifndef LMDL_BOUNDS_H
#define LMDL_BOUNDS_H

#define LMDL_LIMITS(X)                                                                   \
    X(LIMIT_LOOP_ITERATIONS, 20000000, "iterations of for-loops, in all the walks of "  \
      "one model's tree")                                                                \
    X(LIMIT_ARRAY_ELEMENTS, 1000000, "elements of one vector or matrix")                 \
    X(LIMIT_INLINE_DEPTH, 64, "user function calls inlined within one another")          \
    X(LIMIT_INLINED_CALLS, 10000000, "user function calls inlined, in all")              \
    X(LIMIT_EQUATIONS, 20000000, "equations of the flat system")                         \
    X(LIMIT_C_BYTES, 1073741824, "bytes of generated C")

#define X_LIMIT_ENUM(name, value, what) name = value,
enum { LMDL_LIMITS(X_LIMIT_ENUM) };
#undef X_LIMIT_ENUM

#endif
