" Vim syntax file
" Language:     lmdl (equation-based modeling language, .lmdl files)
" Maintainer:   the lmdl project
"
" Every word given to `syntax keyword` below is a keyword of the
" language, and every keyword is given to exactly one `syntax keyword`:
" tests/editors/check_grammars.py compares them with the keyword tables of
" grammar/lexer.l (the sections in lmdlSection, the contextual keywords in
" the lmdlContextual* groups, the other reserved words elsewhere).  Words
" that are not reserved (the built-in functions and special forms,
" `value`/`priority`/`nominal` in a variable's long form) are matched by
" patterns instead, only where they have that meaning.

if exists("b:current_syntax")
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

syntax case match

" Definitions and their names.
syntax keyword lmdlDefinition domain component nextgroup=lmdlDefName skipwhite
syntax match   lmdlDefName "\h\w*" contained
syntax keyword lmdlEnd end
syntax keyword lmdlFunction function let import

" Sections.
syntax keyword lmdlSection nodes inputs outputs parameters variables
syntax keyword lmdlSection intermediates components branches connections
syntax keyword lmdlSection equations across through annotations
syntax keyword lmdlSection events modecharts

" Conditional sections, if-equations and if-expressions.
syntax keyword lmdlConditional if elseif else
syntax keyword lmdlBoolean true false

" The remaining reserved words.
syntax keyword lmdlConnect connect
syntax keyword lmdlAssert assert
syntax keyword lmdlDer der
syntax keyword lmdlTime time

" For-loops around sections and equations (arrays).
syntax keyword lmdlRepeat for

" Contextual keywords (the `contextual` table of grammar/lexer.l): keywords
" only directly inside one kind of block, so that a model may have a
" parameter `initial` or `mode`.  They are contained keywords, highlighted
" only inside the transparent matches below, which find a word where the
" keyword would stand:
"  - the first word of a line, unless what follows makes it a name (=, ==,
"    ., [, ;, ,, :, ->, <=, >=, ~=): definitions, in, when, elsewhen,
"    modes, transitions, initial, mode, entry;
"  - a word after `when` or `elsewhen` on its line: initialevent;
"  - the last word of a line after `=`: NAME = modechart.
" These matches come before every other match, so that one starting at the
" same place (a built-in function's call) wins over them.
syntax keyword lmdlContextual contained definitions in when elsewhen
syntax keyword lmdlContextual contained modes transitions initial mode entry
syntax keyword lmdlContextualEvent contained initialevent
syntax keyword lmdlContextualChart contained modechart
syntax match lmdlCtxFirst "^\s*\zs\h\w*\>\%(\s*\%([;,:.=[]\|->\|[<>~]=\)\)\@!" transparent contains=lmdlContextual
syntax match lmdlCtxPredicate "\%(^\s*\%(when\|elsewhen\)\>.*\)\@<=\<\h\w*\>" transparent contains=lmdlContextualEvent
syntax match lmdlCtxChart "\%([^=<>~]=\s*\)\@<=\<\h\w*\>\ze\s*\%(%.*\)\=$" transparent contains=lmdlContextualChart

" Built-in functions, only where they are called (they are not reserved:
" a parameter may be called `max`).
syntax match lmdlBuiltin "\<\%(sin\|cos\|tan\|asin\|acos\|atan\|atan2\|sinh\|cosh\|tanh\|exp\|log\|log10\|sqrt\|abs\|sign\|min\|max\|floor\|ceil\|round\|fix\|mod\|rem\|isfinite\|isinf\|isnan\|neabs\|nesign\|int8\|int16\|int32\|int64\|uint8\|uint16\|uint32\|uint64\|double\|single\|logical\|numel\|size\|length\|sum\|prod\|mean\|cumsum\|diff\|dot\|cross\|norm\|all\|any\|zeros\|ones\|eye\|repmat\|reshape\|linspace\|diag\|tril\|triu\|tablelookup\)\>\ze\s*("

