#!/usr/bin/env python3
"""Writes the SensorKit test files of SensorPipe (synthetic, schema v1 of docs/SCHEMA.md):

  Tests/RecordingsTests/Fixtures/sensorkit/      small realistic exports + expected.json
  Tests/RecordingsTests/Fixtures/bad/sensorkit/  malformed files + expected.json

Everything is synthesised here (no real recording is copied): an ECG-like waveform (Gaussian
P, QRS and T waves, McSharry et al. 2003 style) at 512 Hz, a jittery ~50 Hz accelerometer,
rotation rate, and a two-channel PPG with its embedded accelerometer. The expected counts in
expected.json follow from how the files are built (duplicates, gaps, nulls, flags), not from the
decoder. Deterministic (fixed seeds); rerun after changing it and commit the output.
"""
import gzip
import json
import math
import pathlib
import random

ROOT = pathlib.Path(__file__).resolve().parent.parent
GOOD = ROOT / "Tests/RecordingsTests/Fixtures/sensorkit"
BAD = ROOT / "Tests/RecordingsTests/Fixtures/bad/sensorkit"
T0 = 1716307300.0            # Unix seconds
REF2001 = 978307200.0        # SRAbsoluteTime offset used for the raw timestamps


def dumps(obj):
    return json.dumps(obj, separators=(",", ":"), allow_nan=False)


def header(sensor, device):
    return dumps({"type": "header", "schema": "sensorkit-ndjson", "version": 1, "sensor": sensor,
                  "deviceId": device, "from": T0 - REF2001 - 60, "to": T0 - REF2001 + 86400,
                  "exporter": "make-sensorkit-samples/1"})


def device_line(device, name, model, system, version, product):
    return dumps({"type": "device", "deviceId": device, "name": name, "model": model,
                  "systemName": system, "systemVersion": version, "productType": product})


def result(kind, device, t_unix, samples):
    return dumps({"type": kind, "deviceId": device, "timestamp": t_unix - REF2001,
                  "timestampUnix": t_unix, "sample": samples})


def deletion(device, sensor, start_unix, end_unix, reason="ageLimit"):
    return dumps({"type": "deletionRecord", "deviceId": device, "sensor": sensor,
                  "timestamp": end_unix - REF2001 + 10, "timestampUnix": end_unix + 10,
                  "sample": {"startTime": start_unix - REF2001, "endTime": end_unix - REF2001,
                             "startTimeUnix": start_unix, "endTimeUnix": end_unix, "reason": reason}})


def ecg_value(t):
    """µV; a 72 bpm beat built from Gaussian waves."""
    phase = (t * 1.2) % 1.0
    waves = [(0.15, 0.025, 120.0), (0.36, 0.008, -150.0), (0.38, 0.010, 1100.0),
             (0.40, 0.008, -250.0), (0.62, 0.045, 300.0)]
    v = sum(a * math.exp(-((phase - c) ** 2) / (2 * w * w)) for c, w, a in waves)
    return round(v + 8.0 * math.sin(2 * math.pi * 0.25 * t), 3)


