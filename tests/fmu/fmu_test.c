/*
 * fmu_test.c - runs an FMU the way an importer does, for the scripts of tests/fmu.
 *
 *   fmu_test FMU me|cs [--stop T] [--step DT] [--tol R] [--h H] [--no-stop 1]
 *                      [--set NAME=VALUE]... [--vars A,B,...] [--events FILE]
 *       Model Exchange with the importer's own integrator (classical RK4
 *       with fixed steps of H, events found on the event indicators by
 *       bisection to 1e-13 s and handled with fmi2NewDiscreteStates), or
 *       Co-Simulation with fmi2DoStep from one output time to the next.
 *       Writes `time,A,B,...` rows at the simulator's output times (k*DT,
 *       and T) on stdout, and the events the FMU logs to FILE (--no-stop 1:
 *       fmi2SetupExperiment says no stop time, the run still ends at T).  With
 *       --at T1 --set2 NAME=VALUE, sets NAME at T1 (between two steps, or
 *       in event mode) and goes on.
 *   fmu_test FMU two [run options] --set2 NAME=VALUE
 *       Two Co-Simulation instances, the second with --set2, stepped in
 *       turn, against each one run alone: bitwise the same rows.
 *   fmu_test FMU state [run options] --at T1
 *       fmi2GetFMUstate at T1, on to T; back with fmi2SetFMUstate and on
 *       again; and again from a serialized and deserialized copy: the same
 *       rows each time, bitwise, for Co-Simulation and Model Exchange.
 *       With --delays 1 (a model with delay()), a state cut short or with
 *       its last delay sample's slope NaN must be refused.
 *   fmu_test FMU dirder --at T1
 *       Model Exchange to T1, then the Jacobian of the derivatives over
 *       the states by fmi2GetDirectionalDerivative: lines
 *       `J DER STATE VALUE` and `x STATE VALUE`.
 *   fmu_test FMU assert [run options]
 *       A model whose assert fails: Co-Simulation must stop with
 *       fmi2Discard, fmi2Terminated true and the time reached as
 *       fmi2LastSuccessfulTime; Model Exchange must set terminateSimulation.
 *       Prints `cs terminated at T: MESSAGE` and `me terminated at T: ...`.
 *   fmu_test FMU illegal
 *       Calls in orders the standard forbids, with bad pointers, out of
 *       range value references and bad values: each must return the
 *       status the standard gives (fmi2Error mostly) with a message
 *       logged, and nothing may crash.
 * Exit status 0 when every check passed, 1 otherwise, 2 on a setup
 * failure.
 */
#include "fmu_import.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SETS = 16, MAX_VARS = 64, MAX_EVENTS = 1000 };

typedef struct Run {
    double stop, step, tol, h;
    int tol_defined;
    int no_stop;            /* --no-stop: fmi2SetupExperiment without a stop
                               time (the run still ends at --stop) */
    const char *sets[MAX_SETS];
    int nsets;
    const char *sets2[MAX_SETS];
    int nsets2;
    int vars[MAX_VARS];     /* variable indices */
    int nvars;
    const char *events;     /* --events FILE */
    double at;              /* --at */
    int delays;             /* --delays: the model has delay()s, whose
                               histories end a state (state) */
} Run;

static Fmu fmu;
static int failures;

#define API (&fmu.api)

static void check(int ok, const char *what)
{
    if (!ok) {
        printf("FAIL: %s\n", what);
        failures++;
    }
}

static void must(fmi2Status st, const char *what)
{
    if (st != fmi2OK && st != fmi2Warning) {
        fprintf(stderr, "fmu_test: %s returned %d: %s\n", what, (int)st, fmu_log_last());
        exit(1);
    }
}

/* ---- setup ----------------------------------------------------------------- */

static fmi2Component instantiate(const char *name, fmi2Type type)
{
    fmi2Component c = API->fmi2Instantiate(name, type, fmu.guid, fmu.resources,
                                           &fmu_callbacks, fmi2False, fmi2True);
    if (!c) {
        fprintf(stderr, "fmu_test: fmi2Instantiate failed: %s\n", fmu_log_last());
        exit(1);
    }
    return c;
}

static void apply_sets(fmi2Component c, const char *const *sets, int n)
{
    for (int i = 0; i < n; i++) {
        const char *eq = strchr(sets[i], '=');
        char name[256];
        snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - sets[i]) : 0, sets[i]);
        int v = eq ? fmu_find(&fmu, name) : -1;
        if (v < 0) {
            fprintf(stderr, "fmu_test: --set %s: no such variable\n", sets[i]);
            exit(2);
        }
        fmi2ValueReference vr = fmu.vars[v].vr;
        if (fmu.vars[v].type == 'B') {
            fmi2Boolean b = !strcmp(eq + 1, "true");
            must(API->fmi2SetBoolean(c, &vr, 1, &b), "fmi2SetBoolean");
        } else if (fmu.vars[v].type == 'I') {
            fmi2Integer k = (fmi2Integer)strtol(eq + 1, NULL, 10);
            must(API->fmi2SetInteger(c, &vr, 1, &k), "fmi2SetInteger");
        } else {
            double x = strtod(eq + 1, NULL);
            must(API->fmi2SetReal(c, &vr, 1, &x), "fmi2SetReal");
        }
    }
}

/* An instance through initialization: event mode (ME) or ready to step. */
static fmi2Component start(const Run *r, const char *name, fmi2Type type,
                           const char *const *sets, int nsets)
{
    fmi2Component c = instantiate(name, type);
    must(API->fmi2SetupExperiment(c, r->tol_defined, r->tol, 0, r->no_stop ? fmi2False : fmi2True,
                                  r->no_stop ? 0 : r->stop),
         "fmi2SetupExperiment");
    must(API->fmi2EnterInitializationMode(c), "fmi2EnterInitializationMode");
    apply_sets(c, sets, nsets);
    must(API->fmi2ExitInitializationMode(c), "fmi2ExitInitializationMode");
    return c;
}

