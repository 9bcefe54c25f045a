/*
 * rt_sidecar.h - the files the simulator writes beside its results file:
 * RESULTS.meta (the model's name, each column's unit, kind and
 * description, and the states; for `lmdlc plot` and any other reader, so
 * that the results CSV itself stays plain), and the atomic replacement
 * those files (and a sweep row's RESULTS.summary) are written with.
 */
#ifndef LMDL_RT_SIDECAR_H
#define LMDL_RT_SIDECAR_H

#include "rt_internal.h"

/* The first line of every RESULTS.meta; a reader checks it. */
#define RT_META_HEADER "record,name,unit,kind,description"

/* Writes RESULTS.meta next to the results file s->out, once it has been
   opened, when it is a regular file (not standard output, /dev/null or a
   pipe).  A failure is a warning, not a failure of the run: the results
   are still written, only their units are not. */
void rt_meta_write(const RtSim *s);

/* The name of the results file `out`'s units sidecar, "OUT.meta"
   (malloc'd): no other output may be that file (rt_main.c, rt_sweep.c). */
char *rt_meta_path(const char *out);

/* Writes path atomically: `fill` writes the text (to memory), which goes
   to a new file (created with mkstemp beside path, so no link is
   followed) that is then renamed over path, with the mode 0666 less the
   umask; unless path already is such a file, with one name, holding that
   text.  0, or -1 with errno set and nothing left behind. */
int rt_sidecar_replace(const char *path, void (*fill)(FILE *fp, const void *ctx),
                       const void *ctx);

#endif
