/*
 * rt_linearize.c - the state-space model around the run's final point
 * (--linearize; docs/linearize.md).
 *
 * The sorted system is F(w, x, u) = 0 (rt_model.h, RtLinear): w the
 * unknowns its blocks solve, x the states, u the inputs.  Its partial
 * derivatives come from the compiler's symbolic Jacobians, evaluated at
 * the point (the relations frozen in their modes).  The sensitivities
 * W = dw/d(x, u) follow block by block, in the blocks' order, as the
 * values themselves do:
 *
 *     F_b,w_b W_b = -(F_b,x + F_b,u + sum over earlier w' of F_b,w' W_w')
 *
 * one LU solve per block, so the cost follows the system's sparsity.
 * A and B are the rows of W of the states' derivatives; C and D the
 * gradients of the output columns through W.  The eigenvalues of A
 * (gsl_eigen_nonsymmv) give each mode's natural frequency |lambda| and
 * damping ratio -Re(lambda) / |lambda|.  Written as text, JSON, or MAT
 * version 4 (A, B, C, D, eigenvalues, time and the names).
 */
#include "rt_internal.h"
#include "rt_json.h"
#include "rt_units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_linalg.h>

/* Says that name[0 .. len) is not among names[0 .. n). */
static void not_found(const RtSim *s, RtNames names, int n, const char *name,
                      size_t len, const char *option, const char *what)
{
    const char *hint = rt_names_suggest(names, n, name, len);
    if (hint)
        rt_usage_error(s->prog, "%s: '%.*s' is not %s of the model; did you mean '%s'?",
                       option, (int)len, name, what, hint);
    else if (n == 0)
        rt_usage_error(s->prog, "%s: '%.*s' is not %s of the model, which has none",
                       option, (int)len, name, what);
    else
        rt_usage_error(s->prog, "%s: '%.*s' is not %s of the model", option, (int)len,
                       name, what);
}

/* Whether name[0 .. len) is a parameter that is no input: --inputs names
   inputs only, and says so. */
static int plain_parameter(const RtSim *s, const char *name, size_t len)
{
    for (int i = 0; i < s->m->n_params; i++) {
        const char *p = rt_param_info(s->m, i).name;
        if (strlen(p) == len && !strncmp(p, name, len)) {
            rt_usage_error(s->prog, "--inputs: '%.*s' is a parameter, not an input of the "
                           "top model; linearize takes inputs (declare it in the top "
                           "component's inputs section to linearize with respect to it)",
                           (int)len, name);
            return 1;
        }
    }
    return 0;
}

/* list: comma-separated names among names[0 .. n) -> *sel (indices),
   *nsel, each once (empty names skipped); 0, or -1 after a message. */
static int select_list(const RtSim *s, const char *list, RtNames names, int n,
                       const char *option, const char *what, int **sel, int *nsel)
{
    const char *bad;
    size_t len;
    *sel = rt_names_list(names, n, list, 1, nsel, &bad, &len);
    if (!*sel) {
        if (strcmp(option, "--inputs") || !plain_parameter(s, bad, len))
            not_found(s, names, n, bad, len, option, what);
        return -1;
    }
    for (int i = 0; i < *nsel; i++) {
        for (int k = 0; k < i; k++) {
            if ((*sel)[k] == (*sel)[i]) {
                const char *name = rt_name(names, (*sel)[i]);
                rt_usage_error(s->prog, "%s: '%s' is named twice", option, name);
                return -1;
            }
        }
    }
    return 0;
}

