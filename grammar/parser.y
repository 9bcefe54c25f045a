/*
 * parser.y - the pure bison parser for .lmdl files.
 *
 * Every action is one call to an ast_* builder (compiler/front/ast.c).
 * Errors are reported by yyreport_syntax_error below, which turns bison's exact
 * expected-token set (parse.lac full) into a message a user can act on,
 * using the scanner's stack of open blocks.  Recovery happens at ';' and
 * 'end', so one run reports several independent errors.  Two repairs
 * (rules ending in `error`) keep the tree whole for the commonest slips: a
 * ';' missing at the end of a line, and a section's 'end' missing before
 * the next section.
 *
 * Grammar overview (docs/language.md is the reference):
 *   file  := def*
 *   def   := ('domain' | 'component') IDENT item* 'end'
 *   item  := SECTION entry* 'end' | 'if' expr item* ('elseif' ...)* ['else' item*] 'end'
 *          | 'for' IDENT '=' expr item* 'end'
 *
 * Arrays add, in rules of their own below: for-loops around
 * sections and equations, indexed declarations `m(i) = C(...);` and
 * names `m(i).P`, matrix literals `[1 2; 3 4]` (the blanks and line breaks
 * that separate their elements become ',' and ';' in yylex), ranges
 * `a:b` and `a:s:b`, the element-wise operators .* ./ .^, named call
 * arguments (`interpolation = smooth`) and `{value 'unit'}` without the
 * comma, as MathWorks writes it.
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

/* ---- matrix literals ------------------------------------------

   Inside [ ], MATLAB separates elements by blanks and rows by line
   breaks: `[1 -2]` has two elements, `[1 - 2]` and `[1 -2 + 3]`... one
   and two.  The scanner knows nothing of this; here, between the scanner
   and the parser, a ',' is inserted where a blank separates a token that
   ends an operand from one that starts one (a '+' or '-' only when a
   blank precedes it and none follows), and a ';' where a line break
   does.  The token after the inserted one is kept for the next call. */

static bool ends_operand(int tok)
{
    return tok == NUMBER || tok == IDENT || tok == STRING || tok == TRUE
           || tok == FALSE || tok == TIME || tok == ')' || tok == ']' || tok == '}';
}

static bool is_blank_at(const SrcFile *f, uint32_t i)
{
    return i < f->len && (f->text[i] == ' ' || f->text[i] == '\t');
}

static bool starts_operand(const SrcFile *f, int tok, SrcSpan at)
{
    switch (tok) {
    case NUMBER: case IDENT: case STRING: case TRUE: case FALSE: case TIME:
    case DER: case '(': case '[': case '{': case '~': case '!':
        return true;
    case '+': case '-':
        return !is_blank_at(f, at.end) && f->text[at.end] != '\n';
    default:
        return false;
    }
}

/* What separates the previous token from this one in a matrix: ',' for
   blanks, ';' for a line break (not one continued by '...'), or 0. */
static int matrix_separator(ParseCtx *pc, int tok, SrcSpan at)
{
    if (pc->nbrackets <= 0 || pc->nbrackets > PARSE_MAX_BRACKETS
        || pc->brackets[pc->nbrackets - 1] != '[' || !ends_operand(pc->mx_prev))
        return 0;
    const SrcFile *f = src_get(at.file);
    if (!f || pc->mx_prev_end > at.begin || at.begin > f->len)
        return 0;
    bool blank = false, newline = false, continued = false;
    for (uint32_t i = pc->mx_prev_end; i < at.begin; i++) {
        char c = f->text[i];
        if (c == '.' && i + 2 < at.begin && f->text[i + 1] == '.' && f->text[i + 2] == '.')
            continued = true;
        else if (c == '\n') {
            newline = newline || !continued;
            continued = false;
        } else if (c == ' ' || c == '\t' || c == '%')
            blank = true;
    }
    if (!starts_operand(f, tok, at))
        return 0;
    if (newline)
        return ';';
    if (!blank)
        return 0;
    if (tok == '+' || tok == '-')
        return is_blank_at(f, at.begin - 1) ? ',' : 0;
    return ',';
}

static void track_bracket(ParseCtx *pc, int tok)
{
    if (tok == ATTR_LPAREN)
        tok = '(';
    if (tok == '(' || tok == '[' || tok == '{') {
        if (pc->nbrackets < PARSE_MAX_BRACKETS)
            pc->brackets[pc->nbrackets] = (char)tok;
        pc->nbrackets++;
    } else if ((tok == ')' || tok == ']' || tok == '}') && pc->nbrackets > 0) {
        pc->nbrackets--;
    }
}

static int yylex(YYSTYPE *lval, YYLTYPE *lloc, ParseCtx *pc)
{
    int tok;
    if (pc->stash_tok) {
        tok = pc->stash_tok;
        pc->stash_tok = 0;
        lval->sym = pc->stash_sym;
        if (tok == NUMBER || tok == STRING)
            lval->expr = pc->stash_expr;
        *lloc = pc->stash_loc;
    } else {
        tok = lex_scan(lval, lloc, pc->scanner);
        int sep = matrix_separator(pc, tok, *lloc);
        if (sep) {
            pc->stash_tok = tok;
            pc->stash_sym = tok == IDENT ? lval->sym : NULL;
            pc->stash_expr = tok == NUMBER || tok == STRING ? lval->expr : NULL;
            pc->stash_loc = *lloc;
            lloc->end = lloc->begin;
            pc->mx_prev = sep;
            return sep;
        }
    }
    track_bracket(pc, tok);
    pc->mx_prev = tok;
    pc->mx_prev_end = lloc->end;
    return tok;
}

/* Bison's default, stated here so that the message below can quote it. */
#define YYMAXDEPTH 10000

/* Only bison's own failures come here; syntax errors go to
   yyreport_syntax_error.  The one a file can cause is a full stack. */
