/*
 * zipdl.h - libzip, loaded when `lmdlc fmu` writes an archive instead of
 * at every start of lmdlc (zipdl.c).
 *
 * Linked, libzip and the libcrypto it depends on were loaded by every
 * lmdlc process: `lmdlc --version` took 6.0 ms against 2.4 ms for a
 * program linked with nothing (measured, docs/performance.md).  So lmdlc
 * is not linked with libzip; the FMU writer includes this header after
 * <zip.h>, calls zipdl_load() first, and its calls of the functions below
 * go through pointers found with dlsym in libzip.so.4 (the library of
 * Debian's libzip-dev, whose <zip.h> declares them).
 */
#ifndef LMDL_ZIPDL_H
#define LMDL_ZIPDL_H

#include <stddef.h>
#include <zip.h>

/* X(name): the functions of libzip the FMU writer calls. */
#define ZIPDL_FUNCS(X)                                                     \
    X(zip_close) X(zip_discard) X(zip_error_fini) X(zip_error_init)       \
    X(zip_error_strerror) X(zip_file_add) X(zip_file_set_external_attributes) \
    X(zip_open_from_source) X(zip_source_buffer) X(zip_source_buffer_create) \
    X(zip_source_close) X(zip_source_free) X(zip_source_keep)             \
    X(zip_source_open) X(zip_source_read) X(zip_source_stat) X(zip_strerror)

#define X_ZIPDL_PTR(f) __typeof__(f) *p_##f;
typedef struct ZipDl {
    ZIPDL_FUNCS(X_ZIPDL_PTR)
} ZipDl;
extern ZipDl zipdl;

/* Loads libzip once; 0, or -1 with a message in why (n bytes). */
int zipdl_load(char *why, size_t n);

#ifndef ZIPDL_NO_MACROS
#define zip_close (*zipdl.p_zip_close)
#define zip_discard (*zipdl.p_zip_discard)
#define zip_error_fini (*zipdl.p_zip_error_fini)
#define zip_error_init (*zipdl.p_zip_error_init)
#define zip_error_strerror (*zipdl.p_zip_error_strerror)
#define zip_file_add (*zipdl.p_zip_file_add)
#define zip_file_set_external_attributes (*zipdl.p_zip_file_set_external_attributes)
#define zip_open_from_source (*zipdl.p_zip_open_from_source)
#define zip_source_buffer (*zipdl.p_zip_source_buffer)
#define zip_source_buffer_create (*zipdl.p_zip_source_buffer_create)
#define zip_source_close (*zipdl.p_zip_source_close)
#define zip_source_free (*zipdl.p_zip_source_free)
#define zip_source_keep (*zipdl.p_zip_source_keep)
#define zip_source_open (*zipdl.p_zip_source_open)
#define zip_source_read (*zipdl.p_zip_source_read)
#define zip_source_stat (*zipdl.p_zip_source_stat)
#define zip_strerror (*zipdl.p_zip_strerror)
#endif

#endif