int rt_linearize_select(RtSim *s)
{
    const RtModel *m = s->m;
    const RtLinear *L = m->linear;
    RtOptions *o = &s->opt;
    if (!o->linearize)
        return 0;
    if (o->linearize == RT_LINEARIZE_MAT && (!o->out_path || !strcmp(o->out_path, "-"))) {
        rt_usage_error(s->prog, "--linearize mat writes a binary MAT file: name it with "
                       "-o FILE.mat");
        return -1;
    }
    if (!L) {
        rt_usage_error(s->prog, "--linearize: this simulator was built without the "
                       "linearization Jacobians; build it with 'lmdlc linearize'");
        return -1;
    }
    /* inputs: by parameter name; all of them by default */
    const char **in_names = rt_xcalloc((size_t)L->n_inputs + 1, sizeof *in_names);
    for (int k = 0; k < L->n_inputs; k++)
        in_names[k] = rt_param_info(m, L->input_param[k]).name;
    int rc = 0;
    if (o->lin_inputs) {
        rc = select_list(s, o->lin_inputs, rt_names_of(in_names), L->n_inputs, "--inputs",
                         "an input", &o->lin_in, &o->n_lin_in);
    } else {
        o->lin_in = rt_xcalloc((size_t)L->n_inputs + 1, sizeof *o->lin_in);
        for (int k = 0; k < L->n_inputs; k++)
            o->lin_in[o->n_lin_in++] = k;
    }
    free(in_names);
    if (rc != 0)
        return -1;
    /* outputs: columns by name; the top model's outputs by default */
    int nvis = m->n_columns - m->n_hidden;
    if (o->lin_outputs)
        return select_list(s, o->lin_outputs, rt_column_names(m), nvis,
                           "--outputs", "a variable", &o->lin_out, &o->n_lin_out);
    o->lin_out = rt_xcalloc((size_t)m->n_columns + 1, sizeof *o->lin_out);
    for (int c = 0; c < nvis; c++) {
        const RtColumnInfo *ci = m->column_info
            ? &m->column_info[m->column_info_of ? m->column_info_of[c] : c] : NULL;
        if (ci && ci->kind == RT_COL_OUTPUT)
            o->lin_out[o->n_lin_out++] = c;
    }
    return 0;
}

/* The linear model: A (nx x nx), B (nx x nu), C (ny x nx), D (ny x nu),
   row-major. */
typedef struct Lin {
    int nx, nu, ny;
    double *A, *B, *C, *D;
} Lin;

/* Adds val times the sensitivities of column col (a variable's row of W,
   or input k's unit row) to row[0 .. nz). */
static void add_column(const double *W, int nz, int nx, const int *in_pos, int col,
                       double val, double *row)
{
    if (col >= 0) {
        const double *w = W + (size_t)col * (size_t)nz;
        for (int j = 0; j < nz; j++)
            row[j] += val * w[j];
    } else if (in_pos[-1 - col] >= 0) {
        row[nx + in_pos[-1 - col]] += val;
    }
}

/* W (n_vars x nz), block by block; 0, or -1 with the failing block in
   *bad. */
