/*
 * rt_delay.c - the histories behind delay(u, tau).
 *
 * For every delay the runtime keeps samples (t, u, du/dt) of its argument
 * u: at the start, at the end of every accepted step, and at both limits
 * of every event (two samples at one time: u may jump there).  u comes
 * from the model's delay_args at the evaluated point; du/dt by the
 * one-sided difference of second order along the trajectory, two more
 * partial evaluations of the model at (t + d, x + d dx/dt) and (t + 2d,
 * x + 2d dx/dt) per sample, d = eps^(1/3) times the step (the state's
 * second-order term cancels in the difference, so the slope is accurate
 * to ~1e-10 of |u'|; the forward difference of first order it replaces
 * was off by d |u''| / 2, ~1e-7, enough to ruin the estimates of u''''
 * below on short segments).  A
 * read at time t of delay(u, tau) interpolates u at t - tau between the
 * two samples around it with the cubic Hermite of their values and
 * slopes, the interpolation the event location uses: accurate to the
 * integrator's own order for smooth u (its error is the step's fourth
 * power times u'''' / 384).  At an event time read exactly, the right
 * limit is taken.
 *
 * Before the start (t - tau < 0) a delay reads its History, else u's
 * value at the start: u(0) is not known until the initial state is, so
 * initialization runs with the History (or 0), and again once with u(0)
 * if it was not given and u(0) differs (rt_delays_start).
 *
 * The interpolation must be as accurate as the integration, whatever
 * the steps the solver would take: from the third derivatives of the last
 * two Hermite segments of each history, an estimate of u''''; the largest
 * of the last three estimates bounds the next step to half the h with
 * h^4 |u''''| / 384 = rtol |u| + atol (half, and three, since an estimate
 * lags and vanishes where u'''' changes sign).  Until a history has
 * three estimates, its steps at most double.  Steps are also clipped to
 * the shortest delay read at the last accepted point, so a trial point
 * of a step reads only accepted history; a tau that shrinks within a
 * step may still read a little past the last sample, and then the last
 * sample's value and slope extrapolate (the only read not to the
 * integrator's accuracy).
 *
 * A delay's bound: MaximumDelay, or a parametric tau itself.  A read with
 * tau < 0 or beyond the bound fails the evaluation (RT_FAILKIND_DELAY),
 * which at an accepted point stops the run with the delay's instance and
 * line.  Samples older than the bound before the last one are dropped.
 *
 * Discontinuities: an event at te (u may jump) makes, for every delay
 * read with a constant tau, te + tau a breakpoint: steps end there and
 * the stepper restarts, as after an event, so the jump that arrives
 * through the delay is not smeared over a step.  Not handled: the
 * breakpoints of a delay whose tau varies, of breakpoints themselves
 * (the jump's own delayed copies are found, but not those of a
 * discontinuity in u's derivatives), and jumps that come from outside
 * the events.
 */
#include "rt_internal.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One delay's samples, oldest first from `first`. */
typedef struct History {
    double *t, *u, *du;     /* time, value, slope */
    long first, n, cap;     /* live samples are first .. n-1 */
    double u4[3];           /* the latest estimates of |u''''|, newest
                               first ... */
    int n_u4;               /* ... and how many there have been, up to 3 */
} History;

struct RtDelays {
    int n;                  /* delays */
    double *tmax;           /* bounds (MaximumDelay or tau) */
    double *hist;           /* History values, or NAN */
    double *u0;             /* the value before the start, while no sample
                               exists (History, or the estimate of u(0)) */
    double *tau_seen;       /* the tau of each one's latest read */
    double *u, *ufd, *u2;   /* scratch: the arguments at a point, and at
                               t + a and t + b for the slope */
    double *alg;            /* scratch: algebraic values at t + d */
    History *h;             /* the histories */
    int fail;               /* a delay read out of range since the last
                               check, or -1 ... */
    double fail_tau;        /* ... with this tau */
    double hinterp;         /* the longest step whose interpolation error
                               stays within the tolerances (0: none yet) */
    double *bp;             /* pending breakpoints, sorted */
    int nbp, capbp;         /* their count and room */
    double t_last;          /* the time of the latest samples (NAN: none) */
    double seg;             /* the latest step between two samples, the
                               time scale of the slopes' differences */
};

