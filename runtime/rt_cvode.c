/*
 * rt_cvode.c - the CVODE stepper: `--solver cvode`, SUNDIALS' BDF method
 * with Newton iterations and a sparse direct linear solver (KLU).
 *
 * It is a stepper like gsl_odeiv2's (RtStepper, rt_internal.h), so the
 * integration loop and the event location are the runtime's own and
 * identical on both: one step at a time in CV_ONE_STEP mode, free to step
 * past output times (a step clipped at each row would rescale CVODE's
 * history and keep it at low order), clipped with CVodeSetStopTime only at
 * the stop time and at breakpoints (delays, relations on time alone).
 * Rows inside a step and states inside a step for the event search come
 * from CVODE's own interpolant of the step (CVodeGetDky, of the method's
 * order).  Events are found after each step and located by rt_events.c;
 * the solver restarts at them (CVodeReInit).  CVODE's own root finding is
 * not used: it would locate events by another rule and give other event
 * times.
 *
 * Tolerances: --rtol, and --atol per unit of each state's nominal, as
 * CVODE's vector of absolute tolerances atol * nominal[i], which is what
 * gsl_odeiv2's scaled control does with a scalar atol.  (CVODE measures
 * the error in the weighted RMS norm, gsl_odeiv2 in the max norm, so the
 * two take different steps for the same tolerances.)
 *
 * The Jacobian.  The model's sparsity pattern (jac_colptr, jac_rows)
 * plus the diagonal, which the Newton matrix I - gamma J needs, is the
 * structure of a compressed-sparse-column SUNSparseMatrix, factored by
 * KLU.  It is filled by the runtime's forward differences by colors
 * (rt_jacobian_sparse, as gsl_odeiv2's steppers get it): one evaluation
 * per color instead of one per state, so a chain of N stages costs a few
 * evaluations and O(N) factor work rather than a dense N x N LU.  A
 * model without a pattern gets a dense matrix and CVODE's dense solver,
 * with the dense forward differences.
 *
 * Failures: an evaluation that fails inside CVODE reports a recoverable
 * error, and CVODE retries with a smaller step; when it gives up, the
 * evaluation's failure is reported if that was the cause, else CVODE's,
 * in the words of the equivalent gsl_odeiv2 failure.  CVODE's own
 * messages on stderr are silenced.
 */
#include "rt_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cvode/cvode.h>
#include <gsl/gsl_errno.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

struct RtCvode {
    SUNContext ctx;             /* SUNDIALS' context for all the objects */
    void *mem;                  /* the CVODE integrator */
    N_Vector y;                 /* the state CVODE last returned */
    N_Vector dky;               /* a vector without data, pointed at the
                                   caller's array for CVodeGetDky */
    N_Vector atol;              /* atol * nominal[i] */
    SUNMatrix A;                /* Jacobian and Newton matrix */
    SUNLinearSolver ls;         /* KLU, or dense LU */
    double t;                   /* time of y */
    int stepped;                /* a step since the last (re)start: the
                                   interpolant of that step exists */
    sunindextype nnz;           /* sparse: entries of A */
    sunindextype *colptr;       /* sparse: A's column starts, n + 1 */
    sunindextype *rows;         /* sparse: A's row indices, nnz */
    sunindextype *slot;         /* sparse: model pattern entry k is A's
                                   entry slot[k] */
};

static int cv_rhs(sunrealtype t, N_Vector y, N_Vector ydot, void *data)
{
    /* recoverable: CVODE retries with a smaller step */
    return rt_rhs(data, t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot)) == 0 ? 0 : 1;
}

/* The Jacobian by forward differences: sparse into the pattern of A, or
   dense (column-major: entry (i, j) at i + j n). */
static int cv_jac(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *data,
                  N_Vector t1, N_Vector t2, N_Vector t3)
{
    (void)fy;
    (void)t1;
    (void)t2;
    (void)t3;
    RtSim *s = data;
    RtCvode *cv = s->cvode;
    int n = s->m->n_states;
    if (!cv->colptr)
        return rt_jacobian_dense(s, t, N_VGetArrayPointer(y), SM_DATA_D(J), 1,
                                 (size_t)n) == 0 ? 0 : 1;
    if (rt_jacobian_sparse(s, t, N_VGetArrayPointer(y)) != 0)
        return 1;               /* recoverable: CVODE tries a smaller step */
    /* SUNMatZero clears the structure too: write it back every time */
    memcpy(SM_INDEXPTRS_S(J), cv->colptr, ((size_t)n + 1) * sizeof *cv->colptr);
    memcpy(SM_INDEXVALS_S(J), cv->rows, (size_t)cv->nnz * sizeof *cv->rows);
    double *a = SM_DATA_S(J);
    memset(a, 0, (size_t)cv->nnz * sizeof *a);
    int model_nnz = s->m->jac_colptr[n];
    for (int k = 0; k < model_nnz; k++)
        a[cv->slot[k]] = s->jac_values[k];
    return 0;
}

