/*
 * ref_common.h - the driver of the hand-written reference simulators.
 *
 * Each problem (wall_contact.c, mass_chain.c, lever_chain.c) fills a
 * RefProblem with its equations, derived by hand, and calls ref_main.
 * These programs are what a C programmer would write against GSL by
 * hand, and they share no code with the runtime (runtime/).  What they
 * take from it is its documented stepping policy, so that a time ratio
 * compares the same amount of work; the event location is their own.
 *
 * - Stepping: a gsl_odeiv2_driver with the stepper named by --solver and
 *   GSL's standard error control (every state's nominal is 1 in these
 *   models, so it is the runtime's scaled control), first step 1e-3 of
 *   the output step; one gsl_odeiv2_evolve_apply per step on the driver's
 *   objects, clipped at the next output time, and split in two even steps
 *   when that time is between one and two steps away (a sliver of a step
 *   costs msbdf a hundredfold in accuracy, and several times in time).
 * - Walls: each wall is in one of three contact states: apart, pressed
 *   (the force k*pen + c*v acts) or touching with the force clamped at
 *   zero (it would pull).  The switching functions are the penetration,
 *   and, while touching, the unclamped force.  After every step, one that
 *   changed sign since the step's start marks an event in the step.  Its
 *   time is found by bisection: integrate again from the step's start
 *   (driver reset, gsl_odeiv2_driver_apply) to the midpoint, keep the
 *   half where the sign changes, until the bracket is below 1e-12 of the
 *   stop time.  The event is at the bracket's right end: a row there with
 *   the old contact states, the new states from the signs there, a second
 *   row, and a fresh start of the stepper.
 * - Output: a row at every multiple of --output-step [T/500] and at the
 *   stop time; `%.17g`, the usual way to print doubles that read back
 *   exactly.
 *
 * Left out: parameters on the command line, initial-value solving (the
 * initial state is written down), finiteness checks, asserts, progress
 * and event logs.
 */
#ifndef REF_COMMON_H
#define REF_COMMON_H

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { REF_MAX_WALLS = 4 };

/* The contact state of a wall. */
typedef enum { APART, PRESSED, CLAMPED } Contact;

/* What a problem supplies. */
typedef struct RefProblem {
    int n;                          /* states */
    int n_walls;                    /* walls (0: no events) */
    gsl_odeiv2_system sys;          /* rhs and analytic Jacobian */
    /* Each wall's penetration and unclamped force at state y. */
    void (*walls)(const double *y, double *pen, double *push);
    int n_cols;                     /* output columns after time */
    const char *(*col_name)(int i);
    double (*col_value)(int i, const double *y);
} RefProblem;

/* The command line: --n N, --stop-time, --output-step, --rtol, --atol,
   --solver, -o, --quiet. */
typedef struct RefArgs {
    long n;
    double stop, step, rtol, atol;
    const char *solver, *out;
} RefArgs;

/* The walls' contact states: the rhs and the columns read them. */
static Contact contact[REF_MAX_WALLS];

static void ref_usage(const char *prog)
{
    fprintf(stderr, "usage: %s [--n N] [--stop-time T] [--output-step DT] [--rtol R] "
            "[--atol A] [--solver NAME] [-o FILE]\n"
            "  --n N: the chains' number of stages, which they need\n"
            "  -o FILE: the CSV's file [standard output]\n", prog);
    exit(1);
}

static RefArgs ref_args(int argc, char **argv)
{
    RefArgs a = {0, 1, 0, 1e-6, 1e-9, "msbdf", NULL};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quiet"))
            continue;
        if (i + 1 == argc)
            ref_usage(argv[0]);
        const char *k = argv[i], *v = argv[++i];
        char *end;
        double x = strtod(v, &end);
        if (!strcmp(k, "--solver"))
            a.solver = v;
        else if (!strcmp(k, "-o"))
            a.out = v;
        else if (*end)
            ref_usage(argv[0]);
        else if (!strcmp(k, "--n"))
            a.n = (long)x;
        else if (!strcmp(k, "--stop-time"))
            a.stop = x;
        else if (!strcmp(k, "--output-step"))
            a.step = x;
        else if (!strcmp(k, "--rtol"))
            a.rtol = x;
        else if (!strcmp(k, "--atol"))
            a.atol = x;
        else
            ref_usage(argv[0]);
    }
    if (!(a.stop > 0))
        ref_usage(argv[0]);
    if (!(a.step > 0))
        a.step = a.stop / 500;
    return a;
}

