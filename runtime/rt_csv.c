/*
 * rt_csv.c - the results file (CSV, or MAT through rt_mat.c) and the
 * event log (docs/tools.md).
 *
 * Results: `time` and then the selected column names, one row per output
 * time and two per event.  Values are the shortest decimals that read
 * back as the same doubles (rt_dtoa.c): a result read back is the number
 * the simulator had, without the noise digits of %.17g.  A results path
 * ending in ".mat" gets MATLAB MAT version 4 instead (rt_mat.c), with the
 * same rows.
 *
 * Event log: `time,instance,condition,value`, one line per relation that
 * changed, value true or false; for a table's segment mode, the part of
 * the grid the query entered: "[0.1, 0.2]", "before 0", "beyond 0.9";
 * and one per mode a mode chart enters, with the chart's name as the
 * condition and the mode's as the value.
 *
 * Whole rows, in batches.  Every line (the header, each row, each log
 * line) is formatted into one buffer.  Results rows then wait in a batch
 * of whole rows that reaches the file in one write(2) when it holds 64 KB
 * (a row that would fill it goes with it, in one writev(2), uncopied)
 * or its first row is 0.1 s old (wall clock), before an event log line,
 * and at the end of the run, failed or not.  The header and event log
 * lines are written at once.  SIGINT, SIGTERM and SIGHUP are held off
 * while a batch is written or grows; one that comes between writes
 * first writes the waiting rows (write(2) is safe in a signal handler)
 * and then kills the process with the same signal.  So a run that fails,
 * or is interrupted or terminated, keeps every row up to that point, each
 * one whole.  SIGKILL cannot be held off: it loses the rows of the batch
 * (at most 0.1 s of them, like a stdio buffer), and Linux may end a
 * large write to a file early when SIGKILL arrives during it, so a killed
 * run can in principle end in a partial last row.  One write per row
 * cost a system call a row: 5,000 rows of the wall contact over 10 s
 * took 20.8 ms against 11.2 ms for the hand-written program, whose stdio
 * wrote 4 KB at a time.
 *
 * Fields are quoted (RFC 4180) only when they need it, so ordinary names
 * and conditions stay readable and `cut -d,` keeps working on them.
 */
#include "rt_internal.h"
#include "rt_dtoa.h"

#include <errno.h>
#include <stdint.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/* A line being formatted. */
typedef struct Line {
    char *text;
    size_t len, cap;
    int borrowed;               /* text is the caller's buffer: copied
                                   to the heap when it must grow */
} Line;

/* A number already written in this row, by its bits without the sign. */
typedef struct Seen {
    uint64_t bits;              /* the double's magnitude */
    uint32_t at;                /* its text in the current line */
    uint16_t len;               /* ... its length */
    unsigned char neg;          /* the sign of the double written */
    uint32_t row;               /* the row it was written in (stamp) */
} Seen;

struct RtOutput {
    Line line;                  /* the line being formatted (reused) */
    Line batch;                 /* whole results rows not yet written */
    double batch_since;         /* wall clock of the batch's first row */
    int fd;                     /* the results file */
    RtMat *mat;                 /* the MAT writer for a .mat results file */
    RtGather *gather;           /* the written columns' distinct values
                                   (rt_gather_make), or NULL */
    double *values;             /* ... a row's */
    /* Reuse of formatted numbers in results rows.  A distinct value
       (RtGather) is written in the first field that has it; the other
       fields with it copy that text, with the sign changed where one is
       minus the other.  A value with the bits it had in the previous row
       copies that row's text, and one that equals or is minus a number
       already written in this row (the same physical quantity computed
       two ways) copies that. */
    int *first;                 /* per value: the first field with it */
    Line prev;                  /* the previous row, as written */
    uint64_t *bits;             /* per value: its first field's bits ... */
    uint32_t *at;               /* ... and its text in the row */
    uint16_t *len;
    Seen *seen;                 /* this row's numbers, hashed by magnitude */
    size_t seen_mask;           /* entries - 1, a power of two minus one */
    uint32_t row;               /* rows written (the stamp of seen) */
};

