/*
 * cprint.c - the C printer: the output buffer, string literals and
 * numbers, expressions with their shared subexpressions, and functions
 * split into bounded parts (cprint.h).
 *
 * Expressions are DAG nodes.  Within one function, a node used more than
 * once is computed once into a local `const double tN`: cp_count counts
 * the uses of everything a function will print, cp_temps prints the
 * shared nodes under an expression (children first) just before the
 * statement that needs them, and cp_expr prints the expression reading
 * those locals.  Relations read the frozen mode md[k] when `modes` is set
 * (eval), and are evaluated otherwise (zero-crossing functions).
 */
#include "cprint.h"

#include "rt_dtoa.h"

#include <math.h>
#include <stdarg.h>
#include "bounds.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t cp_c_limit(void)
{
    const char *e = getenv("LMDL_MAX_C_BYTES");
    char *end;
    unsigned long long v = e && *e ? strtoull(e, &end, 10) : 0;
    return e && *e && !*end && v > 0 && v < LIMIT_C_BYTES ? (size_t)v : LIMIT_C_BYTES;
}

void cp_put_slow(CpBuf *b, const char *s, size_t n)
{
    if (!b->limit)
        b->limit = cp_c_limit();
    if (b->over || b->n + n >= b->limit) {
        b->over = true;
        return;
    }
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 65536;
        while (b->n + n + 1 > cap)
            cap *= 2;
        b->s = realloc(b->s, cap);
        if (!b->s)
            abort();
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

void cp_put_long(CpBuf *b, long v)
{
    char text[24], *p = text;
    if (v < 0)
        *p++ = '-';
    p = mem_decimal(p, v < 0 ? 0ul - (unsigned long)v : (unsigned long)v);
    cp_put(b, text, (size_t)(p - text));
}

/* The rest of a format, from a conversion the fast path does not know. */
static void emit_rest(CpBuf *b, const char *fmt, va_list ap)
{
    char small[512];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n < (int)sizeof small) {
        cp_put(b, small, (size_t)n);
    } else {
        char *big = malloc((size_t)n + 1);
        if (!big)
            abort();
        vsnprintf(big, (size_t)n + 1, fmt, again);
        cp_put(b, big, (size_t)n);
        free(big);
    }
    va_end(again);
}

/* Most of the output is literal text, %d and %s: those are copied here
   (vsnprintf, the slow part of emitting, does the rest). */
void cp_emit(CPrint *cg, const char *fmt, ...)
{
    CpBuf *b = &cg->buf;
    va_list ap;
    va_start(ap, fmt);
    const char *run = fmt;
    for (const char *f = fmt;; f++) {
        if (*f && *f != '%')
            continue;
        if (f > run)
            cp_put(b, run, (size_t)(f - run));
        if (!*f)
            break;
        if (f[1] == 'd') {
            cp_put_long(b, va_arg(ap, int));
        } else if (f[1] == 's') {
            const char *s = va_arg(ap, const char *);
            cp_put(b, s, strlen(s));
        } else if (f[1] == 'c') {
            char c = (char)va_arg(ap, int);
            cp_put(b, &c, 1);
        } else if (f[1] == '%') {
            cp_put(b, "%", 1);
        } else {
            emit_rest(b, f, ap);
            break;
        }
        f++;
        run = f + 1;
    }
    va_end(ap);
}

/* A C string literal: quotes, backslashes, '?' (trigraphs), newlines and
   every byte outside printable ASCII are escaped, so no model text can end
   the literal or change what the program means. */
void cp_str(CPrint *cg, const char *s)
{
    cp_put(&cg->buf, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
        char esc[8];
        /* a run of bytes that need no escape, at once */
        const unsigned char *q = p;
        while (*q >= 0x20 && *q < 0x7f && *q != '"' && *q != '\\' && *q != '?')
            q++;
        if (q > p) {
            cp_put(&cg->buf, (const char *)p, (size_t)(q - p));
            p = q - 1;
            continue;
        }
        if (*p == '"' || *p == '\\') {
            esc[0] = '\\';
            esc[1] = (char)*p;
            cp_put(&cg->buf, esc, 2);
        } else if (*p == '?') {
            cp_put(&cg->buf, "\\?", 2);
        } else { /* outside printable ASCII */
            snprintf(esc, sizeof esc, "\\%03o", *p);
            cp_put(&cg->buf, esc, 4);
        }
    }
    cp_put(&cg->buf, "\"", 1);
}

