#!/usr/bin/env python3
"""Time SciPy (the peer) and SensorPipe on the same synthetic signal, in one run, and print ratios.

Usage:
  python3 scripts/compare-peers.py [--quick] [--repeat 5] [--bench PATH] [--json]

The signal is the one `sensorpipe-bench` synthesises (Benchmarks/sensorpipe-bench/FFTBenchmarks.swift,
`syntheticSignal`): 24 h at 512 Hz = 44,236,800 samples (1/16 of that with --quick), three sines
plus counter-based SplitMix64 noise, float32. Workloads:
  fir      scipy.signal.oaconvolve(x, firwin(1025, [0.5, 40], pass_zero=False, fs=512), 'same')
  iir      scipy.signal.sosfiltfilt(butter(4, [0.5, 40], 'band', fs=512, output='sos'), x)
  welch    scipy.signal.welch(x, fs=512, nperseg=4096)
SensorPipe's figures come from `sensorpipe-bench --json` (release build) run right after, so both
sides see the same machine load. Needs numpy and scipy (pip install numpy scipy).
"""
import argparse
import json
import pathlib
import subprocess
import sys
import time

import numpy as np
import scipy
import scipy.signal as sig

ROOT = pathlib.Path(__file__).resolve().parent.parent
DAY512 = 44_236_800

PAIRS = {  # peer workload -> sensorpipe-bench case
    "fir": "fir/bandpass-1025/day512/float",
    "iir": "iir/sosfiltfilt-bandpass-4/day512/float",
    "welch": "spectral/welch-4096/day512/float",
}


def splitmix64(idx: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        z = idx * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def synthetic_signal(count: int, fs: float = 512.0, seed: int = 1) -> np.ndarray:
    out = np.empty(count, dtype=np.float32)
    step = 1 << 22
    for start in range(0, count, step):
        i = np.arange(start, min(count, start + step), dtype=np.uint64)
        noise = (splitmix64(i + np.uint64(seed)) >> np.uint64(11)).astype(np.float64) / 2.0**53 * 2 - 1
        t = i.astype(np.float64) / fs
        out[start:start + len(i)] = (0.6 * np.sin(2 * np.pi * 1.2 * t) + 0.3 * np.sin(2 * np.pi * 17 * t)
                                     + 0.2 * np.sin(2 * np.pi * 0.15 * t) + 0.1 * noise)
    return out


def median_time(fn, repeat: int) -> float:
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="1/16 of the day-long workload")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--bench", default=str(ROOT / ".build/release/sensorpipe-bench"),
                    help="path of a release-built sensorpipe-bench")
    ap.add_argument("--json", action="store_true", help="print one JSON object per workload")
    args = ap.parse_args()

    n = DAY512 // 16 if args.quick else DAY512
    x = synthetic_signal(n)
    fir = sig.firwin(1025, [0.5, 40.0], pass_zero=False, fs=512.0).astype(np.float32)
    sos = sig.butter(4, [0.5, 40.0], btype="band", fs=512.0, output="sos")
    peers = {
        "fir": lambda: sig.oaconvolve(x, fir, mode="same"),
        "iir": lambda: sig.sosfiltfilt(sos, x),
        "welch": lambda: sig.welch(x, fs=512.0, nperseg=4096),
    }
    peer_times = {k: median_time(f, args.repeat) for k, f in peers.items()}

    ours = {}
    bench = pathlib.Path(args.bench)
    if bench.exists():
        cmd = [str(bench), "--json", "--filter", "|".join(PAIRS.values())]
        if args.quick:
            cmd.append("--quick")
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            print(f"note: sensorpipe-bench exited {proc.returncode}: {proc.stderr.strip()}", file=sys.stderr)
        for line in proc.stdout.splitlines():
            rec = json.loads(line)
            ours[rec["name"]] = rec["median_seconds"]
    else:
        print(f"note: {bench} not found; build it with `swift build -c release`", file=sys.stderr)

    print(f"numpy {np.__version__}, scipy {scipy.__version__}; {n} float32 samples", file=sys.stderr)
    for key, case in PAIRS.items():
        mine = ours.get(case)
        row = {"workload": key, "samples": n, "scipy_seconds": peer_times[key],
               "sensorpipe_case": case, "sensorpipe_seconds": mine,
               "speedup": (peer_times[key] / mine) if mine else None}
        if args.json:
            print(json.dumps(row))
        else:
            s = f"{mine:8.3f} s" if mine else "     n/a"
            sp = f"{row['speedup']:6.2f}x" if mine else "   n/a"
            print(f"{key:6s} scipy {peer_times[key]:8.3f} s   sensorpipe {s}   speedup {sp}")


if __name__ == "__main__":
    main()