void rt_delays_setup(RtSim *s)
{
    const RtModel *m = s->m;
    if (m->n_delays <= 0 || !m->delay_args)
        return;
    RtDelays *d = rt_xcalloc(1, sizeof *d);
    size_t n = (size_t)m->n_delays;
    d->n = m->n_delays;
    d->tmax = rt_xcalloc(n, sizeof *d->tmax);
    d->hist = rt_xcalloc(n, sizeof *d->hist);
    d->u0 = rt_xcalloc(n, sizeof *d->u0);
    d->tau_seen = rt_xcalloc(n, sizeof *d->tau_seen);
    d->u = rt_xcalloc(n, sizeof *d->u);
    d->ufd = rt_xcalloc(n, sizeof *d->ufd);
    d->u2 = rt_xcalloc(n, sizeof *d->u2);
    d->alg = rt_xcalloc((size_t)(m->n_alg > 0 ? m->n_alg : 0) + 1, sizeof *d->alg);
    d->h = rt_xcalloc(n, sizeof *d->h);
    d->fail = -1;
    d->t_last = NAN;
    if (m->delay_params)
        m->delay_params(s->p, d->tmax, d->hist);
    for (int k = 0; k < d->n; k++) {
        d->u0[k] = isnan(d->hist[k]) ? 0 : d->hist[k];
        d->tau_seen[k] = NAN;
    }
    s->delays = d;
}

void rt_delays_free(RtSim *s)
{
    RtDelays *d = s->delays;
    if (!d)
        return;
    for (int k = 0; k < d->n; k++) {
        free(d->h[k].t);
        free(d->h[k].u);
        free(d->h[k].du);
    }
    void *bufs[] = {d->tmax, d->hist, d->u0, d->tau_seen, d->u, d->ufd, d->u2, d->alg, d->h, d->bp};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        free(bufs[i]);
    free(d);
    s->delays = NULL;
}

static void push(History *h, double t, double u, double du)
{
    if (h->n == h->cap) {
        if (h->first > h->n / 2) {
            /* drop the samples no delay can read any more */
            long keep = h->n - h->first;
            memmove(h->t, h->t + h->first, (size_t)keep * sizeof *h->t);
            memmove(h->u, h->u + h->first, (size_t)keep * sizeof *h->u);
            memmove(h->du, h->du + h->first, (size_t)keep * sizeof *h->du);
            h->n = keep;
            h->first = 0;
        } else {
            h->cap = h->cap ? 2 * h->cap : 256;
            h->t = rt_xrealloc(h->t, (size_t)h->cap * sizeof *h->t);
            h->u = rt_xrealloc(h->u, (size_t)h->cap * sizeof *h->u);
            h->du = rt_xrealloc(h->du, (size_t)h->cap * sizeof *h->du);
        }
    }
    h->t[h->n] = t;
    h->u[h->n] = u;
    h->du[h->n] = du;
    h->n++;
}

/* The third derivative of the cubic Hermite between samples i and i+1. */
static double third(const History *h, long i)
{
    double dt = h->t[i + 1] - h->t[i];
    return 6 * (2 * (h->u[i] - h->u[i + 1]) + dt * (h->du[i] + h->du[i + 1])) / (dt * dt * dt);
}

/* After a new sample: the step bound its interpolation error sets.  The
   fourth derivative is estimated from the last two segments, and the
   bound takes the largest of the last three estimates: one estimate
   lags, and is near zero where u'''' changes sign (a sine's), while the
   next segment sees the full value (on a sine of 2 rad/s, an estimate
   of 0.13 where the next segment reached 2.7 made that segment's error
   5e-7 on a tolerance of 4e-7). */
