#!/usr/bin/env python3
"""Writes a synthetic study for scripts/slurm/simulate-study.sh: COUNT small recordings and a manifest.

Usage: python3 scripts/slurm/make-synthetic-study.py DIR [--count 10000] [--seconds 30] [--seed 1] [--jobs N]

Each recording is one Apple Watch ECG session as the Watch records it (SensorKit NDJSON,
`SRElectrocardiogramSample` batches of 256 samples at 512 Hz, µV, gzip), SECONDS long, of a
synthetic ECG: every beat the sum of five Gaussian waves (P, Q, R, S, T; the shape of
McSharry et al., "A dynamical model for generating synthetic electrocardiogram signals",
IEEE Trans Biomed Eng 50(3):289-294, 2003, drawn directly in time rather than integrated), a
heart rate drawn per recording (50-100 bpm) with 3 % beat-to-beat RR jitter, a 0.3 Hz baseline
wander and white noise. Participant p (100 recordings each) gets the folder DIR/pNNNNN/; the
manifest DIR/study.manifest lists every recording relative to DIR, one per line.

The files are only a realistic workload for the batch and the merge (about 35 beats, 3
heart-rate windows and one HRV row per recording); nothing is validated against them.
"""
import argparse
import functools
import gzip
import multiprocessing
import os
import pathlib

import numpy as np

APPLE_EPOCH = 978307200.0
START = 1716249600.0  # 2024-05-21T00:00:00Z
FS = 512.0
# (angle of the wave within the beat as a fraction of the RR interval, amplitude µV, width s)
WAVES = [(-0.2, 120.0, 0.025), (-0.035, -150.0, 0.010), (0.0, 1200.0, 0.010), (0.035, -250.0, 0.010), (0.3, 300.0, 0.040)]


def ecg(rng: np.random.Generator, seconds: float) -> np.ndarray:
    n = int(seconds * FS)
    t = np.arange(n) / FS
    rr_mean = 60.0 / rng.uniform(50.0, 100.0)
    beats, x = [], rng.uniform(0.2, 0.2 + rr_mean)
    while x < seconds + 1.0:
        rr = rr_mean * (1.0 + 0.03 * rng.standard_normal())
        beats.append((x, rr))
        x += rr
    y = np.zeros(n)
    for centre, rr in beats:
        lo, hi = int(max(0, (centre - 0.5 * rr) * FS)), int(min(n, (centre + 0.6 * rr) * FS))
        if lo >= hi:
            continue
        tt = t[lo:hi]
        for phase, amplitude, width in WAVES:
            y[lo:hi] += amplitude * np.exp(-0.5 * ((tt - centre - phase * rr) / width) ** 2)
    y += 80.0 * np.sin(2 * np.pi * 0.3 * t + rng.uniform(0, 2 * np.pi)) + 15.0 * rng.standard_normal(n)
    return np.round(y, 1)


def recording(index: int, rng: np.random.Generator, seconds: float) -> tuple[str, bytes]:
    participant = index // 100
    device = f"watch-{participant:05d}"
    start = START + 86400.0 * (index % 100) + 3600.0 * (participant % 24)
    uv = ecg(rng, seconds)
    session = f"s{index:05d}"
    lines = ['{"type":"header","schema":"sensorkit-ndjson","version":1,"sensor":"electrocardiogram",'
             f'"deviceId":"{device}","from":{start - APPLE_EPOCH!r},"to":{start + len(uv) / FS - APPLE_EPOCH!r},'
             '"exporter":"sensorpipe/scripts/slurm/make-synthetic-study.py"}',
             f'{{"type":"device","deviceId":"{device}","name":"Apple Watch","model":"Watch","systemName":"watchOS",'
             '"systemVersion":"","productType":"Watch6,1"}']
    batch = 256
    for b in range(0, len(uv), batch):
        date = start + b / FS
        chunk = uv[b:b + batch]
        state = "begin" if b == 0 else ("end" if b + batch >= len(uv) else "active")
        data = ",".join('{"value":%r,"flags":0}' % float(v) for v in chunk)
        written = date + len(chunk) / FS
        lines.append('{"type":"electrocardiogram","deviceId":"%s","timestamp":%r,"timestampUnix":%r,'
                     '"sample":[{"date":%r,"frequency":512.0,"lead":"rightArmMinusLeftArm",'
                     '"session":{"identifier":"%s","state":"%s","sessionGuidance":"guided"},"data":[%s]}]}'
                     % (device, written - APPLE_EPOCH, written, date, session, state, data))
    name = f"p{participant:05d}/{device}_ecg_{int(start)}.ndjson.gz"
    return name, gzip.compress(("\n".join(lines) + "\n").encode(), compresslevel=1, mtime=0)


def write(index: int, root: pathlib.Path, seed: int, seconds: float) -> str:
    name, data = recording(index, np.random.default_rng([seed, index]), seconds)
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return name


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir", type=pathlib.Path)
    ap.add_argument("--count", type=int, default=10000)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: the cores)")
    a = ap.parse_args()
    with multiprocessing.Pool(a.jobs) as pool:
        names = pool.map(functools.partial(write, root=a.dir, seed=a.seed, seconds=a.seconds), range(a.count), chunksize=50)
    manifest = a.dir / "study.manifest"
    manifest.write_text("# synthetic study: scripts/slurm/make-synthetic-study.py\n" + "\n".join(names) + "\n")
    total = sum(os.path.getsize(a.dir / n) for n in names)
    print(f"wrote {a.count} recordings ({total / 1e6:.1f} MB) and {manifest}")


if __name__ == "__main__":
    main()
