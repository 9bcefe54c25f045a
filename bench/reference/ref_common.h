/*
 * ref_common.h - what the hand-written reference simulators share: the
 * command line, the CSV rows, the integration loop and, for the problems
 * with walls, the event handling.  Each problem is one .c file that
 * defines its equations and includes this header.
 *
 * The references do what the generated simulators do, by hand, so that
 * a time ratio measures the generated code and the runtime, not a
 * different algorithm:
 *
 * - the same gsl_odeiv2 stepper (--solver), the same tolerances (--rtol,
 *   --atol; every state's nominal is 1, so the runtime's scaled control
 *   is GSL's standard y control), the same first step
 *   (1e-3 * min(stop time, output step)), one gsl_odeiv2_evolve_apply
 *   per step, steps clipped at output times, and an output time that is
 *   between one and two steps away reached in two even steps;
 * - the same output grid (--stop-time, --output-step [T/500]), one CSV
 *   row per output time, %.17g;
 * - for problems with events: the relations frozen in modes between
 *   events; after a step whose relations changed, the crossing is located
 *   on the cubic Hermite interpolant (Illinois), confirmed by integrating
 *   from the step's start to both ends of the located bracket, to 1e-12 of
 *   the stop time; at the event a row before and a row after, and a
 *   stepper reset.  A guarded relation (a wall's force clamp, which only
 *   matters while the wall is touched) that changes while its guard is
 *   off is followed without an event.  This is the algorithm of runtime/rt_events.c, written
 *   for a known small set of relations.
 *
 * What they leave out: parameters on the command line, initial-value
 * solving (the initial state is written down), the finiteness checks,
 * asserts, progress bars and event logs.
 */
#ifndef REF_COMMON_H
#define REF_COMMON_H

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- supplied by the problem ---------------------------------------------- */

/* State dimension, relation count (0 without events), output columns. */
static int n_states, n_rel, n_cols;
/* Per relation: the relation it matters under (-1: always) and the value
   that relation must have, as the generated RtRelationInfo has them. */
static const int *rel_guard, *rel_guard_value;
static int rhs(double t, const double y[], double dydt[], void *params);
static int jac(double t, const double y[], double *dfdy, double dfdt[], void *params);
/* Zero-crossing functions and truth values of the relations at y. */
static void relations(const double *y, double *g, int *truth);
static const char *col_name(int i);
static double col_value(int i, double t, const double *y);

/* ---- options ------------------------------------------------------------------ */

typedef struct {
    double stop_time, output_step, rtol, atol;
    const char *solver, *out;
    long n;
} RefOptions;

static RefOptions opt = {1, 0, 1e-6, 1e-9, "msbdf", NULL, 0};

static const gsl_odeiv2_step_type *stepper_named(const char *s)
{
    static const struct { const char *name; const gsl_odeiv2_step_type **t; } tab[] = {
        {"rk2", &gsl_odeiv2_step_rk2}, {"rk4", &gsl_odeiv2_step_rk4},
        {"rkf45", &gsl_odeiv2_step_rkf45}, {"rkck", &gsl_odeiv2_step_rkck},
        {"rk8pd", &gsl_odeiv2_step_rk8pd}, {"rk1imp", &gsl_odeiv2_step_rk1imp},
        {"rk2imp", &gsl_odeiv2_step_rk2imp}, {"rk4imp", &gsl_odeiv2_step_rk4imp},
        {"bsimp", &gsl_odeiv2_step_bsimp}, {"msadams", &gsl_odeiv2_step_msadams},
        {"msbdf", &gsl_odeiv2_step_msbdf},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (!strcmp(s, tab[i].name))
            return *tab[i].t;
    return NULL;
}

static void usage(const char *prog)
{
    fprintf(stderr, "usage: %s [--n N] [--stop-time T] [--output-step DT] [--rtol R] "
            "[--atol A] [--solver NAME] [-o FILE]\n", prog);
    exit(1);
}

static void parse_options(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--quiet"))
            continue;
        if (i + 1 >= argc)
            usage(argv[0]);
        const char *v = argv[++i];
        if (!strcmp(a, "--stop-time")) opt.stop_time = atof(v);
        else if (!strcmp(a, "--output-step")) opt.output_step = atof(v);
        else if (!strcmp(a, "--rtol")) opt.rtol = atof(v);
        else if (!strcmp(a, "--atol")) opt.atol = atof(v);
        else if (!strcmp(a, "--solver")) opt.solver = v;
        else if (!strcmp(a, "--n")) opt.n = atol(v);
        else if (!strcmp(a, "-o")) opt.out = v;
        else usage(argv[0]);
    }
    if (opt.output_step <= 0)
        opt.output_step = opt.stop_time / 500;
    if (!stepper_named(opt.solver) || !(opt.stop_time > 0))
        usage(argv[0]);
}

/* ---- rows ------------------------------------------------------------------------ */

static FILE *out;

static void header(void)
{
    fputs("time", out);
    for (int i = 0; i < n_cols; i++)
        fprintf(out, ",%s", col_name(i));
    fputc('\n', out);
}

