/*
 * croll.c - rolling repeated statements into loops (compiler/emit/croll.c)
 * on small hand-written texts: a chain rolled with its steps (one of them
 * negative) and the first group's comments; runs too short, shapes that
 * differ, integers that do not step evenly, and floating constants that
 * differ left as they are; temporaries rolled only when each group
 * defines what it reads and nothing after the run reads them; other
 * lines (an if, a return) end a run.
 */
#include "cprint.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

/* cp_roll of text (after a prologue line that stays), compared. */
static int rolls_to(const char *text, const char *want)
{
    CpBuf b = {0};
    const char *pro = "{\n";
    cp_put(&b, pro, strlen(pro));
    cp_put(&b, text, strlen(text));
    cp_roll(&b, strlen(pro));
    int ok = b.n == strlen(pro) + strlen(want) && !memcmp(b.s + strlen(pro), want, strlen(want));
    if (!ok)
        fprintf(stderr, "--- got:\n%s\n--- wanted:\n%s%s\n", b.s, pro, want);
    free(b.s);
    return ok;
}

static const char *same(const char *text)
{
    return text;
}

/* R groups of a two-line block: a(+3), x(+2), p(-1), a comment each */
static char *chain(int groups)
{
    CpBuf b = {0};
    char line[160];
    for (int g = 0; g < groups; g++) {
        int n = snprintf(line, sizeof line,
                         "    /* block %d */\n    a[%d] = (x[%d] * p[%d]);\n    a[%d] = (a[%d] + 0.5);\n",
                         g + 1, 3 * g, 1 + 2 * g, 90 - g, 3 * g + 1, 3 * g);
        cp_put(&b, line, (size_t)n);
    }
    return b.s;
}

/* R groups of a temporary and its use */
static char *temps(int groups, const char *after)
{
    CpBuf b = {0};
    char line[160];
    for (int g = 0; g < groups; g++) {
        int n = snprintf(line, sizeof line,
                         "    const double t%d = (x[%d] * x[%d]);\n    a[%d] = (t%d + t%d);\n",
                         g, g, g, g, g, g);
        cp_put(&b, line, (size_t)n);
    }
    cp_put(&b, after, strlen(after));
    return b.s;
}

int main(void)
{
    char *text = chain(6);
    size_t n = strlen(text);
    text = realloc(text, n + 32);
    strcpy(text + n, "    dx[0] = a[1];\n");
    CHECK(rolls_to(text,
                   "    /* 6 times the 2 statements below, for r_ = 0 .. 5: the first time's"
                   " blocks; each next one steps its indices */\n"
                   "    for (int r_ = 0; r_ < 6; r_++) {\n"
                   "        /* block 1 */\n"
                   "        a[(0 + 3 * r_)] = (x[(1 + 2 * r_)] * p[(90 - 1 * r_)]);\n"
                   "        a[(1 + 3 * r_)] = (a[(0 + 3 * r_)] + 0.5);\n"
                   "    }\n"
                   "    dx[0] = a[1];\n"));
    free(text);

    /* too few lines: five groups of two */
    text = chain(5);
    CHECK(rolls_to(text, same(text)));
    free(text);

    /* two repetitions are not enough, however long */
    CpBuf b = {0};
    for (int g = 0; g < 2; g++)
        for (int i = 0; i < 8; i++) {
            char line[80];
            int len = snprintf(line, sizeof line, "    a[%d] = (x[%d] + %d);\n", 8 * g + i, i, i + 1);
            cp_put(&b, line, (size_t)len);
        }
    CHECK(rolls_to(b.s, same(b.s)));
    free(b.s);

    /* integers that do not step evenly (squares) */
    b = (CpBuf){0};
    for (int i = 0; i < 12; i++) {
        char line[80];
        int len = snprintf(line, sizeof line, "    a[%d] = x[%d];\n", i, i * i);
        cp_put(&b, line, (size_t)len);
    }
    CHECK(rolls_to(b.s, same(b.s)));
    free(b.s);

    /* floating constants that differ are text, so the shapes differ */
    const char *floats = "    a[0] = 0.5;\n    a[1] = 1.5;\n    a[2] = 2.5;\n    a[3] = 3.5;\n"
                         "    a[4] = 4.5;\n    a[5] = 5.5;\n    a[6] = 6.5;\n    a[7] = 7.5;\n"
                         "    a[8] = 8.5;\n    a[9] = 9.5;\n    a[10] = 10.5;\n    a[11] = 11.5;\n";
    CHECK(rolls_to(floats, same(floats)));
    const char *expo = "    a[0] = 1e-05;\n    a[1] = 2e-05;\n    a[2] = 3e-05;\n    a[3] = 4e-05;\n"
                       "    a[4] = 5e-05;\n    a[5] = 6e-05;\n    a[6] = 7e-05;\n    a[7] = 8e-05;\n"
                       "    a[8] = 9e-05;\n    a[9] = 1e-04;\n    a[10] = 2e-04;\n    a[11] = 3e-04;\n";
    CHECK(rolls_to(expo, same(expo)));

    /* a line that is not a simple statement ends the run */
    const char *broken = "    a[0] = x[0];\n    a[1] = x[1];\n    a[2] = x[2];\n    a[3] = x[3];\n"
                         "    a[4] = x[4];\n    a[5] = x[5];\n"
                         "    if (!(fabs(p[1]) > 1e-300)) return 3;\n"
                         "    a[6] = x[6];\n    a[7] = x[7];\n    a[8] = x[8];\n    a[9] = x[9];\n"
                         "    a[10] = x[10];\n    a[11] = x[11];\n";
    CHECK(rolls_to(broken, same(broken)));

    /* temporaries defined and read in each group roll, named as in the first */
    text = temps(6, "");
    CHECK(rolls_to(text,
                   "    /* 6 times the 2 statements below, for r_ = 0 .. 5: the first time's"
                   " blocks; each next one steps its indices */\n"
                   "    for (int r_ = 0; r_ < 6; r_++) {\n"
                   "        const double t0 = (x[(0 + 1 * r_)] * x[(0 + 1 * r_)]);\n"
                   "        a[(0 + 1 * r_)] = (t0 + t0);\n"
                   "    }\n"));
    free(text);

    /* a temporary of the run read after it: not rolled */
    text = temps(6, "    g[0] = t5;\n");
    CHECK(rolls_to(text, same(text)));
    free(text);

    /* a group that reads the temporary of the group before: not rolled */
    b = (CpBuf){0};
    cp_put(&b, "    const double t0 = x[0];\n", 28);
    for (int g = 1; g <= 8; g++) {
        char line[120];
        int len = snprintf(line, sizeof line, "    const double t%d = x[%d];\n    a[%d] = (t%d + t%d);\n",
                           g, g, g, g, g - 1);
        cp_put(&b, line, (size_t)len);
    }
    CHECK(rolls_to(b.s, same(b.s)));
    free(b.s);

    /* names with digits (functions, identifiers) are text */
    const char *names = "    a[0] = eval_1(x[0]);\n    a[1] = eval_2(x[1]);\n    a[2] = eval_3(x[2]);\n"
                        "    a[3] = eval_4(x[3]);\n    a[4] = eval_5(x[4]);\n    a[5] = eval_6(x[5]);\n"
                        "    a[6] = eval_7(x[6]);\n    a[7] = eval_8(x[7]);\n    a[8] = eval_9(x[8]);\n"
                        "    a[9] = eval_10(x[9]);\n    a[10] = eval_11(x[10]);\n    a[11] = eval_12(x[11]);\n";
    CHECK(rolls_to(names, same(names)));
    return unit_failures();
}
