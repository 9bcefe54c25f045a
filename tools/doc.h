/*
 * doc.h - `lmdlc doc NAME|FILE.lmdl`: a definition's description, ports,
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
   `lmdlc doc FILE.lmdl` (an argument ending in .lmdl or holding a '/'):
   every definition of the file, in order.  Returns the exit status (0,
   or 2 for an unknown, unreadable or broken definition or file). */
int doc_run(const DriverOptions *o);

#endif
