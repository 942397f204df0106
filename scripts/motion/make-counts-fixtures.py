#!/usr/bin/env python3
"""Reference ActiGraph counts for the Motion tests, from ActiGraph's own `agcounts` package.

Writes Tests/MotionTests/Fixtures/counts/:
  synthetic_<rate>hz_input.npy   int32 (n, 3), acceleration in 1/256 g (as an ActiGraph stores it)
  synthetic_<rate>hz_counts.npy  int64 (epochs, 3), agcounts.extract.get_counts(g, freq=rate, epoch=5)
for 30, 50 and 100 Hz: 4 minutes of a synthetic wrist signal (gravity on a slowly turning axis,
walking at 1.8 Hz with harmonics, a still minute, arm swings, white noise), seed 12; for the
other rates of the published resampler (40, 60, 70, 80, 90 Hz) and for ActiGraph's 256 Hz path
(agcounts.pow2) at 32, 64, 128 and 256 Hz: the first 150 s of the same signal (walking from 30 s,
still from 120 s).

Requires: pip install agcounts (tested with agcounts 0.2.6, numpy 2.4, scipy 1.17).
"""
import pathlib

import numpy as np
from agcounts.extract import get_counts

OUT = pathlib.Path(__file__).resolve().parents[2] / "Tests/MotionTests/Fixtures/counts"


def synthetic(rate: int, seconds: int = 240, seed: int = 12) -> np.ndarray:
    rng = np.random.default_rng(seed)
    t = np.arange(seconds * rate) / rate
    tilt = 0.3 * np.sin(2 * np.pi * t / 97)
    g = np.stack([np.sin(tilt), 0.2 * np.cos(2 * np.pi * t / 61), np.cos(tilt)], 1)
    walk = np.zeros_like(g)
    w = (t >= 30) & (t < 120)
    for axis, (amp, phase) in enumerate([(0.35, 0.0), (0.5, 1.1), (0.25, 2.0)]):
        walk[w, axis] = amp * np.sin(2 * np.pi * 1.8 * t[w] + phase) + 0.4 * amp * np.sin(2 * np.pi * 3.6 * t[w])
    swing = np.zeros_like(g)
    s = (t >= 180) & (t < 220)
    swing[s, 0] = 0.9 * np.sin(2 * np.pi * 0.7 * t[s]) * np.sin(2 * np.pi * 0.05 * t[s])
    x = g + walk + swing + rng.normal(0, 0.01, g.shape)
    return np.round(x * 256).astype(np.int32)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for rate in (30, 50, 100, 40, 60, 70, 80, 90, 32, 64, 128, 256):
        raw = synthetic(rate) if rate in (30, 50, 100) else synthetic(rate)[: 150 * rate]
        counts = get_counts(raw / 256.0, freq=rate, epoch=5)
        np.save(OUT / f"synthetic_{rate}hz_input.npy", np.ascontiguousarray(raw))
        np.save(OUT / f"synthetic_{rate}hz_counts.npy", np.ascontiguousarray(counts, dtype=np.int64))
        print(rate, raw.shape, counts.shape, counts.sum(0))


if __name__ == "__main__":
    main()
