/*
 * tool.h - what the command-line tools share (lmdlc's main.c, plot.c,
 * sweep.c, doc.c): the usage error of docs/tools.md, their messages in either
 * diagnostics format, and the command line's form of a "did you mean"
 * suggestion.
 */
#ifndef LMDL_TOOL_H
#define LMDL_TOOL_H

#include "diag.h"

#include <stdio.h>

/* Prints "lmdlc: MESSAGE" (fmt with one string argument) and the hint to
   try --help on stderr; returns 1, the exit status of a bad command line.
   With --diagnostics-format=json, one JSON object (an error) instead. */
int tool_usage_error(const char *fmt, const char *arg);

/* A message of a tool, about no place in a model source.  In text, as
   the tool has always written it: `lead` ("lmdlc: error: ", "lmdlc:
   sweep: "), "FILE:LINE: " when file is given (line > 0), the message,
   and the line `hint` when not NULL ("Try 'lmdlc plot --help'.").  With
   --diagnostics-format=json, one object (diag_json_message) with
   `severity`, the file and the line, and no hint. */
void tool_message(const char *severity, const char *lead, const char *file, long line,
                  const char *hint, const char *fmt, ...) DIAG_PRINTF(6, 7);

/* Prints "; did you mean 'HINT'?", the end of a command-line message
   that offers a suggestion (the simulator's form; a diagnostic's is
   diag_did_you_mean), with HINT written by put (which may escape it). */
void tool_put_did_you_mean(FILE *fp, const char *hint, void (*put)(FILE *, const char *));

#endif
