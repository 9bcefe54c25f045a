/*
 * parser.y - the pure bison parser for .lmdl files.
 *
 * Every action is one call to an ast_* builder (compiler/ast.c).  Errors
 * are reported by yyreport_syntax_error below, which turns bison's exact
 * expected-token set (parse.lac full) into a message a user can act on,
 * using the scanner's stack of open blocks.  Recovery happens at ';' and
 * 'end', so one run reports several independent errors.
 *
 * Grammar overview (LANGUAGE.md):
 *   file  := def*
 *   def   := ('domain' | 'component') IDENT item* 'end'
 *   item  := SECTION entry* 'end' | 'if' expr item* ('elseif' ...)* ['else' item*] 'end'
 */
%define api.pure full
%define api.location.type {SrcSpan}
%define parse.error custom
%define parse.lac full
%locations
%expect 0
%param {ParseCtx *pc}

%code requires {
#include "ast.h"
#include "parse.h"
}

%code provides {
int lex_scan(YYSTYPE *lval, YYLTYPE *lloc, void *scanner);
}

%code {
#include "diag.h"
#include <string.h>

#define A (pc->arena)
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                        \
    do {                                                                   \
        if (N) {                                                           \
            (Cur).file = YYRHSLOC(Rhs, 1).file;                            \
            (Cur).begin = YYRHSLOC(Rhs, 1).begin;                          \
            (Cur).end = YYRHSLOC(Rhs, N).end;                              \
        } else {                                                           \
            (Cur).file = YYRHSLOC(Rhs, 0).file;                            \
            (Cur).begin = (Cur).end = YYRHSLOC(Rhs, 0).end;                \
        }                                                                  \
    } while (0)

static int yylex(YYSTYPE *lval, YYLTYPE *lloc, ParseCtx *pc)
{
    return lex_scan(lval, lloc, pc->scanner);
}

static void yyerror(YYLTYPE *loc, ParseCtx *pc, const char *msg)
{
    diag_error(*loc, "%s", msg);
    pc->syntax_errors++;
}

static PtrVec vec1(Arena *a, void *x)
{
    PtrVec v = {0};
    if (x)
        ptrvec_push(a, &v, x);
    return v;
}

static PtrVec vecadd(Arena *a, PtrVec v, void *x)
{
    if (x)
        ptrvec_push(a, &v, x);
    return v;
}

static void need_else(ParseCtx *pc, SrcSpan sp)
{
    (void)pc;
    diag_error(sp, "an if-equation needs an 'else' branch");
}
}

%union {
    Sym *sym;
    AstExpr *expr;
    AstStmt *stmt;
    AstItem *item;
    AstDef *def;
    void *ptr;
    PtrVec vec;
    int kind;
}

%token <sym> IDENT "identifier"
%token <expr> NUMBER "number" STRING "string"
%token DOMAIN "domain" COMPONENT "component" END "end"
%token NODES "nodes" INPUTS "inputs" OUTPUTS "outputs"
%token PARAMETERS "parameters" VARIABLES "variables"
%token INTERMEDIATES "intermediates" COMPONENTS "components"
%token BRANCHES "branches" CONNECTIONS "connections"
%token EQUATIONS "equations" ACROSS "across" THROUGH "through"
%token IF "if" ELSEIF "elseif" ELSE "else" TRUE "true" FALSE "false"
%token CONNECT "connect" DER "der" TIME "time" ASSERT "assert"
%token EQEQ "==" NE "~=" LE "<=" GE ">=" ANDAND "&&" OROR "||" ARROW "->"
%token COND_END "end of the condition"

%left OROR
%left ANDAND
%nonassoc EQEQ NE '<' LE '>' GE
%left '+' '-'
%left '*' '/'
%precedence UNARY
%right '^'

%type <def> def
%type <vec> defs items decls instances args branches connects ends stmts
%type <vec> stmts1 opt_stmts item_clauses stmt_clauses fields call_args
%type <item> item
%type <kind> decl_keyword
%type <ptr> decl instance arg branch connect field
%type <stmt> stmt
%type <expr> expr primary name endpoint if_tail

