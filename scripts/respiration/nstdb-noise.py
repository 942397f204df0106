#!/usr/bin/env python3
"""Recorded ECG noise without breathing through the Swift respiration stage (issue 31):
do the NSTDB noise records give a rate, and how close do their windows come to the spectral
thresholds derived from the simulated no-breathing beats (scripts/respiration/spectral-threshold.py)?

The input: a synthetic ECG with no respiratory modulation at all (a fixed sum-of-Gaussians PQRST,
1 mV R wave, beats at 72/min with independent +-5 % interval jitter; no amplitude, axis or interval
modulation), plus one channel of the MIT-BIH Noise Stress Test Database's recorded noise (`ma`:
muscle artefact, `bw`: baseline wander; Moody, Muldrow & Mark 1984; ../shared/datasets/nstdb),
scaled to a signal-to-noise ratio as NSTDB defines it (signal power: the QRS's peak-to-peak
amplitude squared over 8; noise power: its mean square after removing its mean), at 360 Hz, the
noise record's rate. Each noise channel's 30 min are cut into 10-min recordings; each recording goes
through `sensorpipe analyze` (ECG only, default options); without noise (`none`), 30 recordings of
10 min (seeds 0-29). Whatever respiratory-band content
the rows show comes from the recorded noise entering the beats' R amplitude, QRS area and timing.

Reported per noise and SNR: ECG rows, rows with a rate (a leak: there is no breathing), and the
largest concentration, local concentration and their product among the rows (their values in the
`quality` column and `null_reason`), next to the ECG thresholds at span 2 (flat 0.22 / 0.43, the
lowest rate band's 0.16 / 0.38, joint 0.043-0.078): how much margin the simulation's thresholds
leave on recorded noise. The `em` (electrode motion) record is not on this machine.

Also 3 recordings of identical beats (no jitter, no noise): their modulations differ only by
floating-point rounding (`none, identical beats`).

Measured (default options):
- Identical beats: before the stage left out modulations without variation, 54 of 57 rows got
  24 breaths/min (the beat times' rounding repeats every three beats); with a range test 3 of 57,
  each a recording's first window (6.9/min, from the ECG chain's start-up transient in the first
  five beats' amplitudes); with today's rule (at least four beats off the median) none.
- Without noise, 30 recordings: 1 of 570 ECG rows gets a rate (spectral fusion, 16/min); the
  simulated no-breathing windows (independent noise per modulation) let 8 of 7,200 through
  (`spectral-threshold.py --bands-check`). Before the R amplitude and QRS area were read from the
  lead without the beat classifier's causal 0.7-Hz high-pass, 5 of 570: the high-pass's memory of
  the previous beats tied the QRS area (and, once the R apex was searched, the amplitude: 30 of
  570) to the preceding RR interval (correlation -0.93 on this ECG), so the three modulations
  shared the interval jitter's noise, which the simulation (independent noise) does not cover.
- `ma`: no rate at 24, 12 and 6 dB; at 0 dB 2 of 114 rows (7 and 9/min, spectral fusion); 5 of
  114 before.
- `bw`: 11, 15, 14, 14 of 114 rows at 24, 12, 6, 0 dB, at 8-13/min (before: 1, 13, 23, 28, at
  12-13/min): the record's baseline wander carries a steady rhythm at breathing rates (its
  Welch spectrum per 10-min cut peaks at 6-9/min, about 30 % of the 0.1-0.7 Hz power within one
  bin of the peak; the volunteers' own breathing or movement), which the amplitude now read
  without the high-pass follows; it is no no-breathing case (baseline wander is itself one of the ECG's respiratory
  modulations, Charlton et al. 2016).
- Largest indices over the rows without a rate: concentration 0.17-0.21, local 0.34-0.40, product
  0.051-0.080, up to the thresholds: recorded noise leaves no margin to lower them.

Usage: python3 scripts/respiration/nstdb-noise.py [--sensorpipe .build/release/sensorpipe]  (about 4 min)
"""
import csv
import lzma
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import wfdb

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "datasets", "nstdb")
FS = 360.0
SNRS = (None, 24, 12, 6, 0)  # None: the synthetic ECG alone (no noise added)
REASON = re.compile(r"fused spectrum's peak \(([0-9.]+) breaths/min\) concentration ([0-9.]+) below [0-9.]+ and local concentration ([0-9.]+)")
# (centre s from the R apex, width s, amplitude mV): P, Q, R, S, T.
WAVES = [(-0.2, 0.025, 0.12), (-0.03, 0.01, -0.12), (0.0, 0.012, 1.0), (0.03, 0.01, -0.25), (0.28, 0.05, 0.3)]


