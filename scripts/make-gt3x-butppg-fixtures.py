#!/usr/bin/env python3
"""Write the fixtures of the BUT PPG and ActiGraph GT3X decoder tests.

Usage: python3 scripts/make-gt3x-butppg-fixtures.py
       (the GT3X example's expected values need the PyPI package pygt3x; without it that file is
       skipped with a message: e.g. `python3 -m venv /tmp/v && /tmp/v/bin/pip install pygt3x`, then
       run the script with /tmp/v/bin/python)

Independent references only (never the Swift code under test):
- BUT PPG (CC BY 4.0): values parsed with Python float() and rounded to float32; per-record
  counts, first/last values and times, CRC-32 of the float32 values and float64 times, the
  segments the reader rules give (dt <= 0 or dt > 2/30 s starts a new one). A 3-row excerpt of
  ../shared/datasets/butppg-subset/myData.csv is committed.
- GT3X: example.gt3x (bhelsel/agcounts, MIT) decoded by ActiGraph's pygt3x 0.7.1; synthetic
  .gt3x files written here (ZIP containers by Python's zipfile or by the small writer below for
  ZIP64 and stale CRCs), whose expected values follow from the raw integers written, scaled as
  ActiGraph's GT3X-File-Format documents (counts / scale, float32). Python's zipfile reads every
  container back.
- Bad-input corpora (Fixtures/bad/butppg, Fixtures/bad/gt3x) with expected.json: messages
  composed from what each file was made to contain (offsets counted here).
"""
import json
import pathlib
import shutil
import struct
import zipfile
import zlib

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIX = ROOT / "Tests" / "RecordingsTests" / "Fixtures"
DATA = ROOT.parent / "shared" / "datasets"
BUT = DATA / "butppg-subset" / "myData.csv"
GT3X = DATA / "actigraph-counts-example" / "example.gt3x"


def crc32_f32(values) -> int:
    return zlib.crc32(np.asarray(values, dtype="<f4").tobytes())


def crc32_f64(values) -> int:
    return zlib.crc32(np.asarray(values, dtype="<f8").tobytes())


def write_json(path: pathlib.Path, obj) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"wrote {path.relative_to(ROOT)}")


