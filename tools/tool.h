/*
 * tool.h - what the command-line tools share (lmdlc's main.c, plot.c,
 * doc.c): the usage error of TOOLS.md.
 */
#ifndef LMDL_TOOL_H
#define LMDL_TOOL_H

/* Prints "lmdlc: MESSAGE" (fmt with one string argument) and the hint to
   try --help on stderr; returns 1, the exit status of a bad command line. */
int tool_usage_error(const char *fmt, const char *arg);

#endif
