/*
 * rt_json.h - JSON strings and UTF-8 sequences, for the machine-readable
 * diagnostics of the simulator (rt_report.c) and of lmdlc
 * (compiler/base/diag.c): one writer, so both emit the same escapes; and
 * the reader of those objects that a sweep uses to read its rows'
 * messages (rt_sweep.c).
 */
#ifndef LMDL_RT_JSON_H
#define LMDL_RT_JSON_H

#include <stddef.h>
#include <stdio.h>

/* Bytes of the valid UTF-8 sequence at s (at most n bytes available):
   2 to 4, or 0 when it is not one (overlong, a surrogate, beyond
   U+10FFFF, cut short). */
size_t rt_utf8_length(const unsigned char *s, size_t n);

/* n bytes of s as a JSON string: quotes, backslashes and control
   characters escaped, valid UTF-8 passed through, and each byte that is
   not part of valid UTF-8 replaced by U+FFFD, so the output is valid
   JSON whatever bytes a file name or a message holds. */
void rt_json_string(FILE *fp, const char *s, size_t n);

/* The JSON string whose opening quote *p is past, decoded (the escapes
   rt_json_string writes, and the others of JSON but surrogate pairs) into
   a new string (malloc); *p goes past its closing quote.  NULL when it is
   malformed. */
char *rt_json_decode(const char **p);

/* Skips the array or object at *p, strings and all, and sets *p past
   it: 0, or -1 when it is malformed. */
int rt_json_skip_array(const char **p);

#endif