static void interp_limit(RtSim *s, RtDelays *d, History *h)
{
    long j = h->n - 1;
    if (j - 1 < h->first)
        return;
    double ha = j - 2 >= h->first ? h->t[j - 1] - h->t[j - 2] : 0, hb = h->t[j] - h->t[j - 1];
    if (ha > 0 && hb > 0) {     /* not across an event's two samples */
        double u4 = fabs(third(h, j - 1) - third(h, j - 2)) / (0.5 * (ha + hb));
        h->u4[2] = h->u4[1];
        h->u4[1] = h->u4[0];
        h->u4[0] = isfinite(u4) ? u4 : 0;
        h->n_u4 += h->n_u4 < 3;
    }
    double u4 = fmax(h->u4[0], fmax(h->u4[1], h->u4[2]));
    double tol = s->opt.rtol * fabs(h->u[j]) + s->opt.atol;
    double hmax = INFINITY;
    if (h->n_u4 < 3 && hb > 0)
        /* too few estimates yet: steps at most double (the first step
           after the start was 0.13 s where u'''' reached 200, its error
           1e-4) */
        hmax = 2 * hb;
    if (u4 > 0)
        hmax = fmin(hmax, 0.5 * pow(384 * tol / u4, 0.25)); /* half: the estimate lags */
    if (isinf(hmax))
        return;
    if (d->hinterp == 0 || hmax < d->hinterp)
        d->hinterp = hmax;
}

/* u at (t + a, x + a dx) into out: the trajectory to first order, which
   is enough for the slope below (the state's second-order term cancels
   in it).  A partial evaluation computes what the delays read. */
static int args_ahead(RtSim *s, double t, double a, const double *x, const double *dx,
                      const double *alg, double *out)
{
    RtDelays *d = s->delays;
    const RtModel *m = s->m;
    for (int i = 0; i < m->n_states; i++)
        s->xj[i] = x[i] + a * (dx ? dx[i] : 0);
    if (m->n_alg > 0)
        memcpy(d->alg, alg, (size_t)m->n_alg * sizeof *d->alg);
    RtFailure f;
    int kind = s->solver_eval;
    s->solver_eval = 1;
    int rc = rt_eval_try(s, t + a, s->xj, s->fj, d->alg, s->modes, &f);
    s->solver_eval = kind;
    if (rc != 0)
        return -1;
    RtEval e = rt_eval_make(s, t + a, s->xj, s->fj, d->alg, s->modes);
    m->delay_args(&e, out);
    return 0;
}

int rt_delays_sample(RtSim *s, double t, const double *x, const double *dx,
                     const double *alg)
{
    RtDelays *d = s->delays;
    const RtModel *m = s->m;
    if (!d)
        return 0;
    RtEval e = rt_eval_make(s, t, x, (double *)dx, (double *)alg, s->modes);
    m->delay_args(&e, d->u);
    d->hinterp = 0;     /* recomputed from the new samples */
    /* du/dt along the trajectory: the one-sided difference of second
       order over t, t + a, t + b (b = 2a before rounding), whose error
       (a b |u'''| / 6, and the rounding's) is ~1e-10 of |u'| */
    /* over a time scale of the steps: the solver's next one, or the last
       between two samples when that is longer (a restart's first steps
       are tiny, and the rounding's error goes as 1/h0) */
    if (t > d->t_last)
        d->seg = t - d->t_last;
    d->t_last = t;
    double step = fmax(s->h > 0 ? s->h : s->opt.output_step, d->seg);
    double h0 = cbrt(DBL_EPSILON) * fmax(step, 1e-6 * fabs(t));
    double a = (t + h0) - t, b = (t + 2 * h0) - t;
    int ok = a > 0 && b > a && args_ahead(s, t, a, x, dx, alg, d->ufd) == 0
             && args_ahead(s, t, b, x, dx, alg, d->u2) == 0;
    d->fail = -1;
    for (int k = 0; k < d->n; k++) {
        History *h = &d->h[k];
        double du = 0;
        if (ok)
            du = -(a + b) / (a * b) * d->u[k] + b / (a * (b - a)) * d->ufd[k]
                 - a / (b * (b - a)) * d->u2[k];
        else if (h->n > h->first && t > h->t[h->n - 1])
            du = (d->u[k] - h->u[h->n - 1]) / (t - h->t[h->n - 1]);
        if (h->n > h->first && h->t[h->n - 1] == t && h->u[h->n - 1] == d->u[k]) {
            h->du[h->n - 1] = du;
            continue;   /* the same point again */
        }
        push(h, t, d->u[k], du);
        interp_limit(s, d, h);
        /* the samples older than the bound before the last one go */
        double oldest = t - d->tmax[k] * (1 + 1e-9) - 1e-300;
        while (h->first + 1 < h->n && h->t[h->first + 1] < oldest)
            h->first++;
    }
    return 0;
}

