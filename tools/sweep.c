/*
 * sweep.c - `lmdlc sweep`: a parameter sweep handed to an engine that
 * already knows how to spread work, GNU parallel or Slurm (docs/sweeps.md).
 *
 * The simulator does the sweep's real work (runtime/rt_sweep.c): it runs
 * row K of a sets file with --sweep-row K, leaving the row's summary line
 * next to its results, and merges those lines with --sweep-collect.  This
 * command only builds the simulator, has it check the sets file and the
 * options (--sweep-check, which also counts the rows), and then writes
 * the engine's job:
 *
 *   parallel  the GNU parallel command line, printed, or run with --run
 *             (posix_spawnp, an argument vector, then the collect step);
 *   slurm     a job-array script whose task K runs row K.
 *
 * No path or option the user gave may be read by a shell as anything but
 * itself.  GNU parallel joins its command words with spaces and hands the
 * result to a shell, and expands replacement strings ({}, {.}, {=perl=})
 * anywhere in them, so the command given to it is `exec {1} {2} ... {M}`,
 * and every word of the simulator's command line is a separate one-value
 * input source (`::: WORD`): parallel shell-quotes input values when it
 * substitutes them, and never expands anything inside them.  The literal
 * `exec` matters: when the command's first word holds a replacement
 * string, parallel takes the input to be a whole command line and stops
 * quoting it.  --null keeps a newline inside a value; a word that
 * parallel would read as a source separator (starting with ":::") is
 * refused.  The Slurm script single-quotes every word.  Everything printed
 * for the user to paste is quoted the same way.
 */
/* realpath() is XSI, beyond the project's POSIX baseline. */
#define _XOPEN_SOURCE 700

#include "sweep.h"

#include "diag.h"
#include "driver.h"
#include "source.h"
#include "sym.h"
#include "tool.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

typedef enum SweepEngine {
    ENGINE_NONE,                /* not given yet */
    ENGINE_PARALLEL,            /* GNU parallel */
    ENGINE_SLURM,               /* a Slurm job array */
} SweepEngine;

/* A growing, NULL-terminated argument vector of owned strings. */
typedef struct Words {
    char **w;                   /* the words, then NULL */
    int n, cap;                 /* count and allocation */
} Words;

/* The command line of `lmdlc sweep`. */
typedef struct SweepArgs {
    const char *file;           /* the model file */
    const char *top;            /* --top, or NULL */
    const char *sets;           /* --sets */
    const char *dir;            /* --dir, or NULL: the results' directory */
    const char *script;         /* --script (slurm) */
    const char *summary;        /* --sweep-summary, or NULL: stdout */
    const char *out;            /* -o pattern */
    const char *events;         /* --events pattern, or NULL */
    SweepEngine engine;         /* --engine */
    long jobs;                  /* --jobs, or 0 */
    Words sshlogin;             /* --sshlogin values */
    const char **include;       /* -I directories */
    int n_include;
    Words sim_opts;             /* the simulator's options, in order */
    bool force;                 /* --force: replace the script */
    bool run;                   /* --run: run the engine, then collect */
} SweepArgs;