/* The shortest decimal that reads back as v (runtime/common/rt_dtoa.c), which
   C reads back as v too. */
void cp_num(CPrint *cg, double v)
{
    if (isnan(v)) {
        cp_emit(cg, "NAN");
    } else if (isinf(v)) {
        cp_emit(cg, v > 0 ? "INFINITY" : "(-INFINITY)");
    } else {
        char buf[RT_DTOA_SIZE];
        int n = rt_dtoa(v, buf);
        cp_put(&cg->buf, buf, (size_t)n);
    }
}

/* The constant slot of e + 1, or 0 when e is no constant here. */
static int const_slot(const CPrint *cg, const DaeExpr *e)
{
    return cg->consts_of ? (int)(intptr_t)ptrmap_get(cg->consts_of, e) : 0;
}

/* Where e's value already is in out[] (CPrint.named): 1 + k, or 0. */
static int named_slot(const CPrint *cg, const DaeExpr *e)
{
    return cg->named ? (int)(intptr_t)ptrmap_get(cg->named, e) : 0;
}

void cp_count(CPrint *cg, DaeExpr *e)
{
    if (dae_is_leaf(e) || const_slot(cg, e) || named_slot(cg, e))
        return; /* read where used, never a temporary */
    intptr_t n = (intptr_t)ptrmap_get(&cg->uses, e);
    ptrmap_put(&cg->uses, e, (void *)(n + 1));
    if (n > 0)
        return;
    if (cg->modes && ptrmap_get(cg->modes_of, e))
        return; /* read as md[k] */
    DaeExpr *ops[5];
    for (int i = 0, no = dae_operands(e, ops); i < no; i++)
        cp_count(cg, ops[i]);
}

/* A table's grid as rt_grid_segment and rt_grid_crossing take it. */
static void put_grid(CPrint *cg, const DaeTable *tb, int axis)
{
    cp_emit(cg, "p + %d, %d, ", tb->grid[axis], tb->n[axis]);
}

