/*
 * plot.c - `lmdlc plot`: columns of a results file against time, drawn by
 * gnuplot (docs/plots.md).
 *
 * The results CSV is read by lmdlc, not by gnuplot: its header and
 * RESULTS.meta beside it (the model's name, each column's unit and the
 * states, written by the simulator's runtime/rt_sidecar.c) in
 * plot_results.c, then here every row, whose numbers are checked and
 * copied to an unnamed temporary file (tmpfile) that gnuplot reads as
 * /dev/fd/3.  (Inline data would be simpler, but gnuplot reads a piped
 * script one byte per read: 200,000 rows took 2.6 s that way, 0.7 s from
 * the file.)  Without RESULTS.meta the plot has no units and says so.
 *
 * No name from either file is ever part of a gnuplot command: the names
 * that appear (titles, labels, the key) are gnuplot single-quoted strings,
 * in which nothing but a doubled quote is special (no backslash escapes,
 * no `command` or @macro substitution), with control characters and
 * invalid UTF-8 replaced; the terminal is noenhanced, so `length_P13`
 * stays `length_P13` instead of a subscript.  gnuplot gets no file name
 * either: the data are its descriptor 3, and its standard output is the
 * temporary file (outfile_begin) that becomes the image by a rename once
 * gnuplot has succeeded, so a failed plot leaves the previous image, and
 * no link is followed.
 *
 * Layout: one panel per unit, stacked, sharing the time axis; at most
 * PLOT_MAX_CURVES curves in a panel and PLOT_MAX_PANELS panels.  What
 * does not fit is left out and listed on stderr, never dropped silently.
 * Without --vars the states are drawn (then the top-level outputs, then
 * the first columns), and stderr says which.
 *
 * gnuplot is started with posix_spawnp and an argument vector ("gnuplot"
 * alone, no shell); the script goes down a pipe to its standard input.
 */
#include "plot.h"

#include "diag.h"
#include "outfile.h"
#include "plot_results.h"
#include "tool.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

enum {
    PLOT_MAX_CURVES = 8,    /* curves in one panel (gnuplot's 8 colours) */
    PLOT_MAX_PANELS = 4,    /* panels, one per unit */
    PLOT_WIDTH = 800,       /* pixels; the height grows with the panels */
    LIST_MAX = 10,          /* names listed in a message before "N more" */
    DATA_FD = 3,            /* gnuplot's descriptor of the data file */
};

static const char help[] =
    "usage: lmdlc plot RESULTS.csv [--vars A,B,...] -o OUT.png|OUT.svg|OUT.pdf\n"
    "\n"
    "Draws columns of a simulator's results file against time, with gnuplot.\n"
    "\n"
    "  --vars A,B,...   the columns to draw [the model's states]\n"
    "  -o FILE          the image; its extension picks the format: .png, .svg\n"
    "                   or .pdf\n"
    "  --help           show this help\n"
    "\n"
    "The units, the model's name and its states come from RESULTS.csv.meta,\n"
    "which the simulator writes beside its -o FILE (not for standard output:\n"
    "then the axes have no units). One panel per unit, at most 8 curves a\n"
    "panel and 4 panels; columns that do not fit are left out and listed.\n"
    "\n"
    "Exit status: 0 drawn, 1 bad command line, unknown column, unreadable\n"
    "results or an output that is an input, 2 gnuplot missing or failed.\n";

static int usage_error(const char *fmt, const char *arg)
{
    tool_message("error", "lmdlc: ", NULL, 0, "Try 'lmdlc plot --help'.", fmt, arg);
    return 1;
}

/* ---- text ------------------------------------------------------------------------ */

/* A gnuplot single-quoted string: '' stands for one quote, and nothing
   else is special inside it. */
static void gp_str(FILE *fp, const char *s)
{
    fputc('\'', fp);
    for (const char *q = strchr(s, '\''); q; q = strchr(s, '\'')) {
        char *part = plot_xrealloc(NULL, (size_t)(q - s) + 1);
        memcpy(part, s, (size_t)(q - s));
        part[q - s] = 0;
        plot_put_text(fp, part);
        free(part);
        fputs("''", fp);
        s = q + 1;
    }
    plot_put_text(fp, s);
    fputc('\'', fp);
}

