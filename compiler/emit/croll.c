/*
 * croll.c - repeated statements rolled into loops (cprint.h, cp_roll).
 *
 * A model made of many copies of one component (a chain of levers)
 * prints, statement for statement, the same C lines again and again with
 * other array indices:
 *
 *     a[72] = ((x[16] - p[91]) * p[1299]);      lever 9
 *     a[73] = (a[72] + x[16]);
 *     a[81] = ((x[18] - p[101]) * p[1298]);     lever 10
 *     a[82] = (a[81] + x[18]);
 *
 * Straight-line code that grows with the model: at a thousand levers the
 * evaluation is 200 KB of instructions fetched at every call, and the C
 * compiler works through it line by line.  Here a run of R >= 3 groups
 * of K such lines (R * K >= 12) with the same shape, whose integers all
 * step by the same amount from one group to the next, is printed once,
 * as the body
 * of a loop over r_ = 0 .. R-1 whose integers are `(first + step * r_)`.
 * The loop runs the groups in their order, so it computes exactly what
 * the lines did, operation for operation.
 *
 * What may be rolled: lines `    NAME[INT] = EXPR;` and
 * `    const double tN = EXPR;` (a shared subexpression) without braces,
 * quotes or `return`; comment lines go with the line after them (the
 * loop keeps the first group's, as the blocks' origins).  Any other
 * line ends a run.  Integers in floating constants (0.5, 1e-05) are
 * text and must be equal; integers of more than nine digits too.  A
 * temporary tN that a group reads must be defined in the same group (at
 * the same step as its definition), and one a run defines must not be
 * read after it: inside the loop it is a local of the body.
 *
 * LMDL_ROLL=no in the environment turns rolling off (tests/e2e/roll.sh
 * compares the two builds' results byte for byte).
 */
#include "cprint.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A run is rolled when it repeats at least ROLL_MIN_REPEAT times and
   covers at least ROLL_MIN_LINES statements: a small model's C stays
   straight-line, each block with its own comment. */
enum { ROLL_MIN_REPEAT = 3, ROLL_MIN_LINES = 12, ROLL_MAX_GROUP = 48 };

enum { LINE_OTHER, LINE_COMMENT, LINE_SIMPLE };

/* A number of a simple line: an integer or the number of a temporary. */
typedef struct RollNum {
    long v;
    bool temp;              /* tN, not an integer */
    bool def;               /* the tN a `const double tN =` line defines */
} RollNum;

typedef struct RollLine {
    const char *s;          /* the line, without its newline */
    size_t n;
    int kind;               /* LINE_* */
    size_t norm, norm_n;    /* its shape: the text with numbers as '#' */
    uint64_t hash;          /* ... hashed */
    int num0, nnum;         /* its numbers: nums[num0 .. num0 + nnum) */
} RollLine;

typedef struct Roll {
    RollLine *lines;
    int nlines;
    RollNum *nums;
    int nnums, cap_nums;
    CpBuf norm;             /* the shapes, back to back */
    int *last_read;         /* per temporary: the last line that reads it */
    long ntemps;
    long *step;             /* per number of a group: its step */
    int cap_step;
    CpBuf out;              /* the rewritten text */
} Roll;

/* ASCII classes, without the C library's locale tables: the text is C
   that codegen printed. */
static bool is_digit(char c)
{
    return (unsigned char)(c - '0') < 10;
}

static bool is_alpha(char c)
{
    return (unsigned char)((c | 32) - 'a') < 26;
}

static bool is_ident(char c)
{
    return is_alpha(c) || is_digit(c) || c == '_';
}

static void push_num(Roll *r, long v, bool temp, bool def)
{
    if (r->nnums == r->cap_nums) {
        r->cap_nums = r->cap_nums ? 2 * r->cap_nums : 256;
        r->nums = realloc(r->nums, (size_t)r->cap_nums * sizeof *r->nums);
        if (!r->nums)
            abort();
    }
    r->nums[r->nnums++] = (RollNum){v, temp, def};
}

