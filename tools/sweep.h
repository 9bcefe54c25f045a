/*
 * sweep.h - `lmdlc sweep FILE --sets SETS.csv --engine parallel|slurm`:
 * a parameter sweep handed to an existing engine (docs/sweeps.md).
 */
#ifndef LMDL_SWEEP_H
#define LMDL_SWEEP_H

/* The sweep command; argv[0] is "sweep" (a tool's entry in
   DRIVER_COMMANDS, driver.h).  Returns lmdlc's exit status:
   0, 1 (bad command line or sets file), 2 (model error), or 3 (with
   --run: some rows failed). */
int sweep_main(int argc, char **argv);

#endif