/* The simulator's output times: k*dt up to T, and T (rt_output_time). */
static double output_time(const Run *r, long k, long *n_rows)
{
    long last = (long)floor(r->stop / r->step + 1e-9);
    int extra = fabs(r->stop - (double)last * r->step) > 1e-9 * r->step;
    if (n_rows)
        *n_rows = last + 1 + extra;
    return k >= last + extra ? r->stop : (double)k * r->step;
}

/* Rows: n_rows x (1 + nvars) doubles. */
typedef struct Rows {
    double *v;
    long n;
} Rows;

static void row(const Run *r, fmi2Component c, double t, Rows *out)
{
    double *at = out->v + (size_t)out->n * (size_t)(1 + r->nvars);
    at[0] = t;
    for (int i = 0; i < r->nvars; i++) {
        fmi2ValueReference vr = fmu.vars[r->vars[i]].vr;
        if (fmu.vars[r->vars[i]].type == 'I') {     /* a mode chart's mode */
            fmi2Integer k;
            must(API->fmi2GetInteger(c, &vr, 1, &k), "fmi2GetInteger");
            at[1 + i] = k;
        } else {
            must(API->fmi2GetReal(c, &vr, 1, &at[1 + i]), "fmi2GetReal");
        }
    }
    out->n++;
}

static Rows rows_new(const Run *r)
{
    long n;
    output_time(r, 0, &n);
    Rows rs = {calloc((size_t)n * (size_t)(1 + r->nvars) + 1, sizeof(double)), 0};
    return rs;
}

static void rows_print(const Run *r, const Rows *rs)
{
    printf("time");
    for (int i = 0; i < r->nvars; i++)
        printf(",%s", fmu.vars[r->vars[i]].name);
    printf("\n");
    for (long k = 0; k < rs->n; k++) {
        const double *at = rs->v + (size_t)k * (size_t)(1 + r->nvars);
        printf("%.17g", at[0]);
        for (int i = 0; i < r->nvars; i++)
            printf(",%.17g", at[1 + i]);
        printf("\n");
    }
}

static int rows_equal(const Run *r, const Rows *a, const Rows *b)
{
    return a->n == b->n
           && memcmp(a->v, b->v, sizeof(double) * (size_t)a->n * (size_t)(1 + r->nvars)) == 0;
}

/* ---- Co-Simulation --------------------------------------------------------------- */

typedef struct Cs {
    fmi2Component c;
    double t;               /* the communication point reached */
    long k;                 /* the next output row */
} Cs;

/* Steps to the output rows up to and including time `until`. */
static void cs_advance(const Run *r, Cs *s, double until, Rows *rs)
{
    long n;
    output_time(r, 0, &n);
    for (; s->k < n; s->k++) {
        double tout = output_time(r, s->k, NULL);
        if (tout > until)
            break;
        if (s->k > 0) {
            fmi2Status st = API->fmi2DoStep(s->c, s->t, tout - s->t, fmi2True);
            must(st, "fmi2DoStep");
            s->t = s->t + (tout - s->t);
        }
        row(r, s->c, s->t, rs);
    }
}

/* ---- Model Exchange -------------------------------------------------------------- */

typedef struct Me {
    fmi2Component c;
    double t;
    double *x, *z;          /* states, event indicators at (t, x) */
    double *k[4], *xt, *xn, *zt;  /* scratch */
    long k_row;             /* the next output row */
    long n_events;
    double events[MAX_EVENTS];
    int terminated;         /* the FMU asked to stop */
} Me;

static void me_deriv(Me *m, double t, const double *x, double *dx)
{
    int n = fmu.nstates;
    must(API->fmi2SetTime(m->c, t), "fmi2SetTime");
    must(API->fmi2SetContinuousStates(m->c, x, (size_t)n), "fmi2SetContinuousStates");
    must(API->fmi2GetDerivatives(m->c, dx, (size_t)n), "fmi2GetDerivatives");
}

/* One classical Runge-Kutta step of h from (t, x) into out. */
static void rk4(Me *m, double t, const double *x, double h, double *out)
{
    int n = fmu.nstates;
    me_deriv(m, t, x, m->k[0]);
    for (int i = 0; i < n; i++)
        m->xt[i] = x[i] + 0.5 * h * m->k[0][i];
    me_deriv(m, t + 0.5 * h, m->xt, m->k[1]);
    for (int i = 0; i < n; i++)
        m->xt[i] = x[i] + 0.5 * h * m->k[1][i];
    me_deriv(m, t + 0.5 * h, m->xt, m->k[2]);
    for (int i = 0; i < n; i++)
        m->xt[i] = x[i] + h * m->k[2][i];
    me_deriv(m, t + h, m->xt, m->k[3]);
    for (int i = 0; i < n; i++)
        out[i] = x[i] + h / 6 * (m->k[0][i] + 2 * m->k[1][i] + 2 * m->k[2][i] + m->k[3][i]);
}

/* The indicators at (t, x) into z. */
static void indicators(Me *m, double t, const double *x, double *z)
{
    must(API->fmi2SetTime(m->c, t), "fmi2SetTime");
    must(API->fmi2SetContinuousStates(m->c, x, (size_t)fmu.nstates), "fmi2SetContinuousStates");
    must(API->fmi2GetEventIndicators(m->c, z, (size_t)fmu.nindicators),
         "fmi2GetEventIndicators");
}

static int crossed(const double *a, const double *b)
{
    for (int i = 0; i < fmu.nindicators; i++)
        if ((a[i] > 0) != (b[i] > 0))
            return 1;
    return 0;
}

static void event_iteration(Me *m)
{
    fmi2EventInfo info;
    do {
        must(API->fmi2NewDiscreteStates(m->c, &info), "fmi2NewDiscreteStates");
    } while (info.newDiscreteStatesNeeded);
    must(API->fmi2EnterContinuousTimeMode(m->c), "fmi2EnterContinuousTimeMode");
    if (fmu.nstates)
        must(API->fmi2GetContinuousStates(m->c, m->x, (size_t)fmu.nstates),
             "fmi2GetContinuousStates");
}

