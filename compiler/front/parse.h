/*
 * parse.h - pass 1: text to syntax tree.
 *
 * The scanner (grammar/lexer.l) and the parser (grammar/parser.y) share one
 * ParseCtx through flex's yyextra.  The scanner keeps the stack of open
 * blocks (component, section, if) so that the parser's error messages can
 * say what an unexpected token or end of file leaves unclosed.
 */
#ifndef LMDL_PARSE_H
#define LMDL_PARSE_H

#include "ast.h"

#include <stdbool.h>

enum { PARSE_MAX_OPEN = 256, PARSE_MAX_COND = 64, PARSE_MAX_BRACKETS = 256 };

/* A block the scanner has seen open and not yet seen closed. */
typedef struct ParseOpener {
    int token;          /* the opening token (a bison token kind) */
    SrcSpan span;       /* where its keyword is */
    bool in_expr;       /* an if-expression (its 'end' may end a line's
                           statement), not an if-section or if-equation */
    int depth;          /* the bracket depth its keyword is at */
} ParseOpener;

typedef struct ParseCtx {
    Arena *arena;       /* where the tree is built */
    int file;           /* source id being parsed */
    void *scanner;      /* the flex scanner (yyscan_t) */
    AstFile *result;    /* the tree, filled by the start rule */

    /* scanner state */
    uint32_t offset;    /* byte offset of the next character */
    int depth;          /* nesting of (), {} */
    int last_token;     /* kind of the previous token, for line continuation */
    int last_depth;     /* the bracket depth it was read at */
    bool mid_line;      /* a token was read since the last line break */
    int line_first;     /* the first token of the current line */
    bool if_in_expr;    /* the last 'if' read is inside an expression */
    SrcSpan last_span;  /* span of the last token read (the lookahead) */
    SrcSpan prev_span;  /* span of the token before that */
    int cond_depth[PARSE_MAX_COND]; /* paren depth of each open if-condition */
    int ncond;          /* open if-conditions waiting for their end */
    ParseOpener open[PARSE_MAX_OPEN]; /* open blocks, innermost last */
    int nopen;          /* entries in open (may exceed the array: clipped) */
    int block_nest;     /* nesting of %{ %} block comments */
    SrcSpan block_open; /* where the outermost block comment began */
    int syntax_errors;  /* errors reported by the parser */

    /* between the scanner and the parser (yylex in parser.y): the
       separators of matrix literals, `[1 2; 3 4]` written `[1 2\n 3 4]` */
    char brackets[PARSE_MAX_BRACKETS]; /* open ( [ {, innermost last */
    int nbrackets;      /* entries in brackets (may exceed it: clipped) */
    int mx_prev;        /* the token handed to the parser last */
    uint32_t mx_prev_end; /* where it ended */
    int stash_tok;      /* a token read but held back behind a separator */
    Sym *stash_sym;     /* its value, for an IDENT */
    AstExpr *stash_expr;/* its value, for a NUMBER or STRING */
    SrcSpan stash_loc;  /* its span */
} ParseCtx;

/* Parses source file `file` into a tree allocated in `a`.  Errors are
   reported through diag; the tree is still returned (possibly partial). */
AstFile *parse_file(Arena *a, int file);

/* Used by the scanner and the parser. */
const char *parse_block_name(int token);   /* "component", "'if'", ... */

#endif
