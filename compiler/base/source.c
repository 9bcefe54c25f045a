/*
 * source.c - the source table: loading files, line tables, offset to
 * line/column conversion (binary search over line starts).
 */
#include "source.h"

#include "arena.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const SrcSpan src_none = {-1, 0, 0};

static SrcFile **files;
static int nfiles, capfiles;

int src_add(const char *path, const char *text, size_t len)
{
    SrcFile *f = calloc(1, sizeof *f);
    if (!f)
        abort();
    f->path = mem_strndup(path, strlen(path));
    const char *slash = strrchr(path, '/');
    f->dir = slash ? mem_strndup(path, (size_t)(slash - path) + (slash == path))
                   : mem_strndup(".", 1);
    f->text = mem_strndup(text, len);
    f->len = len;
    int cap = 64;
    f->lines = malloc(sizeof *f->lines * (size_t)cap);
    if (!f->lines)
        abort();
    f->lines[f->nlines++] = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n') {
            if (f->nlines == cap) {
                cap *= 2;
                f->lines = realloc(f->lines, sizeof *f->lines * (size_t)cap);
                if (!f->lines)
                    abort();
            }
            f->lines[f->nlines++] = (uint32_t)(i + 1);
        }
    }
    if (nfiles == capfiles) {
        capfiles = capfiles ? capfiles * 2 : 16;
        files = realloc(files, sizeof *files * (size_t)capfiles);
        if (!files)
            abort();
    }
    files[nfiles] = f;
    return nfiles++;
}

int src_load(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return -1;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    if (!buf)
        abort();
    size_t n;
    while ((n = fread(buf + len, 1, cap - len, fp)) > 0) {
        len += n;
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf)
                abort();
        }
        if (len > (size_t)1 << 30) { /* 1 GiB: not a model file */
            free(buf);
            fclose(fp);
            errno = EFBIG;
            return -1;
        }
    }
    int err = ferror(fp);
    fclose(fp);
    if (err) {
        free(buf);
        errno = EIO;
        return -1;
    }
    int id = src_add(path, buf, len);
    free(buf);
    return id;
}

int src_find(const char *path)
{
    for (int i = 0; i < nfiles; i++)
        if (strcmp(files[i]->path, path) == 0)
            return i;
    return -1;
}

SrcFile *src_get(int id)
{
    return id >= 0 && id < nfiles ? files[id] : NULL;
}

int src_count(void)
{
    return nfiles;
}

int src_line_index(const SrcFile *f, uint32_t off)
{
    int lo = 0, hi = f->nlines - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (f->lines[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

int src_line_of(int file, uint32_t off)
{
    SrcFile *f = src_get(file);
    return f ? src_line_index(f, off) + 1 : 0;
}

void src_linecol(SrcSpan sp, int *line, int *col)
{
    SrcFile *f = src_get(sp.file);
    if (!f) {
        *line = *col = 0;
        return;
    }
    uint32_t off = sp.begin > f->len ? (uint32_t)f->len : sp.begin;
    *line = src_line_of(sp.file, off);
    /* Columns count code points, so a UTF-8 comment before the error does
       not shift the caret. */
    int c = 1;
    for (uint32_t i = f->lines[*line - 1]; i < off; i++)
        if (((unsigned char)f->text[i] & 0xC0) != 0x80)
            c++;
    *col = c;
}

SrcSpan src_join(SrcSpan a, SrcSpan b)
{
    if (a.file < 0)
        return b;
    if (b.file < 0 || b.file != a.file)
        return a;
    SrcSpan r = a;
    if (b.begin < r.begin)
        r.begin = b.begin;
    if (b.end > r.end)
        r.end = b.end;
    return r;
}

void src_free_all(void)
{
    for (int i = 0; i < nfiles; i++) {
        free(files[i]->path);
        free(files[i]->dir);
        free(files[i]->text);
        free(files[i]->lines);
        free(files[i]);
    }
    free(files);
    files = NULL;
    nfiles = capfiles = 0;
}
