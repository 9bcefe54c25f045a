/*
 * driver.h - the pipeline, written out once.
 *
 *   parse -> resolve -> elaborate -> units -> flatten -> simplify
 *         -> structure -> codegen
 *
 * driver_run() calls the passes in that order, stops after the stage the
 * command needs, and stops early when a pass reported errors.
 */
#ifndef LMDL_DRIVER_H
#define LMDL_DRIVER_H

#include <stdbool.h>
#include <stdio.h>

typedef enum DriverCommand {
    CMD_CHECK,      /* lmdlc check */
    CMD_DOC,        /* lmdlc doc */
    CMD_FLATTEN,    /* lmdlc flatten */
    CMD_EMIT_C,     /* lmdlc emit-c */
    CMD_BUILD,      /* lmdlc build */
    CMD_RUN,        /* lmdlc run */
} DriverCommand;

typedef struct DriverOptions {
    DriverCommand command;          /* what to do */
    const char *file;               /* model file (check) or name (doc) */
    const char *top;                /* --top, or NULL for the last component */
    const char **include_dirs;      /* -I DIR, in order */
    int ninclude;                   /* entries in include_dirs */
    bool dump_ast;                  /* --dump-ast: print the syntax tree */
    bool dump_blocks;               /* --dump-blocks: print the BLT blocks */
    bool raw;                       /* flatten --raw: before simplification */
    bool markdown;                  /* doc --markdown */
    bool time_passes;               /* --time-passes: per-pass times on stderr */
    const char *output;             /* -o for emit-c and build */
    int sim_argc;                   /* run: options for the simulator */
    char **sim_argv;                /* run: argv[0] is a placeholder */
    FILE *out;                      /* where reports go (stdout) */
} DriverOptions;

/* Runs a command; returns the process exit status (0, or 2 for errors in
   the model). */
int driver_run(const DriverOptions *o);

/* The standard library directory (paths.h: $LMDL_STDLIB, the installed
   tree, or the source tree). */
const char *driver_stdlib_dir(void);

#endif