double rt_delay(const RtEval *e, int k, double tau)
{
    RtDelays *d = e->delays;
    if (!d || k < 0 || k >= d->n)
        return NAN;
    d->tau_seen[k] = tau;
    if (!(tau >= 0) || tau > d->tmax[k] * (1 + 1e-12) + 1e-300) {
        if (d->fail < 0) {
            d->fail = k;
            d->fail_tau = tau;
        }
        return NAN;
    }
    History *h = &d->h[k];
    double ts = e->t - tau;
    if (h->n <= h->first)
        return d->u0[k];
    if (ts < h->t[h->first])    /* before the start: History, else u(0) */
        return isnan(d->hist[k]) ? h->u[h->first] : d->hist[k];
    long last = h->n - 1;
    if (ts >= h->t[last])
        return h->u[last] + h->du[last] * (ts - h->t[last]);
    /* the last sample at or before ts (the right limit at an event) */
    long lo = h->first, hi = last;
    while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if (h->t[mid] <= ts)
            lo = mid;
        else
            hi = mid;
    }
    while (lo + 1 < last && h->t[lo + 1] <= ts)
        lo++;
    double t0 = h->t[lo], t1 = h->t[lo + 1], dt = t1 - t0;
    if (!(dt > 0))
        return h->u[lo + 1];
    double u = (ts - t0) / dt, v = 1 - u;
    return (1 + 2 * u) * v * v * h->u[lo] + u * v * v * dt * h->du[lo]
           + u * u * (3 - 2 * u) * h->u[lo + 1] - u * u * v * dt * h->du[lo + 1];
}

int rt_delays_check(RtSim *s, double t, RtFailure *f)
{
    RtDelays *d = s->delays;
    if (!d || d->fail < 0)
        return 0;
    rt_fail_simple(f, RT_FAILKIND_DELAY, t, d->fail);
    f->h = d->fail_tau;
    d->fail = -1;
    return -1;
}

double rt_delays_tmax(const RtSim *s, int k)
{
    return s->delays && k >= 0 && k < s->delays->n ? s->delays->tmax[k] : NAN;
}

double rt_delays_step_limit(const RtSim *s)
{
    RtDelays *d = s->delays;
    double hmax = 0;
    for (int k = 0; d && k < d->n; k++)
        if (d->tau_seen[k] > 0 && (hmax == 0 || d->tau_seen[k] < hmax))
            hmax = d->tau_seen[k];
    if (d && d->hinterp > 0 && (hmax == 0 || d->hinterp < hmax))
        hmax = d->hinterp;
    return hmax;
}

int rt_delays_start(RtSim *s)
{
    RtDelays *d = s->delays;
    if (!d)
        return 0;
    /* u(0) is the history of the delays given none: initialization ran
       with the estimate, and runs again if it was off */
    for (int round = 0; round < 3; round++) {
        RtEval e = rt_eval_make(s, s->t, s->x, s->dx, s->alg, s->modes);
        s->m->delay_args(&e, d->u);
        int again = 0;
        for (int k = 0; k < d->n; k++) {
            if (!isnan(d->hist[k]) || d->u[k] == d->u0[k])
                continue;
            d->u0[k] = d->u[k];
            again = 1;
        }
        if (!again)
            break;
        if (rt_init(s) != 0)
            return -1;
    }
    return rt_delays_sample(s, s->t, s->x, s->dx, s->alg);
}

