/*
 * plot.h - `lmdlc plot RESULTS.csv [--vars A,B] -o plot.png|svg|pdf`:
 * columns of a results file against time, drawn by gnuplot, with the
 * units of RESULTS.meta (docs/plots.md).
 */
#ifndef LMDL_PLOT_H
#define LMDL_PLOT_H

/* `lmdlc plot ARGS...`: argv[0] is "plot", argv[1 .. argc-1] its
   arguments (a tool's entry in DRIVER_COMMANDS, driver.h).  Returns the exit status: 0, 1 (bad command line, unknown
   column, unreadable results, an unknown image format or an output that
   is an input) or 2 (gnuplot missing or failed). */
int plot_main(int argc, char **argv);

/* Draws columns `vars` (comma-separated; NULL: the states) of csv into
   out, whose extension picks the format. */
int plot_run(const char *csv, const char *vars, const char *out);

#endif
