/*
 * outfile.h - creating the files lmdlc writes, so that none is lost,
 * clobbered or redirected.
 *
 * Every output goes to a temporary file created with mkstemp (O_EXCL, so
 * a symbolic link planted at a guessable name is never followed) in the
 * target's own directory, and is renamed over the target only when it is
 * complete.  Scratch work (the C file and the simulator being linked by
 * the C compiler) lives in a private directory made by mkdtemp, mode
 * 0700, where no other user can create or swap a name.  Temporary names
 * are tracked, so an interrupted build removes them (outfile_cleanup).
 */
#ifndef LMDL_OUTFILE_H
#define LMDL_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes len bytes of text to path atomically: a mkstemp file next to
   path, then rename.  The file gets the usual mode (0666 less the umask).
   0 on success; -1 with errno set, and nothing left behind. */
int outfile_write(const char *path, const char *text, size_t len);

/* The two halves of outfile_write, for an output another process writes
   (lmdlc plot hands gnuplot the descriptor): outfile_begin creates the
   temporary file beside path and returns its descriptor, with its
   malloc'ed name in *tmp (-1 with errno on failure); outfile_finish
   closes fd and, when keep, gives it the usual mode and renames it over
   path, else removes it.  outfile_finish frees tmp; 0, or -1 with errno
   (and nothing left behind). */
int outfile_begin(const char *path, char **tmp);
int outfile_finish(int fd, char *tmp, const char *path, bool keep);

/* A stream that discards what is written to it: /dev/null opened with
   O_NOFOLLOW (a link planted there is refused), or NULL. */
FILE *outfile_null(void);

/* True when path exists and is neither a regular file nor a directory
   (a device such as /dev/null, a pipe): outfile_write writes it in
   place, since a rename would replace it with a file; a build or an
   image, which only a file can hold, refuses it. */
bool outfile_special(const char *path);

/* Creates path, which must not exist, for writing (O_CREAT|O_EXCL|
   O_NOFOLLOW, mode 0600).  Returns the descriptor or -1 with errno. */
int outfile_create(const char *path);

/* Makes a private scratch directory (mode 0700) in the directory of
   `near` and tracks it.  Returns its malloc'ed path, or NULL with errno. */
char *outfile_private_dir(const char *near);

/* True when a and b are one file: the same path, or the same device and
   inode (a hard or symbolic link). */
bool outfile_same_file(const char *a, const char *b);

/* True (after reporting) when writing `path` would overwrite one of the
   source files lmdlc has read: the same path, or the same file through a
   hard or symbolic link (same device and inode). */
bool outfile_is_input(const char *path);

/* Temporary paths to remove if the run is interrupted: files are
   unlinked, directories removed, last tracked first. */
void outfile_track(const char *path);
void outfile_untrack(const char *path);
void outfile_cleanup(void);

#endif
