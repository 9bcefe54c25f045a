/*
 * tool.c - helpers shared by the command-line tools (tool.h).
 */
#include "tool.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void vmessage(const char *severity, const char *lead, const char *file, long line,
                     const char *hint, const char *fmt, va_list ap)
{
    if (diag_format() == DIAG_FORMAT_JSON) {
        va_list aq;
        va_copy(aq, ap);
        int n = vsnprintf(NULL, 0, fmt, aq);
        va_end(aq);
        char *msg = malloc(n > 0 ? (size_t)n + 1 : 1);
        if (!msg)
            abort();
        msg[0] = 0;
        if (n > 0)
            vsnprintf(msg, (size_t)n + 1, fmt, ap);
        diag_json_message(severity, file, line, msg);
        free(msg);
        return;
    }
    diag_flush();
    fputs(lead, stderr);
    if (file && line > 0)
        fprintf(stderr, "%s:%ld: ", file, line);
    else if (file)
        fprintf(stderr, "%s: ", file);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    if (hint)
        fprintf(stderr, "%s\n", hint);
}

void tool_message(const char *severity, const char *lead, const char *file, long line,
                  const char *hint, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(severity, lead, file, line, hint, fmt, ap);
    va_end(ap);
}

int tool_usage_error(const char *fmt, const char *arg)
{
    tool_message("error", "lmdlc: ", NULL, 0, "Try 'lmdlc --help'.", fmt, arg);
    return 1;
}

void tool_put_did_you_mean(FILE *fp, const char *hint, void (*put)(FILE *, const char *))
{
    fputs("; did you mean '", fp);
    put(fp, hint);
    fputs("'?", fp);
}