static const char usage[] =
    "usage: lmdlc sweep FILE --sets SETS.csv --engine parallel|slurm\n"
    "                   -o 'out-{row}.csv' [OPTIONS] [SIMULATOR OPTIONS]\n"
    "\n"
    "Builds FILE's simulator, checks SETS.csv against it, and hands one run\n"
    "per row to GNU parallel or to a Slurm job array (docs/sweeps.md).\n"
    "\n"
    "  --sets SETS.csv    a column per parameter path, a row per run\n"
    "  --engine parallel  print the GNU parallel command (--run: run it)\n"
    "  --engine slurm     write a Slurm job-array script (--script FILE)\n"
    "  -o PATTERN         each row's results; {row} is the row's number or label\n"
    "  --top NAME, -I DIR as for lmdlc build\n"
    "  --dir DIR          where the simulator goes [the results' directory]\n"
    "  --jobs N           rows at a time: parallel -j N [nproc], or the\n"
    "                     Slurm array's %N limit [none]\n"
    "  --sshlogin LOGIN   parallel: run rows on LOGIN too (repeatable; the\n"
    "                     hosts must see the same paths)\n"
    "  --script FILE      slurm: the script to write (never replaced unless\n"
    "                     --force)\n"
    "  --force            slurm: replace an existing script\n"
    "  --sweep-summary F  where the merged summary goes [stdout]\n"
    "  --run              run the job (parallel, or sbatch --wait), then merge\n"
    "                     the rows' summaries\n"
    "\n"
    "Every other option goes to the simulator (--stop-time 0.01, --vars A,B,\n"
    "--param P=V, --events 'events-{row}.csv', ...).  Exit status: 0, 1 bad\n"
    "command line or sets file, 2 model error, 3 (--run) some rows failed.\n";

static void words_add(Words *v, const char *s)
{
    if (v->n + 2 > v->cap) {
        v->cap = v->cap ? 2 * v->cap : 16;
        v->w = realloc(v->w, (size_t)v->cap * sizeof *v->w);
        if (!v->w)
            abort();
    }
    v->w[v->n] = strdup(s);
    if (!v->w[v->n])
        abort();
    v->w[++v->n] = NULL;
}

static void words_free(Words *v)
{
    for (int i = 0; i < v->n; i++)
        free(v->w[i]);
    free(v->w);
    memset(v, 0, sizeof *v);
}

static int bad_usage(const char *fmt, const char *arg)
{
    tool_message("error", "lmdlc: sweep: ", NULL, 0, "Try 'lmdlc sweep --help'.", fmt, arg);
    return 1;
}

/* An error of the sweep: "lmdlc: sweep: MESSAGE", or a JSON object. */
#define sweep_error(...) tool_message("error", "lmdlc: sweep: ", NULL, 0, NULL, __VA_ARGS__)

/* The simulator options lmdlc sweep sets itself. */
static bool owned_option(const char *a)
{
    static const char *const owned[] = {"--sweep", "--sweep-row",
                                        "--sweep-collect", "--sweep-check"};
    for (size_t i = 0; i < sizeof owned / sizeof owned[0]; i++) {
        size_t n = strlen(owned[i]);
        if (!strncmp(a, owned[i], n) && (a[n] == 0 || a[n] == '='))
            return true;
    }
    return false;
}