static int sensitivities(const RtSim *s, const RtLinear *L, const double *val,
                         const int *in_pos, int nz, double *W, int *bad)
{
    int nx = s->m->n_states;
    unsigned char *known = rt_xcalloc((size_t)L->n_vars + 1, 1);
    int *pos = rt_xcalloc((size_t)L->n_vars + 1, sizeof *pos);
    for (int j = 0; j < nx; j++) {
        W[(size_t)L->state_var[j] * (size_t)nz + (size_t)j] = 1;
        known[L->state_var[j]] = 1;
    }
    int rc = 0;
    for (int b = 0; b < L->n_blocks && rc == 0; b++) {
        int r0 = L->block_start[b], n = L->block_start[b + 1] - r0;
        for (int i = 0; i < n; i++)
            pos[L->row_var[r0 + i]] = 1 + i;
        gsl_matrix *M = gsl_matrix_calloc((size_t)n, (size_t)n);
        gsl_matrix *R = gsl_matrix_calloc((size_t)n, (size_t)(nz ? nz : 1));
        for (int i = 0; i < n; i++) {
            double *row = gsl_matrix_ptr(R, (size_t)i, 0);
            for (int k = L->entry_start[r0 + i]; k < L->entry_start[r0 + i + 1]; k++) {
                int col = L->entry_col[k];
                if (col >= 0 && pos[col])
                    *gsl_matrix_ptr(M, (size_t)i, (size_t)(pos[col] - 1)) += val[k];
                else if (col < 0 || known[col])
                    add_column(W, nz, nx, in_pos, col, -val[k], row);
                else
                    rc = -1;    /* read before it is solved: not in BLT order */
            }
        }
        gsl_permutation *perm = gsl_permutation_alloc((size_t)n);
        int sign;
        if (rc == 0 && gsl_linalg_LU_decomp(M, perm, &sign) != 0)
            rc = -1;
        for (int i = 0; rc == 0 && i < n; i++)
            if (!(fabs(gsl_matrix_get(M, (size_t)i, (size_t)i)) > 1e-300))
                rc = -1;
        gsl_vector *x = gsl_vector_alloc((size_t)n);
        for (int j = 0; rc == 0 && j < nz; j++) {
            gsl_vector_view col = gsl_matrix_column(R, (size_t)j);
            gsl_linalg_LU_solve(M, perm, &col.vector, x);
            for (int i = 0; i < n; i++)
                W[(size_t)L->row_var[r0 + i] * (size_t)nz + (size_t)j] = gsl_vector_get(x, (size_t)i);
        }
        for (int i = 0; i < n; i++) {
            pos[L->row_var[r0 + i]] = 0;
            known[L->row_var[r0 + i]] = 1;
        }
        if (rc != 0)
            *bad = b;
        gsl_vector_free(x);
        gsl_permutation_free(perm);
        gsl_matrix_free(R);
        gsl_matrix_free(M);
    }
    free(pos);
    free(known);
    return rc;
}

/* The linear model at s's point, or -1 after a failure set in s->fail or
   a message. */
static int linearize(RtSim *s, Lin *lin)
{
    const RtModel *m = s->m;
    const RtLinear *L = m->linear;
    const RtOptions *o = &s->opt;
    int nx = m->n_states, nu = o->n_lin_in, ny = o->n_lin_out, nz = nx + nu;
    /* a complete evaluation at the point: every algebraic value */
    int solver_eval = s->solver_eval;
    s->solver_eval = 0;
    RtEval e = rt_eval_make(s, s->t, s->x, s->dx, s->alg, s->modes);
    int rc = m->eval(&e);
    s->solver_eval = solver_eval;
    if (rc != RT_OK) {
        rt_fail_eval(&s->fail, s->t, rc, e.fail_block);
        return -1;
    }
    double *val = rt_xcalloc((size_t)L->entry_start[L->n_rows] + 1, sizeof *val);
    double *oval = rt_xcalloc((size_t)L->out_start[m->n_columns] + 1, sizeof *oval);
    L->jac(&e, val);
    L->out_jac(&e, oval);
    int *in_pos = rt_xcalloc((size_t)L->n_inputs + 1, sizeof *in_pos);
    for (int k = 0; k < L->n_inputs; k++)
        in_pos[k] = -1;
    for (int k = 0; k < nu; k++)
        in_pos[o->lin_in[k]] = k;
    double *W = rt_xcalloc((size_t)L->n_vars * (size_t)(nz ? nz : 1) + 1, sizeof *W);
    int bad = -1;
    rc = sensitivities(s, L, val, in_pos, nz, W, &bad);
    if (rc != 0) {
        RtBlockInfo info = {0};
        const RtBlockInfo *bi = NULL;
        if (bad >= 0 && bad < m->n_blocks && (m->blocks || m->block_rows)) {
            info = rt_block_info(m, bad);
            bi = &info;
        }
        rt_message(s->msgs ? s->msgs : stderr, s->prog, "error", "cannot linearize at t = %g: "
                   "the Jacobian of block %d (%s, at %s) is singular there", s->t, bad,
                   bi ? bi->what : "?", bi ? bi->location : "?");
    }
    lin->nx = nx, lin->nu = nu, lin->ny = ny;
    lin->A = rt_xcalloc((size_t)nx * (size_t)nx + 1, sizeof(double));
    lin->B = rt_xcalloc((size_t)nx * (size_t)nu + 1, sizeof(double));
    lin->C = rt_xcalloc((size_t)ny * (size_t)nx + 1, sizeof(double));
    lin->D = rt_xcalloc((size_t)ny * (size_t)nu + 1, sizeof(double));
    double *row = rt_xcalloc((size_t)nz + 1, sizeof *row);
    for (int i = 0; rc == 0 && i < nx; i++) {
        int d = L->der_var[i];
        for (int j = 0; j < nz; j++)
            row[j] = d >= 0 ? W[(size_t)d * (size_t)nz + (size_t)j] : 0;
        memcpy(lin->A + (size_t)i * (size_t)nx, row, sizeof(double) * (size_t)nx);
        memcpy(lin->B + (size_t)i * (size_t)nu, row + nx, sizeof(double) * (size_t)nu);
    }
    for (int i = 0; rc == 0 && i < ny; i++) {
        int c = o->lin_out[i];
        memset(row, 0, sizeof(double) * (size_t)(nz + 1));
        for (int k = L->out_start[c]; k < L->out_start[c + 1]; k++)
            add_column(W, nz, nx, in_pos, L->out_col[k], oval[k], row);
        memcpy(lin->C + (size_t)i * (size_t)nx, row, sizeof(double) * (size_t)nx);
        memcpy(lin->D + (size_t)i * (size_t)nu, row + nx, sizeof(double) * (size_t)nu);
    }
    free(row);
    free(W);
    free(in_pos);
    free(oval);
    free(val);
    return rc;
}