/* "A, B, C and N more" for at most LIST_MAX names, in a new string. */
static char *list_text(const PlotStrs *names, const int *idx, int n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        abort();
    for (int i = 0; i < n && i < LIST_MAX; i++)
        fprintf(fp, "%s%s", i ? ", " : "", names->s[idx[i]]);
    if (n > LIST_MAX)
        fprintf(fp, " and %d more", n - LIST_MAX);
    if (fclose(fp) != 0)
        abort();
    return text;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* "; did you mean 'HINT'?" (tool_put_did_you_mean), in a new string. */
static char *did_you_mean(const char *hint)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        abort();
    tool_put_did_you_mean(fp, hint, plot_put_text);
    if (fclose(fp) != 0)
        abort();
    return text;
}

/* ---- choosing the columns ------------------------------------------------------ */

/* A column name close to `name`: the only one whose last part it is
   ("x" for "mass.x"), else the closest by edit distance. */
static const char *suggest(const PlotResults *r, const char *name)
{
    const char *hit = NULL;
    int hits = 0;
    size_t len = strlen(name);
    for (int i = 1; i < r->names.n; i++) {
        const char *c = r->names.s[i];
        size_t l = strlen(c);
        if (l > len && c[l - len - 1] == '.' && strcmp(c + l - len, name) == 0) {
            hit = c;
            hits++;
        }
    }
    if (hits == 1)
        return hit;
    return diag_closest(name, (const char *const *)r->names.s + 1, r->names.n - 1);
}

/* --vars: the named columns, in order, each once.  0, or 1 after a
   message for every unknown one. */
static int select_named(const PlotResults *r, const char *vars, int *sel, int *nsel)
{
    int status = 0;
    char *copy = plot_xstrdup(vars);
    for (char *save = NULL, *v = strtok_r(copy, ",", &save); v;
         v = strtok_r(NULL, ",", &save)) {
        int k = plot_column(r, v);
        if (k < 0) {
            const char *hint = strcmp(v, "time") == 0 ? NULL : suggest(r, v);
            if (strcmp(v, "time") == 0) {
                plot_message("error", NULL, 0, "'%s' has no column '%s' to draw: time is "
                             "the x axis", r->path, v);
            } else if (hint) {
                char *dym = did_you_mean(hint);
                plot_message("error", NULL, 0, "'%s' has no column '%s'%s", r->path, v, dym);
                free(dym);
            } else {
                plot_message("error", NULL, 0, "'%s' has no column '%s'", r->path, v);
            }
            status = 1;
            continue;
        }
        bool seen = false;
        for (int i = 0; i < *nsel; i++)
            seen |= sel[i] == k;
        if (!seen)
            sel[(*nsel)++] = k;
    }
    free(copy);
    if (!status && !*nsel)
        return usage_error("%s", "--vars names no column");
    return status;
}

/* No --vars: the states, else the top-level outputs, else every column.
   Returns what they are, for the note that names those drawn. */
static const char *select_default(const PlotResults *r, int *sel, int *nsel)
{
    const char *what;
    if (r->nstates > 0) {
        memcpy(sel, r->states, sizeof *sel * (size_t)r->nstates);
        *nsel = r->nstates;
        what = r->nstates == 1 ? "state" : "states";
    } else {
        for (int i = 1; r->have_meta && i < r->names.n; i++)
            if (r->output[i])
                sel[(*nsel)++] = i;
        what = *nsel == 1 ? "top-level output" : "top-level outputs";
        if (!*nsel) {
            for (int i = 1; i < r->names.n; i++)
                sel[(*nsel)++] = i;
            what = r->have_meta ? "columns (the model has no states or outputs)"
                                : "columns (without RESULTS.meta the states are "
                                  "not known)";
        }
    }
    return what;
}

/* Says which columns are drawn without --vars. */
static void say_default(const PlotResults *r, const char *what, const int *cols, int n)
{
    char *list = list_text(&r->names, cols, n);
    plot_message("note", NULL, 0, "drawing the %s%s%s: %s; --vars chooses others", what,
                 r->model ? " of " : "", r->model ? r->model : "", list);
    free(list);
}

