/*
 * tool.h - what the command-line tools share (lmdlc's main.c, plot.c,
 * doc.c): the usage error of TOOLS.md, and the command line's form of a
 * "did you mean" suggestion.
 */
#ifndef LMDL_TOOL_H
#define LMDL_TOOL_H

#include <stdio.h>

/* Prints "lmdlc: MESSAGE" (fmt with one string argument) and the hint to
   try --help on stderr; returns 1, the exit status of a bad command line. */
int tool_usage_error(const char *fmt, const char *arg);

/* Prints "; did you mean 'HINT'?", the end of a command-line message
   that offers a suggestion (the simulator's form; a diagnostic's is
   diag_did_you_mean), with HINT written by put (which may escape it). */
void tool_put_did_you_mean(FILE *fp, const char *hint, void (*put)(FILE *, const char *));

#endif