# ----------------------------------------------------------------------------------------------
def make_ecg():
    lines = [header("electrocardiogram", "watch-1"),
             device_line("watch-1", "Apple Watch", "Watch", "watchOS", "10.4", "Watch6,1")]
    fs = 512.0
    d0 = T0 + 10.0
    batches = []
    for k in range(4):
        date = d0 + k * 256 / fs
        data = []
        for j in range(256):
            flags = 0
            if k == 1 and 10 <= j < 20:
                flags = 1
            if k == 1 and 20 <= j < 25:
                flags = 2
            if k == 1 and j == 25:
                flags = 3
            data.append({"value": ecg_value(date - d0 + j / fs), "flags": flags})
        state = "begin" if k == 0 else "active"
        sample = {"date": date, "frequency": fs, "lead": "rightArmMinusLeftArm",
                  "session": {"identifier": "6F1C2A", "state": state, "sessionGuidance": "guided"},
                  "data": data}
        if k == 3:  # integer raw values for the enums, and an unknown field
            sample["lead"] = 1
            sample["session"] = {"identifier": "6F1C2A", "state": 2, "sessionGuidance": 1}
            sample["note"] = "unknown field"
        batches.append(sample)
    for k, b in enumerate(batches):
        lines.append(result("electrocardiogram", "watch-1", b["date"] + 0.6, [b]))
        if k == 2:
            lines.append(lines[-1])          # exact duplicate result (same session + date)
            lines.append("")                 # blank line
    # After a 1 s gap: a new segment of the same session.
    date = d0 + 4 * 256 / fs + 1.0
    gap_batch = {"date": date, "frequency": fs, "lead": "rightArmMinusLeftArm",
                 "session": {"identifier": "6F1C2A", "state": "end", "sessionGuidance": "guided"},
                 "data": [{"value": ecg_value(date - d0 + j / fs), "flags": 0} for j in range(256)]}
    lines.append(result("electrocardiogram", "watch-1", date + 0.6, [gap_batch]))
    lines.append(dumps({"type": "heartbeatSeries", "deviceId": "watch-1", "sample": []}))
    # A second session at a non-integer rate, two contiguous batches in one result.
    fs2 = 512.508
    d1 = T0 + 400.0
    s2 = []
    for k in range(2):
        date = d1 + k * 300 / fs2
        s2.append({"date": date, "frequency": fs2, "lead": "leftArmMinusRightArm",
                   "session": {"identifier": "7A2B3C", "state": "active", "sessionGuidance": "unguided"},
                   "data": [{"value": ecg_value(k * 300 / fs2 + j / fs2), "flags": 0} for j in range(300)]})
    lines.append(result("electrocardiogram", "watch-1", d1 + 2, s2))
    lines.append(deletion("watch-1", "electrocardiogram", T0 + 1000.0, T0 + 4600.0))
    (GOOD / "ecg.ndjson").write_text("\n".join(lines) + "\n")
    first = batches[0]["data"]
    return {
        "file": "ecg.ndjson",
        "streams": {
            "watch-1/electrocardiogram/ecg/session=6F1C2A": {
                "samplesRead": 6 * 256, "samplesEmitted": 5 * 256, "duplicatesDropped": 256,
                "rejected": 0, "masked": 11, "segments": 2, "gaps": 1, "backwardSteps": 0,
                "deletedSpans": 1, "deletedSeconds": 3600.0,
                "firstTime": d0, "firstValues": [first[0]["value"], first[1]["value"], first[2]["value"]],
                "crownTouched": 6, "signalInvalid": 11,
                "attributes": {"lead": "rightArmMinusLeftArm", "sessionGuidance": "guided"},
                "nominalSampleRate": fs},
            "watch-1/electrocardiogram/ecg/session=7A2B3C": {
                "samplesRead": 600, "samplesEmitted": 600, "duplicatesDropped": 0, "rejected": 0,
                "masked": 0, "segments": 1, "gaps": 0, "backwardSteps": 0,
                "deletedSpans": 1, "deletedSeconds": 3600.0, "firstTime": d1,
                "firstValues": [s2[0]["data"][0]["value"], s2[0]["data"][1]["value"], s2[0]["data"][2]["value"]],
                "attributes": {"lead": "leftArmMinusRightArm", "sessionGuidance": "unguided"},
                "nominalSampleRate": fs2},
        },
        "unknownFields": 1, "unknownLineTypes": 1, "blankLines": 1, "deletions": 1,
    }


def accel_samples(rng, n, t_start, gap_after=None, gap=0.0):
    out = []
    t = t_start
    for i in range(n):
        t += 0.02 + rng.uniform(-0.003, 0.003)
        if gap_after is not None and i == gap_after:
            t += gap
        ts = round(t, 6)
        out.append((ts, round(0.012 + 0.05 * math.sin(i / 7.0) + rng.gauss(0, 0.004), 6),
                    round(-0.981 + 0.03 * math.cos(i / 11.0) + rng.gauss(0, 0.004), 6),
                    round(0.047 + rng.gauss(0, 0.004), 6)))
    return out


