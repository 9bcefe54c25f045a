#!/usr/bin/python3
"""check_grammars.py - the editor grammars (editors/) against the compiler.

    check_grammars.py SRCDIR keywords   reserved words and built-in functions
                                        of both grammars = the compiler's;
                                        the JSON files parse
    check_grammars.py SRCDIR textmate   the TextMate grammar highlights
                                        tests/editors/sample.lmdl as expected
    check_grammars.py SRCDIR vim        the Vim syntax file does (exit 77,
                                        skipped, when vim is not installed)

The reserved words come from the keyword table of grammar/lexer.l, the
built-in functions from the LMDL_BUILTINS (the rows before FN_NAMED) and LMDL_ARRAY_FUNCS tables in compiler/builtin.h.  A change of
either without the grammars, or of the grammars alone, fails here.
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

def lexer_keywords():
    """The reserved words of grammar/lexer.l: the entries of its keyword
    table, {"word", TOKEN}, or an X-macro list X(TOKEN, "word") if the
    table becomes one."""
    path = os.path.join(SRC, "grammar/lexer.l")
    text = open(path, encoding="utf-8").read()
    words = re.findall(r'\{\s*"([A-Za-z_]\w*)"\s*,\s*[A-Z_][A-Z0-9_]*\s*\}', text)
    words += re.findall(r'\b[A-Z_]+\s*\(\s*[A-Z_][A-Z0-9_]*\s*,\s*"([A-Za-z_]\w*)"\s*\)', text)
    # the section keywords come from the section table of compiler/ast.h,
    # X(SEC_KIND, "word", TOKEN, ...), when the lexer's table expands it
    if re.search(r"\bAST_SECTION_KINDS\s*\(", text):
        ast_h = open(os.path.join(SRC, "compiler/ast.h"), encoding="utf-8").read()
        m = re.search(r"#define\s+AST_SECTION_KINDS\(X\)(.*?)\n\n", ast_h, re.S)
        sections = re.findall(r'X\(\s*SEC_\w+\s*,\s*"([A-Za-z_]\w*)"\s*,\s*[A-Z_]+',
                              m.group(1) if m else "")
        if not sections:
            die("grammar/lexer.l expands AST_SECTION_KINDS, but no rows "
                'X(SEC_KIND, "word", TOKEN, ...) were found in compiler/ast.h')
        words += sections
    if not words:
        die("found no keywords in grammar/lexer.l (neither a table of "
            '{"word", TOKEN} entries nor X(TOKEN, "word") entries).  If the '
            "keyword table moved, make tests/editors/check_grammars.py read "
            "it from its new place.")
    if len(set(words)) != len(words):
        die("a keyword appears twice in grammar/lexer.l: %s" % sorted(words))
    return set(words)


def compiler_builtins():
    """The names of the LMDL_BUILTINS table (X(FN_SIN, "sin", 1, ...)) in
    compiler/builtin.h."""
    path = os.path.join(SRC, "compiler/builtin.h")
    text = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
    m = re.search(r"#define\s+LMDL_BUILTINS\(X\)(.*?)\n\n", text, re.S)
    if m:
        rows = re.findall(r'X\(\s*(\w+)\s*,\s*"(\w+)"\s*,\s*\d+', m.group(1))
        # the rows from FN_NAMED on are internal (fmin, fmax): no model names them
        named = re.search(r"FN_NAMED\s*=\s*(\w+)", text)
        ids = [i for i, _ in rows]
        if named and named.group(1) in ids:
            rows = rows[:ids.index(named.group(1))]
        names = [n for _, n in rows]
        # the functions of vectors and matrices, LMDL_ARRAY_FUNCS
        a = re.search(r"#define\s+LMDL_ARRAY_FUNCS\(X\)(.*?)\n\n", text, re.S)
        if a:
            names += re.findall(r'X\(\s*\w+\s*,\s*"(\w+)"\s*,\s*\d+', a.group(1))
        if names:
            return set(names)
    die("found no LMDL_BUILTINS table of X(id, \"name\", arity, ...) rows in "
        "compiler/builtin.h; if it moved, update tests/editors/check_grammars.py")


# ---- what the grammars say -------------------------------------------------

VIM_OPTIONS = {"contained", "skipwhite", "skipnl", "skipempty", "transparent",
               "display", "fold", "conceal", "oneline", "extend"}


def vim_words():
    """Reserved words: every word of every `syntax keyword` (options such as
    nextgroup=... left out).  Built-ins: the alternation of lmdlBuiltin."""
    keywords, builtins = [], None
    for line in open(VIM_SYNTAX, encoding="utf-8"):
        parts = line.split()
        if len(parts) >= 3 and parts[0] in ("syn", "synt", "syntax") and parts[1] in ("keyword", "keyw"):
            keywords += [w for w in parts[3:] if "=" not in w and w not in VIM_OPTIONS]
        m = re.match(r'\s*syn(?:tax)?\s+match\s+lmdlBuiltin\s+"\\<\\%\((.*?)\\\)', line)
        if m:
            builtins = m.group(1).split("\\|")
    if not keywords:
        die("no `syntax keyword` in %s" % VIM_SYNTAX)
    if builtins is None:
        die("no lmdlBuiltin match in %s" % VIM_SYNTAX)
    return keywords, builtins


def alternation(regex):
    """The words of every \\b(a|b|c)\\b in a TextMate regex."""
    words = []
    for group in re.findall(r"\\b\(([A-Za-z0-9_|]+)\)\\b", regex):
        words += group.split("|")
    return words


def textmate_words(g):
    rules = g["repository"]["keywords"]["patterns"]
    keywords = []
    for r in rules:
        keywords += alternation(r["match"])
    builtins = alternation(g["repository"]["builtins"]["match"])
    return keywords, builtins


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
    kw, bi = lexer_keywords(), compiler_builtins()
    vk, vb = vim_words()
    compare("Vim reserved words", vk, kw)
    compare("Vim built-in functions", vb, bi)
    tk, tb = textmate_words(json.load(open(TM_GRAMMAR, encoding="utf-8")))
    compare("TextMate reserved words", tk, kw)
    compare("TextMate built-in functions", tb, bi)
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
        print("%d reserved words, %d built-in functions: Vim and TextMate agree "
              "with the compiler" % (len(kw), len(bi)))


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