/* ---- panels --------------------------------------------------------------------- */

typedef struct Panel {
    const char *unit;       /* the unit of its curves, NULL unknown */
    int col[PLOT_MAX_CURVES]; /* its columns */
    int slot[PLOT_MAX_CURVES]; /* their columns in the data block (from 2) */
    int n;
    double lo, hi;          /* the range of the finite values */
} Panel;

typedef struct Layout {
    Panel panel[PLOT_MAX_PANELS];
    int npanels;
    int *left;              /* columns left out */
    int nleft;
    int *cols;              /* the data block's columns: cols[k] is header column */
    int ncols;
    double t0, t1;          /* the time range */
    long *finite;           /* per data block column: finite values seen */
} Layout;

static bool same_unit(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* Puts each chosen column in the panel of its unit. */
static void layout_make(Layout *l, const PlotResults *r, const int *sel, int nsel)
{
    l->left = plot_xrealloc(NULL, sizeof *l->left * (size_t)nsel);
    l->cols = plot_xrealloc(NULL, sizeof *l->cols * (size_t)(nsel + 1));
    l->cols[l->ncols++] = 0;
    for (int i = 0; i < nsel; i++) {
        const char *u = plot_unit(r, sel[i]);
        Panel *p = NULL;
        for (int k = 0; k < l->npanels && !p; k++)
            if (same_unit(l->panel[k].unit, u))
                p = &l->panel[k];
        if (!p && l->npanels < PLOT_MAX_PANELS) {
            p = &l->panel[l->npanels++];
            p->unit = u;
            p->lo = INFINITY;
            p->hi = -INFINITY;
        }
        if (!p || p->n == PLOT_MAX_CURVES) {
            l->left[l->nleft++] = sel[i];
            continue;
        }
        p->col[p->n] = sel[i];
        p->slot[p->n++] = l->ncols + 1;
        l->cols[l->ncols++] = sel[i];
    }
    l->finite = plot_xcalloc((size_t)l->ncols, sizeof *l->finite);
    l->t0 = INFINITY;
    l->t1 = -INFINITY;
}

static void layout_free(Layout *l)
{
    free(l->left);
    free(l->cols);
    free(l->finite);
}

/* ---- the data ------------------------------------------------------------------ */

/* The chosen fields of one row. */
typedef struct Row {
    int *slot;              /* per header column: its data block column, or -1 */
    const char **text;      /* per data block column: the field's text */
    size_t *len;            /* its length, blanks trimmed */
    double *val;            /* its value */
} Row;

/* Splits line (len bytes, no line break) at its commas, reading the
   chosen fields into row; returns the field count, and in *bad the first
   chosen field that is not a number (strtod's syntax, blanks around it
   allowed), or NULL. */
static int split_row(const Row *row, int ncol, char *line, size_t len, const char **bad)
{
    int field = 0;
    *bad = NULL;
    for (char *at = line;; field++) {
        char *end = strchr(at, ',');
        if (!end)
            end = line + len;
        if (field < ncol && row->slot[field] >= 0) {
            int k = row->slot[field];
            while (*at == ' ' || *at == '\t')
                at++;
            char *stop;
            row->val[k] = strtod(at, &stop);
            row->text[k] = at;
            row->len[k] = (size_t)(stop - at);
            while (stop < end && (*stop == ' ' || *stop == '\t'))
                stop++;
            if ((stop != end || row->len[k] == 0) && !*bad)
                *bad = at;
        }
        if (!*end)
            return field + 1;
        at = end + 1;
    }
}

/* A value for the data block: the field as written when it is a plain
   decimal number (the simulator's %.17g), else the number printed again
   (strtod also takes hexadecimal, which gnuplot might read otherwise);
   NaN, which gnuplot skips, for a value that is not finite. */
static void put_value(FILE *gp, const Row *row, int k)
{
    if (!isfinite(row->val[k]))
        fputs("NaN", gp);
    else if (strspn(row->text[k], "0123456789+-.eE") >= row->len[k])
        fwrite(row->text[k], 1, row->len[k], gp);
    else
        fprintf(gp, "%.17g", row->val[k]);
}

/* Reports a row that cannot be drawn; returns 1. */
static int bad_row(const PlotResults *r, const char *what, const char *field)
{
    if (field) {
        char *shown = strndup(field, strcspn(field, ","));
        plot_message("error", r->path, r->line, "%s: '%s'", what, shown ? shown : "?");
        free(shown);
    } else {
        plot_message("error", r->path, r->line, "%s", what);
    }
    return 1;
}

/* Widens the ranges of the time axis and of each panel by one row. */
static void widen(Layout *l, const Row *row)
{
    l->t0 = fmin(l->t0, row->val[0]);
    l->t1 = fmax(l->t1, row->val[0]);
    for (int p = 0; p < l->npanels; p++) {
        Panel *pn = &l->panel[p];
        for (int c = 0; c < pn->n; c++) {
            double v = row->val[pn->slot[c] - 1];
            if (isfinite(v)) {
                pn->lo = fmin(pn->lo, v);
                pn->hi = fmax(pn->hi, v);
            }
        }
    }
}

/* Copies every row's chosen fields into the data file gnuplot reads
   (numbers separated by blanks), and records the ranges.  0, or 1 after
   a message. */
static int send_rows(PlotResults *r, Layout *l, FILE *gp, long *nrows)
{
    int ncol = r->names.n;
    Row row = {plot_xrealloc(NULL, sizeof *row.slot * (size_t)ncol),
               plot_xrealloc(NULL, sizeof *row.text * (size_t)l->ncols),
               plot_xrealloc(NULL, sizeof *row.len * (size_t)l->ncols),
               plot_xrealloc(NULL, sizeof *row.val * (size_t)l->ncols)};
    for (int i = 0; i < ncol; i++)
        row.slot[i] = -1;
    for (int k = l->ncols - 1; k >= 0; k--)
        row.slot[l->cols[k]] = k;
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    int status = 0;
    while (!status && (got = getline(&line, &cap, r->fp)) > 0) {
        r->line++;
        bool complete = line[got - 1] == '\n';
        while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
            line[--got] = 0;
        if (got == 0)
            continue;
        const char *bad;
        int fields = split_row(&row, ncol, line, (size_t)got, &bad);
        if (fields != ncol && !complete) {
            plot_message("note", NULL, 0, "ignoring the unfinished last line %ld of '%s' "
                         "(the run was stopped while writing it)", r->line, r->path);
            break;
        }
        if (fields != ncol) {
            char what[96];
            snprintf(what, sizeof what, "%d fields, but the header has %d", fields, ncol);
            status = bad_row(r, what, NULL);
        } else if (bad || !isfinite(row.val[0])) {
            status = bad_row(r, "not a number", bad ? bad : row.text[0]);
        } else {
            for (int k = 0; k < l->ncols; k++) {
                fputs(k ? " " : "", gp);
                put_value(gp, &row, k);
                l->finite[k] += isfinite(row.val[k]) != 0;
            }
            fputc('\n', gp);
            widen(l, &row);
            (*nrows)++;
        }
    }
    if (!status && ferror(r->fp)) {
        plot_message("error", NULL, 0, "cannot read '%s': %s", r->path, strerror(errno));
        status = 1;
    }
    free(line);
    free(row.slot);
    free(row.text);
    free(row.len);
    free(row.val);
    return status;
}

/* ---- the script ----------------------------------------------------------------- */

/* Names of quantities for the y label, by the unit rt_unit_format writes;
   only units that name one quantity in the library's domains. */
static const struct { const char *unit, *quantity; } quantities[] = {
    {"m", "length"},      {"m/s", "velocity"},  {"m/s^2", "acceleration"},
    {"N", "force"},       {"Pa", "pressure"},   {"W", "power"},
    {"V", "voltage"},     {"A", "current"},     {"K", "temperature"},
    {"kg", "mass"},       {"N/m", "stiffness"}, {"N*s/m", "damping"},
};

/* The name a description starts with: the text before its first ':',
   ',', ';' or '(' ("contact force, always >= 0" is a contact force). */
static size_t description_len(const char *d)
{
    size_t n = strcspn(d, ":,;(");
    while (n > 0 && d[n - 1] == ' ')
        n--;
    return n;
}

/* The y label: what the curves are (their common description, if it
   fits in `room` characters, or the unit's quantity) and the unit in
   brackets. */
static void put_ylabel(FILE *gp, const PlotResults *r, const Panel *p, size_t room)
{
    char label[512] = "";
    if (!p->unit) {
        fputs("unset ylabel\n", gp);
        return;
    }
    const char *d0 = r->descs.s[p->col[0]];
    size_t n0 = description_len(d0);
    bool common = n0 > 0 && n0 + strlen(p->unit) + 3 <= room && n0 < 300;
    for (int c = 1; c < p->n && common; c++) {
        const char *d = r->descs.s[p->col[c]];
        common = description_len(d) == n0 && strncmp(d, d0, n0) == 0;
    }
    const char *q = NULL;
    for (size_t i = 0; i < sizeof quantities / sizeof quantities[0] && !q; i++)
        if (strcmp(quantities[i].unit, p->unit) == 0)
            q = quantities[i].quantity;
    if (common)
        snprintf(label, sizeof label, "%.*s [%s]", (int)n0, d0, p->unit);
    else if (q)
        snprintf(label, sizeof label, "%s [%s]", q, p->unit);
    else
        snprintf(label, sizeof label, "[%s]", p->unit);
    fputs("set ylabel ", gp);
    gp_str(gp, label);
    fputc('\n', gp);
}

typedef struct Format {
    const char *ext;        /* the output's extension */
    const char *terminal;   /* gnuplot's terminal and its options */
    bool inches;            /* size in inches (pdfcairo) instead of pixels */
} Format;

static const Format formats[] = {
    {"png", "pngcairo noenhanced background rgb 'white' font ',10'", false},
    {"svg", "svg noenhanced dynamic background rgb 'white' font ',10'", false},
    {"pdf", "pdfcairo noenhanced font ',10'", true},
};

static const Format *format_for(const char *out)
{
    const char *dot = strrchr(base_name(out), '.');
    for (size_t i = 0; dot && i < sizeof formats / sizeof formats[0]; i++)
        if (strcasecmp(dot + 1, formats[i].ext) == 0)
            return &formats[i];
    return NULL;
}

/* A range that gnuplot can draw: a constant gets a band around it (an
   empty range would make gnuplot warn and guess). */
static void put_range(FILE *gp, const char *axis, double lo, double hi)
{
    if (hi > lo) {
        fprintf(gp, "set %srange [%.17g:%.17g]\n", axis, lo, hi);
        return;
    }
    double d = lo != 0 ? fabs(lo) * 0.1 : 1;
    fprintf(gp, "set %srange [%.17g:%.17g]\n", axis, lo - d, lo + d);
}

/* Eight colours that stay apart on white (gnuplot's fifth is a pale
   yellow). */
static const char *const colours[PLOT_MAX_CURVES] = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
    "#9467bd", "#8c564b", "#17becf", "#7f7f7f",
};

