/*
 * codegen_internal.h - what codegen.c, codegen_tables.c and
 * codegen_linear.c share: the printer's state and the slot queries on
 * the plan.
 */
#ifndef LMDL_CODEGEN_INTERNAL_H
#define LMDL_CODEGEN_INTERNAL_H

#include "codegen.h"
#include "cprint.h"

typedef struct Cg {
    CPrint p;               /* the C text */
    int nparam_copies;      /* entries of param_copies */
    int npivot_slots;       /* entries of pivot_slots */
    int ncolumn_parts;      /* entries of column_parts (cg_columns) */
    int nassert_reads;      /* entries of assert_reads (cg_asserts) */
    int *dx_first;          /* per StVar: the first state whose derivative
                               it is, or -1 (eval writes dx[] where the
                               solver's statements compute it) */
    int *dx_next;           /* per state: the next state of the same
                               derivative, or -1 */
    const Plan *pl;         /* what to print */
    Dae *d;                 /* pl->d */
    Structure *s;           /* pl->s */
} Cg;

static inline StVar *cg_stv(Cg *cg, int i)
{
    return cg->s->vars.items[i];
}

/* Where a value that is a single slot lives, for the runtime's tables
   (rt_model.h, RT_FROM_*); *index gets the slot (codegen_tables.c). */
int cg_value_slot(Cg *cg, const DaeExpr *e, int *index);

/* The tables, in the order cg_generate prints them (codegen_tables.c). */
void cg_slots(Cg *cg);
void cg_columns(Cg *cg);
void cg_targets(Cg *cg);
void cg_relations(Cg *cg);
void cg_asserts(Cg *cg);
void cg_blocks(Cg *cg);
void cg_sparsity(Cg *cg);
void cg_rel_states(Cg *cg);
/* The linearization Jacobians, when the plan has them (codegen_linear.c). */
void cg_linear(Cg *cg);

#endif