static Me me_start(const Run *r, const char *const *sets, int nsets)
{
    Me m;
    memset(&m, 0, sizeof m);
    size_t n = (size_t)fmu.nstates + 1, nz = (size_t)fmu.nindicators + 1;
    m.x = calloc(n, sizeof(double));
    m.xt = calloc(n, sizeof(double));
    m.xn = calloc(n, sizeof(double));
    for (int i = 0; i < 4; i++)
        m.k[i] = calloc(n, sizeof(double));
    m.z = calloc(nz, sizeof(double));
    m.zt = calloc(nz, sizeof(double));
    m.c = start(r, "me", fmi2ModelExchange, sets, nsets);
    event_iteration(&m);
    indicators(&m, 0, m.x, m.z);
    return m;
}

static void me_free(Me *m)
{
    free(m->x);
    free(m->xt);
    free(m->xn);
    for (int i = 0; i < 4; i++)
        free(m->k[i]);
    free(m->z);
    free(m->zt);
}

/* Integrates to the output rows up to `until`, handling events. */
static void me_advance(const Run *r, Me *m, double until, Rows *rs)
{
    long n_rows;
    int n = fmu.nstates;
    output_time(r, 0, &n_rows);
    for (; m->k_row < n_rows; m->k_row++) {
        double tout = output_time(r, m->k_row, NULL);
        if (tout > until)
            break;
        while (m->t < tout) {
            double h = fmin(r->h, tout - m->t);
            if (tout - (m->t + h) < 1e-12 * r->h)
                h = tout - m->t;
            rk4(m, m->t, m->x, h, m->xn);
            indicators(m, m->t + h, m->xn, m->zt);
            if (!crossed(m->z, m->zt)) {
                m->t = h == tout - m->t ? tout : m->t + h;
                memcpy(m->x, m->xn, sizeof(double) * (size_t)n);
                memcpy(m->z, m->zt, sizeof(double) * (size_t)fmu.nindicators);
                fmi2Boolean enter = 0, term = 0;
                must(API->fmi2CompletedIntegratorStep(m->c, fmi2True, &enter, &term),
                     "fmi2CompletedIntegratorStep");
                if (term) {
                    m->terminated = 1;
                    return;
                }
                continue;
            }
            /* bisect on the step: the first time the indicators differ */
            double ta = m->t, tb = m->t + h;
            for (int it = 0; it < 200 && tb - ta > 1e-13; it++) {
                double tm = 0.5 * (ta + tb);
                rk4(m, m->t, m->x, tm - m->t, m->xn);
                indicators(m, tm, m->xn, m->zt);
                if (crossed(m->z, m->zt))
                    tb = tm;
                else
                    ta = tm;
            }
            rk4(m, m->t, m->x, tb - m->t, m->xn);
            must(API->fmi2SetTime(m->c, tb), "fmi2SetTime");
            must(API->fmi2SetContinuousStates(m->c, m->xn, (size_t)n), "fmi2SetContinuousStates");
            fmi2Boolean enter = 0, term = 0;
            must(API->fmi2CompletedIntegratorStep(m->c, fmi2True, &enter, &term),
                 "fmi2CompletedIntegratorStep");
            must(API->fmi2EnterEventMode(m->c), "fmi2EnterEventMode");
            memcpy(m->x, m->xn, sizeof(double) * (size_t)n);
            event_iteration(m);
            m->t = tb;
            if (m->n_events < MAX_EVENTS)
                m->events[m->n_events++] = tb;
            indicators(m, m->t, m->x, m->z);
        }
        must(API->fmi2SetTime(m->c, m->t), "fmi2SetTime");
        if (n)
            must(API->fmi2SetContinuousStates(m->c, m->x, (size_t)n), "fmi2SetContinuousStates");
        row(r, m->c, m->t, rs);
    }
}

/* ---- the events the FMU logs ----------------------------------------------------- */

static void write_events(const Run *r, int from)
{
    if (!r->events)
        return;
    FILE *fp = fopen(r->events, "w");
    if (!fp) {
        fprintf(stderr, "fmu_test: cannot write %s\n", r->events);
        exit(2);
    }
    for (int i = from; i < fmu_log_count(); i++) {
        const char *m = fmu_log_message(i, NULL);
        if (!strncmp(m, "event at t = ", 13))
            fprintf(fp, "%s\n", m + 13);
    }
    fclose(fp);
}

/* ---- the modes -------------------------------------------------------------------- */

static int run_cs(const Run *r)
{
    Cs s = {start(r, "cs", fmi2CoSimulation, r->sets, r->nsets), 0, 0};
    Rows rs = rows_new(r);
    if (r->nsets2) {
        /* --set2: inputs or parameters changed between two steps */
        cs_advance(r, &s, r->at, &rs);
        apply_sets(s.c, r->sets2, r->nsets2);
    }
    cs_advance(r, &s, r->stop, &rs);
    rows_print(r, &rs);
    write_events(r, 0);
    must(API->fmi2Terminate(s.c), "fmi2Terminate");
    API->fmi2FreeInstance(s.c);
    free(rs.v);
    return 0;
}

static int run_me(const Run *r)
{
    Me m = me_start(r, r->sets, r->nsets);
    Rows rs = rows_new(r);
    if (r->nsets2) {
        /* --set2: changed in event mode at --at */
        me_advance(r, &m, r->at, &rs);
        must(API->fmi2EnterEventMode(m.c), "fmi2EnterEventMode");
        apply_sets(m.c, r->sets2, r->nsets2);
        event_iteration(&m);
        indicators(&m, m.t, m.x, m.z);
    }
    me_advance(r, &m, r->stop, &rs);
    rows_print(r, &rs);
    write_events(r, 0);
    fprintf(stderr, "fmu_test: %ld events located by the importer:", m.n_events);
    for (long i = 0; i < m.n_events; i++)
        fprintf(stderr, " %.17g", m.events[i]);
    fprintf(stderr, "\n");
    must(API->fmi2Terminate(m.c), "fmi2Terminate");
    API->fmi2FreeInstance(m.c);
    me_free(&m);
    free(rs.v);
    return 0;
}

