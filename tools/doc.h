/*
 * doc.h - `lmdlc doc NAME`: a definition's description, ports,
 * parameters and variables, read off its source.
 */
#ifndef LMDL_DOC_H
#define LMDL_DOC_H

#include "driver.h"
#include "sema.h"

#include <stdio.h>

#include <stdbool.h>

/* markdown: the form docs/library.md is made of; libdir shortens paths. */
void doc_print(FILE *fp, Program *p, SemaDef *d, bool markdown, const char *libdir);

/* `lmdlc doc NAME`: looks NAME up on the search path and prints it;
   returns the exit status (0, or 2 for an unknown or broken
   definition). */
int doc_run(const DriverOptions *o);

#endif
