/*
 * codegen.h - pass 9: the plan (plan.h) printed as C.
 *
 * The generated file defines `const RtModel rt_model` (runtime/rt_model.h)
 * and nothing else with external linkage.  No text from the model becomes
 * C code: variables are array slots, and names, messages and source
 * locations appear only inside string literals, escaped.
 */
#ifndef LMDL_CODEGEN_H
#define LMDL_CODEGEN_H

#include "plan.h"

/* Generates the simulator source.  Returns a malloc'ed NUL-terminated
   string (the caller frees it), or NULL on an internal error. */
/* The C of the plan, or NULL when it would be larger than cg_c_limit()
   bytes. */
char *cg_generate(const Plan *p, const char *model);
/* The most bytes of C it writes (LIMIT_C_BYTES, or $LMDL_MAX_C_BYTES). */
size_t cg_c_limit(void);

/* One translation unit of a split simulator source (cunits.c): its
   text and the optimization level it is compiled at. */
typedef struct CgUnit {
    char *text;             /* NUL-terminated */
    size_t len;             /* bytes */
    int level;              /* -O level: 0 for data and the code run once
                               or per row; 1 or 2 for the code the solver
                               runs at every step */
} CgUnit;

/* Splits cg_generate's C into units (unit 0: the data and the
   descriptor), returning how many (0 if the text is not cg_generate's
   layout); free with cg_units_free. */
int cg_split(const char *c, CgUnit **units);
void cg_units_free(CgUnit *units, int n);

/* The discrete part's C (codegen_discrete.c), printed by
   cg_generate: the event variables' start values, the update function,
   the modes' state resets, the charts' table, and their lines of the
   RtModel descriptor. */
struct CPrint;
void cg_evar_start(struct CPrint *p, const Dae *d);
void cg_update(struct CPrint *p, const Dae *d);
void cg_reset(struct CPrint *p, const Plan *pl);
void cg_charts(struct CPrint *p, const Dae *d);
void cg_discrete_fields(struct CPrint *p, const Dae *d);
/* The delays' table, arguments and bounds, and their descriptor lines
   (after cg_discrete_fields). */
void cg_delays(struct CPrint *p, const Plan *pl);
void cg_delay_fields(struct CPrint *p, const Plan *pl);

#endif
