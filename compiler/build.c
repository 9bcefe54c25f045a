/*
 * build.c - runs the C compiler on generated code, and the cache of
 * simulators behind `lmdlc run`.
 *
 * Every process is started with posix_spawnp or execv and an argument
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
 * link) owned by the user and writable by no one else, and a cached
 * simulator only when it is a regular file of the user's that no one
 * else can write; a bad or broken entry is rebuilt.
 */
#include "build.h"

#include "diag.h"
#include "outfile.h"
#include "paths.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/* Large generated files are compiled at -O1: gcc's -O2 costs about twice
   as much on long straight-line code and gains little there
   (docs/performance.md). */
enum { BIG_C_FILE = 1 << 20 };

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

/* The compiler command: $CC split on blanks, then our arguments. */
typedef struct CcCommand {
    char **argv;            /* NULL-terminated */
    char *cc_words;         /* storage for $CC's words */
    char *flag_words;       /* storage for LMDL_SIM_FLAGS' words */
    char *c_arg, *out_arg;  /* dash_safe storage */
} CcCommand;

static void cc_command(CcCommand *c, const char *c_path, const char *out_path,
                       size_t c_size, BuildKind kind)
{
    const char *cc = getenv("CC");
    if (!cc || !*cc)
        cc = "cc";
    c->cc_words = strdup(cc);
    c->flag_words = strdup(LMDL_SIM_FLAGS);
    enum { NLIBS = sizeof sim_libs / sizeof sim_libs[0] };
    c->argv = calloc(64 + NLIBS, sizeof *c->argv);
    if (!c->cc_words || !c->flag_words || !c->argv)
        abort();
    int n = 0;
    for (char *save = NULL, *w = strtok_r(c->cc_words, " \t", &save); w && n < 40;
         w = strtok_r(NULL, " \t", &save))
        c->argv[n++] = w;
    if (n == 0)
        c->argv[n++] = "cc";
    const char *common[] = {c_size > BIG_C_FILE ? "-O1" : "-O2", "-o",
                            dash_safe(out_path, &c->out_arg), dash_safe(c_path, &c->c_arg),
                            "-I", runtime_include(), NULL};
    const char *sim[] = {runtime_lib(), NULL};
    /* An FMU: position-independent, exporting its fmi2 functions only
       (runtime/fmi/lmdl_fmi2.h).  The model's C calls none of the FMI
       layer, so the whole archive goes in; SUNDIALS, KLU and GSL are the
       shared libraries (Debian's static archives are not
       position-independent), which the importing machine needs
       (docs/fmi.md). */
    const char *so[] = {"-shared", "-fPIC", "-fvisibility=hidden", "-Wl,--no-undefined",
                        "-Wl,--whole-archive", paths_runtime_pic_lib(),
                        "-Wl,--no-whole-archive", "-lsundials_cvode",
                        "-lsundials_nvecserial", "-lsundials_sunmatrixsparse",
                        "-lsundials_sunmatrixdense", "-lsundials_sunlinsolklu",
                        "-lsundials_sunlinsoldense", "-lklu", "-lgsl", "-lgslcblas",
                        "-lm", NULL};
    const char *const *parts[] = {common, kind == BUILD_SHARED ? so : sim};
    for (int k = 0; k < 2; k++)
        for (int i = 0; parts[k][i]; i++)
            c->argv[n++] = (char *)parts[k][i];
    if (kind != BUILD_SHARED)
        for (int i = 0; i < NLIBS; i++)
            c->argv[n++] = (char *)sim_libs[i];
    /* the build's own extra flags (sanitizers), word by word */
    for (char *save = NULL, *w = strtok_r(c->flag_words, " ", &save); w && n < 62 + NLIBS;
         w = strtok_r(NULL, " ", &save))
        c->argv[n++] = w;
    c->argv[n] = NULL;
}

