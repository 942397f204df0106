#!/usr/bin/env python3
"""Independent reference for SensorPipe's EDF/BDF reader: pyedflib's (EDFlib's) physical values,
digital values and annotations of every EDF/BDF file given, as a JSON digest.

Usage:
    pip install pyedflib numpy
    python3 scripts/edf/pyedflib_reference.py OUT.json FILE.edf [FILE.bdf ...]
    # the committed references:
    python3 scripts/edf/pyedflib_reference.py Tests/RecordingsTests/Fixtures/edf/pyedflib-shared.json \
        ../shared/datasets/interchange/edf-*/*.edf ../shared/datasets/interchange/edf-*/*.bdf
    python3 scripts/edf/pyedflib_reference.py Datasets/edf/pyedflib-reference.json Datasets/edf/*.edf Datasets/edf/*.bdf

Per ordinary signal (pyedflib hides the annotation signals): label, samples, the FNV-1a 64 hash of
the little-endian float32 bytes of the physical values (pyedflib's float64 rounded to float32, as
SensorPipe delivers them) and of the little-endian int32 digital values, the first 8 physical
values (float64, repr) and min/max. Annotations: onset (pyedflib: seconds from the start
including the sub-second start), duration (-1 when none), text. A hash equal to SensorPipe's means
every sample is equal.
"""
import json
import os
import sys

import numpy as np
import pyedflib


def fnv1a64(data: bytes) -> str:
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"




def first_record_onset(path: str):
    """The first data record's time-keeping TAL onset (the EDF+ sub-second start), read from the
    raw bytes (pyedflib's getStartdatetime() shows it divided by 10 in pyedflib 0.1.42), or None
    for plain EDF/BDF."""
    with open(path, "rb") as fh:
        head = fh.read(256)
        if head[192:197] not in (b"EDF+C", b"EDF+D", b"BDF+C", b"BDF+D"):
            return None
        ns = int(head[252:256])
        sig = fh.read(256 * ns)
        width = 3 if head[0] == 0xFF else 2
        labels = [sig[16 * i:16 * i + 16].decode("latin-1").strip() for i in range(ns)]
        nsamp = [int(sig[216 * ns + 8 * i:216 * ns + 8 * i + 8]) for i in range(ns)]
        ann = next(i for i, l in enumerate(labels) if l in ("EDF Annotations", "BDF Annotations"))
        fh.seek(256 * (ns + 1) + width * sum(nsamp[:ann]))
        tal = fh.read(width * nsamp[ann])
        return float(tal[:tal.index(b"\x14")].decode("ascii"))


def dump(path: str) -> dict:
    f = pyedflib.EdfReader(path)
    try:
        out = {
            "file": os.path.basename(path),
            "start": f.getStartdatetime().isoformat(),
            "startSubsecond": f.getStartdatetime().microsecond / 1e6,
            "durationSeconds": f.getFileDuration(),
            "datarecords": f.datarecords_in_file,
            "firstRecordOnset": first_record_onset(path),
            "signals": [],
        }
        for i in range(f.signals_in_file):
            phys = f.readSignal(i)
            dig = f.readSignal(i, digital=True).astype("<i4")
            p32 = phys.astype("<f4")
            out["signals"].append({
                "label": f.getLabel(i),
                "sampleRate": f.getSampleFrequency(i),
                "samples": int(len(phys)),
                "physicalDimension": f.getPhysicalDimension(i),
                "physicalFloat32FNV1a64": fnv1a64(p32.tobytes()),
                "digitalInt32FNV1a64": fnv1a64(dig.tobytes()),
                "first": [float(v) for v in phys[:8]],
                "min": float(phys.min()) if len(phys) else None,
                "max": float(phys.max()) if len(phys) else None,
            })
        onsets, durations, texts = f.readAnnotations()
        out["annotations"] = [
            {"onset": float(o), "duration": float(d), "text": t}
            for o, d, t in zip(onsets, durations, texts)
        ]
        return out
    finally:
        f.close()


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    files = sorted(set(sys.argv[2:]), key=os.path.basename)
    result = {"generator": "scripts/edf/pyedflib_reference.py", "pyedflib": pyedflib.__version__,
              "files": [dump(p) for p in files]}
    with open(sys.argv[1], "w", encoding="utf-8") as fh:
        json.dump(result, fh, indent=1, ensure_ascii=False)
        fh.write("\n")


if __name__ == "__main__":
    main()
