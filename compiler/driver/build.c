/*
 * build.c - runs the C compiler on generated code, and the cache of
 * simulators behind `lmdlc run`.
 *
 * Every process is started with posix_spawnp or fexecve and an argument
 * vector; no model text, path or name ever reaches a shell.
 *
 * A build works in a private directory (outfile_private_dir, mode 0700)
 * next to its target: the C file is created there with O_EXCL, the C
 * compiler links the simulator there, and only the finished simulator is
 * renamed onto the target.  No other user can plant a link at any name
 * the compiler writes, and a failed or interrupted build leaves nothing.
 *
 * The compiler runs in its own process group with its output captured
 * through a pipe.  SIGINT, SIGTERM and SIGHUP are blocked while a build
 * runs and polled for: on one, the whole group is stopped, the temporary
 * files are removed, and lmdlc dies of the same signal, so its parent
 * sees the conventional status.  A failure is classified: a compiler
 * that cannot be started, that was killed, or that reports a problem of
 * the machine (a full disk, a missing library or header) is the
 * environment's; only a compile error on the code lmdlc generated is a
 * bug in lmdlc, reported with the C file kept.
 *
 * The cache directory is trusted only when it is a real directory (not a
 * link, however its path is written) owned by the user and writable by no
 * one else, and a cached simulator only when it is a regular file of the
 * user's that no one else can write and a whole executable (its ELF
 * headers and segments within the file), checked on the descriptor that
 * is then executed (fexecve), so the file checked is the file run; a bad
 * or broken entry is rebuilt.  The simulator is told every file lmdlc
 * read (--input), which it refuses to write.
 */
#include "build.h"

#include "codegen.h"
#include "diag.h"
#include "outfile.h"
#include "paths.h"
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __ELF__
#include <link.h> /* ElfW: the Elf32_ or Elf64_ type of this machine */
#endif

extern char **environ;

static const char *runtime_lib(void)
{
    return paths_runtime_lib();
}

static const char *runtime_include(void)
{
    return paths_runtime_include();
}

/* What every simulator links after the runtime: SUNDIALS CVODE with KLU
   (--solver cvode) and GSL (gsl_odeiv2).  SUNDIALS and SuiteSparse are
   linked statically: loading their six shared libraries added 0.33 ms to
   the 1.34 ms start of a small simulator (docs/performance.md).
   runtime/CMakeLists.txt finds the same archives for the runtime. */
static const char *const sim_libs[] = {
    "-Wl,-Bstatic", "-lsundials_cvode", "-lsundials_nvecserial",
    "-lsundials_sunmatrixsparse", "-lsundials_sunmatrixdense",
    "-lsundials_sunlinsolklu", "-lsundials_sunlinsoldense", "-lklu", "-lamd",
    "-lcolamd", "-lbtf", "-lsuitesparseconfig", "-Wl,-Bdynamic",
    "-lgsl", "-lgslcblas", "-lm",
};

/* What a build makes. */
typedef enum BuildKind {
    BUILD_SIMULATOR,        /* an executable with the runtime's main() */
    BUILD_SHARED,           /* an FMU's shared object: the runtime built
                               position-independent, no main() */
} BuildKind;

/* A generated file larger than this is split into translation units
   (cunits.c) compiled in parallel; a smaller one is compiled whole at
   -O2.  Measured on the lever chain (docs/performance.md): the C
   compiler's time grows faster than the size of one file, and most of a
   big model's code runs once or once per row, so it is compiled at -O1
   and its data at -O0, while the code the solver runs at every step gets
   -O2. */
enum { SPLIT_C_FILE = 384 * 1024 };

/* A path for the compiler's command line: one that begins with '-'
   would be read as an option, so it gets "./" in front. */
static const char *dash_safe(const char *path, char **storage)
{
    *storage = NULL;
    if (path[0] != '-')
        return path;
    size_t n = strlen(path) + 3;
    *storage = malloc(n);
    if (!*storage)
        abort();
    snprintf(*storage, n, "./%s", path);
    return *storage;
}

/* What one compiler command does. */
typedef enum CcStep {
    CC_WHOLE,               /* compile C files and link them */
    CC_COMPILE,             /* compile one C file to an object file */
    CC_LINK,                /* link object files */
} CcStep;

/* A compiler command: $CC split on blanks, then our arguments. */
typedef struct CcCommand {
    char **argv;            /* NULL-terminated */
    char *cc_words;         /* storage for $CC's words */
    char *flag_words;       /* storage for LMDL_SIM_FLAGS' words */
    char *common_include;   /* the runtime include directory's common/ */
    char *out_arg;          /* dash_safe storage */
    char **in_args;         /* dash_safe storage per input */
    int nin;                /* inputs */
    const char *shown;      /* the file a failure report names */
} CcCommand;

