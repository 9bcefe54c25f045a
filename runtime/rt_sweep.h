/*
 * rt_sweep.h - parameter sweeps (--sweep SETS.csv, docs/sweeps.md): the
 * options rt_main.c parses for them, the one call that runs a sweep in
 * place of the single run, and the CSV reader for the sets file.
 */
#ifndef LMDL_RT_SWEEP_H
#define LMDL_RT_SWEEP_H

#include "rt_internal.h"

/* The sweep options as given; rt_sweep_run checks them against the model
   and the sets file. */
typedef struct RtSweepOptions {
    const char *sets_path;      /* --sweep FILE; NULL for a single run */
    const char *summary_path;   /* --sweep-summary FILE; NULL: stdout */
    long row;                   /* --sweep-row K (1-based); 0: every row */
    int collect;                /* --sweep-collect: merge rows' summaries */
    int check;                  /* --sweep-check: validate, print the count */
    int given;                  /* any of these options was given */
} RtSweepOptions;

/* --sweep-collect and --sweep-check: returns 1 if arg was one of them. */
int rt_sweep_flag(RtSweepOptions *o, const char *arg);

/* A sweep option with a value (--sweep, --sweep-summary, --sweep-row).
   0, or -1 after a message. */
int rt_sweep_option(RtSweepOptions *o, const char *prog, const char *opt,
                    const char *val);

/* rt_sweep_run returns this only in a child process that must now run one
   row as an ordinary run: s has the row's parameters applied and its
   results and event-log paths set. */
enum { RT_SWEEP_CHILD = -1 };

/* Runs the sweep that o describes on the validated simulation s (options,
   --param and --vars applied, no file open).  Returns the exit status of
   the whole sweep (RT_EXIT_OK, RT_EXIT_USAGE, RT_EXIT_SIM), or
   RT_SWEEP_CHILD in a row's child.  vars is --vars as given, or NULL. */
int rt_sweep_run(RtSim *s, const RtSweepOptions *o, const char *vars);

/* rt_sets.c: a CSV file (RFC 4180) as records of fields. */
typedef struct RtSetsRecord {
    char **fields;              /* the fields, unquoted, NUL-terminated */
    int n_fields;               /* their count (>= 1) */
    long line;                  /* the line the record starts on */
} RtSetsRecord;

typedef struct RtSets {
    RtSetsRecord *records;      /* every record, the header first */
    long n_records;             /* their count; 0 for an empty file */
} RtSets;

/* Reads path; 0, or -1 with a message in err and its line in *errline
   (0 when it is about the whole file). */
int rt_sets_read(const char *path, RtSets *sets, char *err, size_t errlen,
                 long *errline);
void rt_sets_free(RtSets *sets);

#endif
