#!/usr/bin/env python3
"""Build the bundled demo recordings in Datasets/ from the real data sets in ../shared/datasets.

Usage: python3 scripts/make-demo-datasets.py [--shared ../shared/datasets]

Only data whose licence allows redistribution are used (see Datasets/README.md):
  ecg/           MIT-BIH Arrhythmia DB records 100, 105, 119 (ODC-By 1.0): the first 60 s of lead MLII,
                 resampled 360 -> 512 Hz (scipy.signal.resample_poly 64/45), mV -> uV, written as Apple
                 Watch ECG sessions (SRElectrocardiogramSample batches of 256 samples).
  ppg/           BUT PPG (CC BY 4.0): 12 ten-second smartphone-camera PPG signals (30 Hz) as
                 SRPhotoplethysmogramSample lines, one optical channel each; reference HR and quality
                 labels kept in Datasets/ppg/but-ppg-labels.tsv.
  accelerometer/ Oxford step-counter walks (CC BY 4.0) and the ActiGraph GT3X example (MIT), converted
                 with `sensorpipe convert` (preset oxford-steps; the .gt3x is read directly).
Times: MIT-BIH and BUT PPG carry no absolute time; the demo sessions are anchored at fixed,
documented Unix times (2024-05-21 UTC). Needs numpy, scipy, wfdb (pip install numpy scipy wfdb) and a
built `sensorpipe` (swift build -c release).
"""
import argparse
import gzip
import json
import pathlib
import shutil
import subprocess
import tempfile

import numpy as np
import scipy.signal as sig
import wfdb

ROOT = pathlib.Path(__file__).resolve().parent.parent
APPLE_EPOCH = 978307200.0
HEADER_ECG_ANCHOR = 1716249600.0  # 2024-05-21T00:00:00Z


def write_gzip(path: pathlib.Path, text: str) -> None:
    """gzip with mtime 0, so rebuilding gives identical bytes."""
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as f:
        f.write(text.encode("utf-8"))


def fmt(x: float) -> str:
    return repr(float(x))


def header(sensor: str, device: str, start: float, end: float) -> str:
    return json.dumps({"type": "header", "schema": "sensorkit-ndjson", "version": 1, "sensor": sensor,
                       "deviceId": device, "from": start - APPLE_EPOCH, "to": end - APPLE_EPOCH,
                       "exporter": "sensorpipe/scripts/make-demo-datasets.py"}, separators=(",", ":"))


def device_line(device: str, name: str, model: str, system: str, product: str) -> str:
    return json.dumps({"type": "device", "deviceId": device, "name": name, "model": model, "systemName": system,
                       "systemVersion": "", "productType": product}, separators=(",", ":"))


def make_ecg(shared: pathlib.Path, out: pathlib.Path) -> None:
    device = "watch-1"
    records = [("100", 0), ("105", 1), ("119", 2)]
    tmp = pathlib.Path(tempfile.mkdtemp())
    try:
        for name, k in records:
            for suffix in (".hea", ".atr"):
                shutil.copy(shared / "mitdb" / (name + suffix), tmp / (name + suffix))
            with open(tmp / (name + ".dat"), "wb") as f:
                f.write(subprocess.run(["xz", "-dc", str(shared / "mitdb" / (name + ".dat.xz"))],
                                       check=True, capture_output=True).stdout)
            rec = wfdb.rdrecord(str(tmp / name), channel_names=["MLII"], sampto=360 * 60)
            mv = rec.p_signal[:, 0]
            uv = sig.resample_poly(mv, 64, 45) * 1000.0  # 360 Hz -> 512 Hz, mV -> uV
            start = HEADER_ECG_ANCHOR + 3600.0 * (9 + k)  # 09:00, 10:00, 11:00 UTC
            fs = 512.0
            session = f"mitdb-{name}"
            lines = [header("electrocardiogram", device, start, start + len(uv) / fs),
                     device_line(device, "Apple Watch", "Watch", "watchOS", "Watch6,1")]
            batch = 256
            for b in range(0, len(uv), batch):
                date = start + b / fs
                chunk = uv[b:b + batch]
                state = "begin" if b == 0 else ("end" if b + batch >= len(uv) else "active")
                data = ",".join('{"value":%s,"flags":0}' % fmt(round(v, 3)) for v in chunk)
                written = date + len(chunk) / fs
                lines.append('{"type":"electrocardiogram","deviceId":"%s","timestamp":%s,"timestampUnix":%s,'
                             '"sample":[{"date":%s,"frequency":512.0,"lead":"rightArmMinusLeftArm",'
                             '"session":{"identifier":"%s","state":"%s","sessionGuidance":"guided"},"data":[%s]}]}'
                             % (device, fmt(written - APPLE_EPOCH), fmt(written), fmt(date), session, state, data))
            path = out / "ecg" / f"{device}_mitdb{name}_{int(start)}.ndjson.gz"
            path.parent.mkdir(parents=True, exist_ok=True)
            write_gzip(path, "\n".join(lines) + "\n")
            print("wrote", path.relative_to(ROOT))
    finally:
        shutil.rmtree(tmp)