void cp_raw(CPrint *cg, DaeExpr *e)
{
    switch (e->kind) {
    case DX_CONST: cp_num(cg, e->u.value); return;
    case DX_PARAM: cp_emit(cg, "p[%d]", e->u.index); return;
    case DX_TIME: cp_emit(cg, "t"); return;
    case DX_EVAR: cp_emit(cg, cg->md ? "e->ev_pre[%d]" : "e->ev[%d]", e->u.evar.index); return;
    case DX_INITIAL: cp_emit(cg, "initial"); return;
    case DX_DELAY:
        /* the runtime interpolates the history of u at t - tau */
        cp_emit(cg, "rt_delay(e, %d, ", (int)(intptr_t)ptrmap_get(cg->delays_of, e) - 1);
        cp_expr(cg, e->u.cond.a);
        cp_emit(cg, ")");
        return;
    case DX_EDGE: {
        /* b now and not at the previous iteration; no temporaries are
           made in the update function, so both read their own modes */
        const char *md = cg->md;
        cp_emit(cg, "(");
        cp_expr(cg, e->u.bin.a);
        cg->md = "pre";
        cp_emit(cg, " && !");
        cp_expr(cg, e->u.bin.a);
        cg->md = md;
        cp_emit(cg, ")");
        return;
    }
    case DX_VAR: cg->var(cg->var_ctx, cg, e->u.var.index, e->u.var.order); return;
    case DX_NEG: cp_emit(cg, "(-"); cp_expr(cg, e->u.bin.a); cp_emit(cg, ")"); return;
    case DX_NOT: cp_emit(cg, "(!"); cp_expr(cg, e->u.bin.a); cp_emit(cg, ")"); return;
    case DX_POW:
        cp_emit(cg, "pow(");
        cp_expr(cg, e->u.bin.a);
        cp_emit(cg, ", ");
        cp_expr(cg, e->u.bin.b);
        cp_emit(cg, ")");
        return;
    case DX_FUNC:
        cp_emit(cg, "%s(", builtin_c_names[e->u.fn.fn]);
        cp_expr(cg, e->u.fn.a);
        if (e->u.fn.b) {
            cp_emit(cg, ", ");
            cp_expr(cg, e->u.fn.b);
        }
        cp_emit(cg, ")");
        return;
    case DX_SEGMENT:
        if (cg->modes) {
            void *k = ptrmap_get(cg->modes_of, e);
            if (k) {
                cp_emit(cg, "%s[%d]", cg->md ? cg->md : "md", (int)(intptr_t)k - 1);
                return;
            }
        }
        cp_emit(cg, "rt_grid_segment(");
        put_grid(cg, e->u.seg.tab, e->u.seg.axis);
        cp_expr(cg, e->u.seg.x);
        cp_emit(cg, ")");
        return;
    case DX_LOOKUP: {
        DaeExpr *s1 = e->u.look.s1, *s2 = e->u.look.s2;
        cp_emit(cg, "rt_lookup(&tables[%d], p, %s, ", s1->u.seg.tab->index,
                cg->eval_ctx ? "e" : "NULL");
        cp_expr(cg, s1);
        cp_emit(cg, ", ");
        if (s2)
            cp_expr(cg, s2);
        else
            cp_emit(cg, "0");
        cp_emit(cg, ", ");
        cp_expr(cg, s1->u.seg.x);
        cp_emit(cg, ", ");
        if (s2)
            cp_expr(cg, s2->u.seg.x);
        else
            cp_emit(cg, "0.0");
        cp_emit(cg, ", %d, %d)", e->u.look.d1, e->u.look.d2);
        return;
    }
    case DX_IF:
        cp_emit(cg, "(");
        cp_expr(cg, e->u.cond.c);
        cp_emit(cg, " ? ");
        cp_expr(cg, e->u.cond.a);
        cp_emit(cg, " : ");
        cp_expr(cg, e->u.cond.b);
        cp_emit(cg, ")");
        return;
    default:
        if (cg->modes) {
            void *k = ptrmap_get(cg->modes_of, e);
            if (k) {
                cp_emit(cg, "%s[%d]", cg->md ? cg->md : "md", (int)(intptr_t)k - 1);
                return;
            }
        }
        /* a quotient by a constant multiplies by its reciprocal, computed
           once (plan_eval.c) */
        if (e->kind == DX_DIV && cg->consts_of && cg->recips) {
            DaeExpr *r = ptrmap_get(cg->recips, e);
            if (r) {
                cp_emit(cg, "(");
                cp_expr(cg, e->u.bin.a);
                cp_emit(cg, " * ");
                cp_expr(cg, r);
                cp_emit(cg, ")");
                return;
            }
        }
        /* a quotient of constants left unfolded is not finite (1 / 0):
           its value, since C would divide the integers 1 and 0 */
        if (e->kind == DX_DIV && e->u.bin.a->kind == DX_CONST
            && e->u.bin.b->kind == DX_CONST) {
            cp_num(cg, e->u.bin.a->u.value / e->u.bin.b->u.value);
            return;
        }
        cp_emit(cg, "(");
        cp_expr(cg, e->u.bin.a);
        cp_emit(cg, " %s ", dae_kind_cop[e->kind]);
        cp_expr(cg, e->u.bin.b);
        cp_emit(cg, ")");
        return;
    }
}

void cp_expr(CPrint *cg, DaeExpr *e)
{
    if (dae_is_leaf(e)) {
        if (e->kind == DX_PARAM && cg->param_copy && cg->param_copy[e->u.index])
            cp_emit(cg, "p[%d]", cg->consts_base + cg->param_copy[e->u.index] - 1);
        else
            cp_raw(cg, e);
        return;
    }
    int k = const_slot(cg, e);
    if (k) {
        cp_emit(cg, "p[%d]", cg->consts_base + k - 1);
        return;
    }
    if ((k = named_slot(cg, e)) != 0) {
        cp_emit(cg, "out[%d]", k - 1);
        return;
    }
    void *tnum = ptrmap_get(&cg->temp, e);
    if (tnum) {
        cp_emit(cg, "t%d", (int)(intptr_t)tnum - 1);
        return;
    }
    cp_raw(cg, e);
}

