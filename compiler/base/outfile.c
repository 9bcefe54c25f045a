/*
 * outfile.c - the files lmdlc writes (see outfile.h for the approach).
 *
 * The old way, fopen(path ".tmpPID", "w"), followed a symbolic link that
 * another user had planted at that name for the next PIDs, and wrote
 * generated C through it into any file the victim could write.  mkstemp
 * picks an unpredictable name and creates it with O_EXCL, which fails
 * rather than follow a link; rename then replaces the target's directory
 * entry, never a file a link at the target points to.  The file is
 * flushed to the disk (fsync) before the rename, so a full disk or a
 * failing device is reported and the old file kept, and a crash never
 * leaves a half-written file under the target's name.
 */
#include "outfile.h"

#include "diag.h"
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- temporary names, for cleanup after an interrupt ---------------------- */

/* As many as a build makes (a C file and an object per translation
   unit), so the array grows. */
static char **tracked;
static int ntracked;

void outfile_track(const char *path)
{
    for (int i = 0; i < ntracked; i++) {
        if (!tracked[i]) {
            tracked[i] = strdup(path);
            return;
        }
    }
    int n = ntracked ? 2 * ntracked : 16;
    char **t = realloc(tracked, sizeof *t * (size_t)n);
    if (!t)
        abort();
    for (int i = ntracked; i < n; i++)
        t[i] = NULL;
    tracked = t;
    tracked[ntracked] = strdup(path);
    ntracked = n;
}

void outfile_untrack(const char *path)
{
    for (int i = 0; i < ntracked; i++) {
        if (tracked[i] && strcmp(tracked[i], path) == 0) {
            free(tracked[i]);
            tracked[i] = NULL;
            return;
        }
    }
}

void outfile_cleanup(void)
{
    for (int i = ntracked - 1; i >= 0; i--) {
        if (!tracked[i])
            continue;
        struct stat st;
        if (lstat(tracked[i], &st) == 0)
            (void)(S_ISDIR(st.st_mode) ? rmdir(tracked[i]) : unlink(tracked[i]));
        free(tracked[i]);
        tracked[i] = NULL;
    }
}

/* ---- creating files ----------------------------------------------------------- */

/* "DIR/.BASE.SUFFIX" next to path, where DIR is path's directory ("."
   when it has none), so the name cannot begin with '-'. */
static char *sibling(const char *path, const char *suffix)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    int dirlen = slash ? (int)(slash - path) : 1;
    const char *dir = slash ? path : ".";
    if (slash == path)
        dirlen = 0;     /* "/x": the root directory */
    size_t n = (size_t)dirlen + strlen(base) + strlen(suffix) + 4;
    char *s = malloc(n);
    if (!s)
        abort();
    snprintf(s, n, "%.*s/.%s%s", dirlen, dir, base, suffix);
    return s;
}

static int write_all(int fd, const char *text, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, text, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return -1;
        }
        text += n;
        len -= (size_t)n;
    }
    return 0;
}

int outfile_begin(const char *path, char **tmp)
{
    *tmp = sibling(path, ".XXXXXX");
    int fd = mkstemp(*tmp);
    if (fd < 0) {
        int err = errno;
        free(*tmp);
        *tmp = NULL;
        errno = err;
        return -1;
    }
    outfile_track(*tmp);
    return fd;
}

int outfile_finish(int fd, char *tmp, const char *path, bool keep)
{
    /* mkstemp makes 0600; an output gets what open(..., 0666) would */
    mode_t mask = umask(0);
    umask(mask);
    int err = keep ? 0 : ECANCELED;
    if (!err && fchmod(fd, 0666 & ~mask) != 0)
        err = errno;
    if (!err && fsync(fd) != 0)
        err = errno;
    if (close(fd) != 0 && !err)
        err = errno;
    if (!err && rename(tmp, path) != 0)
        err = errno;
    if (err)
        unlink(tmp);
    outfile_untrack(tmp);
    free(tmp);
    errno = err;
    return err ? -1 : 0;
}

bool outfile_special(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

int outfile_write(const char *path, const char *text, size_t len)
{
    if (outfile_special(path)) {
        /* a device or a pipe (-o /dev/null, /dev/stdout) is written, not
           replaced: a rename would put a file in its place */
        int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd < 0)
            return -1;
        int rc = write_all(fd, text, len);
        int err = errno;
        if (close(fd) != 0 && rc == 0)
            return -1;
        errno = err;
        return rc;
    }
    char *tmp;
    int fd = outfile_begin(path, &tmp);
    if (fd < 0)
        return -1;
    if (write_all(fd, text, len) != 0) {
        int err = errno;
        outfile_finish(fd, tmp, path, false);
        errno = err;
        return -1;
    }
    return outfile_finish(fd, tmp, path, true);
}

int outfile_create(const char *path)
{
    return open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
}

char *outfile_private_dir(const char *near)
{
    char *dir = sibling(near, ".lmdlc-XXXXXX");
    if (!mkdtemp(dir)) {
        int err = errno;
        free(dir);
        errno = err;
        return NULL;
    }
    outfile_track(dir);
    return dir;
}

/* ---- outputs that are inputs ---------------------------------------------- */

bool outfile_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (strcmp(a, b) == 0)
        return true;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev
           && sa.st_ino == sb.st_ino;
}

bool outfile_is_input(const char *path)
{
    for (int i = 0; i < src_count(); i++) {
        SrcFile *f = src_get(i);
        if (outfile_same_file(f->path, path)) {
            if (strcmp(f->path, path) == 0)
                diag_error(src_none, "refusing to write '%s': it is an input of "
                           "this model; choose another output file", path);
            else
                diag_error(src_none, "refusing to write '%s': it is the input %s "
                           "(the same file through a link); choose another output "
                           "file", path, f->path);
            return true;
        }
    }
    return false;
}

FILE *outfile_null(void)
{
    int fd = open("/dev/null", O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    FILE *fp = fdopen(fd, "w");
    if (!fp)
        close(fd);
    return fp;
}