def write_bytes(path: pathlib.Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    print(f"wrote {path.relative_to(ROOT)} ({len(data)} bytes)")


# ----------------------------------------------------------------------------------------------
# BUT PPG
def but_records(text: str):
    """(line number, fields) per data row; Signal/Time split on spaces inside their quotes."""
    out = []
    for n, line in enumerate(text.split("\n")[1:], start=2):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        head, sig, _, tim, _ = line.split('"')
        ident, ref, loc, mot, qual = head.split()
        out.append((n, dict(id=ident, RefHR=ref, Location=loc, Motion=mot, Quality=qual,
                            signal=sig.split(), time=tim.split())))
    return out


def segments(times) -> int:
    t = np.asarray(times, dtype=np.float64)
    d = np.diff(t)
    return 1 + int(np.sum((d <= 0) | (d > 2 / 30)))


def but_expected(text: str) -> dict:
    recs = []
    for _, r in but_records(text):
        v = np.array([float(x) for x in r["signal"]], dtype=np.float64).astype(np.float32)
        t = np.array([float(x) for x in r["time"]], dtype=np.float64)
        recs.append({"id": r["id"], "RefHR": r["RefHR"], "Location": r["Location"], "Motion": r["Motion"],
                     "Quality": r["Quality"], "count": len(v), "segments": segments(t),
                     "firstValue": float(v[0]), "lastValue": float(v[-1]),
                     "firstTime": float(t[0]), "lastTime": float(t[-1]),
                     "valuesCRC32": crc32_f32(v), "timesCRC32": crc32_f64(t)})
    return {"records": recs}


def butppg() -> None:
    if not BUT.exists():
        print(f"skip BUT PPG: {BUT} absent")
        return
    raw = BUT.read_bytes()
    text = raw.decode("ascii")
    write_json(FIX / "butppg" / "myData-expected.json", but_expected(text))
    lines = raw.split(b"\r\n")
    ids = [l.split(b" ", 1)[0] for l in lines]
    keep = [0] + [ids.index(i) for i in (b"100001", b"100004", b"112096")]
    excerpt = b"".join(lines[i] + b"\r\n" for i in keep)
    write_bytes(FIX / "butppg" / "myData-excerpt.csv", excerpt)
    write_json(FIX / "butppg" / "myData-excerpt-expected.json", but_expected(excerpt.decode("ascii")))
    bad_butppg(text)


def bad_butppg(text: str) -> None:
    out = FIX / "bad" / "butppg"
    header = "ID RefHR Location Motion Quality Signal Time\n"
    row1 = [r for _, r in but_records(text) if r["id"] == "100001"][0]
    sig300, tim300 = row1["signal"], row1["time"]
    expected = {"_about": "{file} is the path given to BUTPPGDecoder; 'rejectedRows' is the decoder's "
                          "count of rows skipped before their stream was announced."}

    def row(ident, sig, tim, ref="80", loc="1", mot="0", qual="1"):
        return f'{ident} {ref} {loc} {mot} {qual} "{" ".join(sig)}" "{" ".join(tim)}"\n'

    def col_of_token(line: str, field: int, k: int) -> int:
        """1-based column of token k of quoted field `field` (0 = Signal, 1 = Time) in `line`."""
        q = [i for i, c in enumerate(line) if c == '"']
        start = q[2 * field] + 1
        pos = start
        for _ in range(k):
            pos = line.index(" ", pos) + 1
        return pos + 1

    good_sig = ["1.5", "1.25", "1", "0.75", "0.5"]
    good_tim = ["0", "0.0333", "0.0667", "0.1", "0.1333"]
    good = row("200002", good_sig, good_tim)

    # 299 values against 300 times (the last value removed), then a good row.
    bad = row("100001", sig300[:-1], tim300, ref=row1["RefHR"])
    (out / "count-mismatch.csv").parent.mkdir(parents=True, exist_ok=True)
    (out / "count-mismatch.csv").write_text(header + bad + good)
    expected["count-mismatch.csv"] = {
        "issues": [f"{{file}}:2:{bad.index(chr(34)) + 2}: inconsistent: record 100001: Signal has 299 values but "
                   "Time has 300; the record's 300 samples are rejected"],
        "qc": [{"samplesRead": 300, "samplesEmitted": 0, "rejected": 300, "segments": 0},
               {"samplesRead": 5, "samplesEmitted": 5, "rejected": 0, "segments": 1}],
        "rejectedRows": 0}

    # The Signal quote is never closed on its line.
    line = '200001 80 1 0 1 "1.5 1.25 1 0.75 0.5 0 0.0333 0.0667 0.1 0.1333\n'
    (out / "unterminated-quote.csv").write_text(header + line + good)
    expected["unterminated-quote.csv"] = {
        "issues": [f"{{file}}:2:{line.index(chr(34)) + 1}: syntax: a double quote opens a field that is not "
                   "closed on this line; row skipped"],
        "qc": [{"samplesRead": 5, "samplesEmitted": 5, "rejected": 0, "segments": 1}],
        "rejectedRows": 1}

    # A non-numeric value (4th of 5).
    sig = list(good_sig)
    sig[3] = "0.7x5"
    line = row("200001", sig, good_tim)
    (out / "non-numeric-value.csv").write_text(header + line)
    expected["non-numeric-value.csv"] = {
        "issues": [f"{{file}}:2:{col_of_token(line, 0, 3)}: wrong-type: record 200001: Signal value 4 '0.7x5' "
                   "is not a number; sample rejected"],
        "qc": [{"samplesRead": 5, "samplesEmitted": 4, "rejected": 1, "segments": 2, "gaps": 1}],
        "rejectedRows": 0}

    # A non-numeric time (2nd of 5).
    tim = list(good_tim)
    tim[1] = "O.0333"
    line = row("200001", good_sig, tim)
    (out / "non-numeric-time.csv").write_text(header + line)
    expected["non-numeric-time.csv"] = {
        "issues": [f"{{file}}:2:{col_of_token(line, 1, 1)}: wrong-type: record 200001: Time value 2 'O.0333' "
                   "is not a number (seconds); sample rejected"],
        "qc": [{"samplesRead": 5, "samplesEmitted": 4, "rejected": 1, "segments": 2, "gaps": 1}],
        "rejectedRows": 0}

    # Time going backwards (4th time before the 3rd).
    tim = ["0", "0.0333", "0.0667", "0.05", "0.0833"]
    line = row("200001", good_sig, tim)
    (out / "time-backwards.csv").write_text(header + line)
    expected["time-backwards.csv"] = {
        "issues": [f"{{file}}:2:{col_of_token(line, 1, 3)}: time-order: record 200001: Time value 4 (0.05 s) is "
                   "not after the previous one (0.0667 s); a new segment starts"],
        "qc": [{"samplesRead": 5, "samplesEmitted": 5, "rejected": 0, "segments": 2, "backwardSteps": 1}],
        "rejectedRows": 0}

    # A record ID repeated.
    (out / "duplicate-id.csv").write_text(header + good + good)
    expected["duplicate-id.csv"] = {
        "issues": ["{file}:3:1: inconsistent: record ID 200002 already appeared on line 2; row skipped"],
        "qc": [{"samplesRead": 5, "samplesEmitted": 5, "rejected": 0, "segments": 1}],
        "rejectedRows": 1}

    # A row with a missing field (no Quality).
    line = f'200001 80 1 0 "{" ".join(good_sig)}" "{" ".join(good_tim)}"\n'
    (out / "wrong-field-count.csv").write_text(header + line + good)
    expected["wrong-field-count.csv"] = {
        "issues": ["{file}:2:1: syntax: the row has 6 fields, the header 7; row skipped"],
        "qc": [{"samplesRead": 5, "samplesEmitted": 5, "rejected": 0, "segments": 1}],
        "rejectedRows": 1}

    # Fatal: header without Time; empty file.
    (out / "missing-column.csv").write_text("ID RefHR Location Motion Quality Signal\n" + good)
    expected["missing-column.csv"] = {
        "error": "{file}:1:1: missing-field: the header row lacks column(s) Time "
                 "(expected 'ID RefHR Location Motion Quality Signal Time')"}
    (out / "empty.csv").write_text("")
    expected["empty.csv"] = {"error": "{file}: empty: the file is empty"}
    write_json(out / "expected.json", expected)


# ----------------------------------------------------------------------------------------------
# GT3X
def record(rtype: int, ts: int, payload: bytes, bad_checksum: bool = False) -> bytes:
    """A log.bin record: 0x1E, type, UInt32 LE timestamp, UInt16 LE size, payload, checksum
    (one's complement of the XOR of header and payload; GT3X-File-Format README)."""
    head = bytes([0x1E, rtype]) + struct.pack("<IH", ts, len(payload))
    x = 0
    for b in head + payload:
        x ^= b
    chk = ~x & 0xFF
    if bad_checksum:
        chk ^= 0x5A
    return head + payload + bytes([chk])


def checksum_of(rec: bytes) -> tuple[int, int]:
    x = 0
    for b in rec[:-1]:
        x ^= b
    return rec[-1], ~x & 0xFF


def pack12(values) -> bytes:
    """12-bit two's complement values, most significant nibble first (Activity.md)."""
    bits = "".join(format(v & 0xFFF, "012b") for v in values)
    bits += "0" * (-len(bits) % 8)
    return bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))