static int parse_args(SweepArgs *a, int argc, char **argv)
{
    a->include = calloc((size_t)argc + 1, sizeof *a->include);
    if (!a->include)
        abort();
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        char name[32];
        const char *eq = s[0] == '-' && s[1] == '-' ? strchr(s, '=') : NULL;
        if (eq && (size_t)(eq - s) < sizeof name) {
            memcpy(name, s, (size_t)(eq - s));
            name[eq - s] = 0;
        } else {
            eq = NULL;
        }
        /* lmdlc sweep's own options with a value */
        static const char *const valued[] = {
            "--sets", "--engine", "--jobs", "--sshlogin", "--dir", "--script",
            "--sweep-summary", "--top", "-I", "-o", "--events",
        };
        int opt = -1;
        for (int k = 0; k < (int)(sizeof valued / sizeof valued[0]); k++)
            if (!strcmp(eq ? name : s, valued[k]))
                opt = k;
        if (opt >= 0) {
            if (eq)
                next = eq + 1;
            else if (!next)
                return bad_usage("%s needs a value", s);
            else
                i++;
            switch (opt) {
            case 0: a->sets = next; break;
            case 1:
                if (!strcmp(next, "parallel"))
                    a->engine = ENGINE_PARALLEL;
                else if (!strcmp(next, "slurm"))
                    a->engine = ENGINE_SLURM;
                else
                    return bad_usage("--engine is parallel or slurm, not '%s'", next);
                break;
            case 2: {
                char *end;
                errno = 0;
                a->jobs = strtol(next, &end, 10);
                if (*end || end == next || errno || a->jobs < 1 || a->jobs > 100000)
                    return bad_usage("--jobs expects a positive number, not '%s'", next);
                break;
            }
            case 3: words_add(&a->sshlogin, next); break;
            case 4: a->dir = next; break;
            case 5: a->script = next; break;
            case 6: a->summary = next; break;
            case 7: a->top = next; break;
            case 8: a->include[a->n_include++] = next; break;
            case 9: a->out = next; break;
            case 10: a->events = next; break;
            }
        } else if (!strncmp(s, "-I", 2) && s[2]) {
            a->include[a->n_include++] = s + 2;
        } else if (!strcmp(s, "--force")) {
            a->force = true;
        } else if (!strcmp(s, "--run")) {
            a->run = true;
        } else if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            fputs(usage, stdout);
            return -1;
        } else if (owned_option(s)) {
            return bad_usage("%s is set by lmdlc sweep itself", s);
        } else if (!strncmp(s, "-o", 2)) {
            /* lmdlc makes -o's name absolute, so it must see it */
            return bad_usage("give the results as two words, -o PATTERN, "
                             "not '%s'", s);
        } else if (!a->file && s[0] != '-') {
            a->file = s;
        } else if (a->file) {
            words_add(&a->sim_opts, s);     /* a simulator option */
        } else {
            return bad_usage("unknown option '%s' before the model file", s);
        }
    }
    if (!a->file)
        return bad_usage("%s", "no model file given");
    if (!a->sets)
        return bad_usage("%s", "needs --sets SETS.csv");
    if (a->engine == ENGINE_NONE)
        return bad_usage("%s", "needs --engine parallel or --engine slurm");
    if (!a->out)
        return bad_usage("%s", "needs -o with {row} in it, e.g. -o 'out-{row}.csv'");
    if (a->engine == ENGINE_PARALLEL && (a->script || a->force))
        return bad_usage("%s", "--script and --force are for --engine slurm");
    if (a->engine == ENGINE_SLURM && a->sshlogin.n)
        return bad_usage("%s", "--sshlogin is for --engine parallel");
    /* the simulator refuses such words too, but only after the build;
       the ones lmdlc passes on are absolute paths */
    for (int i = 0; a->engine == ENGINE_PARALLEL && i < a->sim_opts.n; i++)
        if (!strncmp(a->sim_opts.w[i], ":::", 3))
            return bad_usage("'%s' would be read by GNU parallel as a "
                             "separator of its inputs", a->sim_opts.w[i]);
    if (a->engine == ENGINE_SLURM && !a->script)
        return bad_usage("%s", "--engine slurm needs --script FILE, the job "
                         "script to write");
    return 0;
}

/* p as an absolute path (not resolved: it may not exist yet). */
static char *absolute(const char *p)
{
    char cwd[PATH_MAX];
    if (p[0] == '/' || !getcwd(cwd, sizeof cwd))
        return strdup(p);
    while (p[0] == '.' && p[1] == '/')
        p += 2;
    size_t n = strlen(cwd) + strlen(p) + 2;
    char *s = malloc(n);
    if (!s)
        abort();
    snprintf(s, n, "%s/%s", strcmp(cwd, "/") ? cwd : "", p);
    return s;
}

/* The directory the simulator goes to: --dir, or the results' own (the
   current one when the results' directory depends on the row). */
static char *sim_dir(const SweepArgs *a)
{
    const char *slash = strrchr(a->out, '/');
    char *d;
    if (a->dir)
        d = strdup(a->dir);
    else if (!slash)
        d = strdup(".");
    else if (slash == a->out)
        d = strdup("/");
    else
        d = strndup(a->out, (size_t)(slash - a->out));
    if (!d)
        abort();
    if (!a->dir && strstr(d, "{row}")) {
        free(d);
        d = strdup(".");
    }
    return d;
}