static int run_two(const Run *r)
{
    Rows a1 = rows_new(r), b1 = rows_new(r), a2 = rows_new(r), b2 = rows_new(r);
    Cs a = {start(r, "a", fmi2CoSimulation, r->sets, r->nsets), 0, 0};
    cs_advance(r, &a, r->stop, &a1);
    API->fmi2FreeInstance(a.c);
    Cs b = {start(r, "b", fmi2CoSimulation, r->sets2, r->nsets2), 0, 0};
    cs_advance(r, &b, r->stop, &b1);
    API->fmi2FreeInstance(b.c);
    /* side by side: one row of each in turn */
    a = (Cs){start(r, "a", fmi2CoSimulation, r->sets, r->nsets), 0, 0};
    b = (Cs){start(r, "b", fmi2CoSimulation, r->sets2, r->nsets2), 0, 0};
    long n;
    output_time(r, 0, &n);
    for (long k = 0; k < n; k++) {
        double t = output_time(r, k, NULL);
        cs_advance(r, &a, t, &a2);
        cs_advance(r, &b, t, &b2);
    }
    check(rows_equal(r, &a1, &a2), "instance a side by side differs from a alone");
    check(rows_equal(r, &b1, &b2), "instance b side by side differs from b alone");
    check(!rows_equal(r, &a1, &b1), "the two instances' parameters made no difference");
    printf("two instances: %ld rows each, %s\n", a2.n, failures ? "differ" : "bitwise equal");
    API->fmi2FreeInstance(a.c);
    API->fmi2FreeInstance(b.c);
    free(a1.v), free(b1.v), free(a2.v), free(b2.v);
    return failures ? 1 : 0;
}

static void crafted_delay_tail(fmi2Component c, const fmi2Byte *good, size_t n);

/* The rows from the saved state on: restored from the state, from its
   serialization, and straight. */
static int run_state(const Run *r)
{
    /* Co-Simulation */
    Rows ref = rows_new(r), again = rows_new(r), deser = rows_new(r);
    Cs s = {start(r, "cs", fmi2CoSimulation, r->sets, r->nsets), 0, 0};
    Rows head = rows_new(r);
    cs_advance(r, &s, r->at, &head);
    fmi2FMUstate st = NULL;
    must(API->fmi2GetFMUstate(s.c, &st), "fmi2GetFMUstate");
    Cs saved = s;
    cs_advance(r, &s, r->stop, &ref);
    size_t size = 0;
    must(API->fmi2SerializedFMUstateSize(s.c, st, &size), "fmi2SerializedFMUstateSize");
    fmi2Byte *bytes = calloc(size, 1);
    must(API->fmi2SerializeFMUstate(s.c, st, bytes, size), "fmi2SerializeFMUstate");
    must(API->fmi2SetFMUstate(s.c, st), "fmi2SetFMUstate");
    s = saved;
    cs_advance(r, &s, r->stop, &again);
    must(API->fmi2FreeFMUstate(s.c, &st), "fmi2FreeFMUstate");
    check(st == NULL, "fmi2FreeFMUstate left the pointer");
    fmi2FMUstate st2 = NULL;
    must(API->fmi2DeSerializeFMUstate(s.c, bytes, size, &st2), "fmi2DeSerializeFMUstate");
    must(API->fmi2SetFMUstate(s.c, st2), "fmi2SetFMUstate (deserialized)");
    s = saved;
    cs_advance(r, &s, r->stop, &deser);
    must(API->fmi2FreeFMUstate(s.c, &st2), "fmi2FreeFMUstate");
    check(ref.n > 1 && rows_equal(r, &ref, &again), "CS: rows after fmi2SetFMUstate differ");
    check(rows_equal(r, &ref, &deser), "CS: rows after the deserialized state differ");
    if (r->delays)
        crafted_delay_tail(s.c, bytes, size);
    printf("CS: %ld rows from t = %g, %zu bytes of state\n", ref.n, r->at, size);
    API->fmi2FreeInstance(s.c);
    free(bytes);
    free(head.v), free(ref.v), free(again.v), free(deser.v);

    /* Model Exchange: the importer keeps its own time and states */
    Rows mref = rows_new(r), magain = rows_new(r), mhead = rows_new(r);
    Me m = me_start(r, r->sets, r->nsets);
    me_advance(r, &m, r->at, &mhead);
    fmi2FMUstate ms = NULL;
    must(API->fmi2GetFMUstate(m.c, &ms), "fmi2GetFMUstate (ME)");
    double t0 = m.t;
    long k0 = m.k_row;
    me_advance(r, &m, r->stop, &mref);
    must(API->fmi2SetFMUstate(m.c, ms), "fmi2SetFMUstate (ME)");
    m.t = t0;
    m.k_row = k0;
    must(API->fmi2GetContinuousStates(m.c, m.x, (size_t)fmu.nstates), "fmi2GetContinuousStates");
    indicators(&m, m.t, m.x, m.z);
    me_advance(r, &m, r->stop, &magain);
    check(mref.n > 1 && rows_equal(r, &mref, &magain), "ME: rows after fmi2SetFMUstate differ");
    printf("ME: %ld rows from t = %g\n", mref.n, r->at);
    must(API->fmi2FreeFMUstate(m.c, &ms), "fmi2FreeFMUstate (ME)");
    API->fmi2FreeInstance(m.c);
    me_free(&m);
    free(mref.v), free(magain.v), free(mhead.v);
    return failures ? 1 : 0;
}

