#!/usr/bin/env python3
"""Converts IEEE SPC 2015 wrist recordings (../shared/datasets/spc2015, MATLAB `sig`, 125 Hz) to
SensorPipe's SensorKit export schema v1 (docs/SCHEMA.md), for the container-independence check
of the PPG heart rate (issue 11, item 5; `PPGSensorKitContainerTests`).

The SPC 2015 data may not be redistributed, so the converted files are written outside the
repository's tracked files (default `.build/derived/spc2015-sensorkit`, which the test reads).
Each recording gives two variants, each a pair of files of one device `watch-1` (decoded side by
side as one recording):

  photoplethysmogram.ndjson.gz  `SRPhotoplethysmogramSample` lines, one per second (125 optical
                                samples of each of the two PPG channels, `nanosecondsSinceStart`
                                = j * 8 000 000); channels (emitter 1, photodiode 0, signal 1)
                                and (emitter 1, photodiode 1, signal 2), nominal wavelength
                                515 nm (SPC 2015's green LEDs), usage `foregroundHeartRate`;
                                `normalizedReflectance` = the raw PPG value.
  accelerometer.ndjson.gz       `CMRecordedAccelerometerData` lines, one per second (batch
                                `identifier` = the second), x/y/z in g at `startDate`.

Variant `complete`: every sample, plus exact duplicates of every 37th accelerometer line (the
schema's duplicate key: deviceId, identifier, startDate; the reader drops them), so nothing is
removed and the heart rate must equal the MATLAB file's.

Variant `defects` (the same positions for every recording, in seconds from the start):
  - masked: `signalSaturation` on channel 1 for [60, 61.5) s, `unreliableNoise` on channel 1 for
    [100, 101) s, `null` reflectance on channel 2 at every 250th sample (every 2 s);
  - a gap (samples simply absent, no record) in both files for [140, 143) s;
  - a deletion (samples absent and an `SRDeletionRecord` line, reason `ageLimit`, in each file)
    for [200, 210) s;
  - the same accelerometer duplicates.
The spans are printed as JSON (`defects.json` beside the files) so the test knows them.

Variants `rate-P-A` (only with `--rates P:A ...`, which then writes nothing else): the `complete`
layout (no defects, the same accelerometer duplicates) with the two PPG channels resampled to P Hz
and the three accelerometer axes to A Hz by `scipy.signal.resample_poly` (see `resampled`), for
the sample-rate check of the heart rate (issue 11, item 2; `PPGSampleRateTests`). Each line still
holds one second: P optical samples per channel (`samplingFrequency` P, `nanosecondsSinceStart`
floor(j * 1e9 / P)) and A accelerometer samples.

Times: recording start T0 = 2024-05-21 16:01:40 UTC (1716307300, arbitrary; SPC 2015 has no
absolute time); sample i at T0 + i / 125 s (T0 + i / P and T0 + i / A in the `rate-P-A` variants,
so window k still covers BPM0's window k).

    python3 scripts/ppg/spc2015-to-sensorkit.py [--out DIR]
    python3 scripts/ppg/spc2015-to-sensorkit.py --rates 64:32 25:25 256:100 30:100 [--out DIR]
"""
import argparse
import gzip
import json
import math
import os
import pathlib

import scipy.io
import scipy.signal

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
# ../shared/datasets beside the repository, or the folder SENSORPIPE_DATASETS names (a worktree elsewhere).
SPC = pathlib.Path(os.environ.get("SENSORPIPE_DATASETS", str(ROOT.parent / "shared/datasets"))) / "spc2015"
RATE = 125
T0 = 1716307300.0
REF2001 = 978307200.0
DEVICE = "watch-1"

MASKS = {"saturation_ch1": [60.0, 61.5], "unreliable_noise_ch1": [100.0, 101.0], "null_ch2_every_samples": 250}
GAP = [140.0, 143.0]
DELETION = [200.0, 210.0]
DUPLICATE_EVERY = 37


