#!/usr/bin/env python3
"""Time TSFEL per 10-s three-axis window: the peer figure of the feature benchmark (issue 13).

Usage: python3 scripts/time-tsfel-features.py [--windows 40] [--domain all]
       (needs numpy, pandas and tsfel: pip install tsfel)

Cuts WINDOWS 10-s windows of 50 Hz three-axis synthetic accelerometer (1.8 Hz gait-like
oscillation, gravity on z, noise), runs TSFEL's `time_series_features_extractor` on each window
(every feature of the chosen domain, fs = 50, one window per call, n_jobs unset) and reports
CPU seconds per window (this process and any children it starts) and wall seconds and prints seconds per window and the implied time for 7 days (60,480 windows). Compare
with `sensorpipe-bench --filter '^features/'` (seconds for the same week) run right before or
after on the same machine: ratio = TSFEL per window / (SensorPipe week seconds / 60,480).
"""
import argparse
import os
import resource
import time
import warnings

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import tsfel  # noqa: E402
from importlib.metadata import version  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--windows", type=int, default=40)
    ap.add_argument("--domain", default="all", help="all, statistical, temporal or spectral")
    args = ap.parse_args()
    fs = 50.0
    n = 500
    rng = np.random.default_rng(13)
    cfg = tsfel.get_features_by_domain(None if args.domain == "all" else args.domain)
    t = np.arange(n) / fs
    windows = []
    for _ in range(args.windows):
        phase = rng.uniform(0, 2 * np.pi)
        x = 0.3 * np.sin(2 * np.pi * 1.8 * t + phase) + 0.05 * rng.standard_normal(n)
        y = 0.2 * np.cos(2 * np.pi * 1.8 * t + phase) + 0.05 * rng.standard_normal(n)
        z = -1 + 0.1 * np.sin(2 * np.pi * 3.6 * t + phase) + 0.05 * rng.standard_normal(n)
        windows.append(pd.DataFrame({"x": x, "y": y, "z": z}))
    # One warm-up window (imports, caches), not timed.
    tsfel.time_series_features_extractor(cfg, windows[0], fs=fs, verbose=0)
    def cpu_seconds():
        own = resource.getrusage(resource.RUSAGE_SELF)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    start = cpu_seconds()
    wall = time.perf_counter()
    columns = 0
    for w in windows:
        out = tsfel.time_series_features_extractor(cfg, w, fs=fs, verbose=0)
        columns = out.shape[1]
    cpu = (cpu_seconds() - start) / len(windows)
    wall = (time.perf_counter() - wall) / len(windows)
    print(f"tsfel {version('tsfel')}, domain {args.domain}: {columns} columns per window")
    print(f"per window: {cpu * 1000:.2f} ms CPU, {wall * 1000:.2f} ms wall ({len(windows)} windows)")
    print(f"7 days (60,480 windows): {cpu * 60480 / 60:.1f} min CPU")


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    main()
