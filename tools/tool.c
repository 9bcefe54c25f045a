/*
 * tool.c - helpers shared by the command-line tools (tool.h).
 */
#include "tool.h"

#include <stdio.h>

int tool_usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "lmdlc: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'lmdlc --help'.\n");
    return 1;
}

void tool_put_did_you_mean(FILE *fp, const char *hint, void (*put)(FILE *, const char *))
{
    fputs("; did you mean '", fp);
    put(fp, hint);
    fputs("'?", fp);
}
