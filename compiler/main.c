/*
 * main.c - the lmdlc command line: parses arguments, runs the driver and
 * maps the outcome to the exit codes of docs/tools.md (0 ok, 1 bad command
 * line, 2 model error).  Which options a command takes, and what it does,
 * is the command table's (driver.h); `doc`, `fmu`, `plot`, `sweep` and
 * `lsp` are tools (tools/): the table names the entry point of those that read
 * their own command line.
 */
#include "diag.h"
#include "doc.h"
#include "driver.h"
#include "fmu.h"
#include "lsp.h"
#include "outfile.h"
#include "paths.h"
#include "plot.h"
#include "rt_number.h"
#include "rt_usage.h"
#include "source.h"
#include "sweep.h"
#include "sym.h"
#include "tool.h"

#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
    "usage: lmdlc COMMAND [ARGS]\n"
    "\n"
    "commands:\n"
    "  check FILE [--top NAME] [-I DIR]...   parse, resolve and check a model;\n"
    "                                         print a summary\n"
    "  flatten FILE [--top NAME] [-I DIR]... [--raw]\n"
    "                                         print the flattened equations\n"
    "                                         (--raw: before simplification)\n"
    "  emit-c FILE [--top NAME] [-I DIR]... -o OUT.c\n"
    "                                         write the generated C\n"
    "  build FILE [--top NAME] [-I DIR]... -o SIM\n"
    "                                         write and compile a simulator\n"
    "  run FILE [--top NAME] [-I DIR]... [SIMULATOR OPTIONS]\n"
    "                                         build (cached by content) and run\n"
    "  linearize FILE [--at T | --steady-state] [--inputs U,..] [--outputs Y,..]\n"
    "                [--format text|json|mat] [-o OUT] [SIMULATOR OPTIONS]\n"
    "                                         the state-space model A, B, C, D\n"
    "                                         around an operating point, with its\n"
    "                                         eigenvalues (docs/linearize.md)\n"
    "  fmu FILE [--top NAME] [-I DIR]... -o NAME.fmu\n"
    "                                         write an FMI 2.0 FMU (Model Exchange\n"
    "                                         and Co-Simulation; docs/fmi.md)\n"
    "  doc NAME|FILE.lmdl [-I DIR]... [--markdown]\n"
    "                                         describe a component or domain, or\n"
    "                                         every definition of a file\n"
    "  plot RESULTS.csv [--vars A,B] -o OUT.png|svg|pdf\n"
    "                                         draw columns against time (gnuplot;\n"
    "                                         lmdlc plot --help)\n"
    "  sweep FILE --sets SETS.csv --engine parallel|slurm -o 'out-{row}.csv' ...\n"
    "                                         a parameter sweep (lmdlc sweep --help)\n"
    "  lsp [-I DIR]...                         a Language Server Protocol server on\n"
    "                                         stdin and stdout, for editors\n"
    "                                         (lmdlc lsp --help)\n"
    "\n"
    "options:\n"
    "  --top NAME      the top-level component (default: the file's last)\n"
    "  -I DIR          add DIR to the search path for definitions\n"
    "  --dump-ast      check: print the syntax tree\n"
    "  --dump-blocks   check: print the plan: each block in evaluation order with\n"
    "                  its method, equations and pivot checks; the relations\n"
    "                  and their guards; the Jacobian's sparsity\n"
    "  --time-passes   print the time of each compiler pass on stderr\n"
    "  --diagnostics-format=json|text   errors as JSON Lines on stderr, or text\n"
    "  --help          show this help\n"
    "  --version       show the version\n"
    "\n"
    "Names are looked up in the same file, then NAME.lmdl in the model's\n"
    "directory, then each -I DIR, then each directory of $LMDL_PATH, then\n"
    "the standard library ($LMDL_STDLIB or the built-in one).\n";

/* The entry points of the tools that read their own command line, by
   command (the last column of DRIVER_COMMANDS). */
#define X_CMDTOOL(c, name, stage, out, opts, tool) [c] = tool,
static int (*const tool_mains[CMD_COUNT])(int argc, char **argv) = {
    DRIVER_COMMANDS(X_CMDTOOL)};

/* Reads argv[2..] into o.  Returns -1 when the command should run, or
   the exit status to return at once. */
