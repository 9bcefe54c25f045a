#!/usr/bin/env python3
"""includes.py - the include rule of the source tree, checked mechanically.

The compiler is one folder per phase, in pipeline order (docs/design.md):

    runtime/common < base < ir < front < sema < elab < units < flatten
                   < opt < structure < plan < emit < driver < tools < main

(main is compiler/main.c, the program, which links the tools.)
A file may include the headers of its own phase and of the phases before
it, never a later one; a header named *_internal.h only from its own
folder (and the folders inside it); rt_model.h (the generated code's interface) only from emit/, the
FMU tools and the runtime.  The runtime includes only its own headers
(runtime/, runtime/common/, runtime/fmi/), and runtime/common/ only its
own.  The grammar (grammar/) counts as the front end; the scanner's and
parser's generated headers are the front end's.

Usage: includes.py SRCDIR.  Prints each violation as FILE:LINE: message
and exits 1 if there is any.
"""
import os
import re
import sys

PHASES = ["common", "base", "ir", "front", "sema", "elab", "units", "flatten",
          "opt", "structure", "plan", "emit", "driver", "tools", "main"]
GENERATED = {"parser.h": "front", "lexer.h": "front"}
# A header of the tree may not have a system header's name: with the
# phases' folders on the include path, <limits.h> would find it.
SYSTEM = set("""assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h
limits.h locale.h math.h setjmp.h signal.h stdalign.h stdarg.h stdatomic.h stdbool.h
stddef.h stdint.h stdio.h stdlib.h stdnoreturn.h string.h tgmath.h threads.h time.h
uchar.h wchar.h wctype.h dirent.h fcntl.h glob.h grp.h libgen.h limits.h link.h
poll.h pthread.h pwd.h regex.h sched.h search.h semaphore.h spawn.h strings.h
syslog.h termios.h unistd.h utime.h elf.h features.h malloc.h memory.h
zip.h klu.h""".split())


def phase_of(rel):
    parts = rel.split("/")
    if rel == "compiler/main.c":
        return "main"
    if parts[0] == "compiler" and len(parts) > 2:
        return parts[1]
    if parts[0] == "grammar":
        return "front"
    if parts[0] == "tools":
        return "tools"
    if rel.startswith("runtime/common/"):
        return "common"
    if parts[0] == "runtime":
        return "runtime"
    return None


def main():
    src = sys.argv[1]
    files = []
    for top in ("compiler", "runtime", "tools", "grammar"):
        for d, _, names in os.walk(os.path.join(src, top)):
            for n in names:
                if n.endswith((".c", ".h", ".y", ".l")):
                    files.append(os.path.relpath(os.path.join(d, n), src))
    where = {}
    for f in files:
        if f.endswith(".h"):
            where.setdefault(os.path.basename(f), []).append(f)
    bad = []
    for name in sorted(where):
        if name in SYSTEM:
            bad.append("%s: a header of the tree named like the system's <%s>" % (where[name][0], name))
    for name, paths in where.items():
        if len(paths) > 1:
            bad.append("%s: a header of this name is also %s" % (paths[0], ", ".join(paths[1:])))
    for f in sorted(files):
        mine = phase_of(f)
        text = open(os.path.join(src, f), encoding="utf-8", errors="replace").read()
        for lineno, line in enumerate(text.split("\n"), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            inc = os.path.basename(m.group(1))
            if inc in GENERATED:
                theirs, target = GENERATED[inc], inc
            elif inc in where:
                target = where[inc][0]
                theirs = phase_of(target)
            else:
                bad.append("%s:%d: includes \"%s\", which is not in the tree" % (f, lineno, inc))
                continue
            at = "%s:%d" % (f, lineno)
            home = os.path.dirname(target)
            if inc.endswith("_internal.h") and not (os.path.dirname(f) + "/").startswith(home + "/"):
                bad.append("%s: %s is internal to %s/" % (at, inc, os.path.dirname(target)))
            if mine == "common":
                if theirs != "common":
                    bad.append("%s: runtime/common/ includes %s, which is not in common/" % (at, inc))
                continue
            if inc == "rt_model.h" and not (mine in ("emit", "runtime") or
                                            os.path.basename(f).startswith("fmu")):
                bad.append("%s: only emit/, the FMU tools and the runtime include rt_model.h" % at)
                continue
            if mine == "runtime":
                if theirs not in ("runtime", "common"):
                    bad.append("%s: the runtime includes %s, a header of compiler phase %s"
                               % (at, inc, theirs))
                continue
            if theirs == "runtime":
                if inc != "rt_model.h" and inc != "lmdl_fmi.h":
                    bad.append("%s: phase %s includes the runtime's %s" % (at, mine, inc))
                continue
            if mine not in PHASES or theirs not in PHASES:
                bad.append("%s: %s: unknown phase (%s includes %s)" % (at, f, mine, theirs))
                continue
            if PHASES.index(theirs) > PHASES.index(mine):
                bad.append("%s: phase %s includes %s of the later phase %s"
                           % (at, mine, inc, theirs))
    for b in bad:
        print(b)
    if bad:
        print("includes.py: %d violation(s) of the include rule" % len(bad))
        return 1
    print("includes.py: %d files follow the include rule" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