static void cv_silent(int code, const char *module, const char *function,
                      char *msg, void *data)
{
    (void)code;
    (void)module;
    (void)function;
    (void)msg;
    (void)data;
}

static int by_row(const void *a, const void *b)
{
    sunindextype x = *(const sunindextype *)a, y = *(const sunindextype *)b;
    return (x > y) - (x < y);
}

/* A's structure: the model's pattern and the diagonal, rows sorted in
   each column; and where each entry of the model's pattern lands. */
static void sparse_structure(const RtModel *m, RtCvode *cv)
{
    int n = m->n_states;
    const int *cp = m->jac_colptr, *rows = m->jac_rows;
    cv->colptr = rt_xcalloc((size_t)n + 1, sizeof *cv->colptr);
    cv->rows = rt_xcalloc((size_t)cp[n] + (size_t)n, sizeof *cv->rows);
    cv->slot = rt_xcalloc((size_t)cp[n], sizeof *cv->slot);
    sunindextype at = 0;
    for (int j = 0; j < n; j++) {
        cv->colptr[j] = at;
        int diagonal = 0;
        for (int k = cp[j]; k < cp[j + 1]; k++) {
            cv->rows[at++] = rows[k];
            diagonal |= rows[k] == j;
        }
        if (!diagonal)
            cv->rows[at++] = j;
        qsort(cv->rows + cv->colptr[j], (size_t)(at - cv->colptr[j]),
              sizeof *cv->rows, by_row);
        for (int k = cp[j]; k < cp[j + 1]; k++) {
            sunindextype *hit = bsearch(&(sunindextype){rows[k]}, cv->rows + cv->colptr[j],
                                        (size_t)(at - cv->colptr[j]),
                                        sizeof *cv->rows, by_row);
            cv->slot[k] = hit - cv->rows;
        }
    }
    cv->colptr[n] = at;
    cv->nnz = at;
}

static int cv_setup(RtSim *s)
{
    const RtModel *m = s->m;
    int n = m->n_states;
    RtCvode *cv = rt_xcalloc(1, sizeof *cv);
    s->cvode = cv;
    int bad = SUNContext_Create(NULL, &cv->ctx) != 0;
    if (!bad) {
        cv->y = N_VNew_Serial(n, cv->ctx);
        cv->atol = N_VNew_Serial(n, cv->ctx);
        cv->dky = N_VNewEmpty_Serial(n, cv->ctx);
        cv->mem = CVodeCreate(CV_BDF, cv->ctx);
        bad = !cv->y || !cv->atol || !cv->dky || !cv->mem;
    }
    if (!bad) {
        double *y = N_VGetArrayPointer(cv->y), *atol = N_VGetArrayPointer(cv->atol);
        for (int i = 0; i < n; i++) {
            y[i] = s->x[i];
            atol[i] = s->opt.atol * s->nominal[i];
        }
        cv->t = s->t;
        s->free_steps = 1;
        bad = CVodeSetErrHandlerFn(cv->mem, cv_silent, NULL) != CV_SUCCESS
              || CVodeInit(cv->mem, cv_rhs, s->t, cv->y) != CV_SUCCESS
              || CVodeSVtolerances(cv->mem, s->opt.rtol, cv->atol) != CV_SUCCESS
              || CVodeSetUserData(cv->mem, s) != CV_SUCCESS
              || (s->opt.max_step > 0
                  && CVodeSetMaxStep(cv->mem, s->opt.max_step) != CV_SUCCESS);
    }
    if (!bad && m->n_colors > 0) {
        sparse_structure(m, cv);
        cv->A = SUNSparseMatrix(n, n, cv->nnz, CSC_MAT, cv->ctx);
        cv->ls = cv->A ? SUNLinSol_KLU(cv->y, cv->A, cv->ctx) : NULL;
    } else if (!bad) {
        cv->A = SUNDenseMatrix(n, n, cv->ctx);
        cv->ls = cv->A ? SUNLinSol_Dense(cv->y, cv->A, cv->ctx) : NULL;
    }
    if (!bad)
        bad = !cv->ls || CVodeSetLinearSolver(cv->mem, cv->ls, cv->A) != CV_SUCCESS
              || CVodeSetJacFn(cv->mem, cv_jac) != CV_SUCCESS;
    if (bad) {
        rt_message(stderr, s->prog, "error", "cannot set up the cvode solver");
        return -1;
    }
    return 0;
}

