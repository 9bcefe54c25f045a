/*
 * fmi_state.c - FMU states: fmi2GetFMUstate and fmi2SetFMUstate, and
 * their serialization.
 *
 * An FMU state is everything a run depends on: the time, the states, the
 * modes, the parameters (and which were set), the algebraic values (the
 * Newton guesses, as computed and as last accepted), the nominals and
 * declared starts, the solver's next step, the event history that the
 * chattering guard reads, the event variables, the mode
 * charts' last compound transitions and the relations watched after
 * them (rt_events.c, watch_resets), the experiment and where the state
 * machine was, and the delays' histories (rt_delay.c: every live sample,
 * the breakpoints, the step bounds), whose length grows with the run.
 * It is one block of bytes, laid out below, so that serializing it is a
 * copy and deserializing one is a check and a copy.  The header
 * carries the model's GUID, the interface (Model Exchange or
 * Co-Simulation) and the sizes, so a state of another FMU or interface
 * is refused.  The layout is this machine's (byte order, double format):
 * a serialized state is for the same FMU on the same platform.
 *
 * The solver's own history (a multistep method's past values and step
 * sizes) is GSL's and cannot be saved, so in Co-Simulation both taking
 * and restoring a state restart the solver there, as an event does: the
 * run that goes on from a state and the one restored to it then follow
 * the same trajectory, bit for bit.  The FMU states an instance took are listed in it, so a
 * pointer that is not one of them is refused, and those the importer
 * never freed are freed with the instance.
 */
#include "fmi_internal.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FMI_SNAP_MAGIC "lmdlFMUs"
/* The layout's version: a state of another version is refused. */
enum { FMI_SNAP_VERSION = 3 };

/* The fixed part of a state; the arrays follow it. */
typedef struct SnapHeader {
    char magic[8];              /* FMI_SNAP_MAGIC */
    uint32_t version;           /* FMI_SNAP_VERSION */
    uint32_t pad;               /* 0 */
    uint64_t checksum;          /* snap_checksum of the whole state, this
                                   field taken as 0 */
    char guid[48];              /* the FMU's GUID */
    int32_t type;               /* fmi2Type */
    int32_t n_states, n_alg, n_params, n_relations; /* the model's sizes */
    int32_t fsm;                /* FmiState */
    int32_t initialized, terminate, resync;   /* the instance's flags */
    int32_t tol_defined, stop_defined;        /* the experiment */
    double tol, t_start, t_stop;
    double t;                   /* time */
    double h;                   /* the solver's next step */
    double last_good;           /* CS: end of the last good step */
    double output_step, stop_time, rtol, atol; /* the solver options */
    int64_t n_events;           /* events so far (the chattering ring) */
} SnapHeader;

typedef struct FmiSnapshot {
    struct FmiSnapshot *next;   /* the instance's list */
    size_t size;                /* bytes */
    unsigned char *bytes;       /* SnapHeader, then the arrays */
} FmiSnapshot;

/* The arrays of a state, in order: pointer into the run, element size and
   count. */
typedef struct Part {
    void *at;
    size_t size, n;
} Part;

static int parts(RtSim *s, Part *out)
{
    const RtModel *m = s->m;
    size_t ns = (size_t)m->n_states, na = (size_t)m->n_alg, np = (size_t)m->n_params;
    size_t nr = (size_t)m->n_relations;
    size_t nev = (size_t)(m->n_evars > 0 ? m->n_evars : 0);
    size_t nc = (size_t)(m->n_charts > 0 ? m->n_charts : 0);
    Part p[] = {
        {s->x, sizeof(double), ns},         {s->x_start, sizeof(double), ns},
        {s->nominal, sizeof(double), ns},   {s->dx, sizeof(double), ns},
        {s->alg, sizeof(double), na},       {s->alg_good, sizeof(double), na},
        {s->p, sizeof(double), rt_param_slots(m)}, {s->overridden, 1, np},
        {s->modes, sizeof(int), nr},        {s->event_times, sizeof(double), RT_CHATTER_EVENTS},
        {s->ev, sizeof(double), nev},       {s->chart_reset_t, sizeof(double), nc},
        {s->watch, sizeof *s->watch, nr},
    };
    int n = (int)(sizeof p / sizeof p[0]);
    memcpy(out, p, sizeof p);
    return n;
}

enum { MAX_PARTS = 16 };

