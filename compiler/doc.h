/*
 * doc.h - `lmdlc doc NAME`: a definition's description, ports,
 * parameters and variables, read off its source.
 */
#ifndef LMDL_DOC_H
#define LMDL_DOC_H

#include "sema.h"

#include <stdio.h>

void doc_print(FILE *fp, Program *p, SemaDef *d);

#endif
