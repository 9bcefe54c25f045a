#!/usr/bin/python3
"""invalid_bytes.py LMDLC - JSON diagnostics stay valid JSON and valid
UTF-8 when a message or a file name holds bytes that are not UTF-8, control
characters, quotes or backslashes: a component name given to --top, and
the name of a file that cannot be read.  Each invalid byte becomes U+FFFD;
everything else comes back exactly."""
import json
import os
import subprocess
import sys
import tempfile

lmdlc = sys.argv[1]
failures = 0


def run(args, cwd):
    r = subprocess.run([lmdlc.encode()] + args, cwd=cwd, capture_output=True)
    lines = r.stderr.split(b"\n")
    if r.returncode != 2 or lines[-1] != b"" or len(lines) != 2:
        print("FAIL: %r: exit %d, stderr %r" % (args, r.returncode, r.stderr))
        sys.exit(1)
    return json.loads(lines[0])     # bytes: strict UTF-8


def expect(what, got, want):
    global failures
    if got != want:
        failures += 1
        print("FAIL: %s: %r, expected %r" % (what, got, want))


with tempfile.TemporaryDirectory() as tmp:
    with open(os.path.join(tmp, "model.lmdl"), "w") as f:
        f.write("component A\nend\n")
    o = run([b"check", b"--diagnostics-format=json", b"--top", b'B\xff\x01"\\\xce\xb8',
             b"model.lmdl"], tmp)
    expect("--top message", o["message"], "no component named 'B\ufffd\x01\"\\\u03b8' for --top")
    o = run([b"check", b"--diagnostics-format=json", b"no\xc3such\n.lmdl"], tmp)
    expect("unreadable file message", o["message"],
           "cannot read 'no\ufffdsuch\n.lmdl': No such file or directory")
    expect("no location", (o["file"], o["line"], o["column"]), (None, None, None))
    # a model file whose name is not UTF-8: the "file" field
    name = b"m\xe9\x7f.lmdl"
    with open(os.path.join(tmp.encode(), name), "wb") as f:
        f.write(b"component A\n  variables\n    x = {0, 'm'};\n  end\n  equations\n"
                b"    x == {1, 's'};\n  end\nend\n")
    o = run([b"check", b"--diagnostics-format=json", name], tmp)
    expect("file field", o["file"], "m\ufffd\x7f.lmdl")
    expect("location", (o["line"], o["column"], o["end_line"], o["end_column"]), (6, 5, 6, 19))
print("failures: %d" % failures if failures else "ok")
sys.exit(1 if failures else 0)