void rt_delays_event(RtSim *s, double te)
{
    RtDelays *d = s->delays;
    for (int k = 0; d && k < d->n; k++) {
        /* a constant tau: its bound is tau itself (no MaximumDelay
           needed), and it was read with it */
        double tau = d->tau_seen[k];
        if (!(tau > 0) || tau != d->tmax[k])
            continue;
        double b = te + tau;
        if (b > s->opt.stop_time)
            continue;
        if (d->nbp == d->capbp) {
            d->capbp = d->capbp ? 2 * d->capbp : 16;
            d->bp = rt_xrealloc(d->bp, (size_t)d->capbp * sizeof *d->bp);
        }
        int i = d->nbp++;
        while (i > 0 && d->bp[i - 1] > b) {
            d->bp[i] = d->bp[i - 1];
            i--;
        }
        d->bp[i] = b;
    }
}

double rt_delays_breakpoint(RtSim *s, double t)
{
    RtDelays *d = s->delays;
    while (d && d->nbp > 0 && d->bp[0] <= t) {
        memmove(d->bp, d->bp + 1, (size_t)(d->nbp - 1) * sizeof *d->bp);
        d->nbp--;
    }
    return d && d->nbp > 0 ? d->bp[0] : INFINITY;
}

/* ---- the histories in an FMU state (fmi_state.c) ------------------------------- */

/* The layout, in this machine's formats, empty for a model without
   delays: hinterp, t_last, seg (double), nbp (int64), bp[nbp]; then per
   delay u0, tau_seen, tmax, hist, u4[3] (double), n_u4 and n (int64),
   then the n live samples' t[], u[] and du[]. */
typedef struct Cursor {
    unsigned char *w;           /* writing, or NULL */
    const unsigned char *r;     /* reading */
    size_t left;                /* bytes left to read */
    size_t size;                /* bytes written (or to write) */
} Cursor;

static void put(Cursor *c, const void *v, size_t n)
{
    if (c->w)
        memcpy(c->w + c->size, v, n);
    c->size += n;
}

static void put_d(Cursor *c, double v)
{
    put(c, &v, sizeof v);
}

static void put_i(Cursor *c, int64_t v)
{
    put(c, &v, sizeof v);
}

/* Writes (or, with c->w NULL, measures) the histories. */
static void delays_put(const RtDelays *d, Cursor *c)
{
    if (!d)
        return;
    put_d(c, d->hinterp);
    put_d(c, d->t_last);
    put_d(c, d->seg);
    put_i(c, d->nbp);
    for (int i = 0; i < d->nbp; i++)
        put_d(c, d->bp[i]);
    for (int k = 0; k < d->n; k++) {
        const History *h = &d->h[k];
        double head[] = {d->u0[k], d->tau_seen[k], d->tmax[k], d->hist[k],
                         h->u4[0], h->u4[1], h->u4[2]};
        for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
            put_d(c, head[i]);
        put_i(c, h->n_u4);
        put_i(c, h->n - h->first);
        const double *arrays[] = {h->t, h->u, h->du};
        for (int a = 0; a < 3; a++)
            for (long i = h->first; i < h->n; i++)
                put_d(c, arrays[a][i]);
    }
}

size_t rt_delays_state_size(const RtSim *s)
{
    Cursor c = {0};
    delays_put(s->delays, &c);
    return c.size;
}

void rt_delays_state_save(const RtSim *s, unsigned char *out)
{
    Cursor c = {out, NULL, 0, 0};
    delays_put(s->delays, &c);
}

static int take(Cursor *c, void *v, size_t n)
{
    if (c->left < n)
        return -1;
    memcpy(v, c->r, n);
    c->r += n;
    c->left -= n;
    return 0;
}

static int get_d(Cursor *c, double *v)
{
    return take(c, v, sizeof *v);
}

static int get_i(Cursor *c, int64_t *v)
{
    return take(c, v, sizeof *v);
}