/* A name for the simulator and the Slurm job: --top, or the file's base
   name, in the characters a file or job name can always hold. */
static char *model_name(const SweepArgs *a)
{
    const char *base = a->top;
    if (!base) {
        base = strrchr(a->file, '/');
        base = base ? base + 1 : a->file;
    }
    char *n = strdup(base);
    if (!n)
        abort();
    size_t len = strlen(n);
    if (!a->top && len > 5 && !strcmp(n + len - 5, ".lmdl"))
        n[len - 5] = 0;
    else if (!a->top && len > 4 && !strcmp(n + len - 4, ".ssc"))
        n[len - 4] = 0;
    for (char *c = n; *c; c++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                    "0123456789_.-", *c))
            *c = '_';
    if (!*n || n[0] == '.' || n[0] == '-') {
        free(n);
        n = strdup("model");
    }
    return n;
}

/* One word for a POSIX shell: bare when it is plainly safe, else in
   single quotes (a quote in it written as '\''). */
static void put_word(FILE *fp, const char *s)
{
    size_t n = strlen(s);
    if (n && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                    "0123456789_./,:=+@%-") == n) {
        fputs(s, fp);
        return;
    }
    fputc('\'', fp);
    for (const char *c = s; *c; c++) {
        if (*c == '\'')
            fputs("'\\''", fp);
        else
            fputc(*c, fp);
    }
    fputc('\'', fp);
}

static void put_words(FILE *fp, char *const *w, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            fputc(' ', fp);
        put_word(fp, w[i]);
    }
}

/* Runs argv (looked up in PATH) and waits for it.  With out, its standard
   output is read into out (at most n - 1 bytes kept); with to_stderr, it
   goes to our stderr (keeping our stdout for the summary); with in >= 0,
   its standard input is in.  Returns its exit status, 128 + N when
   signal N ended it, or -1 when it did not start. */
static int spawn_wait(char *const *argv, char *out, size_t n, bool to_stderr, int in,
                      bool merge_err)
{
    int fds[2] = {-1, -1};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (in >= 0)
        posix_spawn_file_actions_adddup2(&fa, in, STDIN_FILENO);
    if (to_stderr)
        posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO);
    if (out) {
        if (pipe(fds) != 0) {
            posix_spawn_file_actions_destroy(&fa);
            return -1;
        }
        posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
        if (merge_err)
            posix_spawn_file_actions_adddup2(&fa, fds[1], STDERR_FILENO);
        posix_spawn_file_actions_addclose(&fa, fds[0]);
        posix_spawn_file_actions_addclose(&fa, fds[1]);
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (out) {
        close(fds[1]);
        size_t len = 0;
        for (;;) {
            char buf[512];
            ssize_t got = read(fds[0], buf, sizeof buf);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0)
                break;
            for (ssize_t i = 0; i < got && len + 1 < n; i++)
                out[len++] = buf[i];
        }
        out[len] = 0;
        close(fds[0]);
    }
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

/* The simulator's command line for every row, without the row number:
   SIM --sweep SETS -o OUT [--events EV] OPTIONS... then `tail`. */
static void sim_command(Words *w, const char *sim, const char *sets,
                        const char *out, const char *events,
                        const Words *opts, const char *tail)
{
    const char *head[] = {sim, "--sweep", sets, "-o", out};
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
        words_add(w, head[i]);
    if (events) {
        words_add(w, "--events");
        words_add(w, events);
    }
    for (int i = 0; i < opts->n; i++)
        words_add(w, opts->w[i]);
    if (tail)
        words_add(w, tail);
}

/* GNU parallel's argument vector: each word of row (then the row number)
   a one-value input source, the command `exec {1} ... {M}`. */
