#!/usr/bin/python3
"""text_vs_json.py LMDLC ERRORS_DIR - every tests/errors input gives the same
diagnostics in both formats.

For each ERRORS_DIR/*.lmdl, `lmdlc check` runs once with the text format
and once with --diagnostics-format=json.  The JSON must be JSON Lines (each
line one object with exactly the documented fields and types), the exit
status the same, and the diagnostics the same, in the same order: file,
line, column, severity and message of each error or warning, then of each
of its notes.  Where the text underlines a span on one line, the caret
must sit at the JSON column and the underline be end_column - column wide.
"""
import glob
import json
import os
import re
import subprocess
import sys

lmdlc, errors = sys.argv[1], sys.argv[2]
HEAD = re.compile(r"^(?:(.*?):(\d+):(\d+)|lmdlc): (error|warning|note): (.*)$")
LOC = ["file", "line", "column", "end_line", "end_column"]
failures = 0


def fail(name, msg):
    global failures
    failures += 1
    print("FAIL: %s: %s" % (name, msg))


def text_diags(text):
    """(file, line, column, severity, message, caret column, underline
    width or None) for each message of the text format."""
    lines = text.split("\n")
    out = []
    for i, l in enumerate(lines):
        m = HEAD.match(l)
        if not m:
            continue
        f, line, col, sev, msg = m.groups()
        caret = width = None
        quoted = lines[i + 1] if i + 1 < len(lines) else ""
        if f is not None and " | ..." not in quoted and not quoted.endswith("..."):
            under = lines[i + 2]
            if under.startswith("      | ") and "^" in under:
                body = under[len("      | "):]
                caret = body.index("^") + 1
                width = 1 + body.count("~")
        out.append((f, int(line) if line else None, int(col) if col else None, sev, msg,
                    caret, width))
    return out


def check_object(name, o, note):
    want = LOC + (["message"] if note else ["severity", "message", "notes"])
    if list(o) != want:
        fail(name, "fields %s, expected %s" % (list(o), want))
        return False
    if o["file"] is None:
        if any(o[k] is not None for k in LOC):
            fail(name, "no file but a line or column: %s" % o)
    else:
        if not isinstance(o["file"], str) or not all(isinstance(o[k], int) and o[k] >= 1
                                                    for k in LOC[1:]):
            fail(name, "bad location %s" % o)
        elif (o["end_line"], o["end_column"]) < (o["line"], o["column"]):
            fail(name, "the end is before the start: %s" % o)
    if not note and o["severity"] not in ("error", "warning", "note"):
        fail(name, "severity %r" % o["severity"])
    return True


inputs = sorted(glob.glob(os.path.join(errors, "*.lmdl")))
if not inputs:
    print("FAIL: no inputs in %s" % errors)
    sys.exit(1)
for path in inputs:
    name, d = os.path.basename(path), os.path.dirname(path)
    t = subprocess.run([lmdlc, "check", name], cwd=d, capture_output=True)
    j = subprocess.run([lmdlc, "check", "--diagnostics-format=json", name], cwd=d,
                       capture_output=True)
    if t.returncode != j.returncode:
        fail(name, "exit %d with text, %d with json" % (t.returncode, j.returncode))
    if t.stdout != j.stdout:
        fail(name, "stdout differs between the formats")
    flat = []
    for n, raw in enumerate(j.stderr.split(b"\n")[:-1], 1):
        try:
            o = json.loads(raw)     # bytes: must also be valid UTF-8
        except ValueError as e:
            fail(name, "line %d is not JSON (%s): %r" % (n, e, raw))
            continue
        if not check_object(name, o, False):
            continue
        flat.append(o)
        for note in o["notes"]:
            if check_object(name, note, True):
                flat.append(dict(note, severity="note"))
    if not j.stderr.endswith(b"\n") and j.stderr:
        fail(name, "the last line is not terminated")
    text = text_diags(t.stderr.decode("utf-8", "replace"))
    got = [(o["file"], o["line"], o["column"], o["severity"], o["message"]) for o in flat]
    want = [x[:5] for x in text]
    if got != want:
        fail(name, "diagnostics differ:\n  text %s\n  json %s" % (want, got))
        continue
    for o, x in zip(flat, text):
        caret, width = x[5], x[6]
        if caret is None or o["file"] is None:
            continue
        if caret != o["column"]:
            fail(name, "caret at %d, column %d" % (caret, o["column"]))
        if o["end_line"] == o["line"] and width != max(1, o["end_column"] - o["column"]):
            fail(name, "underline %d wide, span %d..%d" % (width, o["column"], o["end_column"]))
print("%d inputs, %s" % (len(inputs), "failures: %d" % failures if failures else "ok"))
sys.exit(1 if failures else 0)