/* Holding off the terminating signals.  Blocking them with sigprocmask
   around every write costs two system calls a row (0.2 us here, 7% of a
   small model's run), so instead the first hold installs a handler for
   each of them that is still at its default action: while a line is
   being written it only notes the signal, and the release re-raises it
   with the default action; outside a write it re-raises at once.  The
   process dies of the same signal as before, only never inside a row. */
static volatile sig_atomic_t writing_line, deferred_signal;
static const int held_signals[] = {SIGINT, SIGTERM, SIGHUP};
/* The results whose waiting rows a terminating signal writes first. */
static RtOutput *volatile batched;

static int write_batch(RtOutput *o);

static void die_of(int sig)
{
    RtOutput *o = batched;
    if (o)
        write_batch(o);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_terminating_signal(int sig)
{
    if (writing_line)
        deferred_signal = sig;
    else
        die_of(sig);
}

void rt_hold_signals(void)
{
    static int installed;
    if (!installed) {
        installed = 1;
        for (size_t i = 0; i < sizeof held_signals / sizeof held_signals[0]; i++) {
            struct sigaction now, act;
            if (sigaction(held_signals[i], NULL, &now) != 0 || now.sa_handler != SIG_DFL)
                continue;       /* ignored (nohup) or someone else's */
            memset(&act, 0, sizeof act);
            act.sa_handler = on_terminating_signal;
            act.sa_flags = SA_RESTART;
            sigemptyset(&act.sa_mask);
            sigaction(held_signals[i], &act, NULL);
        }
    }
    writing_line = 1;
}

void rt_release_signals(void)
{
    writing_line = 0;
    if (deferred_signal)
        die_of(deferred_signal);
}

static void line_reserve(Line *l, size_t more)
{
    if (l->len + more <= l->cap)
        return;
    size_t cap = l->cap ? l->cap : 256;
    while (cap < l->len + more)
        cap *= 2;
    if (l->borrowed) {
        char *text = rt_xcalloc(cap, 1);
        memcpy(text, l->text, l->len);
        l->text = text;
        l->borrowed = 0;
    } else {
        l->text = rt_xrealloc(l->text, cap);
    }
    l->cap = cap;
}

static void line_put(Line *l, const char *text, size_t n)
{
    if (n == 0)
        return;     /* an empty field: nothing to copy, maybe no buffer yet */
    line_reserve(l, n);
    memcpy(l->text + l->len, text, n);
    l->len += n;
}

static void line_char(Line *l, char c)
{
    line_reserve(l, 1);
    l->text[l->len++] = c;
}

/* A number: the caller has reserved RT_DTOA_SIZE bytes. */
static void line_number(Line *l, double v)
{
    l->len += (size_t)rt_dtoa(v, l->text + l->len);
}

/* The length of a field's text, and in *quote whether it needs quotes:
   a comma, quote or line break in it, or a space at either end.  One
   pass over short names and units (strlen and strpbrk were two calls
   of library set-up each). */
static size_t field_scan(const char *text, int *quote)
{
    size_t n = 0;
    int q = 0;
    for (unsigned char c; (c = (unsigned char)text[n]) != 0; n++)
        q |= c == ',' || c == '"' || c == '\r' || c == '\n';
    *quote = q || (n > 0 && (text[0] == ' ' || text[n - 1] == ' '));
    return n;
}

static void line_field(Line *l, const char *text)
{
    if (!text)
        text = "";
    int quote;
    size_t n = field_scan(text, &quote);
    if (!quote) {
        line_put(l, text, n);
        return;
    }
    line_char(l, '"');
    for (const char *c = text; *c; c++) {
        if (*c == '"')
            line_char(l, '"');
        line_char(l, *c);
    }
    line_char(l, '"');
}

/* One record of n fields, quoted by the same rule as the results, to a
   stdio stream (the .meta file, the sweep's summary): built in a buffer
   and written at once, a few hundred bytes for each write. */
void rt_csv_record(FILE *fp, const char *const *fields, int n)
{
    char small[512];
    Line l = {.text = small, .cap = sizeof small, .borrowed = 1};
    for (int i = 0; i < n; i++) {
        if (i)
            line_char(&l, ',');
        line_field(&l, fields[i]);
    }
    line_char(&l, '\n');
    fwrite(l.text, 1, l.len, fp);
    if (!l.borrowed)
        free(l.text);
}

static RtOutput *output(RtSim *s)
{
    if (!s->output)
        s->output = rt_xcalloc(1, sizeof *s->output);
    return s->output;
}

/* Writes n bytes to fd with write(2) alone (a signal handler may call
   it); returns the bytes left unwritten, 0 on success (errno says why,
   or is EIO when write wrote nothing). */
size_t rt_write_all(int fd, const char *at, size_t left)
{
    while (left > 0) {
        ssize_t w = write(fd, at, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            break;
        }
        at += w;
        left -= (size_t)w;
    }
    return left;
}

/* Writes a then b (na and nb bytes) to fd with writev(2) alone; returns
   the bytes left unwritten, 0 on success. */
static size_t write_both(int fd, const char *a, size_t na, const char *b, size_t nb)
{
    while (na > 0) {
        struct iovec iov[2] = {{(void *)a, na}, {(void *)b, nb}};
        ssize_t w = writev(fd, iov, 2);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return na + nb;
        if ((size_t)w < na) {
            a += w;
            na -= (size_t)w;
        } else {
            b += (size_t)w - na;
            nb -= (size_t)w - na;
            na = 0;
        }
    }
    return rt_write_all(fd, b, nb);
}

/* The line reaches fp's file in one write, with the terminating signals
   held; a write error fails the run. */
static int write_line(RtSim *s, FILE *fp, const char *path, double t)
{
    Line *l = &s->output->line;
    rt_hold_signals();
    size_t left = rt_write_all(fileno(fp), l->text, l->len);
    rt_release_signals();
    l->len = 0;
    if (left > 0) {
        rt_fail_simple(&s->fail, RT_FAILKIND_IO, t, -1);
        s->fail.name = path ? path : "standard output";
        return -1;
    }
    return 0;
}

/* A batch is written when it holds this much, or its first row is this
   old (see the head of the file). */
#define BATCH_BYTES 65536
#define BATCH_SECONDS 0.1

/* Writes the waiting rows with write(2) or pwrite(2) alone, so that a
   signal handler may call it.  0, or -1 when the file refused them. */
static int write_batch(RtOutput *o)
{
    if (o->mat)
        return rt_mat_flush(o->mat);
    size_t left = rt_write_all(o->fd, o->batch.text, o->batch.len);
    o->batch.len = 0;
    return left > 0 ? -1 : 0;
}

static size_t batch_bytes(const RtOutput *o)
{
    return o->mat ? rt_mat_waiting(o->mat) : o->batch.len;
}

/* The run fails at t: the results file refused rows.  -1. */
static int results_failed(RtSim *s, double t)
{
    rt_fail_simple(&s->fail, RT_FAILKIND_IO, t, -1);
    s->fail.name = s->opt.out_path ? s->opt.out_path : "standard output";
    return -1;
}

/* The waiting rows reach the file now; a write error fails the run. */
static int flush_batch(RtSim *s, double t)
{
    RtOutput *o = s->output;
    if (!o || batch_bytes(o) == 0)
        return 0;
    rt_hold_signals();
    int rc = write_batch(o);
    rt_release_signals();
    return rc != 0 ? results_failed(s, t) : 0;
}

int rt_csv_flush(RtSim *s)
{
    return flush_batch(s, s->t);
}

/* After a row joined the batch (its first row started the clock): the
   batch is written when it is due. */
static int batch_grew(RtSim *s, RtOutput *o, size_t before, double t)
{
    double now = rt_wall_clock();
    if (before == 0)
        o->batch_since = now;
    if (batch_bytes(o) >= BATCH_BYTES || now - o->batch_since >= BATCH_SECONDS)
        return flush_batch(s, t);
    return 0;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && !strcmp(s + n - m, tail);
}

int rt_csv_header(RtSim *s)
{
    const RtModel *m = s->m;
    RtOutput *o = output(s);
    o->fd = fileno(s->out);
    int nf = s->opt.n_vars;
    if (m->n_columns > 0 && !o->gather)
        o->gather = rt_gather_make(m, s->opt.vars, nf);
    int nv = rt_gather_values(o->gather);
    o->values = rt_xcalloc((size_t)nv + 1, sizeof *o->values);
    if (s->opt.out_path && ends_with(s->opt.out_path, ".mat")) {
        o->mat = rt_mat_open(s, o->fd, o->gather);
        if (!o->mat)
            return -1;
    }
    batched = o;
    if (o->mat)
        return 0;
    o->first = rt_xcalloc((size_t)nv + 1, sizeof *o->first);
    for (int i = nf - 1; i >= 0; i--)
        o->first[rt_gather_value_of(o->gather)[i]] = i;
    o->bits = rt_xcalloc((size_t)nv + 1, sizeof *o->bits);
    o->at = rt_xcalloc((size_t)nv + 1, sizeof *o->at);
    o->len = rt_xcalloc((size_t)nv + 1, sizeof *o->len);
    size_t cap = 16;
    while (cap < 2 * (size_t)nv)
        cap *= 2;
    o->seen = rt_xcalloc(cap, sizeof *o->seen);
    o->seen_mask = cap - 1;
    line_put(&o->line, "time", 4);
    for (int i = 0; i < nf; i++) {
        line_char(&o->line, ',');
        line_field(&o->line, rt_column_name(m, s->opt.vars[i]));
    }
    line_char(&o->line, '\n');
    return write_line(s, s->out, s->opt.out_path, 0);
}

/* Copies the n-byte number text at from to the end of l, negated when
   neg: the text of -v from that of v (rt_dtoa: "nan" has no sign).  It
   copies RT_DTOA_SIZE bytes, a fixed size the compiler turns into a few
   moves instead of a call; the bytes past the number are overwritten by
   what follows.  Both lines have room: each row reserves RT_DTOA_SIZE + 1
   bytes a field, and from lies before the row's end. */
static inline void line_copy_number(Line *l, const char *from, size_t n, int neg)
{
    char *to = l->text + l->len;
    if (neg && from[0] == '-') {
        from++;
        n--;
    } else if (neg && from[0] != 'n') {
        *to++ = '-';
        l->len++;
    }
    char bytes[RT_DTOA_SIZE];
    memcpy(bytes, from, RT_DTOA_SIZE);  /* from and to may overlap */
    memcpy(to, bytes, RT_DTOA_SIZE);
    l->len += n;
}

int rt_csv_row(RtSim *s, double t, const double *x, const double *dx,
               const double *alg)
{
    const RtModel *m = s->m;
    if (!s->out)
        return 0;   /* an embedded run (an FMU) keeps no results file */
    RtOutput *o = s->output;
    int nf = s->opt.n_vars;
    RtEval ev = rt_eval_make(s, t, x, (double *)dx, (double *)alg, s->modes);
    if (o->mat) {
        /* a MAT row is gathered where it waits to be written */
        size_t before = batch_bytes(o);
        double *row = rt_mat_slot(s, o->mat, t);
        if (!row)
            return -1;
        if (o->gather)
            rt_gather(m, &ev, s->cols, o->gather, row);
        rt_mat_commit(o->mat);
        return batch_grew(s, o, before, t);
    }
    if (o->gather)
        rt_gather(m, &ev, s->cols, o->gather, o->values);
    Line *l = &o->line;
    line_reserve(l, ((size_t)nf + 1) * (RT_DTOA_SIZE + 1) + 1);
    line_number(l, t);
    uint32_t row = ++o->row;
    const int *value_of = nf ? rt_gather_value_of(o->gather) : NULL;
    const unsigned char *negated = nf ? rt_gather_negated(o->gather) : NULL;
    for (int i = 0; i < nf; i++) {
        l->text[l->len++] = ',';
        int u = value_of[i], f = o->first[u];
        if (f != i) {
            /* the value's text is in this row already */
            line_copy_number(l, l->text + o->at[u], o->len[u], negated[i] != negated[f]);
            continue;
        }
        double v = negated[i] ? -o->values[u] : o->values[u];
        uint64_t bits;
        memcpy(&bits, &v, sizeof bits);
        size_t at = l->len;
        if (row > 1 && bits == o->bits[u]) {
            line_copy_number(l, o->prev.text + o->at[u], o->len[u], 0);
        } else {
            uint64_t mag = bits & ~(UINT64_C(1) << 63);
            unsigned char neg = (unsigned char)(bits >> 63);
            Seen *e = &o->seen[(mag * 0x9E3779B97F4A7C15ull >> 40) & o->seen_mask];
            if (e->row == row && e->bits == mag) {
                line_copy_number(l, l->text + e->at, e->len, e->neg != neg);
            } else {
                line_number(l, v);
                *e = (Seen){mag, (uint32_t)at, (uint16_t)(l->len - at), neg, row};
            }
            o->bits[u] = bits;
            o->len[u] = (uint16_t)(l->len - at);
        }
        o->at[u] = (uint32_t)at;
    }
    l->text[l->len++] = '\n';
    size_t before = o->batch.len;
    int rc = 0;
    if (before + l->len >= BATCH_BYTES) {
        /* the batch is due: it goes to the file with this row, which is
           not copied into it (one write(2) of both) */
        rt_hold_signals();
        size_t left = write_both(o->fd, o->batch.text, before, l->text, l->len);
        o->batch.len = 0;
        rt_release_signals();
        if (left > 0)
            rc = results_failed(s, t);
    } else {
        rt_hold_signals();
        line_put(&o->batch, l->text, l->len);
        rt_release_signals();
        rc = batch_grew(s, o, before, t);
    }
    /* the row just written is the next row's previous one */
    Line written = o->line;
    o->line = o->prev;
    o->line.len = 0;
    o->prev = written;
    return rc;
}

int rt_csv_events_header(RtSim *s)
{
    if (!s->events)
        return 0;
    RtOutput *o = output(s);
    line_put(&o->line, "time,instance,condition,value\n", 30);
    return write_line(s, s->events, s->opt.events_path, 0);
}

int rt_csv_event(RtSim *s, double t, int relation, int value)
{
    if (!s->events && !s->on_event)
        return 0;
    const RtRelationInfo *r = &s->m->relations[relation];
    if (r->table1 && r->table1 <= s->m->n_tables) {
        /* a segment mode: the part of the grid the query has entered */
        const RtTableInfo *tb = &s->m->tables[r->table1 - 1];
        const double *g = s->p + tb->grid[r->axis];
        int n = tb->n[r->axis];
        char text[80];
        if (value <= 0)
            snprintf(text, sizeof text, "before %.10g", g[0]);
        else if (value >= n)
            snprintf(text, sizeof text, "beyond %.10g", g[n - 1]);
        else
            snprintf(text, sizeof text, "[%.10g, %.10g]", g[value - 1], g[value]);
        return rt_csv_event_text(s, t, r->instance, r->condition, text, r->location);
    }
    return rt_csv_event_text(s, t, r->instance, r->condition, value ? "true" : "false",
                             r->location);
}

int rt_csv_event_text(RtSim *s, double t, const char *instance, const char *condition,
                      const char *value, const char *location)
{
    if (s->on_event)
        s->on_event(s->on_event_ctx, t, instance, condition, value, location);
    if (!s->events)
        return 0;
    /* the rows before the event first: the two files (or one, when both
       are standard output) stay in order */
    if (flush_batch(s, t) != 0)
        return -1;
    Line *l = &output(s)->line;
    line_reserve(l, RT_DTOA_SIZE);
    line_number(l, t);
    line_char(l, ',');
    line_field(l, instance);
    line_char(l, ',');
    line_field(l, condition);
    line_char(l, ',');
    line_field(l, value);
    line_char(l, '\n');
    return write_line(s, s->events, s->opt.events_path, t);
}

void rt_csv_close(RtSim *s)
{
    if (!s->output)
        return;
    if (batched == s->output) {
        rt_hold_signals();
        write_batch(s->output);   /* rt_csv_flush has, unless the run was cut short */
        batched = NULL;
        rt_release_signals();
    }
    rt_mat_free(s->output->mat);
    free(s->output->batch.text);
    free(s->output->line.text);
    free(s->output->prev.text);
    free(s->output->first);
    free(s->output->seen);
    free(s->output->bits);
    free(s->output->at);
    free(s->output->len);
    rt_gather_free(s->output->gather);
    free(s->output->values);
    free(s->output);
    s->output = NULL;
}
