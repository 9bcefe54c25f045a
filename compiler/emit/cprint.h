/*
 * cprint.h - the C printer behind codegen: a growing buffer, escaped
 * string literals, numbers, DAE expressions with shared subexpressions,
 * and functions split into parts of bounded size (cprint.c).
 *
 * No model text becomes C code here: variables print through a callback
 * as array slots, and every string goes through cp_str.
 */
#ifndef LMDL_CPRINT_H
#define LMDL_CPRINT_H

#include "dae.h"

#include <stdbool.h>
#include <string.h>

/* The growing output buffer. */
typedef struct CpBuf {
    char *s;                /* the text, NUL-terminated */
    size_t n, cap;          /* used and allocated bytes */
    size_t limit;           /* the most bytes it may hold: LIMIT_C_BYTES,
                               or less ($LMDL_MAX_C_BYTES); 0 until set */
    bool over;              /* the text would pass the limit: nothing more
                               is kept, and codegen gives no C */
} CpBuf;

typedef struct CPrint CPrint;

/* Prints the leaf for variable (var, order): an array slot. */
typedef void (*CpVarFn)(void *ctx, CPrint *p, int var, int order);

struct CPrint {
    CpBuf buf;              /* the C text */
    CpVarFn var;            /* prints variable leaves */
    void *var_ctx;          /* for var */
    const PtrMap *modes_of; /* relation node -> 1 + its mode index */
    const PtrMap *delays_of; /* DX_DELAY node -> 1 + its history buffer */
    const PtrMap *consts_of; /* a constant of parameters -> 1 + k: read as
                               p[consts_base + k] (Plan.consts); NULL in
                               functions that may run before they are set */
    int consts_base;        /* the parameters' count */
    const int *param_copy;  /* per parameter: 1 + k when it is read from
                               its copy p[consts_base + k] (Plan.solver_copy),
                               or 0; NULL: every parameter in place */
    const PtrMap *recips;   /* with consts_of: a quotient -> the constant
                               reciprocal of its divisor (Plan.recips) */
    bool modes;             /* relations read md[] (true) or are evaluated */
    bool eval_ctx;          /* a function with a writable RtEval *e (eval, the
                               loop functions): tables report a query outside
                               their grid through it (rt_lookup) */
    const char *md;         /* the modes array relations read: "md" when
                               NULL; edge(b) prints b twice, with md and
                               with "pre" (the update function) */
    /* the string pool (cp_pstr): each distinct string of the tables is
       written once, in an array `static const char poolK[]` of the NUL-
       terminated strings a table uses first, printed before that table */
    struct CpPoolEntry *pool;   /* by id: pool_n strings */
    int *pool_slots;        /* hash -> 1 + id, open addressing, pool_cap */
    size_t pool_cap, pool_n;
    int *pending;           /* strings of the array being made */
    int npending, cap_pending;
    int pool_arrays;        /* arrays made (K of the next one) */
    size_t pool_fill;       /* bytes in the array being made */
    /* the text pool: with `offsets` set, cp_pstr, cp_location and
       cp_location_end print a string as its offset in one array, `texts`
       (cp_texts_end prints it), for the tables the runtime reads as
       offsets: no pointers, so nothing for the loader to relocate */
    bool offsets;
    CpBuf texts;            /* the array's literal, after its first NUL */
    size_t texts_size;      /* its bytes after the first NUL: the next
                               string's offset is 1 + texts_size */
    /* the pool ids of recent locations (cp_location: [0], "path:line:col";
       cp_location_end: [1], "line:col"), by file and offset, direct-mapped:
       a chain's blocks repeat a few source lines thousands of times */
    struct CpLocSeen { int file; uint32_t off; int id; } *loc_seen[2];
    /* per-function common subexpressions */
    const PtrMap *named;    /* node -> 1 + k: its value is already out[k]
                               (columns(): an earlier column of the same
                               part), read as that; NULL elsewhere */
    PtrMap uses;            /* node -> use count (as intptr) */
    PtrMap temp;            /* node -> 1 + temp number */
    int ntemps;             /* temporaries made in the current function */
};

/* The most bytes of C codegen writes: LIMIT_C_BYTES, or the smaller
   $LMDL_MAX_C_BYTES. */
size_t cp_c_limit(void);
void cp_put_slow(CpBuf *b, const char *s, size_t n);
/* Appends n bytes of s: inline while they fit (nearly every call), else
   cp_put_slow grows the buffer or marks it over its limit. */