/* The eigenvalues of A, sorted by magnitude, then imaginary part. */
typedef struct Eig {
    double re, im;
} Eig;

static int eig_cmp(const void *a, const void *b)
{
    const Eig *x = a, *y = b;
    double mx = hypot(x->re, x->im), my = hypot(y->re, y->im);
    if (mx != my)
        return mx < my ? -1 : 1;
    return (x->im > y->im) - (x->im < y->im);
}

static Eig *eigenvalues(const Lin *lin, int *ok)
{
    int n = lin->nx;
    Eig *ev = rt_xcalloc((size_t)n + 1, sizeof *ev);
    *ok = 1;
    if (n == 0)
        return ev;
    gsl_matrix *A = gsl_matrix_alloc((size_t)n, (size_t)n);
    memcpy(A->data, lin->A, sizeof(double) * (size_t)n * (size_t)n);
    gsl_vector_complex *lam = gsl_vector_complex_alloc((size_t)n);
    gsl_eigen_nonsymm_workspace *w = gsl_eigen_nonsymm_alloc((size_t)n);
    if (gsl_eigen_nonsymm(A, lam, w) != 0)
        *ok = 0;
    for (int i = 0; i < n; i++) {
        gsl_complex z = gsl_vector_complex_get(lam, (size_t)i);
        ev[i].re = GSL_REAL(z);
        ev[i].im = GSL_IMAG(z);
    }
    qsort(ev, (size_t)n, sizeof *ev, eig_cmp);
    gsl_eigen_nonsymm_free(w);
    gsl_vector_complex_free(lam);
    gsl_matrix_free(A);
    return ev;
}

/* ---- the report ------------------------------------------------------------------ */

/* The names and units of the rows and columns. */
typedef struct Names {
    const char **x, **u, **y;       /* states, inputs, outputs */
    char (*xu)[64], (*uu)[64], (*yu)[64]; /* their units */
} Names;