/* The header and the arrays: all but the delays' histories, which
   follow them. */
static size_t snap_fixed_size(RtSim *s)
{
    Part p[MAX_PARTS] = {0};
    size_t size = sizeof(SnapHeader);
    for (int i = 0, n = parts(s, p); i < n; i++)
        size += p[i].size * p[i].n;
    return size;
}

static size_t snap_size(RtSim *s)
{
    return snap_fixed_size(s) + rt_delays_state_size(s);
}

/* FNV-1a over the state's bytes, the checksum field counted as zeros:
   it finds a state changed by accident (a truncated or edited file); it
   is no defence against a forger, whom the field checks stop. */
static uint64_t snap_checksum(const unsigned char *bytes, size_t size)
{
    const size_t at = offsetof(SnapHeader, checksum), end = at + sizeof(uint64_t);
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < size; i++) {
        h ^= i >= at && i < end ? 0u : bytes[i];
        h *= 1099511628211u;
    }
    return h;
}

static void snap_take(FmiInstance *in, unsigned char *bytes)
{
    RtSim *s = &in->sim;
    const RtModel *m = s->m;
    SnapHeader h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, FMI_SNAP_MAGIC, sizeof h.magic);
    snprintf(h.guid, sizeof h.guid, "%s", FMI_INFO->guid);
    h.type = in->type;
    h.n_states = m->n_states;
    h.n_alg = m->n_alg;
    h.n_params = m->n_params;
    h.n_relations = m->n_relations;
    h.fsm = in->state;
    h.initialized = in->initialized;
    h.terminate = in->terminate;
    h.resync = in->resync;
    h.tol_defined = in->tol_defined;
    h.stop_defined = in->stop_defined;
    h.tol = in->tol;
    h.t_start = in->t_start;
    h.t_stop = in->t_stop;
    h.t = s->t;
    h.h = s->h;
    h.last_good = in->last_good;
    h.output_step = s->opt.output_step;
    h.stop_time = s->opt.stop_time;
    h.rtol = s->opt.rtol;
    h.atol = s->opt.atol;
    h.n_events = s->n_events;
    h.version = FMI_SNAP_VERSION;
    memcpy(bytes, &h, sizeof h);
    size_t at = sizeof h;
    Part p[MAX_PARTS] = {0};
    for (int i = 0, n = parts(s, p); i < n; i++) {
        size_t k = p[i].size * p[i].n;
        if (k)
            memcpy(bytes + at, p[i].at, k);
        at += k;
    }
    rt_delays_state_save(s, bytes + at);
    at += rt_delays_state_size(s);
    h.checksum = snap_checksum(bytes, at);
    memcpy(bytes + offsetof(SnapHeader, checksum), &h.checksum, sizeof h.checksum);
}

/* Element i of the array that starts at byte `at` of a state (the bytes
   need not be aligned). */
static double snap_double(const unsigned char *bytes, size_t at, size_t i)
{
    double v;
    memcpy(&v, bytes + at + i * sizeof v, sizeof v);
    return v;
}

static int snap_int(const unsigned char *bytes, size_t at, size_t i)
{
    int v;
    memcpy(&v, bytes + at + i * sizeof v, sizeof v);
    return v;
}

static int flag(int32_t v)
{
    return v == 0 || v == 1;
}

static int fsm_known(int32_t v)
{
#define X_FMI_STATE_KNOWN(st, bit, name) v == (bit) ||
    return FMI_STATES(X_FMI_STATE_KNOWN) 0;
#undef X_FMI_STATE_KNOWN
}

/* The first field of a state (of this FMU's size, checksum verified)
   that no run of this FMU can hold, or NULL: every count, flag, mode and
   index is checked against its range before any is used, so that a
   crafted state cannot index outside an array or convert a NaN to int.
   *which gets the element for an array's field. */
