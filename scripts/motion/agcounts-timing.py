#!/usr/bin/env python3
"""Times ActiGraph's `agcounts` (the reference Python implementation of Neishabouri et al. 2022)
on synthetic irregular ~50 Hz three-axis acceleration, for the issue-12 benchmark comparison with
`sensorpipe-bench --long-motion DAYS`.

agcounts needs a uniform rate, so the irregular samples are first put on a 50 Hz grid with
numpy.interp (linear, as SensorPipe's grid); only agcounts' `get_counts(..., freq=50, epoch=5)` is
timed. The signal is the same hour template as the Swift benchmark (gravity turning slowly,
15 min walking at 1.8 steps/s, arm movements, 5 mg noise, ±3 ms jitter, one sample in 500
missing), generated here with NumPy's generator, so values differ in their noise only.

By default it times HOURS=24 hours and scales the time linearly to 7 days (agcounts is linear in
the samples; the whole week at once needs ~7 GiB, more than this machine type spares beside the
other jobs). Peak memory is the process's ru_maxrss after the call. Prints one JSON line.

Usage: python3 scripts/motion/agcounts-timing.py [HOURS]   (pip install agcounts; tested 0.2.6)
"""
import json
import resource
import sys
import time

import numpy as np
from agcounts.extract import get_counts


def hour_template(seed: int = 12):
    rng = np.random.default_rng(seed)
    i = np.arange(180_000)
    keep = rng.random(i.size) >= 0.002
    t = i[keep] / 50 + (rng.random(keep.sum()) - 0.5) * 0.006
    tilt = 0.6 * np.sin(2 * np.pi * t / 731)
    walking = (t >= 600) & (t < 1500)
    v = np.where(walking, 0.3 * np.sin(2 * np.pi * 1.8 * t) + 0.08 * np.sin(4 * np.pi * 1.8 * t), 0)
    arm = np.where((t >= 2400) & (t < 2700), 0.2 * np.sin(2 * np.pi * 0.4 * t), 0)
    n = t.size
    x = np.sin(tilt) + arm + (rng.random(n) - 0.5) * 0.017
    y = 0.1 * np.sin(2 * np.pi * t / 300) + (rng.random(n) - 0.5) * 0.017
    z = np.cos(tilt) + v + (rng.random(n) - 0.5) * 0.017
    return t, np.stack([x, y, z], 1)


def main() -> None:
    hours = int(sys.argv[1]) if len(sys.argv) > 1 else 24
    t, a = hour_template()
    grid = np.arange(0, 3600, 1 / 50)
    hour = np.stack([np.interp(grid, t, a[:, k]) for k in range(3)], 1)
    raw = np.tile(hour, (hours, 1))
    start = time.perf_counter()
    cpu0 = time.process_time()
    counts = get_counts(raw, freq=50, epoch=5)
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(
        json.dumps(
            {
                "hours": hours,
                "samples_per_axis": int(raw.shape[0]),
                "epochs": int(counts.shape[0]),
                "seconds": round(seconds, 3),
                "cpu_seconds": round(cpu, 3),
                "seconds_scaled_to_7_days": round(seconds * 168 / hours, 1),
                "cpu_seconds_scaled_to_7_days": round(cpu * 168 / hours, 1),
                "peak_rss_bytes": int(peak),
            }
        )
    )


if __name__ == "__main__":
    main()