static void put_script(FILE *gp, const Format *f, const PlotResults *r, const Layout *l)
{
    int height = 340 + 160 * l->npanels;
    size_t longest = 0;
    for (int k = 1; k < l->ncols; k++) {
        size_t n = strlen(r->names.s[l->cols[k]]);
        longest = n > longest ? n : longest;
    }
    double key = (double)(longest * 7 + 70);
    key = key < 140 ? 140 : key > 0.4 * PLOT_WIDTH ? 0.4 * PLOT_WIDTH : key;
    if (f->inches)
        fprintf(gp, "set terminal %s size %gin,%gin\n", f->terminal, PLOT_WIDTH / 100.0,
                height / 100.0);
    else
        fprintf(gp, "set terminal %s size %d,%d\n", f->terminal, PLOT_WIDTH, height);
    for (int i = 0; i < PLOT_MAX_CURVES; i++)
        fprintf(gp, "set linetype %d lc rgb '%s' lw 2\n", i + 1, colours[i]);
    /* no file name: gnuplot's standard output is the temporary file */
    fputs("set output\nset termoption noenhanced\nset grid\n"
          "set key left top Left reverse noenhanced\n"
          "set style data lines\n"
          /* a curve on the frame would hide in it */
          "set offsets 0, 0, graph 0.05, graph 0.05\n", gp);
    put_range(gp, "x", l->t0, l->t1);
    char title[1024];
    if (r->model)
        snprintf(title, sizeof title, "%s (%s)", r->model, base_name(r->path));
    else
        snprintf(title, sizeof title, "%s", base_name(r->path));
    fputs("set multiplot title ", gp);
    gp_str(gp, title);
    fputs(" font ',12'\n", gp);
    double top = 40, bottom = 50, gap = 14;
    double ph = (height - top - bottom - gap * (l->npanels - 1)) / l->npanels;
    /* the keys in the right margin, lined up with each panel's top */
    fprintf(gp, "set lmargin at screen %.4f\nset rmargin at screen %.4f\n"
            "set key at screen %.4f, graph 1\n", 90.0 / PLOT_WIDTH, 1 - key / PLOT_WIDTH,
            1 - (key - 10) / PLOT_WIDTH);
    for (int p = 0, curve = 0; p < l->npanels; p++) {
        const Panel *pn = &l->panel[p];
        double t = height - top - p * (ph + gap), b = t - ph;
        fprintf(gp, "set tmargin at screen %.4f\nset bmargin at screen %.4f\n",
                t / height, b / height);
        bool last = p == l->npanels - 1;
        fputs(last ? "set xlabel 'time [s]'\nset format x\n"
                   : "unset xlabel\nset format x ''\n", gp);
        put_ylabel(gp, r, pn, (size_t)(ph / 7));
        if (pn->hi > pn->lo)
            fputs("set autoscale y\n", gp);
        else
            put_range(gp, "y", pn->lo, pn->hi);
        fputs("plot ", gp);
        for (int c = 0; c < pn->n; c++) {
            /* a colour per curve over the whole plot, not per panel */
            fprintf(gp, "%s'/dev/fd/%d' using 1:%d lt %d title ", c ? ", " : "", DATA_FD,
                    pn->slot[c], curve++ % PLOT_MAX_CURVES + 1);
            gp_str(gp, r->names.s[pn->col[c]]);
        }
        fputc('\n', gp);
    }
    fputs("unset multiplot\n", gp);
}

