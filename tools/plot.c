/*
 * plot.c - drives gnuplot through a pipe to its standard input.
 *
 * gnuplot is started with posix_spawnp and an argument vector ("gnuplot"
 * alone); the script goes down the pipe.  Column names are looked up in
 * the CSV header here, so gnuplot gets column numbers, and every string in
 * the script (file names, titles) is a gnuplot single-quoted string with
 * quotes doubled, so no name can change the script.
 */
#include "plot.h"

#include "tool.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* A gnuplot single-quoted string: '' stands for one quote; control
   characters become spaces. */
static void gp_str(FILE *fp, const char *s)
{
    fputc('\'', fp);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("''", fp);
        else
            fputc((unsigned char)*s < 0x20 ? ' ' : *s, fp);
    }
    fputc('\'', fp);
}

/* Splits the CSV header line into names (unquoting "..." fields). */
static int header(const char *csv, char ***names)
{
    FILE *fp = fopen(csv, "r");
    if (!fp)
        return -1;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, fp);
    fclose(fp);
    if (n <= 0) {
        free(line);
        return 0;
    }
    int count = 0, capn = 16;
    *names = malloc(sizeof(char *) * (size_t)capn);
    char *p = line;
    while (*p && *p != '\n' && *p != '\r') {
        char *field = malloc(strlen(p) + 1), *q = field;
        if (*p == '"') {
            for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
                if (*p == '"')
                    p++;
                *q++ = *p;
            }
            if (*p == '"')
                p++;
        } else {
            while (*p && *p != ',' && *p != '\n' && *p != '\r')
                *q++ = *p++;
        }
        *q = 0;
        if (count == capn) {
            capn *= 2;
            *names = realloc(*names, sizeof(char *) * (size_t)capn);
        }
        (*names)[count++] = field;
        if (*p == ',')
            p++;
        else
            break;
    }
    free(line);
    return count;
}

static const char *terminal_for(const char *out)
{
    const char *dot = strrchr(out, '.');
    if (dot && strcmp(dot, ".svg") == 0)
        return "svg size 900,500 dynamic background rgb 'white'";
    if (dot && strcmp(dot, ".pdf") == 0)
        return "pdfcairo size 9in,5in";
    return "pngcairo size 900,500";
}

int plot_run(const char *csv, const char *vars, const char *out)
{
    char **names = NULL;
    int ncol = header(csv, &names);
    if (ncol < 0) {
        fprintf(stderr, "lmdlc: cannot read '%s': %s\n", csv, strerror(errno));
        return 1;
    }
    if (ncol < 2 || strcmp(names[0], "time") != 0) {
        fprintf(stderr, "lmdlc: '%s' is not a results file (its header must start "
                "with 'time')\n", csv);
        for (int i = 0; i < ncol; i++)
            free(names[i]);
        free(names);
        return 1;
    }
    /* the chosen columns, by number (all but time when --vars is absent) */
    int *cols = malloc(sizeof(int) * (size_t)(ncol + 1)), nsel = 0, status = 0;
    if (vars) {
        char *copy = strdup(vars);
        for (char *save = NULL, *v = strtok_r(copy, ",", &save); v;
             v = strtok_r(NULL, ",", &save)) {
            int k = -1;
            for (int i = 1; i < ncol && k < 0; i++)
                if (strcmp(names[i], v) == 0)
                    k = i;
            if (k < 0) {
                fprintf(stderr, "lmdlc: '%s' has no column '%s'\n", csv, v);
                status = 1;
            } else if (nsel < ncol) {
                cols[nsel++] = k;
            }
        }
        free(copy);
    } else {
        for (int i = 1; i < ncol && nsel < 12; i++)
            cols[nsel++] = i;
    }
    if (status || !nsel) {
        if (!nsel && !status)
            fprintf(stderr, "lmdlc: nothing to plot\n");
        status = 1;
        goto done;
    }
    int fds[2];
    if (pipe(fds) != 0) {
        fprintf(stderr, "lmdlc: cannot make a pipe: %s\n", strerror(errno));
        status = 2;
        goto done;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[0], 0);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    char *argv[] = {"gnuplot", NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[0]);
    if (rc != 0) {
        close(fds[1]);
        fprintf(stderr, "lmdlc: cannot run gnuplot (%s); install it, e.g. with "
                "'apt-get install gnuplot-nox'\n", strerror(rc));
        status = 2;
        goto done;
    }
    signal(SIGPIPE, SIG_IGN);
    FILE *gp = fdopen(fds[1], "w");
    fprintf(gp, "set terminal %s\nset output ", terminal_for(out));
    gp_str(gp, out);
    fputs("\nset datafile separator ','\nset key outside right top\n"
          "set grid\nset xlabel 'time [s]'\nplot ", gp);
    for (int i = 0; i < nsel; i++) {
        if (i)
            fputs(", ", gp);
        gp_str(gp, csv);
        fprintf(gp, " using 1:%d every ::1 with lines lw 2 title ", cols[i] + 1);
        gp_str(gp, names[cols[i]]);
    }
    fputs("\n", gp);
    fclose(gp);
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
        fprintf(stderr, "lmdlc: gnuplot failed to draw '%s'\n", out);
        status = 2;
    }
done:
    for (int i = 0; i < ncol; i++)
        free(names[i]);
    free(names);
    free(cols);
    return status;
}

int plot_main(int argc, char **argv)
{
    const char *csv = NULL, *vars = NULL, *out = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--vars") == 0 && i + 1 < argc)
            vars = argv[++i];
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1])
            return tool_usage_error("unknown option '%s'", argv[i]);
        else if (!csv)
            csv = argv[i];
        else
            return tool_usage_error("unexpected argument '%s'", argv[i]);
    }
    if (!csv || !out)
        return tool_usage_error("%s", "plot needs RESULTS.csv and -o FILE.png (or .svg)");
    return plot_run(csv, vars, out);
}
