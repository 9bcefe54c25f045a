/*
 * diag.h - the one diagnostics module.
 *
 * Messages go to stderr in the GCC format, `file:line:col: error: message`,
 * followed by the source line and an underline, so editors can jump to
 * them.  Passes never exit: they report and count, and the driver stops
 * between passes when diag_error_count() is non-zero.
 *
 * With --diagnostics-format=json they go out as JSON Lines instead: one
 * object per error or warning, with its notes nested in it (docs/tools.md,
 * "Machine-readable diagnostics").  A diagnostic is held back until the
 * next error or warning shows that no more notes follow, or until
 * diag_flush(), which lmdlc calls before it exits or execs.
 */
#ifndef LMDL_DIAG_H
#define LMDL_DIAG_H

#include "source.h"

#include <stdio.h>

#define DIAG_PRINTF(f, a) __attribute__((format(printf, f, a)))

void diag_error(SrcSpan sp, const char *fmt, ...) DIAG_PRINTF(2, 3);
void diag_warning(SrcSpan sp, const char *fmt, ...) DIAG_PRINTF(2, 3);
void diag_note(SrcSpan sp, const char *fmt, ...) DIAG_PRINTF(2, 3);
/* Errors reported between diag_push_context and its diag_pop_context
   come from a function body checked at one of its calls: each is reported
   at the outermost call ("in this call of 'f': ..."), followed by a note
   at each inner call and one at the place in the body.  `name` is the
   function's name; `where` describes the body for the note ("function
   'f', with a in m").  Contexts nest (a function calling another). */
void diag_push_context(SrcSpan call, const char *name, const char *where, ...)
    DIAG_PRINTF(3, 4);
void diag_pop_context(void);
int diag_error_count(void);
/* The errors asked for so far, repeats that were not said again included:
   a step that compares it before and after knows whether it met one. */
int diag_error_attempts(void);
int diag_warning_count(void);
int diag_too_many(void);            /* the error limit was reached */
void diag_reset(void);
void diag_set_stream(FILE *fp);     /* default stderr */

typedef enum DiagFormat {
    DIAG_FORMAT_TEXT,   /* GCC style with the quoted line (the default) */
    DIAG_FORMAT_JSON,   /* JSON Lines, notes nested in their diagnostic */
} DiagFormat;

void diag_set_format(DiagFormat f);
DiagFormat diag_format(void);
/* The environment variable through which the simulators that lmdlc runs
   learn the format (runtime/rt_report.c reads it). */
#define DIAG_FORMAT_ENV "LMDL_DIAGNOSTICS_FORMAT"
/* Takes every --diagnostics-format=F (or --diagnostics-format F) out of
   argv, shifting the rest down, and sets the format.  Returns NULL, or the
   offending argument when F is neither json nor text. */
const char *diag_take_format_option(int *argc, char **argv);
/* Writes out what is held back and flushes the stream. */
void diag_flush(void);

/* For the messages of the tools and of the command line, which are about
   no place in a model source and keep their own text format (plot.c,
   sweep.c, tool.c): with DIAG_FORMAT_JSON, writes `message` as one JSON
   object of its own (after what is held back), with `severity`, and
   `file` and `line` when the message is about a line of a file that is
   not a model (a results CSV's row; NULL and 0 otherwise: the column and
   the end are null). */
void diag_json_message(const char *severity, const char *file, long line,
                       const char *message);

/* "did you mean" support: the candidate closest to `name` by edit distance,
   or NULL when none is close enough to be a plausible typo. */
const char *diag_closest(const char *name, const char *const *cands, int n);

/* The end of a message that offers a suggestion: " (did you mean 'x'?)",
   or "" when suggestion is NULL.  A value, so it can be used right in
   diag_error's arguments: diag_did_you_mean(s).text. */
typedef struct DiagHint {
    char text[96];          /* the suffix, NUL-terminated */
} DiagHint;
DiagHint diag_did_you_mean(const char *suggestion);

#endif
