#!/usr/bin/env python3
"""Independent record counts of Apple Health export.xml files (xml.etree.ElementTree.iterparse).

Counts every <Record> by its `type` attribute, <Workout> elements (key "Workout") and
<InstantaneousBeatsPerMinute> beats (key "InstantaneousBeatsPerMinute"), streaming (elements are
cleared as they end). SensorPipe's AppleHealthExportDecoder is compared against this output
(Tests/RecordingsTests/AppleHealthExportTests.swift; docs/VALIDATION.md "Apple Health export").

usage: scripts/health/count_records.py FILE.xml [FILE.xml ...]   -> JSON {file: {key: count}}
       scripts/health/count_records.py --staged                 -> the staged exports under
                                                                   ../shared/datasets/interchange
"""
import glob
import json
import os
import sys
import xml.etree.ElementTree as ET


def count(path):
    counts = {}
    for _, elem in ET.iterparse(path, events=("end",)):
        tag = elem.tag
        if tag == "Record":
            t = elem.get("type")
            counts[t] = counts.get(t, 0) + 1
        elif tag in ("Workout", "InstantaneousBeatsPerMinute"):
            counts[tag] = counts.get(tag, 0) + 1
        if tag in ("Record", "Workout", "ActivitySummary"):
            elem.clear()
    return dict(sorted(counts.items()))


def staged():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", "..", "..", "shared", "datasets", "interchange"))
    return sorted(glob.glob(os.path.join(root, "apple-health-*", "**", "*.xml"), recursive=True)), root


if __name__ == "__main__":
    args = sys.argv[1:]
    base = None
    if args == ["--staged"]:
        args, base = staged()
    out = {}
    for p in args:
        out[os.path.relpath(p, base) if base else p] = count(p)
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