static void cc_command_free(CcCommand *c)
{
    free(c->argv);
    free(c->cc_words);
    free(c->flag_words);
    free(c->c_arg);
    free(c->out_arg);
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

/* Dies of `sig` after stopping the compiler's process group `pg` (if
   any) and removing every temporary file. */
static void die_of(int sig, pid_t pg, const sigset_t *old)
{
    if (pg > 0) {
        kill(-pg, SIGTERM);
        siginfo_t info;
        /* up to 2 s for a clean exit; the leader stays a zombie (WNOWAIT)
           so the group id cannot be reused before the final SIGKILL */
        for (int i = 0; i < 200; i++) {
            memset(&info, 0, sizeof info);
            if (waitid(P_PID, (id_t)pg, &info, WEXITED | WNOHANG | WNOWAIT) == 0
                && info.si_pid == pg)
                break;
            pause_ms(10);
        }
        kill(-pg, SIGKILL);
        while (waitpid(pg, NULL, 0) < 0 && errno == EINTR)
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

/* Runs argv with its output captured, waiting for it while watching for
   an interrupt (the set is blocked by the caller; old is the mask to give
   the child and to restore before dying). */
static void cc_spawn(char **argv, CcRun *r, const sigset_t *set, const sigset_t *old)
{
    memset(r, 0, sizeof *r);
    r->output = malloc(CC_OUTPUT_MAX + 1);
    if (!r->output)
        abort();
    r->output[0] = 0;
    int fds[2];
    if (pipe(fds) != 0) {
        r->spawn_error = errno;
        return;
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
        int sig = pending_interrupt(set);
        if (sig)
            die_of(sig, 0, old);
        return;
    }
    /* After the compiler exits, its output is read for at most 1 s more:
       a process it left behind must not hold the build forever. */
    int fd = fds[0], done = 0, drain = 50;
    while (!done || (fd >= 0 && drain-- > 0)) {
        if (fd >= 0) {
            struct pollfd p = {fd, POLLIN, 0};
            if (poll(&p, 1, 20) > 0) {
                char buf[4096];
                ssize_t n = read(fd, buf, sizeof buf);
                if (n > 0) {
                    keep_output(r, buf, (size_t)n);
                } else if (n == 0 || errno != EINTR) {
                    close(fd);
                    fd = -1;
                }
            }
        } else {
            pause_ms(20);
        }
        int sig = pending_interrupt(set);
        if (sig) {
            if (fd >= 0)
                close(fd);
            die_of(sig, done ? 0 : pid, old);
        }
        if (!done && waitpid(pid, &r->status, WNOHANG) == pid)
            done = 1;
    }
    if (fd >= 0)
        close(fd);
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

/* Builds into out_path; a cache entry is made 0700, whatever the umask,
   so that it passes cached_sim_state. */
static int build_into(const char *c_text, const char *out_path, int cache_entry,
                      BuildKind kind)
{
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
    size_t n = strlen(dir) + 16;
    char *c_path = malloc(n), *bin = malloc(n);
    if (!c_path || !bin)
        abort();
    snprintf(c_path, n, "%s/model.c", dir);
    snprintf(bin, n, "%s/sim", dir);
    outfile_track(c_path);
    outfile_track(bin);
    size_t len = strlen(c_text);
    int fd = outfile_create(c_path);
    int err = fd < 0 ? errno : 0;
    if (fd >= 0) {
        FILE *fp = fdopen(fd, "w");
        if (!fp || fwrite(c_text, 1, len, fp) != len)
            err = errno ? errno : EIO;
        if (fp ? fclose(fp) != 0 : close(fd) != 0)
            err = err ? err : errno;
    }
    int keep_c = 0;
    if (err) {
        diag_error(src_none, "cannot write '%s': %s", c_path, strerror(err));
    } else {
        CcCommand cmd;
        cc_command(&cmd, c_path, bin, len, kind);
        CcRun r;
        cc_spawn(cmd.argv, &r, &set, &old);
        if (!r.spawn_error && WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0) {
            /* warnings, if the compiler had any */
            if (diag_format() != DIAG_FORMAT_JSON)
                fputs(r.output, stderr);
            else if (r.len)
                diag_warning(src_none, "the C compiler's output:\n%s", r.output);
            if (cache_entry && chmod(bin, 0700) != 0)
                diag_error(src_none, "cannot set the mode of '%s': %s", bin,
                           strerror(errno));
            else if (rename(bin, out_path) == 0)
                ok = 1;
            else
                diag_error(src_none, "cannot write '%s': %s", out_path,
                           strerror(errno));
        } else {
            keep_c = report_cc_failure(&r, cmd.argv[0], c_path);
        }
        free(r.output);
        cc_command_free(&cmd);
    }
    unlink(bin);
    outfile_untrack(bin);
    if (keep_c) {
        /* the report names the C file: keep it and its directory */
        outfile_untrack(c_path);
        outfile_untrack(dir);
    } else {
        unlink(c_path);
        outfile_untrack(c_path);
        rmdir(dir);
        outfile_untrack(dir);
    }
    free(c_path);
    free(bin);
    free(dir);
out:
    {
        int sig = pending_interrupt(&set);
        if (sig)
            die_of(sig, 0, &old);
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

/* The cache directory must be a directory of the user's alone: anyone
   who can write it can replace a simulator that `run` will execute. */
static int check_cache_dir(const char *dir, const char *origin)
{
    struct stat st;
    const char *fix = "set LMDL_CACHE to a directory of your own (it is "
                      "created with mode 0700)";
    if (lstat(dir, &st) != 0) {
        diag_error(src_none, "cannot use the cache directory '%s' (%s): %s; %s",
                   dir, origin, strerror(errno), fix);
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

/* A cached simulator: 1 usable, 0 absent, -1 present but not to be run
   (not a regular file, someone else's, writable by others, or not
   executable). */
static int cached_sim_state(const char *sim)
{
    struct stat st;
    if (lstat(sim, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    if (!S_ISREG(st.st_mode) || st.st_uid != geteuid()
        || (st.st_mode & (S_IWGRP | S_IWOTH)) || !(st.st_mode & S_IXUSR))
        return -1;
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
    /* the simulator names itself after the model in its messages */
    argv[0] = (char *)model;
    (void)argc;
    for (int attempt = 0; attempt < 2; attempt++) {
        int state = cached_sim_state(sim);
        if (state < 0 && remove_entry(sim) != 0) {
            diag_error(src_none, "cannot replace the broken cache entry '%s': %s; "
                       "remove it", sim, strerror(errno));
            break;
        }
        if (state <= 0 && build_into(c_text, sim, 1, BUILD_SIMULATOR) != 0)
            break;
        fflush(stdout);
        diag_flush();
        fflush(stderr);
        execv(sim, argv);
        int err = errno;
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
    return -1;
}