static int run_dirder(const Run *r)
{
    Rows rs = rows_new(r);
    Me m = me_start(r, r->sets, r->nsets);
    me_advance(r, &m, r->at, &rs);
    int n = fmu.nstates;
    fmi2ValueReference *sv = calloc((size_t)n + 1, sizeof *sv);
    fmi2ValueReference *dv = calloc((size_t)n + 1, sizeof *dv);
    double *col = calloc((size_t)n + 1, sizeof *col);
    for (int j = 0; j < n; j++) {
        sv[j] = fmu.vars[fmu.state_vars[j]].vr;
        dv[j] = fmu.vars[fmu.der_vars[j]].vr;
        printf("x %s %.17g\n", fmu.vars[fmu.state_vars[j]].name, m.x[j]);
    }
    for (int j = 0; j < n; j++) {
        double one = 1;
        must(API->fmi2GetDirectionalDerivative(m.c, dv, (size_t)n, &sv[j], 1, &one, col),
             "fmi2GetDirectionalDerivative");
        for (int i = 0; i < n; i++)
            printf("J %s %s %.17g\n", fmu.vars[fmu.der_vars[i]].name,
                   fmu.vars[fmu.state_vars[j]].name, col[i]);
    }
    API->fmi2FreeInstance(m.c);
    me_free(&m);
    free(sv), free(dv), free(col), free(rs.v);
    return 0;
}

/* A model whose assert fails: Co-Simulation stops with fmi2Discard and
   says so in its status, Model Exchange asks to terminate. */
static int run_assert(const Run *r)
{
    Cs s = {start(r, "cs", fmi2CoSimulation, r->sets, r->nsets), 0, 0};
    long n;
    output_time(r, 0, &n);
    fmi2Status st = fmi2OK;
    for (long k = 1; k < n && st == fmi2OK; k++) {
        double tout = output_time(r, k, NULL);
        st = API->fmi2DoStep(s.c, s.t, tout - s.t, fmi2True);
        if (st == fmi2OK)
            s.t = tout;
    }
    check(st == fmi2Discard, "fmi2DoStep did not return fmi2Discard");
    fmi2Boolean term = 0;
    fmi2Real last = -1, v = 0;
    must(API->fmi2GetBooleanStatus(s.c, fmi2Terminated, &term), "fmi2GetBooleanStatus");
    must(API->fmi2GetRealStatus(s.c, fmi2LastSuccessfulTime, &last), "fmi2GetRealStatus");
    check(term, "fmi2Terminated is not true");
    fmi2ValueReference vr = 0;
    must(API->fmi2GetReal(s.c, &vr, 1, &v), "fmi2GetReal in stepFailed");
    check(API->fmi2DoStep(s.c, last, 0.01, fmi2True) == fmi2Error, "a step after the failure");
    must(API->fmi2Terminate(s.c), "fmi2Terminate");
    printf("cs terminated at %.10g: %s\n", last, fmu_log_message(fmu_log_count() - 2, NULL));
    API->fmi2FreeInstance(s.c);
    Rows rs = rows_new(r);
    Me m = me_start(r, r->sets, r->nsets);
    int before = fmu_log_count();
    me_advance(r, &m, r->stop, &rs);
    check(m.terminated, "ME: no terminateSimulation");
    printf("me terminated at %.10g: %s\n", m.t,
           fmu_log_count() > before ? fmu_log_message(before, NULL) : "(no message)");
    API->fmi2FreeInstance(m.c);
    me_free(&m);
    free(rs.v);
    return failures ? 1 : 0;
}

/* ---- illegal calls ------------------------------------------------------------------ */

/* Expects status `want` and a new logged message containing `text`. */
static void expect(fmi2Status got, fmi2Status want, int log_before, const char *text,
                   const char *what)
{
    char msg[512];
    snprintf(msg, sizeof msg, "%s: status %d, expected %d", what, (int)got, (int)want);
    check(got == want, msg);
    int found = 0;
    for (int i = log_before; i < fmu_log_count() && !found; i++)
        found = strstr(fmu_log_message(i, NULL), text) != NULL;
    snprintf(msg, sizeof msg, "%s: no message with '%s' logged (last: '%s')", what, text,
             fmu_log_last());
    check(found, msg);
    if (got == want && found)
        printf("ok: %s -> %d: %s\n", what, (int)got, fmu_log_last());
}

#define EXPECT(call, want, text)                                                           \
    do {                                                                                   \
        int before_ = fmu_log_count();                                                     \
        expect((call), (want), before_, (text), #call);                                    \
    } while (0)

/* A serialized FMU state as docs/fmi.md describes its layout, written
   from that description: offsets of the header's fields, and the
   checksum (64-bit FNV-1a over every byte, the checksum's own 8 counted
   as zeros). */
enum {
    SNAP_VERSION_AT = 8, SNAP_CHECKSUM_AT = 16, SNAP_INTS_AT = 72,
    SNAP_FSM_AT = SNAP_INTS_AT + 5 * 4, SNAP_NREL_AT = SNAP_INTS_AT + 4 * 4,
    SNAP_NEVENTS_AT = 200, SNAP_HEADER = 208, SNAP_EVENT_TIMES = 100, SNAP_WATCH = 24,
};

static void snap_sum(unsigned char *b, size_t n)
{
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < n; i++) {
        h ^= i >= SNAP_CHECKSUM_AT && i < SNAP_CHECKSUM_AT + 8 ? 0u : b[i];
        h *= 1099511628211u;
    }
    memcpy(b + SNAP_CHECKSUM_AT, &h, 8);
}

/* Crafted states: each deserialization must be refused with fmi2Error
   and a message, and must leave nothing behind that a later call could
   trip on (the instance steps on afterwards). */