static void row(double t, const double *y)
{
    fprintf(out, "%.17g", t);
    for (int i = 0; i < n_cols; i++)
        fprintf(out, ",%.17g", col_value(i, t, y));
    fputc('\n', out);
}

/* The output times, as the runtime computes them. */
static double output_time(long k, long *n_rows)
{
    double T = opt.stop_time, dt = opt.output_step;
    long last = (long)floor(T / dt + 1e-9);
    int extra = fabs(T - (double)last * dt) > 1e-9 * dt;
    if (n_rows)
        *n_rows = last + 1 + extra;
    if (k >= last + extra)
        return T;
    return (double)k * dt;
}

/* ---- integration ------------------------------------------------------------- */

static gsl_odeiv2_system sys;
static gsl_odeiv2_driver *drv;
static double h_cur;

static void die(const char *what, double t, int status)
{
    fprintf(stderr, "reference: %s failed at t = %g (GSL status %d)\n", what, t, status);
    exit(3);
}

static void step(double *t, double t1, double *h, double *y)
{
    int st = gsl_odeiv2_evolve_apply(drv->e, drv->c, drv->s, &sys, t, t1, h, y);
    if (st != GSL_SUCCESS)
        die("step", *t, st);
}

/* ---- events ----------------------------------------------------------------------- */

static int *modes, *truth;
static double *g;
static double *xt, *dxt, *x0, *dx0, *dx;

static double time_tol(double t)
{
    double tol = 1e-12 * fmax(fabs(t), opt.stop_time);
    tol = fmax(tol, 4 * DBL_EPSILON * fabs(t));
    return tol > 0 ? tol : DBL_MIN;
}

static int first_changed(void)
{
    for (int i = 0; i < n_rel; i++)
        if (truth[i] != modes[i])
            return i;
    return -1;
}

/* Relation i cannot matter now: its guard's mode is off. */
static int inert(int i)
{
    int gi = rel_guard ? rel_guard[i] : -1;
    return gi >= 0 && modes[gi] != rel_guard_value[i];
}

static int first_changed_active(void)
{
    for (int i = 0; i < n_rel; i++)
        if (truth[i] != modes[i] && !inert(i))
            return i;
    return -1;
}

static void probe(double t, const double *y, double *f)
{
    rhs(t, y, f, NULL);
    relations(y, g, truth);
}

static double oriented(int i)
{
    return modes[i] ? g[i] : -g[i];
}

typedef struct {
    double t;
    double *x, *f;
} Pt;

static void pt_set(Pt *p, double t, const double *y, const double *f)
{
    p->t = t;
    memcpy(p->x, y, (size_t)n_states * sizeof *y);
    memcpy(p->f, f, (size_t)n_states * sizeof *f);
}

static void hermite(const Pt *L, const Pt *R, double t, double *o)
{
    double h = R->t - L->t, u = h != 0 ? (t - L->t) / h : 1, v = 1 - u;
    double h00 = (1 + 2 * u) * v * v, h10 = u * v * v;
    double h01 = u * u * (3 - 2 * u), h11 = -u * u * v;
    for (int i = 0; i < n_states; i++)
        o[i] = h00 * L->x[i] + h10 * h * L->f[i] + h01 * R->x[i] + h11 * h * R->f[i];
}

/* Illinois on the interpolant for relation i. */
static void locate(const Pt *L, const Pt *R, int i, double ha, double hb, double *ta,
                   double *tb)
{
    double a = L->t, b = R->t, tol = time_tol(b);
    int side = 0;
    for (int it = 0; it < 200 && b - a > tol; it++) {
        double c = ha > 0 && hb < 0 ? b - hb * (b - a) / (hb - ha) : 0.5 * (a + b);
        double lo = a + 0.5 * tol, hi = b - 0.5 * tol;
        c = lo >= hi ? 0.5 * (a + b) : fmin(fmax(c, lo), hi);
        hermite(L, R, c, xt);
        probe(c, xt, dxt);
        double hc = oriented(i);
        if (truth[i] != modes[i]) {
            b = c;
            hb = hc;
            if (side < 0)
                ha *= 0.5;
            side = -1;
        } else {
            a = c;
            ha = hc;
            if (side > 0)
                hb *= 0.5;
            side = 1;
        }
    }
    *ta = a;
    *tb = b;
}

static void earliest(const Pt *L, const Pt *R, double *ta, double *tb)
{
    int crossed[64];
    double h0[64], h1[64];
    probe(R->t, R->x, dxt);
    for (int i = 0; i < n_rel; i++) {
        crossed[i] = truth[i] != modes[i] && !inert(i);
        h1[i] = oriented(i);
    }
    probe(L->t, L->x, dxt);
    for (int i = 0; i < n_rel; i++)
        h0[i] = oriented(i);
    *ta = L->t;
    *tb = R->t;
    for (int i = 0; i < n_rel; i++) {
        if (!crossed[i])
            continue;
        double a, b;
        locate(L, R, i, h0[i], h1[i], &a, &b);
        if (b < *tb) {
            *ta = a;
            *tb = b;
        }
    }
}