static void names_make(const RtSim *s, const Lin *lin, Names *nm)
{
    const RtModel *m = s->m;
    const RtLinear *L = m->linear;
    nm->x = rt_xcalloc((size_t)lin->nx + 1, sizeof *nm->x);
    nm->u = rt_xcalloc((size_t)lin->nu + 1, sizeof *nm->u);
    nm->y = rt_xcalloc((size_t)lin->ny + 1, sizeof *nm->y);
    nm->xu = rt_xcalloc((size_t)lin->nx + 1, sizeof *nm->xu);
    nm->uu = rt_xcalloc((size_t)lin->nu + 1, sizeof *nm->uu);
    nm->yu = rt_xcalloc((size_t)lin->ny + 1, sizeof *nm->yu);
    for (int i = 0; i < lin->nx; i++) {
        nm->x[i] = rt_state_name(m, i);
        rt_unit_format(L->state_dim[i], nm->xu[i], sizeof nm->xu[i]);
    }
    for (int k = 0; k < lin->nu; k++) {
        RtParamInfo info = rt_param_info(m, L->input_param[s->opt.lin_in[k]]);
        const RtParamInfo *pi = &info;
        nm->u[k] = pi->name;
        rt_unit_format(pi->dim, nm->uu[k], sizeof nm->uu[k]);
    }
    for (int i = 0; i < lin->ny; i++) {
        int c = s->opt.lin_out[i];
        nm->y[i] = rt_column_name(m, c);
        const RtColumnInfo *ci = m->column_info
            ? &m->column_info[m->column_info_of ? m->column_info_of[c] : c] : NULL;
        if (ci)
            rt_unit_format(ci->dim, nm->yu[i], sizeof nm->yu[i]);
    }
}

static void names_free(Names *nm)
{
    free(nm->x), free(nm->u), free(nm->y);
    free(nm->xu), free(nm->uu), free(nm->yu);
}

static void text_list(FILE *fp, const char *title, const char *const *names,
                      char (*units)[64], int n)
{
    fprintf(fp, "%s (%d):\n", title, n);
    for (int i = 0; i < n; i++)
        fprintf(fp, "  %-4d %s [%s]\n", i + 1, names[i], units[i][0] ? units[i] : "1");
}

static void text_matrix(FILE *fp, const char *title, const double *M, int rows, int cols,
                        const char *const *rn, const char *const *cn, int der)
{
    fprintf(fp, "\n%s (%d x %d):\n", title, rows, cols);
    if (rows == 0 || cols == 0)
        return;
    int w = 8;
    for (int i = 0; i < rows; i++) {
        int l = (int)strlen(rn[i]) + (der ? 5 : 0);
        if (l > w)
            w = l;
    }
    fprintf(fp, "  %-*s", w, "");
    for (int j = 0; j < cols; j++)
        fprintf(fp, "  %14s", cn[j]);
    fputc('\n', fp);
    for (int i = 0; i < rows; i++) {
        char label[512];
        snprintf(label, sizeof label, der ? "der(%s)" : "%s", rn[i]);
        fprintf(fp, "  %-*s", w, label);
        for (int j = 0; j < cols; j++)
            fprintf(fp, "  %14.7g", M[(size_t)i * (size_t)cols + (size_t)j] + 0.0);
        fputc('\n', fp);
    }
}