def ssp_encode(f: float) -> int:
    """ActiGraph's parameter float (Parameters.md, SspCodec.Encode)."""
    s, e = abs(f), 0
    while s >= 1.0:
        s /= 2.0
        e += 1
    while s < 0.5:
        s *= 2.0
        e -= 1
    code = int(s * 8388608.0)
    if f < 0:
        code = (-code) & 0xFFFFFFFF
    return (code & 0x00FFFFFF) | ((e << 24) & 0xFF000000)


def info_txt(serial: str, rate: int, scale: str | None, tz: str | None, extra: str = "") -> bytes:
    lines = [f"Serial Number: {serial}", "Device Type: Synthetic", "Firmware: 0.0.0", f"Sample Rate: {rate}",
             "Start Date: 638318880000000000"]
    if tz is not None:
        lines.append(f"TimeZone: {tz}")
    if scale is not None:
        lines.append(f"Acceleration Scale: {scale}")
    lines.append("Subject Name: synthetic")
    return ("\r\n".join(lines) + "\r\n" + extra).encode()


def zip_write(path: pathlib.Path, entries, method=zipfile.ZIP_STORED) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", compression=method) as z:
        for name, data in entries:
            z.writestr(zipfile.ZipInfo(name, date_time=(2023, 6, 13, 8, 39, 0)), data, compress_type=method)
    print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size} bytes)")