static const char *const opt_levels[] = {"-O0", "-O1", "-O2"};

static void cc_command(CcCommand *c, CcStep step, const char *const *in, int nin,
                       const char *out_path, int level, BuildKind kind)
{
    const char *cc = getenv("CC");
    if (!cc || !*cc)
        cc = "cc";
    memset(c, 0, sizeof *c);
    c->cc_words = strdup(cc);
    c->flag_words = strdup(LMDL_SIM_FLAGS);
    size_t ilen = strlen(runtime_include()) + sizeof "/common";
    c->common_include = malloc(ilen);
    if (c->common_include)
        snprintf(c->common_include, ilen, "%s/common", runtime_include());
    enum { NLIBS = sizeof sim_libs / sizeof sim_libs[0] };
    c->argv = calloc(72 + NLIBS + (size_t)nin, sizeof *c->argv);
    c->in_args = calloc((size_t)nin + 1, sizeof *c->in_args);
    if (!c->cc_words || !c->flag_words || !c->common_include || !c->argv || !c->in_args)
        abort();
    c->nin = nin;
    c->shown = in[0];
    int n = 0;
    for (char *save = NULL, *w = strtok_r(c->cc_words, " \t", &save); w && n < 40;
         w = strtok_r(NULL, " \t", &save))
        c->argv[n++] = w;
    if (n == 0)
        c->argv[n++] = "cc";
    if (step != CC_LINK)
        c->argv[n++] = (char *)opt_levels[level];
    if (step == CC_COMPILE)
        c->argv[n++] = "-c";
    c->argv[n++] = "-o";
    c->argv[n++] = (char *)dash_safe(out_path, &c->out_arg);
    for (int i = 0; i < nin; i++)
        c->argv[n++] = (char *)dash_safe(in[i], &c->in_args[i]);
    if (step != CC_LINK) {
        /* rt_model.h and the headers it includes: in an installed tree all
           in one directory, in the source tree the shared ones in common/ */
        c->argv[n++] = "-I";
        c->argv[n++] = (char *)runtime_include();
        c->argv[n++] = "-I";
        c->argv[n++] = c->common_include;
    }
    /* An FMU: position-independent, exporting its fmi2 functions only
       (runtime/fmi/lmdl_fmi2.h).  The model's C calls none of the FMI
       layer, so the whole archive goes in; SUNDIALS, KLU and GSL are the
       shared libraries (Debian's static archives are not
       position-independent), which the importing machine needs
       (docs/fmi.md). */
    static const char *const pic[] = {"-fPIC", "-fvisibility=hidden", NULL};
    const char *so[] = {"-shared", "-Wl,--no-undefined",
                        "-Wl,--whole-archive", paths_runtime_pic_lib(),
                        "-Wl,--no-whole-archive", "-lsundials_cvode",
                        "-lsundials_nvecserial", "-lsundials_sunmatrixsparse",
                        "-lsundials_sunmatrixdense", "-lsundials_sunlinsolklu",
                        "-lsundials_sunlinsoldense", "-lklu", "-lgsl", "-lgslcblas",
                        "-lm", NULL};
    if (kind == BUILD_SHARED)
        for (int i = 0; pic[i]; i++)
            c->argv[n++] = (char *)pic[i];
    if (step != CC_COMPILE) {
        if (kind == BUILD_SHARED) {
            for (int i = 0; so[i]; i++)
                c->argv[n++] = (char *)so[i];
        } else {
            c->argv[n++] = (char *)runtime_lib();
            for (int i = 0; i < NLIBS; i++)
                c->argv[n++] = (char *)sim_libs[i];
        }
    }
    /* the build's own extra flags (sanitizers), word by word */
    for (char *save = NULL, *w = strtok_r(c->flag_words, " ", &save); w && n < 70 + NLIBS + nin;
         w = strtok_r(NULL, " ", &save))
        c->argv[n++] = w;
    c->argv[n] = NULL;
}

static void cc_command_free(CcCommand *c)
{
    free(c->argv);
    free(c->cc_words);
    free(c->flag_words);
    free(c->common_include);
    free(c->out_arg);
    for (int i = 0; i < c->nin; i++)
        free(c->in_args[i]);
    free(c->in_args);
}

/* ---- running the compiler --------------------------------------------------- */

