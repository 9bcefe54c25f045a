/*
 * rt_newton.c - rt_solve_block: Newton on one algebraic loop.
 *
 * Generated eval code calls this for every nonlinear block at every
 * right-hand-side evaluation, usually with the previous solution as the
 * guess, so the common case must be cheap: one residual, one analytic
 * Jacobian and one LU.  If that full Newton step is already below the
 * tolerance the block is done.
 *
 * Otherwise Newton goes on from the guess: the full step is taken, and
 * halved while it does not reduce the residual (each equation scaled by
 * its Jacobian row's largest entry, so that equations in different units
 * weigh alike), until a step is below the tolerance.  A block that is
 * linear (in the modes it is evaluated with: an ideal switch's
 * `i == if vd > 0, vd/Ron else vd*Goff end`) is solved by the first full
 * step, whatever the guess, and confirmed by the second.  Only when
 * Newton stalls (no step reduces the residual, a singular Jacobian, too
 * many steps) does GSL's hybridsj take over from Newton's best iterate
 * (Powell's dogleg, which survives poor guesses and singular Jacobians
 * along the way), with the generated analytic Jacobian.  hybridsj starts
 * with a trust radius of 100 times the scaled size of its starting point
 * (GSL's compute_delta), which for unknowns near zero (a diode's voltage
 * just after it switched) is near zero too and takes dozens of
 * iterations to grow; so it runs in coordinates shifted to put the
 * origin one Newton step (or the iterate's size, if larger) away from the
 * start, which makes its first radius 100 times that instead.
 *
 * Convergence is judged by the full Newton correction at the iterate,
 * never by hybridsj's last step alone: a trust region that has collapsed
 * also takes tiny steps, far from any root.  The correction is applied,
 * so an accepted z is good to about the square of the tolerance.
 *
 * On failure the Jacobian at the best iterate decides the code: a
 * vanishing pivot (after scaling each row by its largest entry, since the
 * equations of one block can have very different units) is
 * RT_FAIL_SINGULAR, anything else RT_FAIL_NEWTON.
 *
 * The GSL solvers are allocated once per block, on first use, and kept in
 * the RtBlockWork behind RtEval.rt.
 */
#include "rt_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multiroots.h>

enum {
    RT_NEWTON_MAX_ITER = 100,       /* hybridsj iterations */
    RT_NEWTON_STEPS = 20,           /* Newton steps before hybridsj */
    RT_NEWTON_HALVINGS = 10,        /* halvings of one Newton step */
};
#define RT_NEWTON_RTOL 1e-10        /* Newton correction / unknown */
#define RT_NEWTON_SCALE_FLOOR 1e-6  /* of the block's largest unknown */
#define RT_SINGULAR_PIVOT 1e-13     /* pivot / row scale: singular */

/* One block's solver and scratch, sized for its unknowns. */
typedef struct BlockSolver {
    int n;                          /* unknowns (0: not allocated yet) */
    gsl_multiroot_fdfsolver *s;     /* hybridsj */
    gsl_matrix *lu;                 /* Jacobian, factorized in place */
    gsl_permutation *perm;          /* its row permutation */
    gsl_vector *step;               /* Newton correction */
    gsl_vector *res;                /* residual at the iterate */
    double *zbuf, *rbuf, *jbuf;     /* contiguous copies for the model */
    double *guess;                  /* the caller's guess, kept for scale */
    double *rowscale;               /* each equation's scale: its Jacobian
                                       row's largest entry at the iterate */
    double *shift;                  /* hybridsj's unknowns are z - shift */
    gsl_vector *zk;                 /* Newton's iterate */
    gsl_vector *trial;              /* a trial point along its step */
    gsl_vector *res2;               /* the residual there */
} BlockSolver;

struct RtBlockWork {
    int n_blocks;                   /* rt_model.n_blocks */
    BlockSolver **solvers;          /* per block: its solver, made on its
                                       first solve (most blocks of a large
                                       model never need one) */
    unsigned long solves;           /* rt_solve_block calls so far */
};