def zip_manual(entries, zip64: bool = False, crc_override: dict | None = None) -> bytes:
    """A stored-only ZIP (APPNOTE 6.3.10), optionally in ZIP64 form with every size and offset in
    the ZIP64 extra fields and end records, and optionally a stale CRC-32 for some entries."""
    crc_override = crc_override or {}
    out, central = b"", b""
    for name, data in entries:
        n = name.encode()
        crc = crc_override.get(name, zlib.crc32(data))
        offset = len(out)
        if zip64:
            extra = struct.pack("<HHQQ", 1, 16, len(data), len(data))
            out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, 0, 0, 0, crc, 0xFFFFFFFF, 0xFFFFFFFF,
                               len(n), len(extra)) + n + extra + data
            cextra = struct.pack("<HHQQQ", 1, 24, len(data), len(data), offset)
            central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, 0, 0, 0, crc, 0xFFFFFFFF,
                                   0xFFFFFFFF, len(n), len(cextra), 0, 0, 0, 0, 0xFFFFFFFF) + n + cextra
        else:
            out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0, crc, len(data), len(data),
                               len(n), 0) + n + data
            central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 0, 0, 0, crc, len(data),
                                   len(data), len(n), 0, 0, 0, 0, 0, offset) + n
    cd_offset = len(out)
    out += central
    if zip64:
        eocd64 = len(out)
        out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, len(entries), len(entries),
                           len(central), cd_offset)
        out += struct.pack("<IIQI", 0x07064B50, 0, eocd64, 1)
        out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    else:
        out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(central),
                           cd_offset, 0)
    return out


def check_readable(path: pathlib.Path, names) -> None:
    with zipfile.ZipFile(path) as z:
        assert [i.filename for i in z.infolist()] == list(names), path
        for i in z.infolist():
            z.read(i.filename)   # checks the CRC-32


def act2(values) -> bytes:
    return b"".join(struct.pack("<hhh", *v) for v in values)


def expected_samples(samples, scale, times):
    a = np.array(samples, dtype=np.float64)
    g = (a.astype(np.float32) / np.float32(scale)).astype(np.float32)
    return {"x": [float(v) for v in g[:, 0]], "y": [float(v) for v in g[:, 1]],
            "z": [float(v) for v in g[:, 2]], "times": [float(t) for t in times]}


