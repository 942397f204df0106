#!/usr/bin/env python3
"""Write the reference fixtures of the Apple Health ECG, CSV and MATLAB decoder tests.

Usage: python3 scripts/make-health-csv-matlab-fixtures.py

Independent references only (never the Swift code under test):
- MAT-files: synthetic files written by scipy.io.savemat (plain and zlib-compressed) and by a
  small hand-written Level 5 writer below (big- and little-endian, integer storage of a double
  array, small data elements, a hand-made miCOMPRESSED element), every one read back with
  scipy.io.loadmat, whose values are the expected values. Malformed MAT-files for the
  bad-input corpus are derived from them.
- Real data sets under ../shared/datasets (skipped when absent): numbers only (sample counts,
  first/last values, CRC-32 of the float32 little-endian values), never signal data, for SPC 2015,
  CPSC 2019 and the Apple Watch exports (none of them may be redistributed). Values are parsed
  by Python/NumPy (float() / scipy.io.loadmat) and rounded to float32 as SensorPipe delivers them.
- Oxford Step Counter validation set (CC BY 4.0): numbers per file, and a 2000-line excerpt
  of one walk committed as a fixture (see Tests/RecordingsTests/Fixtures/csv/README.md).

Requires numpy and scipy.
"""
import json
import lzma
import pathlib
import struct
import zlib

import numpy as np
import scipy.io as sio

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIX = ROOT / "Tests" / "RecordingsTests" / "Fixtures"
DATA = ROOT.parent / "shared" / "datasets"
G = 9.80665


def crc32_f32(values) -> int:
    return zlib.crc32(np.asarray(values, dtype="<f4").tobytes())


def crc32_f64(values) -> int:
    return zlib.crc32(np.asarray(values, dtype="<f8").tobytes())


def write_json(path: pathlib.Path, obj) -> None:
    path.write_text(json.dumps(obj, indent=1, sort_keys=True) + "\n")
    print(f"wrote {path.relative_to(ROOT)}")


# ----------------------------------------------------------------------------------------------
# A minimal MAT-file Level 5 writer (MathWorks, "MAT-File Format", Level 5), for the cases
# scipy.io.savemat does not produce: big-endian files, a double array stored as miINT16, small
# data elements for names and data.
MI = {"int8": 1, "uint8": 2, "int16": 3, "uint16": 4, "int32": 5, "uint32": 6, "single": 7,
      "double": 9, "int64": 12, "uint64": 13, "matrix": 14, "compressed": 15}
MX = {"double": 6, "single": 7, "int8": 8, "uint8": 9, "int16": 10, "uint16": 11, "int32": 12,
      "uint32": 13, "int64": 14, "uint64": 15}
NP = {"int8": "i1", "uint8": "u1", "int16": "i2", "uint16": "u2", "int32": "i4", "uint32": "u4",
      "single": "f4", "double": "f8", "int64": "i8", "uint64": "u8"}


def pad8(b: bytes) -> bytes:
    return b + b"\0" * ((8 - len(b) % 8) % 8)


def element(e: str, mtype: int, data: bytes, allow_small: bool = True) -> bytes:
    if allow_small and len(data) <= 4:
        return struct.pack(e + "I", (len(data) << 16) | mtype) + data + b"\0" * (4 - len(data))
    return struct.pack(e + "II", mtype, len(data)) + pad8(data)


def matrix(e: str, name: str, array: np.ndarray, mclass: str, storage: str,
           complex_part: np.ndarray | None = None) -> bytes:
    flags = MX[mclass] | (0x0800 if complex_part is not None else 0)
    body = struct.pack(e + "II", MI["uint32"], 8) + struct.pack(e + "II", flags, 0)
    dims = struct.pack(e + "i" * array.ndim, *array.shape)
    body += element(e, MI["int32"], dims, allow_small=False)
    body += element(e, MI["int8"], name.encode())
    raw = np.asarray(array).astype(e + NP[storage]).tobytes(order="F")
    body += element(e, MI[storage], raw)
    if complex_part is not None:
        body += element(e, MI[storage], np.asarray(complex_part).astype(e + NP[storage]).tobytes(order="F"))
    return struct.pack(e + "II", MI["matrix"], len(body)) + body


