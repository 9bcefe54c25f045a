/*
 * driver.h - the pipeline, written out once.
 *
 *   parse -> resolve -> elaborate -> units -> flatten -> simplify
 *         -> modes -> structure -> plan -> codegen
 *
 * driver_run() calls the passes in that order, stops after the stage the
 * command needs, and stops early when a pass reported errors.
 */
#ifndef LMDL_DRIVER_H
#define LMDL_DRIVER_H

#include <stdbool.h>
#include <stdio.h>

/* The passes, in order: a command runs them up to its stage. */
typedef enum DriverStage {
    STAGE_NONE,         /* no pass (doc, plot, sweep, lsp are tools: tools/) */
    STAGE_PARSE,
    STAGE_RESOLVE,
    STAGE_ELABORATE,
    STAGE_UNITS,
    STAGE_FLATTEN,
    STAGE_SIMPLIFY,
    STAGE_STRUCTURE,
    STAGE_PLAN,
    STAGE_CODEGEN,
} DriverStage;

/* What a command does with the last pass's output. */
typedef enum DriverOutput {
    OUT_DOC,            /* the definition's documentation (tools/doc.c) */
    OUT_SUMMARY,        /* the check summary and index report on stdout */
    OUT_DAE,            /* the flat system on stdout */
    OUT_C_FILE,         /* the generated C, written to -o */
    OUT_SIMULATOR,      /* the generated C compiled into the simulator -o */
    OUT_RUN,            /* the simulator built (cached) and run */
    OUT_PLAN_TOOL,      /* the plan and C handed to DriverOptions.plan_tool
                           (lmdlc fmu: tools/fmu.c) */
    OUT_TOOL,           /* none: the tool's entry point takes the command
                           line (lmdlc plot, lmdlc sweep, lmdlc lsp) */
} DriverOutput;

/* Options a command accepts besides --top, -I, --time-passes, --help. */
enum {
    DOPT_DUMP = 1,      /* --dump-ast, --dump-blocks */
    DOPT_RAW = 2,       /* --raw */
    DOPT_MARKDOWN = 4,  /* --markdown */
    DOPT_OUTPUT = 8,    /* -o FILE, required */
    DOPT_SIM = 16,      /* everything after the model file goes to the simulator */
};

/* The commands: X(command, name, stop-after stage, output, options, tool
   entry point).  The entry point, int NAME(int argc, char **argv) with
   argv[0] the command's name, is a tool's that reads its own command line
   (OUT_TOOL), else NULL; only main.c, which links the tools, expands that
   column. */
#define DRIVER_COMMANDS(X)                                                 \
    X(CMD_CHECK, "check", STAGE_PLAN, OUT_SUMMARY, DOPT_DUMP, NULL)       \
    X(CMD_DOC, "doc", STAGE_NONE, OUT_DOC, DOPT_MARKDOWN, NULL)           \
    X(CMD_FLATTEN, "flatten", STAGE_SIMPLIFY, OUT_DAE, DOPT_RAW, NULL)    \
    X(CMD_EMIT_C, "emit-c", STAGE_CODEGEN, OUT_C_FILE, DOPT_OUTPUT, NULL) \
    X(CMD_BUILD, "build", STAGE_CODEGEN, OUT_SIMULATOR, DOPT_OUTPUT, NULL) \
    X(CMD_RUN, "run", STAGE_CODEGEN, OUT_RUN, DOPT_SIM, NULL)            \
    X(CMD_LINEARIZE, "linearize", STAGE_CODEGEN, OUT_RUN, DOPT_SIM, NULL) \
    X(CMD_FMU, "fmu", STAGE_CODEGEN, OUT_PLAN_TOOL, DOPT_OUTPUT, NULL)    \
    X(CMD_PLOT, "plot", STAGE_NONE, OUT_TOOL, 0, plot_main)               \
    X(CMD_SWEEP, "sweep", STAGE_NONE, OUT_TOOL, 0, sweep_main)            \
    X(CMD_LSP, "lsp", STAGE_NONE, OUT_TOOL, 0, lsp_main)

#define X_CMDENUM(c, name, stage, out, opts, tool) c,
typedef enum DriverCommand { DRIVER_COMMANDS(X_CMDENUM) CMD_COUNT } DriverCommand;

typedef struct DriverCommandInfo {
    const char *name;       /* as typed: "emit-c" */
    DriverStage stop;       /* the last pass it needs */
    DriverOutput output;    /* what it does with the result */
    int options;            /* DOPT_* it accepts */
} DriverCommandInfo;

extern const DriverCommandInfo driver_commands[CMD_COUNT];
/* The command called name, or -1. */
int driver_find_command(const char *name);

struct Plan;
struct DriverOptions;
/* A tool that takes the plan and the generated C (OUT_PLAN_TOOL);
   returns the exit status. */
typedef int (*DriverPlanTool)(const struct Plan *plan, const char *c_text, const char *model,
                              const struct DriverOptions *o);

typedef struct DriverOptions {
    DriverCommand command;          /* what to do */
    const char *file;               /* model file (check) or name (doc) */
    const char *top;                /* --top, or NULL for the last component */
    const char **include_dirs;      /* -I DIR, in order (the caller's array) */
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
    DriverPlanTool plan_tool;       /* OUT_PLAN_TOOL commands (set by main) */
    /* for the fuzzer (tests/fuzz/fuzz_compile.c): */
    bool loaded;                    /* compile source `source`, not file */
    int source;                     /* an already loaded source id */
    char **c_text;                  /* if set: receives the generated C
                                       (malloc'ed) instead of the output */
} DriverOptions;

/* Runs a command; returns the process exit status (0, or 2 for errors in
   the model). */
int driver_run(const DriverOptions *o);

/* The standard library directory (paths.h: $LMDL_STDLIB, the installed
   tree, or the source tree). */
const char *driver_stdlib_dir(void);

#endif
