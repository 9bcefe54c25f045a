/*
 * rt_mat.c - results as MATLAB MAT version 4, in OpenModelica's layout.
 *
 * `-o results.mat` writes the file OpenModelica writes for its results
 * (the Dymola "dsres" trajectory layout, transposed variant "binTrans"),
 * so that OpenModelica's tools, scipy.io.loadmat and Octave's load read
 * it.  A MAT v4 file is a sequence of matrices, each a 20-byte header
 * (five int32: type, rows, columns, imaginary flag, name length), the
 * name with its NUL, then the data column by column.  The type is
 * 1000*M + 10*P + T: M = 0 little-endian, 1 big-endian (the machine's
 * own order is written); P = 0 double, 2 int32, 5 uint8; T = 0 numeric,
 * 1 text.  The six matrices, in this order:
 *
 *   Aclass       text 4 x 11: "Atrajectory", "1.1", "", "binTrans"
 *                (space-padded rows)
 *   name         text L x V: column j is variable j's name, NUL-padded
 *                (every name NUL-terminated); V = 1 + columns + parameters
 *   description  text 1 x V: empty descriptions (the interface has none)
 *   dataInfo     int32 4 x V: column j = {matrix, row, 0, extrapolation}:
 *                time {0, 1, 0, -1}; result column i {2, +-(d + 2), 0, -1}
 *                with d its distinct value (below), negative when the
 *                column is minus it; parameter k {1, k + 2, 0, 0}
 *   data_1       double (1 + P) x 2: the parameters (after --param), at
 *                time 0 and at the stop time
 *   data_2       double (1 + D) x R: one column per result row (time,
 *                then the D distinct values of the --vars columns), R
 *                rows; two at each event
 *
 * Columns that are the same variable under other names, or minus it (a
 * through variable seen from its other node), share one row of data_2,
 * as in OpenModelica's files: their dataInfo rows point at it, with a
 * minus sign for the negated ones (rt_tables.c numbers the distinct
 * values, in the order of the columns that first have them).
 *
 * data_2 is last and grows one column per row.  Rows wait in memory in
 * a batch (rt_csv.c says when one is written); a batch is written at the
 * end of the file, then R in data_2's header is overwritten, both with
 * SIGINT/SIGTERM/SIGHUP held off, and a terminating signal between
 * batches writes the waiting rows before the process dies.  So a run
 * that fails, or is interrupted or terminated, leaves a complete file
 * with every row so far.  A SIGKILL loses the rows of the batch, and one
 * between those two writes can leave a batch's bytes after the data the
 * header declares; scipy then refuses the file, and truncating it to the
 * declared size repairs it.
 */
#include "rt_internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct RtMat {
    int fd;                     /* the results file */
    off_t rows_at;              /* offset of data_2's column count */
    off_t end;                  /* where the next column goes */
    int32_t rows;               /* result rows written */
    double *column;             /* rows waiting: time and the distinct values */
    size_t nvalues;             /* ... of the selected columns (RtGather) */
    size_t waiting, cap;        /* rows waiting; room for this many */
    size_t row_bytes;           /* one row */
};

static int big_endian(void)
{
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 0;
}

/* The bytes of the matrices before data_2's columns, and a cursor. */
typedef struct Image {
    unsigned char *at;
} Image;

static void put_int32(Image *im, int32_t v)
{
    memcpy(im->at, &v, sizeof v);
    im->at += sizeof v;
}

size_t rt_mat_header(unsigned char *out, int type, int rows, int cols, const char *name)
{
    Image im = {out};
    put_int32(&im, (int32_t)(type + (big_endian() ? 1000 : 0)));
    put_int32(&im, rows);
    put_int32(&im, cols);
    put_int32(&im, 0);
    put_int32(&im, (int32_t)strlen(name) + 1);
    memcpy(im.at, name, strlen(name) + 1);
    return rt_mat_header_size(name);
}

size_t rt_mat_header_size(const char *name)
{
    return 20 + strlen(name) + 1;
}

static void put_matrix_header(Image *im, int type, int rows, int cols,
                              const char *name)
{
    im->at += rt_mat_header(im->at, type, rows, cols, name);
}


/* Variable j of the file: time, the selected columns, the parameters. */
static const char *var_name(const RtSim *s, int j)
{
    if (j == 0)
        return "time";
    if (j <= s->opt.n_vars)
        return rt_column_name(s->m, s->opt.vars[j - 1]);
    return rt_param_info(s->m, j - 1 - s->opt.n_vars).name;
}

static void put_data_info(Image *im, const RtSim *s, const RtGather *g, int j)
{
    int nv = s->opt.n_vars;
    int32_t info[4] = {0, 1, 0, -1};    /* time: the abscissa of both */
    if (j >= 1 && j <= nv) {
        /* the row of the column's distinct value, negative for minus it */
        int row = rt_gather_value_of(g)[j - 1] + 2;
        info[0] = 2;
        info[1] = rt_gather_negated(g)[j - 1] ? -row : row;
    } else if (j > nv) {
        info[0] = 1;
        info[1] = j - nv + 1;
        info[3] = 0;                    /* constant outside its interval */
    }
    for (int i = 0; i < 4; i++)
        put_int32(im, info[i]);
}

