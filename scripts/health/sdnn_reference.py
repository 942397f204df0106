#!/usr/bin/env python3
"""Reference SDNN of the beat lists in Apple Health HRV records (NumPy, independent of SensorPipe).

For each HKQuantityTypeIdentifierHeartRateVariabilitySDNN record with a
HeartRateVariabilityMetadataList, prints Apple's SDNN (the record's value, ms) and SDNN (sample
standard deviation, ddof=1) of the record's intervals computed three ways:
  bpm     : 60000 / bpm of every InstantaneousBeatsPerMinute (one interval per listed beat: the
            bpm of a beat is the rate of the interval ending at it, whose first beat may be unlisted)
  times   : differences of consecutive listed beat times where the two beats are adjacent (the
            difference within 30 % of the later beat's 60000 / bpm), 10 ms resolution
  hybrid  : the time difference where adjacent, else 60000 / bpm
and the rounding bound: bpm is written as an integer, so each 60000/bpm interval may be off by up
to e_i = 60000/(bpm-0.5) - 60000/bpm; |SD(x + e) - SD(x)| <= SD(e) <= sqrt(sum e_i^2 / (n-1)).

usage: scripts/health/sdnn_reference.py export.xml  -> JSON list, one object per HRV record
"""
import json
import sys
import xml.etree.ElementTree as ET

import numpy as np


def tod(text):
    t = text.strip()
    pm = None
    if t.upper().endswith(("AM", "PM")):
        pm = t.upper().endswith("PM")
        t = t[:-2].strip()
    h, m, s = t.split(":")
    h, m, s = int(h), int(m), float(s.replace(",", "."))
    if pm is not None:
        h = h % 12 + (12 if pm else 0)
    return h * 3600 + m * 60 + s


def main(path):
    out = []
    for _, rec in ET.iterparse(path, events=("end",)):
        if rec.tag != "Record":
            continue
        if rec.get("type") == "HKQuantityTypeIdentifierHeartRateVariabilitySDNN":
            beats = rec.findall("./HeartRateVariabilityMetadataList/InstantaneousBeatsPerMinute")
            if beats:
                bpm = np.array([float(b.get("bpm").replace(",", ".")) for b in beats])
                t = np.array([tod(b.get("time")) for b in beats])
                t = np.where(t < t[0] - 43200, t + 86400, t)
                rr_bpm = 60000.0 / bpm
                d = np.diff(t) * 1000.0
                adjacent = np.abs(d - rr_bpm[1:]) <= 0.3 * rr_bpm[1:]
                rr_times = d[adjacent]
                hybrid = rr_bpm.copy()
                hybrid[1:][adjacent] = d[adjacent]
                e = 60000.0 / (bpm - 0.5) - 60000.0 / bpm
                out.append({
                    "startDate": rec.get("startDate"),
                    "apple_sdnn_ms": float(rec.get("value")),
                    "beats": int(len(bpm)),
                    "sdnn_bpm_ms": float(np.std(rr_bpm, ddof=1)),
                    "adjacent_pairs": int(adjacent.sum()),
                    "sdnn_times_ms": float(np.std(rr_times, ddof=1)),
                    "sdnn_hybrid_ms": float(np.std(hybrid, ddof=1)),
                    "rounding_bound_ms": float(np.sqrt(np.sum(e * e) / (len(e) - 1))),
                })
        rec.clear()
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
