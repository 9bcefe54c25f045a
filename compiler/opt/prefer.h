/*
 * prefer.h - which variable should stay a state (prefer.c).
 *
 * One ranking decides both choices that depend on it: which of two
 * aliases survives simplification, and which highest derivatives index
 * reduction keeps as states.  The facts it ranks on are marked here too,
 * by the simplify pass: a variable written under der() is
 * "differentiated", and under der() in a component's own equations
 * (a mass's v, an inertia's w) also "inertial", like a variable whose
 * derivative is an inertial one (the mass's position, the inertia's
 * angle).
 */
#ifndef LMDL_PREFER_H
#define LMDL_PREFER_H

#include "dae.h"

/* How much v should stay a state; higher is kept.  In order of weight: a
   mass's or inertia's variable, the stronger target, written under
   der(), a component's own variable rather than a node's.  The first two
   are the strong criteria: rank / PREFER_STRONG compares only them. */
int prefer_rank(const DaeVar *v);
enum { PREFER_STRONG = 4 };

/* Marks differentiated and inertial variables from der() in the
   equations (before any is eliminated). */
void prefer_mark(Dae *d);
/* gone becomes an alias of kept: kept speaks for both. */
void prefer_alias(DaeVar *kept, const DaeVar *gone);
/* Marks the variables whose derivative is an inertial one (der(x) == v of
   a node whose v is a mass's velocity): positions of masses, angles of
   inertias.  On the simplified equations, where aliases are resolved. */
void prefer_propagate(Dae *d);

#endif