/* Drops the curves without a single finite value (gnuplot would refuse
   them), and the panels left empty. */
static void drop_empty(Layout *l, const PlotResults *r)
{
    int np = 0;
    for (int p = 0; p < l->npanels; p++) {
        Panel *pn = &l->panel[p];
        int n = 0;
        for (int c = 0; c < pn->n; c++) {
            if (l->finite[pn->slot[c] - 1] > 0) {
                pn->col[n] = pn->col[c];
                pn->slot[n++] = pn->slot[c];
            } else {
                plot_message("warning", NULL, 0, "left out '%s': it has no finite value",
                             r->names.s[pn->col[c]]);
            }
        }
        pn->n = n;
        if (n)
            l->panel[np++] = *pn;
    }
    l->npanels = np;
}

/* ---- running gnuplot ---------------------------------------------------------- */

/* The temporary output, removed if a signal stops the plot. */
static const char *volatile interrupted_tmp;

static void on_interrupt(int sig)
{
    if (interrupted_tmp)
        unlink(interrupted_tmp);
    signal(sig, SIG_DFL);
    raise(sig);
}

static const int interrupt_signals[] = {SIGINT, SIGTERM, SIGHUP};

static void catch_interrupts(const char *tmp, struct sigaction *old)
{
    interrupted_tmp = tmp;
    for (int i = 0; i < 3; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_interrupt;
        sigaction(interrupt_signals[i], NULL, &old[i]);
        if (old[i].sa_handler != SIG_IGN)
            sigaction(interrupt_signals[i], &sa, NULL);
    }
}