static void crafted_states(fmi2Component c)
{
    fmi2FMUstate st = NULL, got = NULL;
    size_t n = 0;
    must(API->fmi2GetFMUstate(c, &st), "fmi2GetFMUstate");
    must(API->fmi2SerializedFMUstateSize(c, st, &n), "fmi2SerializedFMUstateSize");
    unsigned char *good = calloc(n, 1), *b = calloc(n, 1);
    must(API->fmi2SerializeFMUstate(c, st, (fmi2Byte *)good, n), "fmi2SerializeFMUstate");
    must(API->fmi2FreeFMUstate(c, &st), "fmi2FreeFMUstate");
    /* the layout as described: the checksum of the bytes as they are */
    memcpy(b, good, n);
    snap_sum(b, n);
    check(!memcmp(b, good, n), "the state's checksum is not FNV-1a as docs/fmi.md says");
    must(API->fmi2DeSerializeFMUstate(c, (fmi2Byte *)b, n, &got), "an untouched state");
    must(API->fmi2FreeFMUstate(c, &got), "fmi2FreeFMUstate");
    /* a changed byte, checksum as it was */
    memcpy(b, good, n);
    b[n - 1] ^= 0x40;
    EXPECT(API->fmi2DeSerializeFMUstate(c, (fmi2Byte *)b, n, &got), fmi2Error, "checksum");
    /* another layout version */
    memcpy(b, good, n);
    b[SNAP_VERSION_AT] ^= 0x7;
    snap_sum(b, n);
    EXPECT(API->fmi2DeSerializeFMUstate(c, (fmi2Byte *)b, n, &got), fmi2Error,
           "layout version");
    /* a negative event count (it once indexed the chattering ring) */
    int64_t events = -5;
    memcpy(b, good, n);
    memcpy(b + SNAP_NEVENTS_AT, &events, 8);
    snap_sum(b, n);
    EXPECT(API->fmi2DeSerializeFMUstate(c, (fmi2Byte *)b, n, &got), fmi2Error,
           "count of events");
    /* a state machine state that does not exist */
    int32_t fsm = 12345;
    memcpy(b, good, n);
    memcpy(b + SNAP_FSM_AT, &fsm, 4);
    snap_sum(b, n);
    EXPECT(API->fmi2DeSerializeFMUstate(c, (fmi2Byte *)b, n, &got), fmi2Error,
           "state machine");
    /* relation 0's mode set to 7: the modes come before the last 100
       event times, the event variables and charts (none in this model)
       and the watches */
    int32_t nrel = 0, seven = 7;
    memcpy(&nrel, good + SNAP_NREL_AT, 4);
    size_t modes = n - (size_t)nrel * SNAP_WATCH - SNAP_EVENT_TIMES * 8 - (size_t)nrel * 4;
    check(nrel > 0 && modes > SNAP_HEADER, "the wall model's state has no relations");
    if (nrel > 0 && modes > SNAP_HEADER) {
        memcpy(b, good, n);
        int32_t was;
        memcpy(&was, b + modes, 4);
        check(was == 0 || was == 1, "relation 0's mode is not where docs/fmi.md puts it");
        memcpy(b + modes, &seven, 4);
        snap_sum(b, n);
        EXPECT(API->fmi2DeSerializeFMUstate(c, (fmi2Byte *)b, n, &got), fmi2Error,
               "relation's mode");
    }
    /* a NaN time */
    double nan_ = NAN;
    memcpy(b, good, n);
    memcpy(b + SNAP_HEADER - 8 - 7 * 8, &nan_, 8);
    snap_sum(b, n);
    EXPECT(API->fmi2DeSerializeFMUstate(c, (fmi2Byte *)b, n, &got), fmi2Error, "a time");
    check(got == NULL, "a refused state was handed out");
    free(good);
    free(b);
}

/* A state of a model with delay()s ends with the last delay's samples
   (docs/fmi.md): the last 8 bytes are its last sample's slope.  Cut
   short, or with that slope NaN (checksums recomputed), it is refused
   with a message about the delays. */
static void crafted_delay_tail(fmi2Component c, const fmi2Byte *good, size_t n)
{
    fmi2FMUstate got = NULL;
    unsigned char *b = calloc(n, 1);
    memcpy(b, good, n);
    snap_sum(b, n - 8);
    EXPECT(API->fmi2DeSerializeFMUstate(c, (fmi2Byte *)b, n - 8, &got), fmi2Error, "delay");
    double nan_ = NAN;
    memcpy(b, good, n);
    memcpy(b + n - 8, &nan_, 8);
    snap_sum(b, n);
    EXPECT(API->fmi2DeSerializeFMUstate(c, (fmi2Byte *)b, n, &got), fmi2Error,
           "a delay's sample value");
    check(got == NULL, "a refused state was handed out");
    free(b);
}

