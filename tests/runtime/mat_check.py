"""mat_check.py - reads a simulator's MAT v4 results file with scipy and
checks it against OpenModelica's layout (runtime/rt_mat.c) and, given a
CSV of the same run, against every CSV column: the doubles must be equal
exactly (Python's float() reads the CSV's shortest decimals correctly
rounded, so equal text means equal doubles).

    python3 mat_check.py FILE.mat [--csv FILE.csv] [--param NAME=VALUE ...]
                         [--rows-only] [--aliases]

--param: a parameter's expected value in data_1 (both columns).
--rows-only: no CSV; check the layout and that the rows' times advance
(a run killed mid-way).
--aliases: the file must share rows of data_2 between variables, some
of them negated (a model with aliases written whole).
Values are compared bit for bit (the sign of a zero too; NaN with NaN).
Prints a summary line; exits 1 on the first mismatch.
"""
import csv
import sys

import numpy as np
import scipy.io


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def text_rows(a):
    return ["".join(r).rstrip(" \0") for r in a]


def main(argv):
    path = argv[0]
    csv_path = None
    params = {}
    rows_only = False
    aliases = False
    i = 1
    while i < len(argv):
        if argv[i] == "--csv":
            csv_path = argv[i + 1]
            i += 2
        elif argv[i] == "--param":
            k, v = argv[i + 1].split("=", 1)
            params[k] = float(v)
            i += 2
        elif argv[i] == "--rows-only":
            rows_only = True
            i += 1
        elif argv[i] == "--aliases":
            aliases = True
            i += 1
        else:
            fail("unknown argument " + argv[i])
    m = scipy.io.loadmat(path, chars_as_strings=False)
    for key in ("Aclass", "name", "description", "dataInfo", "data_1", "data_2"):
        if key not in m:
            fail("no matrix " + key)
    aclass = text_rows(m["Aclass"])
    if aclass != ["Atrajectory", "1.1", "", "binTrans"]:
        fail("Aclass is %r" % aclass)
    names = text_rows(m["name"].T)          # binTrans: one name per column
    info = m["dataInfo"]
    d1, d2 = m["data_1"], m["data_2"]
    nv = len(names)
    if info.shape != (4, nv) or m["description"].shape[1] != nv:
        fail("dataInfo %r / description %r for %d names" % (info.shape, m["description"].shape, nv))
    if info.dtype != np.int32 or d1.dtype != np.float64 or d2.dtype != np.float64:
        fail("matrix types %s %s %s" % (info.dtype, d1.dtype, d2.dtype))
    if names[0] != "time" or list(info[:, 0]) != [0, 1, 0, -1]:
        fail("time is not variable 1 with dataInfo [0 1 0 -1]")
    if d1.shape[1] != 2 or d1[0, 0] != 0 or d1[0, 1] < 0 \
            or not np.array_equal(d1[1:, 0], d1[1:, 1]):
        fail("data_1 is not the parameters at the start and stop times")

    def values(j):
        # a negative row: the variable is minus that row (an alias)
        mat, row = info[0, j], abs(info[1, j]) - 1
        src = d2 if mat in (0, 2) else d1
        if mat not in (0, 1, 2) or row < 0 or row >= src.shape[0]:
            fail("dataInfo of %s points outside the data" % names[j])
        if info[1, j] < 0 and mat != 2:
            fail("dataInfo of %s negates a row outside data_2" % names[j])
        return -src[row, :] if info[1, j] < 0 else src[row, :]

    used = {abs(int(info[1, j])) for j in range(nv) if info[0, j] in (0, 2)}
    if used != set(range(1, d2.shape[0] + 1)):
        fail("data_2 rows %r are no variable's" % sorted(set(range(1, d2.shape[0] + 1)) - used))
    in_d2 = sum(1 for j in range(nv) if info[0, j] in (0, 2))
    negated = sum(1 for j in range(nv) if info[1, j] < 0)
    if aliases and (d2.shape[0] >= in_d2 or negated == 0):
        fail("%d variables in %d rows of data_2, %d negated: no aliases shared"
             % (in_d2, d2.shape[0], negated))

    for k, v in params.items():
        if k not in names:
            fail("no parameter " + k)
        got = values(names.index(k))
        if not (got == v).all():
            fail("parameter %s is %r, expected %r" % (k, got, v))
    t = d2[0, :]
    if len(t) > 1 and (np.diff(t) < 0).any():
        fail("the rows' times go backwards")
    if rows_only:
        print("mat_check: %d variables, %d rows, layout as OpenModelica's" % (nv, d2.shape[1]))
        return
    with open(csv_path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    if d2.shape[1] != len(body):
        fail("%d rows in the MAT file, %d in the CSV" % (d2.shape[1], len(body)))
    compared = 0
    for c, name in enumerate(header):
        if name not in names:
            fail("CSV column %s is not in the MAT file" % name)
        got = values(names.index(name))
        want = np.array([float(r[c]) for r in body])
        same = (got.view(np.int64) == want.view(np.int64)) | (np.isnan(got) & np.isnan(want))
        if not same.all():
            bad = int(np.argmax(~same))
            fail("%s differs at row %d: MAT %r, CSV %r" % (name, bad, got[bad], want[bad]))
        compared += len(body)
    print("mat_check: %d variables, %d rows of %d values (%d negated variables), "
          "%d values equal to the CSV's" % (nv, d2.shape[1], d2.shape[0], negated, compared))


main(sys.argv[1:])