enum { CC_OUTPUT_MAX = 64 * 1024 };    /* compiler output kept for the report */

typedef struct CcRun {
    int spawn_error;        /* errno of a failed start, or 0 */
    int status;             /* waitpid status */
    char *output;           /* stdout and stderr, NUL-terminated */
    size_t len;             /* bytes in output */
    int truncated;          /* more output was discarded */
} CcRun;

/* The signals that interrupt a build: those not ignored on entry (a
   build started under nohup keeps ignoring SIGHUP). */
static void interrupt_set(sigset_t *set)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    sigemptyset(set);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa;
        if (sigaction(sigs[i], NULL, &sa) == 0 && sa.sa_handler != SIG_IGN)
            sigaddset(set, sigs[i]);
    }
}

/* A signal from the set pending (blocked), or 0. */
static int pending_interrupt(const sigset_t *set)
{
    struct timespec zero = {0, 0};
    int sig = sigtimedwait(set, NULL, &zero);
    return sig > 0 ? sig : 0;
}

static void pause_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Dies of `sig` after stopping the compilers' process groups pg[0 ..
   n) (each compiler leads its own) and removing every temporary file. */
static void die_of(int sig, const pid_t *pg, int n, const sigset_t *old)
{
    for (int k = 0; k < n; k++)
        if (pg[k] > 0)
            kill(-pg[k], SIGTERM);
    for (int k = 0; k < n; k++) {
        if (pg[k] <= 0)
            continue;
        siginfo_t info;
        /* up to 2 s for a clean exit; the leader stays a zombie (WNOWAIT)
           so the group id cannot be reused before the final SIGKILL */
        for (int i = 0; i < 200; i++) {
            memset(&info, 0, sizeof info);
            if (waitid(P_PID, (id_t)pg[k], &info, WEXITED | WNOHANG | WNOWAIT) == 0
                && info.si_pid == pg[k])
                break;
            pause_ms(10);
        }
        kill(-pg[k], SIGKILL);
        while (waitpid(pg[k], NULL, 0) < 0 && errno == EINTR)
            ;
    }
    outfile_cleanup();
    fflush(stdout);
    fflush(stderr);
    signal(sig, SIG_DFL);
    sigprocmask(SIG_SETMASK, old, NULL);
    raise(sig);
    _exit(128 + sig);   /* not reached: the default action terminates */
}

static void keep_output(CcRun *r, const char *buf, size_t n)
{
    if (r->len + n > CC_OUTPUT_MAX) {
        n = CC_OUTPUT_MAX - r->len;
        r->truncated = 1;
    }
    memcpy(r->output + r->len, buf, n);
    r->len += n;
    r->output[r->len] = 0;
}

/* A running compiler: its pid (and process group) and output pipe. */
typedef struct CcJob {
    pid_t pid;              /* 0 when not running */
    int fd;                 /* the read end of its output, or -1 */
    int drain;              /* polls left to read output after it exits */
    int done;               /* it has exited (status in its CcRun) */
} CcJob;

/* Starts argv in a process group of its own, output into a pipe. */
static int cc_start(char **argv, CcRun *r, CcJob *j, const sigset_t *set, const sigset_t *old)
{
    memset(r, 0, sizeof *r);
    memset(j, 0, sizeof *j);
    j->fd = -1;
    r->output = malloc(CC_OUTPUT_MAX + 1);
    if (!r->output)
        abort();
    r->output[0] = 0;
    int fds[2];
    if (pipe(fds) != 0) {
        r->spawn_error = errno;
        return -1;
    }
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDERR_FILENO);
    posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK
                                  | POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setsigmask(&at, old);
    posix_spawnattr_setsigdefault(&at, set);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        r->spawn_error = rc;
        return -1;
    }
    j->pid = pid;
    j->fd = fds[0];
    j->drain = 50;
    return 0;
}

/* Runs the n commands with their output captured, at most par at a
   time, watching for an interrupt (the set is blocked by the caller; old
   is the mask to give the children and to restore before dying).  After
   a command fails no other is started.  After a compiler exits, its
   output is read for at most 1 s more: a process it left behind must not
   hold the build forever.  Returns the index of the first failed command,
   or -1. */