static void yyerror(YYLTYPE *loc, ParseCtx *pc, const char *msg)
{
    if (strcmp(msg, "memory exhausted") == 0)
        diag_error(*loc, "nesting too deep for the parser: its stack of %d "
                   "entries is full", YYMAXDEPTH);
    else
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

static PtrVec vecjoin(Arena *a, PtrVec v, PtrVec w)
{
    for (int i = 0; i < w.n; i++)
        ptrvec_push(a, &v, w.items[i]);
    return v;
}

/* In the action of a rule ending in `error` that stands for a missing
   ';': rejects the repair unless the token after the statement is on a
   later line. */
static bool semi_missing(const ParseCtx *pc);
#define MISSING_SEMI()                                                     \
    do {                                                                   \
        if (!semi_missing(pc))                                             \
            YYERROR;                                                       \
    } while (0)

static void need_else(ParseCtx *pc, SrcSpan sp)
{
    (void)pc;
    diag_error(sp, "an if-equation needs an 'else' branch");
}

/* `if C, A end`: accepted so that the statement around it still parses,
   with 0 standing in for the missing branch. */
static AstExpr *missing_else(ParseCtx *pc, SrcSpan sp)
{
    diag_error(sp, "an if-expression needs an 'else' branch: "
               "if C, A else B end");
    return ast_num(pc->arena, sp, "0", 1);
}

/* The equation of a statement whose ';' is missing.  Recovery may have
   popped part of it (LAC finds the error before reducing `a == b`), and
   then there is no equation to keep: the error is already reported. */
static AstStmt *equation_before_error(ParseCtx *pc, SrcSpan sp, AstExpr *e)
{
    if (e->kind != EXPR_BINARY || e->u.binary.op != OP_EQ || e->parens)
        return NULL;
    return ast_equation(pc->arena, sp, e);
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
%token ANNOTATIONS "annotations"
%token IF "if" ELSEIF "elseif" ELSE "else" TRUE "true" FALSE "false"
%token CONNECT "connect" DER "der" TIME "time" ASSERT "assert"
%token FOR "for" EMUL ".*" EDIV "./" EPOW ".^"
%token AND1 "&" OR1 "|" TRANSPOSE "'"
%token INDEX_END "end of an index"
%token IF_EXPR "if of an expression"
%token ATTR_LPAREN "( of equations' attributes"
%token EQEQ "==" NE "~=" LE "<=" GE ">=" ANDAND "&&" OROR "||" ARROW "->"
%token COND_END "end of the condition"
%token FUNCTION "function" DEFINITIONS "definitions" LET "let" IN "in"
%token IMPORT "import"
/* Events and mode charts.  EVENTS and MODECHARTS are section
   keywords (the section table); the others are keywords only where they
   can appear (grammar/lexer.l, contextual keywords): `initial` and
   `mode` stay ordinary names elsewhere. */
%token EVENTS "events" MODECHARTS "modecharts"
%token WHEN "when" ELSEWHEN "elsewhen" INITIALEVENT "initialevent"
%token MODECHART "modechart" MODES "modes" MODE "mode"
%token TRANSITIONS "transitions" INITIALS "initial" ENTRY "entry"

%left OROR
%left ANDAND
%left OR1
%left AND1
%nonassoc EQEQ NE '<' LE '>' GE
%left ':'
%left '+' '-'
%left '*' '/' EMUL EDIV
%precedence UNARY
%right '^' EPOW
%precedence TRANSPOSE

%type <def> def function_def component_head
%type <expr> qualname
%type <vec> defs items decls instances args branches connects ends stmts
%type <vec> stmts1 opt_stmts item_clauses stmt_clauses fields call_args assert_opts
%type <item> item attributed_section discrete_item
%type <kind> decl_keyword
%type <ptr> decl instance arg branch connect field
%type <stmt> stmt
%type <vec> idents fn_outputs fn_inputs local_defs local_def multi_decl
%type <expr> expr primary name endpoint if_tail base assert_msg
%type <vec> matrix_rows
%type <ptr> matrix_row
%type <vec> whens when_clauses assigns charts modes transitions initials
%type <vec> setup_stmts setup_clauses
%type <stmt> setup_stmt
%type <ptr> assign chart chart_body mode mode_body transition mode_path initial
%type <stmt> when_stmt

%start file

%%

file:
    defs                        { pc->result->defs = $1; }
    ;

defs:
    %empty                      { $$ = (PtrVec){0}; }
  | defs def                    { $$ = vecadd(A, $1, $2); }
  | defs import_decl            { $$ = $1; }
    ;

/* Recovery: a definition whose 'end' is missing ends where the next one
   starts (or at the end of the file); a bad header skips to the first
   section; anything else at the top level skips to the next section or
   'end' and is taken as a nameless definition. */
def:
    DOMAIN IDENT items END      { $$ = ast_def(A, @$, DEF_DOMAIN, @2, $2, $3); }
  | component_head items END    { $$ = ast_def_body($1, @$, $2); }
  | DOMAIN IDENT items error    { $$ = ast_def(A, src_join(@1, @3), DEF_DOMAIN, @2, $2, $3); }
  | component_head items error  { $$ = ast_def_body($1, src_join(@1, @2), $2); }
  | function_def                { $$ = $1; }
  | DOMAIN error items END      { $$ = NULL; yyerrok; }
  | COMPONENT error items END   { $$ = NULL; yyerrok; }
  | error items END             { $$ = NULL; }
    ;

/* component NAME, with Simscape's attributes and base component:
   component (Propagation = blocks, Hidden = true) NAME < pkg.Base */
component_head:
    COMPONENT IDENT base        { $$ = ast_component_head(A, @2, $2, (PtrVec){0}, $3); }
  | COMPONENT '(' args ')' IDENT base { $$ = ast_component_head(A, @5, $5, $3, $6); }
    ;

base:
    %empty                      { $$ = NULL; }
  | '<' name                    { $$ = $2; }
    ;

items:
    %empty                      { $$ = (PtrVec){0}; }
  | items item                  { $$ = vecadd(A, $1, $2); }
    ;

/* The `error` forms close a section whose 'end' is missing where the next
   section (or 'if', 'else', 'end') begins: with LAC the parser reduces them
   only when that token can follow. */
item:
    decl_keyword decls END      { $$ = ast_section(A, @$, $1, $2); }
  | COMPONENTS instances END    { $$ = ast_section(A, @$, SEC_COMPONENTS, $2); }
  | BRANCHES branches END       { $$ = ast_section(A, @$, SEC_BRANCHES, $2); }
  | CONNECTIONS connects END    { $$ = ast_section(A, @$, SEC_CONNECTIONS, $2); }
  | EQUATIONS stmts END         { $$ = ast_section(A, @$, SEC_EQUATIONS, $2); }
  | decl_keyword decls error    { $$ = ast_section(A, @1, $1, $2); }
  | COMPONENTS instances error  { $$ = ast_section(A, @1, SEC_COMPONENTS, $2); }
  | BRANCHES branches error     { $$ = ast_section(A, @1, SEC_BRANCHES, $2); }
  | CONNECTIONS connects error  { $$ = ast_section(A, @1, SEC_CONNECTIONS, $2); }
  | EQUATIONS stmts error       { $$ = ast_section(A, @1, SEC_EQUATIONS, $2); }
  | attributed_section          { $$ = $1; }
  | ANNOTATIONS END             { $$ = ast_section(A, @$, SEC_ANNOTATIONS, (PtrVec){0}); }
  | item_clauses END            { $$ = ast_item_if(A, @$, $1); }
  | discrete_item               { $$ = $1; } /* events, mode charts: rules below */
    /* Simscape's legacy setup function (resolve_setup.c) */
  | FUNCTION IDENT setup_stmts END { $$ = ast_setup(A, @$, $3); }
  | item_clauses ELSE items END {
        $$ = ast_item_if(A, @$, vecadd(A, $1, ast_clause(A, src_join(@2, @3), NULL, $3)));
    }
    /* arrays: sections repeated for each value of a loop variable */
  | FOR IDENT '=' expr COND_END items END {
        $$ = ast_item_for(A, @$, @2, $2, $4, $6);
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
  | decls multi_decl            { $$ = vecjoin(A, $1, $2); } /* intermediates */
    ;

/* Each `... error` form below stands for a missing ';' at the end of a
   line: it is accepted only when the next token starts a new line, and
   otherwise falls back to skipping to the next ';'.  None of the repairs
   calls yyerrok: an error within the next three tokens is taken as a
   consequence of the first and not reported. */
decl:
    IDENT '=' expr ';'          { $$ = ast_decl(A, @$, @1, $1, $3); }
    /* arrays: a node of an array, `H(i) = DOMAIN;`, in a for-loop */
  | IDENT '(' call_args ')' '=' expr ';' {
        $$ = ast_decl_indexed(A, @$, @1, $1, $3, $6);
    }
  | IDENT '=' expr error        { MISSING_SEMI(); $$ = ast_decl(A, src_join(@1, @3), @1, $1, $3); }
  | IDENT ';'                   { $$ = ast_untyped_decl(A, @$, @1, $1); } /* inputs u; */
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
    /* arrays: a member of a component array, `m(i) = C(...);` */
  | IDENT '(' call_args ')' '=' IDENT '(' args ')' ';' {
        $$ = ast_instance_indexed(A, @$, @1, $1, $3, @6, $6, $8);
    }
  | IDENT '(' call_args ')' '=' IDENT '(' ')' ';' {
        $$ = ast_instance_indexed(A, @$, @1, $1, $3, @6, $6, (PtrVec){0});
    }
  | IDENT '(' call_args ')' '=' IDENT ';' {
        $$ = ast_instance_indexed(A, @$, @1, $1, $3, @6, $6, (PtrVec){0});
    }
  | IDENT '(' call_args ')' '=' qualname '(' args ')' ';' {
        $$ = ast_instance_indexed_qual(A, @$, @1, $1, $3, $6, $8);
    }
  | IDENT '(' call_args ')' '=' qualname '(' ')' ';' {
        $$ = ast_instance_indexed_qual(A, @$, @1, $1, $3, $6, (PtrVec){0});
    }
  | IDENT '(' call_args ')' '=' qualname ';' {
        $$ = ast_instance_indexed_qual(A, @$, @1, $1, $3, $6, (PtrVec){0});
    }
  | IDENT '=' IDENT '(' args ')' error {
        MISSING_SEMI();
        $$ = ast_instance(A, src_join(@1, @6), @1, $1, @3, $3, $5);
    }
  | IDENT '=' IDENT '(' ')' error {
        MISSING_SEMI();
        $$ = ast_instance(A, src_join(@1, @5), @1, $1, @3, $3, (PtrVec){0});
    }
  | IDENT '=' IDENT error       {
        MISSING_SEMI();
        $$ = ast_instance(A, src_join(@1, @3), @1, $1, @3, $3, (PtrVec){0});
    }
  | IDENT '=' qualname '(' args ')' ';' {
        $$ = ast_instance_qual(A, @$, @1, $1, $3, $5);
    }
  | IDENT '=' qualname '(' ')' ';' { $$ = ast_instance_qual(A, @$, @1, $1, $3, (PtrVec){0}); }
  | IDENT '=' qualname ';'      { $$ = ast_instance_qual(A, @$, @1, $1, $3, (PtrVec){0}); }
  | error ';'                   { $$ = NULL; yyerrok; }
    ;

args:
    arg                         { $$ = vec1(A, $1); }
  | args ',' arg                { $$ = vecadd(A, $1, $3); }
    ;

arg:
    IDENT '=' expr              { $$ = ast_arg(A, @1, $1, $3); }
    /* a field of a variable's target: x.priority = priority.high */
  | IDENT '.' IDENT '=' expr    { $$ = ast_arg_field(A, @1, $1, $3, @3, $5); }
    ;

branches:
    %empty                      { $$ = (PtrVec){0}; }
  | branches branch             { $$ = vecadd(A, $1, $2); }
    ;

branch:
    name ':' endpoint ARROW endpoint ';' { $$ = ast_branch(A, @$, $1, $3, $5); }
  | name ':' endpoint ARROW endpoint error {
        MISSING_SEMI();
        $$ = ast_branch(A, src_join(@1, @5), $1, $3, $5);
    }
  | error ';'                   { $$ = NULL; yyerrok; }
    /* arrays: an element of a vector variable, f(i) : A(i).f -> *; */
  | name '(' call_args ')' ':' endpoint ARROW endpoint ';' {
        $$ = ast_branch(A, @$, ast_name_index(A, $1, src_join(@2, @4), $3), $6, $8);
    }
    ;

endpoint:
    name                        { $$ = $1; }
  | '*'                         { $$ = ast_leaf(A, @1, EXPR_REF); }
    /* arrays: a node of an array, H(i) */
  | name '(' call_args ')'      { $$ = ast_name_index(A, $1, src_join(@2, @4), $3); }
    ;

connects:
    %empty                      { $$ = (PtrVec){0}; }
  | connects connect            { $$ = vecadd(A, $1, $2); }
    ;

connect:
    CONNECT '(' ends ')' ';'    { $$ = ast_connect(A, @$, $3); }
  | CONNECT '(' ends ')' error  { MISSING_SEMI(); $$ = ast_connect(A, src_join(@1, @4), $3); }
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
  | expr error                  { MISSING_SEMI(); $$ = equation_before_error(pc, @1, $1); }
  | ASSERT '(' expr ',' assert_msg ')' ';' { $$ = ast_assert(A, @$, $3, $5, (PtrVec){0}); }
  | ASSERT '(' expr ')' ';'     { $$ = ast_assert(A, @$, $3, NULL, (PtrVec){0}); }
    /* assert('msg'): a message alone always fails, in a branch that must
       not be taken (Simscape libraries write it so) */
  | ASSERT '(' STRING ')' ';'   { $$ = ast_assert(A, @$, ast_bool(A, @3, false), $3, (PtrVec){0}); }
  | ASSERT '(' expr ',' assert_msg ',' assert_opts ')' ';' { $$ = ast_assert(A, @$, $3, $5, $7); }
  | ASSERT '(' expr ',' assert_opts ')' ';' { $$ = ast_assert(A, @$, $3, NULL, $5); }
  | ASSERT '(' expr ',' assert_msg ')' error {
        MISSING_SEMI();
        $$ = ast_assert(A, src_join(@1, @6), $3, $5, (PtrVec){0});
    }
  | stmt_clauses ELSE opt_stmts END {
        $$ = ast_stmt_if(A, @$, vecadd(A, $1, ast_clause(A, src_join(@2, @3), NULL, $3)));
    }
  | stmt_clauses END            { need_else(pc, @$); $$ = ast_stmt_if(A, @$, $1); }
  | LET local_defs IN stmts END { $$ = ast_let(A, @$, $2, $4); }
    /* arrays: equations repeated for each value of a loop variable */
  | FOR IDENT '=' expr COND_END opt_stmts END {
        $$ = ast_stmt_for(A, @$, @2, $2, $4, $6);
    }
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
  | expr OR1 expr               { $$ = ast_binary(A, @$, OP_OR, $1, $3); }
  | expr AND1 expr              { $$ = ast_binary(A, @$, OP_AND, $1, $3); }
  | expr TRANSPOSE              { $$ = ast_unary(A, @$, OP_TRANSPOSE, $1); }
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
    /* arrays: ranges and element-wise operators */
  | expr ':' expr               { $$ = ast_range(A, @$, $1, $3); }
  | expr EMUL expr              { $$ = ast_binary(A, @$, OP_EMUL, $1, $3); }
  | expr EDIV expr              { $$ = ast_binary(A, @$, OP_EDIV, $1, $3); }
  | expr EPOW expr              { $$ = ast_binary(A, @$, OP_EPOW, $1, $3); }
    ;

primary:
    NUMBER                      { $$ = $1; }
  | TRUE                        { $$ = ast_bool(A, @$, true); }
  | FALSE                       { $$ = ast_bool(A, @$, false); }
  | TIME                        { $$ = ast_leaf(A, @$, EXPR_TIME); }
  | name                        { $$ = $1; }
  | name '(' call_args ')'      { $$ = ast_call(A, @$, $1, $3); }
  | DER '(' expr ')'            { $$ = ast_der(A, @$, $3); }
  | name '.' DER                { $$ = ast_der(A, @$, $1); } /* Simscape's x.der */
  | name '(' call_args ')' '.' DER { $$ = ast_der(A, @$, ast_call(A, src_join(@1, @4), $1, $3)); }
  | '(' expr ')'                { $$ = ast_paren($2, @$); }
  | '{' expr ',' STRING '}'     { $$ = ast_quantity(A, @$, $2, $4); }
  | '{' fields '}'              { $$ = ast_record(A, @$, $2); }
  | IF_EXPR expr COND_END expr if_tail { $$ = ast_if(A, @$, $2, $4, $5); }
    /* if c, a; else b; end: a ';' may end a branch, as Simscape writes */
  | IF_EXPR expr COND_END expr ';' if_tail { $$ = ast_if(A, @$, $2, $4, $6); }
    /* arrays: matrix literals, and {value 'unit'} as MathWorks writes it */
  | '[' ']'                     { $$ = ast_matrix(A, @$, (PtrVec){0}); }
  | '[' matrix_rows ']'         { $$ = ast_matrix(A, @$, $2); }
  | '{' expr STRING '}'         { $$ = ast_quantity(A, @$, $2, $3); }
  | INITIALEVENT                { $$ = ast_name(A, @1, sym_cstr("initialevent")); }
  | INDEX_END                   { $$ = ast_leaf(A, @1, EXPR_END); } /* x(end) */
    ;

/* arrays: rows of a matrix literal, separated by ';' (or a line break);
   as in MATLAB, a ';' may end the last row ([a; b;]) */
matrix_rows:
    matrix_row                  { $$ = vec1(A, $1); }
  | matrix_rows ';' matrix_row  { $$ = vecadd(A, $1, $3); }
  | matrix_rows ';'             { $$ = $1; }
    ;

/* arrays: the elements of one row, separated by ',' (or blanks); a ','
   may end a row ([a, b,]) */
matrix_row:
    expr                        { $$ = ast_matrix_row(A, NULL, $1); }
  | matrix_row ',' expr         { $$ = ast_matrix_row(A, $1, $3); }
  | matrix_row ','              { $$ = $1; }
    ;

/* an assert's message: a string, or MATLAB's message('catalog:id', ...),
   whose text is its identifier and arguments (the catalog is MATLAB's) */
assert_msg:
    STRING                      { $$ = $1; }
  | name '(' call_args ')'      { $$ = ast_message_call(A, @$, $1, &$3); }
  | name                        { $$ = ast_message_call(A, @$, $1, NULL); }
    ;

if_tail:
    ELSE expr END               { $$ = $2; }
  | ELSE expr ';' END           { $$ = $2; }
  | END                         { $$ = missing_else(pc, @1); }
  | ELSEIF expr COND_END expr if_tail { $$ = ast_if(A, @$, $2, $4, $5); }
  | ELSEIF expr COND_END expr ';' if_tail { $$ = ast_if(A, @$, $2, $4, $6); }
    ;

call_args:
    %empty                      { $$ = (PtrVec){0}; }
  | expr                        { $$ = vec1(A, $1); }
  | call_args ',' expr          { $$ = vecadd(A, $1, $3); }
    /* arrays: M(j, :), all of a dimension */
  | ':'                         { $$ = vec1(A, ast_leaf(A, @1, EXPR_COLON)); }
  | call_args ',' ':'           { $$ = vecadd(A, $1, ast_leaf(A, @3, EXPR_COLON)); }
  | call_args ',' STRING        { $$ = vecadd(A, $1, $3); } /* value(x, 'unit') */
  | STRING                      { $$ = vec1(A, $1); } /* pm_error('id', ...) in setup */
    /* arrays: named arguments, tablelookup(..., interpolation = smooth) */
  | IDENT '=' expr              { $$ = vec1(A, ast_option(A, @$, $1, @1, $3)); }
  | call_args ',' IDENT '=' expr { $$ = vecadd(A, $1, ast_option(A, src_join(@3, @5), $3, @3, $5)); }
    ;

/* assert(cond, 'msg', Warn = true): Simscape's named arguments */
assert_opts:
    IDENT '=' expr              { $$ = vec1(A, ast_option(A, @$, $1, @1, $3)); }
  | assert_opts ',' IDENT '=' expr { $$ = vecadd(A, $1, ast_option(A, src_join(@3, @5), $3, @3, $5)); }
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
    /* arrays: a member of an array element, m(i).P */
  | name '(' call_args ')' '.' IDENT {
        $$ = ast_name_member(A, $1, src_join(@2, @4), $3, @6, $6);
    }
    ;

/* ---- packages ----------------------------------------------------------

   A folder is a package: translational.Mass is translational/Mass.lmdl
   below a root of the search path.  `import pkg.Name;` and
   `import pkg.*;` come before the first definition of a file. */

import_decl:
    IMPORT name ';'             { ast_file_import(A, pc->result, @$, $2, false, $<vec>0.n); }
  | IMPORT name '.' '*' ';'     { ast_file_import(A, pc->result, @$, $2, true, $<vec>0.n); }
    /* `.*` without a blank is one token, the element-wise product */
  | IMPORT name EMUL ';'        { ast_file_import(A, pc->result, @$, $2, true, $<vec>0.n); }
  | IMPORT error ';'            { yyerrok; }
    ;

/* A package-qualified component name: at least two parts. */
qualname:
    IDENT '.' IDENT             { $$ = ast_name_append(A, ast_name(A, @1, $1), @3, $3); }
  | qualname '.' IDENT          { $$ = ast_name_append(A, $1, @3, $3); }
    ;

/* ---- section attributes ------------------------------------------------

   parameters(Access = private), components(ExternalAccess = observe),
   variables(Event = true): NAME = value pairs, checked by resolution.
   (equations(Initial = true): the scanner gives the '(' right after
   `equations` as ATTR_LPAREN, since one token of lookahead could not
   tell it from an equation's.  An `annotations` section's body is
   skipped by the scanner.) */

attributed_section:
    decl_keyword '(' args ')' decls END {
        $$ = ast_section_attrs(A, @$, $1, $5, $3);
    }
  | COMPONENTS '(' args ')' instances END {
        $$ = ast_section_attrs(A, @$, SEC_COMPONENTS, $5, $3);
    }
  | EQUATIONS ATTR_LPAREN args ')' stmts END {
        $$ = ast_section_attrs(A, @$, SEC_EQUATIONS, $5, $3);
    }
  | decl_keyword '(' args ')' decls error {
        $$ = ast_section_attrs(A, @1, $1, $5, $3);
    }
    ;

/* ---- functions and local definitions ----------------------------------

   function out = f(a, b)            function [o1, o2] = g(x)
     definitions                       definitions
       out = ...;                        [o1, o2] = h(x);
     end                               end
   end                               end

   The definitions of a function, and of `let ... in ... end` in
   equations, are `NAME = expr;` in order, or `[a, b] = call;` taking the
   outputs of a function with several.  'definitions' and 'in' are
   keywords only directly inside a function and a let (the scanner). */

function_def:
    FUNCTION fn_outputs '=' IDENT '(' fn_inputs ')' DEFINITIONS local_defs END END {
        $$ = ast_function(A, @$, @4, $4, $2, $6, $9);
    }
    ;

fn_outputs:
    IDENT                       { $$ = vec1(A, ast_ident(A, @1, $1)); }
  | '[' idents ']'              { $$ = $2; }
    ;

fn_inputs:
    %empty                      { $$ = (PtrVec){0}; }
  | idents                      { $$ = $1; }
    ;

idents:
    IDENT                       { $$ = vec1(A, ast_ident(A, @1, $1)); }
  | idents ',' IDENT            { $$ = vecadd(A, $1, ast_ident(A, @3, $3)); }
    ;

local_defs:
    %empty                      { $$ = (PtrVec){0}; }
  | local_defs local_def        { $$ = vecjoin(A, $1, $2); }
    ;

local_def:
    IDENT '=' expr ';'          { $$ = vec1(A, ast_decl(A, @$, @1, $1, $3)); }
  | IDENT '=' expr error        {
        MISSING_SEMI();
        $$ = vec1(A, ast_decl(A, src_join(@1, @3), @1, $1, $3));
    }
  | multi_decl                  { $$ = $1; }
  | error ';'                   { $$ = (PtrVec){0}; yyerrok; }
    ;

multi_decl:
    '[' idents ']' '=' expr ';' { $$ = ast_multi_decl(A, @$, $2, $5); }
    ;

/* ---- the legacy setup function ---------------------------------------

   function setup
     if k <= 0
       pm_error('simscape:GreaterThanZero', 'Spring rate');
     end
     omega = 2 * pi * f;        % a parameter (or a variable's value)
   end */

setup_stmts:
    %empty                      { $$ = (PtrVec){0}; }
  | setup_stmts setup_stmt      { $$ = vecadd(A, $1, $2); }
    ;

setup_stmt:
    IDENT '=' expr ';'          { $$ = ast_assign(A, @$, ast_name(A, @1, $1), $3); }
  | name '(' call_args ')' ';'  { $$ = ast_call_stmt(A, @$, ast_call(A, src_join(@1, @4), $1, $3)); }
  | name ';'                    { $$ = ast_call_stmt(A, @$, ast_call(A, @1, $1, (PtrVec){0})); }
  | setup_clauses END           { $$ = ast_stmt_if(A, @$, $1); }
  | setup_clauses ELSE setup_stmts END {
        $$ = ast_stmt_if(A, @$, vecadd(A, $1, ast_clause(A, src_join(@2, @3), NULL, $3)));
    }
  | ';'                         { $$ = NULL; }
  | error ';'                   { $$ = NULL; yyerrok; }
    ;

setup_clauses:
    IF expr COND_END setup_stmts { $$ = vec1(A, ast_clause(A, @$, $2, $4)); }
  | setup_clauses ELSEIF expr COND_END setup_stmts {
        $$ = vecadd(A, $1, ast_clause(A, src_join(@2, @5), $3, $5));
    }
    ;

/* ---- events and mode charts --------------------------------

   The events and modecharts sections (`variables(Event = true)` is an
   attributed_section above). */
discrete_item:
    EVENTS whens END            { $$ = ast_section(A, @$, SEC_EVENTS, $2); }
  | MODECHARTS charts END       { $$ = ast_section(A, @$, SEC_MODECHARTS, $2); }
    ;

/* events: when P ... elsewhen Q ... end; each branch assigns event
   variables, NAME = expr; (the predicate ends at the end of its line,
   like an if-condition). */
whens:
    %empty                      { $$ = (PtrVec){0}; }
  | whens when_stmt             { $$ = vecadd(A, $1, $2); }
    ;

when_stmt:
    when_clauses END            { $$ = ast_when(A, @$, $1); }
  | error END                   { $$ = NULL; yyerrok; }
    ;

when_clauses:
    WHEN expr COND_END assigns  { $$ = vec1(A, ast_clause(A, @$, $2, $4)); }
  | when_clauses ELSEWHEN expr COND_END assigns {
        $$ = vecadd(A, $1, ast_clause(A, src_join(@2, @5), $3, $5));
    }
    ;

assigns:
    %empty                      { $$ = (PtrVec){0}; }
  | assigns assign              { $$ = vecadd(A, $1, $2); }
    ;

assign:
    IDENT '=' expr ';'          { $$ = ast_decl(A, @$, @1, $1, $3); }
  | IDENT '=' expr error        { MISSING_SEMI(); $$ = ast_decl(A, src_join(@1, @3), @1, $1, $3); }
  | error ';'                   { $$ = NULL; yyerrok; }
    ;

/* modecharts: NAME = modechart (modes | transitions | initial)* end */
charts:
    %empty                      { $$ = (PtrVec){0}; }
  | charts chart                { $$ = vecadd(A, $1, $2); }
    ;

chart:
    IDENT '=' MODECHART chart_body END { $$ = ast_chart_finish($4, @$, @1, $1); }
    ;

chart_body:
    %empty                      { $$ = ast_chart_new(A); }
  | chart_body MODES modes END  { $$ = ast_chart_modes(A, $1, $3); }
  | chart_body TRANSITIONS transitions END { $$ = ast_chart_transitions(A, $1, $3); }
  | chart_body INITIALS initials END { $$ = ast_chart_initials(A, $1, $3); }
    ;

modes:
    %empty                      { $$ = (PtrVec){0}; }
  | modes mode                  { $$ = vecadd(A, $1, $2); }
    ;

mode:
    MODE IDENT mode_body END    { $$ = ast_mode_finish($3, @$, @2, $2); }
    ;

mode_body:
    %empty                      { $$ = ast_mode_new(A); }
  | mode_body ENTRY assigns END { $$ = ast_mode_entry(A, $1, $3); }
  | mode_body EQUATIONS stmts END { $$ = ast_mode_equations(A, $1, @2, $3); }
    ;

transitions:
    %empty                      { $$ = (PtrVec){0}; }
  | transitions transition      { $$ = vecadd(A, $1, $2); }
    ;

transition:
    mode_path ':' expr ';'      { $$ = ast_path_finish($1, @$, $3); }
  | mode_path ':' expr error    { MISSING_SEMI(); $$ = ast_path_finish($1, src_join(@1, @3), $3); }
  | error ';'                   { $$ = NULL; yyerrok; }
    ;

mode_path:
    IDENT ARROW IDENT           { $$ = ast_path_add(A, ast_path_new(A, @1, $1), @3, $3); }
  | mode_path ARROW IDENT       { $$ = ast_path_add(A, $1, @3, $3); }
    ;

initials:
    %empty                      { $$ = (PtrVec){0}; }
  | initials initial            { $$ = vecadd(A, $1, $2); }
    ;

initial:
    IDENT ':' expr ';'          { $$ = ast_path_finish(ast_path_new(A, @1, $1), @$, $3); }
  | IDENT ':' expr error        {
        MISSING_SEMI();
        $$ = ast_path_finish(ast_path_new(A, @1, $1), src_join(@1, @3), $3);
    }
  | error ';'                   { $$ = NULL; yyerrok; }
    ;

%%

/* ---- error reporting ---------------------------------------------------- */

const char *parse_block_name(int token)
{
    switch (token) {
    case DOMAIN: return "domain";
    case COMPONENT: return "component";
    case IF: case IF_EXPR: return "'if'";
    case FUNCTION: return "function";
    case DEFINITIONS: return "'definitions' block";
    case LET: case IN: return "'let'";
    case FOR: return "'for'";
    case WHEN: return "'when'";
    case MODECHART: return "mode chart";
    case MODES: return "'modes' section";
    case MODE: return "mode";
    case TRANSITIONS: return "'transitions' section";
    case INITIALS: return "'initial' section";
    case ENTRY: return "'entry' section";
#define X_SECBLOCK(k, w, t, mem, where, entry, title, col, val, rank) \
    case t: return "'" w "' section";
    AST_SECTION_KINDS(X_SECBLOCK)
    default: return "block";
    }
}

/* What a ';' terminates inside the block opened by `token`. */
static const char *entry_name(int token)
{
    switch (token) {
#define X_SECENTRY(k, w, t, mem, where, entry, title, col, val, rank) case t: return entry;
    AST_SECTION_KINDS(X_SECENTRY)
    case IF: return "equation";
    case DEFINITIONS: return "definition";
    case WHEN: case ENTRY: return "assignment";
    case TRANSITIONS: return "transition";
    case INITIALS: return "initial mode";
    default: return "statement";
    }
}

/* How a token kind reads in a message: keywords and punctuation quoted,
   classes of tokens described. */
static const char *symbol_display(ParseCtx *pc, yysymbol_kind_t k)
{
    switch (k) {
    case YYSYMBOL_YYEOF: return "end of file";
    case YYSYMBOL_IDENT: return "a name";
    case YYSYMBOL_NUMBER: return "a number";
    case YYSYMBOL_STRING: return "a string";
    case YYSYMBOL_COND_END: return "the end of the condition";
    case YYSYMBOL_IF_EXPR: return "'if'";
    case YYSYMBOL_YYEMPTY: return "token";
    default: break;
    }
    /* yysymbol_name gives "end" for aliased tokens and "';'" for
       characters; show both as 'x'. */
    const char *n = yysymbol_name(k);
    size_t len = strlen(n);
    if (len >= 2 && n[0] == '\'')
        return n;
    return arena_printf(pc->arena, "'%s'", n);
}

/* The unexpected token, quoting names, numbers and strings as written. */
static const char *found_display(ParseCtx *pc, yysymbol_kind_t k, SrcSpan at)
{
    SrcFile *f = src_get(at.file);
    bool quoted = k == YYSYMBOL_IDENT || k == YYSYMBOL_NUMBER || k == YYSYMBOL_STRING;
    if (quoted && f && at.end > at.begin && at.end - at.begin < 60) {
        const char *text = f->text + at.begin;
        int len = (int)(at.end - at.begin);
        if (k == YYSYMBOL_STRING)
            return arena_printf(pc->arena, "string %.*s", len, text);
        return arena_printf(pc->arena, "%s '%.*s'",
                            k == YYSYMBOL_IDENT ? "name" : "number", len, text);
    }
    if (k == YYSYMBOL_COND_END)
        return "end of the condition (a line break or ',')";
    return symbol_display(pc, k);
}

/* Whether the token before the lookahead is one of the characters of
   `set`. */
static bool after_char(const ParseCtx *pc, const char *set)
{
    SrcFile *f = src_get(pc->prev_span.file);
    return f && pc->prev_span.end == pc->prev_span.begin + 1
           && strchr(set, f->text[pc->prev_span.begin]) != NULL;
}

static int line_of(SrcSpan sp, bool end)
{
    return src_line_of(sp.file, end && sp.end > sp.begin ? sp.end - 1 : sp.begin);
}

static int column_of(SrcSpan sp)
{
    int line, col;
    src_linecol(sp, &line, &col);
    return col;
}

/* The open block whose 'end' is expected: innermost one. */
static const ParseOpener *innermost(const ParseCtx *pc)
{
    if (pc->nopen <= 0 || pc->nopen > PARSE_MAX_OPEN)
        return NULL;
    return &pc->open[pc->nopen - 1];
}

static bool is_end_keyword(SrcSpan sp)
{
    SrcFile *f = src_get(sp.file);
    return f && sp.end == sp.begin + 3 && memcmp(f->text + sp.begin, "end", 3) == 0;
}

/* The statement before the lookahead ends on an earlier line, so a ';'
   between them is what is missing. */
static bool semi_missing(const ParseCtx *pc)
{
    return pc->prev_span.file >= 0
           && line_of(pc->prev_span, true) < line_of(pc->last_span, false);
}

/* When `end_span` is an 'end' that sits in the column of the block still
   open, the user probably meant it for that block: say which block it
   really closed.  The scanner pops a block without erasing it, so the
   block that 'end' closed is just above the top of the stack. */
static void note_misplaced_end(const ParseCtx *pc, SrcSpan end_span)
{
    const ParseOpener *open = innermost(pc);
    if (!open || pc->nopen >= PARSE_MAX_OPEN || !is_end_keyword(end_span))
        return;
    const ParseOpener *closed = &pc->open[pc->nopen];
    if (column_of(end_span) != column_of(open->span)
        || column_of(closed->span) == column_of(open->span))
        return;
    diag_note(end_span, "this 'end' closes the %s opened at line %d",
              parse_block_name(closed->token), line_of(closed->span, false));
}

/* Whether k is the character token c: bison numbers those in order of
   appearance, so compare names, not kinds. */
static bool is_char(yysymbol_kind_t k, char c)
{
    if (k < 0)
        return false;
    const char *n = yysymbol_name(k);
    return n[0] == '\'' && n[1] == c && n[2] == '\'' && n[3] == 0;
}

static bool is_binary_operator(yysymbol_kind_t k)
{
    switch (k) {
    case YYSYMBOL_OROR: case YYSYMBOL_ANDAND: case YYSYMBOL_EQEQ: case YYSYMBOL_NE:
    case YYSYMBOL_LE: case YYSYMBOL_GE:
    case YYSYMBOL_EMUL: case YYSYMBOL_EDIV: case YYSYMBOL_EPOW:
    case YYSYMBOL_AND1: case YYSYMBOL_OR1: case YYSYMBOL_TRANSPOSE:
        return true;
    default:
        return is_char(k, '<') || is_char(k, '>') || is_char(k, '+')
               || is_char(k, '-') || is_char(k, '*') || is_char(k, '/')
               || is_char(k, '^') || is_char(k, ':');
    }
}

static bool starts_expression(yysymbol_kind_t k)
{
    switch (k) {
    case YYSYMBOL_NUMBER: case YYSYMBOL_IDENT: case YYSYMBOL_TRUE:
    case YYSYMBOL_FALSE: case YYSYMBOL_TIME: case YYSYMBOL_DER: case YYSYMBOL_IF:
    case YYSYMBOL_IF_EXPR:
    case YYSYMBOL_INITIALEVENT: case YYSYMBOL_INDEX_END:
        return true;
    default:
        return is_char(k, '-') || is_char(k, '+') || is_char(k, '(')
               || is_char(k, '{') || is_char(k, '~') || is_char(k, '!')
               || is_char(k, '[');
    }
}

static bool expects(const yysymbol_kind_t *exp, int n, yysymbol_kind_t k)
{
    for (int i = 0; i < n; i++)
        if (exp[i] == k)
            return true;
    return false;
}

static bool expects_char(const yysymbol_kind_t *exp, int n, char c)
{
    for (int i = 0; i < n; i++)
        if (is_char(exp[i], c))
            return true;
    return false;
}

/* The expected tokens as a user would put them: the many tokens that can
   start an expression are "an expression" (or "an equation" where an
   assert could also start), and after a complete operand the operators
   that could continue it are left out, since the user meant to stop
   there.  Returns how many phrases were written to out. */
static int describe_expected(ParseCtx *pc, const yysymbol_kind_t *exp, int n,
                             const char **out, int max)
{
    bool expression = expects(exp, n, YYSYMBOL_NUMBER);
    bool statement = expression && expects(exp, n, YYSYMBOL_ASSERT);
    bool operand = expects_char(exp, n, '*');   /* only after an operand */
    int m = 0;
    if (expression)
        out[m++] = statement ? "an equation" : "an expression";
    for (int i = 0; i < n && m < max; i++) {
        yysymbol_kind_t k = exp[i];
        if (expression && starts_expression(k))
            continue;
        /* M(j, :): an index's ':' is said by "an expression" */
        if (expression && is_char(k, ':'))
            continue;
        if (statement && k == YYSYMBOL_ASSERT)
            continue;
        if (operand && (is_binary_operator(k) || is_char(k, '(') || is_char(k, '.')))
            continue;
        /* after a name that could go on as m(i).P: '.' says it */
        if (is_char(k, '(') && expects_char(exp, n, '.'))
            continue;
        out[m++] = symbol_display(pc, k);
    }
    if (m == 0 && operand)
        out[m++] = "an operator";
    return m;
}

/* The innermost bracket still open before `at` on its line ('(' or '{'),
   or 0.  The parser's stack holds no locations to ask, so the line is
   scanned from its start, skipping strings and stopping at a comment;
   statements rarely span lines. */
static char open_bracket(SrcSpan at, SrcSpan *where)
{
    enum { MAXDEPTH = 32 };
    SrcFile *f = src_get(at.file);
    if (!f || at.begin > f->len)
        return 0;
    uint32_t open[MAXDEPTH];
    int depth = 0;
    for (uint32_t i = f->lines[src_line_of(at.file, at.begin) - 1]; i < at.begin; i++) {
        char c = f->text[i];
        if (c == '%')
            break;
        if (c == '\'') {
            while (i + 1 < at.begin && f->text[i + 1] != '\'')
                i++;
            i++;
        } else if (c == '(' || c == '{') {
            if (depth < MAXDEPTH)
                open[depth] = i;
            depth++;
        } else if ((c == ')' || c == '}') && depth > 0) {
            depth--;
        }
    }
    if (depth == 0 || depth > MAXDEPTH)
        return 0;
    *where = (SrcSpan){at.file, open[depth - 1], open[depth - 1] + 1};
    return f->text[open[depth - 1]];
}

/* Whether the word just before offset `off` (blanks skipped) is `word`. */
static bool word_before(SrcSpan at, uint32_t off, const char *word)
{
    SrcFile *f = src_get(at.file);
    size_t n = strlen(word);
    while (off > 0 && (f->text[off - 1] == ' ' || f->text[off - 1] == '\t'))
        off--;
    return off >= n && memcmp(f->text + off - n, word, n) == 0;
}

/* Whether a symbol opens a section (the section table, ast.h). */
static bool opens_a_section(yysymbol_kind_t tok)
{
    switch (tok) {
#define X_SECSYM(k, w, t, mem, where, entry, title, col, val, rank) case YYSYMBOL_##t:
    AST_SECTION_KINDS(X_SECSYM)
        return true;
    default:
        return false;
    }
}

/* Whether the line that holds `at` has `needle` before `at`. */
static bool line_has_before(SrcSpan at, const char *needle)
{
    SrcFile *f = src_get(at.file);
    if (!f || at.begin > f->len)
        return false;
    uint32_t ls = at.begin;
    while (ls > 0 && f->text[ls - 1] != '\n')
        ls--;
    size_t n = strlen(needle);
    for (uint32_t i = ls; i + n <= at.begin; i++)
        if (memcmp(f->text + i, needle, n) == 0)
            return true;
    return false;
}

/* Whether the text before `off` (blanks, line breaks and '...' continuations
   skipped) ends in "] =": the if at off is the value of [a, b] = if ... */
static bool after_multi_assign(const SrcFile *f, uint32_t off)
{
    for (int guard = 0; guard < 64 && off > 0; guard++) {
        char c = f->text[off - 1];
        if (c == ' ' || c == '\t' || c == '\r') {
            off--;
            continue;
        }
        if (c == '\n') {
            /* a line that ends in '...' (and a comment after it) goes on */
            uint32_t ls = off - 1;
            while (ls > 0 && f->text[ls - 1] != '\n')
                ls--;
            uint32_t dots = 0;
            for (uint32_t i = ls; i + 3 <= off - 1; i++)
                if (!memcmp(f->text + i, "...", 3)) {
                    dots = i;
                    break;
                }
            if (!dots)
                return false;
            off = dots;
            continue;
        }
        if (c != '=')
            return false;
        off--;
        while (off > 0 && (f->text[off - 1] == ' ' || f->text[off - 1] == '\t'))
            off--;
        return off > 0 && f->text[off - 1] == ']';
    }
    return false;
}

/* Simscape's constructs that lmdl does not read yet, said as such where
   the parser stops on them; true when one was reported. */
static bool simscape_unsupported(ParseCtx *pc, yysymbol_kind_t tok, SrcSpan at)
{
    SrcFile *f = src_get(at.file);
    const char *what = NULL;
    if (!f)
        return false;
    const char *p = f->text + at.begin;
    size_t left = f->len - at.begin;
    if (is_char(tok, '.') && left > 3 && p[1] == 'i' && p[2] == 'f'
        && (p[3] == ' ' || p[3] == '\t' || p[3] == '('))
        what = "Simscape's element-wise '.if' is not supported yet; write an "
               "if-expression for each element";
    else if (is_char(tok, '[') && word_before(at, at.begin, "connect("))
        what = "Simscape's connect of arrays of nodes ([...]) is not supported yet; "
               "connect the elements one by one, in a for-loop";
    else if (is_char(tok, '~') && line_has_before(at, "["))
        what = "MATLAB's '~' for an unused output of [a, b] = f(x) is not "
               "supported yet; name the output";
    else if ((tok == YYSYMBOL_THROUGH || tok == YYSYMBOL_ACROSS) && left > 7
             && memchr(p, '(', left < 12 ? left : 12))
        what = "Simscape's oldest across(...) and through(...) calls in a setup "
               "function are not supported; declare the variables in a "
               "branches section (v : p.i -> n.i) and write the across "
               "relation as an equation";
    else if (innermost(pc) && innermost(pc)->token == IF_EXPR
             && innermost(pc)->span.file == at.file
             && after_multi_assign(f, innermost(pc)->span.begin))
        what = "Simscape's if-expression of several values ([a, b] = if c, x; y "
               "else ... end) is not supported yet; write one if-expression per "
               "value";
    else if (line_has_before(at, "= repmat(") || line_has_before(at, "=repmat("))
        what = "Simscape's arrays of components made by repmat(...) are not "
               "supported yet; declare them in a for-loop: for i = 1:n, "
               "m(i) = pkg.C(...) end";
    if (!what)
        return false;
    diag_error(at, "%s", what);
    (void)pc;
    return true;
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
    bool want_semi = expects_char(exp, n, ';');
    bool want_end = expects(exp, n, YYSYMBOL_END);
    const ParseOpener *open = innermost(pc);
    const char *found = found_display(pc, tok, at);
    pc->syntax_errors++;

    /* An unterminated block comment has swallowed the rest of the file;
       the blocks it leaves open are its fault, and it is reported. */
    if (tok == YYSYMBOL_YYEOF && pc->block_nest > 0)
        return 0;
    if (simscape_unsupported(pc, tok, at))
        return 0;
    /* Running off the end of the file inside a block. */
    if (tok == YYSYMBOL_YYEOF && open) {
        diag_error(at, "expected 'end' to close the %s opened at line %d",
                   parse_block_name(open->token), line_of(open->span, false));
        diag_note(open->span, "the %s starts here", parse_block_name(open->token));
        note_misplaced_end(pc, pc->last_span);
        return 0;
    }
    /* A statement that runs onto the next line: the ';' is missing.  Point
       just after the last token of the statement. */
    if (want_semi && tok != YYSYMBOL_YYEOF && semi_missing(pc)) {
        SrcSpan p = {pc->prev_span.file, pc->prev_span.end, pc->prev_span.end};
        diag_error(p, "expected ';' after the %s", entry_name(open ? open->token : 0));
        return 0;
    }
    /* A keyword that opens a section (or a definition) where the current
       block should have ended. */
    bool opens_section = opens_a_section(tok);
    bool opens_def = tok == YYSYMBOL_COMPONENT || tok == YYSYMBOL_DOMAIN;
    if (want_end && open && (opens_def || (opens_section && open->token != COMPONENT
                                           && open->token != DOMAIN
                                           && open->token != IF && open->token != IF_EXPR))) {
        diag_error(at, "expected 'end' to close the %s opened at line %d "
                   "before %s", parse_block_name(open->token),
                   line_of(open->span, false), found);
        note_misplaced_end(pc, pc->prev_span);
        return 0;
    }
    /* An if-expression without its 'end'. */
    const char *phrases[8];
    int m = describe_expected(pc, exp, n, phrases, 8);
    if (want_end && m == 1 && open && (open->token == IF || open->token == IF_EXPR)) {
        diag_error(at, "expected 'end' to close the 'if' opened at line %d "
                   "before %s", line_of(open->span, false), found);
        return 0;
    }
    /* An 'end' with nothing left to close. */
    if (tok == YYSYMBOL_END && pc->nopen == 0) {
        diag_error(at, "unexpected 'end': no block is open here");
        if (is_end_keyword(pc->prev_span))
            diag_note(pc->prev_span, "the %s opened at line %d is already "
                      "closed here", parse_block_name(pc->open[0].token),
                      line_of(pc->open[0].span, false));
        return 0;
    }
    /* '=' in an equation. */
    if (is_char(tok, '=') && expects(exp, n, YYSYMBOL_EQEQ)
        && !expects_char(exp, n, '=')) {
        diag_error(at, "unexpected '=': an equation is written LHS == RHS");
        return 0;
    }
    /* A string where a value belongs. */
    if (tok == YYSYMBOL_STRING && expects(exp, n, YYSYMBOL_NUMBER)) {
        diag_error(at, "unexpected %s: a string is not a value (a quantity "
                   "with a unit is written {value, 'unit'})", found);
        return 0;
    }
    /* A definition without its name. */
    if (expects(exp, n, YYSYMBOL_IDENT) && (n == 1 || (n == 2 && expects_char(exp, n, '(')))
        && open
        && (open->token == COMPONENT || open->token == DOMAIN)
        && pc->prev_span.begin == open->span.begin) {
        diag_error(at, "expected the %s's name after '%s', found %s",
                   parse_block_name(open->token), parse_block_name(open->token),
                   found);
        return 0;
    }
    /* A reserved word used as a name. */
    if (expects(exp, n, YYSYMBOL_IDENT) && !expects(exp, n, YYSYMBOL_NUMBER)
        && (tok == YYSYMBOL_TIME || tok == YYSYMBOL_DER || tok == YYSYMBOL_TRUE
            || tok == YYSYMBOL_FALSE || tok == YYSYMBOL_CONNECT
            || tok == YYSYMBOL_ASSERT || tok == YYSYMBOL_FUNCTION
            || tok == YYSYMBOL_LET)) {
        diag_error(at, "%s is a reserved word and cannot be used as a name",
                   found);
        return 0;
    }
    /* Something else where a section or a definition should start; a
       name there is often a misspelt keyword. */
    bool top = expects(exp, n, YYSYMBOL_COMPONENT);
    if (top || expects(exp, n, YYSYMBOL_NODES)) {
        const char *s = NULL;
        if (tok == YYSYMBOL_IDENT && src_get(at.file) && at.end - at.begin < 64) {
            static const char *const def_words[] = {"component", "domain", "function"};
            const char *word = arena_strndup(pc->arena, src_get(at.file)->text
                                             + at.begin, at.end - at.begin);
            s = top ? diag_closest(word, def_words, 3)
                    : diag_closest(word, ast_section_names, SEC_KIND_COUNT);
        }
        if (s)
            diag_error(at, "unexpected %s%s", found, diag_did_you_mean(s).text);
        else if (top)
            diag_error(at, "unexpected %s: a definition starts with "
                       "'component', 'domain' or 'function'", found);
        else if (open && want_end)
            diag_error(at, "unexpected %s: expected a section such as "
                       "'variables' or 'equations', or 'end' to close the %s",
                       found, parse_block_name(open->token));
        else
            diag_error(at, "unexpected %s: expected a section such as "
                       "'variables' or 'equations'", found);
        return 0;
    }
    /* A string is the only thing that fits: a unit or an assert message. */
    SrcSpan bracket;
    char br = open_bracket(at, &bracket);
    if (n == 1 && exp[0] == YYSYMBOL_STRING && br == '{') {
        diag_error(at, "expected the unit as a string, as in {1, 'm'}; "
                   "found %s", found);
        return 0;
    }
    if (n == 1 && exp[0] == YYSYMBOL_STRING && br == '('
        && word_before(at, bracket.begin, "assert")) {
        diag_error(at, "expected the assert's message as a string: "
                   "assert(COND, 'message'); found %s", found);
        return 0;
    }
    /* (`{1 'kg'}` is accepted too, as MathWorks writes it.) */
    /* General form: what was found, and what would have been right. */
    char buf[512];
    int len = snprintf(buf, sizeof buf, "unexpected %s", found);
    if (m > 0 && m <= 5) {
        len += snprintf(buf + len, sizeof buf - (size_t)len, ", expected ");
        for (int i = 0; i < m && len < (int)sizeof buf; i++)
            len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%s",
                            i == 0 ? "" : i == m - 1 ? " or " : ", ", phrases[i]);
    } else if (open) {
        snprintf(buf + len, sizeof buf - (size_t)len, " in this %s",
                 parse_block_name(open->token));
    }
    diag_error(at, "%s", buf);
    /* A bracket that should have been closed: show where it opened. */
    if (br && !is_char(tok, br == '(' ? ')' : '}')
        && expects_char(exp, n, br == '(' ? ')' : '}'))
        diag_note(bracket, "the '%c' opened here is not closed", br);
    return 0;
}
