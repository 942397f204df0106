#!/usr/bin/env python3
"""EDF test fixtures (Tests/RecordingsTests/Fixtures/edf and bad/edf), written independently of
SensorPipe: byte by byte here (EDF+D, malformed files) and by pyedflib/EDFlib (the mixed-sensor
file), with the expected values stated from the bytes written.

    pip install pyedflib numpy
    python3 scripts/edf/make-edf-fixtures.py
"""
import json
import os

import numpy as np
import pyedflib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
FIX = os.path.join(ROOT, "Tests", "RecordingsTests", "Fixtures")
GOOD = os.path.join(FIX, "edf")
BAD = os.path.join(FIX, "bad", "edf")
os.makedirs(GOOD, exist_ok=True)
os.makedirs(BAD, exist_ok=True)


def field(s, n):
    b = s.encode("utf-8") if isinstance(s, str) else s
    assert len(b) <= n, (s, n)
    return b + b" " * (n - len(b))


def edf(signals, records, duration=1, reserved="EDF+C", start=("02.03.24", "10.20.30"), bdf=False,
        record_count=None, header_bytes=None):
    """signals: list of dicts label, dim, pmin, pmax, dmin, dmax, ns; records: list of lists of
    per-signal bytes."""
    ns = len(signals)
    h = (b"\xffBIOSEMI" if bdf else field("0", 8)) + field("X X X X", 80) + field("Startdate 02-MAR-2024 X X X", 80)
    h += field(start[0], 8) + field(start[1], 8)
    h += field(str(header_bytes if header_bytes is not None else 256 * (ns + 1)), 8) + field(reserved, 44)
    h += field(str(len(records) if record_count is None else record_count), 8) + field(str(duration), 8) + field(str(ns), 4)
    for key, width in [("label", 16), ("transducer", 80), ("dim", 8), ("pmin", 8), ("pmax", 8), ("dmin", 8),
                       ("dmax", 8), ("prefilter", 80), ("ns", 8), ("reserved", 32)]:
        for s in signals:
            h += field(str(s.get(key, "")), width)
    return h + b"".join(b"".join(r) for r in records)


def samples(values, width=2):
    return b"".join(int(v).to_bytes(width, "little", signed=True) for v in values)


def tal(onset, annotations=(), size=60):
    b = ("+%s" % onset).encode() + b"\x14\x14\x00"
    for o, d, t in annotations:
        b += ("+%s" % o).encode() + (b"\x15" + str(d).encode() if d is not None else b"") + b"\x14" + t.encode() + b"\x14\x00"
    assert len(b) <= size, b
    return b + b"\x00" * (size - len(b))


ECG = dict(label="ECG", transducer="AgAgCl electrode", dim="mV", pmin=-3.2768, pmax=3.2767, dmin=-32768, dmax=32767, ns=10)
ANN = dict(label="EDF Annotations", dim="", pmin=-1, pmax=1, dmin=-32768, dmax=32767, ns=30)


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


# --- Good: EDF+D with a gap, sub-second start and annotations (expected values from these bytes).
# Record onsets 0.25, 1.25, 5.25 s (a 3 s gap after the second record); ECG digital = 100·k + j.
recs = []
for k, onset in enumerate([0.25, 1.25, 5.25]):
    ann = [(onset + 0.5, None, "beat N")] if k != 1 else [(1.75, 2, "Ünïcødé episode")]
    recs.append([samples([100 * k + j for j in range(10)]), tal(onset, ann)])
write(os.path.join(GOOD, "discontinuous.edf"), edf([ECG, ANN], recs, reserved="EDF+D"))

# --- Good: mixed sensors through pyedflib (EDFlib): ECG, Pleth, accelerometer x/y/z in g, Resp,
# Temp, two signals labelled "EEG", 2 s at 1 s records; annotation "Recording starts".
path = os.path.join(GOOD, "mixed-sensors.edf")
labels = [("ECG II", "mV", 256), ("Pleth", "", 64), ("Acc X", "g", 32), ("Acc Y", "g", 32), ("Acc Z", "g", 32),
          ("Resp chest", "", 16), ("Temp", "degC", 1), ("EEG", "uV", 128), ("EEG", "uV", 128)]
w = pyedflib.EdfWriter(path, len(labels), file_type=pyedflib.FILETYPE_EDFPLUS)
headers = []
rng = np.random.default_rng(7)
data = []
for label, dim, rate in labels:
    headers.append({"label": label, "dimension": dim, "sample_frequency": rate, "physical_min": -10.0,
                    "physical_max": 10.0, "digital_min": -32768, "digital_max": 32767, "transducer": "", "prefilter": ""})
    data.append(np.round(rng.uniform(-9, 9, 2 * rate), 3))
w.setSignalHeaders(headers)
w.writeAnnotation(0.0, -1, "Recording starts")
w.writeSamples(data)
w.close()

# --- Malformed (one defect each), from a valid 2-record EDF+C.
good = [[samples(range(10)), tal(0)], [samples(range(10, 20)), tal(1)]]
write(os.path.join(BAD, "truncated-header.edf"), edf([ECG, ANN], good)[:200])
# The 8-character field holds at most 99,999,999 (10^8 − 1) records.
write(os.path.join(BAD, "claims-1e8-records.edf"), edf([ECG, ANN], good, record_count=99999999))
write(os.path.join(BAD, "negative-samples.edf"), edf([dict(ECG, ns=-5), ANN], []))
write(os.path.join(BAD, "bad-number.edf"), edf([dict(ECG, pmin="abc"), ANN], good))
write(os.path.join(BAD, "bad-tal.edf"), edf([ECG, ANN], [good[0], [samples(range(10)), b"x1\x14\x14\x00" + b"\x00" * 55]]))
write(os.path.join(BAD, "header-size.edf"), edf([ECG, ANN], good, header_bytes=999))
write(os.path.join(BAD, "digital-range.edf"), edf([dict(ECG, dmin=5, dmax=5), ANN], good))
write(os.path.join(BAD, "huge-record.edf"), edf([dict(ECG, ns=99999999), ANN], [], record_count=1))
write(os.path.join(BAD, "truncated-record.edf"), edf([ECG, ANN], good)[:-7])
write(os.path.join(BAD, "bad-date.edf"), edf([ECG, ANN], good, start=("31.02.24", "10.20.30")))
print("written", GOOD, BAD)
