#!/usr/bin/env python3
"""Writes the analysis-side reproducers of issue 33 (hardening round 3, fault classes 1-6) into
Tests/PipelineTests/Fixtures/hardening/ (gzipped SensorKit NDJSON and CSV). Each file is a short,
plausible synthetic recording with one crafted defect; what the analysis must do with it is
written by hand in Tests/PipelineTests/AnalysisHardeningTests.swift from how the file is built
(never from SensorPipe's output). Every file is also run by `sensorpipe analyze` under an
address-space and time limit (AnalysisCorpusLimitsTests).

Signals (synthesised, deterministic): an ECG of Gaussian P/QRS/T waves at 512 Hz and 72 bpm
(as scripts/make-sensorkit-samples.py), a green PPG at 64 Hz with a 72 bpm pulse (systolic and
dicrotic Gaussian waves) and its embedded accelerometer, a ~50 Hz wrist accelerometer at rest
(about 1 g).

Run from the repository root: python3 scripts/make-analysis-hardening-fixtures.py
"""
import gzip
import importlib.util
import math
import os
import pathlib
import random

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests/PipelineTests/Fixtures/hardening"
T0 = 1716307300.0            # Unix seconds (2024-05-21)
REF2001 = 978307200.0        # SRAbsoluteTime offset of the raw timestamps


# The line writers of the SensorKit test files (one definition of the schema's lines).
_spec = importlib.util.spec_from_file_location("sensorkit_samples", pathlib.Path(__file__).with_name("make-sensorkit-samples.py"))
_samples = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_samples)
dumps = _samples.dumps
result = _samples.result


def header(sensor, device):
    return dumps({"type": "header", "schema": "sensorkit-ndjson", "version": 1, "sensor": sensor,
                  "deviceId": device, "from": T0 - REF2001 - 60, "to": T0 - REF2001 + 86400,
                  "exporter": "make-analysis-hardening-fixtures/1"})


def write(name, lines):
    OUT.mkdir(parents=True, exist_ok=True)
    data = ("\n".join(lines) + "\n").encode()
    path = OUT / name
    if name.endswith(".gz"):
        with open(path, "wb") as f:
            # mtime 0: the same bytes on every run.
            with gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as g:
                g.write(data)
    else:
        path.write_bytes(data)
    print(path, os.path.getsize(path))


# ---- ECG --------------------------------------------------------------------------------------
def ecg_value(t):
    """mV-like units (µV/1000 of make-sensorkit-samples): a 72 bpm beat of Gaussian waves."""
    phase = (t * 1.2) % 1.0
    waves = [(0.15, 0.025, 120.0), (0.36, 0.008, -150.0), (0.38, 0.010, 1100.0),
             (0.40, 0.008, -250.0), (0.62, 0.045, 300.0)]
    v = sum(a * math.exp(-((phase - c) ** 2) / (2 * w * w)) for c, w, a in waves)
    return round(v + 8.0 * math.sin(2 * math.pi * 0.25 * t), 1)


def ecg_lines(segments, session="S1", fs=512.0, per=512):
    """`segments`: [(start_unix, seconds)]; one line per `per` samples, one session."""
    lines = []
    for start, seconds in segments:
        n = int(seconds * fs)
        for k in range(0, n, per):
            date = start + k / fs
            data = [{"value": ecg_value(date - start + j / fs), "flags": 0} for j in range(min(per, n - k))]
            b = {"date": date, "frequency": fs, "lead": "rightArmMinusLeftArm",
                 "session": {"identifier": session, "state": "active", "sessionGuidance": "guided"},
                 "data": data}
            lines.append(result("electrocardiogram", "watch-1", date + per / fs, [b]))
    return lines


# ---- PPG --------------------------------------------------------------------------------------
def ppg_value(t):
    phase = (t * 1.2) % 1.0
    pulse = math.exp(-((phase - 0.25) ** 2) / (2 * 0.06 ** 2)) + 0.35 * math.exp(-((phase - 0.55) ** 2) / (2 * 0.08 ** 2))
    return 0.0123 + 0.001 * pulse