static void text_report(FILE *fp, const RtSim *s, const Lin *lin, const Names *nm,
                        const Eig *ev, int eig_ok)
{
    fprintf(fp, "linearization of %s at t = %.9g s%s\n", s->m->name ? s->m->name : "the model",
            s->t, s->opt.steady_state ? " (from a steady state)" : "");
    fprintf(fp, "  dx/dt = A x + B u,  y = C x + D u  (deviations from the point)\n\n");
    text_list(fp, "states x", nm->x, nm->xu, lin->nx);
    text_list(fp, "inputs u", nm->u, nm->uu, lin->nu);
    text_list(fp, "outputs y", nm->y, nm->yu, lin->ny);
    text_matrix(fp, "A", lin->A, lin->nx, lin->nx, nm->x, nm->x, 1);
    text_matrix(fp, "B", lin->B, lin->nx, lin->nu, nm->x, nm->u, 1);
    text_matrix(fp, "C", lin->C, lin->ny, lin->nx, nm->y, nm->x, 0);
    text_matrix(fp, "D", lin->D, lin->ny, lin->nu, nm->y, nm->u, 0);
    fprintf(fp, "\neigenvalues of A (%d)%s:\n", lin->nx, eig_ok ? "" : " (not converged)");
    if (lin->nx)
        fprintf(fp, "  %14s  %14s  %22s  %13s\n", "real [1/s]", "imag [rad/s]",
                "natural freq. [rad/s]", "damping ratio");
    for (int i = 0; i < lin->nx; i++) {
        double wn = hypot(ev[i].re, ev[i].im);
        fprintf(fp, "  %14.7g  %14.7g  %22.7g  ", ev[i].re + 0.0, ev[i].im + 0.0, wn);
        if (wn > 0)
            fprintf(fp, "%13.7g\n", -ev[i].re / wn + 0.0);
        else
            fprintf(fp, "%13s\n", "-");
    }
}

static void json_number(FILE *fp, double v)
{
    if (isfinite(v))
        fprintf(fp, "%.17g", v + 0.0);  /* + 0.0: no "-0" */
    else
        fputs("null", fp);
}

static void json_vars(FILE *fp, const char *key, const char *const *names,
                      char (*units)[64], int n)
{
    fprintf(fp, "\"%s\":[", key);
    for (int i = 0; i < n; i++) {
        fputs(i ? ",{\"name\":" : "{\"name\":", fp);
        rt_json_string(fp, names[i], strlen(names[i]));
        fputs(",\"unit\":", fp);
        rt_json_string(fp, units[i][0] ? units[i] : "1", strlen(units[i][0] ? units[i] : "1"));
        fputc('}', fp);
    }
    fputs("],", fp);
}

static void json_matrix(FILE *fp, const char *key, const double *M, int rows, int cols)
{
    fprintf(fp, "\"%s\":[", key);
    for (int i = 0; i < rows; i++) {
        fputs(i ? ",[" : "[", fp);
        for (int j = 0; j < cols; j++) {
            if (j)
                fputc(',', fp);
            json_number(fp, M[(size_t)i * (size_t)cols + (size_t)j]);
        }
        fputc(']', fp);
    }
    fputs("],", fp);
}

static void json_report(FILE *fp, const RtSim *s, const Lin *lin, const Names *nm,
                        const Eig *ev)
{
    const char *name = s->m->name ? s->m->name : "";
    fputs("{\"model\":", fp);
    rt_json_string(fp, name, strlen(name));
    fputs(",\"time\":", fp);
    json_number(fp, s->t);
    fprintf(fp, ",\"steady_state\":%s,", s->opt.steady_state ? "true" : "false");
    json_vars(fp, "states", nm->x, nm->xu, lin->nx);
    json_vars(fp, "inputs", nm->u, nm->uu, lin->nu);
    json_vars(fp, "outputs", nm->y, nm->yu, lin->ny);
    json_matrix(fp, "A", lin->A, lin->nx, lin->nx);
    json_matrix(fp, "B", lin->B, lin->nx, lin->nu);
    json_matrix(fp, "C", lin->C, lin->ny, lin->nx);
    json_matrix(fp, "D", lin->D, lin->ny, lin->nu);
    fputs("\"eigenvalues\":[", fp);
    for (int i = 0; i < lin->nx; i++) {
        double wn = hypot(ev[i].re, ev[i].im);
        fputs(i ? ",{\"re\":" : "{\"re\":", fp);
        json_number(fp, ev[i].re);
        fputs(",\"im\":", fp);
        json_number(fp, ev[i].im);
        fputs(",\"natural_frequency\":", fp);
        json_number(fp, wn);
        fputs(",\"damping_ratio\":", fp);
        json_number(fp, wn > 0 ? -ev[i].re / wn : NAN);
        fputc('}', fp);
    }
    fputs("]}\n", fp);
}