def make_accelerometer():
    rng = random.Random(11)
    samples = accel_samples(rng, 3000, T0, gap_after=2000, gap=10.0)
    lines = [header("accelerometer", "iphone-1"),
             device_line("iphone-1", "iPhone", "iPhone", "iOS", "17.5", "iPhone15,2")]
    results = []
    for k in range(30):
        chunk = samples[k * 100:(k + 1) * 100]
        batch_id = (1 << 64) - 1 - 1000 * k   # identifiers beyond 2^53: must be parsed exactly
        sample = [{"startDate": s[0], "identifier": batch_id, "timestamp": 81234.0 + s[0] - T0,
                   "acceleration": {"x": s[1], "y": s[2], "z": s[3]}} for s in chunk]
        results.append(result("accelerometer", "iphone-1", chunk[-1][0] + 0.5, sample))
    for k, r in enumerate(results):
        lines.append(r)
        if k == 8:
            lines.append(results[7])        # a repeated earlier result: 100 exact duplicates
    lines.append(deletion("iphone-1", "accelerometer", T0 - 7200.0, T0 - 3600.0, reason=1))
    text = "\n".join(lines) + "\n"
    (GOOD / "accelerometer.ndjson.gz").write_bytes(gzip.compress(text.encode(), mtime=0))
    # The same results as a MyDataHelps export (pretty-printed, one SRFetchResult per element).
    mdh = {"device": {"name": "iPhone", "model": "iPhone", "systemName": "iOS", "systemVersion": "17.5"},
           "samples": []}
    for k, r in enumerate(results):
        obj = json.loads(r)
        mdh["samples"].append({"timestamp": obj["timestamp"], "sample": obj["sample"]})
        if k == 8:
            mdh["samples"].append(mdh["samples"][7])
    (GOOD / "mydatahelps-accelerometer.json.gz").write_bytes(
        gzip.compress(json.dumps(mdh, indent=1).encode(), mtime=0))
    stream = {"samplesRead": 3100, "samplesEmitted": 3000, "duplicatesDropped": 100, "rejected": 0,
              "masked": 0, "segments": 2, "gaps": 1, "backwardSteps": 0,
              "firstTime": samples[0][0], "lastTime": samples[-1][0],
              "firstValues": [samples[0][1], samples[1][1], samples[2][1]]}
    return ({"file": "accelerometer.ndjson.gz",
             "streams": {"iphone-1/accelerometer/acceleration": dict(stream, deletedSpans=1, deletedSeconds=3600.0)},
             "unknownFields": 0, "unknownLineTypes": 0, "blankLines": 0, "deletions": 1},
            {"file": "mydatahelps-accelerometer.json.gz",
             "streams": {"sensorkit/accelerometer/acceleration": dict(stream, deletedSpans=0, deletedSeconds=0.0)},
             "unknownFields": 0, "unknownLineTypes": 0, "blankLines": 0, "deletions": 0})


def make_rotation():
    rng = random.Random(5)
    lines = [header("rotationRate", "iphone-1")]    # no device line: the decoder announces a bare one
    t = T0
    samples = []
    for i in range(500):
        t += 0.02 + rng.uniform(-0.002, 0.002)
        samples.append({"startDate": round(t, 6), "timestamp": 500.0 + i * 0.02,
                        "rotationRate": {"x": round(rng.gauss(0, 0.02), 5), "y": round(rng.gauss(0, 0.02), 5),
                                         "z": round(rng.gauss(0, 0.02), 5)}})
    for k in range(10):
        lines.append(result("rotationRate", "iphone-1", samples[k * 50 + 49]["startDate"], samples[k * 50:(k + 1) * 50]))
    # Two samples repeated inside a later result: exact duplicates by (deviceId, startDate).
    extra = [samples[460], samples[461]]
    lines.append(result("rotationRate", "iphone-1", samples[461]["startDate"] + 1, extra))
    (GOOD / "rotation.ndjson").write_text("\r\n".join(lines) + "\r\n")   # CRLF line ends
    return {"file": "rotation.ndjson",
            "streams": {"iphone-1/rotationRate/rotationRate": {
                "samplesRead": 502, "samplesEmitted": 500, "duplicatesDropped": 2, "rejected": 0,
                "masked": 0, "segments": 1, "gaps": 0, "backwardSteps": 0, "deletedSpans": 0,
                "deletedSeconds": 0.0, "firstTime": samples[0]["startDate"],
                "lastTime": samples[-1]["startDate"],
                "firstValues": [samples[0]["rotationRate"]["x"], samples[1]["rotationRate"]["x"],
                                samples[2]["rotationRate"]["x"]]}},
            "unknownFields": 0, "unknownLineTypes": 0, "blankLines": 0, "deletions": 0}