def recordings():
    out = []
    for t in ["01_TYPE01"] + ["%02d_TYPE02" % k for k in range(2, 13)]:
        out.append((t, SPC / "Training_data" / ("DATA_%s.mat" % t), 1))
    for t in ["S01_T01", "S02_T01", "S02_T02", "S03_T02", "S04_T02", "S05_T02", "S06_T01", "S06_T02", "S07_T02",
              "S08_T01"]:
        out.append((t, SPC / "TestData" / ("TEST_%s.mat" % t), 0))
    out.append(("S04_T01", SPC / "Extra_TrainingData" / "DATA_S04_T01.mat", 1))
    return out


def dumps(obj):
    return json.dumps(obj, separators=(",", ":"), allow_nan=False)


def header(sensor):
    return dumps({"type": "header", "schema": "sensorkit-ndjson", "version": 1, "sensor": sensor,
                  "deviceId": DEVICE, "from": T0 - REF2001 - 60, "to": T0 - REF2001 + 86400,
                  "exporter": "spc2015-to-sensorkit/1"})


def device_line():
    return dumps({"type": "device", "deviceId": DEVICE, "name": "SPC 2015 wrist band", "model": "Watch",
                  "systemName": "watchOS", "systemVersion": "10.4", "productType": "Watch6,1"})


def result(kind, t_unix, samples):
    return dumps({"type": kind, "deviceId": DEVICE, "timestamp": t_unix - REF2001 + 1,
                  "timestampUnix": t_unix + 1, "sample": samples})


def deletion(sensor, span):
    s, e = T0 + span[0], T0 + span[1]
    return dumps({"type": "deletionRecord", "deviceId": DEVICE, "sensor": sensor, "timestamp": e - REF2001 + 10,
                  "timestampUnix": e + 10, "sample": {"startTime": s - REF2001, "endTime": e - REF2001,
                                                      "startTimeUnix": s, "endTimeUnix": e, "reason": "ageLimit"}})


def inside(i, span):
    return span[0] * RATE <= i < span[1] * RATE


def write(path, lines):
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=6) as f:
        for line in lines:
            f.write(line + "\n")