/* Emits temporaries for the shared nodes under e, children first. */
void cp_temps(CPrint *cg, DaeExpr *e)
{
    if (dae_is_leaf(e) || const_slot(cg, e) || named_slot(cg, e) || ptrmap_get(&cg->temp, e))
        return;
    if (cg->modes && ptrmap_get(cg->modes_of, e))
        return;
    DaeExpr *ops[5];
    for (int i = 0, n = dae_operands(e, ops); i < n; i++)
        cp_temps(cg, ops[i]);
    if ((intptr_t)ptrmap_get(&cg->uses, e) > 1) {
        int k = cg->ntemps++;
        cp_emit(cg, "    const double t%d = ", k);
        cp_raw(cg, e);
        cp_emit(cg, ";\n");
        ptrmap_put(&cg->temp, e, (void *)(intptr_t)(k + 1));
    }
}

/* Forgets the shared nodes seen so far (temporaries keep their numbers,
   which stay unique within the C function). */
void cp_reset(CPrint *cg)
{
    /* emptied, their slots kept: a model resets them per statement */
    ptrmap_clear(&cg->uses);
    ptrmap_clear(&cg->temp);
}

void cp_begin_function(CPrint *cg)
{
    cp_reset(cg);
    cg->ntemps = 0;
}

/* The usual locals of a function over an RtEval. */
void cp_locals(CPrint *cg, bool writable_alg)
{
    /* restrict: the arrays never overlap, which spares the C compiler's
       alias analysis on long straight-line code */
    cp_emit(cg, "    const double t = e->t;\n");
    cp_emit(cg, "    const double *restrict x = e->x;\n");
    cp_emit(cg, "    const double *restrict p = e->p;\n");
    cp_emit(cg, "    %sdouble *restrict a = e->alg;\n", writable_alg ? "" : "const ");
    cp_emit(cg, "    const int *md = e->modes;\n");
    cp_emit(cg, "    (void)t; (void)x; (void)p; (void)a; (void)md;\n");
}

static void chunk_open(CPrint *cg, CpChunk *c)
{
    cp_emit(cg, "static %s %s", c->is_int ? "int" : "void", c->name);
    if (c->parts == 0)
        c->suffix_at = cg->buf.n; /* where "_0" goes, removed if it stays alone */
    cp_emit(cg, "_%d(%s)\n{\n%s", c->parts, c->params, c->prologue);
    c->body_at = cg->buf.n;
    c->parts++;
    c->items = 0;
}

static void chunk_close(CPrint *cg, CpChunk *c)
{
    cp_roll(&cg->buf, c->body_at);
    cp_emit(cg, c->is_int ? "    return -1;\n}\n\n" : "}\n\n");
}

void cp_chunk_begin(CPrint *cg, CpChunk *c)
{
    c->parts = 0;
    chunk_open(cg, c);
}

/* Call before each item's statements. */
void cp_chunk_item(CPrint *cg, CpChunk *c)
{
    if (c->items == (c->max_items > 0 ? c->max_items : CHUNK_ITEMS)) {
        chunk_close(cg, c);
        chunk_open(cg, c);
    }
    c->items++;
}

void cp_chunk_end(CPrint *cg, CpChunk *c)
{
    chunk_close(cg, c);
    if (cg->buf.over)
        return; /* the text stopped at the limit: nothing to edit in place */
    if (c->parts == 1) {
        /* one part is the function itself: name_0 becomes name */
        CpBuf *b = &cg->buf;
        memmove(b->s + c->suffix_at, b->s + c->suffix_at + 2, b->n - c->suffix_at - 2 + 1);
        b->n -= 2;
        return;
    }
    cp_emit(cg, "static %s %s(%s)\n{\n", c->is_int ? "int" : "void", c->name, c->params);
    if (c->is_int)
        cp_emit(cg, "    int r;\n");
    for (int i = 0; i < c->parts; i++) {
        if (c->is_int)
            cp_emit(cg, "    if ((r = %s_%d(%s)) >= 0) return r;\n", c->name, i, c->args);
        else
            cp_emit(cg, "    %s_%d(%s);\n", c->name, i, c->args);
    }
    cp_emit(cg, c->is_int ? "    return -1;\n}\n\n" : "}\n\n");
}

/* ---- the string pool ------------------------------------------------------ */

/* A pooled string: its text and, once defined, where: byte `offset` of
   the array pool<array>. */