static int cc_run(CcCommand *cmds, int n, int par, CcRun *runs, const sigset_t *set,
                  const sigset_t *old)
{
    CcJob *jobs = calloc((size_t)n + 1, sizeof *jobs);
    pid_t *pg = calloc((size_t)n + 1, sizeof *pg);
    if (!jobs || !pg)
        abort();
    int next = 0, running = 0, failed = -1;
    for (;;) {
        while (failed < 0 && next < n && running < par) {
            if (cc_start(cmds[next].argv, &runs[next], &jobs[next], set, old) != 0) {
                failed = next++;
                break;
            }
            next++;
            running++;
        }
        if (running == 0)
            break;
        /* poll every live pipe */
        struct pollfd p[64];
        int idx[64], np = 0;
        for (int k = 0; k < next && np < 64; k++)
            if (jobs[k].fd >= 0) {
                p[np] = (struct pollfd){jobs[k].fd, POLLIN, 0};
                idx[np++] = k;
            }
        if (np == 0 || poll(p, (nfds_t)np, 20) <= 0)
            pause_ms(np == 0 ? 20 : 0);
        for (int i = 0; i < np; i++) {
            if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            CcJob *j = &jobs[idx[i]];
            char buf[4096];
            ssize_t got = read(j->fd, buf, sizeof buf);
            if (got > 0) {
                keep_output(&runs[idx[i]], buf, (size_t)got);
            } else if (got == 0 || errno != EINTR) {
                close(j->fd);
                j->fd = -1;
            }
        }
        int sig = pending_interrupt(set);
        if (sig) {
            int m = 0;
            for (int k = 0; k < next; k++) {
                if (jobs[k].fd >= 0)
                    close(jobs[k].fd);
                if (jobs[k].pid > 0 && !jobs[k].done)
                    pg[m++] = jobs[k].pid;
            }
            die_of(sig, pg, m, old);
        }
        for (int k = 0; k < next; k++) {
            CcJob *j = &jobs[k];
            if (j->pid <= 0)
                continue;   /* not started, failed to start, or counted */
            if (!j->done && waitpid(j->pid, &runs[k].status, WNOHANG) == j->pid)
                j->done = 1;
            if (j->done && j->fd >= 0 && --j->drain <= 0) {
                close(j->fd);
                j->fd = -1;
            }
            if (j->done && j->fd < 0) {
                running--;
                j->pid = -1;        /* finished and counted */
                int st = runs[k].status;
                if (failed < 0 && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
                    failed = k;
            }
        }
    }
    free(jobs);
    free(pg);
    return failed;
}

/* ---- classifying a failure ---------------------------------------------------- */

/* What the compiler says when the machine, not the code, is at fault. */
static const char *const environment_markers[] = {
    "No space left on device", "Disk quota exceeded", "Read-only file system",
    "Input/output error", "File too large", "Cannot allocate memory",
    "memory exhausted", "out of memory", "Killed", "Permission denied",
    "No such file or directory", "cannot find -l", "cannot open output file",
};

/* The first line of out that holds an environment marker, or NULL; the
   line is copied to buf. */
static const char *environment_line(const char *out, char *buf, size_t len)
{
    for (const char *line = out; *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        for (size_t i = 0; i < sizeof environment_markers / sizeof *environment_markers; i++) {
            const char *hit = strstr(line, environment_markers[i]);
            if (hit && hit < line + n) {
                snprintf(buf, len, "%.*s", (int)n, line);
                return buf;
            }
        }
        if (!end)
            break;
        line = end + 1;
    }
    return NULL;
}

static int cc_failure_error(const CcRun *r, const char *cc, const char *c_path);

/* Reports a failed run of the compiler: its output, then the error (as
   JSON: the error, with the output as its note).  Returns 1 when the
   generated code is to blame (keep the C file), 0 otherwise. */
static int report_cc_failure(const CcRun *r, const char *cc, const char *c_path)
{
    static const char omitted[] = "[... more output from the C compiler omitted]\n";
    bool json = diag_format() == DIAG_FORMAT_JSON;
    if (r->len && !json) {
        fputs(r->output, stderr);
        if (r->output[r->len - 1] != '\n')
            fputc('\n', stderr);
        if (r->truncated)
            fputs(omitted, stderr);
    }
    int rc = cc_failure_error(r, cc, c_path);
    if (r->len && json)
        diag_note(src_none, "the C compiler's output:\n%s%s", r->output,
                  r->truncated ? omitted : "");
    return rc;
}

static int cc_failure_error(const CcRun *r, const char *cc, const char *c_path)
{
    if (r->spawn_error == ENOENT) {
        diag_error(src_none, "the C compiler '%s' was not found; install one, or "
                   "set CC to choose another", cc);
        return 0;
    }
    if (r->spawn_error) {
        diag_error(src_none, "cannot start the C compiler '%s': %s (set CC to "
                   "choose another)", cc, strerror(r->spawn_error));
        return 0;
    }
    if (WIFSIGNALED(r->status)) {
        int sig = WTERMSIG(r->status);
        diag_error(src_none, "the C compiler '%s' was killed by signal %d (%s): "
                   "a problem of the machine (memory, limits), not of the model; "
                   "nothing was built", cc, sig, strsignal(sig));
        return 0;
    }
    char line[512];
    if (environment_line(r->output, line, sizeof line)) {
        diag_error(src_none, "the C compiler '%s' failed because of its "
                   "environment, not the generated code: %s", cc, line);
        return 0;
    }
    diag_error(src_none, "the C compiler failed on the code lmdlc generated; this "
               "is a bug in lmdlc: please report it with the file %s", c_path);
    return 1;
}

/* ---- building ------------------------------------------------------------------- */

/* Writes text to a new file at path (O_EXCL, tracked for cleanup);
   0, or -1 after a report. */
static int write_new(const char *path, const char *text, size_t len)
{
    outfile_track(path);
    int fd = outfile_create(path);
    int err = fd < 0 ? errno : 0;
    if (fd >= 0) {
        FILE *fp = fdopen(fd, "w");
        if (!fp || fwrite(text, 1, len, fp) != len)
            err = errno ? errno : EIO;
        if (fp ? fclose(fp) != 0 : close(fd) != 0)
            err = err ? err : errno;
    }
    if (err)
        diag_error(src_none, "cannot write '%s': %s", path, strerror(err));
    return err ? -1 : 0;
}

static int cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 16 ? 16 : (int)n;
}

