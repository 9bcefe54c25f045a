#!/usr/bin/env python3
"""lsp_test.py - a scripted Language Server Protocol client for `lmdlc lsp`.

Usage: lsp_test.py LMDLC CASE

Starts `LMDLC lsp`, speaks JSON-RPC with Content-Length framing to it,
and checks one case (the cases are the functions named case_*, each a
ctest test lsp.CASE):

  diagnostics  an error in the open (unsaved) text is published with its
               message and range; a didChange that fixes it publishes an
               empty list; a syntax error still gets diagnostics; another
               open document's unsaved text is what a lookup reads
  hover        a parameter, an instance's argument, a library component
  definition   a library component, a +package component, a component of
               another file, inst.member into the instance's component
  completion   members after `inst.`, unit symbols inside '...', package
               paths after `parts.` and `foundation.mechanical.`
  symbols      the file's component and its members, with ranges
  robustness   malformed input (bad JSON, bad framing, deep nesting, an
               unknown method, requests before initialize) gets errors and
               the server keeps answering; shutdown then exit ends it with 0
  exit         exit without shutdown ends the server with 1

The model files are tests/lsp/ws (Model.lmdl uses the library's Mass and
Fixed, Coil.lmdl of its folder and parts.Damper2 of +parts).  Each case
takes well under a second; any answer that is missing after 20 seconds
fails it.
"""
import json
import os
import queue
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
WS = os.path.join(HERE, "ws")
TIMEOUT = 20


def uri(path):
    return "file://" + path


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)
    print("ok: " + msg)


def pos_of(text, needle, nth=0, at=0):
    """The LSP position (ASCII text) of the nth needle, plus at characters."""
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    i += at
    line = text.count("\n", 0, i)
    return {"line": line, "character": i - (text.rfind("\n", 0, i) + 1)}


class Server:
    def __init__(self, lmdlc, initialize=True):
        env = dict(os.environ)
        env.pop("LMDL_PATH", None)
        self.p = subprocess.Popen([lmdlc, "lsp"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=sys.stderr, env=env)
        self.q = queue.Queue()
        self.notes = []
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()
        if initialize:
            r = self.request("initialize", {"processId": None, "rootUri": uri(WS),
                                            "capabilities": {}})
            caps = r["result"]["capabilities"]
            check(caps["hoverProvider"] and caps["definitionProvider"]
                  and caps["documentSymbolProvider"]
                  and "." in caps["completionProvider"]["triggerCharacters"]
                  and caps["textDocumentSync"]["change"] == 1,
                  "initialize advertises the capabilities")
            self.notify("initialized", {})

    def _read(self):
        f = self.p.stdout
        while True:
            length = None
            while True:
                line = f.readline()
                if not line:
                    self.q.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                k, _, v = line.partition(b":")
                if k.strip().lower() == b"content-length":
                    length = int(v)
            body = f.read(length)
            self.q.put(json.loads(body))

    def raw(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def send(self, obj):
        body = json.dumps(obj).encode()
        self.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def get(self):
        try:
            m = self.q.get(timeout=TIMEOUT)
        except queue.Empty:
            fail("no message from the server in %d s" % TIMEOUT)
        if m is None:
            fail("the server closed its output")
        return m

    def response(self, rid):
        while True:
            m = self.get()
            if m.get("id") == rid and "method" not in m:
                return m
            self.notes.append(m)

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return self.response(rid)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self, doc_uri):
        """The next publishDiagnostics for doc_uri."""
        for i, m in enumerate(self.notes):
            if m.get("method") == "textDocument/publishDiagnostics" \
                    and m["params"]["uri"] == doc_uri:
                del self.notes[i]
                return m["params"]["diagnostics"]
        while True:
            m = self.get()
            if m.get("method") == "textDocument/publishDiagnostics" \
                    and m["params"]["uri"] == doc_uri:
                return m["params"]["diagnostics"]
            self.notes.append(m)

    def open(self, path, text):
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri(path), "languageId": "lmdl", "version": 1, "text": text}})
        return self.diagnostics(uri(path))

    def change(self, path, text, version=2):
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri(path), "version": version},
            "contentChanges": [{"text": text}]})
        return self.diagnostics(uri(path))

    def at(self, method, path, position):
        return self.request(method, {"textDocument": {"uri": uri(path)},
                                     "position": position})["result"]

    def finish(self):
        r = self.request("shutdown", None)
        check("result" in r and r["result"] is None, "shutdown answers null")
        self.notify("exit", None)
        code = self.p.wait(timeout=TIMEOUT)
        check(code == 0, "exit after shutdown ends the server with 0 (got %s)" % code)