def header(e: str, text: str = "MATLAB 5.0 MAT-file, written by make-health-csv-matlab-fixtures.py",
           version: int = 0x0100) -> bytes:
    t = text.encode().ljust(116, b" ")
    return t + b"\0" * 8 + struct.pack(e + "H", version) + (b"IM" if e == "<" else b"MI")


def compressed(e: str, element_bytes: bytes) -> bytes:
    z = zlib.compress(element_bytes)
    return struct.pack(e + "II", MI["compressed"], len(z)) + z


# ----------------------------------------------------------------------------------------------
def synthetic_mat(out: pathlib.Path) -> None:
    rng = np.random.default_rng(20240501)
    variables = {
        "sig": rng.normal(0, 100, (4, 300)),
        "acc": rng.normal(0, 1, (250, 3)).astype(np.float32),
        "counts": rng.integers(-30000, 30000, (1, 40)).astype(np.int16),
        "u8col": rng.integers(0, 255, (30, 1)).astype(np.uint8),
        "i64": rng.integers(-2**40, 2**40, (20, 2)).astype(np.int64),
        "gaps": rng.normal(0, 1, (2, 50)),
        "text": "hello",
        "st": {"a": 1.0},
        "cplx": rng.normal(0, 1, (2, 3)) + 1j * rng.normal(0, 1, (2, 3)),
        "cube": rng.normal(0, 1, (2, 3, 4)),
        "empty": np.zeros((3, 0)),
    }
    variables["gaps"][0, 7] = np.nan
    variables["gaps"][1, 7] = np.nan
    variables["gaps"][1, 30] = np.nan
    expected = {}
    for name, compress in (("scipy-plain.mat", False), ("scipy-compressed.mat", True)):
        sio.savemat(out / name, variables, do_compression=compress, format="5", oned_as="column")
        expected[name] = read_back(out / name)

    # Hand-made files: both byte orders; `x` is class double stored as miINT16 (as MATLAB stores
    # integer-valued doubles); `tiny` uses small data elements for name and data; `y` is single.
    x = np.array([[1, -2, 300, -4000, 5], [6, 7, -8, 9, 10], [-11, 12, 13, 14, -32768]], dtype=np.float64)
    tiny = np.array([[3, 200, 17]], dtype=np.uint8)
    y = rng.normal(0, 10, (2, 4)).astype(np.float32)
    for e, name in (("<", "handmade-little-endian.mat"), (">", "handmade-big-endian.mat")):
        body = (matrix(e, "x", x, "double", "int16") + matrix(e, "tiny", tiny, "uint8", "uint8")
                + matrix(e, "y", y, "single", "single"))
        if e == "<":   # plus a hand-made compressed element holding a double array stored as uint8
            body += compressed(e, matrix(e, "zq", np.arange(12.0).reshape(3, 4) * 20, "double", "uint8"))
        (out / name).write_bytes(header(e) + body)
        got = read_back(out / name)
        assert np.array_equal(np.array(got["x"]["columnMajor"]).reshape(x.shape, order="F"), x)
        assert np.array_equal(np.array(got["tiny"]["columnMajor"]), tiny.ravel(order="F"))
        expected[name] = got
    write_json(out / "synthetic-expected.json", expected)


def read_back(path: pathlib.Path) -> dict:
    """Variables as scipy.io.loadmat reads them: numeric 2-D real arrays with their values."""
    d = sio.loadmat(path, squeeze_me=False, mat_dtype=False)
    out = {}
    for k, v in d.items():
        if k.startswith("__") or not isinstance(v, np.ndarray) or v.dtype.kind not in "iuf" or v.ndim != 2:
            continue
        out[k] = {"shape": list(v.shape), "dtype": str(v.dtype),
                  "columnMajor": [None if np.isnan(a) else float(a) for a in v.astype(np.float64).ravel(order="F")]}
    print(f"  {path.name}: {sorted(out)}")
    return out