/* What the GSL callbacks need to reach the model's functions. */
typedef struct BlockCall {
    RtEval *e;                      /* the evaluation the block belongs to */
    RtBlockFn f;                    /* its residuals */
    RtBlockJac jac;                 /* its analytic Jacobian */
    BlockSolver *b;                 /* its solver and buffers */
    int status;                     /* RT_FAIL_* from inside a callback */
    const double *shift;            /* added to the unknowns the callbacks
                                       get (hybridsj's), or NULL */
} BlockCall;

static int fail_code(int rc)
{
    return rc == RT_FAIL_SINGULAR || rc == RT_FAIL_NEWTON ? rc : RT_FAIL_DOMAIN;
}

static void solver_free(BlockSolver *b)
{
    if (b->s)
        gsl_multiroot_fdfsolver_free(b->s);
    if (b->lu)
        gsl_matrix_free(b->lu);
    if (b->perm)
        gsl_permutation_free(b->perm);
    if (b->step)
        gsl_vector_free(b->step);
    if (b->res)
        gsl_vector_free(b->res);
    gsl_vector *vecs[] = {b->zk, b->trial, b->res2};
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
        if (vecs[i])
            gsl_vector_free(vecs[i]);
    free(b->rowscale);
    free(b->shift);
    free(b->zbuf);
    free(b->rbuf);
    free(b->jbuf);
    free(b->guess);
    memset(b, 0, sizeof *b);
}

static int solver_alloc(BlockSolver *b, int n)
{
    size_t un = (size_t)n;
    b->n = n;
    b->s = gsl_multiroot_fdfsolver_alloc(gsl_multiroot_fdfsolver_hybridsj, un);
    b->lu = gsl_matrix_alloc(un, un);
    b->perm = gsl_permutation_alloc(un);
    b->step = gsl_vector_alloc(un);
    b->res = gsl_vector_alloc(un);
    b->zbuf = rt_xcalloc(un, sizeof(double));
    b->rbuf = rt_xcalloc(un, sizeof(double));
    b->jbuf = rt_xcalloc(un * un, sizeof(double));
    b->guess = rt_xcalloc(un, sizeof(double));
    b->rowscale = rt_xcalloc(un, sizeof(double));
    b->shift = rt_xcalloc(un, sizeof(double));
    b->zk = gsl_vector_alloc(un);
    b->trial = gsl_vector_alloc(un);
    b->res2 = gsl_vector_alloc(un);
    if (!b->s || !b->lu || !b->perm || !b->step || !b->res || !b->zk || !b->trial
        || !b->res2) {
        solver_free(b);
        return -1;
    }
    return 0;
}

RtBlockWork *rt_blockwork_new(const RtModel *m)
{
    RtBlockWork *w = rt_xcalloc(1, sizeof *w);
    w->n_blocks = m->n_blocks > 0 ? m->n_blocks : 0;
    w->solvers = rt_xcalloc((size_t)w->n_blocks, sizeof *w->solvers);
    return w;
}

unsigned long rt_blockwork_solves(const RtBlockWork *w)
{
    return w ? w->solves : 0;
}

void rt_blockwork_free(RtBlockWork *w)
{
    if (!w)
        return;
    for (int i = 0; i < w->n_blocks; i++)
        if (w->solvers[i]) {
            solver_free(w->solvers[i]);
            free(w->solvers[i]);
        }
    free(w->solvers);
    free(w);
}

/* Residuals through contiguous buffers: GSL vectors may have a stride. */
static int eval_res(BlockCall *c, const gsl_vector *z, gsl_vector *res)
{
    BlockSolver *b = c->b;
    for (int i = 0; i < b->n; i++)
        b->zbuf[i] = gsl_vector_get(z, (size_t)i) + (c->shift ? c->shift[i] : 0);
    int rc = c->f(c->e, b->zbuf, b->rbuf);
    if (rc != 0) {
        c->status = fail_code(rc);
        return GSL_EBADFUNC;
    }
    for (int i = 0; i < b->n; i++) {
        if (!isfinite(b->rbuf[i])) {
            c->status = RT_FAIL_DOMAIN;
            return GSL_EBADFUNC;
        }
        gsl_vector_set(res, (size_t)i, b->rbuf[i]);
    }
    return GSL_SUCCESS;
}