static int parse_args(int argc, char **argv, DriverOptions *o)
{
    const DriverCommandInfo *cmd = &driver_commands[o->command];
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--top") == 0) {
            if (++i >= argc)
                return tool_usage_error("%s needs a component name", a);
            o->top = argv[i];
        } else if (strcmp(a, "-I") == 0) {
            if (++i >= argc)
                return tool_usage_error("%s needs a directory", a);
            o->include_dirs[o->ninclude++] = argv[i];
        } else if (strncmp(a, "-I", 2) == 0) {
            o->include_dirs[o->ninclude++] = a + 2;
        } else if (strcmp(a, "--dump-ast") == 0 && (cmd->options & DOPT_DUMP)) {
            o->dump_ast = true;
        } else if (strcmp(a, "--dump-blocks") == 0 && (cmd->options & DOPT_DUMP)) {
            o->dump_blocks = true;
        } else if (strcmp(a, "--raw") == 0 && (cmd->options & DOPT_RAW)) {
            o->raw = true;
        } else if (strcmp(a, "--markdown") == 0 && (cmd->options & DOPT_MARKDOWN)) {
            o->markdown = true;
        } else if (strcmp(a, "--time-passes") == 0) {
            o->time_passes = true;
        } else if (strcmp(a, "-o") == 0 && (cmd->options & DOPT_OUTPUT)) {
            if (++i >= argc)
                return tool_usage_error("%s needs a file name", a);
            o->output = argv[i];
        } else if ((cmd->options & DOPT_SIM) && o->file && a[0] == '-') {
            /* everything else after the model file goes to the simulator */
            o->sim_argv[o->sim_argc++] = argv[i];
        } else if (strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            /* run passes the rest on to the simulator: list its options too
               (the simulator's own text, runtime/rt_usage.h) */
            if (cmd->options & DOPT_SIM)
                fputs("\nsimulator options (after FILE, passed on to the simulator;\n"
                      "'lmdlc run FILE --help' lists the model's parameters as well):\n"
                      RT_USAGE_OPTIONS "\nrun exits 2 for an error in the model, "
                      "else with the simulator's status.\n" RT_USAGE_EXIT, stdout);
            return 0;
        } else if (a[0] == '-' && a[1]) {
            return tool_usage_error("unknown option '%s'", a);
        } else if (!o->file) {
            o->file = a;
        } else if (cmd->options & DOPT_SIM) {
            o->sim_argv[o->sim_argc++] = argv[i];
        } else {
            return tool_usage_error("unexpected argument '%s'", a);
        }
    }
    if (!o->file)
        return tool_usage_error("%s", cmd->output == OUT_DOC ? "doc needs a component name"
                                                           : "no model file given");
    if ((cmd->options & DOPT_OUTPUT) && !o->output)
        return tool_usage_error("%s needs -o FILE", cmd->name);
    return -1;
}

/* lmdlc linearize's own options become the simulator's: --at T is
   --stop-time T (0 by default: the initial point), --inputs and
   --outputs are --linearize-inputs and --linearize-outputs, --format F
   is --linearize F (text by default, mat for -o FILE.mat).  The others (--steady-state,
   --param, --solver, -o, ...) pass as they are. */
