#!/usr/bin/env python3
"""Time pycatch22 per 10-s three-axis window: the catch22 peer figure of the feature benchmark.

Usage: python3 scripts/time-pycatch22-features.py [--windows 400]   (needs numpy, pycatch22)

Cuts WINDOWS 10-s windows of 50 Hz three-axis synthetic accelerometer (the same signal as
scripts/time-tsfel-features.py), computes `pycatch22.catch22_all` on x, y, z and the vector
magnitude of each window (the channels SensorPipe's `--features all` computes catch22 on) and
prints CPU seconds per window and the implied time for 7 days (60,480 windows). Compare with the
difference between the `features/default+catch22/week50x3/float` and `features/default/week50x3/float`
rows of `sensorpipe-bench --filter '^features/'` run on the same machine.
"""
import argparse
import time

import numpy as np
import pycatch22
from importlib.metadata import version


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--windows", type=int, default=400)
    args = ap.parse_args()
    fs, n = 50.0, 500
    rng = np.random.default_rng(13)
    t = np.arange(args.windows * n) / fs
    x = 0.3 * np.sin(2 * np.pi * 1.8 * t) + 0.05 * rng.standard_normal(t.size)
    y = 0.15 * np.cos(2 * np.pi * 1.8 * t) + 0.05 * rng.standard_normal(t.size)
    z = -1.0 + 0.25 * np.sin(2 * np.pi * 3.6 * t + 0.3) + 0.05 * rng.standard_normal(t.size)
    mag = np.sqrt(x * x + y * y + z * z)
    channels = [list(map(float, c)) for c in (x, y, z, mag)]
    start = time.process_time()
    wall = time.perf_counter()
    for w in range(args.windows):
        lo, hi = w * n, (w + 1) * n
        for c in channels:
            pycatch22.catch22_all(c[lo:hi])
    cpu = (time.process_time() - start) / args.windows
    wall = (time.perf_counter() - wall) / args.windows
    print(f"pycatch22 {version('pycatch22')}: {args.windows} windows x 4 channels")
    print(f"CPU {cpu * 1e3:.3f} ms per window, wall {wall * 1e3:.3f} ms; 7 days (60,480 windows): {cpu * 60480:.1f} s CPU")


if __name__ == "__main__":
    main()