static int eval_jac(BlockCall *c, const gsl_vector *z, gsl_matrix *J)
{
    BlockSolver *b = c->b;
    int n = b->n;
    for (int i = 0; i < n; i++)
        b->zbuf[i] = gsl_vector_get(z, (size_t)i) + (c->shift ? c->shift[i] : 0);
    int rc = c->jac(c->e, b->zbuf, b->jbuf);
    if (rc != 0) {
        c->status = fail_code(rc);
        return GSL_EBADFUNC;
    }
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            double v = b->jbuf[(size_t)i * (size_t)n + (size_t)j];
            if (!isfinite(v)) {
                c->status = RT_FAIL_DOMAIN;
                return GSL_EBADFUNC;
            }
            gsl_matrix_set(J, (size_t)i, (size_t)j, v);
        }
    }
    return GSL_SUCCESS;
}

static int cb_f(const gsl_vector *z, void *params, gsl_vector *res)
{
    return eval_res(params, z, res);
}

static int cb_df(const gsl_vector *z, void *params, gsl_matrix *J)
{
    return eval_jac(params, z, J);
}

static int cb_fdf(const gsl_vector *z, void *params, gsl_vector *res,
                  gsl_matrix *J)
{
    int rc = eval_res(params, z, res);
    return rc != GSL_SUCCESS ? rc : eval_jac(params, z, J);
}

/* Factorizes the Jacobian at z (rows scaled to unit maximum) and
   computes the Newton correction into b->step.  Returns 0, 1 when the
   Jacobian is singular, or -1 when a callback failed. */
static int newton_step(BlockCall *c, const gsl_vector *z)
{
    BlockSolver *b = c->b;
    size_t n = (size_t)b->n;
    if (eval_res(c, z, b->res) != GSL_SUCCESS
        || eval_jac(c, z, b->lu) != GSL_SUCCESS)
        return -1;
    for (size_t i = 0; i < n; i++) {
        double big = 0;
        for (size_t j = 0; j < n; j++)
            big = fmax(big, fabs(gsl_matrix_get(b->lu, i, j)));
        if (big == 0)
            return 1;
        b->rowscale[i] = big;
        for (size_t j = 0; j < n; j++)
            gsl_matrix_set(b->lu, i, j, gsl_matrix_get(b->lu, i, j) / big);
        gsl_vector_set(b->res, i, -gsl_vector_get(b->res, i) / big);
    }
    int sign;
    gsl_linalg_LU_decomp(b->lu, b->perm, &sign);
    for (size_t i = 0; i < n; i++)
        if (fabs(gsl_matrix_get(b->lu, i, i)) <= RT_SINGULAR_PIVOT)
            return 1;
    gsl_linalg_LU_solve(b->lu, b->perm, b->res, b->step);
    return 0;
}

/* Is the step d below rtol at z?  The floor keeps unknowns that converge
   to zero from demanding an exact zero: it is relative to the largest
   unknown of the block, at z or in the guess. */
static int small_step(const BlockSolver *b, const gsl_vector *d,
                      const gsl_vector *z, double rtol)
{
    double scale = 0;
    for (int i = 0; i < b->n; i++)
        scale = fmax(scale, fmax(fabs(gsl_vector_get(z, (size_t)i)),
                                 fabs(b->guess[i])));
    for (int i = 0; i < b->n; i++) {
        double zi = fabs(gsl_vector_get(z, (size_t)i));
        double tol = rtol * fmax(zi, RT_NEWTON_SCALE_FLOOR * scale);
        if (!(fabs(gsl_vector_get(d, (size_t)i)) <= tol))
            return 0;
    }
    return 1;
}

/* Newton-checks z; on success writes the corrected solution to out. */
static int accept_if_converged(BlockCall *c, const gsl_vector *z, double *out)
{
    if (newton_step(c, z) != 0 || !small_step(c->b, c->b->step, z, RT_NEWTON_RTOL))
        return 0;
    for (int i = 0; i < c->b->n; i++)
        out[i] = gsl_vector_get(z, (size_t)i)
                 + gsl_vector_get(c->b->step, (size_t)i);
    return 1;
}

/* The squared norm of the scaled residual in b->res (newton_step: each
   row divided by its Jacobian row's largest entry), or of F at z scaled
   the same way into b->res2; -1 if F cannot be evaluated there. */
static double merit_res(const BlockSolver *b)
{
    double m = 0;
    for (int i = 0; i < b->n; i++)
        m += gsl_vector_get(b->res, (size_t)i) * gsl_vector_get(b->res, (size_t)i);
    return m;
}

