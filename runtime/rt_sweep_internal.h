/*
 * rt_sweep_internal.h - what rt_sweep.c (running the rows) and
 * rt_sweep_check.c (checking the sets file before any row runs) share.
 */
#ifndef RT_SWEEP_INTERNAL_H
#define RT_SWEEP_INTERNAL_H

#include "rt_sweep.h"

/* Labels become parts of file names, so they are kept to these. */
#define LABEL_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" \
                    "0123456789_.+-"
enum { MAX_LABEL = 64, MAX_MESSAGE = 2048 };

/* One sweep: the sets file checked against the model. */
typedef struct Sweep {
    RtSim *s;                   /* the simulation with the base parameters */
    const RtSweepOptions *o;    /* the options as given */
    const char *prog;           /* for messages */
    const char *path;           /* the sets file's name */
    RtSets sets;                /* its records; records[0] is the header */
    int first;                  /* 1 when column 1 holds row labels */
    int n_cols;                 /* fields per record */
    long n_rows;                /* records after the header */
    char **labels;              /* per row: what {row} becomes */
    int n_header;               /* summary columns */
    char **header;              /* their names */
    int status_col;             /* index of "status" in the summary */
    int n_final;                /* final values: time and the --vars */
    FILE *summary;              /* where summary lines go, or NULL */
    int in_child;               /* this process is a row's child */
} Sweep;

/* s without leading and trailing blanks, as a new string. */
char *rt_sweep_trimmed(const char *s);
/* pattern with every "{row}" replaced by label; NULL stays NULL. */
char *rt_sweep_subst_row(const char *pattern, const char *label);
/* Whether a path means standard output (none, or "-"). */
int rt_sweep_to_stdout(const char *path);
/* "SETS:LINE: " in front of a message about the sets file. */
void rt_sweep_sets_error(const Sweep *w, long line, const char *fmt, ...) RT_PRINTF(3, 4);
/* Row k's "path=value" specs for rt_params_apply (empty fields left
   out); *n gets how many.  Free with rt_sweep_free_specs. */
char **rt_sweep_row_specs(const Sweep *w, long k, int *n);
/* A sets header field "NAME [UNIT]": the name, and the unit in *unit
   ("" when none); both new strings. */
char *rt_sweep_header_name(const char *field, char **unit);
void rt_sweep_free_specs(char **specs, int n);
/* Checks the header, every row, the output paths against each other and
   the inputs, and the mode (engines' options), before any row runs:
   0, or -1 after a message. */
int rt_sweep_check(Sweep *w);

#endif