/* Whether line l (without the indent) is a simple statement. */
static bool simple_line(const char *s, size_t n)
{
    if (n < 6 || s[n - 1] != ';' || memchr(s, '{', n) || memchr(s, '}', n)
        || memchr(s, '"', n) || memchr(s, '\'', n))
        return false;
    size_t i = 0;
    if (n > 14 && !memcmp(s, "const double t", 14)) {
        i = 14;
        if (!is_digit(s[i]))
            return false;
        while (i < n && is_digit(s[i]))
            i++;
    } else {
        while (i < n && ((s[i] >= 'a' && s[i] <= 'z') || s[i] == '_'))
            i++;
        if (i == 0 || i >= n || s[i] != '[')
            return false;
        for (i++; i < n && is_digit(s[i]); i++)
            ;
        if (i >= n || s[i] != ']')
            return false;
        i++;
    }
    if (n - i < 4 || memcmp(s + i, " = ", 3))
        return false;
    for (size_t k = i; k + 6 <= n; k++)
        if (!memcmp(s + k, "return", 6))
            return false;
    return true;
}

/* The tokens of a simple line that matter here. */
enum {
    TOK_CHAR,               /* one character, as it is */
    TOK_NAME,               /* an identifier, as it is (eval_3, s17) */
    TOK_TEMP,               /* a temporary tN: a number */
    TOK_INT,                /* an integer of up to nine digits: a number */
    TOK_TEXT                /* a floating constant or a long integer: text */
};

/* The kind of the token that starts at s[i] (i < n); *end is past it,
   *val the number of a TOK_TEMP or TOK_INT (at most nine digits). */
static int token(const char *s, size_t n, size_t i, size_t *end, long *val)
{
    char c = s[i];
    size_t j = i + 1;
    if (is_alpha(c) || c == '_') {
        long v = 0;
        bool temp = c == 't';
        for (; j < n && is_ident(s[j]); j++) {
            temp = temp && is_digit(s[j]);
            if (temp)
                v = 10 * v + (s[j] - '0');
        }
        *end = j;
        if (temp && j - i > 1 && j - i <= 10) {
            *val = v;
            return TOK_TEMP;
        }
        return TOK_NAME;
    }
    if (!is_digit(c)) {
        *end = j;
        return TOK_CHAR;
    }
    long v = c - '0';
    while (j < n && is_digit(s[j])) {
        if (j - i < 9)
            v = 10 * v + (s[j] - '0');
        j++;
    }
    if (j - i <= 9 && (j >= n || (s[j] != '.' && s[j] != 'e' && s[j] != 'E'))) {
        *end = j;
        *val = v;
        return TOK_INT;
    }
    if (j < n && s[j] == '.')
        for (j++; j < n && is_digit(s[j]); j++)
            ;
    if (j < n && (s[j] == 'e' || s[j] == 'E')) {
        j++;
        if (j < n && (s[j] == '+' || s[j] == '-'))
            j++;
        while (j < n && is_digit(s[j]))
            j++;
    }
    *end = j;
    return TOK_TEXT;
}

/* The shape and the numbers of a simple line. */
static void normalize(Roll *r, RollLine *l)
{
    const char *s = l->s + 4;
    size_t n = l->n - 4;
    l->norm = r->norm.n;
    l->num0 = r->nnums;
    bool def = n > 14 && !memcmp(s, "const double t", 14);
    size_t run = 0; /* the text since the last number, put at once */
    for (size_t i = 0, j; i < n; i = j) {
        long v = 0;
        int kind = token(s, n, i, &j, &v);
        if (kind != TOK_TEMP && kind != TOK_INT)
            continue;
        cp_put(&r->norm, s + run, i - run);
        run = j;
        if (kind == TOK_TEMP) {
            push_num(r, v, true, def && i == 13);
            cp_put(&r->norm, "t#", 2);
        } else {
            push_num(r, v, false, false);
            cp_put(&r->norm, "#", 1);
        }
    }
    cp_put(&r->norm, s + run, n - run);
    l->norm_n = r->norm.n - l->norm;
    l->nnum = r->nnums - l->num0;
    uint64_t h = 1469598103934665603ull;
    for (size_t k = 0; k < l->norm_n; k++)
        h = (h ^ (unsigned char)r->norm.s[l->norm + k]) * 1099511628211ull;
    l->hash = h;
}

