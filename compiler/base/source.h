/*
 * source.h - the files the compiler has read, and locations in them.
 *
 * A location is a file id and a byte span (jq's locfile).  Lines and columns
 * are computed only when a message needs them, from a line table built when
 * the file is loaded.
 */
#ifndef LMDL_SOURCE_H
#define LMDL_SOURCE_H

#include <stddef.h>
#include <stdint.h>

/* A byte range [begin, end) in file `file`; file < 0 means "no location". */
typedef struct SrcSpan {
    int file;           /* index into the source table, or -1 */
    uint32_t begin;     /* offset of the first byte */
    uint32_t end;       /* offset one past the last byte */
} SrcSpan;

typedef struct SrcFile {
    char *path;         /* as given, or as found on the search path */
    char *dir;          /* directory part of path ("." if none) */
    char *text;         /* contents, NUL-terminated */
    size_t len;         /* bytes in text, excluding the terminator */
    uint32_t *lines;    /* byte offset of the start of each line */
    int nlines;         /* entries in lines */
} SrcFile;

extern const SrcSpan src_none;

int src_add(const char *path, const char *text, size_t len); /* copies */
int src_load(const char *path);     /* -1 when unreadable (errno set) */
int src_find(const char *path);     /* id of a file already loaded, or -1 */
SrcFile *src_get(int id);
int src_count(void);
void src_linecol(SrcSpan sp, int *line, int *col);
int src_line_of(int file, uint32_t off);
/* The 0-based line of f that holds byte offset off (binary search). */
int src_line_index(const SrcFile *f, uint32_t off);
SrcSpan src_join(SrcSpan a, SrcSpan b);
void src_free_all(void);

#endif
