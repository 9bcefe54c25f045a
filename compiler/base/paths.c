/*
 * paths.c - finding the standard library and the runtime: the
 * environment, an installed tree found from lmdlc's own executable, or the
 * build tree (paths.h).
 *
 * The installed layout is decided once, on first use.  lmdlc's executable
 * is read from /proc/self/exe (the kernel's answer, immune to how lmdlc was
 * started), or else from argv[0] looked up like execvp does.  A build-tree
 * lmdlc (its directory is the build directory) keeps the compiled-in paths
 * into the source and build trees.  Any other lmdlc in a directory
 * PREFIX/bin uses PREFIX/share/lmdl/library etc. when they are there and
 * pass the ownership check, and says why when they do not.
 */
/* realpath() and S_ISVTX are XSI, beyond the project's POSIX baseline. */
#define _XOPEN_SOURCE 700

#include "paths.h"

#include "diag.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *argv0;

void paths_set_argv0(const char *a)
{
    argv0 = a;
}

/* Accepts a regular executable file. */
static bool is_executable(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

int paths_resolve_argv0(const char *a, const char *path_env, char *out, size_t n)
{
    if (!a || !*a || n < PATH_MAX)
        return -1;
    if (strchr(a, '/'))
        return is_executable(a) && realpath(a, out) ? 0 : -1;
    /* each entry of $PATH; an empty one is the current directory */
    const char *p = path_env && *path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
    for (;;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        char cand[PATH_MAX];
        int k = len ? snprintf(cand, sizeof cand, "%.*s/%s", (int)len, p, a)
                    : snprintf(cand, sizeof cand, "./%s", a);
        if (k > 0 && (size_t)k < sizeof cand && is_executable(cand) && realpath(cand, out))
            return 0;
        if (!colon)
            return -1;
        p = colon + 1;
    }
}

/* The absolute, symlink-free path of this executable, or false. */
static bool exe_path(char out[PATH_MAX])
{
    char link[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", link, sizeof link - 1);
    if (k > 0) {
        link[k] = 0;
        if (realpath(link, out))
            return true;
    }
    return paths_resolve_argv0(argv0, getenv("PATH"), out, PATH_MAX) == 0;
}

/* ---- the ownership check ------------------------------------------------- */

/* Why `path` may not be trusted, or NULL: it must belong to root or to us
   and be writable by no one else.  A sticky directory (like /tmp) is
   allowed above the tree (`ancestor`), where others cannot rename what is
   ours. */
static const char *untrusted(const char *path, bool ancestor, char *why, size_t n)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        snprintf(why, n, "%s: %s", path, strerror(errno));
        return why;
    }
    if (st.st_uid != 0 && st.st_uid != geteuid()) {
        snprintf(why, n, "%s belongs to user %ld, not to root or to you", path,
                 (long)st.st_uid);
        return why;
    }
    if ((st.st_mode & (S_IWGRP | S_IWOTH))
        && !(ancestor && S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX))) {
        snprintf(why, n, "%s is writable by others (mode %04o)", path,
                 (unsigned)(st.st_mode & 07777));
        return why;
    }
    return NULL;
}

/* Every directory from / down to the parent of `path` (symlink-free). */
static const char *untrusted_ancestors(const char *path, char *why, size_t n)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; (s = strchr(s, '/')); s++) {
        *s = 0;
        const char *w = untrusted(p, true, why, n);
        *s = '/';
        if (w)
            return w;
    }
    return untrusted("/", true, why, n);
}

/* `path` and everything under it.  A symbolic link (whose own mode means
   nothing) is judged by what it points to, and everything above that. */
static const char *untrusted_tree(const char *path, char *why, size_t n, int depth)
{
    if (depth > 16) {
        snprintf(why, n, "%s is nested too deeply", path);
        return why;
    }
    struct stat st;
    if (lstat(path, &st) != 0) {
        snprintf(why, n, "%s: %s", path, strerror(errno));
        return why;
    }
    if (S_ISLNK(st.st_mode)) {
        char real[PATH_MAX];
        if (!realpath(path, real)) {
            snprintf(why, n, "%s: %s", path, strerror(errno));
            return why;
        }
        const char *w = untrusted_ancestors(real, why, n);
        return w ? w : untrusted_tree(real, why, n, depth + 1);
    }
    const char *w = untrusted(path, false, why, n);
    if (w)
        return w;
    if (!S_ISDIR(st.st_mode))
        return NULL;
    DIR *d = opendir(path);
    if (!d) {
        snprintf(why, n, "%s: %s", path, strerror(errno));
        return why;
    }
    for (struct dirent *e; !w && (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char sub[PATH_MAX];
        if (snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) >= (int)sizeof sub) {
            snprintf(why, n, "a path under %s is too long", path);
            w = why;
        } else {
            w = untrusted_tree(sub, why, n, depth + 1);
        }
    }
    closedir(d);
    return w;
}

/* ---- the installed layout -------------------------------------------------- */

typedef struct Layout {
    bool installed;             /* use the paths below */
    char stdlib[PATH_MAX];      /* PREFIX/share/lmdl/library */
    char lib[PATH_MAX];         /* PREFIX/lib/liblmdl_rt.a */
    char include[PATH_MAX];     /* PREFIX/include/lmdl */
    char pic_lib[PATH_MAX];     /* PREFIX/lib/liblmdl_rt_pic.a (FMUs) */
    char fmu_src[PATH_MAX];     /* PREFIX/share/lmdl/runtime (FMU sources) */
} Layout;

static bool same_dir(const char *a, const char *b)
{
    char ra[PATH_MAX], rb[PATH_MAX];
    return realpath(a, ra) && realpath(b, rb) && strcmp(ra, rb) == 0;
}