static void release_interrupts(const struct sigaction *old)
{
    for (int i = 0; i < 3; i++)
        sigaction(interrupt_signals[i], &old[i], NULL);
    interrupted_tmp = NULL;
}

/* fd moved to a descriptor of 10 or more, close-on-exec (fd is closed),
   so that the child's dup2 onto 0, 1 and DATA_FD cannot clobber one
   another, and nothing else leaks into gnuplot; -1 on failure. */
static int high_fd(int fd)
{
    if (fd < 0)
        return -1;
    int h = fcntl(fd, F_DUPFD_CLOEXEC, 10);
    close(fd);
    return h;
}

/* Starts gnuplot with the script pipe as its standard input (*to gets
   the writing end), out as its standard output and data as DATA_FD; its
   pid, or -1 after a message. */
static pid_t start_gnuplot(int *to, int out, int data)
{
    int fds[2] = {-1, -1};
    if (pipe(fds) != 0)
        fds[0] = fds[1] = -1;
    int in = high_fd(fds[0]), w = high_fd(fds[1]);
    int o = fcntl(out, F_DUPFD_CLOEXEC, 10), d = fcntl(data, F_DUPFD_CLOEXEC, 10);
    int rc = in < 0 || w < 0 || o < 0 || d < 0 ? errno : 0;
    pid_t pid = -1;
    if (!rc) {
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, in, 0);
        posix_spawn_file_actions_adddup2(&fa, o, 1);
        posix_spawn_file_actions_adddup2(&fa, d, DATA_FD);
        char *argv[] = {"gnuplot", NULL};
        rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
        if (rc == 0)
            *to = w;
        else
            plot_message("error", NULL, 0, "cannot run gnuplot (%s); install it, e.g. "
                         "with 'apt-get install gnuplot-nox'", strerror(rc));
    } else {
        plot_message("error", NULL, 0, "cannot start gnuplot: %s", strerror(rc));
    }
    int fdv[] = {in, o, d, rc ? w : -1};
    for (int i = 0; i < 4; i++)
        if (fdv[i] >= 0)
            close(fdv[i]);
    return rc ? -1 : pid;
}

