/*
 * paths_argv0.c - paths_resolve_argv0, lmdlc's way to find its own
 * executable when /proc/self/exe cannot be read: a name with a '/' is a
 * path (relative to the current directory), a bare name is looked up in
 * $PATH like execvp does (an empty entry is the current directory), only
 * executable regular files count, and the answer is absolute with every
 * symbolic link resolved.  Exit 0 when every case holds.
 */
#define _XOPEN_SOURCE 700   /* realpath, mkdtemp */

#include "paths.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int failures;
static char dir[PATH_MAX], prog[PATH_MAX];

static void expect(const char *argv0, const char *path_env, const char *want)
{
    char out[PATH_MAX];
    int rc = paths_resolve_argv0(argv0, path_env, out, sizeof out);
    if (want ? rc != 0 || strcmp(out, want) != 0 : rc != -1) {
        printf("FAIL: argv0 '%s', PATH '%s': got %s, expected %s\n", argv0 ? argv0 : "(null)",
               path_env ? path_env : "(null)", rc ? "not found" : out, want ? want : "not found");
        failures++;
    }
}

static void make_file(const char *name, mode_t mode)
{
    char p[PATH_MAX + 16];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    int fd = open(p, O_CREAT | O_EXCL | O_WRONLY, mode);
    if (fd < 0 || write(fd, "#!/bin/sh\n", 10) != 10 || close(fd) != 0 || chmod(p, mode) != 0)
        abort();
}

int main(void)
{
    char tmpl[] = "/tmp/lmdl-argv0.XXXXXX";
    if (!mkdtemp(tmpl) || !realpath(tmpl, dir))
        abort();
    make_file("prog", 0755);
    make_file("plain", 0644);
    if (snprintf(prog, sizeof prog, "%s/prog", dir) >= (int)sizeof prog)
        abort();
    char link[PATH_MAX + 16], sub[PATH_MAX + 16];
    snprintf(link, sizeof link, "%s/link", dir);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    if (symlink("prog", link) != 0 || mkdir(sub, 0755) != 0)
        abort();
    char path_env[2 * PATH_MAX + 64];
    snprintf(path_env, sizeof path_env, "/nonexistent:%s/sub:%s", dir, dir);

    expect("prog", path_env, prog);             /* found on $PATH, in order */
    expect("link", path_env, prog);             /* the link resolved */
    expect("plain", path_env, NULL);            /* not executable */
    expect("sub", path_env, NULL);              /* a directory */
    expect("nope", path_env, NULL);
    expect(prog, "/nonexistent", prog);         /* an absolute path */
    expect(link, NULL, prog);
    if (chdir(sub) != 0)
        abort();
    expect("../prog", "/nonexistent", prog);    /* relative to the cwd */
    expect("./prog", "/nonexistent", NULL);
    if (chdir(dir) != 0)
        abort();
    expect("prog", "/nonexistent:", prog);      /* empty entry: the cwd */
    expect("prog", "/nonexistent", NULL);
    expect("", path_env, NULL);
    expect(NULL, path_env, NULL);

    unlink(link);
    snprintf(link, sizeof link, "%s/plain", dir);
    unlink(link);
    unlink(prog);
    rmdir(sub);
    rmdir(dir);
    if (failures)
        return 1;
    printf("ok\n");
    return 0;
}