static void parallel_command(Words *p, const SweepArgs *a, const Words *row,
                             long n_rows)
{
    words_add(p, "parallel");
    words_add(p, "--null");
    char num[32];
    long jobs = a->jobs;
    if (!jobs && !a->sshlogin.n)
        jobs = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
    if (jobs) {
        snprintf(num, sizeof num, "%ld", jobs);
        words_add(p, "-j");
        words_add(p, num);
    }
    for (int i = 0; i < a->sshlogin.n; i++) {
        words_add(p, "--sshlogin");
        words_add(p, a->sshlogin.w[i]);
    }
    words_add(p, "exec");
    for (int i = 1; i <= row->n + 1; i++) {
        snprintf(num, sizeof num, "{%d}", i);
        words_add(p, num);
    }
    for (int i = 0; i < row->n; i++) {
        words_add(p, ":::");
        words_add(p, row->w[i]);
    }
    /* the row numbers, the last source, from standard input */
    words_add(p, "::::");
    words_add(p, "-");
    (void)n_rows;
}

/* A file open for reading that holds the numbers 1 .. n_rows, each ended
   by a NUL (GNU parallel's --null input), already unlinked; -1 with errno
   set when it cannot be made. */
static int row_numbers(long n_rows)
{
    const char *tmp = getenv("TMPDIR");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/lmdl-rows-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    unlink(path);
    FILE *fp = fdopen(dup(fd), "w");
    int bad = !fp;
    for (long k = 1; fp && k <= n_rows && !bad; k++)
        bad = fprintf(fp, "%ld", k) < 0 || fputc(0, fp) == EOF;
    if (fp && fclose(fp) != 0)
        bad = 1;
    if (bad || lseek(fd, 0, SEEK_SET) != 0) {
        int err = errno ? errno : EIO;
        close(fd);
        errno = err;
        return -1;
    }
    return fd;
}

/* The Slurm job-array script; NULL-free text in a malloc'd buffer. */
static char *slurm_script(const SweepArgs *a, const char *name,
                          const Words *row, long n_rows)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        abort();
    /* user text only in quoted words: a newline in a comment would end
       it and make the rest a command */
    fprintf(fp, "#!/bin/bash\n"
            "# A Slurm job array for a parameter sweep of %s, written by lmdlc\n"
            "# sweep (docs/sweeps.md): task K runs row K of the sets file\n"
            "# named below and leaves its summary line next to its results;\n"
            "# merge them with the --sweep-collect command lmdlc sweep printed.\n",
            name);
    fprintf(fp, "#SBATCH --job-name=lmdl-%s\n", name);
    if (a->jobs)
        fprintf(fp, "#SBATCH --array=1-%ld%%%ld\n", n_rows, a->jobs);
    else
        fprintf(fp, "#SBATCH --array=1-%ld\n", n_rows);
    fprintf(fp, "#SBATCH --ntasks=1\n"
            "#SBATCH --output=lmdl-%s-%%A_%%a.out\n"
            "set -eu\n"
            "row=${SLURM_ARRAY_TASK_ID:?run this script with sbatch, or set "
            "SLURM_ARRAY_TASK_ID to a row number}\n"
            "exec ", name);
    put_words(fp, row->w, row->n);
    fprintf(fp, " \"$row\"\n");
    if (fclose(fp) != 0)
        abort();
    return text;
}

/* Writes the script without following a link or replacing a file, unless
   --force: then through a temporary file renamed over it. */
static int write_script(const SweepArgs *a, const char *text)
{
    const char *path = a->script;
    mode_t mask = umask(0);
    umask(mask);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0777 & ~mask);
    char *tmp = NULL;
    if (fd < 0 && errno == EEXIST && a->force) {
        size_t n = strlen(path) + 8;
        tmp = malloc(n);
        if (!tmp)
            abort();
        snprintf(tmp, n, "%s.XXXXXX", path);
        fd = mkstemp(tmp);
        if (fd >= 0)
            fchmod(fd, 0777 & ~mask);
    } else if (fd < 0 && errno == EEXIST) {
        sweep_error("'%s' exists; give --force to replace "
                    "it", path);
        return -1;
    }
    size_t len = strlen(text);
    int ok = fd >= 0 && write(fd, text, len) == (ssize_t)len;
    int err = errno;
    if (fd >= 0 && close(fd) != 0)
        ok = 0;
    if (ok && tmp && rename(tmp, path) != 0) {
        err = errno;
        ok = 0;
    }
    if (!ok) {
        sweep_error("cannot write '%s': %s", path,
                    strerror(err));
        if (tmp && fd >= 0)
            remove(tmp);
    }
    free(tmp);
    return ok ? 0 : -1;
}