def make_ppg():
    rng = random.Random(3)
    lines = [header("photoplethysmogram", "watch-1"),
             device_line("watch-1", "Apple Watch", "Watch", "watchOS", "10.4", "Watch6,1")]
    fs = 64.0
    per = 32
    channels = [(9, [0, 1], 1, 525.0, 527.3), (10, [2, 3], 3, 940.0, 938.1)]
    green_null = green_sat = green_noise = 0
    temps_null = 0
    results = []
    for k in range(20):
        start = T0 + 100.0 + k * per / fs
        optical = []
        for (emitter, pds, sig, nominal, effective) in channels:
            for j in range(per):
                t = k * per / fs + j / fs
                refl = round(0.0123 + 0.001 * math.sin(2 * math.pi * 1.2 * t) + rng.gauss(0, 1e-5), 7)
                conditions = []
                noise = {"whiteNoise": 1.1e-6, "pinkNoise": 2.0e-7, "backgroundNoise": 3.0e-4,
                         "backgroundNoiseOffset": 1.0e-4}
                if emitter == 9:
                    if (k * per + j) % 97 == 5:
                        refl = None
                        green_null += 1
                    elif (k * per + j) % 89 == 7:
                        conditions = ["signalSaturation"]
                        green_sat += 1
                    elif (k * per + j) % 61 == 3:
                        conditions = ["unreliableNoise"]
                        green_noise += 1
                if emitter == 10 and j == 4:
                    noise = None
                optical.append({"emitter": emitter, "activePhotodiodeIndexes": pds, "signalIdentifier": sig,
                                "nominalWavelength": nominal, "effectiveWavelength": effective,
                                "samplingFrequency": fs, "nanosecondsSinceStart": j * 15_625_000,
                                "normalizedReflectance": refl, "noiseTerms": noise, "conditions": conditions})
        accel = [{"nanosecondsSinceStart": j * 15_625_000, "samplingFrequency": fs,
                  "x": round(rng.gauss(0.01, 0.01), 5), "y": round(rng.gauss(-0.99, 0.01), 5),
                  "z": round(rng.gauss(0.03, 0.01), 5)} for j in range(per)]
        temperature = None if k == 7 else round(31.2 + 0.01 * k, 2)
        if temperature is None:
            temps_null += 1
        sample = {"startDate": start, "nanosecondsSinceStart": 0, "usage": ["backgroundSystem"],
                  "temperature": temperature, "opticalSamples": optical, "accelerometerSamples": accel}
        results.append(result("photoplethysmogram", "watch-1", start + 1.0, [sample]))
    lines += results
    (GOOD / "ppg.ndjson").write_text("\n".join(lines) + "\n")
    n = 20 * per
    common = {"duplicatesDropped": 0, "rejected": 0, "segments": 1, "gaps": 0, "backwardSteps": 0,
              "deletedSpans": 0, "deletedSeconds": 0.0, "firstTime": T0 + 100.0,
              "lastTime": T0 + 100.0 + (n - 1) / fs}
    return {"file": "ppg.ndjson",
            "streams": {
                "watch-1/photoplethysmogram/optical/e9/pd0,1/s1": dict(common, samplesRead=n, samplesEmitted=n,
                    masked=green_null + green_sat, missing=green_null, saturated=green_sat,
                    unreliableNoise=green_noise, nominalSampleRate=fs,
                    attributes={"emitter": "9", "activePhotodiodeIndexes": "0,1", "signalIdentifier": "1",
                                "nominalWavelength": "525.0", "effectiveWavelength": "527.3",
                                "usage": "backgroundSystem"}),
                "watch-1/photoplethysmogram/optical/e10/pd2,3/s3": dict(common, samplesRead=n, samplesEmitted=n,
                    masked=0, missing=0, nanNoiseSamples=20, nominalSampleRate=fs,
                    attributes={"emitter": "10", "activePhotodiodeIndexes": "2,3", "signalIdentifier": "3",
                                "nominalWavelength": "940.0", "effectiveWavelength": "938.1",
                                "usage": "backgroundSystem"}),
                "watch-1/photoplethysmogram/accelerometer": dict(common, samplesRead=n, samplesEmitted=n, masked=0,
                                                                 nominalSampleRate=fs),
                "watch-1/photoplethysmogram/temperature": dict(common, samplesRead=20, samplesEmitted=20,
                    masked=temps_null, missing=temps_null, segments=1, lastTime=T0 + 100.0 + 19 * per / fs),
            },
            "unknownFields": 0, "unknownLineTypes": 0, "blankLines": 0, "deletions": 0}