/* Builds into out_path; a cache entry is made 0700, whatever the umask,
   so that it passes cached_sim_state.  A large source is split into
   translation units (cunits.c), compiled in parallel on every processor,
   then linked; a small one is compiled and linked in one command. */
static int build_into(const char *c_text, const char *out_path, int cache_entry,
                      BuildKind kind)
{
    if (outfile_special(out_path)) {
        diag_error(src_none, "refusing to build into '%s': it is not a regular file "
                   "(a device or a pipe), and the simulator would replace it", out_path);
        return -1;
    }
    sigset_t set, old;
    interrupt_set(&set);
    sigprocmask(SIG_BLOCK, &set, &old);
    int ok = 0;
    char *dir = outfile_private_dir(out_path);
    if (!dir) {
        diag_error(src_none, "cannot create a temporary directory next to '%s': %s",
                   out_path, strerror(errno));
        goto out;
    }
    size_t len = strlen(c_text);
    CgUnit *units = NULL;
    /* LMDL_BUILD_SPLIT=no keeps one file, =yes splits whatever the size
       (to compare the two builds) */
    const char *split = getenv("LMDL_BUILD_SPLIT");
    bool want = split && !strcmp(split, "yes") ? true
                : split && !strcmp(split, "no") ? false : len > SPLIT_C_FILE;
    int nunits = want ? cg_split(c_text, &units) : 0;
    int nfiles = nunits > 0 ? nunits : 1;
    size_t n = strlen(dir) + 32;
    char *bin = malloc(n);
    char **c_path = calloc((size_t)nfiles, sizeof *c_path);
    char **o_path = calloc((size_t)nfiles, sizeof *o_path);
    if (!bin || !c_path || !o_path)
        abort();
    snprintf(bin, n, "%s/sim", dir);
    outfile_track(bin);
    int err = 0;
    for (int k = 0; k < nfiles; k++) {
        c_path[k] = malloc(n);
        o_path[k] = malloc(n);
        if (!c_path[k] || !o_path[k])
            abort();
        if (nunits > 0)
            snprintf(c_path[k], n, "%s/unit%d.c", dir, k);
        else
            snprintf(c_path[k], n, "%s/model.c", dir);
        snprintf(o_path[k], n, "%s/unit%d.o", dir, k);
        outfile_track(o_path[k]);
        if (!err)
            err = write_new(c_path[k], nunits > 0 ? units[k].text : c_text,
                            nunits > 0 ? units[k].len : len);
    }
    int keep_c = 0;
    if (!err) {
        /* the commands: one, or a compile per unit and a link */
        int ncmd = nunits > 0 ? nunits + 1 : 1;
        CcCommand *cmds = calloc((size_t)ncmd, sizeof *cmds);
        CcRun *runs = calloc((size_t)ncmd, sizeof *runs);
        if (!cmds || !runs)
            abort();
        if (nunits > 0) {
            for (int k = 0; k < nunits; k++)
                cc_command(&cmds[k], CC_COMPILE, (const char *const *)&c_path[k], 1,
                           o_path[k], units[k].level, kind);
            cc_command(&cmds[nunits], CC_LINK, (const char *const *)o_path, nunits, bin, 0,
                       kind);
        } else {
            cc_command(&cmds[0], CC_WHOLE, (const char *const *)c_path, 1, bin, 2, kind);
        }
        int bad = cc_run(cmds, ncmd - (nunits > 0), cpu_count(), runs, &set, &old);
        if (bad < 0 && nunits > 0)
            bad = cc_run(&cmds[nunits], 1, 1, &runs[nunits], &set, &old) < 0 ? -1 : nunits;
        if (bad < 0) {
            /* warnings, if the compiler had any */
            for (int k = 0; k < ncmd; k++)
                if (runs[k].output && diag_format() != DIAG_FORMAT_JSON)
                    fputs(runs[k].output, stderr);
                else if (runs[k].output && runs[k].output[0])
                    diag_warning(src_none, "the C compiler's output:\n%s", runs[k].output);
            if (cache_entry && chmod(bin, 0700) != 0)
                diag_error(src_none, "cannot set the mode of '%s': %s", bin,
                           strerror(errno));
            else if (rename(bin, out_path) == 0)
                ok = 1;
            else
                diag_error(src_none, "cannot write '%s': %s", out_path,
                           strerror(errno));
        } else {
            keep_c = report_cc_failure(&runs[bad], cmds[bad].argv[0], cmds[bad].shown);
        }
        for (int k = 0; k < ncmd; k++) {
            free(runs[k].output);
            cc_command_free(&cmds[k]);
        }
        free(cmds);
        free(runs);
    }
    unlink(bin);
    outfile_untrack(bin);
    for (int k = 0; k < nfiles; k++) {
        unlink(o_path[k]);
        outfile_untrack(o_path[k]);
        if (keep_c) {
            outfile_untrack(c_path[k]);     /* the report names it: kept */
        } else {
            unlink(c_path[k]);
            outfile_untrack(c_path[k]);
        }
        free(c_path[k]);
        free(o_path[k]);
    }
    if (keep_c) {
        outfile_untrack(dir);
    } else {
        rmdir(dir);
        outfile_untrack(dir);
    }
    free(c_path);
    free(o_path);
    free(bin);
    free(dir);
    if (units)
        cg_units_free(units, nunits);
out:
    {
        int sig = pending_interrupt(&set);
        if (sig)
            die_of(sig, NULL, 0, &old);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    return ok ? 0 : -1;
}

int build_executable(const char *c_text, const char *out_path)
{
    return build_into(c_text, out_path, 0, BUILD_SIMULATOR);
}

int build_shared_object(const char *c_text, const char *out_path)
{
    return build_into(c_text, out_path, 0, BUILD_SHARED);
}

/* ---- the cache ---------------------------------------------------------------------- */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* Drops what names the same directory at the end of a path: trailing
   slashes and "/." ("cache/", "cache/."), so that the last component is
   the directory's own name.  With them, the system follows a link named
   by the component before ("link/" is where the link points), and the
   checks below would see the link's target instead of the link. */
static void trim_dir_path(char *path)
{
    size_t n = strlen(path);
    for (;;) {
        if (n > 1 && path[n - 1] == '/')
            n--;
        else if (n > 2 && path[n - 1] == '.' && path[n - 2] == '/')
            n -= 2;
        else if (n == 2 && path[0] == '.' && path[1] == '/')
            n = 1;
        else
            break;
    }
    path[n] = 0;
}

/* The cache directory must be a directory of the user's alone: anyone
   who can write it can replace a simulator that `run` will execute.  It
   is opened without following a link in its last component, and the
   checks read the open directory (fstat), not its name again. */
static int check_cache_dir(const char *dir, const char *origin)
{
    struct stat st;
    const char *fix = "set LMDL_CACHE to a directory of your own (it is "
                      "created with mode 0700)";
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int err = errno;
    if (fd >= 0) {
        int bad = fstat(fd, &st) != 0;
        err = errno;
        close(fd);
        if (bad) {
            diag_error(src_none, "cannot use the cache directory '%s' (%s): %s; %s", dir,
                       origin, strerror(err), fix);
            return -1;
        }
    } else if (lstat(dir, &st) != 0 || !(S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode))) {
        /* why it cannot be opened: missing, no permission, ... */
        diag_error(src_none, "cannot use the cache directory '%s' (%s): %s; %s", dir, origin,
                   strerror(err), fix);
        return -1;
    }
    if (S_ISLNK(st.st_mode)) {
        diag_error(src_none, "refusing the cache directory '%s' (%s): it is a "
                   "symbolic link, and lmdlc runs programs from its cache only "
                   "from a real directory; remove the link, or %s", dir, origin,
                   fix);
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        diag_error(src_none, "refusing the cache directory '%s' (%s): it is not "
                   "a directory; remove it, or %s", dir, origin, fix);
        return -1;
    }
    if (st.st_uid != geteuid()) {
        diag_error(src_none, "refusing the cache directory '%s' (%s): it belongs "
                   "to user id %ld, not to you (%ld), and its owner could replace "
                   "the simulators lmdlc runs; remove it, or %s", dir, origin,
                   (long)st.st_uid, (long)geteuid(), fix);
        return -1;
    }
    if (st.st_mode & (S_IWGRP | S_IWOTH)) {
        diag_error(src_none, "refusing the cache directory '%s' (%s): it is "
                   "writable by %s (mode %04o), who could replace the "
                   "simulators lmdlc runs; run 'chmod go-w %s', or %s", dir, origin,
                   st.st_mode & S_IWOTH ? "everyone" : "its group",
                   (unsigned)(st.st_mode & 07777), dir, fix);
        return -1;
    }
    return 0;
}

