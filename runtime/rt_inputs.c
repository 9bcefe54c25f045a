/*
 * rt_inputs.c - the files a run reads, which it never writes.
 *
 * They are the files named with --input (lmdlc run passes the model's
 * sources, every file it loaded, library files included) and, in a sweep,
 * the sets file.  Every output a run would write is compared with them
 * before anything is written: the results file and the event log, the
 * RESULTS.meta and RESULTS.summary beside the results, a sweep's summary
 * and each row's files.  The comparison is by device and inode, so no
 * spelling of a path, no symbolic link and no hard link reaches an input:
 * a file that is opened and written is compared through any links on the
 * way (stat); a file replaced by a rename is compared by its directory
 * entry (lstat), since the rename replaces a link there, never what it
 * points to.  An input that does not exist (yet) is compared by its name.
 */
#include "rt_internal.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

void rt_inputs_add(RtOptions *o, const char *path, const char *what)
{
    o->inputs = rt_xrealloc(o->inputs, sizeof *o->inputs * (size_t)(o->n_inputs + 1));
    RtInput *in = &o->inputs[o->n_inputs++];
    struct stat st;
    in->path = path;
    in->what = what;
    in->known = stat(path, &st) == 0;
    in->dev = in->known ? st.st_dev : 0;
    in->ino = in->known ? st.st_ino : 0;
}

const RtInput *rt_input_of(const RtOptions *o, const char *path, int replaced)
{
    if (!path || !strcmp(path, "-"))
        return NULL;
    struct stat st;
    int there = (replaced ? lstat(path, &st) : stat(path, &st)) == 0;
    for (int i = 0; i < o->n_inputs; i++) {
        const RtInput *in = &o->inputs[i];
        if (!strcmp(in->path, path))
            return in;
        if (there && in->known && st.st_dev == in->dev && st.st_ino == in->ino)
            return in;
    }
    return NULL;
}

int rt_refuse_input(const char *prog, const RtOptions *o, const char *path, int replaced,
                    const char *what)
{
    const RtInput *in = rt_input_of(o, path, replaced);
    if (!in)
        return 0;
    if (!strcmp(in->path, path))
        rt_usage_error(prog, "refusing to write %s '%s': it is %s, which this run "
                       "reads; choose another file", what, path, in->what);
    else
        rt_usage_error(prog, "refusing to write %s '%s': it is %s '%s' (the same "
                       "file through a link), which this run reads; choose another "
                       "file", what, path, in->what, in->path);
    return -1;
}
