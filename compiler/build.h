/*
 * build.h - turning generated C into a simulator, and running it.
 *
 * The C compiler ($CC, default cc, split on blanks into an argument
 * vector) is started with posix_spawnp, never through a shell.  `run`
 * caches simulators by a hash of the generated C, the compiler command
 * and the runtime library, then replaces itself with the simulator.
 */
#ifndef LMDL_BUILD_H
#define LMDL_BUILD_H

/* Compiles c_path into the executable out_path.  0 on success; on failure
   reports and returns -1 (the C file is kept). */
int build_compile(const char *c_path, const char *out_path);

/* Builds (or reuses from the cache) the simulator for `c_text` and execs
   it with argv (argv[0] is replaced).  Returns only on failure. */
int build_run(const char *c_text, const char *model, int argc, char **argv);

#endif
