/*
 * rt_sidecar.c - RESULTS.meta beside the results file, and the atomic
 * replacement of such files (rt_sidecar.h).
 *
 * The results CSV stays plain (a header of names, then numbers), so that
 * every CSV reader keeps working; what a plot needs besides the numbers
 * goes into a second file named after it, RESULTS.meta (`-o out.csv`
 * writes `out.csv.meta`, as a sweep row's summary is `out.csv.summary`).
 * It is itself a CSV (RFC 4180, the quoting of rt_csv_record), one record
 * per line under the fixed header RT_META_HEADER:
 *
 *   record,name,unit,kind,description
 *   model,Wall,,,
 *   column,time,s,time,time
 *   column,mass.x,m,variable,position (alias of P.x)
 *   column,ma,1,output,mechanical advantage
 *   state,mass.x,m,state,
 *
 * `column` records follow the results file's header one for one (time
 * first, then the --vars selection, in its order), so a reader can check
 * that the sidecar belongs to the file beside it.  A unit is written as
 * rt_unit_format writes it ("N", "m/s^2", "1" when dimensionless, angles
 * included), and is empty when the model does not say (a hand-written
 * model without column_info).  `state` records name the model's states in
 * their order, with the unit of the column of the same name (empty for a
 * state that is no column, such as der(x) after index reduction).  Readers
 * must skip record kinds they do not know.
 *
 * Nothing is written when the results go to standard output or to
 * something that is not a regular file (/dev/null, a pipe).  The file is
 * written to a mkstemp name beside it, closed and renamed, so it is never
 * half written, and a symbolic link planted at its name is replaced, not
 * followed.  A write error (a full disk) shows at the writes or at the
 * close, both checked, and the old file stays.  It is not synced to the
 * disk: the results file it describes is not either (a run's files are as
 * durable as any program's output), and fsync cost a third of a
 * millisecond, a fifth of the start of a 100-lever simulator.  A file that
 * already holds the same text (the same model run again with the same
 * columns), as a regular file with one name and the mode a new one would
 * get, is left as it is: replacing it made the file system write and
 * discard blocks (another 0.2 ms).
 */
#include "rt_sidecar.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whether path is a regular file, not a link, with one name and the mode
   a new one would get, that holds exactly text[0 .. n). */
static int holds(const char *path, mode_t mode, const char *text, size_t n)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat st;
    int same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1
               && (st.st_mode & 07777) == mode && st.st_size >= 0 && (size_t)st.st_size == n;
    char buf[16384];
    for (size_t at = 0; same && at < n;) {
        size_t want = n - at < sizeof buf ? n - at : sizeof buf;
        ssize_t got = read(fd, buf, want);
        same = got > 0 && memcmp(buf, text + at, (size_t)got) == 0;
        at += got > 0 ? (size_t)got : 0;
    }
    close(fd);
    return same;
}

int rt_sidecar_replace(const char *path, void (*fill)(FILE *fp, const void *ctx),
                       const void *ctx)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return -1;
    fill(mem, ctx);
    if (fclose(mem) != 0) {
        int err = errno;
        free(text);
        errno = err;
        return -1;
    }
    /* the file gets what open(..., 0666) would */
    mode_t mask = umask(0);
    umask(mask);
    mode_t mode = 0666 & ~mask;
    /* the same file already there (a run again with the same columns):
       nothing to replace */
    if (holds(path, mode, text, len)) {
        free(text);
        return 0;
    }
    size_t n = strlen(path) + 8;
    char *tmp = rt_xcalloc(n, 1);
    snprintf(tmp, n, "%s.XXXXXX", path);
    int fd = mkstemp(tmp), err = 0;
    if (fd < 0) {
        err = errno;
    } else {
        /* mkstemp makes 0600; every byte written before the name
           changes: a full disk shows here or at the close, never as a
           short file under the name */
        err = fchmod(fd, mode) != 0 ? errno : rt_write_all(fd, text, len) ? errno : 0;
        if (close(fd) != 0 && !err)
            err = errno;
        if (!err && rename(tmp, path) != 0)
            err = errno;
        if (err)
            unlink(tmp);
    }
    free(tmp);
    free(text);
    errno = err;
    return err ? -1 : 0;
}

/* One record: five fields. */
static void record(FILE *fp, const char *kind, const char *name,
                   const char *unit, const char *what, const char *description)
{
    const char *fields[] = {kind, name, unit, what, description};
    rt_csv_record(fp, fields, 5);
}

/* The units of the columns: most columns share a few dimensions, each
   formatted once (a small cache, the oldest entry replaced). */
enum { UNIT_CACHE = 32, UNIT_TEXT = 128 };

typedef struct UnitCache {
    short dim[UNIT_CACHE][RT_DIM_COUNT];
    char text[UNIT_CACHE][UNIT_TEXT];
    int n, next;
} UnitCache;

/* Column col's unit, as text kept in uc ("" without column infos). */
static const char *column_unit(const RtModel *m, int col, UnitCache *uc)
{
    if (!m->column_info)
        return "";
    const short *dim = rt_column_info(m, col)->dim;
    int k = 0;
    while (k < uc->n && memcmp(uc->dim[k], dim, sizeof uc->dim[k]) != 0)
        k++;
    if (k == uc->n) {
        k = uc->n < UNIT_CACHE ? uc->n++ : uc->next++ % UNIT_CACHE;
        memcpy(uc->dim[k], dim, sizeof uc->dim[k]);
        rt_unit_format(dim, uc->text[k], UNIT_TEXT);
    }
    return uc->text[k];
}

static void write_meta(FILE *fp, const void *ctx)
{
    const RtSim *s = ctx;
    const RtModel *m = s->m;
    UnitCache *uc = rt_xcalloc(1, sizeof *uc);
    fputs(RT_META_HEADER "\n", fp);
    record(fp, "model", m->name ? m->name : "", "", "", "");
    record(fp, "column", "time", "s", "time", "time");
    for (int i = 0; i < s->opt.n_vars; i++) {
        int c = s->opt.vars[i];
        const RtColumnInfo *ci = rt_column_info(m, c);
        record(fp, "column", rt_column_name(m, c), column_unit(m, c, uc),
               ci && ci->kind == RT_COL_OUTPUT ? "output" : "variable",
               ci ? ci->description : "");
    }
    /* each state's column from the model's table; by name in a
       hand-written model */
    RtNameIndex *ix = m->state_column ? NULL : rt_names_new(rt_column_names(m), m->n_columns);
    for (int i = 0; i < m->n_states; i++) {
        const char *name = rt_state_name(m, i);
        int c = ix ? rt_names_find(ix, name, strlen(name)) : m->state_column[i];
        record(fp, "state", name, c >= 0 ? column_unit(m, c, uc) : "", "state", "");
    }
    rt_names_free(ix);
    free(uc);
}

char *rt_meta_path(const char *out)
{
    size_t n = strlen(out) + 6;
    char *path = rt_xcalloc(n, 1);
    snprintf(path, n, "%s.meta", out);
    return path;
}

void rt_meta_write(const RtSim *s)
{
    struct stat st;
    const char *out = s->opt.out_path;
    if (!s->out || s->out == stdout || !out || fstat(fileno(s->out), &st) != 0
        || !S_ISREG(st.st_mode))
        return;
    char *path = rt_meta_path(out);
    if (rt_sidecar_replace(path, write_meta, s) != 0)
        rt_warn(s, "cannot write the units of the results, '%s': %s; lmdlc "
                "plot will draw them without units", path, strerror(errno));
    free(path);
}
