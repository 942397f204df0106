#!/usr/bin/env python3
"""Builds the libFuzzer seed corpora of scripts/fuzz.sh from the test fixtures and the
malformed-input corpus (Tests/*/Fixtures, Tests/RecordingsTests/Fixtures/bad).

usage: scripts/fuzz-seeds.py OUT_DIR   (writes OUT_DIR/<Target>/<n>)
WFDB seeds are a header, a NUL byte and its first signal file renamed f.dat (FuzzWFDB's input
layout); files above 256 KiB are cut to their first 256 KiB (libFuzzer mutates small inputs best).
"""
import glob
import gzip
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
FIX = os.path.join(ROOT, "Tests", "RecordingsTests", "Fixtures")
LIMIT = 256 << 10
out = sys.argv[1]


def read(path):
    with open(path, "rb") as f:
        return f.read(LIMIT)


def seed(target, name, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, re.sub(r"[^A-Za-z0-9._-]", "_", name)), "wb") as f:
        f.write(data[:LIMIT])


def files(*patterns):
    for p in patterns:
        for f in sorted(glob.glob(os.path.join(FIX, p), recursive=True)):
            if os.path.isfile(f) and not f.endswith((".md", "expected.json")) and "-expected" not in f:
                yield f


for f in files("sensorkit/*.ndjson*", "bad/sensorkit/*"):
    seed("FuzzSensorKit", os.path.relpath(f, FIX), read(f))
for f in files("sensorkit/mydatahelps*", "bad/sensorkit/mydatahelps*"):
    seed("FuzzMyDataHelps", os.path.relpath(f, FIX), read(f))
for f in files("health/*.csv", "bad/health/*"):
    seed("FuzzAppleHealth", os.path.relpath(f, FIX), read(f))
for f in files("bad/health-export/*"):
    seed("FuzzHealthExport", os.path.relpath(f, FIX), b"\x3f" + read(f))
for f in [os.path.join(ROOT, "Datasets", "apple-health", "export-excerpt.xml")]:
    seed("FuzzHealthExport", "export-excerpt.xml", b"\x3f" + read(f))
for f in files("csv/*", "bad/csv/*"):
    seed("FuzzCSV", os.path.relpath(f, FIX), read(f))
for f in files("butppg/*.csv", "bad/butppg/*"):
    seed("FuzzBUTPPG", os.path.relpath(f, FIX), read(f))
for f in files("gt3x/*.gt3x", "bad/gt3x/*"):
    seed("FuzzGT3X", os.path.relpath(f, FIX), read(f))
for f in files("matlab/*.mat", "bad/matlab/*"):
    seed("FuzzMATLAB", os.path.relpath(f, FIX), read(f))
for f in files("wfdb/**/*.hea", "bad/wfdb/*.hea"):
    header = read(f)
    text = header.decode("utf-8", "replace")
    if f.endswith(".gz"):
        continue
    lines = [l for l in text.splitlines() if l.strip() and not l.startswith("#")]
    dat = b""
    if len(lines) > 1:
        name = lines[1].split()[0]
        for candidate in [name, name + ".gz"]:
            p = os.path.join(os.path.dirname(f), candidate)
            if os.path.isfile(p):
                dat = gzip.open(p).read(LIMIT) if candidate.endswith(".gz") else read(p)
                break
        text = re.sub(r"(?m)^" + re.escape(name) + r"(\s)", r"f.dat\1", text)
    seed("FuzzWFDB", os.path.relpath(f, FIX), text.encode() + b"\0" + dat)
for f in files("wfdb/**/*.atr", "wfdb/**/*.qrs"):
    seed("FuzzWFDB", os.path.relpath(f, FIX), b"\0" + read(f))
for f in files("edf/*.edf", "edf/*.bdf", "bad/edf/*"):
    seed("FuzzEDF", os.path.relpath(f, FIX), read(f))
# The opener sees everything.
for f in files("**/*"):
    seed("FuzzOpener", os.path.relpath(f, FIX), read(f))
seed("FuzzManifest", "manifest", b"# recordings\r\n\xef\xbb\xbfa.csv \r\n\tdata/\nb.ndjson\n")
seed("FuzzManifest", "config", b'{"ecg": {"heart_rate_window_s": 10, "heart_rate_step_s": 10, '
     b'"hrv_window_s": 300, "quality_window_s": 10}, "decode": {"preset": "auto"}}')
# Results databases and shards (issue 33): the crafted corpus; libFuzzer mutates them from there.
CRAFTED = os.path.join(ROOT, "Tests", "PipelineTests", "Fixtures", "crafted")
for f in sorted(glob.glob(os.path.join(CRAFTED, "report", "*.sqlite"))):
    seed("FuzzReportDatabase", os.path.basename(f), read(f))
for f in sorted(glob.glob(os.path.join(CRAFTED, "merge", "*.sqlite"))):
    seed("FuzzMerge", os.path.basename(f), read(f))
for f in sorted(glob.glob(os.path.join(CRAFTED, "report", "count-1e300.sqlite"))):
    seed("FuzzMerge", "valid-" + os.path.basename(f), read(f))


def trimmed(path):
    """The database with at most 3 rows per table and 512-byte pages (≈ 30 KB instead of
    190 KB): libFuzzer runs and mutates small inputs many times faster."""
    import shutil
    import sqlite3
    import tempfile
    with tempfile.TemporaryDirectory() as scratch:
        copy = os.path.join(scratch, "t.sqlite")
        shutil.copyfile(path, copy)
        c = sqlite3.connect(copy)
        for (t,) in c.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").fetchall():
            c.execute('DELETE FROM "%s" WHERE rowid NOT IN (SELECT rowid FROM "%s" ORDER BY rowid LIMIT 3)' % (t, t))
        c.commit()
        c.execute("VACUUM")
        c.close()
        return read(copy)


for f in sorted(glob.glob(os.path.join(CRAFTED, "report", "*.sqlite"))):
    seed("FuzzReportDatabase", "small-" + os.path.basename(f), trimmed(f))
    seed("FuzzMerge", "small-" + os.path.basename(f), trimmed(f))
for f in sorted(glob.glob(os.path.join(CRAFTED, "merge", "*.sqlite"))):
    seed("FuzzMerge", "small-" + os.path.basename(f), trimmed(f) if not f.endswith("not-a-database.sqlite") else read(f))
for target in sorted(os.listdir(out)):
    print(target, len(os.listdir(os.path.join(out, target))), "seeds")