static int linearize_args(DriverOptions *o)
{
    static const struct { const char *ours, *sim; } map[] = {
        {"--at", "--stop-time"}, {"--inputs", "--linearize-inputs"},
        {"--outputs", "--linearize-outputs"}, {"--format", "--linearize"},
    };
    int n = o->sim_argc;
    char **in = o->sim_argv;
    char **out = calloc((size_t)n * 2 + 6, sizeof *out);
    if (!out)
        abort();
    int k = 0;
    out[k++] = in[0];
    out[k++] = "--stop-time";
    out[k++] = "0";
    out[k++] = "--linearize";
    out[k++] = "text";
    for (int i = 1; i < n; i++) {
        const char *a = in[i];
        size_t m = sizeof map / sizeof map[0], j;
        for (j = 0; j < m; j++) {
            size_t len = strlen(map[j].ours);
            if (!strncmp(a, map[j].ours, len) && (a[len] == 0 || a[len] == '='))
                break;
        }
        if (j == m && !strncmp(a, "--stop-time", 11) && (a[11] == 0 || a[11] == '=')) {
            free(out);
            return tool_usage_error("%s", "linearize takes the time of its point as --at T, "
                                    "not --stop-time");
        }
        if (j == m) {
            out[k++] = in[i];
            continue;
        }
        size_t len = strlen(map[j].ours);
        out[k++] = (char *)map[j].sim;
        if (a[len] == '=')
            out[k++] = (char *)a + len + 1;
        else if (i + 1 < n)
            out[k++] = in[++i];
        else {
            free(out);
            return tool_usage_error("%s needs a value", map[j].ours);
        }
        const char *v = out[k - 1];
        double at;
        if (!strcmp(map[j].ours, "--at")
            && (rt_number_parse(v, 1, &at, NULL) != RT_NUM_OK || !(at >= 0) || !isfinite(at))) {
            free(out);
            return tool_usage_error("--at is the time of the operating point in s, a number "
                                    ">= 0, not '%s'", v);
        }
        if (!strcmp(map[j].ours, "--format") && strcmp(v, "text") && strcmp(v, "json")
            && strcmp(v, "mat")) {
            free(out);
            return tool_usage_error("--format is text, json or mat, not '%s'", v);
        }
    }
    /* no --format and -o FILE.mat: MAT, as run writes FILE.mat */
    bool format = false;
    const char *file = NULL, *fmt = out[4];
    for (int i = 5; i < k; i++) {
        if (!strcmp(out[i], "--linearize") && i + 1 < k)
            format = true, fmt = out[i + 1];
        else if (!strcmp(out[i], "-o") && i + 1 < k)
            file = out[i + 1];
        else if (!strncmp(out[i], "-o", 2))
            file = out[i] + 2 + (out[i][2] == '=');
    }
    size_t fl = file ? strlen(file) : 0;
    if (!format && fl > 4 && !strcmp(file + fl - 4, ".mat"))
        out[4] = "mat", fmt = "mat";
    if (!strcmp(fmt, "mat") && (!file || !strcmp(file, "-"))) {
        free(out);
        return tool_usage_error("%s", "--format mat writes a binary MAT file: name it with "
                                "-o FILE.mat");
    }
    memcpy(in, out, sizeof *out * (size_t)k);
    o->sim_argc = k;
    free(out);
    return -1;
}

/* ---- check DIR: a package folder, file by file --------------------------------- */

static bool is_dir(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int cmp_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .ssc and .lmdl files below dir (at most 16 folders deep), sorted. */
static void collect_sources(const char *dir, int depth, char ***files, int *n, int *cap)
{
    DIR *d = depth <= 16 ? opendir(dir) : NULL;
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(len);
        if (!path)
            abort();
        snprintf(path, len, "%s/%s", dir, e->d_name);
        struct stat st;
        size_t nl = strlen(e->d_name);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            collect_sources(path, depth + 1, files, n, cap);
            free(path);
        } else if ((nl > 4 && !strcmp(e->d_name + nl - 4, ".ssc"))
                   || (nl > 5 && !strcmp(e->d_name + nl - 5, ".lmdl"))) {
            if (*n == *cap) {
                *cap = *cap ? 2 * *cap : 64;
                *files = realloc(*files, sizeof **files * (size_t)*cap);
                if (!*files)
                    abort();
            }
            (*files)[(*n)++] = path;
        } else {
            free(path);
        }
    }
    closedir(d);
}

/* The folder above a file's outermost +package folder (its root), or
   the file's own folder. */
static char *package_root(const char *file)
{
    char *dir = strdup(file);
    if (!dir)
        abort();
    char *slash = strrchr(dir, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == dir)
        dir[1] = 0;
    else
        *slash = 0;
    char *root = paths_package_root(dir);
    if (!root)
        return dir;
    free(dir);
    return root;
}

/* lmdlc check DIR: every definition file below DIR checked on its own (a
   library component as such, a closed model as a model), its own
   diagnostics after its line; one line per file on stdout and a
   summary.  Exit 2 when a file has errors. */
