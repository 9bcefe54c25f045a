/*
 * plot_results.h - what `lmdlc plot` reads (plot_results.c): a results
 * CSV's header, its RESULTS.meta (units, model name, states), and the
 * text helpers that keep the names it prints harmless.
 */
#ifndef LMDL_PLOT_RESULTS_H
#define LMDL_PLOT_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A growable list of malloc'ed strings. */
typedef struct PlotStrs {
    char **s;               /* the strings */
    int n, cap;             /* count, capacity */
} PlotStrs;

/* A column name and its index, for lookups by name. */
typedef struct PlotName {
    const char *name;       /* in PlotResults.names */
    int col;                /* its column */
} PlotName;

typedef struct PlotResults {
    const char *path;       /* RESULTS.csv */
    FILE *fp;               /* open after the header, on the first row */
    long line;              /* lines read so far */
    PlotStrs names;         /* the header: time, then the columns */
    PlotName *sorted;       /* the columns after time, sorted by name */
    char *meta_path;        /* RESULTS.csv.meta */
    bool have_meta;         /* it was read and matches the header */
    char *model;            /* the model's name, or NULL */
    PlotStrs units;         /* with have_meta, per column: its unit ("" unknown) */
    PlotStrs descs;         /* with have_meta, per column: its description */
    bool *output;           /* with have_meta, per column: a top-level output */
    int *states;            /* the columns that are states, in the model's order */
    int nstates;            /* their count */
} PlotResults;

/* Opens path and reads its header; 0, or 1 after a message. */
int plot_results_open(PlotResults *r, const char *path);

/* Reads RESULTS.meta into r when it is there and belongs to the results
   file; else says on stderr why the plot has no units. */
void plot_meta_read(PlotResults *r);

void plot_results_free(PlotResults *r);

/* The first column (after time) named `name`, or -1. */
int plot_column(const PlotResults *r, const char *name);

/* The unit of column col, or NULL when it is not known. */
const char *plot_unit(const PlotResults *r, int col);

/* Prints s with control characters and invalid UTF-8 replaced by '?', so
   that a name can neither forge a line nor break an SVG. */
void plot_put_text(FILE *fp, const char *s);

/* A message of lmdlc plot: "lmdlc: SEVERITY: [FILE:LINE: ]MESSAGE" on
   stderr, its text (names included) and file made harmless as by
   plot_put_text, or with --diagnostics-format=json an object
   (tool_message).  line 0: the message is not about a line. */
void plot_message(const char *severity, const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Allocation that exits (status 2) when memory runs out. */
void *plot_xrealloc(void *p, size_t n);
void *plot_xcalloc(size_t n, size_t size);
char *plot_xstrdup(const char *s);

#endif