%start file

%%

file:
    defs                        { pc->result->defs = $1; }
    ;

defs:
    %empty                      { $$ = (PtrVec){0}; }
  | defs def                    { $$ = vecadd(A, $1, $2); }
  | defs error END              { $$ = $1; yyerrok; }
    ;

def:
    DOMAIN IDENT items END      { $$ = ast_def(A, @$, DEF_DOMAIN, @2, $2, $3); }
  | COMPONENT IDENT items END   { $$ = ast_def(A, @$, DEF_COMPONENT, @2, $2, $3); }
    ;

items:
    %empty                      { $$ = (PtrVec){0}; }
  | items item                  { $$ = vecadd(A, $1, $2); }
    ;

item:
    decl_keyword decls END      { $$ = ast_section(A, @$, $1, $2); }
  | COMPONENTS instances END    { $$ = ast_section(A, @$, SEC_COMPONENTS, $2); }
  | BRANCHES branches END       { $$ = ast_section(A, @$, SEC_BRANCHES, $2); }
  | CONNECTIONS connects END    { $$ = ast_section(A, @$, SEC_CONNECTIONS, $2); }
  | EQUATIONS stmts END         { $$ = ast_section(A, @$, SEC_EQUATIONS, $2); }
  | item_clauses END            { $$ = ast_item_if(A, @$, $1); }
  | item_clauses ELSE items END {
        $$ = ast_item_if(A, @$, vecadd(A, $1, ast_clause(A, src_join(@2, @3), NULL, $3)));
    }
    ;

item_clauses:
    IF expr COND_END items      { $$ = vec1(A, ast_clause(A, @$, $2, $4)); }
  | item_clauses ELSEIF expr COND_END items {
        $$ = vecadd(A, $1, ast_clause(A, src_join(@2, @5), $3, $5));
    }
    ;

decl_keyword:
    NODES                       { $$ = SEC_NODES; }
  | INPUTS                      { $$ = SEC_INPUTS; }
  | OUTPUTS                     { $$ = SEC_OUTPUTS; }
  | PARAMETERS                  { $$ = SEC_PARAMETERS; }
  | VARIABLES                   { $$ = SEC_VARIABLES; }
  | INTERMEDIATES               { $$ = SEC_INTERMEDIATES; }
  | ACROSS                      { $$ = SEC_ACROSS; }
  | THROUGH                     { $$ = SEC_THROUGH; }
    ;

decls:
    %empty                      { $$ = (PtrVec){0}; }
  | decls decl                  { $$ = vecadd(A, $1, $2); }
    ;

decl:
    IDENT '=' expr ';'          { $$ = ast_decl(A, @$, @1, $1, $3); }
  | error ';'                   { $$ = NULL; yyerrok; }
    ;

instances:
    %empty                      { $$ = (PtrVec){0}; }
  | instances instance          { $$ = vecadd(A, $1, $2); }
    ;

instance:
    IDENT '=' IDENT '(' args ')' ';' {
        $$ = ast_instance(A, @$, @1, $1, @3, $3, $5);
    }
  | IDENT '=' IDENT '(' ')' ';' { $$ = ast_instance(A, @$, @1, $1, @3, $3, (PtrVec){0}); }
  | IDENT '=' IDENT ';'         { $$ = ast_instance(A, @$, @1, $1, @3, $3, (PtrVec){0}); }
  | error ';'                   { $$ = NULL; yyerrok; }
    ;

args:
    arg                         { $$ = vec1(A, $1); }
  | args ',' arg                { $$ = vecadd(A, $1, $3); }
    ;

arg:
    IDENT '=' expr              { $$ = ast_arg(A, @1, $1, $3); }
    ;

branches:
    %empty                      { $$ = (PtrVec){0}; }
  | branches branch             { $$ = vecadd(A, $1, $2); }
    ;