static int check_dir(DriverOptions *o)
{
    char **files = NULL;
    int n = 0, cap = 0, bad = 0;
    collect_sources(o->file, 0, &files, &n, &cap);
    if (n)
        qsort(files, (size_t)n, sizeof *files, cmp_path);
    FILE *report = o->out;
    FILE *quiet = outfile_null();   /* the files' own summaries */
    o->out = quiet ? quiet : report;
    int ninc = o->ninclude;
    for (int i = 0; i < n; i++) {
        char *root = package_root(files[i]);
        o->include_dirs[o->ninclude++] = root;
        o->file = files[i];
        diag_reset();
        int status = driver_run(o);
        diag_flush();
        int errors = diag_error_count();
        if (status != 0 || errors)
            bad++;
        if (errors)
            fprintf(report, "%s: %d error%s\n", files[i], errors, errors == 1 ? "" : "s");
        else
            fprintf(report, "%s: %s\n", files[i], status == 0 ? "ok" : "failed");
        fflush(report);
        o->ninclude = ninc;
        free(root);
        free(files[i]);
    }
    if (quiet)
        fclose(quiet);
    o->out = report;
    fprintf(report, "%d file%s checked: %d ok, %d with errors\n", n, n == 1 ? "" : "s",
            n - bad, bad);
    free(files);
    return bad ? 2 : 0;
}

static int lmdlc_main(int argc, char **argv)
{
    paths_set_argv0(argv[0]);
    const char *format = diag_take_format_option(&argc, argv);
    if (format)
        return tool_usage_error("--diagnostics-format is json or text, not '%s'", format);
    /* the simulators that run and sweep start follow lmdlc's format
       (runtime/rt_report.c) */
    setenv(DIAG_FORMAT_ENV, diag_format() == DIAG_FORMAT_JSON ? "json" : "text", 1);
    if (argc < 2)
        return tool_usage_error("%s", "no command given");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0
        || strcmp(argv[1], "help") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("lmdlc %s\n", LMDL_VERSION);
        return 0;
    }
    int command = driver_find_command(argv[1]);
    if (command < 0)
        return tool_usage_error("unknown command '%s'", argv[1]);
    if (tool_mains[command])
        return tool_mains[command](argc - 1, argv + 1);

    DriverOptions o = {0};
    o.command = (DriverCommand)command;
    o.out = stdout;
    o.plan_tool = fmu_write;
    const char **inc = calloc((size_t)argc + 1, sizeof *inc); /* + check DIR's root */
    char **sim = calloc((size_t)argc * 2 + 6, sizeof *sim); /* + linearize_args' */
    if (!inc || !sim)
        return 1;
    o.include_dirs = inc;
    o.sim_argv = sim;
    o.sim_argv[o.sim_argc++] = "simulator";
    int status = parse_args(argc, argv, &o);
    if (status < 0 && o.command == CMD_LINEARIZE)
        status = linearize_args(&o);
    if (status < 0 && o.command == CMD_CHECK && is_dir(o.file))
        status = check_dir(&o);
    else if (status < 0)
        status = driver_commands[o.command].output == OUT_DOC ? doc_run(&o) : driver_run(&o);
    diag_flush();
    free(inc);
    free(sim);
    src_free_all();
    sym_free_all();
    return status;
}

/* ---- a deep stack ---------------------------------------------------------------- */

/* The passes walk expressions recursively, and a model may hold deep
   ones (a long chain written out by hand, a node with thousands of
   branches), so lmdlc runs on a thread whose stack is LMDLC_STACK bytes,
   reserved, not used, until a walk goes that deep: the default 8 MiB ends
   a walk at about 10^5 levels, this one at about 10^7.  The first thread
   keeps every signal blocked and waits, so that signals reach the worker,
   whose handling (build.c) is the one they always had. */
enum { LMDLC_STACK = 1 << 30 };

typedef struct Job {
    int argc;               /* the command line */
    char **argv;
    sigset_t mask;          /* the signal mask lmdlc started with */
    int status;             /* what lmdlc_main returned */
} Job;

static void *run_job(void *arg)
{
    Job *j = arg;
    pthread_sigmask(SIG_SETMASK, &j->mask, NULL);
    j->status = lmdlc_main(j->argc, j->argv);
    return NULL;
}

int main(int argc, char **argv)
{
    Job j = {argc, argv, {{0}}, 0};
    sigset_t all;
    sigfillset(&all);
    pthread_attr_t attr;
    pthread_t t;
    if (pthread_sigmask(SIG_BLOCK, &all, &j.mask) != 0)
        return lmdlc_main(argc, argv);
    if (pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, LMDLC_STACK) == 0
        && pthread_create(&t, &attr, run_job, &j) == 0) {
        pthread_attr_destroy(&attr);
        pthread_join(t, NULL);
        return j.status;
    }
    /* no room for the deep stack (a small address-space limit): the
       ordinary one */
    pthread_sigmask(SIG_SETMASK, &j.mask, NULL);
    return lmdlc_main(argc, argv);
}
