/*
 * rt_progress.c - the progress bar on stderr.
 *
 * Only for a person watching: it appears when stderr is a terminal, the
 * run has taken more than a second (short runs should not flicker) and
 * --quiet is off.  It shows the simulated time, the rate (simulated
 * seconds per second of wall time, since the start) and an estimate of
 * the wall time left at that rate:
 *
 *   [################........................]  40%  t = 4  4.1 s/s  1.5 s left
 *  It redraws at most ten times a second and erases
 * itself at the end, so the terminal shows only real messages afterwards.
 * Redirected stderr never sees it, which keeps logs and tests clean.
 */
#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define RT_PROGRESS_DELAY 1.0       /* s of wall time before the bar shows */
#define RT_PROGRESS_PERIOD 0.1      /* s between redraws */
enum { RT_PROGRESS_WIDTH = 40 };

struct RtProgress {
    int enabled;            /* a terminal, and not --quiet */
    double stop_time;       /* the simulated time at 100% */
    double started;         /* wall clock at the start, s */
    double drawn_at;        /* wall clock of the last redraw */
    int drawn;              /* the bar is on screen */
};

/* Seconds on the monotonic clock (also the results' batching, rt_csv.c). */
double rt_wall_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

RtProgress *rt_progress_new(int enabled, double stop_time)
{
    RtProgress *p = rt_xcalloc(1, sizeof *p);
    p->enabled = enabled && isatty(STDERR_FILENO);
    p->stop_time = stop_time;
    p->started = rt_wall_clock();
    return p;
}

void rt_progress_update(RtProgress *p, double t)
{
    if (!p || !p->enabled)
        return;
    double now = rt_wall_clock();
    if (now - p->started < RT_PROGRESS_DELAY || now - p->drawn_at < RT_PROGRESS_PERIOD)
        return;
    double frac = p->stop_time > 0 ? t / p->stop_time : 1;
    frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
    int fill = (int)(frac * RT_PROGRESS_WIDTH);
    char bar[RT_PROGRESS_WIDTH + 1];
    for (int i = 0; i < RT_PROGRESS_WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[RT_PROGRESS_WIDTH] = 0;
    double elapsed = now - p->started;
    double rate = elapsed > 0 ? t / elapsed : 0;
    char left[32] = "";
    if (rate > 0 && p->stop_time > t) {
        double s = (p->stop_time - t) / rate;
        if (s < 100)
            snprintf(left, sizeof left, "%.1f s left", s);
        else if (s < 6000)
            snprintf(left, sizeof left, "%.0f min left", s / 60);
        else
            snprintf(left, sizeof left, "%.1f h left", s / 3600);
    }
    fprintf(stderr, "\r[%s] %3d%%  t = %-10.6g %8.3g s/s  %-14s", bar, (int)(100 * frac), t,
            rate, left);
    fflush(stderr);
    p->drawn_at = now;
    p->drawn = 1;
}

void rt_progress_done(RtProgress *p)
{
    if (!p)
        return;
    if (p->drawn)
        fprintf(stderr, "\r%*s\r", RT_PROGRESS_WIDTH + 60, "");
    free(p);
}