static const char *snap_bad_field(const RtSim *s, const unsigned char *bytes, long *which)
{
    const RtModel *m = s->m;
    SnapHeader h;
    memcpy(&h, bytes, sizeof h);
    *which = -1;
    if (!fsm_known(h.fsm) || h.fsm == FMI_FATAL)
        return "the state machine's state";
    if (!flag(h.initialized) || !flag(h.terminate) || !flag(h.resync))
        return "the instance's flags";
    if (!flag(h.tol_defined) || !flag(h.stop_defined))
        return "the experiment's flags";
    if (!isfinite(h.tol) || (h.tol_defined && !(h.tol > 0 && h.tol < 1)))
        return "the tolerance";
    if (!isfinite(h.t_start) || !isfinite(h.t_stop) || !isfinite(h.t) || !isfinite(h.last_good))
        return "a time";
    if (!isfinite(h.h) || h.h < 0)
        return "the solver's next step";
    if (!isfinite(h.output_step) || h.output_step <= 0 || !isfinite(h.stop_time))
        return "the output step or stop time";
    if (!(h.rtol > 0 && h.rtol < 1) || !(h.atol > 0 && isfinite(h.atol)))
        return "the solver's tolerances";
    if (h.n_events < 0 || h.n_events > INT64_MAX / 2)
        return "the count of events";
    Part p[MAX_PARTS] = {0};
    int n = parts((RtSim *)s, p);
    size_t at[MAX_PARTS], off = sizeof h;
    for (int i = 0; i < n; i++) {
        at[i] = off;
        off += p[i].size * p[i].n;
    }
    /* the parts, in parts()'s order */
    enum { X, X_START, NOMINAL, DX, ALG, ALG_GOOD, P, OVERRIDDEN, MODES, EVENT_TIMES, EV,
           CHART_RESET_T, WATCH };
    for (size_t i = 0; i < p[X].n; i++) {
        *which = (long)i;
        if (!isfinite(snap_double(bytes, at[X], i)) || !isfinite(snap_double(bytes, at[X_START], i)))
            return "a state";
        double nom = snap_double(bytes, at[NOMINAL], i);
        if (!isfinite(nom) || nom <= 0)
            return "a state's nominal value";
    }
    for (size_t i = 0; i < p[OVERRIDDEN].n; i++) {
        *which = (long)i;
        if (bytes[at[OVERRIDDEN] + i] > 1)
            return "a parameter's set flag";
    }
    for (size_t i = 0; i < p[MODES].n; i++) {
        *which = (long)i;
        int v = snap_int(bytes, at[MODES], i);
        /* a relation's mode is 0 or 1; a table's segment mode is the
           query's segment, 0 .. the points of its grid */
        const RtRelationInfo *r = m->relations && (int)i < m->n_relations
                                      ? &m->relations[i] : NULL;
        int hi = 1;
        if (r && r->table1 > 0 && r->table1 <= m->n_tables)
            hi = m->tables[r->table1 - 1].n[r->axis];
        if (v < 0 || v > hi)
            return "a relation's mode";
    }
    for (size_t i = 0; i < p[EVENT_TIMES].n; i++) {
        *which = (long)i;
        if (isnan(snap_double(bytes, at[EVENT_TIMES], i)))
            return "an event time";
    }
    for (int c = 0; c < m->n_charts; c++) {
        const RtChartInfo *ci = &m->charts[c];
        *which = c;
        double mode = snap_double(bytes, at[EV], (size_t)ci->evar);
        if (!(mode >= 1 && mode <= ci->n_modes && mode == (int)mode))
            return "a mode chart's mode";
        if (ci->next) {
            double next = snap_double(bytes, at[EV], (size_t)ci->next);
            if (!(next >= 0 && next <= ci->n_modes && next == (int)next))
                return "a mode chart's next mode";
        }
        if (isinf(snap_double(bytes, at[CHART_RESET_T], (size_t)c)))
            return "a mode chart's reset time";
    }
    for (size_t i = 0; i < p[WATCH].n; i++) {
        RtResetWatch w;
        memcpy(&w, bytes + at[WATCH] + i * sizeof w, sizeof w);
        *which = (long)i;
        if (w.chart < -1 || w.chart >= m->n_charts
            || (w.chart >= 0 && ((w.mode != 0 && w.mode != 1) || isnan(w.g) || !isfinite(w.t))))
            return "a relation's watch after a reset";
    }
    *which = -1;
    return NULL;
}

