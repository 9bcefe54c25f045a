/*
 * build.h - turning generated C into a simulator, and running it.
 *
 * The C compiler ($CC, default cc, split on blanks into an argument
 * vector) is started with posix_spawnp, never through a shell.  `run`
 * caches simulators by a hash of the generated C, the compiler command
 * and the runtime library, in a directory it checks is the user's alone,
 * then replaces itself with the simulator.
 */
#ifndef LMDL_BUILD_H
#define LMDL_BUILD_H

/* Compiles the generated C text into the executable out_path, through a
   private temporary directory next to it (outfile.h).  0 on success; on
   failure reports and returns -1, and out_path is untouched (the C file is
   kept only when the compiler rejected it: a bug in lmdlc).  SIGINT,
   SIGTERM or SIGHUP meanwhile stops the compiler, removes the temporary
   files and kills lmdlc with the same signal. */
int build_executable(const char *c_text, const char *out_path);

/* The same for an FMU's shared object (tools/fmu.c): the C compiled
   position-independent and linked with the FMI layer and the runtime's
   position-independent build (paths_runtime_pic_lib) and the shared GSL,
   exporting only the fmi2 functions. */
int build_shared_object(const char *c_text, const char *out_path);

/* Builds (or reuses from the cache) the simulator for `c_text` and execs
   it with argv (argv[0] is replaced).  Returns only on failure. */
int build_run(const char *c_text, const char *model, int argc, char **argv);

#endif