/* Runs gnuplot on the data file: the script down a pipe, the image into
   the temporary file fd.  0, or 2 after a message. */
static int run_gnuplot(const PlotResults *r, const Layout *l, const Format *f, int fd,
                       FILE *data, const char *out)
{
    int to = -1;
    pid_t pid = start_gnuplot(&to, fd, fileno(data));
    if (pid < 0)
        return 2;
    void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
    FILE *gp = fdopen(to, "w");
    if (!gp) {
        plot_message("error", NULL, 0, "out of memory");
        exit(2);
    }
    put_script(gp, f, r, l);
    bool sent = fclose(gp) == 0;
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    signal(SIGPIPE, old_pipe);
    struct stat st;
    if (sent && WIFEXITED(ws) && WEXITSTATUS(ws) == 0 && fstat(fd, &st) == 0 && st.st_size > 0)
        return 0;
    plot_message("error", NULL, 0, "gnuplot failed to draw '%s'", out);
    return 2;
}

/* Reads the rows into an unnamed temporary file, then draws the layout
   into out through gnuplot; the exit status. */
static int draw(PlotResults *r, Layout *l, const Format *f, const char *out)
{
    FILE *data = tmpfile();
    if (!data) {
        plot_message("error", NULL, 0, "cannot make a temporary file: %s", strerror(errno));
        return 1;
    }
    long nrows = 0;
    int status = send_rows(r, l, data, &nrows);
    if (!status && fflush(data) != 0) {
        plot_message("error", NULL, 0, "cannot write a temporary file: %s", strerror(errno));
        status = 1;
    }
    if (!status && nrows == 0) {
        plot_message("error", NULL, 0, "'%s' has no rows to draw", r->path);
        status = 1;
    }
    if (!status)
        drop_empty(l, r);
    if (!status && l->npanels == 0) {
        plot_message("error", NULL, 0, "nothing to draw");
        status = 1;
    }
    if (!status && outfile_special(out)) {
        /* gnuplot writes the image to a file renamed over out: a device
           or a pipe would be replaced by it */
        fprintf(stderr, "lmdlc: error: refusing to write the image to '");
        plot_put_text(stderr, out);
        fprintf(stderr, "': it is not a regular file (a device or a pipe)\n");
        status = 1;
    }
    char *tmp = NULL;
    int fd = status ? -1 : outfile_begin(out, &tmp);
    if (!status && fd < 0) {
        plot_message("error", NULL, 0, "cannot write '%s': %s", out, strerror(errno));
        status = 1;
    }
    if (!status) {
        struct sigaction old[3];
        catch_interrupts(tmp, old);
        status = run_gnuplot(r, l, f, fd, data, out);
        int err = outfile_finish(fd, tmp, out, status == 0) != 0 && !status ? errno : 0;
        release_interrupts(old);
        if (err) {
            plot_message("error", NULL, 0, "cannot write '%s': %s", out, strerror(err));
            status = 1;
        }
    }
    fclose(data);
    return status;
}