branch:
    name ':' endpoint ARROW endpoint ';' { $$ = ast_branch(A, @$, $1, $3, $5); }
  | error ';'                   { $$ = NULL; yyerrok; }
    ;

endpoint:
    name                        { $$ = $1; }
  | '*'                         { $$ = ast_leaf(A, @1, EXPR_REF); }
    ;

connects:
    %empty                      { $$ = (PtrVec){0}; }
  | connects connect            { $$ = vecadd(A, $1, $2); }
    ;

connect:
    CONNECT '(' ends ')' ';'    { $$ = ast_connect(A, @$, $3); }
  | error ';'                   { $$ = NULL; yyerrok; }
    ;

ends:
    endpoint                    { $$ = vec1(A, $1); }
  | ends ',' endpoint           { $$ = vecadd(A, $1, $3); }
    ;

stmts:
    %empty                      { $$ = (PtrVec){0}; }
  | stmts stmt                  { $$ = vecadd(A, $1, $2); }
    ;

stmts1:
    stmt                        { $$ = vec1(A, $1); }
  | stmts1 stmt                 { $$ = vecadd(A, $1, $2); }
    ;

opt_stmts:
    %empty                      { $$ = (PtrVec){0}; }
  | stmts1                      { $$ = $1; }
    ;

stmt:
    expr ';'                    { $$ = ast_equation(A, @$, $1); }
  | ASSERT '(' expr ',' STRING ')' ';' { $$ = ast_assert(A, @$, $3, $5); }
  | stmt_clauses ELSE opt_stmts END {
        $$ = ast_stmt_if(A, @$, vecadd(A, $1, ast_clause(A, src_join(@2, @3), NULL, $3)));
    }
  | stmt_clauses END            { need_else(pc, @$); $$ = ast_stmt_if(A, @$, $1); }
  | error ';'                   { $$ = NULL; yyerrok; }
    ;

stmt_clauses:
    IF expr COND_END opt_stmts  { $$ = vec1(A, ast_clause(A, @$, $2, $4)); }
  | stmt_clauses ELSEIF expr COND_END opt_stmts {
        $$ = vecadd(A, $1, ast_clause(A, src_join(@2, @5), $3, $5));
    }
    ;

expr:
    expr OROR expr              { $$ = ast_binary(A, @$, OP_OR, $1, $3); }
  | expr ANDAND expr            { $$ = ast_binary(A, @$, OP_AND, $1, $3); }
  | expr EQEQ expr              { $$ = ast_binary(A, @$, OP_EQ, $1, $3); }
  | expr NE expr                { $$ = ast_binary(A, @$, OP_NE, $1, $3); }
  | expr '<' expr               { $$ = ast_binary(A, @$, OP_LT, $1, $3); }
  | expr LE expr                { $$ = ast_binary(A, @$, OP_LE, $1, $3); }
  | expr '>' expr               { $$ = ast_binary(A, @$, OP_GT, $1, $3); }
  | expr GE expr                { $$ = ast_binary(A, @$, OP_GE, $1, $3); }
  | expr '+' expr               { $$ = ast_binary(A, @$, OP_ADD, $1, $3); }
  | expr '-' expr               { $$ = ast_binary(A, @$, OP_SUB, $1, $3); }
  | expr '*' expr               { $$ = ast_binary(A, @$, OP_MUL, $1, $3); }
  | expr '/' expr               { $$ = ast_binary(A, @$, OP_DIV, $1, $3); }
  | expr '^' expr               { $$ = ast_binary(A, @$, OP_POW, $1, $3); }
  | '-' expr %prec UNARY        { $$ = ast_unary(A, @$, OP_NEG, $2); }
  | '+' expr %prec UNARY        { $$ = ast_unary(A, @$, OP_PLUS, $2); }
  | '~' expr %prec UNARY        { $$ = ast_unary(A, @$, OP_NOT, $2); }
  | '!' expr %prec UNARY        { $$ = ast_unary(A, @$, OP_NOT, $2); }
  | primary                     { $$ = $1; }
    ;