static int run_illegal(const Run *r)
{
    double x[64] = {0}, v = 0;
    fmi2ValueReference vr0 = 0, bad_vr = 1000000;
    size_t nx = (size_t)fmu.nstates;
    int f3 = fmu_find(&fmu, "F3"), stiff = fmu_find(&fmu, "wall3.stiffness");
    int lin = fmu_find(&fmu, "lever.linearized");
    if (f3 < 0 || stiff < 0 || lin < 0) {
        fprintf(stderr, "fmu_test: illegal expects the wall_contact model\n");
        return 2;
    }
    fmi2ValueReference vr_f3 = fmu.vars[f3].vr, vr_stiff = fmu.vars[stiff].vr;
    fmi2ValueReference vr_lin = fmu.vars[lin].vr;

    /* Co-Simulation, before initialization */
    fmi2Component cs = instantiate("cs", fmi2CoSimulation);
    EXPECT(API->fmi2DoStep(cs, 0, 0.01, fmi2True), fmi2Error, "not allowed in instantiated");
    EXPECT(API->fmi2GetReal(cs, &vr0, 1, &v), fmi2Error, "not allowed in instantiated");
    EXPECT(API->fmi2ExitInitializationMode(cs), fmi2Error, "fmi2ExitInitializationMode");
    EXPECT(API->fmi2SetContinuousStates(cs, x, nx), fmi2Error, "Model Exchange function");
    EXPECT(API->fmi2GetDerivatives(cs, x, nx), fmi2Error, "Model Exchange function");
    EXPECT(API->fmi2SetupExperiment(cs, fmi2True, 2.0, 0, fmi2False, 0), fmi2Error,
           "tolerance");
    EXPECT(API->fmi2SetDebugLogging(cs, fmi2True, 1, (const fmi2String[]){"logNothing"}),
           fmi2Error, "unknown category");
    must(API->fmi2SetupExperiment(cs, fmi2False, 0, 0, fmi2True, 0.1), "fmi2SetupExperiment");
    must(API->fmi2EnterInitializationMode(cs), "fmi2EnterInitializationMode");
    EXPECT(API->fmi2SetupExperiment(cs, fmi2False, 0, 0, fmi2False, 0), fmi2Error,
           "not allowed in initialization mode");
    EXPECT(API->fmi2EnterInitializationMode(cs), fmi2Error, "not allowed in initialization");
    must(API->fmi2ExitInitializationMode(cs), "fmi2ExitInitializationMode");
    EXPECT(API->fmi2ExitInitializationMode(cs), fmi2Error, "not allowed in stepComplete");
    EXPECT(API->fmi2GetReal(cs, &bad_vr, 1, &v), fmi2Error, "out of range");
    EXPECT(API->fmi2GetReal(cs, &vr0, 1, NULL), fmi2Error, "NULL array");
    EXPECT(API->fmi2SetReal(cs, &vr0, 1, &v), fmi2Error, "only inputs and parameters");
    EXPECT(API->fmi2GetInteger(cs, &vr0, 1, (fmi2Integer[1]){0}), fmi2Error, "0 Integer variables");
    EXPECT(API->fmi2DoStep(cs, 0.5, 0.01, fmi2True), fmi2Error, "is not the FMU's time");
    EXPECT(API->fmi2DoStep(cs, 0, -1, fmi2True), fmi2Error, "must be positive");
    EXPECT(API->fmi2CancelStep(cs), fmi2Error, "no step is in progress");
    EXPECT(API->fmi2SetRealInputDerivatives(cs, &vr_f3, 1, (fmi2Integer[1]){1}, &v), fmi2Error,
           "canInterpolateInputs");
    EXPECT(API->fmi2GetStatus(cs, fmi2DoStepStatus, (fmi2Status[1]){0}), fmi2Discard,
           "not available");
    EXPECT(API->fmi2SetFMUstate(cs, (fmi2FMUstate)&v), fmi2Error, "not an FMU state");
    /* a parameter the model's asserts refuse, then a structural one */
    double old = 0, got = 0, neg = -1;
    must(API->fmi2GetReal(cs, &vr_stiff, 1, &old), "fmi2GetReal");
    EXPECT(API->fmi2SetReal(cs, &vr_stiff, 1, &neg), fmi2Error,
           "Wall: stiffness must be >= 0");
    must(API->fmi2GetReal(cs, &vr_stiff, 1, &got), "fmi2GetReal");
    check(got == old, "a refused fmi2SetReal changed the parameter");
    EXPECT(API->fmi2SetBoolean(cs, &vr_lin, 1, (fmi2Boolean[1]){fmi2True}), fmi2Error,
           "structural parameter");
    /* its value is said as a Boolean's (it said "it is 0") */
    EXPECT(API->fmi2SetBoolean(cs, &vr_lin, 1, (fmi2Boolean[1]){fmi2True}), fmi2Error,
           "cannot change (it is false)");
    EXPECT(API->fmi2SetReal(cs, &vr_f3, 1, (double[1]){NAN}), fmi2Error, "cannot be nan");
    /* counts no importer can mean (a size_t gone negative): errors, and
       the importing process goes on */
    EXPECT(API->fmi2SetReal(cs, &vr_f3, SIZE_MAX, &v), fmi2Error, "can be named in one call");
    EXPECT(API->fmi2SetBoolean(cs, &vr_lin, SIZE_MAX, (fmi2Boolean[1]){fmi2True}), fmi2Error,
           "can be named in one call");
    EXPECT(API->fmi2GetReal(cs, &vr0, SIZE_MAX, &v), fmi2Error, "can be named in one call");
    EXPECT(API->fmi2GetDirectionalDerivative(cs, &vr0, SIZE_MAX, &vr_f3, 1, &v, &v), fmi2Error,
           "can be named in one call");
    EXPECT(API->fmi2GetDirectionalDerivative(cs, &vr0, 1, &vr_f3, SIZE_MAX, &v, &v), fmi2Error,
           "can be named in one call");
    crafted_states(cs);
    /* still usable after all those refusals */
    double five = 5;
    must(API->fmi2SetReal(cs, &vr_f3, 1, &five), "fmi2SetReal F3");
    must(API->fmi2DoStep(cs, 0, 0.01, fmi2True), "fmi2DoStep after refusals");
    must(API->fmi2Terminate(cs), "fmi2Terminate");
    EXPECT(API->fmi2DoStep(cs, 0.01, 0.01, fmi2True), fmi2Error, "not allowed in terminated");
    must(API->fmi2GetReal(cs, &vr0, 1, &v), "fmi2GetReal after fmi2Terminate");

    /* Model Exchange */
    fmi2Component me = instantiate("me", fmi2ModelExchange);
    EXPECT(API->fmi2GetDerivatives(me, x, nx), fmi2Error, "not allowed in instantiated");
    EXPECT(API->fmi2DoStep(me, 0, 0.01, fmi2True), fmi2Error, "Co-Simulation function");
    EXPECT(API->fmi2NewDiscreteStates(me, NULL), fmi2Error, "not allowed in instantiated");
    must(API->fmi2EnterInitializationMode(me), "fmi2EnterInitializationMode");
    must(API->fmi2ExitInitializationMode(me), "fmi2ExitInitializationMode");
    EXPECT(API->fmi2NewDiscreteStates(me, NULL), fmi2Error, "NULL event info");
    EXPECT(API->fmi2SetContinuousStates(me, x, nx), fmi2Error, "not allowed in event mode");
    EXPECT(API->fmi2CompletedIntegratorStep(me, fmi2True, NULL, NULL), fmi2Error,
           "not allowed in event mode");
    must(API->fmi2EnterContinuousTimeMode(me), "fmi2EnterContinuousTimeMode");
    EXPECT(API->fmi2GetDerivatives(me, x, nx + 1), fmi2Error, "but the model has");
    EXPECT(API->fmi2GetEventIndicators(me, x, 0), fmi2Error, "but the model has");
    EXPECT(API->fmi2SetReal(me, &vr_f3, 1, &five), fmi2Error, "not in continuous-time mode");
    EXPECT(API->fmi2SetTime(me, INFINITY), fmi2Error, "must be finite");
    EXPECT(API->fmi2CompletedIntegratorStep(me, fmi2True, NULL, NULL), fmi2Error,
           "NULL result");
    must(API->fmi2Terminate(me), "fmi2Terminate");
    EXPECT(API->fmi2SetContinuousStates(me, x, nx), fmi2Error, "not allowed in terminated");
    EXPECT(API->fmi2EnterEventMode(me), fmi2Error, "not allowed in terminated");
    /* the standard lets terminated instances be read */
    must(API->fmi2GetDerivatives(me, x, nx), "fmi2GetDerivatives after fmi2Terminate");
    must(API->fmi2Reset(me), "fmi2Reset");
    EXPECT(API->fmi2GetDerivatives(me, x, nx), fmi2Error, "not allowed in instantiated");

    /* freed instances and pointers that never were one */
    API->fmi2FreeInstance(me);
    EXPECT(API->fmi2GetDerivatives(me, x, nx), fmi2Error, "was freed");
    int before = fmu_log_count();
    API->fmi2FreeInstance(me);  /* twice: logged, not followed */
    expect(fmi2Error, fmi2Error, before, "was freed", "fmi2FreeInstance twice");
    API->fmi2FreeInstance(cs);
    EXPECT(API->fmi2DoStep(cs, 0.01, 0.01, fmi2True), fmi2Error, "was freed");
    check(API->fmi2GetReal(NULL, &vr0, 1, &v) == fmi2Error, "a NULL instance is not an error");
    check(API->fmi2DoStep(&v, 0, 1, fmi2True) == fmi2Error, "a stray pointer is not an error");
    API->fmi2FreeInstance(NULL);

    /* refused instantiations */
    before = fmu_log_count();
    check(!API->fmi2Instantiate("x", fmi2CoSimulation, "{not-the-guid}", fmu.resources,
                                &fmu_callbacks, fmi2False, fmi2False),
          "an instance with a wrong GUID");
    expect(fmi2Error, fmi2Error, before, "is not this FMU's", "fmi2Instantiate, wrong GUID");
    check(!API->fmi2Instantiate("x", fmi2CoSimulation, fmu.guid, fmu.resources, NULL,
                                fmi2False, fmi2False),
          "an instance without callbacks");
    check(!API->fmi2Instantiate("", fmi2CoSimulation, fmu.guid, fmu.resources, &fmu_callbacks,
                                fmi2False, fmi2False),
          "an instance without a name");
    check(!API->fmi2Instantiate("x", (fmi2Type)7, fmu.guid, fmu.resources, &fmu_callbacks,
                                fmi2False, fmi2False),
          "an instance of an unknown type");
    check(!strcmp(API->fmi2GetVersion(), "2.0"), "fmi2GetVersion is not 2.0");
    check(!strcmp(API->fmi2GetTypesPlatform(), "default"), "fmi2GetTypesPlatform");
    (void)r;
    printf("%s\n", failures ? "illegal calls: FAILED" : "illegal calls: all refused");
    return failures ? 1 : 0;
}