static double merit_at(BlockCall *c, const gsl_vector *z)
{
    BlockSolver *b = c->b;
    if (eval_res(c, z, b->res2) != GSL_SUCCESS)
        return -1;
    double m = 0;
    for (int i = 0; i < b->n; i++) {
        double r = gsl_vector_get(b->res2, (size_t)i) / b->rowscale[i];
        m += r * r;
    }
    return m;
}

/* Newton from b->zk: full steps, each halved while it does not reduce
   the scaled residual.  1: converged, the corrected solution in out; 0:
   stalled (b->zk holds the best iterate, b->step its Newton step when it
   has one); -1: a callback failed at an iterate (c->status). */
static int newton(BlockCall *c, double *out)
{
    BlockSolver *b = c->b;
    size_t n = (size_t)b->n;
    for (int it = 0; it < RT_NEWTON_STEPS; it++) {
        int rc = newton_step(c, b->zk);
        if (rc < 0)
            return -1;
        if (rc > 0)
            return 0;                   /* singular: hybridsj's turn */
        if (small_step(b, b->step, b->zk, RT_NEWTON_RTOL)) {
            for (size_t i = 0; i < n; i++)
                out[i] = gsl_vector_get(b->zk, i) + gsl_vector_get(b->step, i);
            return 1;
        }
        double m0 = merit_res(b), lambda = 1;
        int moved = 0;
        for (int k = 0; k <= RT_NEWTON_HALVINGS && !moved; k++, lambda *= 0.5) {
            for (size_t i = 0; i < n; i++)
                gsl_vector_set(b->trial, i, gsl_vector_get(b->zk, i)
                               + lambda * gsl_vector_get(b->step, i));
            double m1 = merit_at(c, b->trial);
            c->status = RT_OK;          /* a trial point may fail: shorter */
            moved = m1 >= 0 && m1 < m0;
        }
        if (!moved)
            return 0;
        gsl_vector_memcpy(b->zk, b->trial);
    }
    return 0;
}

static int block_failed(RtEval *e, int block, int code)
{
    e->fail_block = block;
    return code;
}