/* The cache directory, created (each missing level 0700) and checked;
   NULL after a report. */
static char *cache_dir(void)
{
    const char *e = getenv("LMDL_CACHE");
    const char *origin;
    char buf[4096];
    if (e && *e) {
        snprintf(buf, sizeof buf, "%s", e);
        origin = "from LMDL_CACHE";
    } else if ((e = getenv("XDG_CACHE_HOME")) && *e) {
        snprintf(buf, sizeof buf, "%s/lmdl", e);
        origin = "from XDG_CACHE_HOME";
    } else if ((e = getenv("HOME")) && *e) {
        snprintf(buf, sizeof buf, "%s/.cache/lmdl", e);
        origin = "from HOME";
    } else {
        snprintf(buf, sizeof buf, "/tmp/lmdl-cache-%ld", (long)geteuid());
        origin = "the default without HOME";
    }
    trim_dir_path(buf);
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/' && p[-1] != '/') {
            *p = 0;
            if (mkdir(buf, 0700) != 0 && errno != EEXIST) {
                diag_error(src_none, "cannot create the cache directory '%s': %s; "
                           "set LMDL_CACHE to a directory of your own", buf,
                           strerror(errno));
                return NULL;
            }
            *p = '/';
        }
    }
    if (mkdir(buf, 0700) != 0 && errno != EEXIST) {
        diag_error(src_none, "cannot create the cache directory '%s': %s; set "
                   "LMDL_CACHE to a directory of your own", buf, strerror(errno));
        return NULL;
    }
    if (check_cache_dir(buf, origin) != 0)
        return NULL;
    char *dir = strdup(buf);
    if (!dir)
        abort();
    return dir;
}

