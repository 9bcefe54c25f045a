/*
 * diag_json.c - the JSON Lines format of compiler/base/diag.c, byte for byte:
 * nesting of notes, a warning, locations spanning lines, code-point
 * columns, escaping of quotes, backslashes and control characters,
 * invalid UTF-8 in messages and file names, diagnostics without a
 * location, the error limit, and the --diagnostics-format option.
 * Messages here come from the test, not from a pass, so that every case
 * is covered whatever the compiler reports today (lmdlc has no warning
 * yet).  Exit 0 when every case matches.
 */
#include "diag.h"
#include "source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void expect(const char *what, const char *got, const char *want)
{
    if (strcmp(got, want) != 0) {
        printf("FAIL: %s\n--- expected\n%s--- got\n%s---\n", what, want, got);
        failures++;
    }
}

static void expect_true(const char *what, int ok)
{
    if (!ok) {
        printf("FAIL: %s\n", what);
        failures++;
    }
}

/* Diagnostics go into a memory stream; take() ends it and returns them. */
static char *mem;
static size_t memlen;
static FILE *memfp;

static void start(void)
{
    diag_reset();
    memfp = open_memstream(&mem, &memlen);
    if (!memfp)
        abort();
    diag_set_stream(memfp);
}

static char *take(void)
{
    diag_flush();
    fclose(memfp);
    diag_set_stream(stderr);
    return mem;
}

static SrcSpan span(int file, const char *text, const char *from, const char *to)
{
    const char *b = strstr(text, from);
    const char *e = strstr(text, to);
    if (!b || !e)
        abort();
    return (SrcSpan){file, (uint32_t)(b - text), (uint32_t)(e - text + strlen(to))};
}

static void option_cases(void)
{
    char *bad1[] = {"lmdlc", "check", "--diagnostics-format=xml", NULL};
    int argc = 3;
    const char *bad = diag_take_format_option(&argc, bad1);
    expect_true("--diagnostics-format=xml is refused", bad && strcmp(bad, "xml") == 0);

    char *bad2[] = {"lmdlc", "check", "--diagnostics-format", NULL};
    argc = 3;
    bad = diag_take_format_option(&argc, bad2);
    expect_true("--diagnostics-format without a value is refused", bad && !*bad);

    char *good[] = {"lmdlc", "run", "--diagnostics-format=text", "m.lmdl", "--stop-time",
                    "1", "--diagnostics-format", "json", NULL};
    argc = 8;
    bad = diag_take_format_option(&argc, good);
    expect_true("both spellings are taken out of argv, the rest kept in order",
                !bad && argc == 5 && strcmp(good[1], "run") == 0
                    && strcmp(good[2], "m.lmdl") == 0 && strcmp(good[3], "--stop-time") == 0
                    && strcmp(good[4], "1") == 0 && good[5] == NULL);
}

int main(void)
{
    option_cases();     /* leaves the format at json */

    /* A tab, a Greek letter (two bytes, one column) and a second line. */
    static const char text[] = "component A\n\t\xce\xb8x = {1, 'm'};\n  y = 2;\nend\n";
    int f = src_add("dir/\"q\"\\b\x01\xff.lmdl", text, sizeof text - 1);

    start();
    diag_warning(span(f, text, "{1", "'m'}"), "unused \"value\"\t%s", "\xff\xce\xb8\x7f\x1b[31m");
    diag_note(span(f, text, "component", "A"), "declared in 'A'");
    diag_note(span(f, text, "x =", "y = 2;"), "from here to there");
    diag_note(src_none, "a note without a place");
    diag_error(span(f, text, "end", "end"), "an error after the warning");
    diag_error(src_none, "no location");
    char *got = take();
    expect("warning with notes, error, location-less error", got,
           "{\"file\":\"dir/\\\"q\\\"\\\\b\\u0001\\ufffd.lmdl\",\"line\":2,\"column\":7,"
           "\"end_line\":2,\"end_column\":15,\"severity\":\"warning\","
           "\"message\":\"unused \\\"value\\\"\\t\\ufffd\xce\xb8\\u007f\\u001b[31m\",\"notes\":["
           "{\"file\":\"dir/\\\"q\\\"\\\\b\\u0001\\ufffd.lmdl\",\"line\":1,\"column\":1,"
           "\"end_line\":1,\"end_column\":12,\"message\":\"declared in 'A'\"},"
           "{\"file\":\"dir/\\\"q\\\"\\\\b\\u0001\\ufffd.lmdl\",\"line\":2,\"column\":3,"
           "\"end_line\":3,\"end_column\":9,\"message\":\"from here to there\"},"
           "{\"file\":null,\"line\":null,\"column\":null,\"end_line\":null,"
           "\"end_column\":null,\"message\":\"a note without a place\"}]}\n"
           "{\"file\":\"dir/\\\"q\\\"\\\\b\\u0001\\ufffd.lmdl\",\"line\":4,\"column\":1,"
           "\"end_line\":4,\"end_column\":4,\"severity\":\"error\","
           "\"message\":\"an error after the warning\",\"notes\":[]}\n"
           "{\"file\":null,\"line\":null,\"column\":null,\"end_line\":null,"
           "\"end_column\":null,\"severity\":\"error\",\"message\":\"no location\","
           "\"notes\":[]}\n");
    expect_true("counted: 2 errors, 1 warning", diag_error_count() == 2 && diag_warning_count() == 1);
    free(got);

    /* A note with no diagnostic before it is an object of its own, and
       the notes after it go into it. */
    start();
    diag_note(span(f, text, "y", "y"), "alone");
    diag_note(src_none, "and another");
    got = take();
    expect("a note first", got,
           "{\"file\":\"dir/\\\"q\\\"\\\\b\\u0001\\ufffd.lmdl\",\"line\":3,\"column\":3,"
           "\"end_line\":3,\"end_column\":4,\"severity\":\"note\",\"message\":\"alone\","
           "\"notes\":[{\"file\":null,\"line\":null,\"column\":null,\"end_line\":null,"
           "\"end_column\":null,\"message\":\"and another\"}]}\n");
    free(got);

    /* Flushing twice writes nothing twice. */
    start();
    diag_error(src_none, "once");
    diag_flush();
    got = take();
    expect("flush is idempotent", got,
           "{\"file\":null,\"line\":null,\"column\":null,\"end_line\":null,"
           "\"end_column\":null,\"severity\":\"error\",\"message\":\"once\",\"notes\":[]}\n");
    free(got);

    /* The error limit: 50 errors, then one "too many errors", then nothing. */
    start();
    for (int i = 0; i < 60; i++) {
        diag_error(src_none, "error %d", i);
        diag_note(src_none, "its note");
    }
    got = take();
    int lines = 0;
    for (char *p = got; *p; p++)
        lines += *p == '\n';
    expect_true("51 objects at the error limit", lines == 51);
    const char *last = strstr(got, "\"message\":\"too many errors (50); stopping here\"");
    expect_true("the last one says 'too many errors'", last && !strstr(last, "error 50"));
    free(got);

    /* The text format is unchanged by all this. */
    diag_set_format(DIAG_FORMAT_TEXT);
    start();
    diag_warning(span(f, text, "y", "y"), "plain");
    got = take();
    expect("text format", got,
           "dir/\"q\"\\b\x01\xff.lmdl:3:3: warning: plain\n"
           "    3 |   y = 2;\n"
           "      |   ^\n");
    free(got);

    src_free_all();
    if (failures)
        return 1;
    printf("ok\n");
    return 0;
}
