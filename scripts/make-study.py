#!/usr/bin/env python3
"""Writes a synthetic SensorKit study (schema v1, docs/SCHEMA.md) for end-to-end batch timing.

    python3 scripts/make-study.py OUT --participants 4 --days 1 --acc-hours 6 --ppg-hours 1

Layout (the one docs/SCHEMA.md describes: one file per sensor, device and fetch window):

    OUT/pNN/accelerometer/iphone-pNN/<from>_<to>.ndjson.gz        one file a day
    OUT/pNN/photoplethysmogram/watch-pNN/<from>_<to>.ndjson.gz    one file a day
    OUT/pNN/electrocardiogram/watch-pNN/<from>_<to>.ndjson.gz     one file a day, 3 sessions

Per participant-day:
- accelerometer: `--acc-hours` (default 24) of ~50 Hz three-axis acceleration in g with ±3 ms
  timestamp jitter, one SensorKit result a second (50 samples); a day/night pattern (sleep
  from 23:00 to 07:00: still, slow posture changes; awake: rest, arm movement, walking bouts
  at ~1.8 steps/s), gravity included; values with 9 significant digits as CoreMotion writes;
- wrist PPG: `--ppg-hours` (default 4) of 64 Hz, three optical channels (two green photodiode
  pairs, one infrared) with the embedded 64 Hz accelerometer, in 2-minute background sessions
  spread over the waking hours (`--ppg-span-hours`, default 14 from 08:00), one result a second; a pulse wave at 55–95 bpm with respiration
  and noise, a few null and saturated samples;
- ECG: three 30-s Apple Watch sessions at 512 Hz (09:00, 14:00, 20:00), batches of 256 samples
  (the waveform of scripts/make-sensorkit-samples.py: Gaussian P, QRS, T).

Everything is synthesised (no real recording copied); deterministic (seed per participant and
day); gzip level 6 (the gzip tool's default). The content is meant to cost what a real study
costs to decode and analyse (realistic line lengths, number formats, motion and pulse), not to
validate any algorithm.
"""
import argparse
import gzip
import math
import pathlib

import numpy as np

REF2001 = 978307200.0
DAY0 = 1716163200.0  # 2024-05-20 00:00 UTC


def header(sensor, device, t_from, t_to):
    return ('{"type":"header","schema":"sensorkit-ndjson","version":1,"sensor":"%s","deviceId":"%s",'
            '"from":%.1f,"to":%.1f,"exporter":"sensorpipe/scripts/make-study.py"}' %
            (sensor, device, t_from - REF2001, t_to - REF2001))


def device_line(device, name, model, system, version, product):
    return ('{"type":"device","deviceId":"%s","name":"%s","model":"%s","systemName":"%s",'
            '"systemVersion":"%s","productType":"%s"}' % (device, name, model, system, version, product))


def g9(v):
    """A float with 9 significant digits (CoreMotion's Float values printed as Double)."""
    return "%.9g" % v


