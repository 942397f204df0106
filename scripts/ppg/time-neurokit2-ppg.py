#!/usr/bin/env python3
"""Times NeuroKit2 `ppg_process` on one hour of single-channel 128 Hz PPG, the peer figure for
the `ppg/analyze-chain/hour128` row of sensorpipe-bench (issue 11 target: SensorPipe's full PPG
chain on 3 optical channels + accelerometer at least 50x faster than this).

The signal is NeuroKit2's own `ppg_simulate` (1 h, 128 Hz, 70 bpm, motion and noise defaults),
so the peer runs on a signal it is built for. Prints one JSON line: seconds per run (best of
--runs), samples, NeuroKit2 version.

    pip install neurokit2
    python3 scripts/ppg/time-neurokit2-ppg.py --runs 3
"""
import argparse
import json
import time

import neurokit2 as nk


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=3600)
    ap.add_argument("--rate", type=int, default=128)
    a = ap.parse_args()
    signal = nk.ppg_simulate(duration=int(a.seconds), sampling_rate=a.rate, heart_rate=70, random_state=42)
    best = float("inf")
    for _ in range(a.runs):
        t = time.perf_counter()
        nk.ppg_process(signal, sampling_rate=a.rate)
        best = min(best, time.perf_counter() - t)
    print(json.dumps({"peer": "neurokit2.ppg_process", "version": nk.__version__, "samples": len(signal),
                      "rate_hz": a.rate, "seconds_per_run": round(best, 3), "runs": a.runs}))


if __name__ == "__main__":
    main()