def ppg_lines(segments, fs=64.0, per=128, outlier=None, rng=None):
    """`segments`: [(start_unix, seconds)]; one green channel and the embedded accelerometer;
    `outlier`: (unix time, value) written instead of the reflectance at that time."""
    rng = rng or random.Random(5)
    lines = []
    for start, seconds in segments:
        n = int(seconds * fs)
        for k in range(0, n, per):
            t0 = start + k / fs
            m = min(per, n - k)
            optical = []
            for j in range(m):
                t = t0 + j / fs
                v = round(ppg_value(t - start) + rng.gauss(0, 1e-6), 8)
                if outlier is not None and abs(t - outlier[0]) < 0.5 / fs:
                    v = outlier[1]
                optical.append({"emitter": 9, "activePhotodiodeIndexes": [0, 1], "signalIdentifier": 1,
                                "nominalWavelength": 525.0, "effectiveWavelength": 527.3, "samplingFrequency": fs,
                                "nanosecondsSinceStart": round(j * 1e9 / fs), "normalizedReflectance": v,
                                "conditions": []})
            accel = [{"nanosecondsSinceStart": round(j * 1e9 / fs), "samplingFrequency": fs,
                      "x": round(rng.gauss(0.01, 0.002), 4), "y": round(rng.gauss(-0.99, 0.002), 4),
                      "z": round(rng.gauss(0.03, 0.002), 4)} for j in range(m)]
            sample = {"startDate": t0, "nanosecondsSinceStart": 0, "usage": ["backgroundSystem"],
                      "temperature": 31.5, "opticalSamples": optical, "accelerometerSamples": accel}
            lines.append(result("photoplethysmogram", "watch-1", t0 + m / fs, [sample]))
    return lines


# ---- Accelerometer ----------------------------------------------------------------------------
def acc_samples(rng, start, seconds, scale=1.0, digits=6):
    out = []
    t = start
    while t < start + seconds:
        i = len(out)
        out.append({"startDate": round(t, 6), "identifier": 1000 + i,
                    "acceleration": {"x": round(scale * (0.012 + 0.05 * math.sin(i / 7.0) + rng.gauss(0, 0.004)), digits),
                                     "y": round(scale * (-0.981 + 0.03 * math.cos(i / 11.0) + rng.gauss(0, 0.004)), digits),
                                     "z": round(scale * (0.047 + rng.gauss(0, 0.004)), digits)}})
        t += 0.02 + rng.uniform(-0.003, 0.003)
    return out


def acc_lines(samples, device="iphone-1", per=50):
    return [result("accelerometer", device, samples[min(k + per, len(samples)) - 1]["startDate"],
                   samples[k:k + per]) for k in range(0, len(samples), per)]


