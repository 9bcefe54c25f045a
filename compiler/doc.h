/*
 * doc.h - `lmdlc doc NAME`: a definition's description, ports,
 * parameters and variables, read off its source.
 */
#ifndef LMDL_DOC_H
#define LMDL_DOC_H

#include "sema.h"

#include <stdio.h>

#include <stdbool.h>

/* markdown: the form docs/library.md is made of; libdir shortens paths. */
void doc_print(FILE *fp, Program *p, SemaDef *d, bool markdown, const char *libdir);

#endif
