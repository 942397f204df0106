#!/usr/bin/env python3
"""Writes a long synthetic single-lead ECG as a WFDB record (format 16, 360 Hz, 200 adu/mV) for
measuring report size and build time on a multi-day recording (scripts/report-long-ecg.sh).

    python3 scripts/make-long-ecg.py DAYS OUTDIR [NAME]

The signal tiles the 30-s MIT-BIH 119 excerpt of Tests/CardioTests/Fixtures/rpeaks/mitdb119_360.npy,
each tile resampled by a slowly varying factor (heart rate drifts between about 0.8x and 1.25x
the excerpt's, with a day/night rhythm), with gain changes, baseline wander and white noise; one
hour in every six gets strong noise so the quality windows vary. The header carries a base date
and time (2024-05-21 09:00:00), so the times are dates. Deterministic (seeded).
"""
import os
import sys

import numpy as np

days = float(sys.argv[1])
out = sys.argv[2]
name = sys.argv[3] if len(sys.argv) > 3 else "long"
fs = 360
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
tile = np.load(os.path.join(root, "Tests/CardioTests/Fixtures/rpeaks/mitdb119_360.npy")).astype(np.float64)
rng = np.random.default_rng(7)
os.makedirs(out, exist_ok=True)
total = int(days * 86400 * fs)
written = 0
checksum = 0
first = None
with open(os.path.join(out, name + ".dat"), "wb") as f:
    while written < total:
        t_hours = written / fs / 3600
        # Day/night rhythm plus drift: factor > 1 stretches the tile (slower heart rate).
        factor = 1.0 + 0.12 * np.sin(2 * np.pi * t_hours / 24) + 0.05 * np.sin(2 * np.pi * t_hours / 3.7)
        n = int(len(tile) * factor)
        x = np.interp(np.linspace(0, len(tile) - 1, n), np.arange(len(tile)), tile)
        t = (written + np.arange(n)) / fs
        gain = 1.0 + 0.2 * np.sin(2 * np.pi * t / 5400)
        wander = 0.15 * np.sin(2 * np.pi * 0.2 * t)
        noisy = (int(t_hours) % 6) == 5
        noise = rng.normal(0, 0.6 if noisy else 0.02, n)
        y = x * gain + wander + noise
        n = min(n, total - written)
        adu = np.clip(np.round(y[:n] * 200), -32768, 32767).astype("<i2")
        if first is None:
            first = int(adu[0])
        checksum = (checksum + int(adu.astype(np.int64).sum())) & 0xFFFF
        f.write(adu.tobytes())
        written += n
checksum = checksum - 65536 if checksum >= 32768 else checksum
with open(os.path.join(out, name + ".hea"), "w") as h:
    h.write(f"{name} 1 {fs} {total} 09:00:00 21/05/2024\n")
    h.write(f"{name}.dat 16 200/mV 16 0 {first} {checksum} 0 MLII\n")
print(f"{out}/{name}.hea: {days} days, {total} samples at {fs} Hz, {total * 2 / 1e6:.0f} MB")