static const gsl_odeiv2_step_type *ref_stepper(const char *name)
{
    const char *names = "rk2 rk4 rkf45 rkck rk8pd rk1imp rk2imp rk4imp bsimp msadams msbdf";
    const gsl_odeiv2_step_type *types[11];
    types[0] = gsl_odeiv2_step_rk2;
    types[1] = gsl_odeiv2_step_rk4;
    types[2] = gsl_odeiv2_step_rkf45;
    types[3] = gsl_odeiv2_step_rkck;
    types[4] = gsl_odeiv2_step_rk8pd;
    types[5] = gsl_odeiv2_step_rk1imp;
    types[6] = gsl_odeiv2_step_rk2imp;
    types[7] = gsl_odeiv2_step_rk4imp;
    types[8] = gsl_odeiv2_step_bsimp;
    types[9] = gsl_odeiv2_step_msadams;
    types[10] = gsl_odeiv2_step_msbdf;
    size_t len = strlen(name);
    int k = 0;
    for (const char *w = names; *w; k++) {
        size_t wl = strcspn(w, " ");
        if (wl == len && !strncmp(w, name, len))
            return types[k];
        w += wl + (w[wl] == ' ');
    }
    return NULL;
}

static void ref_fail(const char *what, double t, int status)
{
    fprintf(stderr, "reference: %s failed at t = %g (GSL status %d)\n", what, t, status);
    exit(3);
}

static void ref_row(FILE *out, const RefProblem *p, double t, const double *y)
{
    fprintf(out, "%.17g", t);
    for (int i = 0; i < p->n_cols; i++)
        fprintf(out, ",%.17g", p->col_value(i, y));
    fputc('\n', out);
}

/* The constant Jacobian of a chain of `stages` masses, layout y[2i] = x_i,
   y[2i+1] = v_i: dx_i/dt = v_i, and dv_i/dt has `off` at x_{i-1} and
   x_{i+1} and `first`, `inner` or `last` at x_i (first for i = 0, last for
   the last stage of two or more). */
static inline void ref_chain_jacobian(double *dfdy, double *dfdt, int stages, double off,
                                      double first, double inner, double last)
{
    size_t n = 2 * (size_t)stages;
    memset(dfdy, 0, n * n * sizeof *dfdy);
    memset(dfdt, 0, n * sizeof *dfdt);
    for (int i = 0; i < stages; i++) {
        size_t xi = 2 * (size_t)i;
        double *acc = dfdy + (xi + 1) * n;
        dfdy[xi * n + xi + 1] = 1;
        acc[xi] = i == 0 ? first : i + 1 == stages ? last : inner;
        if (i > 0)
            acc[xi - 2] = off;
        if (i + 1 < stages)
            acc[xi + 2] = off;
    }
}

/* ---- walls -------------------------------------------------------------- */

/* The sign pattern of the switching functions at y: bit 2w is wall w's
   penetration > 0, bit 2w+1 its unclamped force >= 0. */
static unsigned ref_signs(const RefProblem *p, const double *y)
{
    double pen[REF_MAX_WALLS], push[REF_MAX_WALLS];
    p->walls(y, pen, push);
    unsigned bits = 0;
    for (int w = 0; w < p->n_walls; w++)
        bits |= (unsigned)(pen[w] > 0) << 2 * w | (unsigned)(push[w] >= 0) << (2 * w + 1);
    return bits;
}

/* The bits that matter now: the penetration always, the force only
   while the wall is touched. */
static unsigned ref_watched(const RefProblem *p)
{
    unsigned mask = 0;
    for (int w = 0; w < p->n_walls; w++)
        mask |= 1u << 2 * w | (unsigned)(contact[w] != APART) << (2 * w + 1);
    return mask;
}

static void ref_set_contacts(const RefProblem *p, unsigned signs)
{
    for (int w = 0; w < p->n_walls; w++)
        contact[w] = !(signs >> 2 * w & 1) ? APART
                     : signs >> (2 * w + 1) & 1 ? PRESSED : CLAMPED;
}