struct CpPoolEntry {
    char *text;             /* the string */
    uint64_t hash;          /* cp_hash(text) */
    int array;              /* the pool array that holds it, or -1 */
    size_t offset;          /* its first byte there */
    bool own;               /* a definition of its own (s<id>), not in an
                               array: a path, whose length varies */
    size_t text_at;         /* its offset in the text pool, 0: not there */
};

uint64_t cp_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* The id of s (pool[id]), made when new: pool_slots maps hashes to
   1 + id by open addressing. */
static int pool_id(CPrint *cg, const char *s)
{
    uint64_t h = cp_hash(s);
    if (2 * (cg->pool_n + 1) > cg->pool_cap) {
        size_t cap = cg->pool_cap ? 2 * cg->pool_cap : 1024;
        int *slots = calloc(cap, sizeof *slots);
        cg->pool = realloc(cg->pool, cap / 2 * sizeof *cg->pool);
        if (!slots || !cg->pool)
            abort();
        for (size_t id = 0; id < cg->pool_n; id++) {
            size_t j = cg->pool[id].hash & (cap - 1);
            while (slots[j])
                j = (j + 1) & (cap - 1);
            slots[j] = (int)id + 1;
        }
        free(cg->pool_slots);
        cg->pool_slots = slots;
        cg->pool_cap = cap;
    }
    size_t j = h & (cg->pool_cap - 1);
    for (; cg->pool_slots[j]; j = (j + 1) & (cg->pool_cap - 1)) {
        const struct CpPoolEntry *e = &cg->pool[cg->pool_slots[j] - 1];
        if (e->hash == h && !strcmp(e->text, s))
            return cg->pool_slots[j] - 1;
    }
    int id = (int)cg->pool_n++;
    cg->pool[id].text = strdup(s);
    if (!cg->pool[id].text)
        abort();
    cg->pool[id].hash = h;
    cg->pool[id].array = -1;
    cg->pool[id].own = false;
    cg->pool[id].text_at = 0;
    cg->pool_slots[j] = id + 1;
    return id;
}

size_t cp_pool_begin(CPrint *cg)
{
    cg->npending = 0;
    cg->pool_fill = 0;
    return cg->buf.n;
}

/* s appended to the text pool: its offset. */
static size_t text_add(CPrint *cg, const char *s)
{
    if (!*s)
        return 0;   /* the pool's first byte, a NUL */
    size_t at = 1 + cg->texts_size;
    CpBuf keep = cg->buf;
    cg->buf = cg->texts;
    cp_emit(cg, "\n    ");
    cp_str(cg, s);
    if (!cg->buf.over)
        cg->buf.n--; /* the closing quote: the NUL goes inside */
    cp_put(&cg->buf, "\\0\"", 3);
    cg->texts = cg->buf;
    cg->buf = keep;
    if (cg->texts.over)
        cg->buf.over = true;
    cg->texts_size += strlen(s) + 1;
    return at;
}

void cp_text(CPrint *cg, const char *s)
{
    cp_put_long(&cg->buf, (long)text_add(cg, s ? s : ""));
}

void cp_texts_end(CPrint *cg)
{
    cp_emit(cg, "static const char texts[] =\n    \"\\0\"");
    if (cg->texts.n && !cg->texts.over)
        cp_put(&cg->buf, cg->texts.s, cg->texts.n);
    cp_emit(cg, ";\n\n");
}

/* pool[id] as a reference into the pool; own: in a definition of its own. */
static void pool_ref(CPrint *cg, int id, bool own)
{
    struct CpPoolEntry *e = &cg->pool[id];
    if (cg->offsets) {
        if (!e->text_at && e->text[0])
            e->text_at = text_add(cg, e->text);
        cp_put_long(&cg->buf, (long)e->text_at);
        return;
    }
    if (e->array < 0) {
        /* new: it goes into the array this table's strings start, or a
           definition of its own */
        e->array = cg->pool_arrays;
        e->own = own;
        e->offset = own ? 0 : cg->pool_fill;
        cg->pool_fill += own ? 0 : strlen(e->text) + 1;
        if (cg->npending == cg->cap_pending) {
            cg->cap_pending = cg->cap_pending ? 2 * cg->cap_pending : 256;
            cg->pending = realloc(cg->pending, sizeof *cg->pending * (size_t)cg->cap_pending);
            if (!cg->pending)
                abort();
        }
        cg->pending[cg->npending++] = id;
    }
    if (e->own) {
        cp_put(&cg->buf, "s", 1);
        cp_put_long(&cg->buf, id);
        return;
    }
    cp_put(&cg->buf, "pool", 4);
    cp_put_long(&cg->buf, e->array);
    if (e->offset) {
        cp_put(&cg->buf, " + ", 3);
        cp_put_long(&cg->buf, (long)e->offset);
    }
}