" The special forms (LMDL_SPECIAL_FORMS): written like calls, but not
" functions of numbers: value(x, 'unit'), integ(e), edge(b), delay(u, tau).
syntax match lmdlSpecialForm "\<\%(value\|integ\|edge\|delay\)\>\ze\s*("

" priority.high, priority.low, priority.none
syntax match lmdlPriority "\<priority\.\%(high\|low\|none\)\>"

" The fields of a variable's long form, {value = ..., priority = ...,
" nominal = ...}: first in the braces or after a comma, before '='.
syntax match lmdlField "\%([{,]\s*\)\@<=\<\%(value\|priority\|nominal\)\>\ze\s*=\%([^=]\|$\)"

" Numbers: 1, 2.5, .5, 1e-3, 3.0E+2 (not the digits of a name like r12).
syntax match lmdlNumber "\<\d\+\%(\.\d*\)\=\%([eE][+-]\=\d\+\)\="
syntax match lmdlNumber "\%(\w\)\@<!\.\d\+\%([eE][+-]\=\d\+\)\="

" Operators; '->' and the reference '*' of branches and connections.
syntax match lmdlOperator "==\|\~=\|<=\|>=\|&&\|||\|[-+*/^<>~!=]"
syntax match lmdlArrow "->"
syntax match lmdlReference "\%(->\s*\)\@<=\*"
syntax match lmdlReference "\*\ze\s*->"
syntax match lmdlReference "\%([(,]\s*\)\@<=\*\ze\s*[,)]"

" Strings, MATLAB style: '' is a quote inside a string.  A string on one
" line only, as in the scanner.
syntax match  lmdlQuoteEscape "''" contained
syntax region lmdlString start=+'+ skip=+''+ end=+'+ oneline contains=lmdlQuoteEscape

" The unit of a value, {value, 'unit'}: defined after lmdlString so that
" it wins where both start.
syntax match lmdlUnit "\%(,\s*\)\@<='\%([^']\|''\)*'\ze\s*}"

" Comments: % to the end of the line; %{ and %} on lines of their own
" enclose a block comment (they nest).
syntax match   lmdlTodo "\<\%(TODO\|FIXME\|XXX\)\>" contained
syntax match   lmdlComment "%.*$" contains=lmdlTodo,@Spell
syntax region  lmdlBlockComment start="^\s*%{\s*$" end="^\s*%}\s*$" contains=lmdlBlockComment,lmdlTodo,@Spell fold

highlight default link lmdlDefinition   Structure
highlight default link lmdlDefName      Type
highlight default link lmdlEnd          Structure
highlight default link lmdlFunction     Structure
highlight default link lmdlSection      Statement
highlight default link lmdlConditional  Conditional
highlight default link lmdlBoolean      Boolean
highlight default link lmdlConnect      Keyword
highlight default link lmdlAssert       Exception
highlight default link lmdlDer          Operator
highlight default link lmdlTime         Constant
highlight default link lmdlRepeat       Repeat
highlight default link lmdlContextual   Statement
highlight default link lmdlContextualEvent Constant
highlight default link lmdlContextualChart Structure
highlight default link lmdlBuiltin      Function
highlight default link lmdlSpecialForm  Special
highlight default link lmdlPriority     Constant
highlight default link lmdlField        Identifier
highlight default link lmdlNumber       Number
highlight default link lmdlOperator     Operator
highlight default link lmdlArrow        Operator
highlight default link lmdlReference    Special
highlight default link lmdlQuoteEscape  SpecialChar
highlight default link lmdlString       String
highlight default link lmdlUnit         Type
highlight default link lmdlTodo         Todo
highlight default link lmdlComment      Comment
highlight default link lmdlBlockComment Comment

let b:current_syntax = "lmdl"

let &cpo = s:cpo_save
unlet s:cpo_save