/* ---- MAT version 4 (--linearize mat) ------------------------------------------------ */

/* One matrix: its header (rt_mat.c's), then the data column by
   column. */
static void mat_header(FILE *fp, int type, int rows, int cols, const char *name)
{
    unsigned char *h = rt_xcalloc(rt_mat_header_size(name), 1);
    fwrite(h, rt_mat_header(h, type, rows, cols, name), 1, fp);
    free(h);
}

/* M (rows x cols, row-major) as a double matrix. */
static void mat_matrix(FILE *fp, const char *name, const double *M, int rows, int cols)
{
    mat_header(fp, RT_MAT_DOUBLE, rows, cols, name);
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++) {
            double v = M[(size_t)i * (size_t)cols + (size_t)j] + 0.0;
            fwrite(&v, sizeof v, 1, fp);
        }
}

/* names[0 .. n) as a text matrix, one name per row, blank-padded. */
static void mat_names(FILE *fp, const char *name, const char *const *names, int n)
{
    int w = 1;
    for (int i = 0; i < n; i++)
        if ((int)strlen(names[i]) > w)
            w = (int)strlen(names[i]);
    mat_header(fp, RT_MAT_TEXT, n, n ? w : 0, name);
    for (int j = 0; j < w && n; j++)
        for (int i = 0; i < n; i++)
            fputc(j < (int)strlen(names[i]) ? names[i][j] : ' ', fp);
}

static void mat_report(FILE *fp, const RtSim *s, const Lin *lin, const Names *nm,
                       const Eig *ev)
{
    mat_matrix(fp, "A", lin->A, lin->nx, lin->nx);
    mat_matrix(fp, "B", lin->B, lin->nx, lin->nu);
    mat_matrix(fp, "C", lin->C, lin->ny, lin->nx);
    mat_matrix(fp, "D", lin->D, lin->ny, lin->nu);
    double *e = rt_xcalloc((size_t)lin->nx * 4 + 1, sizeof *e);
    for (int i = 0; i < lin->nx; i++) {
        double wn = hypot(ev[i].re, ev[i].im);
        e[4 * i] = ev[i].re, e[4 * i + 1] = ev[i].im, e[4 * i + 2] = wn;
        e[4 * i + 3] = wn > 0 ? -ev[i].re / wn : NAN;
    }
    mat_matrix(fp, "eigenvalues", e, lin->nx, 4);
    free(e);
    mat_matrix(fp, "time", &s->t, 1, 1);
    mat_names(fp, "states", nm->x, lin->nx);
    mat_names(fp, "inputs", nm->u, lin->nu);
    mat_names(fp, "outputs", nm->y, lin->ny);
}

int rt_linearize(RtSim *s, FILE *fp)
{
    if (s->m->n_delays > 0)
        rt_warn(s, "the model's %d delay()s count as known inputs in the linearization: "
                "the paths through them are left out of A and B (docs/linearize.md)",
                s->m->n_delays);
    Lin lin = {0};
    int rc = linearize(s, &lin);
    if (rc == 0) {
        int ok;
        Eig *ev = eigenvalues(&lin, &ok);
        Names nm;
        names_make(s, &lin, &nm);
        if (s->opt.linearize == RT_LINEARIZE_JSON)
            json_report(fp, s, &lin, &nm, ev);
        else if (s->opt.linearize == RT_LINEARIZE_MAT)
            mat_report(fp, s, &lin, &nm, ev);
        else
            text_report(fp, s, &lin, &nm, ev, ok);
        names_free(&nm);
        free(ev);
    }
    free(lin.A), free(lin.B), free(lin.C), free(lin.D);
    return rc;
}
