/*
 * plot.h - `lmdlc plot RESULTS.csv --vars A,B -o plot.png`: columns of a
 * results file against time, drawn by gnuplot.
 */
#ifndef LMDL_PLOT_H
#define LMDL_PLOT_H

/* `lmdlc plot ARGS...`: argv[0 .. argc-1] are the arguments after
   "plot".  Returns the exit status: 0, 1 (bad command line or unknown
   column) or 2 (gnuplot missing or failed). */
int plot_main(int argc, char **argv);

/* Draws columns `vars` (comma-separated; NULL: all) of csv into out. */
int plot_run(const char *csv, const char *vars, const char *out);

#endif