def gt3x() -> None:
    out = FIX / "gt3x"
    out.mkdir(parents=True, exist_ok=True)
    if GT3X.exists():
        shutil.copyfile(GT3X, out / "example.gt3x")
        print(f"wrote {(out / 'example.gt3x').relative_to(ROOT)}")
        with zipfile.ZipFile(GT3X) as z:
            entries = [(i.filename, z.read(i.filename)) for i in z.infolist()]
        zip_write(out / "example-deflated.gt3x", entries, zipfile.ZIP_DEFLATED)
        check_readable(out / "example-deflated.gt3x", [e[0] for e in entries])
        try:
            import pygt3x
            from pygt3x.reader import FileReader
        except ImportError:
            print("skip example-expected.json: pygt3x is not installed")
        else:
            with FileReader(str(GT3X)) as r:
                df = r.to_pandas()
                offset = r.info.timezone
            t = df.index.values.astype(np.float64)
            h, m, s = (int(p) for p in offset.lstrip("+-").split(":"))
            east = (-1 if offset.startswith("-") else 1) * (h * 3600 + m * 60 + s)   # seconds east of UTC
            t_utc = t - np.float64(east)
            xyz = df[["X", "Y", "Z"]].values.astype(np.float32)
            write_json(out / "example-expected.json", {
                "reference": f"pygt3x {pygt3x.__version__ if hasattr(pygt3x, '__version__') else '0.7.1'} "
                             "FileReader.to_pandas(): X, Y, Z float32 in g, Timestamp float64 device-local; "
                             "timesUTC = Timestamp - utcOffsetSeconds",
                "count": int(len(df)), "utcOffsetSeconds": east, "serialNumber": r.info.serial_number,
                "sampleRate": int(r.info.sample_rate), "accelerationScale": float(r.info.acceleration_scale),
                "idleSleepMode": int(df.IdleSleepMode.sum()),
                "xCRC32": crc32_f32(xyz[:, 0]), "yCRC32": crc32_f32(xyz[:, 1]), "zCRC32": crc32_f32(xyz[:, 2]),
                "timesLocalCRC32": crc32_f64(t), "timesUTCCRC32": crc32_f64(t_utc),
                "first": [float(v) for v in xyz[0]], "last": [float(v) for v in xyz[-1]],
                "firstTimeLocal": float(t[0]), "lastTimeLocal": float(t[-1])})
    else:
        print(f"skip example.gt3x: {GT3X} absent")

    # Synthetic 1: ACTIVITY (the documentation's example bytes), duplicates, zero padding, idle
    # sleep mode, ACTIVITY3, a USB-connection ACTIVITY record, ACTIVITY2; NEO serial (default
    # scale 341), TimeZone +01:00:00, 3 Hz.
    T = 1_600_000_000
    doc = bytes.fromhex("00 60 08 EB D0 07 00 9E BF 00 70 08 EB F0")      # Activity.md example
    doc_xyz = [(8, 6, -323), (9, 7, -321), (8, 7, -321)]                   # its table: Y, X, Z columns
    a3 = [(1, -2, 341), (2047, -2048, 0), (-1, 100, -341)]
    a2 = [(341, -682, 1023), (-32768, 32767, 0), (5, -5, 17)]
    log = (record(0x06, T - 60, b'{"MetadataType":"Bio"}')
           + record(0x00, T, doc) + record(0x00, T + 1, doc) + record(0x00, T + 1, doc)
           + b"\0\0\0"
           + record(0x03, T + 2, b"\x08") + record(0x03, T + 10, b"\x09")
           + record(0x1B, T + 10, pack12([v for s in a3 for v in s]))
           + record(0x00, T + 11, b"\x01")
           + record(0x1A, T + 11, act2(a2)))
    zip_write(out / "synthetic-activity.gt3x",
              [("info.txt", info_txt("NEO1X0000001", 3, None, "+01:00:00")), ("log.bin", log)],
              zipfile.ZIP_DEFLATED)
    samples = doc_xyz + doc_xyz + a3 + a2
    starts = [T, T + 1, T + 10, T + 11]
    times = [(np.float64(s) + np.float64(i) / np.float64(3)) - np.float64(3600) for s in starts for i in range(3)]
    synth = {"synthetic-activity.gt3x": {
        "about": "ACTIVITY records with the Activity.md example bytes (x, y, z = (8,6,-323), (9,7,-321), "
                 "(8,7,-321) counts), an exact duplicate, 3 zero bytes, idle sleep mode T+2..T+10, "
                 "ACTIVITY3 and ACTIVITY2 records, a 1-byte ACTIVITY record (USB); scale 341 (NEO default); "
                 "times (T + i/3) - 3600",
        "scale": 341, "samplesRead": 15, "duplicatesDropped": 3, "segments": [0] * 6 + [1] * 6, "gaps": 1,
        "idleSleepModeEntries": 1, "utcOffsetSeconds": 3600, **expected_samples(samples, 341, times)}}

    # Synthetic 2: ZIP64 container; a PARAMETERS record with ACCEL_SCALE 341 while info.txt says
    # 256; no TimeZone (device-local times); 2 Hz.
    params = (struct.pack("<HHI", 0, 6, 2) + struct.pack("<HHI", 0, 55, ssp_encode(341.0))
              + struct.pack("<HHI", 1, 10, 2))
    b2 = [(341, 0, -341), (682, 1, 2)]
    b3 = [(-1, -2, -3), (100, 200, 300)]
    log2 = record(0x15, T, params) + record(0x1A, T, act2(b2)) + record(0x1A, T + 1, act2(b3))
    data = zip_manual([("info.txt", info_txt("TAS1X0000002", 2, "256.0", None)), ("log.bin", log2)], zip64=True)
    write_bytes(out / "synthetic-zip64.gt3x", data)
    check_readable(out / "synthetic-zip64.gt3x", ["info.txt", "log.bin"])
    times = [np.float64(s) + np.float64(i) / np.float64(2) for s in (T, T + 1) for i in range(2)]
    synth["synthetic-zip64.gt3x"] = {
        "about": "ZIP64 container (sizes and offsets in ZIP64 extra fields and end records); PARAMETERS "
                 "ACCEL_SCALE 341 (encoded 0x%08X) overrides info.txt's 256; no TimeZone" % ssp_encode(341.0),
        "scale": 341, "samplesRead": 4, "duplicatesDropped": 0, "segments": [0] * 4, "gaps": 0,
        "idleSleepModeEntries": 0, "utcOffsetSeconds": None,
        "issues": ["{file}: missing-field: info.txt has no TimeZone line: times are the device's local clock "
                   "(seconds since 1970 as if UTC), not UTC",
                   "{file}: inconsistent: info.txt gives Acceleration Scale 256.0 but the PARAMETERS record in "
                   "log.bin gives ACCEL_SCALE 341.0; 341.0 is used (ActiGraph: the parameter takes precedence)"],
        **expected_samples(b2 + b3, 341, times)}
    write_json(out / "synthetic-expected.json", synth)
    bad_gt3x()