/* The temporaries that line l reads (not defines): last_read. */
static void note_reads(Roll *r, int li)
{
    const RollLine *l = &r->lines[li];
    const char *s = l->s;
    for (size_t i = 0; i < l->n; i++) {
        if (s[i] != 't' || (i > 0 && is_ident(s[i - 1])))
            continue;
        size_t j = i + 1;
        while (j < l->n && is_digit(s[j]))
            j++;
        if (j == i + 1 || (j < l->n && is_ident(s[j])))
            continue;
        long t = strtol(s + i + 1, NULL, 10);
        if (t >= 0 && t < r->ntemps)
            r->last_read[t] = li;
        i = j - 1;
    }
}

static bool same_shape(const Roll *r, const RollLine *a, const RollLine *b)
{
    return a->hash == b->hash && a->norm_n == b->norm_n && a->nnum == b->nnum
           && !memcmp(r->norm.s + a->norm, r->norm.s + b->norm, a->norm_n);
}

/* Whether group g (items it[g*k .. g*k+k)) is group 0 stepped g times. */
static bool group_matches(const Roll *r, const int *it, int k, int g)
{
    int q = 0;
    for (int i = 0; i < k; i++) {
        const RollLine *a = &r->lines[it[i]], *b = &r->lines[it[g * k + i]];
        if (!same_shape(r, a, b))
            return false;
        for (int m = 0; m < a->nnum; m++, q++)
            if (r->nums[b->num0 + m].v != r->nums[a->num0 + m].v + g * r->step[q])
                return false;
    }
    return true;
}

/* The temporaries of group 0 (items it[0 .. k)) with the steps in
   r->step: every one read is defined earlier in the group, read at the
   step of its definition, and none of the run's (rep groups) is read
   after the run's last line. */
static bool temps_ok(const Roll *r, const int *it, int k, int rep)
{
    int q = 0;
    for (int i = 0; i < k; i++) {
        const RollLine *l = &r->lines[it[i]];
        for (int m = 0; m < l->nnum; m++, q++) {
            const RollNum *x = &r->nums[l->num0 + m];
            if (!x->temp)
                continue;
            if (x->def) {
                long t = x->v;
                for (int g = 0; g < rep; g++) {
                    long tg = t + g * r->step[q];
                    if (tg < 0 || tg >= r->ntemps || r->last_read[tg] > it[rep * k - 1])
                        return false;
                }
                continue;
            }
            /* a read: of a definition earlier in this group, same step */
            bool found = false;
            int qq = 0;
            for (int i2 = 0; i2 <= i && !found; i2++) {
                const RollLine *l2 = &r->lines[it[i2]];
                for (int m2 = 0; m2 < l2->nnum && !found; m2++, qq++) {
                    const RollNum *y = &r->nums[l2->num0 + m2];
                    if (i2 == i && m2 >= m)
                        break;
                    found = y->temp && y->def && y->v == x->v && r->step[qq] == r->step[q];
                }
            }
            if (!found)
                return false;
        }
    }
    return true;
}

/* Prints line l of group 0 inside the loop, its numbers stepped (its
   steps from r->step[q]); a temporary keeps group 0's name. */