#ifdef __ELF__
/* Whether the n bytes at off lie within a file of `size` bytes. */
static bool within(uint64_t off, uint64_t n, uint64_t size)
{
    return off <= size && n <= size - off;
}

/* Whether the open file fd of `size` bytes is a whole ELF executable of
   this machine's class and byte order: its header, the program header
   table, every segment's bytes and the section header table (which the
   linker writes last) all lie within the file.  A simulator cut short (a
   full disk, a crash while it was copied) fails here instead of dying
   of SIGSEGV at every run; reading the headers costs a few kilobytes. */
static bool elf_intact(int fd, uint64_t size)
{
    const uint16_t one = 1;
    const int little = *(const unsigned char *)&one == 1;
    ElfW(Ehdr) eh;
    if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh
        || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0
        || eh.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32)
        || eh.e_ident[EI_DATA] != (little ? ELFDATA2LSB : ELFDATA2MSB)
        || (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)
        || eh.e_phentsize != sizeof(ElfW(Phdr)) || eh.e_phnum == 0
        || !within(eh.e_phoff, (uint64_t)eh.e_phnum * eh.e_phentsize, size)
        || (eh.e_shnum > 0
            && !within(eh.e_shoff, (uint64_t)eh.e_shnum * eh.e_shentsize, size)))
        return false;
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        ElfW(Phdr) ph;
        if (pread(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + (uint64_t)i * sizeof ph))
                != (ssize_t)sizeof ph
            || !within(ph.p_offset, ph.p_filesz, size))
            return false;
    }
    return true;
}
#endif