/* ---- the command ---------------------------------------------------------------- */

/* An output that is one of the inputs would destroy it. */
static bool is_input(const char *out, const char *csv)
{
    size_t n = strlen(csv) + 6;
    char *meta = plot_xrealloc(NULL, n);
    snprintf(meta, n, "%s.meta", csv);
    const char *in = outfile_same_file(out, csv) ? csv
                     : outfile_same_file(out, meta) ? meta : NULL;
    if (in) {
        plot_message("error", NULL, 0, "refusing to write '%s': it is %s '%s'; choose "
                     "another output file", out, strcmp(in, out) == 0 ? "the input"
                     : "the same file as the input", in);
    }
    free(meta);
    return in != NULL;
}

int plot_run(const char *csv, const char *vars, const char *out)
{
    if (is_input(out, csv))
        return 1;
    const Format *f = format_for(out);
    if (!f) {
        plot_message("error", NULL, 0, "cannot tell the format of '%s': its extension "
                     "must be .png, .svg or .pdf", out);
        return 1;
    }
    PlotResults r = {0};
    Layout l = {0};
    int status = plot_results_open(&r, csv);
    if (status)
        goto done;
    plot_meta_read(&r);
    int *sel = plot_xrealloc(NULL, sizeof *sel * (size_t)r.names.n);
    int nsel = 0;
    const char *what = NULL;
    if (vars)
        status = select_named(&r, vars, sel, &nsel);
    else
        what = select_default(&r, sel, &nsel);
    if (!status) {
        layout_make(&l, &r, sel, nsel);
        if (what)
            say_default(&r, what, l.cols + 1, l.ncols - 1);
        if (l.nleft) {
            char *list = list_text(&r.names, l.left, l.nleft);
            plot_message("warning", NULL, 0, "left out %d column%s (a plot has at most %d "
                         "panels, one per unit, of %d curves each): %s; draw %s in another "
                         "plot with --vars", l.nleft, l.nleft == 1 ? "" : "s",
                         PLOT_MAX_PANELS, PLOT_MAX_CURVES, list, l.nleft == 1 ? "it" : "them");
            free(list);
        }
        status = draw(&r, &l, f, out);
    }
    free(sel);
done:
    layout_free(&l);
    plot_results_free(&r);
    return status;
}

int plot_main(int argc, char **argv)
{
    const char *csv = NULL, *vars = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(help, stdout);
            return 0;
        }
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--vars") == 0 || strcmp(a, "-o") == 0) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", a);
            *(a[1] == 'o' ? &out : &vars) = argv[++i];
        } else if (strncmp(a, "--vars=", 7) == 0) {
            vars = a + 7;
        } else if (a[0] == '-' && a[1]) {
            const char *opts[] = {"--vars", "-o", "--help"};
            const char *hint = diag_closest(a, opts, 3);
            if (hint) {
                char *dym = did_you_mean(hint);
                tool_message("error", "lmdlc: ", NULL, 0, "Try 'lmdlc plot --help'.",
                             "unknown option '%s'%s", a, dym);
                free(dym);
                return 1;
            }
            return usage_error("unknown option '%s'", a);
        } else if (!csv) {
            csv = a;
        } else {
            return usage_error("unexpected argument '%s'", a);
        }
    }
    if (!csv)
        return usage_error("%s", "plot needs RESULTS.csv");
    if (!out)
        return usage_error("%s", "plot needs -o FILE.png, FILE.svg or FILE.pdf");
    return plot_run(csv, vars, out);
}
