#!/usr/bin/env python3
"""Reference beat times for the MIT-BIH demo excerpts in Datasets/ecg (for the analyze tests).

Reads the cardiologists' annotations of records 100, 105 and 119 (../shared/datasets/mitdb, ODC-By
1.0), keeps the beat annotations (ANSI/AAMI EC57 beat codes) of the first 60 s, and converts their
sample index at 360 Hz to the demo session's Unix time (see scripts/make-demo-datasets.py):
time = session start + sample / 360. Writes Tests/PipelineTests/Fixtures/demo-beats.json.
Needs wfdb (pip install wfdb).
"""
import json
import pathlib

import wfdb

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "datasets" / "mitdb"
BEATS = set("NLRBAaJSVrFejnE/fQ?")
ANCHOR = 1716249600.0
out = {}
for k, name in enumerate(["100", "105", "119"]):
    ann = wfdb.rdann(str(SHARED / name), "atr", sampto=360 * 60)
    start = ANCHOR + 3600.0 * (9 + k)
    out[f"watch-1/electrocardiogram/ecg/session=mitdb-{name}"] = [
        start + s / 360.0 for s, sym in zip(ann.sample, ann.symbol) if sym in BEATS]
path = ROOT / "Tests" / "PipelineTests" / "Fixtures" / "demo-beats.json"
path.write_text(json.dumps(out, indent=1) + "\n")
print("wrote", path.relative_to(ROOT), {k: len(v) for k, v in out.items()})