/* A cached simulator, opened: 1 usable (*fd open on it, close-on-exec),
   0 absent, -1 present but not to be run (not a regular file, someone
   else's, writable by others, not executable, or not a whole executable:
   elf_intact).  Every check is made on the open descriptor, and the
   descriptor is what runs (fexecve): a file put in the entry's place
   after the checks is never executed. */
static int open_cached_sim(const char *sim, int *fd)
{
    *fd = open(sim, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (*fd < 0)
        return errno == ENOENT ? 0 : -1;
    struct stat st;
    bool good = fstat(*fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid()
                && !(st.st_mode & (S_IWGRP | S_IWOTH)) && (st.st_mode & S_IXUSR);
#ifdef __ELF__
    good = good && elf_intact(*fd, (uint64_t)st.st_size);
#endif
    if (!good) {
        close(*fd);
        *fd = -1;
        return -1;
    }
    return 1;
}

/* Removes a bad cache entry; a directory that is not empty is moved
   aside, since removing a tree lmdlc did not make is not its business. */
static int remove_entry(const char *sim)
{
    struct stat st;
    if (lstat(sim, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    if (!S_ISDIR(st.st_mode))
        return unlink(sim);
    if (rmdir(sim) == 0)
        return 0;
    size_t n = strlen(sim) + 32;
    char *aside = malloc(n);
    if (!aside)
        abort();
    snprintf(aside, n, "%s.stale-%ld", sim, (long)getpid());
    int rc = rename(sim, aside);
    free(aside);
    return rc;
}

int build_run(const char *c_text, const char *model, int argc, char **argv)
{
    /* the key: generated C, compiler command, runtime library identity */
    uint64_t h = 14695981039346656037ull;
    h = fnv(h, c_text, strlen(c_text));
    const char *cc = getenv("CC");
    h = fnv(h, cc ? cc : "cc", strlen(cc ? cc : "cc"));
    struct stat st;
    if (stat(runtime_lib(), &st) == 0) {
        h = fnv(h, &st.st_size, sizeof st.st_size);
        h = fnv(h, &st.st_mtime, sizeof st.st_mtime);
    }
    h = fnv(h, runtime_lib(), strlen(runtime_lib()));
    h = fnv(h, LMDL_SIM_FLAGS, strlen(LMDL_SIM_FLAGS));
    char *dir = cache_dir();
    if (!dir)
        return -1;
    size_t n = strlen(dir) + 64;
    char *sim = malloc(n);
    if (!sim)
        abort();
    snprintf(sim, n, "%s/sim-%016llx", dir, (unsigned long long)h);
    free(dir);
    /* the simulator names itself after the model in its messages, and
       never writes a file the model was read from (--input, for every
       file lmdlc loaded: the model, its imports, library files) */
    int nsrc = src_count();
    char **args = calloc((size_t)argc + 2 * (size_t)nsrc + 2, sizeof *args);
    if (!args)
        abort();
    int na = 0;
    args[na++] = (char *)model;
    for (int i = 0; i < nsrc; i++) {
        args[na++] = "--input";
        args[na++] = (char *)src_get(i)->path;
    }
    for (int i = 1; i < argc; i++)
        args[na++] = argv[i];
    args[na] = NULL;
    argv = args;
    for (int attempt = 0; attempt < 2; attempt++) {
        int fd;
        int state = open_cached_sim(sim, &fd);
        if (state < 0 && remove_entry(sim) != 0) {
            diag_error(src_none, "cannot replace the broken cache entry '%s': %s; "
                       "remove it", sim, strerror(errno));
            break;
        }
        if (state <= 0) {
            if (build_into(c_text, sim, 1, BUILD_SIMULATOR) != 0)
                break;
            if (open_cached_sim(sim, &fd) != 1) {
                diag_error(src_none, "the simulator just built in the cache, '%s', "
                           "is not a whole executable of this user's; is the cache "
                           "directory shared?", sim);
                break;
            }
        }
        fflush(stdout);
        diag_flush();
        fflush(stderr);
        fexecve(fd, args, environ);
        int err = errno;
        close(fd);
        if (state == 1 && attempt == 0) {
            /* a cached entry that does not run (garbage, a missing
               interpreter, ...) is rebuilt once */
            if (remove_entry(sim) == 0)
                continue;
        }
        diag_error(src_none, "cannot run the simulator %s: %s", sim, strerror(err));
        break;
    }
    free(sim);
    free(args);
    return -1;
}