def clean(n, seed, jitter=0.05):
    rng = np.random.default_rng(seed)
    t = np.arange(n) / FS
    x = np.zeros(n)
    r = 0.5
    while r < n / FS:
        m = np.abs(t - r) < 0.6
        for c, w, a in WAVES:
            x[m] += a * np.exp(-0.5 * ((t[m] - r - c) / w) ** 2)
        r += 60 / 72 * (1 + jitter * rng.uniform(-1, 1))
    return x


def noise(name):
    tmp = tempfile.mkdtemp()
    try:
        shutil.copy(os.path.join(ROOT, f"{name}.hea"), tmp)
        with lzma.open(os.path.join(ROOT, f"{name}.dat.xz")) as f, open(os.path.join(tmp, f"{name}.dat"), "wb") as g:
            g.write(f.read())
        return wfdb.rdrecord(os.path.join(tmp, name)).p_signal
    finally:
        shutil.rmtree(tmp)


def main():
    exe = sys.argv[sys.argv.index("--sensorpipe") + 1] if "--sensorpipe" in sys.argv else ".build/release/sensorpipe"
    print("| noise | SNR dB | ECG rows | rows with a rate | by method | their rates | max concentration | max local concentration | max product (the last three over rows without a rate) |")
    print("| --- | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: |")
    # Identical beats (no jitter): values that differ only by floating-point rounding.
    rows = rated = 0
    for seed in range(3):
        x = clean(int(600 * FS), seed, jitter=0.0)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "in.csv")
            np.savetxt(path, np.column_stack([np.arange(len(x)) / FS, x]), delimiter=",", fmt="%.5f", header="time,ecg", comments="")
            subprocess.run([exe, "analyze", path, "--out", os.path.join(tmp, "out"), "--csv-time", "rate=360",
                            "--csv-column", "ecg.lead=ecg,mV", "--features-catalog", "none"],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            with open(os.path.join(tmp, "out", "respiration.csv")) as f:
                for row in csv.DictReader(f):
                    if row["source"] == "ecg":
                        rows += 1
                        rated += bool(row["breaths_per_min"])
    print(f"| none, identical beats | — | {rows} | {rated} | | | | | |")
    for name in ("ma", "bw"):
        sig = noise(name)
        for snr in SNRS if name == "ma" else SNRS[1:]:
            rows = rated = 0
            methods, rates = {}, []
            cmax = lmax = pmax = 0.0
            seg = int(600 * FS)
            # Each noise channel's three 10-min segments; without noise, 30 recordings (seeds 0-29).
            cuts = [(ch, s) for ch in range(sig.shape[1]) for s in range(0, sig.shape[0] - seg + 1, seg)]
            for ch, s in cuts if snr is not None else [(None, seed) for seed in range(30)]:
                x = clean(seg, s if ch is None else 1000 * ch + s // seg)
                ps = (x.max() - x.min()) ** 2 / 8
                nz = None if ch is None else sig[s:s + seg, ch] - sig[:, ch].mean()
                y = x if nz is None else x + nz * np.sqrt(ps / 10 ** (snr / 10) / np.mean(nz ** 2))
                with tempfile.TemporaryDirectory() as tmp:
                    path = os.path.join(tmp, "in.csv")
                    np.savetxt(path, np.column_stack([np.arange(seg) / FS, y]), delimiter=",", fmt="%.5f",
                               header="time,ecg", comments="")
                    subprocess.run([exe, "analyze", path, "--out", os.path.join(tmp, "out"), "--csv-time", "rate=360",
                                    "--csv-column", "ecg.lead=ecg,mV", "--features-catalog", "none"],
                                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    with open(os.path.join(tmp, "out", "respiration.csv")) as f:
                        for row in csv.DictReader(f):
                            if row["source"] != "ecg":
                                continue
                            rows += 1
                            if row["breaths_per_min"]:
                                rated += 1
                                methods[row["method"]] = methods.get(row["method"], 0) + 1
                                rates.append(float(row["breaths_per_min"]))
                            m = REASON.search(row["null_reason"])
                            if m:
                                c, lc = float(m.group(2)), float(m.group(3))
                                cmax, lmax, pmax = max(cmax, c), max(lmax, lc), max(pmax, c * lc)
            print(f"| {name if snr is not None else 'none'} | {snr if snr is not None else '—'} | {rows} | {rated} | {', '.join(f'{k} {v}' for k, v in sorted(methods.items()))} | {', '.join(f'{r:.0f}' for r in sorted(rates))} | {cmax:.2f} | {lmax:.2f} | {pmax:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