def accelerometer(rng, device, day_start, hours):
    """Lines of `hours` of ~50 Hz wrist acceleration starting at 07:00 (awake first)."""
    n = int(hours * 3600 * 50)
    start = day_start + 7 * 3600.0
    t = start + np.cumsum(0.02 + rng.uniform(-0.003, 0.003, n))
    clock = (t - day_start) % 86400.0
    asleep = (clock >= 23 * 3600) | (clock < 7 * 3600)
    # Activity state per minute: 0 rest, 1 arm movement, 2 walking (awake only).
    minutes = int(hours * 60) + 2
    state = rng.choice([0, 1, 2], size=minutes, p=[0.55, 0.3, 0.15])
    minute = ((t - start) // 60).astype(int)
    s = np.where(asleep, 0, state[minute])
    # Slowly turning gravity direction (posture), a new one every few minutes.
    k = np.arange(n)
    theta = 0.6 * np.sin(2 * np.pi * k / (50 * 600.0)) + 0.3 * np.sin(2 * np.pi * k / (50 * 1700.0))
    phi = 0.8 * np.sin(2 * np.pi * k / (50 * 900.0))
    gx, gy, gz = np.sin(theta) * np.cos(phi), -np.cos(theta), np.sin(theta) * np.sin(phi)
    step = 2 * np.pi * 1.8 * (t - start)
    walk = (s == 2)
    move = (s == 1)
    x = gx + walk * (0.35 * np.sin(step) + 0.1 * np.sin(2 * step)) + move * 0.15 * np.sin(2 * np.pi * 0.7 * (t - start))
    y = gy + walk * 0.25 * np.sin(step + 1.0) + move * 0.1 * np.cos(2 * np.pi * 0.5 * (t - start))
    z = gz + walk * 0.2 * np.sin(2 * step + 0.4)
    noise = np.where(asleep, 0.003, 0.008)
    x = x + rng.normal(0, 1, n) * noise
    y = y + rng.normal(0, 1, n) * noise
    z = z + rng.normal(0, 1, n) * noise
    boot = 81234.0
    lines = []
    for r in range(0, n, 50):
        e = min(r + 50, n)
        batch = 1_000_000 + r // 50
        parts = []
        for i in range(r, e):
            parts.append('{"startDate":%.6f,"identifier":%d,"timestamp":%.6f,"acceleration":{"x":%s,"y":%s,"z":%s}}' %
                         (t[i], batch, boot + t[i] - start, g9(x[i]), g9(y[i]), g9(z[i])))
        tw = t[e - 1] + 0.5
        lines.append('{"type":"accelerometer","deviceId":"%s","timestamp":%.3f,"timestampUnix":%.3f,"sample":[%s]}' %
                     (device, tw - REF2001, tw, ",".join(parts)))
    return lines, t[0], t[-1]


def ppg(rng, device, day_start, hours, span_hours=14.0):
    """Lines of `hours` of 64 Hz wrist PPG in 2-minute sessions between 08:00 and 08:00 + `span_hours`."""
    fs = 64.0
    sessions = max(1, int(round(hours * 30)))
    span = max(span_hours * 3600.0, sessions * 120.0)
    starts = day_start + 8 * 3600.0 + np.sort(rng.choice(int(span // 120), size=sessions, replace=False)) * 120.0
    channels = [(9, "0,1", 1, 525.0, 527.3), (9, "2,3", 2, 525.0, 526.8), (10, "2,3", 3, 940.0, 938.1)]
    lines = []
    noise = '{"whiteNoise":1.1e-06,"pinkNoise":2e-07,"backgroundNoise":0.0003,"backgroundNoiseOffset":0.0001}'
    for s0 in starts:
        rate = rng.uniform(55, 95) / 60.0
        resp = rng.uniform(0.2, 0.3)
        for sec in range(120):
            start = s0 + sec
            tt = sec + np.arange(64) / fs
            phase = 2 * np.pi * rate * tt
            pulse = np.sin(phase) + 0.35 * np.sin(2 * phase + 0.8)
            base = 1 + 0.05 * np.sin(2 * np.pi * resp * tt)
            optical = []
            for ci, (emitter, pds, sig, nominal, effective) in enumerate(channels):
                level = (0.0123, 0.0118, 0.0311)[ci]
                value = level * base * (1 - 0.04 * pulse) + rng.normal(0, level * 0.002, 64)
                for j in range(64):
                    refl = g9(value[j])
                    cond = "[]"
                    if ci == 0 and (sec * 64 + j) % 997 == 5:
                        refl = "null"
                    elif ci == 0 and (sec * 64 + j) % 1499 == 7:
                        cond = '["signalSaturation"]'
                    optical.append(
                        '{"emitter":%d,"activePhotodiodeIndexes":[%s],"signalIdentifier":%d,"nominalWavelength":%.1f,'
                        '"effectiveWavelength":%.1f,"samplingFrequency":64.0,"nanosecondsSinceStart":%d,'
                        '"normalizedReflectance":%s,"noiseTerms":%s,"conditions":%s}' %
                        (emitter, pds, sig, nominal, effective, j * 15_625_000, refl, noise, cond))
            ax = rng.normal(0.01, 0.01, 64)
            ay = rng.normal(-0.99, 0.01, 64)
            az = rng.normal(0.03, 0.01, 64)
            accel = ['{"nanosecondsSinceStart":%d,"samplingFrequency":64.0,"x":%s,"y":%s,"z":%s}' %
                     (j * 15_625_000, g9(ax[j]), g9(ay[j]), g9(az[j])) for j in range(64)]
            temperature = "%.2f" % (31.0 + 0.5 * math.sin(sec / 60.0))
            sample = ('{"startDate":%.3f,"nanosecondsSinceStart":0,"usage":["backgroundSystem"],"temperature":%s,'
                      '"opticalSamples":[%s],"accelerometerSamples":[%s]}' %
                      (start, temperature, ",".join(optical), ",".join(accel)))
            tw = start + 1.0
            lines.append('{"type":"photoplethysmogram","deviceId":"%s","timestamp":%.3f,"timestampUnix":%.3f,"sample":[%s]}' %
                         (device, tw - REF2001, tw, sample))
    return lines, float(starts[0]), float(starts[-1]) + 120.0


def ecg_wave(t, rate):
    phase = (t * rate) % 1.0
    v = np.zeros_like(t)
    for c, w, a in [(0.15, 0.025, 120.0), (0.36, 0.008, -150.0), (0.38, 0.010, 1100.0),
                    (0.40, 0.008, -250.0), (0.62, 0.045, 300.0)]:
        v += a * np.exp(-((phase - c) ** 2) / (2 * w * w))
    return v + 8.0 * np.sin(2 * np.pi * 0.25 * t)


def ecg(rng, device, day_start):
    """Three 30-s sessions at 512 Hz."""
    fs = 512.0
    lines = []
    for k, hour in enumerate((9, 14, 20)):
        d0 = day_start + hour * 3600.0 + rng.uniform(0, 600)
        ident = "S%08X" % int(rng.integers(0, 1 << 31))
        rate = rng.uniform(1.0, 1.4)
        n = int(30 * fs)
        v = ecg_wave(np.arange(n) / fs, rate) + rng.normal(0, 6.0, n)
        for b in range(0, n, 256):
            state = "begin" if b == 0 else ("end" if b + 256 >= n else "active")
            data = ",".join('{"value":%.3f,"flags":0}' % v[i] for i in range(b, min(b + 256, n)))
            date = d0 + b / fs
            sample = ('{"date":%.6f,"frequency":512.0,"lead":"rightArmMinusLeftArm","session":{"identifier":"%s",'
                      '"state":"%s","sessionGuidance":"guided"},"data":[%s]}' % (date, ident, state, data))
            tw = date + 0.6
            lines.append('{"type":"electrocardiogram","deviceId":"%s","timestamp":%.3f,"timestampUnix":%.3f,"sample":[%s]}' %
                         (device, tw - REF2001, tw, sample))
    return lines


def write(path, head, lines):
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", compresslevel=6, encoding="utf-8") as f:
        f.write("\n".join(head + lines) + "\n")
    return path.stat().st_size


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=pathlib.Path)
    ap.add_argument("--participants", type=int, default=4)
    ap.add_argument("--days", type=int, default=1)
    ap.add_argument("--acc-hours", type=float, default=24.0, help="accelerometer hours a day (default 24)")
    ap.add_argument("--ppg-hours", type=float, default=4.0, help="wrist PPG hours a day (default 4)")
    ap.add_argument("--ppg-span-hours", type=float, default=14.0,
                    help="hours from 08:00 over which the PPG sessions are spread (default 14; "
                         "the --ppg-hours value: back to back)")
    args = ap.parse_args()
    total = 0
    for p in range(1, args.participants + 1):
        pid = "p%02d" % p
        phone, watch = "iphone-" + pid, "watch-" + pid
        for d in range(args.days):
            rng = np.random.default_rng(1000 * p + d)
            day = DAY0 + 86400.0 * d
            name = "%d_%d.ndjson.gz" % (day - REF2001, day + 86400 - REF2001)
            lines, a, b = accelerometer(rng, phone, day, args.acc_hours)
            total += write(args.out / pid / "accelerometer" / phone / name,
                           [header("accelerometer", phone, a, b),
                            device_line(phone, "iPhone", "iPhone", "iOS", "17.5", "iPhone15,2")], lines)
            if args.ppg_hours > 0:
                lines, a, b = ppg(rng, watch, day, args.ppg_hours, args.ppg_span_hours)
                total += write(args.out / pid / "photoplethysmogram" / watch / name,
                               [header("photoplethysmogram", watch, a, b),
                                device_line(watch, "Apple Watch", "Watch", "watchOS", "10.4", "Watch6,1")], lines)
            lines = ecg(rng, watch, day)
            total += write(args.out / pid / "electrocardiogram" / watch / name,
                           [header("electrocardiogram", watch, day, day + 86400),
                            device_line(watch, "Apple Watch", "Watch", "watchOS", "10.4", "Watch6,1")], lines)
    print("%s: %d participants × %d days, %.1f MB of gzip NDJSON" % (args.out, args.participants, args.days, total / 1e6))


if __name__ == "__main__":
    main()
