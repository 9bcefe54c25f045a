/*
 * st.h - the structural analysis's working state, shared by the files of
 * the structure pass (structure.c, dummy.c, structure_report.c).  Not
 * used outside the pass: its output is structure.h.
 */
#ifndef LMDL_ST_H
#define LMDL_ST_H

#include "match.h"
#include "structure.h"

typedef struct St {
    Structure *s;           /* the result being built */
    Dae *d;                 /* the simplified DAE */
    int **by_order;         /* per DaeVar: StVar index of each order */
    Arena orders;           /* by_order's arrays, freed at once */
    int *norders;           /* per DaeVar: orders present */
    int *caporders;         /* per DaeVar: capacity of by_order[v] */
    uint32_t *seen;         /* per DaeExpr id: visit stamp */
    size_t seencap;         /* entries in seen */
    uint32_t stamp;         /* the current walk's stamp */
} St;

static inline StVar *st_var_at(St *t, int i)
{
    return t->s->vars.items[i];
}

static inline StEq *st_eq_at(St *t, int i)
{
    return t->s->eqs.items[i];
}

/* structure.c: the graph. */
/* The StVar of (v, k), creating it and its lower orders if needed. */
int st_node_of(St *t, int v, int k);
/* Adds an equation with residual res (a derivative of level `level` of
   DaeEq `base`) and its adjacency; returns its index. */
int st_add_eq(St *t, DaeExpr *res, int base, int level);
/* Callbacks for the matcher (match.h). */
int st_base_nadj(void *ctx, int e);         /* every variable an equation has */
int st_base_adj(void *ctx, int e, int k);   /* as a DaeVar index (orders ignored) */
int st_node_adj(void *ctx, int e, int k);   /* as a StVar index */
bool st_always(void *ctx, int v);           /* any variable may be assigned */
bool st_highest(void *ctx, int v);          /* only highest derivatives */
bool st_unknown(void *ctx, int v);          /* everything but the states */

/* dummy.c: index reduction. */
/* Pantelides: differentiates equations until each is matched to a highest
   derivative.  false after an error. */
bool dummy_pantelides(St *t, Matcher *m);
/* Mattsson-Soderlind: chooses the dummy derivatives.  false after an
   error. */
bool dummy_derivatives(St *t);

/* structure_report.c: messages. */
/* Reports a structurally singular system with its DM parts. */
void st_report_singular(St *t, Matcher *m);

#endif