MODEL = os.path.join(WS, "Model.lmdl")
COIL = os.path.join(WS, "Coil.lmdl")
DAMPER = os.path.join(WS, "+parts", "Damper2.lmdl")
STDLIB = os.path.join(os.path.dirname(os.path.dirname(HERE)), "library")


def model_text():
    return open(MODEL).read()


def case_diagnostics(s):
    good = model_text()
    bad = good.replace("Coil(k = k)", "Coil(k = kk)")
    d = s.open(MODEL, bad)
    check(len(d) >= 1, "an unknown name gives a diagnostic")
    check(d[0]["severity"] == 1 and "'kk'" in d[0]["message"],
          "it is an error naming 'kk': %r" % d[0]["message"])
    want = pos_of(bad, "kk")
    check(d[0]["range"]["start"] == want
          and d[0]["range"]["end"] == {"line": want["line"],
                                       "character": want["character"] + 2},
          "its range is the name's: %r" % d[0]["range"])
    check(s.change(MODEL, good) == [], "the fix clears the diagnostics")
    # UTF-16 positions: a 2-byte and a 4-byte character before the error
    wide = good.replace("Coil(k = k)", "Coil(k = k * {1, '\u00b5m/\U0001d707'} + kk)")
    d = s.change(MODEL, wide, 7)
    line = pos_of(wide, "kk)")["line"]
    prefix = wide.split("\n")[line].split("kk)")[0]
    want = {"line": line, "character": len(prefix.encode("utf-16-le")) // 2}
    check(len(d) >= 1 and d[0]["range"]["start"] == want
          and d[0]["range"]["end"]["character"] == want["character"] + 2,
          "positions count UTF-16 units: %r, want %r" % (d and d[0]["range"], want))
    check(s.change(MODEL, good, 8) == [], "and clean again")
    d = s.change(MODEL, good.replace("connections", "connections\n    connect(w.P,"), 3)
    check(len(d) >= 1 and d[0]["severity"] == 1,
          "a syntax error gets a diagnostic: %r" % (d[0]["message"] if d else None))
    d = s.change(MODEL, good.replace("{2, 'kg'}", "{2, 'kgg'}"), 4)
    check(len(d) >= 1 and "kgg" in d[0]["message"], "an unknown unit is reported")
    # a library component (nodes) is checked as one: clean
    check(s.open(COIL, open(COIL).read()) == [], "a library component is clean")
    # the unsaved text of another open document is what the model sees,
    # and a change to it re-checks the model (no save needed)
    broken = open(COIL).read().replace("k = {1000", "stiff = {1000").replace("k * (", "stiff * (")
    check(s.change(MODEL, good, 5) == [], "the model is clean again")
    s.change(COIL, broken, 2)
    d = s.diagnostics(uri(MODEL))
    check(len(d) >= 1 and "'k'" in d[0]["message"],
          "a change to Coil re-checks the open model: %r" % (d[0]["message"] if d else None))
    s.change(COIL, open(COIL).read(), 3)
    check(s.diagnostics(uri(MODEL)) == [], "fixing Coil clears the model's error, unedited")
    s.change(COIL, broken, 4)
    s.diagnostics(uri(MODEL))
    d = s.change(MODEL, good, 6)
    check(len(d) >= 1 and "'k'" in d[0]["message"] and "Coil" in d[0]["message"],
          "the model sees Coil's unsaved text: %r" % (d[0]["message"] if d else None))
    s.notify("textDocument/didClose", {"textDocument": {"uri": uri(COIL)}})
    check(s.diagnostics(uri(COIL)) == [], "didClose clears the closed file's diagnostics")
    check(s.change(MODEL, good, 7) == [], "closed, Coil is read from disk again")
    r = s.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    check("error" in r and r["error"]["code"] == -32600, "a second initialize is refused: %r" % r)
    s.finish()


def case_hover(s):
    text = model_text()
    s.open(MODEL, text)
    h = s.at("textDocument/hover", MODEL, pos_of(text, "k = k", at=4))
    v = h["contents"]["value"]
    check("(parameter) k = {200, 'N/m'}" in v and "N/m" in v and "spring rate" in v,
          "hover on a parameter: kind, value, unit, description: %r" % v)
    h = s.at("textDocument/hover", MODEL, pos_of(text, "k = k"))
    v = h["contents"]["value"]
    check("{1000, 'N/m'}" in v and "stiffness" in v and "Coil" in v,
          "hover on an argument name is the component's parameter: %r" % v)
    h = s.at("textDocument/hover", MODEL, pos_of(text, "Mass", at=1))
    v = h["contents"]["value"]
    check("component Mass" in v and "Point mass" in v,
          "hover on a library component: %r" % v)
    h = s.at("textDocument/hover", MODEL, pos_of(text, "m.P", at=2))
    v = h["contents"]["value"]
    check("(node) P" in v and "TranslationalPB" in v, "hover on inst.node: %r" % v)
    h = s.at("textDocument/hover", MODEL, pos_of(text, "connections", at=3))
    check(h is None, "hover on a keyword is null")
    s.finish()


def same_file(u, path):
    return u == uri(os.path.realpath(path)) or u == uri(path)


def case_definition(s):
    text = model_text()
    s.open(MODEL, text)
    loc = s.at("textDocument/definition", MODEL, pos_of(text, "Mass"))
    mass = os.path.join(STDLIB, "translational", "Mass.lmdl")
    check(same_file(loc["uri"], mass)
          and loc["range"]["start"] == {"line": 0, "character": 10},
          "Mass is in the standard library: %r" % loc)
    loc = s.at("textDocument/definition", MODEL, pos_of(text, "Damper2", at=3))
    check(same_file(loc["uri"], DAMPER)
          and loc["range"]["start"] == {"line": 0, "character": 10},
          "parts.Damper2 is in +parts: %r" % loc)
    loc = s.at("textDocument/definition", MODEL, pos_of(text, "Coil"))
    check(same_file(loc["uri"], COIL), "Coil is in another file: %r" % loc)
    loc = s.at("textDocument/definition", MODEL, pos_of(text, "s.B", at=2))
    check(same_file(loc["uri"], COIL)
          and loc["range"]["start"] == {"line": 4, "character": 4},
          "s.B is Coil's node B: %r" % loc)
    loc = s.at("textDocument/definition", MODEL, pos_of(text, "m.P", at=2))
    check(same_file(loc["uri"], mass) and loc["range"]["start"]["line"] == 4,
          "m.P is Mass's node P: %r" % loc)
    loc = s.at("textDocument/definition", MODEL, pos_of(text, "Coil(k = k)", at=9))
    check(loc["uri"] == uri(MODEL) and loc["range"]["start"] == pos_of(text, "k = {200"),
          "k in an argument's value is the model's parameter: %r" % loc)
    s.finish()


def labels(result):
    items = result["items"] if isinstance(result, dict) else result
    return {i["label"] for i in items}


def case_completion(s):
    good = model_text()
    s.open(MODEL, good)
    text = good.replace("    connect(s.F, d.F, m.P);", "    connect(s.F, d.F, m.")
    s.change(MODEL, text)
    got = labels(s.at("textDocument/completion", MODEL, pos_of(text, "d.F, m.", at=7)))
    check({"P", "m", "x", "v", "f"} <= got, "members after 'm.': %r" % sorted(got))
    text = good.replace("  end\n  components", "    q = {1, '\n  end\n  components")
    s.change(MODEL, text, 3)
    got = labels(s.at("textDocument/completion", MODEL, pos_of(text, "{1, '", at=5)))
    check({"N", "m", "kg", "s", "rad", "degC"} <= got, "units inside '...': %r" % len(got))
    text = good.replace("    w = Fixed;", "    w = parts.")
    s.change(MODEL, text, 4)
    got = labels(s.at("textDocument/completion", MODEL, pos_of(text, "parts.", 1, 6)))
    check("Damper2" in got, "a +package's components after 'parts.': %r" % sorted(got))
    text = good.replace("    w = Fixed;", "    w = foundation.mechanical.")
    s.change(MODEL, text, 5)
    got = labels(s.at("textDocument/completion", MODEL,
                      pos_of(text, "foundation.mechanical.", at=22)))
    check({"translational", "rotational"} <= got,
          "the library's packages after 'foundation.mechanical.': %r" % sorted(got))
    s.finish()


def case_symbols(s):
    text = model_text()
    s.open(MODEL, text)
    r = s.request("textDocument/documentSymbol",
                  {"textDocument": {"uri": uri(MODEL)}})["result"]
    check(len(r) == 1 and r[0]["name"] == "Model" and r[0]["kind"] == 5,
          "one component, Model: %r" % [(x["name"], x["kind"]) for x in r])
    check(r[0]["selectionRange"]["start"] == {"line": 0, "character": 10}
          and r[0]["range"]["start"] == {"line": 0, "character": 0},
          "its ranges: %r" % r[0]["range"])
    kids = [(c["name"], c["kind"], c["detail"]) for c in r[0]["children"]]
    check(kids == [("k", 14, "parameter"), ("m", 19, "component"), ("s", 19, "component"),
                   ("d", 19, "component"), ("w", 19, "component")],
          "its members: %r" % kids)
    k = r[0]["children"][0]
    check(k["selectionRange"]["start"] == pos_of(text, "k = {200"),
          "a member's selection range is its name")
    s.finish()


def case_robustness(s):
    s.raw(b"Content-Length: 9\r\n\r\n{not json")
    m = s.get()
    check(m.get("error", {}).get("code") == -32700 and m.get("id") is None,
          "malformed JSON: parse error -32700")
    s.raw(b"Content-Length: 5\r\n\r\n[1,2]")
    check(s.get().get("error", {}).get("code") == -32600, "an array: invalid request")
    r = s.request("textDocument/frobnicate", {})
    check(r.get("error", {}).get("code") == -32601, "unknown request: -32601")
    s.notify("$/unknownNotification", {"x": 1})
    s.raw(b"X-Nothing: 1\r\n\r\n")             # a header block without a length
    deep = b"[" * 100000 + b"]" * 100000
    s.raw(b"Content-Length: %d\r\n\r\n" % len(deep) + deep)
    check(s.get().get("error", {}).get("code") == -32700, "deep nesting: parse error")
    body = b'{"jsonrpc":"2.0","id":7,"method":"x\\ud800"}'
    s.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    check(s.get().get("error", {}).get("code") == -32700, "a lone surrogate: parse error")
    # a document of garbage bytes, and requests on documents never opened
    d = s.open(os.path.join(WS, "Garbage.lmdl"), "component \x01 ((( end end 'x")
    check(len(d) >= 1, "a garbage document gets diagnostics")
    r = s.at("textDocument/hover", os.path.join(WS, "Nope.lmdl"), {"line": 0, "character": 0})
    check(r is None, "hover on a document never opened: null")
    r = s.at("textDocument/completion", os.path.join(WS, "Garbage.lmdl"),
             {"line": 99, "character": 99})
    check(isinstance(labels(r), set), "completion past the end of a document")
    text = model_text()
    s.open(MODEL, text)
    h = s.at("textDocument/hover", MODEL, pos_of(text, "k = k", at=4))
    check(h is not None and "spring rate" in h["contents"]["value"],
          "the server still answers after all that")
    s.finish()


def case_exit(lmdlc):
    s = Server(lmdlc, initialize=False)
    r = s.request("textDocument/hover", {"textDocument": {"uri": uri(MODEL)},
                                         "position": {"line": 0, "character": 0}})
    check(r.get("error", {}).get("code") == -32002, "a request before initialize: -32002")
    s.notify("exit", None)
    code = s.p.wait(timeout=TIMEOUT)
    check(code == 1, "exit without shutdown ends the server with 1 (got %s)" % code)


def main():
    lmdlc, case = sys.argv[1], sys.argv[2]
    if case == "exit":
        case_exit(lmdlc)
        return
    fn = globals().get("case_" + case)
    if not fn:
        fail("no case " + case)
    s = Server(lmdlc)
    try:
        fn(s)
    finally:
        if s.p.poll() is None:
            s.p.kill()


if __name__ == "__main__":
    main()