def bad_mat(out: pathlib.Path, good_dir: pathlib.Path) -> None:
    """Malformed MAT-files; their expected errors are written by hand in expected.json."""
    out.mkdir(parents=True, exist_ok=True)
    e = "<"
    sig = np.arange(20.0).reshape(2, 10)
    plain = header(e) + matrix(e, "sig", sig, "double", "double")
    comp = header(e) + compressed(e, matrix(e, "sig", sig, "double", "double"))
    (out / "empty.mat").write_bytes(b"")
    (out / "short-header.mat").write_bytes(header(e)[:60])
    (out / "bad-endian-indicator.mat").write_bytes(plain[:126] + b"XX" + plain[128:])
    (out / "version-7.3.mat").write_bytes(header(e, "MATLAB 7.3 MAT-file, Platform: GLNXA64", 0x0200) + plain[128:])
    (out / "level4.mat").write_bytes(struct.pack("<iiiii", 0, 2, 10, 0, 4) + b"sig\0" + sig.tobytes(order="F"))
    (out / "truncated-compressed.mat").write_bytes(comp[:128 + 8 + 40])
    (out / "truncated-plain.mat").write_bytes(plain[:200])
    corrupt = bytearray(comp)
    corrupt[-4:] = bytes(b ^ 0xFF for b in corrupt[-4:])          # the zlib Adler-32 check
    (out / "corrupt-zlib-checksum.mat").write_bytes(bytes(corrupt))
    # dims say 2×10 but the real part holds 19 doubles
    body = (struct.pack(e + "II", 6, 8) + struct.pack(e + "II", 6, 0)
            + element(e, 5, struct.pack(e + "ii", 2, 10), allow_small=False) + element(e, 1, b"sig")
            + element(e, 9, sig.ravel(order="F")[:19].tobytes()))
    (out / "size-mismatch.mat").write_bytes(header(e) + struct.pack(e + "II", 14, len(body)) + body)
    (out / "sig-is-char.mat").write_bytes(b"")
    sio.savemat(out / "sig-is-char.mat", {"sig": "not numbers"}, do_compression=False)
    sio.savemat(out / "no-sig.mat", {"other": sig}, do_compression=True)
    (out / "sig-is-complex.mat").write_bytes(header(e) + matrix(e, "sig", sig, "double", "double", complex_part=sig))
    print(f"wrote {out.relative_to(ROOT)}/*.mat")


# ----------------------------------------------------------------------------------------------
def real_mat(out: pathlib.Path) -> None:
    if not DATA.exists():
        print("shared datasets absent: SPC 2015 / CPSC 2019 references not regenerated")
        return
    spc = {}
    for path in sorted((DATA / "spc2015").glob("*/*.mat")):
        d = sio.loadmat(path)
        if "sig" not in d:
            continue
        sig = d["sig"]
        spc[f"{path.parent.name}/{path.name}"] = {
            "shape": list(sig.shape),
            "first": [float(np.float32(r[0])) for r in sig],
            "last": [float(np.float32(r[-1])) for r in sig],
            "crc32": [crc32_f32(r) for r in sig],
        }
    write_json(out / "spc2015-expected.json", spc)
    cpsc = {}
    for path in sorted((DATA / "cpsc2019-sample").glob("data_*.mat")):
        ecg = sio.loadmat(path)["ecg"]
        cpsc[path.name] = {"shape": list(ecg.shape), "first": float(np.float32(ecg[0, 0])),
                           "last": float(np.float32(ecg[-1, 0])), "crc32": crc32_f32(ecg[:, 0])}
    write_json(out / "cpsc2019-expected.json", cpsc)