static void put_stepped(Roll *r, const RollLine *l, int q)
{
    cp_put(&r->out, "        ", 8);
    const char *s = l->s + 4;
    size_t n = l->n - 4;
    int m = 0;
    for (size_t i = 0, j; i < n; i = j) {
        long v;
        int kind = token(s, n, i, &j, &v);
        if (kind == TOK_INT && r->step[q + m] != 0) {
            long d = r->step[q + m];
            cp_put(&r->out, "(", 1);
            cp_put_long(&r->out, r->nums[l->num0 + m].v);
            cp_put(&r->out, d < 0 ? " - " : " + ", 3);
            cp_put_long(&r->out, d < 0 ? -d : d);
            cp_put(&r->out, " * r_)", 6);
        } else {
            cp_put(&r->out, s + i, j - i);
        }
        m += kind == TOK_INT || kind == TOK_TEMP;
    }
    cp_put(&r->out, "\n", 1);
}

static void put_line(Roll *r, const RollLine *l)
{
    cp_put(&r->out, l->s, l->n);
    cp_put(&r->out, "\n", 1);
}

/* Whether groups 0 and 1 of K items (it[0 .. 2k)) have the same shapes;
   if so, r->step holds each number's step from group 0 to group 1. */
static bool group_steps(Roll *r, const int *it, int k)
{
    int nq = 0;
    for (int i = 0; i < k; i++) {
        const RollLine *a = &r->lines[it[i]], *b = &r->lines[it[k + i]];
        if (!same_shape(r, a, b))
            return false;
        nq += a->nnum;
    }
    if (nq > r->cap_step) {
        r->cap_step = 2 * nq;
        r->step = realloc(r->step, (size_t)r->cap_step * sizeof *r->step);
        if (!r->step)
            abort();
    }
    int q = 0;
    for (int i = 0; i < k; i++) {
        const RollLine *a = &r->lines[it[i]], *b = &r->lines[it[k + i]];
        for (int m = 0; m < a->nnum; m++)
            r->step[q++] = r->nums[b->num0 + m].v - r->nums[a->num0 + m].v;
    }
    return true;
}

/* The loop for rep groups of k items from it[0] (steps in r->step): the
   first group's lines, with the comments before each. */
static void put_loop(Roll *r, const int *it, const int *lead, int k, int rep)
{
    char head[160];
    int len = snprintf(head, sizeof head,
                       "    /* %d times the %d statement%s below, for r_ = 0 .. %d: the"
                       " first time's blocks; each next one steps its indices */\n",
                       rep, k, k == 1 ? "" : "s", rep - 1);
    cp_put(&r->out, head, (size_t)len);
    len = snprintf(head, sizeof head, "    for (int r_ = 0; r_ < %d; r_++) {\n", rep);
    cp_put(&r->out, head, (size_t)len);
    int q = 0;
    for (int i = 0; i < k; i++) {
        for (int li = lead[i]; li < it[i]; li++) {
            cp_put(&r->out, "    ", 4);
            put_line(r, &r->lines[li]);
        }
        const RollLine *l = &r->lines[it[i]];
        put_stepped(r, l, q);
        q += l->nnum;
    }
    cp_put(&r->out, "    }\n", 6);
}

/* Rolls the simple lines it[0 .. m) (with the comments before each one,
   lead[i] .. it[i]), a stretch without other lines: at each item, the
   group size K whose run covers the most items, if any qualifies. */
static void roll_stretch(Roll *r, const int *it, const int *lead, int m)
{
    int j = 0;
    while (j < m) {
        int best_k = 0, best_rep = 0;
        for (int k = 1; k <= ROLL_MAX_GROUP && j + ROLL_MIN_REPEAT * k <= m; k++) {
            if (r->lines[it[j]].hash != r->lines[it[j + k]].hash || !group_steps(r, it + j, k))
                continue;
            int rep = 2;
            while (j + (rep + 1) * k <= m && group_matches(r, it + j, k, rep))
                rep++;
            if (rep < ROLL_MIN_REPEAT || rep * k < ROLL_MIN_LINES || rep * k <= best_rep * best_k)
                continue;
            if (!temps_ok(r, it + j, k, rep))
                continue;
            best_k = k;
            best_rep = rep;
        }
        if (!best_k) {
            for (int li = lead[j]; li <= it[j]; li++)
                put_line(r, &r->lines[li]);
            j++;
            continue;
        }
        group_steps(r, it + j, best_k);     /* the chosen size's steps again */
        put_loop(r, it + j, lead + j, best_k, best_rep);
        j += best_rep * best_k;
    }
}