primary:
    NUMBER                      { $$ = $1; }
  | TRUE                        { $$ = ast_bool(A, @$, true); }
  | FALSE                       { $$ = ast_bool(A, @$, false); }
  | TIME                        { $$ = ast_leaf(A, @$, EXPR_TIME); }
  | name                        { $$ = $1; }
  | name '(' call_args ')'      { $$ = ast_call(A, @$, $1, $3); }
  | DER '(' expr ')'            { $$ = ast_der(A, @$, $3); }
  | '(' expr ')'                { $$ = ast_paren($2, @$); }
  | '{' expr ',' STRING '}'     { $$ = ast_quantity(A, @$, $2, $4); }
  | '{' fields '}'              { $$ = ast_record(A, @$, $2); }
  | IF expr COND_END expr if_tail { $$ = ast_if(A, @$, $2, $4, $5); }
    ;

if_tail:
    ELSE expr END               { $$ = $2; }
  | ELSEIF expr COND_END expr if_tail { $$ = ast_if(A, @$, $2, $4, $5); }
    ;

call_args:
    %empty                      { $$ = (PtrVec){0}; }
  | expr                        { $$ = vec1(A, $1); }
  | call_args ',' expr          { $$ = vecadd(A, $1, $3); }
    ;

fields:
    field                       { $$ = vec1(A, $1); }
  | fields ',' field            { $$ = vecadd(A, $1, $3); }
    ;

field:
    IDENT '=' expr              { $$ = ast_field(A, @1, $1, $3); }
    ;

name:
    IDENT                       { $$ = ast_name(A, @1, $1); }
  | name '.' IDENT              { $$ = ast_name_append(A, $1, @3, $3); }
    ;

%%

/* ---- error reporting ---------------------------------------------------- */

const char *parse_block_name(int token)
{
    switch (token) {
    case DOMAIN: return "domain";
    case COMPONENT: return "component";
    case IF: return "'if'";
    case NODES: return "'nodes' section";
    case INPUTS: return "'inputs' section";
    case OUTPUTS: return "'outputs' section";
    case PARAMETERS: return "'parameters' section";
    case VARIABLES: return "'variables' section";
    case INTERMEDIATES: return "'intermediates' section";
    case COMPONENTS: return "'components' section";
    case BRANCHES: return "'branches' section";
    case CONNECTIONS: return "'connections' section";
    case EQUATIONS: return "'equations' section";
    case ACROSS: return "'across' section";
    case THROUGH: return "'through' section";
    default: return "block";
    }
}

/* What a ';' terminates inside the block opened by `token`. */
static const char *entry_name(int token)
{
    switch (token) {
    case NODES: return "node declaration";
    case INPUTS: return "input declaration";
    case OUTPUTS: return "output declaration";
    case PARAMETERS: return "parameter declaration";
    case VARIABLES: case ACROSS: case THROUGH: return "variable declaration";
    case INTERMEDIATES: return "intermediate declaration";
    case COMPONENTS: return "component instance";
    case BRANCHES: return "branch";
    case CONNECTIONS: return "connection";
    case EQUATIONS: case IF: return "equation";
    default: return "statement";
    }
}

/* How a token kind reads in a message. */
static const char *symbol_display(yysymbol_kind_t k)
{
    switch (k) {
    case YYSYMBOL_YYEOF: return "end of file";
    case YYSYMBOL_IDENT: return "a name";
    case YYSYMBOL_NUMBER: return "a number";
    case YYSYMBOL_STRING: return "a string";
    case YYSYMBOL_COND_END: return "the end of the condition";
    default: break;
    }
    /* yysymbol_name gives "\"end\"" for aliased tokens and "';'" for
       characters; show both as 'x'. */
    static char buf[8][64];
    static int slot;
    char *b = buf[slot++ % 8];
    const char *n = yysymbol_name(k);
    size_t len = strlen(n);
    if (len >= 2 && (n[0] == '"' || n[0] == '\'') && len < 60) {
        snprintf(b, 64, "'%.*s'", (int)(len - 2), n + 1);
        return b;
    }
    return n;
}