/* out = prefix/rel ("" is the root); false when it does not fit. */
static bool under(char out[PATH_MAX], const char *prefix, const char *rel)
{
    int k = snprintf(out, PATH_MAX, "%s/%s", prefix, rel);
    return k > 0 && k < PATH_MAX;
}

static void find_layout(Layout *l)
{
    char exe[PATH_MAX];
    if (!exe_path(exe))
        return;
    char *slash = strrchr(exe, '/');
    *slash = 0;                                 /* exe is now its directory */
    if (same_dir(exe, LMDL_BUILD_DIR))
        return;                                 /* a build-tree lmdlc */
    slash = strrchr(exe, '/');
    if (!slash || strcmp(slash + 1, LMDL_INSTALL_BINDIR) != 0)
        return;                                 /* not PREFIX/bin */
    *slash = 0;                                 /* exe is now PREFIX */
    const char *prefix = *exe ? exe : "/";
    if (!under(l->stdlib, exe, LMDL_INSTALL_STDLIBDIR)
        || !under(l->lib, exe, LMDL_INSTALL_LIBDIR "/" LMDL_RT_LIB_NAME)
        || !under(l->include, exe, LMDL_INSTALL_INCLUDEDIR)
        || !under(l->pic_lib, exe, LMDL_INSTALL_LIBDIR "/" LMDL_RT_PIC_LIB_NAME)
        || !under(l->fmu_src, exe, LMDL_INSTALL_FMUSRCDIR))
        return;                                 /* a path too long to use */
    struct stat st;
    if (stat(l->stdlib, &st) != 0 || !S_ISDIR(st.st_mode))
        return;                                 /* a lone copy of lmdlc */
    /* Each part, resolved, then checked with everything above it. */
    const char *parts[] = {l->stdlib, l->lib, l->include, l->pic_lib, l->fmu_src};
    char why[PATH_MAX + 128];
    for (int i = 0; i < 5; i++) {
        char real[PATH_MAX];
        const char *w = NULL;
        if (!realpath(parts[i], real)) {
            snprintf(why, sizeof why, "%s: %s", parts[i], strerror(errno));
            w = why;
        } else {
            w = untrusted_ancestors(real, why, sizeof why);
            if (!w)
                w = untrusted_tree(real, why, sizeof why, 0);
        }
        if (w) {
            diag_warning(src_none, "not using the lmdl installation in %s: %s "
                         "(its files must belong to root or to you and be "
                         "writable by no one else)", prefix, w);
            return;
        }
    }
    l->installed = true;
}

static const Layout *layout(void)
{
    static Layout l;
    static bool done;
    if (!done) {
        done = true;
        find_layout(&l);
    }
    return &l;
}

static const char *from_env(const char *name)
{
    const char *e = getenv(name);
    return e && *e ? e : NULL;
}

const char *paths_stdlib_dir(void)
{
    const char *e = from_env("LMDL_STDLIB");
    return e ? e : layout()->installed ? layout()->stdlib : LMDL_STDLIB_DIR;
}

const char *paths_runtime_lib(void)
{
    const char *e = from_env("LMDL_RUNTIME_LIB");
    return e ? e : layout()->installed ? layout()->lib : LMDL_RT_LIB;
}

const char *paths_runtime_include(void)
{
    const char *e = from_env("LMDL_RUNTIME_INCLUDE");
    return e ? e : layout()->installed ? layout()->include : LMDL_RT_INCLUDE;
}

const char *paths_below(const char *path, const char *dir)
{
    size_t n = dir ? strlen(dir) : 0;
    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (n && strncmp(path, dir, n) == 0 && path[n] == '/')
        return path + n + 1;
    return NULL;
}

const char *paths_runtime_pic_lib(void)
{
    const char *e = from_env("LMDL_RUNTIME_PIC_LIB");
    return e ? e : layout()->installed ? layout()->pic_lib : LMDL_RT_PIC_LIB;
}

const char *paths_fmu_sources_dir(void)
{
    const char *e = from_env("LMDL_FMU_SOURCES");
    return e ? e : layout()->installed ? layout()->fmu_src : LMDL_RT_INCLUDE;
}

/* The last part of a path held in buf ("" for "/"). */
static char *last_part(char *buf)
{
    char *slash = strrchr(buf, '/');
    return slash ? slash + 1 : buf;
}

/* Walks up from the +package folder d (malloc'ed, modified) to the
   folder above the outermost one; NULL when a relative d is packages all
   the way up, or up to "." or "..", whose names say nothing (ask
   realpath). */
static char *walk_up(char *d)
{
    for (;;) {
        char *part = last_part(d);
        if (!strcmp(part, ".") || !strcmp(part, "..")) {
            free(d);                /* "./+b": is "." a package too? */
            return NULL;
        }
        if (part[0] != '+')
            return d;
        if (part == d) {            /* relative, and "+a" is its first part */
            free(d);
            return NULL;
        }
        if (part - 1 == d) {        /* "/+a": the root */
            d[1] = 0;
            return d;
        }
        part[-1] = 0;
    }
}

char *paths_package_root(const char *dir)
{
    char *d = strdup(dir);
    if (!d)
        abort();
    size_t n = strlen(d);
    while (n > 1 && d[n - 1] == '/')
        d[--n] = 0;
    if (last_part(d)[0] == '+') {
        char *root = walk_up(d);
        if (root)
            return root;
    } else {
        free(d);
    }
    /* "." or "+b" inside a package, "sub/..": the real path says */
    char *abs = realpath(dir, NULL);
    if (!abs || last_part(abs)[0] != '+') {
        free(abs);
        return NULL;
    }
    return walk_up(abs);
}