/* Whether bytes are a state of this FMU and interface; logs why not. */
static int snap_valid(FmiInstance *in, const char *fn, const unsigned char *bytes, size_t size)
{
    const RtModel *m = in->sim.m;
    SnapHeader h;
    size_t fixed = snap_fixed_size(&in->sim);
    if (size < fixed || (m->n_delays <= 0 && size != fixed)) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: %zu bytes are not a state of this FMU "
                "(it takes %s%zu)", fn, size, m->n_delays > 0 ? "at least " : "", fixed);
        return 0;
    }
    memcpy(&h, bytes, sizeof h);
    if (memcmp(h.magic, FMI_SNAP_MAGIC, sizeof h.magic) != 0
        || strncmp(h.guid, FMI_INFO->guid, sizeof h.guid) != 0 || h.n_states != m->n_states
        || h.n_alg != m->n_alg || h.n_params != m->n_params
        || h.n_relations != m->n_relations) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: not a state of this FMU (%s)", fn,
                FMI_INFO->guid);
        return 0;
    }
    if (h.version != FMI_SNAP_VERSION) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: a state of layout version %u, but this "
                "FMU reads version %d", fn, (unsigned)h.version, FMI_SNAP_VERSION);
        return 0;
    }
    if (h.checksum != snap_checksum(bytes, size)) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: the state's checksum does not match its "
                "bytes: it was changed after fmi2SerializeFMUstate", fn);
        return 0;
    }
    long which;
    const char *bad = snap_bad_field(&in->sim, bytes, &which);
    if (!bad)
        bad = rt_delays_state_check(&in->sim, bytes + fixed, size - fixed);
    if (bad) {
        if (which >= 0)
            fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: %s (element %ld) of the state is out of "
                    "its range: no run of this FMU holds it", fn, bad, which);
        else
            fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: %s of the state is out of its "
                    "range: no run of this FMU holds it", fn, bad);
        return 0;
    }
    if (h.type != (int32_t)in->type) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: a state of the %s interface, but this "
                "instance is %s", fn, h.type == fmi2ModelExchange ? "Model Exchange"
                : "Co-Simulation", in->type == fmi2ModelExchange ? "Model Exchange"
                : "Co-Simulation");
        return 0;
    }
    return 1;
}

static void snap_restore(FmiInstance *in, const unsigned char *bytes, size_t size)
{
    RtSim *s = &in->sim;
    SnapHeader h;
    memcpy(&h, bytes, sizeof h);
    in->state = (FmiState)h.fsm;
    in->initialized = h.initialized;
    in->terminate = h.terminate;
    in->resync = h.resync;
    in->tol_defined = h.tol_defined;
    in->stop_defined = h.stop_defined;
    in->tol = h.tol;
    in->t_start = h.t_start;
    in->t_stop = h.t_stop;
    s->t = h.t;
    s->h = h.h;
    in->last_good = h.last_good;
    s->opt.output_step = h.output_step;
    s->opt.stop_time = h.stop_time;
    s->opt.rtol = h.rtol;
    s->opt.atol = h.atol;
    s->n_events = h.n_events;
    size_t at = sizeof h;
    Part p[MAX_PARTS] = {0};
    for (int i = 0, n = parts(s, p); i < n; i++) {
        size_t k = p[i].size * p[i].n;
        if (k)
            memcpy(p[i].at, bytes + at, k);
        at += k;
    }
    rt_delays_state_load(s, bytes + at, size - at);
    s->fail.kind = RT_FAILKIND_NONE;
    fmi_invalidate(in);
    if (in->solver_ready)
        rt_solver_reset(s);
}

/* The instance's state `st`, or NULL after logging (not one of its). */
static FmiSnapshot *find(FmiInstance *in, const char *fn, const void *st)
{
    for (FmiSnapshot *q = in->snaps; q; q = q->next)
        if (q == st)
            return q;
    fmi_log(in, fmi2Error, FMI_LOG_ERROR, "%s: %p is not an FMU state of this instance "
            "(taken by fmi2GetFMUstate or fmi2DeSerializeFMUstate, and not freed)", fn, st);
    return NULL;
}

static FmiSnapshot *snap_new(FmiInstance *in, size_t size)
{
    FmiSnapshot *q = rt_xcalloc(1, sizeof *q);
    q->size = size;
    q->bytes = rt_xcalloc(size, 1);
    q->next = in->snaps;
    in->snaps = q;
    return q;
}

static void snap_unlink(FmiInstance *in, FmiSnapshot *q)
{
    for (FmiSnapshot **at = &in->snaps; *at; at = &(*at)->next) {
        if (*at == q) {
            *at = q->next;
            break;
        }
    }
    free(q->bytes);
    free(q);
}

void fmi_snapshots_free(FmiInstance *in)
{
    while (in->snaps)
        snap_unlink(in, in->snaps);
}

fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate *FMUstate)
{
    FmiInstance *in = fmi_check(c, "fmi2GetFMUstate", FMI_FOR_BOTH, FMI_ANY_LIVE);
    if (!in)
        return fmi2Error;
    if (!FMUstate) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2GetFMUstate: NULL result pointer");
        return fmi2Error;
    }
    FmiSnapshot *q = NULL;
    if (*FMUstate) {
        /* overwrite the state given (the delays' histories may have
           grown since) */
        q = find(in, "fmi2GetFMUstate", *FMUstate);
        if (!q)
            return fmi2Error;
        size_t size = snap_size(&in->sim);
        if (size != q->size) {
            q->bytes = rt_xrealloc(q->bytes, size);
            q->size = size;
        }
    } else {
        q = snap_new(in, snap_size(&in->sim));
    }
    snap_take(in, q->bytes);
    /* The solver's history (msbdf's Nordsieck array, step sizes) cannot
       be saved, so the run restarts it here, as fmi2SetFMUstate does:
       then going on and coming back give the same trajectory. */
    if (in->solver_ready)
        rt_solver_reset(&in->sim);
    *FMUstate = q;
    return fmi2OK;
}

fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate FMUstate)
{
    FmiInstance *in = fmi_check(c, "fmi2SetFMUstate", FMI_FOR_BOTH, FMI_ANY_LIVE);
    if (!in)
        return fmi2Error;
    FmiSnapshot *q = find(in, "fmi2SetFMUstate", FMUstate);
    if (!q || !snap_valid(in, "fmi2SetFMUstate", q->bytes, q->size))
        return fmi2Error;
    snap_restore(in, q->bytes, q->size);
    return fmi2OK;
}

fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate *FMUstate)
{
    FmiInstance *in = fmi_check(c, "fmi2FreeFMUstate", FMI_FOR_BOTH, FMI_ANY_LIVE);
    if (!in)
        return fmi2Error;
    if (!FMUstate || !*FMUstate)
        return fmi2OK;  /* nothing to free */
    FmiSnapshot *q = find(in, "fmi2FreeFMUstate", *FMUstate);
    if (!q)
        return fmi2Error;
    snap_unlink(in, q);
    *FMUstate = NULL;
    return fmi2OK;
}

fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate FMUstate, size_t *size)
{
    FmiInstance *in = fmi_check(c, "fmi2SerializedFMUstateSize", FMI_FOR_BOTH, FMI_ANY_LIVE);
    if (!in)
        return fmi2Error;
    FmiSnapshot *q = find(in, "fmi2SerializedFMUstateSize", FMUstate);
    if (!q)
        return fmi2Error;
    if (!size) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2SerializedFMUstateSize: NULL result "
                "pointer");
        return fmi2Error;
    }
    *size = q->size;
    return fmi2OK;
}

fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate FMUstate,
                                 fmi2Byte serializedState[], size_t size)
{
    FmiInstance *in = fmi_check(c, "fmi2SerializeFMUstate", FMI_FOR_BOTH, FMI_ANY_LIVE);
    if (!in)
        return fmi2Error;
    FmiSnapshot *q = find(in, "fmi2SerializeFMUstate", FMUstate);
    if (!q)
        return fmi2Error;
    if (!serializedState || size < q->size) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2SerializeFMUstate: the buffer holds %zu "
                "bytes, the state takes %zu (fmi2SerializedFMUstateSize)",
                serializedState ? size : 0, q->size);
        return fmi2Error;
    }
    memcpy(serializedState, q->bytes, q->size);
    return fmi2OK;
}

fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte serializedState[],
                                   size_t size, fmi2FMUstate *FMUstate)
{
    FmiInstance *in = fmi_check(c, "fmi2DeSerializeFMUstate", FMI_FOR_BOTH, FMI_ANY_LIVE);
    if (!in)
        return fmi2Error;
    if (!FMUstate || !serializedState) {
        fmi_log(in, fmi2Error, FMI_LOG_ERROR, "fmi2DeSerializeFMUstate: NULL pointer");
        return fmi2Error;
    }
    if (!snap_valid(in, "fmi2DeSerializeFMUstate", (const unsigned char *)serializedState,
                    size))
        return fmi2Error;
    FmiSnapshot *q = snap_new(in, size);
    memcpy(q->bytes, serializedState, size);
    *FMUstate = q;
    return fmi2OK;
}