def resampled(channels, rate):
    """`channels` (rows at 125 Hz) at `rate` Hz: `scipy.signal.resample_poly` (polyphase FIR,
    up = rate / g, down = 125 / g with g = gcd(rate, 125); SciPy's default Kaiser window, beta 5,
    whose low-pass cuts at the lower of the two Nyquist frequencies), `padtype="line"` (the signal
    is extended by its linear trend at both ends rather than by zeros, so the ends get no step).
    Sample i of the result is at i / rate s from the same start."""
    g = math.gcd(rate, RATE)
    return scipy.signal.resample_poly(channels, rate // g, RATE // g, axis=1, padtype="line")


def convert(sig, first_ppg, folder, defects, rates=None):
    """Writes one variant. `rates` = (PPG Hz, accelerometer Hz), integers: the channels are
    first resampled from 125 Hz with `resample_poly` (see `resampled`); `None` keeps 125 Hz."""
    ppg = sig[first_ppg:first_ppg + 2]
    acc = sig[first_ppg + 2:first_ppg + 5]
    assert not (defects and rates), "the defects variant is written at 125 Hz only"
    ppg_rate, acc_rate = rates or (RATE, RATE)
    if rates:
        ppg, acc = resampled(ppg, ppg_rate), resampled(acc, acc_rate)
    n = ppg.shape[1]
    removed = (lambda i: inside(i, GAP) or inside(i, DELETION)) if defects else (lambda i: False)
    folder.mkdir(parents=True, exist_ok=True)
    lines = [header("photoplethysmogram"), device_line()]
    channels = [(1, [0], 1), (1, [1], 2)]
    for second in range(math.ceil(n / ppg_rate)):
        start = T0 + second
        optical = []
        for c, (emitter, pds, sig_id) in enumerate(channels):
            for j in range(ppg_rate):
                i = second * ppg_rate + j
                if i >= n or removed(i):
                    continue
                value = float(ppg[c][i])
                conditions = []
                if defects and c == 0 and inside(i, MASKS["saturation_ch1"]):
                    conditions = ["signalSaturation"]
                if defects and c == 0 and inside(i, MASKS["unreliable_noise_ch1"]):
                    conditions = ["unreliableNoise"]
                if defects and c == 1 and i % MASKS["null_ch2_every_samples"] == 0:
                    value = None
                optical.append({"emitter": emitter, "activePhotodiodeIndexes": pds, "signalIdentifier": sig_id,
                                "nominalWavelength": 515.0, "effectiveWavelength": 515.0,
                                "samplingFrequency": float(ppg_rate),
                                "nanosecondsSinceStart": j * 1_000_000_000 // ppg_rate,
                                "normalizedReflectance": value, "noiseTerms": None, "conditions": conditions})
        if optical:
            lines.append(result("photoplethysmogram", start, [{"startDate": start, "nanosecondsSinceStart": 0,
                                                               "usage": ["foregroundHeartRate"],
                                                               "opticalSamples": optical,
                                                               "accelerometerSamples": []}]))
    if defects:
        lines.append(deletion("photoplethysmogram", DELETION))
    write(folder / "photoplethysmogram.ndjson.gz", lines)

    n = acc.shape[1]
    lines = [header("accelerometer"), device_line()]
    for second in range(math.ceil(n / acc_rate)):
        samples = []
        for j in range(acc_rate):
            i = second * acc_rate + j
            if i >= n or removed(i):
                continue
            samples.append({"startDate": T0 + i / acc_rate, "identifier": second, "timestamp": 1000.0 + i / acc_rate,
                            "acceleration": {"x": float(acc[0][i]), "y": float(acc[1][i]), "z": float(acc[2][i])}})
        if samples:
            line = result("accelerometer", T0 + second, samples)
            lines.append(line)
            if second % DUPLICATE_EVERY == DUPLICATE_EVERY - 1:
                lines.append(line)
    if defects:
        lines.append(deletion("accelerometer", DELETION))
    write(folder / "accelerometer.ndjson.gz", lines)


def rate_pair(text):
    try:
        ppg, acc = (int(x) for x in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError("expected PPG_HZ:ACC_HZ (integers), got %r" % text)
    if not (1 <= ppg <= 1000 and 1 <= acc <= 1000):
        raise argparse.ArgumentTypeError("rates must be 1...1000 Hz, got %r" % text)
    return ppg, acc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / ".build/derived/spc2015-sensorkit"))
    ap.add_argument("--rates", nargs="+", type=rate_pair, metavar="PPG_HZ:ACC_HZ",
                    help="write only the resampled variants rate-PPG-ACC (e.g. 64:32 25:25 256:100 30:100), "
                         "not complete/defects")
    a = ap.parse_args()
    out = pathlib.Path(a.out)
    if a.rates:
        for name, path, first_ppg in recordings():
            sig = scipy.io.loadmat(str(path))["sig"]
            for ppg_rate, acc_rate in a.rates:
                convert(sig, first_ppg, out / name / ("rate-%d-%d" % (ppg_rate, acc_rate)), False, (ppg_rate, acc_rate))
            print(name, sig.shape[1], "samples at 125 Hz")
        return
    for name, path, first_ppg in recordings():
        sig = scipy.io.loadmat(str(path))["sig"]
        for variant in ["complete", "defects"]:
            convert(sig, first_ppg, out / name / variant, variant == "defects")
        print(name, sig.shape[1], "samples")
    (out / "defects.json").write_text(json.dumps(
        {"masked": MASKS, "gap_s": GAP, "deletion_s": DELETION, "duplicate_every_accelerometer_lines": DUPLICATE_EVERY,
         "t0_unix": T0, "rate_hz": RATE}, indent=1) + "\n")


if __name__ == "__main__":
    main()