/* Reads the histories into d (NULL: checks only).  Returns NULL, or what
   is out of range (then d is unchanged): every count is checked against
   the bytes left before anything is allocated, every time is finite and
   in order, every value finite. */
static const char *delays_get(const RtSim *s, Cursor *c, RtDelays *d)
{
    const RtDelays *live = s->delays;
    if (!live)
        return c->left ? "the delays' histories (this model has none)" : NULL;
    double g[3];
    int64_t nbp;
    if (get_d(c, &g[0]) || get_d(c, &g[1]) || get_d(c, &g[2]) || get_i(c, &nbp))
        return "the delays' histories (too short)";
    if (!(g[0] >= 0 && isfinite(g[0])) || isinf(g[1]) || isinf(g[2]) || g[2] < 0)
        return "the delays' step bound or latest sample time";
    if (nbp < 0 || (uint64_t)nbp > c->left / sizeof(double))
        return "the count of the delays' breakpoints";
    const unsigned char *bp_at = c->r;
    double prev = -INFINITY;
    for (int64_t i = 0; i < nbp; i++) {
        double b = 0;
        if (get_d(c, &b) || !isfinite(b) || b < prev)
            return "a delay's breakpoint";
        prev = b;
    }
    if (d) {
        d->hinterp = g[0], d->t_last = g[1], d->seg = g[2];
        d->nbp = d->capbp = (int)nbp;
        d->bp = rt_xrealloc(d->bp, (size_t)(nbp + 1) * sizeof *d->bp);
        memcpy(d->bp, bp_at, (size_t)nbp * sizeof *d->bp);
        d->fail = -1;
    }
    for (int k = 0; k < live->n; k++) {
        double head[7];
        int64_t n_u4, n;
        for (int i = 0; i < 7; i++)
            if (get_d(c, &head[i]))
                return "a delay's history (too short)";
        if (get_i(c, &n_u4) || get_i(c, &n))
            return "a delay's history (too short)";
        if (!isfinite(head[0]) || isinf(head[1]) || head[1] < 0 || isnan(head[2])
            || head[2] < 0 || isinf(head[3]))
            return "a delay's value before the start, tau or bound";
        for (int i = 4; i < 7; i++)
            if (!(head[i] >= 0 && isfinite(head[i])))
                return "a delay's estimate of u''''";
        if (n_u4 < 0 || n_u4 > 3)
            return "a delay's count of estimates";
        if (n < 0 || (uint64_t)n > c->left / (3 * sizeof(double)))
            return "a delay's count of samples";
        const unsigned char *at = c->r;
        double last = -INFINITY;
        for (int64_t i = 0; i < 3 * n; i++) {
            double v = 0;
            if (get_d(c, &v) || !isfinite(v) || (i < n && v < last))
                return i < n ? "a delay's sample time" : "a delay's sample value";
            if (i < n)
                last = v;
        }
        if (!d)
            continue;
        History *h = &d->h[k];
        free(h->t), free(h->u), free(h->du);
        h->first = 0;
        h->n = h->cap = (long)n;
        double **arrays[] = {&h->t, &h->u, &h->du};
        for (int a = 0; a < 3; a++) {
            *arrays[a] = n ? rt_xcalloc((size_t)n, sizeof(double)) : NULL;
            if (n)
                memcpy(*arrays[a], at + (size_t)a * (size_t)n * sizeof(double),
                       (size_t)n * sizeof(double));
        }
        d->u0[k] = head[0], d->tau_seen[k] = head[1], d->tmax[k] = head[2];
        d->hist[k] = head[3];
        memcpy(h->u4, head + 4, sizeof h->u4);
        h->n_u4 = (int)n_u4;
    }
    return c->left ? "the delays' histories (bytes left over)" : NULL;
}

const char *rt_delays_state_check(const RtSim *s, const unsigned char *in, size_t size)
{
    Cursor c = {NULL, in, size, 0};
    return delays_get(s, &c, NULL);
}

void rt_delays_state_load(RtSim *s, const unsigned char *in, size_t size)
{
    Cursor c = {NULL, in, size, 0};
    delays_get(s, &c, s->delays);
}
