/*
 * plot.h - `lmdlc plot RESULTS.csv --vars A,B -o plot.png`: columns of a
 * results file against time, drawn by gnuplot.
 */
#ifndef LMDL_PLOT_H
#define LMDL_PLOT_H

/* Returns the exit status: 0, 1 (bad command line or unknown column) or
   2 (gnuplot missing or failed). */
int plot_run(const char *csv, const char *vars, const char *out);

#endif