/* The walls' forces at y: the unclamped force while pressed, else 0. */
static inline void ref_wall_forces(void (*walls)(const double *, double *, double *),
                                   int n_walls, const double *y, double *f)
{
    double pen[REF_MAX_WALLS], push[REF_MAX_WALLS];
    walls(y, pen, push);
    for (int w = 0; w < n_walls; w++)
        f[w] = contact[w] == PRESSED ? push[w] : 0;
}

/* y at time t1 by integrating afresh from (t0, y0). */
static void ref_from(gsl_odeiv2_driver *d, double h, double t0, const double *y0,
                     double t1, double *y, int n)
{
    memcpy(y, y0, (size_t)n * sizeof *y);
    gsl_odeiv2_driver_reset_hstart(d, fmin(h, t1 - t0));
    int st = gsl_odeiv2_driver_apply(d, &t0, t1, y);
    if (st != GSL_SUCCESS)
        ref_fail("re-integration", t0, st);
}

/* ---- the run -------------------------------------------------------------- */

static int ref_main(RefProblem *p, const RefArgs *a, const double *y_start)
{
    const gsl_odeiv2_step_type *type = ref_stepper(a->solver);
    FILE *out = a->out ? fopen(a->out, "w") : stdout;
    int n = p->n;
    double *y = malloc(4 * sizeof(double) * (size_t)n);
    if (!type || !out || !y || p->n_walls > REF_MAX_WALLS) {
        fprintf(stderr, "reference: bad solver, output file or problem\n");
        return 1;
    }
    double *y0 = y + n, *ym = y + 2 * n, *yhi = y + 3 * n;
    memcpy(y, y_start, (size_t)n * sizeof *y);
    unsigned signs = 0;             /* of the switching functions at y */
    if (p->n_walls) {
        signs = ref_signs(p, y);
        ref_set_contacts(p, signs);
    }
    double T = a->stop, dt = a->step, t = 0;
    gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&p->sys, type, 1e-3 * fmin(T, dt),
                                                         a->atol, a->rtol);
    fputs("time", out);
    for (int i = 0; i < p->n_cols; i++)
        fprintf(out, ",%s", p->col_name(i));
    fputc('\n', out);
    ref_row(out, p, t, y);
    /* rows at k dt for k = 1 .. last, then at T unless it is one of them */
    long last = (long)floor(T / dt * (1 + 1e-12));
    int tail = T - (double)last * dt > 1e-9 * dt;
    for (long k = 1; k <= last + tail; k++) {
        double tout = k <= last ? (double)k * dt : T;
        while (t < tout) {
            double t0 = t;
            /* no sliver of a step before an output time: split the rest
               in two when one step would overshoot it */
            if (tout - t > d->h && tout - t < 2 * d->h)
                d->h = 0.5 * (tout - t);
            memcpy(y0, y, (size_t)n * sizeof *y);
            unsigned before = signs, mask = ref_watched(p);
            int st = gsl_odeiv2_evolve_apply(d->e, d->c, d->s, d->sys, &t, tout, &d->h, y);
            if (st != GSL_SUCCESS)
                ref_fail("step", t, st);
            if (!p->n_walls)
                continue;
            signs = ref_signs(p, y);
            if (!((signs ^ before) & mask))
                continue;
            /* an event in (t0, t]: bisect on re-integrations from t0 */
            double lo = t0, hi = t, h = d->h;
            memcpy(yhi, y, (size_t)n * sizeof *y);
            while (hi - lo > 1e-12 * T) {
                double mid = lo + 0.5 * (hi - lo);
                if (mid <= lo || mid >= hi)
                    break;
                ref_from(d, h, t0, y0, mid, ym, n);
                if ((ref_signs(p, ym) ^ before) & mask) {
                    hi = mid;
                    memcpy(yhi, ym, (size_t)n * sizeof *y);
                } else {
                    lo = mid;
                }
            }
            t = hi;
            memcpy(y, yhi, (size_t)n * sizeof *y);
            ref_row(out, p, t, y);
            signs = ref_signs(p, y);
            ref_set_contacts(p, signs);
            ref_row(out, p, t, y);
            gsl_odeiv2_driver_reset_hstart(d, h);
        }
        ref_row(out, p, tout, y);
    }
    gsl_odeiv2_driver_free(d);
    free(y);
    if (out != stdout)
        fclose(out);
    return 0;
}

#endif