int rt_solve_block(RtEval *e, int block, int n, double *z, RtBlockFn f,
                   RtBlockJac jac)
{
    if (n <= 0)
        return RT_OK;
    RtBlockWork *w = e->rt;
    if (w)
        w->solves++;
    BlockSolver local = {0};
    BlockSolver *b = &local;
    /* Without the runtime's workspace (a caller outside the simulator) or
       for an unknown block, a solver lives for this one call. */
    if (w && block >= 0 && block < w->n_blocks) {
        if (!w->solvers[block])
            w->solvers[block] = rt_xcalloc(1, sizeof *w->solvers[block]);
        b = w->solvers[block];
        if (b->n != n) {
            solver_free(b);
            if (solver_alloc(b, n) != 0)
                return block_failed(e, block, RT_FAIL_NEWTON);
        }
    } else if (solver_alloc(b, n) != 0) {
        return block_failed(e, block, RT_FAIL_NEWTON);
    }

    BlockCall call = {e, f, jac, b, RT_OK, NULL};
    size_t un = (size_t)n;
    memcpy(b->guess, z, un * sizeof(double));
    gsl_vector_view zv = gsl_vector_view_array(b->guess, un);
    int result = RT_FAIL_NEWTON;

    /* the common case: the guess is the solution */
    if (accept_if_converged(&call, &zv.vector, z)) {
        result = RT_OK;
        goto done;
    }
    if (call.status != RT_OK) {
        result = call.status;
        goto done;
    }
    gsl_vector_memcpy(b->zk, &zv.vector);
    int nr = newton(&call, z);
    if (nr != 0) {
        result = nr > 0 ? RT_OK : call.status;
        goto done;
    }
    /* hybridsj from Newton's best iterate, its origin shifted one Newton
       step (or the iterate's size) away: its first trust radius is then
       100 times that, not 100 times the size of an iterate near zero */
    for (size_t i = 0; i < un; i++) {
        double zi = gsl_vector_get(b->zk, i), d = fabs(gsl_vector_get(b->step, i));
        double size = fmax(fabs(zi), isfinite(d) ? d : 0);
        b->shift[i] = zi - size;
        gsl_vector_set(b->trial, i, size);
    }
    call.shift = b->shift;
    gsl_multiroot_function_fdf fdf = {cb_f, cb_df, cb_fdf, un, &call};
    if (gsl_multiroot_fdfsolver_set(b->s, &fdf, b->trial) != GSL_SUCCESS) {
        result = call.status != RT_OK ? call.status : RT_FAIL_NEWTON;
        goto done;
    }
    for (int it = 0; it < RT_NEWTON_MAX_ITER; it++) {
        int st = gsl_multiroot_fdfsolver_iterate(b->s);
        if (call.status != RT_OK) {
            /* A trial point hybridsj chose failed (a wild dogleg step on
               a near-singular Jacobian, say): the iterate it came from is
               the one to judge. */
            call.status = RT_OK;
            break;
        }
        const gsl_vector *x = gsl_multiroot_fdfsolver_root(b->s);
        const gsl_vector *dx = gsl_multiroot_fdfsolver_dx(b->s);
        for (size_t i = 0; i < un; i++)
            gsl_vector_set(b->zk, i, gsl_vector_get(x, i) + b->shift[i]);
        /* Only a small hybridsj step, or its giving up, is worth the
           Newton check that decides.  Near a root the next Newton step is
           about the square of this one, so a looser test suffices. */
        int small = small_step(b, dx, b->zk, sqrt(RT_NEWTON_RTOL));
        if (small || st != GSL_SUCCESS || it + 1 == RT_NEWTON_MAX_ITER) {
            call.shift = NULL;
            if (accept_if_converged(&call, b->zk, z)) {
                result = RT_OK;
                goto done;
            }
            if (call.status != RT_OK) {
                result = call.status;
                goto done;
            }
            call.shift = b->shift;
            if (st != GSL_SUCCESS)
                break;
        }
    }
    /* Classify at the best iterate hybridsj reached; only a failure
       there is the model's own domain error. */
    {
        const gsl_vector *x = gsl_multiroot_fdfsolver_root(b->s);
        for (size_t i = 0; i < un; i++)
            gsl_vector_set(b->zk, i, gsl_vector_get(x, i) + b->shift[i]);
        call.shift = NULL;
        int rc = newton_step(&call, b->zk);
        if (rc < 0)
            result = call.status;
        else
            result = rc == 1 ? RT_FAIL_SINGULAR : RT_FAIL_NEWTON;
    }
done:
    if (b == &local)
        solver_free(b);
    if (result != RT_OK)
        return block_failed(e, block, result);
    return RT_OK;
}

/* Linear blocks (a Jacobian that does not depend on the block's own
   unknowns) skip Newton: one LU factorization with partial pivoting.  A
   pivot below 1e-13 of the column's largest entry counts as singular. */
int rt_solve_linear(RtEval *e, int block, int n, double *A, double *b)
{
    for (int k = 0; k < n; k++) {
        int p = k;
        double best = fabs(A[k * n + k]), scale = 0;
        for (int i = k; i < n; i++) {
            double v = fabs(A[i * n + k]);
            if (v > best) {
                best = v;
                p = i;
            }
        }
        for (int i = 0; i < n; i++)
            if (fabs(A[i * n + k]) > scale)
                scale = fabs(A[i * n + k]);
        if (!(best > 1e-13 * scale) || !isfinite(best)) {
            e->fail_block = block;
            return RT_FAIL_SINGULAR;
        }
        if (p != k) {
            for (int j = 0; j < n; j++) {
                double t = A[k * n + j];
                A[k * n + j] = A[p * n + j];
                A[p * n + j] = t;
            }
            double t = b[k];
            b[k] = b[p];
            b[p] = t;
        }
        for (int i = k + 1; i < n; i++) {
            double f = A[i * n + k] / A[k * n + k];
            if (f == 0)
                continue;
            for (int j = k; j < n; j++)
                A[i * n + j] -= f * A[k * n + j];
            b[i] -= f * b[k];
        }
    }
    for (int k = n - 1; k >= 0; k--) {
        double s = b[k];
        for (int j = k + 1; j < n; j++)
            s -= A[k * n + j] * b[j];
        b[k] = s / A[k * n + k];
    }
    return RT_OK;
}