/* Integrates from L to t into xt, resetting the stepper first. */
static void reintegrate(const Pt *L, double t1)
{
    memcpy(xt, L->x, (size_t)n_states * sizeof *xt);
    if (!(t1 > L->t))
        return;
    gsl_odeiv2_driver_reset(drv);
    double t = L->t, h = fmin(h_cur, t1 - L->t);
    while (t < t1)
        step(&t, t1, &h, xt);
}

static int integrate_and_probe(const Pt *L, double t)
{
    reintegrate(L, t);
    probe(t, xt, dxt);
    return first_changed_active() >= 0;
}

static void refine(Pt *L, Pt *R)
{
    for (int pass = 0; pass < 12; pass++) {
        if (R->t - L->t <= time_tol(R->t))
            return;
        double a, b;
        earliest(L, R, &a, &b);
        if (a > L->t) {
            if (integrate_and_probe(L, a)) {
                pt_set(R, a, xt, dxt);
                continue;
            }
            pt_set(L, a, xt, dxt);
        }
        if (b < R->t) {
            if (!integrate_and_probe(L, b)) {
                pt_set(L, b, xt, dxt);
                continue;
            }
            pt_set(R, b, xt, dxt);
        }
    }
}

/* ---- main loop ------------------------------------------------------------------- */

static int ref_main(int argc, char **argv, const double *y_init)
{
    parse_options(argc, argv);
    out = opt.out ? fopen(opt.out, "w") : stdout;
    if (!out) {
        perror(opt.out);
        return 1;
    }
    int n = n_states;
    double *y = malloc(sizeof(double) * (size_t)n);
    xt = malloc(sizeof(double) * (size_t)n);
    dxt = malloc(sizeof(double) * (size_t)n);
    x0 = malloc(sizeof(double) * (size_t)n);
    dx0 = malloc(sizeof(double) * (size_t)n);
    dx = malloc(sizeof(double) * (size_t)n);
    double *store = malloc(sizeof(double) * 4 * (size_t)n);
    int nr = n_rel > 0 ? n_rel : 1;
    modes = calloc((size_t)nr, sizeof *modes);
    truth = calloc((size_t)nr, sizeof *truth);
    g = calloc((size_t)nr, sizeof *g);
    if (!y || !xt || !dxt || !x0 || !dx0 || !dx || !store || !modes || !truth || !g || n_rel > 64)
        return 1;
    memcpy(y, y_init, sizeof(double) * (size_t)n);
    if (n_rel > 0) {
        relations(y, g, truth);
        memcpy(modes, truth, sizeof(int) * (size_t)n_rel);
    }
    sys.function = rhs;
    sys.jacobian = jac;
    sys.dimension = (size_t)n;
    sys.params = NULL;
    h_cur = 1e-3 * fmin(opt.stop_time, opt.output_step);
    drv = gsl_odeiv2_driver_alloc_y_new(&sys, stepper_named(opt.solver), h_cur, opt.atol,
                                        opt.rtol);
    if (!drv)
        return 1;
    header();
    long n_rows;
    output_time(0, &n_rows);
    double t = 0;
    rhs(t, y, dx, NULL);
    row(t, y);
    for (long k = 1; k < n_rows; k++) {
        double tout = output_time(k, NULL);
        while (t < tout) {
            /* an output time between one and two steps away: two even steps */
            double rem = tout - t;
            if (rem > h_cur && rem < 2 * h_cur)
                h_cur = 0.5 * rem;
            if (n_rel == 0) {
                step(&t, tout, &h_cur, y);
                continue;
            }
            {
                double t0 = t;
                memcpy(x0, y, sizeof(double) * (size_t)n);
                memcpy(dx0, dx, sizeof(double) * (size_t)n);
                step(&t, tout, &h_cur, y);
                probe(t, y, dx);
                if (first_changed() < 0)
                    continue;
                if (first_changed_active() < 0) {
                    /* only relations that cannot matter now: follow them */
                    for (int i = 0; i < n_rel; i++)
                        if (truth[i] != modes[i] && inert(i))
                            modes[i] = truth[i];
                    continue;
                }
                Pt L = {t0, store, store + n}, R = {t, store + 2 * n, store + 3 * n};
                pt_set(&L, t0, x0, dx0);
                pt_set(&R, t, y, dx);
                refine(&L, &R);
                /* the event at R: a row before, the flip, a row after */
                t = R.t;
                memcpy(y, R.x, sizeof(double) * (size_t)n);
                row(t, y);
                relations(y, g, truth);
                memcpy(modes, truth, sizeof(int) * (size_t)n_rel);
                probe(t, y, dx);
                row(t, y);
                gsl_odeiv2_driver_reset(drv);
            }
        }
        row(tout, y);
    }
    gsl_odeiv2_driver_free(drv);
    if (out != stdout)
        fclose(out);
    free(y);
    free(store);
    return 0;
}

#endif