/* Builds the simulator into dir/NAME.sim; returns its absolute path, or
   NULL with the status in *status. */
static char *build_simulator(const SweepArgs *a, const char *name, int *status)
{
    char *dir = sim_dir(a);
    char real[PATH_MAX];
    struct stat st;
    if (!realpath(dir, real) || stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
        sweep_error("the directory '%s' for the simulator "
                    "does not exist", dir);
        free(dir);
        *status = 1;
        return NULL;
    }
    free(dir);
    size_t n = strlen(real) + strlen(name) + 8;
    char *sim = malloc(n);
    if (!sim)
        abort();
    snprintf(sim, n, "%s/%s.sim", strcmp(real, "/") ? real : "", name);
    DriverOptions o = {0};
    o.command = CMD_BUILD;
    o.file = a->file;
    o.top = a->top;
    o.include_dirs = a->include;
    o.ninclude = a->n_include;
    o.output = sim;
    o.out = stdout;
    *status = driver_run(&o);
    diag_flush();
    if (*status != 0) {
        free(sim);
        return NULL;
    }
    return sim;
}

/* `SIM ... --sweep-check`: the options and the sets file are good, and
   the number of rows; -1 after the simulator said why not. */
static long check_sets(const Words *check)
{
    char out[16384];
    int st = spawn_wait(check->w, out, sizeof out, false, -1, true);
    if (st < 0) {
        sweep_error("cannot run the simulator %s: %s",
                    check->w[0], strerror(errno));
        return -1;
    }
    /* the simulator's messages are the sweep's: its name becomes lmdlc
       sweep's, and its pointer to its own help points to the sweep's too
       (JSON lines, which name no program, pass as they are); the row
       count is the line that is a number */
    const char *sim = strrchr(check->w[0], '/');
    sim = sim ? sim + 1 : check->w[0];
    size_t sl = strlen(sim);
    long n = -1;
    for (char *line = out; *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        char *end;
        long v = strtol(line, &end, 10);
        if (end != line && *end == 0) {
            n = v;
        } else if (*line) {
            char try_sim[320];
            snprintf(try_sim, sizeof try_sim, "Try '%s --help' for the options.", sim);
            if (!strcmp(line, try_sim))
                fprintf(stderr, "Try 'lmdlc sweep --help' (and '%s --help' for the "
                        "simulator's options).\n", sim);
            else if (!strncmp(line, sim, sl) && line[sl] == ':' && line[sl + 1] == ' ')
                fprintf(stderr, "lmdlc: sweep: %s\n", line + sl + 2);
            else
                fprintf(stderr, "%s\n", line);
        }
        if (!nl)
            break;
        line = nl + 1;
    }
    if (st != 0 || n < 1)
        return -1;
    return n;
}