static void pstr(CPrint *cg, const char *s, bool own)
{
    pool_ref(cg, pool_id(cg, s ? s : ""), own);
}

void cp_pstr(CPrint *cg, const char *s)
{
    pstr(cg, s, false);
}

void cp_pool_end(CPrint *cg, size_t at)
{
    if (!cg->npending || cg->buf.over) {
        cg->npending = 0;
        return;
    }
    /* the table's new strings, one array printed at the end and moved in
       front of the table: each string a literal of its own ending in a
       NUL, so no escape runs into the next */
    size_t table = cg->buf.n - at;
    bool array = false;
    for (int i = 0; i < cg->npending; i++) {
        const struct CpPoolEntry *e = &cg->pool[cg->pending[i]];
        if (!e->own)
            continue;
        cp_emit(cg, "static const char s%d[] = ", cg->pending[i]);
        cp_str(cg, e->text);
        cp_emit(cg, ";\n");
    }
    for (int i = 0; i < cg->npending; i++) {
        const struct CpPoolEntry *e = &cg->pool[cg->pending[i]];
        if (e->own)
            continue;
        if (!array)
            cp_emit(cg, "static const char pool%d[] =", cg->pool_arrays);
        array = true;
        cp_emit(cg, "\n    ");
        CpBuf *b = &cg->buf;
        cp_str(cg, e->text);
        if (!b->over)
            b->n--; /* the closing quote: the NUL goes inside */
        cp_put(b, "\\0\"", 3);
    }
    if (array)
        cp_emit(cg, ";\n");
    cp_emit(cg, "\n");
    cg->pool_arrays++;
    if (cg->buf.over) {
        cg->npending = 0;
        return; /* the limit was reached on the way: no text to move */
    }
    size_t defs = cg->buf.n - at - table;
    char *tmp = malloc(table);
    if (!tmp)
        abort();
    memcpy(tmp, cg->buf.s + at, table);
    memmove(cg->buf.s + at, cg->buf.s + at + table, defs);
    memcpy(cg->buf.s + at + defs, tmp, table);
    free(tmp);
    cg->npending = 0;
}

void cp_pool_free(CPrint *cg)
{
    for (size_t i = 0; i < cg->pool_n; i++)
        free(cg->pool[i].text);
    free(cg->pool);
    free(cg->pool_slots);
    free(cg->pending);
    free(cg->loc_seen[0]);
    free(cg->loc_seen[1]);
    cg->loc_seen[0] = cg->loc_seen[1] = NULL;
    cg->pool = NULL;
    cg->pool_slots = NULL;
    cg->pending = NULL;
    cg->pool_cap = cg->pool_n = 0;
    free(cg->texts.s);
    cg->texts = (CpBuf){0};
    cg->texts_size = 0;
}

char *cp_source_text(SrcSpan sp)
{
    SrcFile *f = src_get(sp.file);
    if (!f || sp.end <= sp.begin || sp.end > f->len)
        return strdup("?");
    size_t n = sp.end - sp.begin;
    char *s = malloc(n + 1);
    if (!s)
        abort();
    size_t k = 0;
    bool space = false;
    for (size_t i = 0; i < n; i++) {
        char c = f->text[sp.begin + i];
        if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
            space = true;
            continue;
        }
        if (space && k)
            s[k++] = ' ';
        space = false;
        s[k++] = c;
    }
    s[k] = 0;
    return s;
}

enum { LOC_SEEN = 1024 };

/* The slot of (file, off) among the recent locations of kind k, and
   whether it holds that location's pool id. */
static struct CpLocSeen *loc_seen(CPrint *cg, int k, int file, uint32_t off, bool *hit)
{
    if (!cg->loc_seen[k]) {
        cg->loc_seen[k] = malloc(LOC_SEEN * sizeof *cg->loc_seen[k]);
        if (!cg->loc_seen[k])
            abort();
        for (int i = 0; i < LOC_SEEN; i++)
            cg->loc_seen[k][i].file = -1;
    }
    uint32_t h = (off ^ (uint32_t)file * 0x9E3779B9u) * 2654435761u;
    struct CpLocSeen *c = &cg->loc_seen[k][h >> 22];
    *hit = c->file == file && c->off == off;
    return c;
}