def bad_gt3x() -> None:
    out = FIX / "bad" / "gt3x"
    out.mkdir(parents=True, exist_ok=True)
    T = 1_700_000_000
    info = info_txt("MOS2X0000003", 4, "256.0", "+00:00:00")
    recs = [record(0x1A, T + k, act2([(k, 2 * k, 256)] * 4)) for k in range(3)]
    log = b"".join(recs)
    expected = {"_about": "{file} is the path given to GT3XDecoder. Base: info.txt (MOS2X0000003, 4 Hz, scale "
                          "256, TimeZone +00:00:00) and log.bin with 3 ACTIVITY2 records of 4 samples, 33 "
                          "bytes each, timestamps 1700000000..1700000002."}

    # A record whose checksum byte is wrong.
    bad = [recs[0], record(0x1A, T + 1, act2([(1, 2, 256)] * 4), bad_checksum=True), recs[2]]
    zip_write(out / "bad-checksum.gt3x", [("info.txt", info), ("log.bin", b"".join(bad))])
    stored, computed = checksum_of(bad[1])
    expected["bad-checksum.gt3x"] = {
        "issues": [f"{{file}}: byte 33: inconsistent: log.bin byte 33: ACTIVITY2 record (timestamp {T + 1}, 24 "
                   f"payload bytes) has checksum 0x{stored:02X} but its bytes give 0x{computed:02X}; its 4 samples "
                   "are rejected"],
        "qc": [{"samplesRead": 12, "samplesEmitted": 8, "rejected": 4, "duplicatesDropped": 0, "segments": 2,
                "gaps": 1}]}

    # A stray byte between records 1 and 2: the framing is lost (fatal, after record 1).
    zip_write(out / "bad-separator.gt3x", [("info.txt", info), ("log.bin", recs[0] + b"\x55" + recs[1])])
    expected["bad-separator.gt3x"] = {
        "error": "{file}: byte 33: syntax: log.bin byte 33: expected a record separator 0x1E, found 0x55 "
                 "(the record framing is lost)"}

    # log.bin ends 12 bytes into record 3's payload.
    zip_write(out / "truncated-record.gt3x", [("info.txt", info), ("log.bin", log[:66 + 20])])
    expected["truncated-record.gt3x"] = {
        "error": "{file}: byte 66: truncated: log.bin ends inside the record starting at log.bin byte 66 "
                 "(type 0x1A, 24 payload bytes declared, 12 present)"}

    # The ZIP file cut in half (no central directory).
    zip_write(out / "truncated.gt3x", [("info.txt", info), ("log.bin", log)])
    data = (out / "truncated.gt3x").read_bytes()
    cut = len(data) // 2
    write_bytes(out / "truncated.gt3x", data[:cut])
    expected["truncated.gt3x"] = {
        "error": f"{{file}}: byte {cut}: truncated: the ZIP archive has no end-of-central-directory record "
                 "(the file ends here; truncated?)"}

    # No log.bin.
    zip_write(out / "no-log-bin.gt3x", [("info.txt", info), ("epoch.bin", b"\0" * 16)])
    with zipfile.ZipFile(out / "no-log-bin.gt3x") as z:
        cd = z.start_dir
    expected["no-log-bin.gt3x"] = {
        "error": f"{{file}}: byte {cd}: missing-field: the ZIP archive has no log.bin entry (it holds info.txt, "
                 "epoch.bin); not a GT3X file"}

    # The older NHANES layout.
    zip_write(out / "nhanes.gt3x", [("info.txt", info), ("log.txt", b"x"), ("activity.bin", b"\0" * 9)])
    with zipfile.ZipFile(out / "nhanes.gt3x") as z:
        cd = z.start_dir
    expected["nhanes.gt3x"] = {
        "error": f"{{file}}: byte {cd}: unsupported: the archive holds activity.bin instead of log.bin: the older "
                 "NHANES GT3X format (NEO/MRA devices, firmware ≤ 2.5.0) is not decoded"}

    # info.txt without Sample Rate.
    no_rate = b"\r\n".join(l for l in info.split(b"\r\n") if not l.startswith(b"Sample Rate"))
    zip_write(out / "no-sample-rate.gt3x", [("info.txt", no_rate), ("log.bin", log)])
    expected["no-sample-rate.gt3x"] = {"error": "{file}: missing-field: info.txt has no 'Sample Rate' line"}

    # Deflated log.bin whose first compressed byte declares the reserved block type 3.
    zip_write(out / "corrupt-deflate.gt3x", [("info.txt", info), ("log.bin", log)], zipfile.ZIP_DEFLATED)
    data = bytearray((out / "corrupt-deflate.gt3x").read_bytes())
    with zipfile.ZipFile(out / "corrupt-deflate.gt3x") as z:
        li = z.getinfo("log.bin")
    name_len, extra_len = struct.unpack("<HH", data[li.header_offset + 26:li.header_offset + 30])
    start = li.header_offset + 30 + name_len + extra_len
    data[start] = 0x07                     # BFINAL = 1, BTYPE = 11 (reserved)
    try:
        zlib.decompressobj(-15).decompress(bytes(data[start:start + li.compress_size]))
        raise SystemExit("corrupt-deflate: zlib accepted the data")
    except zlib.error as e:
        assert "invalid block type" in str(e), e
    write_bytes(out / "corrupt-deflate.gt3x", bytes(data))
    # zlib has read the one byte holding the block header when it rejects it.
    expected["corrupt-deflate.gt3x"] = {
        "error": f"{{file}}: byte {start + 1}: syntax: corrupt deflate data in ZIP entry 'log.bin' "
                 "(detected at this byte): invalid block type"}

    # A payload byte changed with the record checksum recomputed: only the ZIP CRC-32 tells.
    changed = [recs[0], record(0x1A, T + 1, act2([(1, 2, 255)] + [(1, 2, 256)] * 3)), recs[2]]
    data = zip_manual([("info.txt", info), ("log.bin", b"".join(changed))], crc_override={"log.bin": zlib.crc32(log)})
    write_bytes(out / "crc-mismatch.gt3x", data)
    log_start = 30 + len("info.txt") + len(info) + 30 + len("log.bin")
    expected["crc-mismatch.gt3x"] = {
        "issues": [f"{{file}}: byte {log_start}: inconsistent: ZIP entry 'log.bin': CRC-32 "
                   f"0x{zlib.crc32(b''.join(changed)):08X} instead of the ZIP directory's 0x{zlib.crc32(log):08X}"],
        "qc": [{"samplesRead": 12, "samplesEmitted": 12, "rejected": 0, "segments": 1}]}

    # An ACTIVITY2 payload that is not whole 6-byte samples.
    odd = [recs[0], record(0x1A, T + 1, act2([(1, 2, 256)] * 4) + b"\x01"), recs[2]]
    zip_write(out / "odd-payload.gt3x", [("info.txt", info), ("log.bin", b"".join(odd))])
    expected["odd-payload.gt3x"] = {
        "issues": [f"{{file}}: byte 33: inconsistent: log.bin byte 33: ACTIVITY2 record (timestamp {T + 1}) has 25 "
                   "payload bytes, not a whole number of 6-byte samples; its 4 samples are rejected"],
        "qc": [{"samplesRead": 12, "samplesEmitted": 8, "rejected": 4, "segments": 2, "gaps": 1}]}

    # Record timestamps T, T+2, T+1: a gap, then time going backwards.
    back = [record(0x1A, T + k, act2([(k, 2 * k, 256)] * 4)) for k in (0, 2, 1)]
    zip_write(out / "time-backwards.gt3x", [("info.txt", info), ("log.bin", b"".join(back))])
    expected["time-backwards.gt3x"] = {
        "issues": [f"{{file}}: byte 66: time-order: log.bin byte 66: ACTIVITY2 record timestamp {T + 1} does not "
                   f"advance past the previous one ({T + 2}); a new segment starts"],
        "qc": [{"samplesRead": 12, "samplesEmitted": 12, "rejected": 0, "segments": 3, "gaps": 1,
                "backwardSteps": 1}]}

    # Record 2 holds 5 samples at 4 Hz: its last sample is at T+2, where record 3 starts.
    long = [recs[0], record(0x1A, T + 1, act2([(1, 2, 256)] * 5)), recs[2]]
    zip_write(out / "long-record.gt3x", [("info.txt", info), ("log.bin", b"".join(long))])
    expected["long-record.gt3x"] = {
        "issues": [f"{{file}}: byte 33: inconsistent: log.bin byte 33: ACTIVITY2 record (timestamp {T + 1}) holds 5 "
                   "samples, more than one second at 4 Hz; delivered as they are"],
        "qc": [{"samplesRead": 13, "samplesEmitted": 13, "rejected": 0, "segments": 2, "gaps": 0,
                "backwardSteps": 1}]}

    # Not a ZIP archive at all.
    write_bytes(out / "not-zip.gt3x", b"Serial Number: X\r\n")
    expected["not-zip.gt3x"] = {
        "error": "{file}: byte 0: unknown-format: not a ZIP archive (a .gt3x file is one): the file does not "
                 "start with 'PK\\3\\4'"}
    write_json(out / "expected.json", expected)


def main() -> None:
    print(f"numpy {np.__version__}")
    butppg()
    gt3x()


if __name__ == "__main__":
    main()