def main():
    rng = random.Random(33)
    # Class 1: times far from the data.
    acc = acc_samples(rng, T0, 120.0)
    far = [dict(acc[0], startDate=1e20, identifier=1)]
    write("acc-time-1e20.ndjson.gz", [header("accelerometer", "iphone-1")] + acc_lines(acc[:3000])
          + [result("accelerometer", "iphone-1", T0 + 61, far)] + acc_lines(acc[3000:]))
    write("ecg-clock-reset-1970.ndjson.gz", [header("electrocardiogram", "watch-1")]
          + ecg_lines([(0.0, 60.0), (T0, 60.0)]))
    write("ppg-clock-reset-1970.ndjson.gz", [header("photoplethysmogram", "watch-1")]
          + ppg_lines([(0.0, 60.0), (T0, 60.0)]))
    write("ecg-gap-1e6.ndjson.gz", [header("electrocardiogram", "watch-1")]
          + ecg_lines([(T0, 60.0), (T0 + 60.0 + 1e6, 60.0)]))
    write("ppg-gap-1e6.ndjson.gz", [header("photoplethysmogram", "watch-1")]
          + ppg_lines([(T0, 60.0), (T0 + 60.0 + 1e6, 60.0)]))
    write("acc-gap-1e6.ndjson.gz", [header("accelerometer", "iphone-1")]
          + acc_lines(acc_samples(rng, T0, 60.0) + acc_samples(rng, T0 + 60.0 + 1e6, 60.0)))
    # Class 4: one outlier sample (PPG at 1e6 at 30 s of 5 min; accelerometer ±3.4e38 ×3).
    write("ppg-outlier-1e6.ndjson.gz", [header("photoplethysmogram", "watch-1")]
          + ppg_lines([(T0, 300.0)], outlier=(T0 + 30.0, 1e6)))
    acc = acc_samples(rng, T0, 600.0)
    for i, v in [(1000, 3.4e38), (1001, -3.4e38), (1002, 3.4e38)]:
        acc[i] = dict(acc[i], acceleration={"x": v, "y": -0.98, "z": 0.05})
    write("acc-outlier-3e38.ndjson.gz", [header("accelerometer", "iphone-1")] + acc_lines(acc))
    # Class 3: 30 PPG lines (2 s each); line 15 repeated right after itself, as exporters do.
    ppg = ppg_lines([(T0, 60.0)], rng=random.Random(7))
    write("ppg-30-lines.ndjson.gz", [header("photoplethysmogram", "watch-1")] + ppg)
    write("ppg-duplicate-line.ndjson.gz", [header("photoplethysmogram", "watch-1")] + ppg[:15] + [ppg[14]] + ppg[15:])
    # Class 5: an accelerometer in m/s² labelled as g (SensorKit declares g): 10 min at rest.
    write("acc-mps2-as-g.ndjson.gz", [header("accelerometer", "iphone-1")]
          + acc_lines(acc_samples(random.Random(55), T0, 600.0, scale=9.80665, digits=3)))
    # Class 6: many streams.
    # 10,000 ECG sessions of 16 samples each, one line each, one second apart.
    lines = [header("electrocardiogram", "watch-1")]
    for k in range(10_000):
        date = T0 + k
        b = {"date": date, "frequency": 512.0, "lead": "rightArmMinusLeftArm",
             "session": {"identifier": "S%05d" % k, "state": "active", "sessionGuidance": "guided"},
             "data": [{"value": ecg_value(j / 512.0), "flags": 0} for j in range(16)]}
        lines.append(result("electrocardiogram", "watch-1", date + 1, [b]))
    write("ecg-10000-sessions.ndjson.gz", lines)
    # 10,000 accelerometer devices of 5 samples each.
    lines = [header("accelerometer", "iphone-1")]
    for k in range(10_000):
        lines += acc_lines(acc_samples(rng, T0 + k * 0.1, 0.1, digits=3), device="dev-%05d" % k)
    write("acc-10000-devices.ndjson.gz", lines)
    # 4,000 PPG channels (signalIdentifier 1…4000) of one device, 4 samples each, 2 s apart.
    lines = [header("photoplethysmogram", "watch-1")]
    for k in range(4_000):
        t0 = T0 + 2 * k
        optical = [{"emitter": 9, "activePhotodiodeIndexes": [0, 1], "signalIdentifier": k + 1,
                    "nominalWavelength": 525.0, "effectiveWavelength": 527.3, "samplingFrequency": 64.0,
                    "nanosecondsSinceStart": round(j * 1e9 / 64), "normalizedReflectance": round(ppg_value(j / 64), 8),
                    "conditions": []} for j in range(4)]
        sample = {"startDate": t0, "nanosecondsSinceStart": 0, "usage": ["backgroundSystem"],
                  "opticalSamples": optical, "accelerometerSamples": []}
        lines.append(result("photoplethysmogram", "watch-1", t0 + 1, [sample]))
    write("ppg-4000-channels.ndjson.gz", lines)


if __name__ == "__main__":
    main()