# ----------------------------------------------------------------------------------------------
def make_bad():
    """Malformed inputs. Each entry: file content and the exact expected outcome, written from
    the content (line and 1-based byte column of the offending token)."""
    BAD.mkdir(parents=True, exist_ok=True)
    for f in BAD.iterdir():
        f.unlink()
    expected = {}
    H = header("accelerometer", "iphone-1")
    HE = header("electrocardiogram", "watch-1")
    good_acc = result("accelerometer", "iphone-1", T0 + 1, [
        {"startDate": T0 + 0.02 * i, "identifier": 7, "acceleration": {"x": 0.01, "y": -0.98, "z": 0.05}}
        for i in range(1, 4)])

    def acc_line(sample):
        return result("accelerometer", "iphone-1", T0 + 2, [sample])

    def ecg_line(extra):
        s = {"date": T0 + 10, "frequency": 512.0, "lead": "rightArmMinusLeftArm",
             "session": {"identifier": "S1", "state": "active", "sessionGuidance": "guided"},
             "data": [{"value": -48.673, "flags": 0}, {"value": -59.681, "flags": 0}]}
        s.update(extra)
        return result("electrocardiogram", "watch-1", T0 + 11, [s])

    def fatal(name, content, description, binary=False):
        path = BAD / name
        path.write_bytes(content if binary else content.encode("utf-8", "surrogateescape"))
        expected[name] = {"fatal": description}

    def recoverable(name, lines, bad_line, code, message, column, rejected=0, stream=None, emitted=3,
                    token=None):
        """`lines` include the header; `bad_line` is 1-based; column is computed from `token`."""
        content = "\n".join(lines) + "\n"
        (BAD / name).write_bytes(content.encode("utf-8", "surrogateescape"))
        if token is not None:
            column = lines[bad_line - 1].encode("utf-8", "surrogateescape").index(token) + 1
        expected[name] = {"issues": [f"{name}:{bad_line}:{column}: {code}: {message}"],
                          "rejectedRecords": 1, "samplesEmitted": emitted,
                          "rejected": rejected, "stream": stream or "iphone-1/accelerometer/acceleration"}

    fatal("empty.ndjson", "", "empty.ndjson: empty: the file is empty")
    fatal("blank-only.ndjson", "\n\n  \n", "blank-only.ndjson: empty: the file is empty")
    hdr_msg = 'line 1 must be the header {"type":"header","schema":"sensorkit-ndjson","version":1,…}; '
    fatal("missing-header.ndjson", device_line("iphone-1", "iPhone", "iPhone", "iOS", "17.5", "iPhone15,2") + "\n" + good_acc + "\n",
          "missing-header.ndjson:1:1: unsupported-version: " + hdr_msg + 'found a "device" line')
    fatal("header-not-first.ndjson", good_acc + "\n" + H + "\n",
          "header-not-first.ndjson:1:1: unsupported-version: " + hdr_msg + 'found a "accelerometer" line')
    v2 = H.replace('"version":1', '"version":2')
    fatal("unknown-version.ndjson", v2 + "\n" + good_acc + "\n",
          f"unknown-version.ndjson:1:{v2.index('2,') + 1}: unsupported-version: unsupported schema version 2 (this decoder reads version 1)")
    fatal("wrong-schema.ndjson", H.replace("sensorkit-ndjson", "healthkit-ndjson") + "\n" + good_acc + "\n",
          'wrong-schema.ndjson:1:1: unsupported-version: unsupported schema "healthkit-ndjson" (this decoder reads "sensorkit-ndjson")')
    nv = H.replace('"version":1,', '')
    fatal("header-without-version.ndjson", nv + "\n" + good_acc + "\n",
          "header-without-version.ndjson:1:1: unsupported-version: the header has no 'version' (this decoder reads version 1)")
    hn = H.replace('"from":' + repr(T0 - REF2001 - 60), '"from":NaN')
    fatal("header-nan.ndjson", hn + "\n" + good_acc + "\n",
          f"header-nan.ndjson:1:{hn.index('NaN') + 1}: non-finite: 'from' is NaN, which is not a JSON number (RFC 8259 §6); expected a finite number")
    # A gzip stream cut in the middle (all compressed bytes are consumed before the end is noticed).
    body = "\n".join([H] + [good_acc] * 400) + "\n"
    z = gzip.compress(body.encode(), mtime=0)
    cut = z[: len(z) // 2]
    fatal("truncated.ndjson.gz", cut,
          f"truncated.ndjson.gz: byte {len(cut)}: truncated: gzip stream ends before its end marker (file truncated?)",
          binary=True)
    mdh = '{"device":{"name":"iPhone"},"samples":[{"timestamp":1.0,"sample":[{"startDate":1716307300.02,' \
          '"identifier":1,"acceleration":{"x":0.1,"y":0.2,"z":0.3}}]},\n{"timestamp":2.0,"sample":[{"startDate":17'
    fatal("mydatahelps-truncated.json", mdh,
          f"mydatahelps-truncated.json:2:{len(mdh.split(chr(10))[1]) + 1}: truncated: "
          "the file ends inside a value that started at line 2, column 1")

    # Recoverable: one bad line among good ones.
    t = acc_line({"startDate": T0 + 1, "identifier": 9, "acceleration": {"x": 0.5, "y": 0.1, "z": 0.2}})
    trunc = t[: t.index('"y":0.1') + 7]
    recoverable("truncated-line.ndjson", [H, good_acc, trunc], 3, "truncated",
                "the line ends before the JSON value is complete (expected ',' or '}')",
                len(trunc.encode()) + 1)
    wt = t.replace('"x":0.5', '"x":"0.5"')
    recoverable("wrong-type.ndjson", [H, good_acc, wt], 3, "wrong-type",
                "expected a number for 'x', found a string", 0, token=b'"0.5"')
    recoverable("nan.ndjson", [HE, ecg_line({}).replace("-59.681", "NaN"), ecg_line({"date": T0 + 20})], 2,
                "non-finite", "'value' is NaN, which is not a JSON number (RFC 8259 §6); expected a finite number",
                0, token=b"NaN", rejected=1, stream="watch-1/electrocardiogram/ecg/session=S1", emitted=2)
    inf = t.replace(f'"startDate":{T0 + 1!r}', '"startDate":-Infinity')
    recoverable("infinity.ndjson", [H, good_acc, inf], 3, "non-finite",
                "'startDate' is -Infinity, which is not a JSON number (RFC 8259 §6); expected a finite number",
                0, token=b"-Infinity")
    huge = ecg_line({}).replace("-59.681", "1e400")
    recoverable("huge-number.ndjson", [HE, huge, ecg_line({"date": T0 + 20})], 2, "out-of-range",
                "'value' = 1e400 is too large for a double", 0, token=b"1e400", rejected=1,
                stream="watch-1/electrocardiogram/ecg/session=S1", emitted=2)
    neg = ecg_line({"frequency": -512.0})
    recoverable("negative-frequency.ndjson", [HE, ecg_line({"date": T0 + 20}), neg], 3, "out-of-range",
                "'frequency' must be a positive rate in Hz, found -512.0", 0, token=b"-512.0",
                stream="watch-1/electrocardiogram/ecg/session=S1", emitted=2)
    zero = ecg_line({"frequency": 0})
    recoverable("zero-frequency.ndjson", [HE, ecg_line({"date": T0 + 20}), zero], 3, "out-of-range",
                "'frequency' must be a positive rate in Hz, found 0.0", zero.index('"frequency":0') + 13,
                stream="watch-1/electrocardiogram/ecg/session=S1", emitted=2)
    bad8 = t.replace('"deviceId":"iphone-1"', '"deviceId":"iphone-\udcc3("')
    recoverable("invalid-utf8.ndjson", [H, good_acc, bad8], 3, "invalid-utf8", "invalid UTF-8 sequence in a string",
                0, token=b"\xc3\x28")
    be = ecg_line({"lead": "leftLeg"})
    recoverable("bad-enum.ndjson", [HE, ecg_line({"date": T0 + 20}), be], 3, "out-of-range",
                "unknown value \"leftLeg\" for 'lead' (expected rightArmMinusLeftArm (1) or leftArmMinusRightArm (2))",
                0, token=b'"leftLeg"', stream="watch-1/electrocardiogram/ecg/session=S1", emitted=2)
    bi = ecg_line({"session": {"identifier": "S1", "state": 7}})
    recoverable("bad-enum-integer.ndjson", [HE, ecg_line({"date": T0 + 20}), bi], 3, "out-of-range",
                "unknown value 7 for 'state' (expected begin (1), active (2) or end (3))",
                0, token=b"7}", stream="watch-1/electrocardiogram/ecg/session=S1", emitted=2)
    ms = acc_line({"identifier": 9, "acceleration": {"x": 0.5, "y": 0.1, "z": 0.2}})
    recoverable("missing-field.ndjson", [H, good_acc, ms], 3, "missing-field",
                "missing required field 'startDate' in an accelerometer sample", 0, token=b'{"identifier"')
    ni = t.replace('"identifier":9', '"identifier":5123.5')
    recoverable("non-integer-identifier.ndjson", [H, good_acc, ni], 3, "wrong-type",
                "expected an integer for 'identifier', found a number with a fraction or exponent", 0,
                token=b"5123.5")
    ov = t.replace('"identifier":9', '"identifier":18446744073709551616')
    recoverable("identifier-overflow.ndjson", [H, good_acc, ov], 3, "out-of-range",
                "'identifier' = 18446744073709551616 does not fit in 64 bits", 0, token=b"18446744073709551616")
    ng = t.replace('"identifier":9', '"identifier":-5')
    recoverable("negative-identifier.ndjson", [H, good_acc, ng], 3, "out-of-range",
                "'identifier' must not be negative", 0, token=b"-5")
    tg = t + "}"
    # The line's one sample was parsed before the garbage was found: counted as rejected.
    recoverable("trailing-garbage.ndjson", [H, good_acc, tg], 3, "syntax",
                "unexpected '}' after the end of the JSON object", len(tg), rejected=1)
    lz = t.replace('"x":0.5', '"x":00.5')
    recoverable("leading-zero.ndjson", [H, good_acc, lz], 3, "syntax",
                "'x': a JSON number must not have leading zeros", 0, token=b"00.5")
    cc = t.replace('"deviceId":"iphone-1"', '"deviceId":"iphone\t1"')
    recoverable("control-character.ndjson", [H, good_acc, cc], 3, "syntax",
                "control character U+0009 must be escaped in a string", 0, token=b"\t")
    nt = t.replace('"type":"accelerometer",', '')
    recoverable("missing-type.ndjson", [H, good_acc, nt], 3, "missing-field",
                "missing required field 'type'; line skipped", 1)
    # An ECG batch whose second value is broken: the first value was read and is counted rejected.
    ws = ecg_line({}).replace('"flags":0},{"value":-59.681', '"flags":0},{"value":true')
    recoverable("ecg-wrong-type.ndjson", [HE, ws, ecg_line({"date": T0 + 20})], 2, "wrong-type",
                "expected a number for 'value', found a boolean", 0, token=b"true", rejected=1,
                stream="watch-1/electrocardiogram/ecg/session=S1", emitted=2)
    dl = deletion("iphone-1", "accelerometer", T0 + 100, T0 + 50)
    recoverable("deletion-backwards.ndjson", [H, good_acc, dl], 3, "time-order",
                f"deletion record ends ({T0 + 50!r}) before it starts ({T0 + 100!r})", 0, token=b'{"startTime"')
    (BAD / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    return len(expected)


def main():
    GOOD.mkdir(parents=True, exist_ok=True)
    acc, mdh = make_accelerometer()
    files = [make_ecg(), acc, mdh, make_rotation(), make_ppg()]
    (GOOD / "expected.json").write_text(json.dumps({f["file"]: f for f in files}, indent=1, sort_keys=True) + "\n")
    n = make_bad()
    print(f"wrote {len(files)} sample files and {n} bad-input files")


if __name__ == "__main__":
    main()