def apple(out: pathlib.Path) -> None:
    folder = DATA / "apple-watch-ecg"
    if not folder.exists():
        print("shared datasets absent: Apple Watch references not regenerated")
        return
    import datetime
    result = {}
    for path in sorted(folder.glob("*.csv")):
        lines = path.read_text(encoding="utf-8").split("\n")
        head = dict(l.split(",", 1) for l in lines[:8])
        rate = float(head["Sample Rate"].split()[0])
        when = datetime.datetime.strptime(head["Recorded Date"], "%Y-%m-%d %H:%M:%S %z")
        values = np.array([float(l) for l in lines[13:] if l.strip()], dtype=np.float32)
        result[path.name] = {"count": int(values.size), "sampleRate": rate, "startUnix": when.timestamp(),
                             "first": [float(v) for v in values[:3]], "last": float(values[-1]),
                             "crc32": crc32_f32(values), "classification": head["Classification"]}
    write_json(out / "apple-watch-expected.json", result)


def segments_by_rule(times: np.ndarray) -> int:
    """Segments by the SensorKit reader rules (docs/SCHEMA.md): a break where dt <= 0 or dt > 2 T,
    T = median of the last (up to) 15 intervals of the segment, or the previous segment's T."""
    segs, recent, last_t, period = 1, [], times[0], None
    for t in times[1:]:
        dt = t - last_t
        p = float(np.sort(recent)[len(recent) // 2]) if len(recent) >= 3 else period
        if dt <= 0 or (p is not None and dt > 2 * p):
            segs += 1
            if p is not None:
                period = p
            recent = []
        else:
            recent = (recent + [dt])[-15:]
        last_t = t
    return segs


def oxford_numbers(rows: list[list[str]], start_unix: float) -> dict:
    ts = [int(r[0]) for r in rows]
    acc = np.array([[float(v) for v in r[1:4]] for r in rows])
    keep, dups = [0], 0
    for i in range(1, len(rows)):
        if ts[i] == ts[i - 1] and np.array_equal(np.float32(acc[i] / G), np.float32(acc[i - 1] / G)):
            dups += 1
        else:
            keep.append(i)
    times = np.array([start_unix + (ts[i] - ts[0]) / 1e9 for i in keep])
    g = np.float32(acc[keep] / G)
    return {"rows": len(rows), "duplicates": dups, "emitted": len(keep), "segments": segments_by_rule(times),
            "firstTime": float(times[0]), "lastTime": float(times[-1]), "timesCRC32": crc32_f64(times),
            "first": [float(v) for v in g[0]], "last": [float(v) for v in g[-1]],
            "crc32": [crc32_f32(g[:, k]) for k in range(3)], "finalGroundTruthSteps": int(rows[-1][5])}


def oxford(out: pathlib.Path) -> None:
    folder = DATA / "oxford-step-counter-validation"
    if not folder.exists():
        print("shared datasets absent: Oxford references not regenerated")
        return
    result = {}
    for path in sorted(folder.glob("*.csv.xz")):
        text = lzma.decompress(path.read_bytes()).decode()
        rows = [l.split(",") for l in text.split("\n") if l]
        start = int(path.name.split("_")[2].split(".")[0]) / 1000
        result[path.name] = oxford_numbers(rows, start) | {"startUnix": start}
        if path.name.startswith("user1_neckpouch"):
            excerpt = "\n".join(text.split("\n")[:2000]) + "\n"
            (out / "oxford-user1-neckpouch-first2000.csv").write_text(excerpt)
            rows2000 = [l.split(",") for l in excerpt.split("\n") if l]
            write_json(out / "oxford-excerpt-expected.json", oxford_numbers(rows2000, start) | {"startUnix": start})
    write_json(out / "oxford-expected.json", result)


def main() -> None:
    print(f"numpy {np.__version__}, scipy {__import__('scipy').__version__}")
    (FIX / "matlab").mkdir(parents=True, exist_ok=True)
    (FIX / "csv").mkdir(parents=True, exist_ok=True)
    (FIX / "health").mkdir(parents=True, exist_ok=True)
    synthetic_mat(FIX / "matlab")
    bad_mat(FIX / "bad" / "matlab", FIX / "matlab")
    real_mat(FIX / "matlab")
    apple(FIX / "health")
    oxford(FIX / "csv")


if __name__ == "__main__":
    main()