static void cv_teardown(RtSim *s)
{
    RtCvode *cv = s->cvode;
    if (!cv)
        return;
    if (cv->mem)
        CVodeFree(&cv->mem);
    if (cv->ls)
        SUNLinSolFree(cv->ls);
    if (cv->A)
        SUNMatDestroy(cv->A);
    if (cv->y)
        N_VDestroy(cv->y);
    if (cv->atol)
        N_VDestroy(cv->atol);
    if (cv->dky)
        N_VDestroy(cv->dky);
    if (cv->ctx)
        SUNContext_Free(&cv->ctx);
    free(cv->colptr);
    free(cv->rows);
    free(cv->slot);
    free(cv);
    s->cvode = NULL;
}

static void cv_restart(RtSim *s, double t, const double *x)
{
    RtCvode *cv = s->cvode;
    if (!cv)
        return;
    memcpy(N_VGetArrayPointer(cv->y), x, (size_t)s->m->n_states * sizeof *x);
    cv->t = t;
    cv->stepped = 0;
    s->h = 0;                   /* CVODE chooses its first step itself */
    CVodeReInit(cv->mem, t, cv->y);
}

/* CVODE's failure, in the words of gsl_odeiv2's (rt_report.c). */
static int gsl_equivalent(int flag)
{
    switch (flag) {
    case CV_TOO_MUCH_ACC:
    case CV_ERR_FAILURE:
    case CV_CONV_FAILURE:
        return GSL_FAILURE;         /* the step cannot shrink further */
    case CV_LSETUP_FAIL:
    case CV_LSOLVE_FAIL:
        return GSL_ESING;
    case CV_RHSFUNC_FAIL:
    case CV_FIRST_RHSFUNC_ERR:
    case CV_REPTD_RHSFUNC_ERR:
    case CV_UNREC_RHSFUNC_ERR:
        return GSL_EBADFUNC;
    case CV_MEM_FAIL:
        return GSL_ENOMEM;
    case CV_TOO_MUCH_WORK:
        return GSL_EMAXITER;
    default:
        return GSL_EFAILED;
    }
}

static int cv_step(RtSim *s, double *t, double t1, double *h, double *x)
{
    RtCvode *cv = s->cvode;
    int n = s->m->n_states;
    double *y = N_VGetArrayPointer(cv->y);
    if (cv->t != *t || memcmp(y, x, (size_t)n * sizeof *x) != 0)
        cv_restart(s, *t, x);       /* not where CVODE left off */
    s->pending.kind = RT_FAILKIND_NONE;
    s->last_eval_failed = 0;
    if (t1 - *t <= 8 * DBL_EPSILON * fmax(fabs(*t), fabs(t1))) {
        /* Closer than CVODE will step (CV_TOO_CLOSE): an Euler step, whose
           error at this size is below rounding. */
        if (rt_rhs(s, *t, x, s->dxt) != 0)
            return rt_step_failed(s, GSL_EBADFUNC, *t);
        for (int i = 0; i < n; i++)
            x[i] += (t1 - *t) * s->dxt[i];
        *t = t1;
        cv_restart(s, *t, x);
        return 0;
    }
    double t_before = *t, tret = *t;
    int flag = CVodeSetStopTime(cv->mem, t1);
    if (flag == CV_SUCCESS)
        flag = CVode(cv->mem, t1, cv->y, &tret, CV_ONE_STEP);
    double hnext = 0;
    CVodeGetCurrentStep(cv->mem, &hnext);
    if (flag < 0) {
        s->h = *h = hnext;
        return rt_step_failed(s, gsl_equivalent(flag), t_before);
    }
    *t = cv->t = tret;
    *h = hnext;
    cv->stepped = 1;
    memcpy(x, y, (size_t)n * sizeof *x);
    return 0;
}

/* The state at t in the last step, from CVODE's interpolant. */
static int cv_dense(RtSim *s, double t, double *x)
{
    RtCvode *cv = s->cvode;
    if (!cv || !cv->stepped)
        return -1;
    if (t == cv->t) {
        memcpy(x, N_VGetArrayPointer(cv->y), (size_t)s->m->n_states * sizeof *x);
        return 0;
    }
    N_VSetArrayPointer(x, cv->dky);
    return CVodeGetDky(cv->mem, t, 0, cv->dky) == CV_SUCCESS ? 0 : -1;
}

const RtStepper rt_stepper_cvode = {
    "CVODE", cv_setup, cv_teardown, cv_step, cv_restart, cv_dense,
};