def make_ppg(shared: pathlib.Path, out: pathlib.Path) -> None:
    rows = []
    with open(shared / "butppg-subset" / "myData.csv", encoding="utf-8") as f:
        next(f)
        for line in f:
            head, signal, _, time, _ = line.split('"')
            ident, ref_hr, location, motion, quality = head.split()
            rows.append((ident, float(ref_hr), int(location), int(motion), int(quality),
                         [float(v) for v in signal.split()], [float(v) for v in time.split()]))
    chosen = [r for r in rows if r[4] == 1][:8] + [r for r in rows if r[4] == 0][:4]
    device = "phone-1"
    start0 = HEADER_ECG_ANCHOR + 13 * 3600.0
    lines, labels = [], ["record_id\tstart_unix_s\tref_hr_bpm\tlocation\tmotion\tquality"]
    for k, (ident, ref_hr, location, motion, quality, values, times) in enumerate(chosen):
        start = start0 + 60.0 * k
        labels.append(f"{ident}\t{start:.1f}\t{ref_hr:g}\t{location}\t{motion}\t{quality}")
        optical = []
        for v, t in zip(values, times):
            ns = int(round(t * 1e9))
            optical.append('{"emitter":%d,"activePhotodiodeIndexes":[0],"signalIdentifier":%s,'
                           '"samplingFrequency":30.0,"nanosecondsSinceStart":%d,"normalizedReflectance":%s,'
                           '"noiseTerms":null,"conditions":[]}' % (1, ident, ns, fmt(v)))
        written = start + times[-1]
        lines.append('{"type":"photoplethysmogram","deviceId":"%s","timestamp":%s,"timestampUnix":%s,'
                     '"sample":[{"startDate":%s,"nanosecondsSinceStart":0,"usage":["foregroundHeartRate"],'
                     '"temperature":null,"opticalSamples":[%s],"accelerometerSamples":[]}]}'
                     % (device, fmt(written - APPLE_EPOCH), fmt(written), fmt(start), ",".join(optical)))
    path = out / "ppg" / f"{device}_butppg_{int(start0)}.ndjson.gz"
    path.parent.mkdir(parents=True, exist_ok=True)
    end = start0 + 60.0 * len(chosen)
    write_gzip(path, "\n".join([header("photoplethysmogram", device, start0, end),
                                device_line(device, "Smartphone camera (BUT PPG)", "phone", "", "")] + lines) + "\n")
    (out / "ppg" / "but-ppg-labels.tsv").write_text("\n".join(labels) + "\n")
    print("wrote", path.relative_to(ROOT))


def make_accelerometer(shared: pathlib.Path, out: pathlib.Path, sensorpipe: pathlib.Path) -> None:
    (out / "accelerometer").mkdir(parents=True, exist_ok=True)
    jobs = [
        (shared / "oxford-step-counter-validation" / "user1_hand_1506421989895.csv.xz", "oxford-steps",
         "oxford_user1_hand_1506421989895.ndjson.gz"),
        (shared / "oxford-step-counter-validation" / "user2_frontpocket_1506422217391.csv.xz", "oxford-steps",
         "oxford_user2_frontpocket_1506422217391.ndjson.gz"),
        (shared / "actigraph-counts-example" / "example.gt3x", None, "actigraph_example_wrist_100hz.ndjson.gz"),
    ]
    for src, preset, name in jobs:
        dst = out / "accelerometer" / name
        cmd = [str(sensorpipe), "convert", str(src), "--to", "sensorkit-ndjson", str(dst)]
        subprocess.run(cmd + (["--preset", preset] if preset else []), check=True)
        print("wrote", dst.relative_to(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "datasets"))
    ap.add_argument("--sensorpipe", default=str(ROOT / ".build" / "release" / "sensorpipe"))
    args = ap.parse_args()
    shared, out = pathlib.Path(args.shared), ROOT / "Datasets"
    make_ecg(shared, out)
    make_ppg(shared, out)
    make_accelerometer(shared, out, pathlib.Path(args.sensorpipe))


if __name__ == "__main__":
    main()