/* ---- the command line ------------------------------------------------------------------ */

static void parse_vars(Run *r, const char *list)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        int v = fmu_find(&fmu, w);
        if (v < 0 || r->nvars == MAX_VARS) {
            fprintf(stderr, "fmu_test: --vars: no variable '%s'\n", w);
            exit(2);
        }
        r->vars[r->nvars++] = v;
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: fmu_test FMU me|cs|two|state|dirder|illegal [options]\n");
        return 2;
    }
    fmu_load(&fmu, argv[1]);
    const char *mode = argv[2];
    Run r = {.stop = 0.1, .step = 0, .tol = 1e-6, .h = 1e-5, .at = 0.03};
    const char *vars = NULL;
    for (int i = 3; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!val) {
            fprintf(stderr, "fmu_test: %s needs a value\n", a);
            return 2;
        }
        i++;
        if (!strcmp(a, "--stop"))
            r.stop = strtod(val, NULL);
        else if (!strcmp(a, "--step"))
            r.step = strtod(val, NULL);
        else if (!strcmp(a, "--tol"))
            r.tol = strtod(val, NULL), r.tol_defined = 1;
        else if (!strcmp(a, "--h"))
            r.h = strtod(val, NULL);
        else if (!strcmp(a, "--at"))
            r.at = strtod(val, NULL);
        else if (!strcmp(a, "--no-stop"))
            r.no_stop = strcmp(val, "0") != 0;
        else if (!strcmp(a, "--delays"))
            r.delays = strcmp(val, "0") != 0;
        else if (!strcmp(a, "--set") && r.nsets < MAX_SETS)
            r.sets[r.nsets++] = val;
        else if (!strcmp(a, "--set2") && r.nsets2 < MAX_SETS)
            r.sets2[r.nsets2++] = val;
        else if (!strcmp(a, "--vars"))
            vars = val;
        else if (!strcmp(a, "--events"))
            r.events = val;
        else {
            fprintf(stderr, "fmu_test: unknown option %s\n", a);
            return 2;
        }
    }
    if (r.step <= 0)
        r.step = r.stop / 500;
    if (vars)
        parse_vars(&r, vars);
    else
        for (int j = 0; j < fmu.nstates && r.nvars < MAX_VARS; j++)
            r.vars[r.nvars++] = fmu.state_vars[j];
    int rc;
    if (!strcmp(mode, "cs"))
        rc = run_cs(&r);
    else if (!strcmp(mode, "me"))
        rc = run_me(&r);
    else if (!strcmp(mode, "two"))
        rc = run_two(&r);
    else if (!strcmp(mode, "state"))
        rc = run_state(&r);
    else if (!strcmp(mode, "dirder"))
        rc = run_dirder(&r);
    else if (!strcmp(mode, "assert"))
        rc = run_assert(&r);
    else if (!strcmp(mode, "illegal"))
        rc = run_illegal(&r);
    else {
        fprintf(stderr, "fmu_test: unknown mode %s\n", mode);
        rc = 2;
    }
    fmu_unload(&fmu);
    return rc;
}