void cp_roll(CpBuf *b, size_t from)
{
    static int enabled = -1;
    if (enabled < 0) {
        const char *env = getenv("LMDL_ROLL");
        enabled = !(env && !strcmp(env, "no"));
    }
    if (!enabled || b->over)
        return; /* the text stopped at the limit: nothing to roll */
    Roll r = {0};
    /* the lines */
    int cap = 0;
    for (size_t at = from; at < b->n;) {
        const char *nl = memchr(b->s + at, '\n', b->n - at);
        size_t end = nl ? (size_t)(nl - b->s) : b->n;
        if (r.nlines == cap) {
            cap = cap ? 2 * cap : 256;
            r.lines = realloc(r.lines, (size_t)cap * sizeof *r.lines);
            if (!r.lines)
                abort();
        }
        RollLine *l = &r.lines[r.nlines++];
        *l = (RollLine){.s = b->s + at, .n = end - at, .kind = LINE_OTHER};
        if (l->n > 4 && !memcmp(l->s, "    ", 4)) {
            const char *s = l->s + 4;
            size_t n = l->n - 4;
            if (n >= 4 && s[0] == '/' && s[1] == '*' && s[n - 2] == '*' && s[n - 1] == '/')
                l->kind = LINE_COMMENT;
            else if (simple_line(s, n))
                l->kind = LINE_SIMPLE;
        }
        at = nl ? end + 1 : b->n;
    }
    for (int i = 0; i < r.nlines; i++)
        if (r.lines[i].kind == LINE_SIMPLE)
            normalize(&r, &r.lines[i]);
    /* the temporaries' last reads */
    for (int i = 0; i < r.nnums; i++)
        if (r.nums[i].temp && r.nums[i].v + 1 > r.ntemps)
            r.ntemps = r.nums[i].v + 1;
    bool any = false;
    for (int i = 0; i + 1 < r.nlines && !any; i++)
        any = r.lines[i].kind == LINE_SIMPLE && r.lines[i + 1].kind != LINE_OTHER;
    if (!any || r.nlines < ROLL_MIN_LINES) {
        free(r.lines);
        free(r.nums);
        free(r.norm.s);
        return;
    }
    r.last_read = calloc((size_t)r.ntemps + 1, sizeof *r.last_read);
    int *it = malloc((size_t)r.nlines * sizeof *it), *lead = malloc((size_t)r.nlines * sizeof *lead);
    if (!r.last_read || !it || !lead)
        abort();
    for (int i = 0; i < r.nlines; i++)
        if (r.lines[i].kind != LINE_COMMENT)
            note_reads(&r, i);
    /* stretches of simple lines (and comments) between other lines */
    int m = 0, pending = -1;
    for (int i = 0; i <= r.nlines; i++) {
        int kind = i < r.nlines ? r.lines[i].kind : LINE_OTHER;
        if (kind == LINE_COMMENT) {
            if (pending < 0)
                pending = i;
            continue;
        }
        if (kind == LINE_SIMPLE) {
            lead[m] = pending >= 0 ? pending : i;
            it[m++] = i;
            pending = -1;
            continue;
        }
        roll_stretch(&r, it, lead, m);
        m = 0;
        if (pending >= 0)
            for (int li = pending; li < i; li++)
                put_line(&r, &r.lines[li]);
        pending = -1;
        if (i < r.nlines)
            put_line(&r, &r.lines[i]);
    }
    /* the text after the last newline had none */
    if (b->n > from && b->s[b->n - 1] != '\n' && r.out.n > 0)
        r.out.n--;
    b->n = from;
    cp_put(b, r.out.s ? r.out.s : "", r.out.n);
    free(r.out.s);
    free(r.lines);
    free(r.nums);
    free(r.norm.s);
    free(r.last_read);
    free(r.step);
    free(it);
    free(lead);
}
