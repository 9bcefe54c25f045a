/*
 * build.c - runs the C compiler on generated code, and the cache of
 * simulators behind `lmdlc run`.
 *
 * Every process is started with posix_spawnp or execv and an argument
 * vector; no model text, path or name ever reaches a shell.  A failure of
 * the C compiler on code lmdlc generated is a bug in lmdlc, and is
 * reported as one, with the C file kept for the report.
 */
#include "build.h"

#include "codegen.h"
#include "diag.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *runtime_lib(void)
{
    const char *e = getenv("LMDL_RUNTIME_LIB");
    return e && *e ? e : LMDL_RT_LIB;
}

static const char *runtime_include(void)
{
    const char *e = getenv("LMDL_RUNTIME_INCLUDE");
    return e && *e ? e : LMDL_RT_INCLUDE;
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

/* The compiler command: $CC split on blanks, then our arguments. */
/* Large generated files are compiled at -O1: gcc's -O2 costs about twice
   as much on long straight-line code and gains little there
   (docs/performance.md). */
enum { BIG_C_FILE = 1 << 20 };

static char **compile_argv(const char *c_path, const char *out_path, char **storage,
                           char **flag_storage)
{
    const char *cc = getenv("CC");
    if (!cc || !*cc)
        cc = "cc";
    *storage = strdup(cc);
    if (!*storage)
        abort();
    char **argv = calloc(64 + sizeof sim_libs / sizeof sim_libs[0], sizeof *argv);
    if (!argv)
        abort();
    int n = 0;
    for (char *save = NULL, *w = strtok_r(*storage, " \t", &save); w && n < 40;
         w = strtok_r(NULL, " \t", &save))
        argv[n++] = w;
    struct stat st;
    const char *opt = stat(c_path, &st) == 0 && st.st_size > BIG_C_FILE ? "-O1" : "-O2";
    const char *rest[] = {opt, "-o", out_path, c_path, "-I", runtime_include(),
                          runtime_lib(), NULL};
    for (int i = 0; rest[i]; i++)
        argv[n++] = (char *)rest[i];
    for (size_t i = 0; i < sizeof sim_libs / sizeof sim_libs[0]; i++)
        argv[n++] = (char *)sim_libs[i];
    /* the build's own extra flags (sanitizers), word by word */
    *flag_storage = strdup(LMDL_SIM_FLAGS);
    if (!*flag_storage)
        abort();
    for (char *save = NULL, *w = strtok_r(*flag_storage, " ", &save); w && n < 60;
         w = strtok_r(NULL, " ", &save))
        argv[n++] = w;
    argv[n] = NULL;
    return argv;
}

int build_compile(const char *c_path, const char *out_path)
{
    char *storage, *flag_storage;
    char **argv = compile_argv(c_path, out_path, &storage, &flag_storage);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
    int status = 0;
    if (rc == 0) {
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    }
    int ok = rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (rc != 0)
        diag_error(src_none, "cannot start the C compiler '%s': %s (set CC to choose "
                   "another)", argv[0], strerror(rc));
    else if (!ok)
        diag_error(src_none, "the C compiler failed on the code lmdlc generated; this "
                   "is a bug in lmdlc: please report it with the file %s", c_path);
    free(argv);
    free(storage);
    free(flag_storage);
    return ok ? 0 : -1;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 1099511628211ull;
    }
    return h;
}

static char *cache_dir(void)
{
    const char *e = getenv("LMDL_CACHE");
    char buf[4096];
    if (e && *e)
        snprintf(buf, sizeof buf, "%s", e);
    else if ((e = getenv("XDG_CACHE_HOME")) && *e)
        snprintf(buf, sizeof buf, "%s/lmdl", e);
    else if ((e = getenv("HOME")) && *e)
        snprintf(buf, sizeof buf, "%s/.cache/lmdl", e);
    else
        snprintf(buf, sizeof buf, "/tmp/lmdl-cache-%ld", (long)getuid());
    /* create each level */
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            mkdir(buf, 0700);
            *p = '/';
        }
    }
    mkdir(buf, 0700);
    return strdup(buf);
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
    size_t n = strlen(dir) + 64;
    char *sim = malloc(n), *csrc = malloc(n), *tmp = malloc(n);
    if (!sim || !csrc || !tmp)
        abort();
    snprintf(sim, n, "%s/sim-%016llx", dir, (unsigned long long)h);
    snprintf(csrc, n, "%s/sim-%016llx.c", dir, (unsigned long long)h);
    snprintf(tmp, n, "%s/sim-%016llx.%ld", dir, (unsigned long long)h, (long)getpid());
    if (access(sim, X_OK) != 0) {
        if (cg_write_file(csrc, c_text) != 0) {
            diag_error(src_none, "cannot write %s: %s", csrc, strerror(errno));
            return -1;
        }
        if (build_compile(csrc, tmp) != 0)
            return -1;
        if (rename(tmp, sim) != 0) {
            diag_error(src_none, "cannot write %s: %s", sim, strerror(errno));
            remove(tmp);
            return -1;
        }
    }
    /* the simulator names itself after the model in its messages */
    argv[0] = (char *)model;
    (void)argc;
    fflush(stdout);
    fflush(stderr);
    execv(sim, argv);
    diag_error(src_none, "cannot run the simulator %s: %s", sim, strerror(errno));
    return -1;
}