void cp_location(CPrint *cg, SrcSpan sp)
{
    SrcFile *f = src_get(sp.file);
    if (!f) {
        cp_pstr(cg, "");
        return;
    }
    bool hit;
    struct CpLocSeen *seen = loc_seen(cg, 0, sp.file, sp.begin, &hit);
    if (hit) {
        pool_ref(cg, seen->id, true);
        return;
    }
    int line, col;
    src_linecol(sp, &line, &col);
    /* "path:line:col", written by hand: this runs for every row of the
       tables, and snprintf was a tenth of emit-c */
    size_t n = strlen(f->path);
    char small[512], *s = n + 32 <= sizeof small ? small : malloc(n + 32);
    if (!s)
        abort();
    memcpy(s, f->path, n);
    char *p = s + n;
    *p++ = ':';
    p = mem_decimal(p, (unsigned)line);
    *p++ = ':';
    p = mem_decimal(p, (unsigned)col);
    *p = 0;
    *seen = (struct CpLocSeen){sp.file, sp.begin, pool_id(cg, s)};
    pool_ref(cg, seen->id, true);
    if (s != small)
        free(s);
}

void cp_location_end(CPrint *cg, SrcSpan sp)
{
    if (!src_get(sp.file)) {
        cp_emit(cg, cg->offsets ? ", 0" : ", NULL");
        return;
    }
    uint32_t end = sp.end < sp.begin ? sp.begin : sp.end;
    cp_put(&cg->buf, ", ", 2);
    bool hit;
    struct CpLocSeen *seen = loc_seen(cg, 1, sp.file, end, &hit);
    if (!hit) {
        int line, col;
        src_linecol((SrcSpan){sp.file, end, end}, &line, &col);
        char buf[32], *p = mem_decimal(buf, (unsigned)line);
        *p++ = ':';
        *mem_decimal(p, (unsigned)col) = 0;
        *seen = (struct CpLocSeen){sp.file, end, pool_id(cg, buf)};
    }
    pool_ref(cg, seen->id, false);
}

void cp_comment(CPrint *cg, const char *s)
{
    /* the text can neither close the comment nor open a nested one (a
       warning), nor hold a control character or trigraph: runs of plain
       characters go out at once, the rest one by one */
    const unsigned char *q = (const unsigned char *)s;
    while (q && *q) {
        const unsigned char *run = q;
        /* a '*', '/' or '?' is plain unless the next character makes a
           pair with it (a path's slashes are) */
        while (*q >= 0x20 && *q < 0x7f
               && !((*q == '*' && q[1] == '/') || (*q == '/' && q[1] == '*')
                    || (*q == '?' && q[1] == '?')))
            q++;
        if (q > run)
            cp_put(&cg->buf, (const char *)run, (size_t)(q - run));
        if (!*q)
            break;
        char c = *q < 0x20 || *q >= 0x7f ? ' ' : (char)*q;
        cp_put(&cg->buf, &c, 1);
        if ((c == '*' && q[1] == '/') || (c == '/' && q[1] == '*')
            || (c == '?' && q[1] == '?'))
            cp_put(&cg->buf, " ", 1);
        q++;
    }
}

void cp_comment_var(CPrint *cg, const char *name, int order)
{
    for (int i = 0; i < order; i++)
        cp_put(&cg->buf, "der(", 4);
    cp_comment(cg, name);
    for (int i = 0; i < order; i++)
        cp_put(&cg->buf, ")", 1);
}

/* Separator before element i of a long initializer, 20 to a line. */
const char *cp_list_sep(int i)
{
    return i == 0 ? "\n    " : i % 20 ? ", " : ",\n    ";
}

void cp_int_array(CPrint *cg, const char *name, const int *v, int n)
{
    cp_emit(cg, "static const int %s[] = {", name);
    for (int i = 0; i < n; i++)
        cp_emit(cg, "%s%d", cp_list_sep(i), v[i]);
    cp_emit(cg, "%s\n};\n\n", n ? "" : "0");
}