/* The unexpected token, quoting names and numbers as written. */
static const char *found_display(ParseCtx *pc, yysymbol_kind_t k, SrcSpan at)
{
    SrcFile *f = src_get(at.file);
    if ((k == YYSYMBOL_IDENT || k == YYSYMBOL_NUMBER) && f && at.end > at.begin
        && at.end - at.begin < 60)
        return arena_printf(pc->arena, "%s '%.*s'",
                            k == YYSYMBOL_IDENT ? "name" : "number",
                            (int)(at.end - at.begin), f->text + at.begin);
    return symbol_display(k);
}

static int line_of(SrcSpan sp, bool end)
{
    return src_line_of(sp.file, end && sp.end > sp.begin ? sp.end - 1 : sp.begin);
}

/* The open block whose 'end' is expected: innermost one. */
static const ParseOpener *innermost(const ParseCtx *pc)
{
    if (pc->nopen <= 0 || pc->nopen > PARSE_MAX_OPEN)
        return NULL;
    return &pc->open[pc->nopen - 1];
}

static int yyreport_syntax_error(const yypcontext_t *ctx, ParseCtx *pc)
{
    enum { MAXEXP = 128 };
    yysymbol_kind_t exp[MAXEXP];
    int n = yypcontext_expected_tokens(ctx, exp, MAXEXP);
    if (n < 0)
        return n;
    yysymbol_kind_t tok = yypcontext_token(ctx);
    SrcSpan at = *yypcontext_location(ctx);
    SrcSpan prev = pc->last_span;
    bool want_semi = false, want_end = false;
    for (int i = 0; i < n; i++) {
        want_semi |= strcmp(yysymbol_name(exp[i]), "';'") == 0;
        want_end |= exp[i] == YYSYMBOL_END;
    }
    const ParseOpener *open = innermost(pc);
    pc->syntax_errors++;

    /* Running off the end of the file inside a block. */
    if (tok == YYSYMBOL_YYEOF && open) {
        diag_error(at, "expected 'end' to close the %s opened at line %d",
                   parse_block_name(open->token), line_of(open->span, false));
        diag_note(open->span, "the %s starts here", parse_block_name(open->token));
        return 0;
    }
    /* A statement that runs onto the next line: the ';' is missing. */
    if (want_semi && tok != YYSYMBOL_YYEOF) {
        /* The token before the unexpected one ends the statement.  The
           scanner has already read the lookahead, so use the span that
           bison recorded for the token before it: approximate with the
           lookahead's start when they share a line. */
        SrcSpan before = pc->prev_span;
        if (before.file >= 0 && line_of(before, true) < line_of(at, false)) {
            SrcSpan p = {before.file, before.end, before.end};
            diag_error(p, "expected ';' after the %s",
                       entry_name(open ? open->token : 0));
            return 0;
        }
    }
    /* A section keyword where the current section should have ended. */
    if (want_end && open && tok >= YYSYMBOL_NODES && tok <= YYSYMBOL_THROUGH
        && open->token != COMPONENT && open->token != DOMAIN && open->token != IF) {
        diag_error(at, "expected 'end' to close the %s opened at line %d "
                   "before %s", parse_block_name(open->token),
                   line_of(open->span, false), found_display(pc, tok, at));
        return 0;
    }
    /* General form: what was found, and what would have been right. */
    char buf[512];
    int len = snprintf(buf, sizeof buf, "unexpected %s", found_display(pc, tok, at));
    if (n > 0 && n <= 5) {
        len += snprintf(buf + len, sizeof buf - (size_t)len, ", expected ");
        for (int i = 0; i < n && len < (int)sizeof buf; i++)
            len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%s",
                            i == 0 ? "" : i == n - 1 ? " or " : ", ",
                            symbol_display(exp[i]));
    } else if (open) {
        snprintf(buf + len, sizeof buf - (size_t)len, " in this %s",
                 parse_block_name(open->token));
    }
    (void)prev;
    diag_error(at, "%s", buf);
    return 0;
}