static inline void cp_put(CpBuf *b, const char *s, size_t n)
{
    if (b->n + n < b->limit && b->n + n + 1 <= b->cap && !b->over) {
        memcpy(b->s + b->n, s, n);
        b->n += n;
        b->s[b->n] = 0;
        return;
    }
    cp_put_slow(b, s, n);
}
/* Appends v in decimal (what %d and %ld print, without snprintf). */
void cp_put_long(CpBuf *b, long v);
void cp_emit(CPrint *cg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A C string literal: quotes, backslashes, '?' (trigraphs), newlines and
   every byte outside printable ASCII are escaped. */
void cp_str(CPrint *cg, const char *s);
void cp_num(CPrint *cg, double v);

/* Counts the uses of e's nodes, for the shared subexpressions. */
void cp_count(CPrint *cg, DaeExpr *e);
/* Prints the temporaries for the shared nodes under e, children first. */
void cp_temps(CPrint *cg, DaeExpr *e);
/* Prints e, reading the temporaries made so far. */
void cp_expr(CPrint *cg, DaeExpr *e);
/* Prints e's own operator over its children (never its temporary). */
void cp_raw(CPrint *cg, DaeExpr *e);
/* Forgets the shared nodes seen so far; temporaries keep their numbers. */
void cp_reset(CPrint *cg);
/* cp_reset, and temporaries numbered from 0 again. */
void cp_begin_function(CPrint *cg);
/* The usual locals of a function over an RtEval. */
void cp_locals(CPrint *cg, bool writable_alg);

/* Functions with one statement per item (columns, start values, zero
   crossings, ...) are split into parts of CHUNK_ITEMS statements and a
   function that calls the parts, so no C function grows with the model
   and the C compiler's time stays linear.  A function of one part is not
   wrapped: the part takes the function's name. */
enum { CHUNK_ITEMS = 100 };

typedef struct CpChunk {
    const char *name;       /* the function the descriptor points to */
    const char *params;     /* its parameter list */
    const char *args;       /* the same names, to pass to the parts */
    const char *prologue;   /* locals at the top of every part */
    bool is_int;            /* parts return an index, or -1 for none */
    int max_items;          /* statements per part: CHUNK_ITEMS if 0 */
    int parts;              /* parts emitted */
    int items;              /* items in the current part */
    size_t suffix_at;       /* offset of part 0's "_0" in the buffer */
    size_t body_at;         /* offset of the current part's statements */
} CpChunk;

#define RO_LOCALS                                                          \
    "    const double t = e->t;\n    const double *restrict x = e->x;\n"  \
    "    const double *restrict p = e->p;\n"                               \
    "    const double *restrict a = e->alg;\n"                             \
    "    const int *md = e->modes;\n"                                      \
    "    (void)t; (void)x; (void)p; (void)a; (void)md;\n"

/* Rolls runs of repeated statements in b's text from `from` on into
   loops (croll.c); every part of a chunked function and of eval. */
void cp_roll(CpBuf *b, size_t from);

void cp_chunk_begin(CPrint *cg, CpChunk *c);
/* Call before each item's statements. */
void cp_chunk_item(CPrint *cg, CpChunk *c);
void cp_chunk_end(CPrint *cg, CpChunk *c);

/* A string of a table, by reference to its one copy (poolK + offset):
   call cp_pool_begin before the table (where its new strings go) and
   cp_pool_end after it.  Tables repeat the same locations, messages and
   descriptions for every instance of a component; the C compiler reads
   each once. */
size_t cp_pool_begin(CPrint *cg);
void cp_pstr(CPrint *cg, const char *s);
void cp_pool_end(CPrint *cg, size_t at);
void cp_pool_free(CPrint *cg);
/* s appended to the text pool, not shared with an equal string (a block's
   description: they are long and rarely equal); prints its offset. */
void cp_text(CPrint *cg, const char *s);
/* `static const char texts[]`, the text pool (offset 0: ""). */
void cp_texts_end(CPrint *cg);
/* A hash of a string (FNV-1a). */
uint64_t cp_hash(const char *s);

/* The source text of a span, blanks collapsed (malloc'ed). */
char *cp_source_text(SrcSpan sp);
/* Text inside a C comment: "*" "/", "/" "*" and "??" are split by a
   blank and control bytes become blanks, so no text can end the comment
   or change what follows. */
void cp_comment(CPrint *cg, const char *s);
/* A variable's name in a comment: der(name) for order 1, and so on. */
void cp_comment_var(CPrint *cg, const char *name, int order);
/* "file:line:col", pooled (cp_pstr). */
void cp_location(CPrint *cg, SrcSpan sp);
/* ", " and "line:col", the exclusive end of sp (the location_end fields
   of rt_model.h), pooled like cp_location; ", NULL" when sp has no
   file. */
void cp_location_end(CPrint *cg, SrcSpan sp);
/* Separator before element i of a long initializer, 20 to a line. */
const char *cp_list_sep(int i);
/* static const int NAME[] = {v[0], ...}; twenty to a line (a lone 0 when
   n is 0: C has no empty arrays). */
void cp_int_array(CPrint *cg, const char *name, const int *v, int n);

#endif
