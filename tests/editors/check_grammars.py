#!/usr/bin/python3
"""check_grammars.py - the editor grammars (editors/) against the compiler.

    check_grammars.py SRCDIR keywords   every keyword table of the compiler
                                        is in both grammars, each word in
                                        its category; the JSON files parse
    check_grammars.py SRCDIR textmate   the TextMate grammar highlights
                                        tests/editors/sample.lmdl as expected
    check_grammars.py SRCDIR vim        the Vim syntax file does (exit 77,
                                        skipped, when vim is not installed)

The tables: the reserved words (the `keywords` table of grammar/lexer.l),
the section names (AST_SECTION_KINDS in compiler/front/ast.h, which that table
expands), the contextual keywords (lexer.l's `contextual` table: keywords
only inside one kind of block), the built-in functions (LMDL_BUILTINS, the
rows before FN_NAMED, and LMDL_ARRAY_FUNCS in compiler/ir/builtin.h) and the
special forms
(LMDL_SPECIAL_FORMS).  A word missing from a grammar, a word a grammar has
that the compiler does not, a word in the wrong category, and a table of
words this script does not know all fail here.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SRC = sys.argv[1]
VIM_SYNTAX = os.path.join(SRC, "editors/vim/syntax/lmdl.vim")
TM_GRAMMAR = os.path.join(SRC, "editors/vscode/syntaxes/lmdl.tmLanguage.json")
JSON_FILES = ["editors/vscode/package.json",
              "editors/vscode/language-configuration.json",
              "editors/vscode/syntaxes/lmdl.tmLanguage.json"]
SAMPLE = os.path.join(SRC, "tests/editors/sample.lmdl")

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def die(msg):
    print("FAIL: " + msg)
    sys.exit(1)


# ---- what the compiler says ------------------------------------------------

# Every table of words in grammar/lexer.l and compiler/ir/builtin.h, and the
# category of the grammars it is compared with.  A table this script does
# not know fails the test, so a new kind of keyword cannot go unnoticed.
LEXER_TABLES = {"keywords": "reserved", "contextual": "contextual"}
BUILTIN_TABLES = {"LMDL_BUILTINS": "builtins", "LMDL_ARRAY_FUNCS": "builtins",
                  "LMDL_SPECIAL_FORMS": "special forms"}
CATEGORIES = ["reserved", "sections", "contextual", "builtins", "special forms"]


def read(rel):
    return open(os.path.join(SRC, rel), encoding="utf-8").read()


def section_words():
    """The section keywords: the rows X(SEC_KIND, "word", TOKEN, ...) of
    AST_SECTION_KINDS in compiler/front/ast.h."""
    m = re.search(r"#define\s+AST_SECTION_KINDS\(X\)(.*?)\n\n", read("compiler/front/ast.h"), re.S)
    words = re.findall(r'X\(\s*SEC_\w+\s*,\s*"([A-Za-z_]\w*)"\s*,\s*[A-Z_]+',
                       m.group(1) if m else "")
    if not words:
        die('no rows X(SEC_KIND, "word", TOKEN, ...) of AST_SECTION_KINDS were '
            "found in compiler/front/ast.h")
    return words


def compiler_words():
    """{category: set of words}: the reserved words (grammar/lexer.l's
    `keywords` table, without the sections it expands), the sections
    (AST_SECTION_KINDS), the contextual keywords (lexer.l's `contextual`
    table: {"word", TOKEN, INSIDE}), the built-in functions (LMDL_BUILTINS,
    LMDL_ARRAY_FUNCS) and the special forms (LMDL_SPECIAL_FORMS)."""
    words = {c: [] for c in CATEGORIES}
    lexer = read("grammar/lexer.l")
    # every C array of {"word", TOKEN...} rows, or of rows written through
    # a macro, KW("word", TOKEN) (the macro adds the word's length)
    tables = re.findall(r"\b(\w+)\[\]\s*=\s*\{(.*?)\n\};", lexer, re.S)
    found = set()
    for name, body in tables:
        rows = re.findall(r'(?:\{|\b[A-Z]+\()\s*"([A-Za-z_]\w*)"\s*,\s*[A-Z_][A-Z0-9_]*\s*[,})]',
                          body)
        if not rows and "AST_SECTION_KINDS" not in body:
            continue
        if name not in LEXER_TABLES:
            die("grammar/lexer.l has a table of words %r that "
                "tests/editors/check_grammars.py does not know: say which "
                "category of the grammars it belongs to (LEXER_TABLES)" % name)
        found.add(name)
        words[LEXER_TABLES[name]] += rows
        if "AST_SECTION_KINDS" in body:
            words["sections"] += section_words()
    if found != set(LEXER_TABLES):
        die("grammar/lexer.l has no table %s of {\"word\", TOKEN} rows; if the "
            "keywords moved, make tests/editors/check_grammars.py read them "
            "from their new place" % " ".join(sorted(set(LEXER_TABLES) - found)))
    builtin = read("compiler/ir/builtin.h")
    for name, body in re.findall(r"#define\s+(\w+)\(X\)(.*?)\n\n", builtin, re.S):
        # X(id, "name", arity, ...), or X(id, "name", "C name", arity, ...)
        ids = re.findall(r'X\(\s*(\w+)\s*,\s*"\w+"\s*,\s*(?:"\w*"\s*,\s*)?\d+', body)
        rows = re.findall(r'X\(\s*\w+\s*,\s*"(\w+)"\s*,\s*(?:"\w*"\s*,\s*)?\d+', body)
        # the rows of LMDL_BUILTINS from FN_NAMED on are internal (fmin,
        # fmax): no model names them
        named = re.search(r"FN_NAMED\s*=\s*(\w+)", builtin)
        if name == "LMDL_BUILTINS" and named and named.group(1) in ids:
            rows = rows[:ids.index(named.group(1))]
        if name not in BUILTIN_TABLES:
            if rows:
                die("compiler/ir/builtin.h has a table %s that "
                    "tests/editors/check_grammars.py does not know: say which "
                    "category of the grammars it belongs to (BUILTIN_TABLES)" % name)
            continue
        if not rows:
            die("no X(id, \"name\", arity, ...) rows in %s (compiler/ir/builtin.h)" % name)
        found.add(name)
        words[BUILTIN_TABLES[name]] += rows
    missing = set(BUILTIN_TABLES) - found
    if missing:
        die("compiler/ir/builtin.h has no table %s; if it moved, update "
            "tests/editors/check_grammars.py" % " ".join(sorted(missing)))
    every = [w for c in CATEGORIES for w in words[c]]
    dups = sorted({w for w in every if every.count(w) > 1})
    if dups:
        die("a word is in two of the compiler's tables: %s" % " ".join(dups))
    return {c: set(w) for c, w in words.items()}


# ---- what the grammars say -------------------------------------------------

VIM_OPTIONS = {"contained", "skipwhite", "skipnl", "skipempty", "transparent",
               "display", "fold", "conceal", "oneline", "extend"}


def vim_alternation(line, group):
    """The words of `syntax match GROUP "\\<\\%(a\\|b\\)\\>..."`, or None."""
    m = re.match(r'\s*syn(?:tax)?\s+match\s+%s\s+"\\<\\%%\((.*?)\\\)' % group, line)
    return m.group(1).split("\\|") if m else None


def vim_words():
    """{category: list of words}.  Every word of every `syntax keyword`
    (options such as nextgroup=... left out): in lmdlSection a section, in
    a group lmdlContextual* a contextual keyword (those are `contained`,
    highlighted only inside the matches that find them in their place),
    else a reserved word.  The built-ins: the alternation of lmdlBuiltin;
    the special forms: that of lmdlSpecialForm."""
    got = {c: None if c in ("builtins", "special forms") else [] for c in CATEGORIES}
    for line in open(VIM_SYNTAX, encoding="utf-8"):
        parts = line.split()
        if len(parts) >= 3 and parts[0] in ("syn", "synt", "syntax") and parts[1] in ("keyword", "keyw"):
            group = parts[2]
            cat = ("sections" if group == "lmdlSection" else
                   "contextual" if group.startswith("lmdlContextual") else "reserved")
            got[cat] += [w for w in parts[3:] if "=" not in w and w not in VIM_OPTIONS]
        for cat, group in (("builtins", "lmdlBuiltin"), ("special forms", "lmdlSpecialForm")):
            alt = vim_alternation(line, group)
            if alt is not None:
                got[cat] = (got[cat] or []) + alt
    if not got["reserved"]:
        die("no `syntax keyword` in %s" % VIM_SYNTAX)
    for cat, group in (("builtins", "lmdlBuiltin"), ("special forms", "lmdlSpecialForm")):
        if got[cat] is None:
            die("no %s match in %s" % (group, VIM_SYNTAX))
    return got


def alternation(regex):
    """The words of every (a|b|c)\\b in a TextMate regex."""
    words = []
    for group in re.findall(r"\(((?:\w+\|)*\w+)\)\\b", regex):
        words += group.split("|")
    return words


def textmate_words(g):
    """{category: list of words}: the rules of the repository's `keywords`
    (the one named keyword.other.section.lmdl: the sections), `contextual`
    (matches and begins), `builtins` and `special-forms`."""
    got = {c: [] for c in CATEGORIES}
    repo = g["repository"]
    for r in repo["keywords"]["patterns"]:
        cat = "sections" if r.get("name") == "keyword.other.section.lmdl" else "reserved"
        got[cat] += alternation(r["match"])
    for r in repo["contextual"]["patterns"]:
        got["contextual"] += alternation(r.get("match", r.get("begin", "")))
        for sub in r.get("patterns", []):
            got["contextual"] += alternation(sub.get("match", ""))
    got["builtins"] = alternation(repo["builtins"]["match"])
    got["special forms"] = alternation(repo["special-forms"]["match"])
    return got


def compare(what, got, want):
    dups = sorted({w for w in got if got.count(w) > 1})
    if dups:
        fail("%s: listed more than once: %s" % (what, " ".join(dups)))
    missing, extra = sorted(want - set(got)), sorted(set(got) - want)
    if missing:
        fail("%s: missing %s" % (what, " ".join(missing)))
    if extra:
        fail("%s: not in the compiler: %s" % (what, " ".join(extra)))


def check_keywords():
    for f in JSON_FILES:
        r = subprocess.run(["/usr/bin/python3", "-m", "json.tool", os.path.join(SRC, f)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            fail("%s is not valid JSON: %s" % (f, r.stderr.strip()))
    want = compiler_words()
    grammars = (("Vim", vim_words()),
                ("TextMate", textmate_words(json.load(open(TM_GRAMMAR, encoding="utf-8")))))
    for name, got in grammars:
        for cat in CATEGORIES:
            compare("%s %s" % (name, cat), got[cat], want[cat])
        every = [w for c in CATEGORIES for w in got[c]]
        dups = sorted({w for w in every if every.count(w) > 1})
        if dups:
            fail("%s: in two categories: %s" % (name, " ".join(dups)))
    # the package wires the grammar and the configuration to .lmdl files
    pkg = json.load(open(os.path.join(SRC, "editors/vscode/package.json")))
    lang = pkg["contributes"]["languages"][0]
    gram = pkg["contributes"]["grammars"][0]
    if ".lmdl" not in lang["extensions"] or gram["language"] != lang["id"]:
        fail("package.json does not tie the lmdl language to .lmdl files")
    for rel in (lang["configuration"], gram["path"]):
        if not os.path.exists(os.path.join(SRC, "editors/vscode", rel)):
            fail("package.json names %s, which does not exist" % rel)
    if gram["scopeName"] != json.load(open(TM_GRAMMAR))["scopeName"]:
        fail("package.json's scopeName differs from the grammar's")
    conf = json.load(open(os.path.join(SRC, "editors/vscode/language-configuration.json")))
    if conf["comments"] != {"lineComment": "%", "blockComment": ["%{", "%}"]}:
        fail("language-configuration.json: comments are % and %{ %}")
    # the problem matcher reads lmdlc's diagnostics
    rx = re.compile(pkg["contributes"]["problemMatchers"][0]["pattern"]["regexp"])
    line = "models/a.lmdl:12:5: error: unknown name 'x'"
    m = rx.match(line)
    if not m or m.group(1, 2, 3, 4, 5) != ("models/a.lmdl", "12", "5", "error", "unknown name 'x'"):
        fail("the problem matcher does not read %r" % line)
    if not failures:
        print("%s: Vim and TextMate agree with the compiler"
              % ", ".join("%d %s" % (len(want[c]), c) for c in CATEGORIES))


# ---- highlighting of the sample ----------------------------------------------

# (line, text, Vim group, TextMate scope): every character of the first
# occurrence of `text` on that line (1-based) must be highlighted so.  A
# None group or scope means "none of ours" (plain text).
EXPECT = [
    (1, "component", "lmdlDefinition", "storage.type.definition.lmdl"),
    (1, "Sample", "lmdlDefName", "entity.name.type.lmdl"),
    (2, "a line comment with end and 'quotes'", "lmdlComment", "comment.line.percentage.lmdl"),
    (3, "parameters", "lmdlSection", "keyword.other.section.lmdl"),
    (4, "1.5e3", "lmdlNumber", "constant.numeric.lmdl"),
    (4, "N/m", "lmdlUnit", "constant.other.unit.lmdl"),
    (4, "% stiffness", "lmdlComment", "comment.line.percentage.lmdl"),
    (5, "true", "lmdlBoolean", "constant.language.boolean.lmdl"),
    (6, "r12", None, None),
    (6, ".5", "lmdlNumber", "constant.numeric.lmdl"),
    (7, "end", "lmdlEnd", "keyword.other.end.lmdl"),
    (9, "nodes are not read here", "lmdlBlockComment", "comment.block.percentage.lmdl"),
    (11, "nested", "lmdlBlockComment", "comment.block.percentage.lmdl"),
    (13, "still a comment", "lmdlBlockComment", "comment.block.percentage.lmdl"),
    (15, "variables", "lmdlSection", "keyword.other.section.lmdl"),
    (16, "value", "lmdlField", "variable.parameter.field.lmdl"),
    (16, "m", "lmdlUnit", "constant.other.unit.lmdl"),
    (16, "priority", "lmdlField", "variable.parameter.field.lmdl"),
    (16, "priority.high", "lmdlPriority", "constant.language.priority.lmdl"),
    (16, "nominal", "lmdlField", "variable.parameter.field.lmdl"),
    (16, "mm", "lmdlUnit", "constant.other.unit.lmdl"),
    (17, "max", None, None),
    (20, "->", "lmdlArrow", "keyword.operator.arrow.lmdl"),
    (20, "*", "lmdlReference", "constant.language.reference.lmdl"),
    (23, "connect", "lmdlConnect", "keyword.other.connect.lmdl"),
    (23, "*", "lmdlReference", "constant.language.reference.lmdl"),
    (26, "der", "lmdlDer", "keyword.operator.derivative.lmdl"),
    (26, "==", "lmdlOperator", "keyword.operator.lmdl"),
    (26, "max", "lmdlBuiltin", "support.function.builtin.lmdl"),
    (26, "sin", "lmdlBuiltin", "support.function.builtin.lmdl"),
    (26, "time", "lmdlTime", "variable.language.time.lmdl"),
    (26, ") * k", None, None),
    (26, "*", "lmdlOperator", "keyword.operator.lmdl"),
    (27, "assert", "lmdlAssert", "keyword.other.assert.lmdl"),
    (27, "it", "lmdlString", "string.quoted.single.lmdl"),
    (27, "s negative", "lmdlString", "string.quoted.single.lmdl"),
    (27, "''", "lmdlQuoteEscape", "constant.character.escape.quote.lmdl"),
    (29, "end", "lmdlEnd", "keyword.other.end.lmdl"),
    # contextual keywords only in their place, special forms where called
    (33, "initial", None, None),
    (34, "mode", None, None),
    (40, "events", "lmdlSection", "keyword.other.section.lmdl"),
    (41, "when", "lmdlContextual", "keyword.other.contextual.lmdl"),
    (41, "initialevent", "lmdlContextualEvent", "keyword.other.contextual.lmdl"),
    (42, "initial", None, None),
    (43, "elsewhen", "lmdlContextual", "keyword.other.contextual.lmdl"),
    (43, "edge", "lmdlSpecialForm", "support.function.special-form.lmdl"),
    (43, "time", "lmdlTime", "variable.language.time.lmdl"),
    (43, "initialevent", "lmdlContextualEvent", "keyword.other.contextual.lmdl"),
    (48, "delay", "lmdlSpecialForm", "support.function.special-form.lmdl"),
    (48, "History", None, None),
    (48, "value", "lmdlSpecialForm", "support.function.special-form.lmdl"),
    (48, "integ", "lmdlSpecialForm", "support.function.special-form.lmdl"),
    (49, "let", "lmdlFunction", "storage.type.function.lmdl"),
    (51, "in", "lmdlContextual", "keyword.other.contextual.lmdl"),
    (52, "w", None, None),
    (55, "modecharts", "lmdlSection", "keyword.other.section.lmdl"),
    (56, "mc", None, None),
    (56, "modechart", "lmdlContextualChart", "keyword.other.contextual.lmdl"),
    (57, "modes", "lmdlContextual", "keyword.other.contextual.lmdl"),
    (58, "mode", "lmdlContextual", "keyword.other.contextual.lmdl"),
    (58, "free", None, None),
    (59, "entry", "lmdlContextual", "keyword.other.contextual.lmdl"),
    (60, "v_before", None, None),
    (63, "initial", None, None),
    (67, "transitions", "lmdlContextual", "keyword.other.contextual.lmdl"),
    (68, "free", None, None),
    (68, "edge", "lmdlSpecialForm", "support.function.special-form.lmdl"),
    (70, "initial", "lmdlContextual", "keyword.other.contextual.lmdl"),
    (71, "free", None, None),
    (71, "mode", None, None),
    (77, "function", "lmdlFunction", "storage.type.function.lmdl"),
    (78, "definitions", "lmdlContextual", "keyword.other.contextual.lmdl"),
    (79, "f", None, None),
]


def check_expectations(name, lines, scope_at):
    """scope_at(line, col) -> the innermost name at that 0-based position,
    or None."""
    for lnum, text, vim_group, tm_scope in EXPECT:
        want = vim_group if name == "vim" else tm_scope
        line = lines[lnum - 1]
        col = line.find(text)
        if col < 0:
            die("sample line %d has no %r" % (lnum, text))
        if want is None:
            # only the first word must be plain
            word = re.match(r"\w*", text).group(0) or text[0]
            got = {scope_at(lnum, col + i) for i in range(len(word))}
            if got != {None}:
                fail("%s: line %d %r is highlighted as %s" % (name, lnum, word, got))
            continue
        got = {scope_at(lnum, col + i) for i in range(len(text))}
        if got != {want}:
            fail("%s: line %d %r is %s, expected %s" % (name, lnum, text, sorted(map(str, got)), want))


class TextMate:
    """A small interpreter of the TextMate rules this grammar uses: match,
    begin/end, captures, patterns and include (#name, $self), line by line
    as editors run them.  Regexes are Python's, which agree with Oniguruma
    on the constructs used here."""

    def __init__(self, g):
        self.g = g
        self.cache = {}

    def rx(self, s):
        if s not in self.cache:
            self.cache[s] = re.compile(s)
        return self.cache[s]

    def flatten(self, patterns, seen=()):
        out = []
        for p in patterns:
            if "include" in p:
                inc = p["include"]
                if inc in seen:
                    continue
                target = {"patterns": self.g["patterns"]} if inc == "$self" \
                    else self.g["repository"][inc[1:]]
                sub = target["patterns"] if ("patterns" in target and "match" not in target
                                             and "begin" not in target) else [target]
                out += self.flatten(sub, seen + (inc,))
            elif "patterns" in p and "match" not in p and "begin" not in p:
                out += self.flatten(p["patterns"], seen)
            else:
                out.append(p)
        return out

    def paint(self, scopes, m, base, name, captures):
        for i in range(m.start(), m.end()):
            scopes[i] = base + ([name] if name else [])
        for k, c in (captures or {}).items():
            k = int(k)
            if m.group(k) is not None and "name" in c:
                for i in range(m.start(k), m.end(k)):
                    scopes[i] = scopes[i] + [c["name"]]

    def tokenize(self, lines):
        stack = []              # (rule, scope names) of open begin/end rules
        result = []
        for line in lines:
            scopes = [[] for _ in line]
            pos = guard = 0
            while pos <= len(line):
                base = [s for r, ss in stack for s in ss]
                best = None     # (start, order, kind, rule, match)
                cands = []
                if stack:
                    cands.append(("end", stack[-1][0]))
                pats = stack[-1][0].get("patterns", []) if stack else self.g["patterns"]
                cands += [("rule", p) for p in self.flatten(pats)]
                for order, (kind, r) in enumerate(cands):
                    src = r["end"] if kind == "end" else r.get("match", r.get("begin"))
                    m = self.rx(src).search(line, pos)
                    if m and (best is None or m.start() < best[0]):
                        best = (m.start(), order, kind, r, m)
                if best is None:
                    for i in range(pos, len(line)):
                        scopes[i] = base
                    break
                _, _, kind, r, m = best
                for i in range(pos, m.start()):
                    scopes[i] = base
                if kind == "end":
                    rule, ss = stack.pop()
                    self.paint(scopes, m, base, None, r.get("endCaptures", r.get("captures")))
                elif "begin" in r:
                    names = [r["name"]] if "name" in r else []
                    self.paint(scopes, m, base, r.get("name"), r.get("beginCaptures", r.get("captures")))
                    stack.append((r, names))
                else:
                    self.paint(scopes, m, base, r.get("name"), r.get("captures"))
                # Advance; a zero-width match that opens or closes nothing
                # must not be found again at the same place.
                if m.end() > pos:
                    pos = m.end()
                elif kind == "rule" and "begin" not in r:
                    pos += 1
                guard += 1
                if guard > 10 * (len(line) + 10):
                    die("TextMate: no progress on line %r" % line)
            result.append(scopes)
        return result


def check_textmate():
    lines = open(SAMPLE, encoding="utf-8").read().split("\n")
    g = json.load(open(TM_GRAMMAR, encoding="utf-8"))
    tm = TextMate(g)
    toks = tm.tokenize(lines)
    # punctuation scopes are not what the expectations are about
    def scope_at(lnum, col):
        ss = [s for s in toks[lnum - 1][col] if not s.startswith("punctuation.")]
        return ss[-1] if ss else None
    check_expectations("TextMate", lines, scope_at)


VIM_DUMP = r"""
if &filetype !=# 'lmdl'
  call writefile(['filetype is "' . &filetype . '", not lmdl'], g:out)
  qall!
endif
let s:rows = []
for s:l in range(1, line('$'))
  let s:names = []
  for s:c in range(1, col([s:l, '$']) - 1)
    call add(s:names, synIDattr(synID(s:l, s:c, 1), 'name'))
  endfor
  call add(s:rows, join(s:names, ' '))
endfor
call writefile(s:rows, g:out)
qall!
"""


def check_vim():
    vim = shutil.which("vim")
    if not vim:
        print("vim is not installed; skipped")
        sys.exit(77)
    lines = open(SAMPLE, encoding="utf-8").read().split("\n")
    with tempfile.TemporaryDirectory() as tmp:
        script, out = os.path.join(tmp, "dump.vim"), os.path.join(tmp, "out")
        open(script, "w").write(VIM_DUMP)
        # A clean Vim with editors/vim first on the runtime path, as the
        # README's install instructions arrange.
        cmd = [vim, "-u", "NONE", "-i", "NONE", "-N", "-n", "-es",
               "--cmd", "set runtimepath^=" + os.path.join(SRC, "editors/vim"),
               "--cmd", "let g:out = '%s'" % out,
               "-c", "filetype on", "-c", "syntax on",
               "-c", "edit " + SAMPLE, "-c", "source " + script]
        subprocess.run(cmd, stdin=subprocess.DEVNULL, timeout=60)
        if not os.path.exists(out):
            die("vim wrote nothing")
        rows = open(out).read().split("\n")
    if rows and rows[0].startswith("filetype is"):
        die("ftdetect: " + rows[0])
    def scope_at(lnum, col):
        names = rows[lnum - 1].split(" ")
        return names[col] if col < len(names) and names[col] else None
    check_expectations("vim", lines, scope_at)


mode = sys.argv[2]
{"keywords": check_keywords, "textmate": check_textmate, "vim": check_vim}[mode]()
if failures:
    sys.exit(1)
print("ok")