/* --run: the job, then the collect step, whose status is the sweep's. */
static int run_job(const SweepArgs *a, Words *job, Words *collect, long n_rows)
{
    const char *engine = a->engine == ENGINE_PARALLEL ? "GNU parallel" : "sbatch";
    /* GNU parallel reads the row numbers from its standard input (a
       command line with one argument per row would outgrow ARG_MAX): a
       private temporary file of them, NUL-separated for --null */
    int in = -1;
    if (a->engine == ENGINE_PARALLEL && (in = row_numbers(n_rows)) < 0) {
        sweep_error("cannot write the row numbers for GNU parallel: %s", strerror(errno));
        return 1;
    }
    int st = spawn_wait(job->w, NULL, 0, true, in, false);
    if (in >= 0)
        close(in);
    if (st < 0) {
        sweep_error("cannot run %s (%s): %s", engine,
                    job->w[0], strerror(errno));
        return 1;
    }
    /* The rows' own statuses come from the collect step; the engine's
       only matters when it contradicts them (a job never started). */
    int cst = spawn_wait(collect->w, NULL, 0, false, -1, false);
    if (cst < 0) {
        sweep_error("cannot run the simulator %s: %s",
                    collect->w[0], strerror(errno));
        return 3;
    }
    if (cst == 0 && st != 0) {
        sweep_error("%s exited with status %d", engine, st);
        return 3;
    }
    return cst;
}

static int sweep(SweepArgs *a)
{
    char sets[PATH_MAX];
    if (!realpath(a->sets, sets)) {
        sweep_error("cannot read the sets file '%s': %s",
                    a->sets, strerror(errno));
        return 1;
    }
    char *name = model_name(a);
    int status;
    char *sim = build_simulator(a, name, &status);
    if (!sim) {
        free(name);
        return status;
    }
    char *out = absolute(a->out);
    char *events = a->events ? absolute(a->events) : NULL;
    char *summary = a->summary && strcmp(a->summary, "-") ? absolute(a->summary) : NULL;
    Words check = {0}, row = {0}, collect = {0}, job = {0};
    sim_command(&check, sim, sets, out, events, &a->sim_opts, "--sweep-check");
    sim_command(&row, sim, sets, out, events, &a->sim_opts, "--sweep-row");
    sim_command(&collect, sim, sets, out, events, &a->sim_opts, "--sweep-collect");
    if (summary) {
        words_add(&collect, "--sweep-summary");
        words_add(&collect, summary);
    }
    long n_rows = check_sets(&check);
    status = n_rows < 0 ? 1 : 0;
    if (status == 0 && a->engine == ENGINE_PARALLEL) {
        parallel_command(&job, a, &row, n_rows);
        if (!a->run) {
            /* the row numbers on parallel's standard input, NUL-separated */
            printf("# run the %ld rows of the sweep:\nseq 1 %ld | tr '\\n' '\\0' | ", n_rows,
                   n_rows);
            put_words(stdout, job.w, job.n);
            printf("\n# then merge the rows' summaries:\n");
            put_words(stdout, collect.w, collect.n);
            putchar('\n');
        }
    } else if (status == 0) {
        char *text = slurm_script(a, name, &row, n_rows);
        status = write_script(a, text) == 0 ? 0 : 1;
        free(text);
        words_add(&job, "sbatch");
        words_add(&job, "--wait");
        words_add(&job, a->script);
        if (status == 0 && !a->run) {
            printf("# wrote the Slurm job array script (%ld tasks, one per "
                   "row); submit it with:\nsbatch ", n_rows);
            put_word(stdout, a->script);
            printf("\n# when every task has finished, merge the rows' "
                   "summaries:\n");
            put_words(stdout, collect.w, collect.n);
            putchar('\n');
        }
    }
    if (status == 0 && a->run)
        status = run_job(a, &job, &collect, n_rows);
    words_free(&check);
    words_free(&row);
    words_free(&collect);
    words_free(&job);
    free(out);
    free(events);
    free(summary);
    free(sim);
    free(name);
    return status;
}

int sweep_main(int argc, char **argv)
{
    SweepArgs a;
    memset(&a, 0, sizeof a);
    int status = parse_args(&a, argc, argv);
    if (status == 0)
        status = sweep(&a);
    else if (status < 0)
        status = 0;         /* --help */
    words_free(&a.sshlogin);
    words_free(&a.sim_opts);
    free(a.include);
    diag_flush();
    src_free_all();
    sym_free_all();
    return status;
}
