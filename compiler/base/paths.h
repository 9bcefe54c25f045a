/*
 * paths.h - where lmdlc finds the standard library and the simulator
 * runtime.
 *
 * In order: the environment ($LMDL_STDLIB, $LMDL_RUNTIME_LIB,
 * $LMDL_RUNTIME_INCLUDE, and for FMUs $LMDL_RUNTIME_PIC_LIB and
 * $LMDL_FMU_SOURCES); then, when lmdlc runs from an installed tree
 * PREFIX/bin/lmdlc (found from its own executable, so that the tree can be
 * moved), PREFIX/share/lmdl/library, PREFIX/lib/liblmdl_rt.a and
 * PREFIX/include/lmdl; else the build tree's defaults, compiled in.  An
 * installed tree is used only if every directory and file of it, and
 * every directory above it, belongs to root or to the effective user and
 * is writable by no one else (a sticky directory such as /tmp may be
 * above it): lmdlc compiles that code into simulators.
 */
#ifndef LMDL_PATHS_H
#define LMDL_PATHS_H

#include <stddef.h>

/* Records argv[0], the fallback when /proc/self/exe cannot be read. */
void paths_set_argv0(const char *argv0);

const char *paths_stdlib_dir(void);         /* the standard library */
const char *paths_runtime_lib(void);        /* liblmdl_rt.a */
const char *paths_runtime_include(void);    /* the directory of rt_model.h */
const char *paths_runtime_pic_lib(void);    /* liblmdl_rt_pic.a, for FMUs */
/* The runtime's sources an FMU carries in sources/ ($LMDL_FMU_SOURCES,
   PREFIX/share/lmdl/runtime, or the source tree's runtime/). */
const char *paths_fmu_sources_dir(void);

/* path below directory dir (its part after "dir/"), or NULL when it is
   not below it (a trailing '/' of dir does not matter; the comparison is
   textual, as lookup builds library paths from dir). */
const char *paths_below(const char *path, const char *dir);

/* The folder above the outermost +package folder that dir is or is in
   (DIR for DIR/+a/+b), or NULL when dir is no +package folder.  A
   relative dir whose name says nothing ("." inside +a) is resolved to its
   absolute path first.  The result is malloc'ed. */
char *paths_package_root(const char *dir);

/* The absolute, symlink-free path of the executable that argv0 names: as
   a path if it holds a '/', else looked up in path_env (like execvp).
   out must hold PATH_MAX bytes; returns 0, or -1 when it is not found. */
int paths_resolve_argv0(const char *argv0, const char *path_env, char *out, size_t n);

#endif