static int pwrite_all(int fd, const void *buf, size_t n, off_t at)
{
    const unsigned char *p = buf;
    while (n > 0) {
        ssize_t w = pwrite(fd, p, n, at);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
        at += w;
    }
    return 0;
}

static int io_failed(RtSim *s, double t)
{
    rt_fail_simple(&s->fail, RT_FAILKIND_IO, t, -1);
    s->fail.name = s->opt.out_path;
    return -1;
}

RtMat *rt_mat_open(RtSim *s, int fd, const RtGather *g)
{
    static const char *const aclass[4] = {"Atrajectory", "1.1", "", "binTrans"};
    int np = s->m->n_params > 0 ? s->m->n_params : 0;
    int nv = 1 + s->opt.n_vars + np;
    size_t longest = 0;
    for (int j = 0; j < nv; j++) {
        size_t len = strlen(var_name(s, j));
        longest = len > longest ? len : longest;
    }
    int name_rows = (int)longest + 1;
    size_t size = rt_mat_header_size("Aclass") + 4 * 11
                  + rt_mat_header_size("name") + (size_t)name_rows * (size_t)nv
                  + rt_mat_header_size("description") + (size_t)nv
                  + rt_mat_header_size("dataInfo") + 4 * 4 * (size_t)nv
                  + rt_mat_header_size("data_1") + 2 * 8 * (size_t)(1 + np)
                  + rt_mat_header_size("data_2");
    unsigned char *bytes = rt_xcalloc(size, 1);
    Image im = {bytes};

    put_matrix_header(&im, RT_MAT_TEXT, 4, 11, "Aclass");
    for (int c = 0; c < 11; c++)            /* column-major */
        for (int r = 0; r < 4; r++)
            *im.at++ = (unsigned char)(c < (int)strlen(aclass[r]) ? aclass[r][c] : ' ');
    put_matrix_header(&im, RT_MAT_TEXT, name_rows, nv, "name");
    for (int j = 0; j < nv; j++) {
        const char *name = var_name(s, j);
        memcpy(im.at, name, strlen(name));  /* the rest stays NUL */
        im.at += name_rows;
    }
    put_matrix_header(&im, RT_MAT_TEXT, 1, nv, "description");
    im.at += nv;                            /* NUL: empty */
    put_matrix_header(&im, RT_MAT_INT32, 4, nv, "dataInfo");
    for (int j = 0; j < nv; j++)
        put_data_info(&im, s, g, j);
    put_matrix_header(&im, RT_MAT_DOUBLE, 1 + np, 2, "data_1");
    for (int c = 0; c < 2; c++) {
        double t = c ? s->opt.stop_time : 0;
        memcpy(im.at, &t, sizeof t);
        im.at += sizeof t;
        if (np > 0) {
            memcpy(im.at, s->p, (size_t)np * sizeof *s->p);
            im.at += (size_t)np * sizeof *s->p;
        }
    }
    size_t rows_at = (size_t)(im.at - bytes) + 8;
    int nvalues = rt_gather_values(g);
    put_matrix_header(&im, RT_MAT_DOUBLE, 1 + nvalues, 0, "data_2");

    int rc = pwrite_all(fd, bytes, size, 0);
    free(bytes);
    if (rc != 0) {
        io_failed(s, 0);
        return NULL;
    }
    RtMat *mat = rt_xcalloc(1, sizeof *mat);
    mat->fd = fd;
    mat->rows_at = (off_t)rows_at;
    mat->end = (off_t)size;
    mat->nvalues = (size_t)nvalues;
    mat->row_bytes = ((size_t)nvalues + 1) * sizeof *mat->column;
    return mat;
}

double *rt_mat_slot(RtSim *s, RtMat *mat, double t)
{
    size_t nv = mat->nvalues;
    if ((size_t)mat->rows + mat->waiting >= INT32_MAX) {
        io_failed(s, t);
        return NULL;
    }
    /* the rows grow and fill with the terminating signals held: a signal
       handler may write them (rt_mat_flush) */
    rt_hold_signals();
    if (mat->waiting == mat->cap) {
        mat->cap = mat->cap ? 2 * mat->cap : 16;
        mat->column = rt_xrealloc(mat->column, mat->cap * (nv + 1) * sizeof *mat->column);
    }
    double *row = mat->column + mat->waiting * (nv + 1);
    row[0] = t;
    return row + 1;
}

void rt_mat_commit(RtMat *mat)
{
    mat->waiting++;
    rt_release_signals();
}

size_t rt_mat_waiting(const RtMat *mat)
{
    return mat->waiting * mat->row_bytes;
}

int rt_mat_flush(RtMat *mat)
{
    if (mat->waiting == 0)
        return 0;
    size_t bytes = mat->waiting * mat->row_bytes;
    int32_t rows = mat->rows + (int32_t)mat->waiting;
    int rc = pwrite_all(mat->fd, mat->column, bytes, mat->end);
    if (rc == 0)
        rc = pwrite_all(mat->fd, &rows, sizeof rows, mat->rows_at);
    mat->waiting = 0;
    if (rc != 0)
        return -1;
    mat->rows = rows;
    mat->end += (off_t)bytes;
    return 0;
}

void rt_mat_free(RtMat *mat)
{
    if (!mat)
        return;
    free(mat->column);
    free(mat);
}
