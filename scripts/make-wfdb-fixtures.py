#!/usr/bin/env python3
"""Write the WFDB test fixtures and their reference values with wfdb-python (an independent
implementation of the PhysioNet WFDB formats).

Usage: python3 scripts/make-wfdb-fixtures.py        (pip install wfdb numpy)

Writes Tests/RecordingsTests/Fixtures/wfdb/:
  records/<name>.hea, .dat   small synthetic records in every signal format the Swift decoder
                             reads (8, 16, 24, 32, 61, 80, 160, 212, 310, 311), with invalid
                             samples, several signals per file, two files per record, multiple
                             samples per frame, a byte offset (preamble) and skew
  expected/<name>_s<k>.npy   wfdb.rdrecord(...).p_signal / e_p_signal per signal (float64,
                             physical units as in the header; NaN where the sample is invalid)
  expected/records.json      per record: header facts read back by wfdb.rdheader
  records/annot.atr          an annotation file with every MIT code, long intervals (SKIP),
                             subtypes, channels, numbers and aux strings, written by wfdb.wrann
  expected/annot.json        wfdb.rdann of it
  expected/codes.json        wfdb-python's annotation label table (code → mnemonic)
and, when ../shared/datasets is present, expected/realdata.json: for every mitdb, nstdb and
qtdb-sel100 record, wfdb.rdrecord digital sums and spot samples and wfdb.rdann symbol counts
(the .dat.xz files are decompressed into a temporary directory with `xz -dk`).
"""
import datetime
import json
import os
import pathlib
import shutil
import subprocess
import tempfile

import numpy as np
import wfdb

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests" / "RecordingsTests" / "Fixtures" / "wfdb"
REC = OUT / "records"
EXP = OUT / "expected"
SHARED = ROOT.parent / "shared" / "datasets"

RANGES = {  # digital range written (the invalid code is the lowest value of each format)
    "8": (-2000, 2000), "16": (-32767, 32767), "24": (-(2**23) + 1, 2**23 - 1),
    "32": (-(2**31) + 1, 2**31 - 1), "61": (-32767, 32767), "80": (-127, 127),
    "160": (-32767, 32767), "212": (-2047, 2047), "310": (-511, 511), "311": (-511, 511),
}
INVALID = {"16": -32768, "24": -(2**23), "32": -(2**31), "61": -32768, "80": -128, "160": -32768,
           "212": -2048, "310": -512, "311": -512}


def walk(rng, n, lo, hi, step):
    """Random walk clipped to [lo, hi] (ECG-like, so format 8 differences stay in range)."""
    x = np.cumsum(rng.integers(-step, step + 1, size=n)) + (lo + hi) // 2
    return np.clip(x, lo, hi).astype(np.int64)


WRITABLE = {"16", "24", "32", "80"}  # formats wfdb-python 4.3 writes itself


def pack(fmt, flat, signal_of, init):
    """Packs the multiplexed sample stream `flat` (frame order) as signal(5) and the WFDB
    library's writers (w212, w310, w311, f212, f310, f311) lay it out."""
    flat = [int(v) for v in flat]
    out = bytearray()
    if fmt == "8":
        prev = dict(init)
        for v, k in zip(flat, signal_of):
            d = v - prev[k]
            assert -128 <= d <= 127
            out.append(d & 0xFF)
            prev[k] = v
    elif fmt == "61":
        for v in flat:
            out += (v & 0xFFFF).to_bytes(2, "big")
    elif fmt == "160":
        for v in flat:
            out += (v + 32768).to_bytes(2, "little")
    elif fmt == "212":
        for i in range(0, len(flat) - 1, 2):
            a, b = flat[i] & 0xFFF, flat[i + 1] & 0xFFF
            out += bytes([a & 0xFF, (a >> 8) | ((b >> 8) << 4), b & 0xFF])
        if len(flat) % 2:
            out += (flat[-1] & 0xFFF).to_bytes(2, "little")
    elif fmt == "310":
        for i in range(0, len(flat), 3):
            g = flat[i:i + 3] + [0] * (3 - len(flat[i:i + 3]))
            w0 = ((g[0] & 0x3FF) << 1) | ((g[2] & 0x1F) << 11)
            w1 = ((g[1] & 0x3FF) << 1) | (((g[2] >> 5) & 0x1F) << 11)
            out += w0.to_bytes(2, "little")
            if len(flat) - i > 1:
                out += w1.to_bytes(2, "little")
    elif fmt == "311":
        for i in range(0, len(flat), 3):
            g = flat[i:i + 3] + [0] * (3 - len(flat[i:i + 3]))
            w = (g[0] & 0x3FF) | ((g[1] & 0x3FF) << 10) | ((g[2] & 0x3FF) << 20)
            out += w.to_bytes(4, "little")[: (2 if len(flat) - i == 1 else 4)]
    else:
        raise ValueError(fmt)
    return bytes(out)


def write_record(name, fmt_per_file, n, spf, gains, baselines, units, descr, rng, files=None,
                 invalid=True, base_time=None, base_date=None, comments=None):
    nsig = len(spf)
    fmts = fmt_per_file if isinstance(fmt_per_file, list) else [fmt_per_file] * nsig
    files = files or [f"{name}.dat"] * nsig
    signals = []
    for k in range(nsig):
        lo, hi = RANGES[fmts[k]]
        step = 3 if fmts[k] == "8" else max(1, (hi - lo) // 200)
        x = walk(rng, n * spf[k], lo, hi, step)
        if invalid and fmts[k] in INVALID:
            idx = rng.choice(np.arange(1, n * spf[k]), size=5, replace=False)
            x[idx] = INVALID[fmts[k]]
        signals.append(x)
    written = [f if f in WRITABLE else "16" for f in fmts]
    rec = wfdb.Record(
        record_name=name, n_sig=nsig, fs=360.0, sig_len=n,
        file_name=files, fmt=written, samps_per_frame=spf,
        adc_gain=gains, baseline=baselines, units=units, sig_name=descr,
        adc_res=[{"80": 8, "310": 10, "311": 10, "212": 12, "24": 24, "32": 32}.get(f, 16) for f in fmts],
        adc_zero=[0] * nsig, block_size=[0] * nsig, e_d_signal=[s.astype(np.int64) for s in signals],
        base_time=base_time, base_date=base_date, comments=comments,
    )
    rec.set_d_features(expanded=True)
    rec.wrsamp(expanded=True, write_dir=str(REC))
    # Re-pack the files in formats wfdb-python reads but does not write, and fix the header.
    hea = (REC / f"{name}.hea").read_text().splitlines()
    for f in sorted(set(files)):
        ks = [k for k in range(nsig) if files[k] == f]
        fmt = fmts[ks[0]]
        if fmt in WRITABLE:
            continue
        flat, owner = [], []
        for t in range(n):
            for k in ks:
                flat += list(signals[k][t * spf[k]:(t + 1) * spf[k]])
                owner += [k] * spf[k]
        (REC / f).write_bytes(pack(fmt, flat, owner, {k: int(signals[k][0]) for k in ks}))
        for k in ks:
            tok = hea[1 + k].split(" ")
            assert tok[1].startswith("16")
            tok[1] = fmt + tok[1][2:]
            hea[1 + k] = " ".join(tok)
    (REC / f"{name}.hea").write_text("\n".join(hea) + "\n")
    # The independent reader must see exactly the samples we meant to write.
    back = wfdb.rdrecord(str(REC / name), smooth_frames=False)
    for k in range(nsig):
        meant = (signals[k].astype(np.float64) - baselines[k]) / gains[k]
        if fmts[k] in INVALID:
            meant[signals[k] == INVALID[fmts[k]]] = np.nan
        assert np.array_equal(np.asarray(back.e_p_signal[k]), meant, equal_nan=True), (name, k)
    return rec


def reference(name, facts):
    r = wfdb.rdrecord(str(REC / name), smooth_frames=False)
    for k, sig in enumerate(r.e_p_signal):
        np.save(EXP / f"{name}_s{k}.npy", np.asarray(sig, dtype=np.float64))
    h = wfdb.rdheader(str(REC / name))
    start = None
    if h.base_date is not None and h.base_time is not None:
        start = datetime.datetime.combine(h.base_date, h.base_time, tzinfo=datetime.timezone.utc).timestamp()
    facts[name] = {
        "fs": h.fs, "sig_len": h.sig_len, "samps_per_frame": h.samps_per_frame, "units": h.units,
        "sig_name": h.sig_name, "fmt": h.fmt, "checksum": h.checksum, "init_value": h.init_value,
        "adc_gain": h.adc_gain, "baseline": h.baseline, "skew": [s or 0 for s in h.skew],
        "byte_offset": [b or 0 for b in h.byte_offset], "start_unix": start,
        "invalid_count": [int(np.isnan(np.asarray(s)).sum()) for s in r.e_p_signal],
    }


def synthetic():
    shutil.rmtree(REC, ignore_errors=True)
    REC.mkdir(parents=True)
    EXP.mkdir(parents=True, exist_ok=True)
    for f in EXP.glob("*"):
        if f.name != "realdata.json":
            f.unlink()
    rng = np.random.default_rng(20240515)
    facts = {}
    three = dict(gains=[200.0, 1000.0, 12.5], baselines=[0, 5, -3], units=["mV", "uV", "mV"],
                 descr=["MLII", "V5", "V1"])
    for fmt in ["8", "16", "24", "32", "61", "80", "160", "212", "310", "311"]:
        name = f"fmt{fmt}"
        write_record(name, fmt, 1001, [1, 1, 1], rng=rng, **three)
        reference(name, facts)
    # Trailing partial packets: 2×1000 = 2000 samples (310: two left over), 2×1001 (311: one),
    # 1×1001 (212: one).
    write_record("fmt310_tail2", "310", 1000, [1, 1], [200.0, 200.0], [0, 0], ["mV", "mV"], ["I", "II"], rng)
    reference("fmt310_tail2", facts)
    write_record("fmt311_tail1", "311", 1001, [1, 1], [200.0, 200.0], [0, 0], ["mV", "mV"], ["I", "II"], rng)
    reference("fmt311_tail1", facts)
    write_record("fmt212_single", "212", 1001, [1], [200.0], [1024], ["mV"], ["ECG"], rng)
    reference("fmt212_single", facts)
    # Two signal files (212 pair + 16) and multiple samples per frame (2 and 4).
    write_record("twofiles", ["212", "212", "16"], 800, [1, 1, 1], [200.0, 200.0, 400.0], [0, 0, 0],
                 ["mV", "mV", "mV"], ["MLII", "V5", "ECG3"], rng,
                 files=["twofiles_a.dat", "twofiles_a.dat", "twofiles_b.dat"])
    reference("twofiles", facts)
    write_record("multifreq", "16", 600, [2, 1, 4], [200.0, 200.0, 100.0], [0, 10, -10], ["mV", "mV", "uV"],
                 ["ECG hi", "ECG", "ECG fast"], rng, base_time=datetime.time(13, 5, 0, 250000),
                 base_date=datetime.date(1989, 4, 25), comments=["synthetic multi-frequency record"])
    reference("multifreq", facts)
    # Byte offset and skew: written as format 16, then a 7-byte preamble is prepended and the
    # header edited by hand ('16x1+7', '16x1:3+7').
    write_record("offsetskew", "16", 500, [1, 1], [200.0, 200.0], [0, 0], ["mV", "mV"], ["I", "II"], rng,
                 invalid=False)
    dat = REC / "offsetskew.dat"
    dat.write_bytes(b"PREAMBL" + dat.read_bytes())
    hea = (REC / "offsetskew.hea").read_text().splitlines()
    for line, modifiers in [(1, "+7"), (2, ":3+7")]:
        tok = hea[line].split(" ")
        tok[1] += modifiers
        hea[line] = " ".join(tok)
    (REC / "offsetskew.hea").write_text("\n".join(hea) + "\n")
    reference("offsetskew", facts)
    (EXP / "records.json").write_text(json.dumps(facts, indent=1, sort_keys=True))
    annotations()


def annotations():
    rng = np.random.default_rng(7)
    symbols = ["N", "L", "R", "a", "V", "F", "J", "A", "S", "E", "j", "/", "Q", "~", "|", "s", "T",
               "*", "D", '"', "=", "p", "B", "^", "t", "+", "u", "?", "!", "[", "]", "e", "n", "@",
               "x", "f", "(", ")", "r"]
    n = 400
    sym = [symbols[i % len(symbols)] for i in range(n)]
    gaps = rng.integers(1, 400, size=n)
    gaps[[5, 77, 300]] = [1024, 5000, 100_000]          # intervals > 1023 need SKIP
    sample = np.cumsum(gaps)
    subtype = np.zeros(n, dtype=int)
    subtype[::17] = rng.integers(1, 5, size=len(subtype[::17]))
    chan = np.zeros(n, dtype=int)
    chan[100:150] = 1
    num = np.zeros(n, dtype=int)
    num[200:210] = 3
    aux = [""] * n
    for i, text in [(0, "(N"), (25, "(AFIB"), (64, "(B"), (103, "(VT"), (142, "PVC in a run"), (250, "(N")]:
        sym[i] = "+" if text.startswith("(") else '"'
        aux[i] = text
    wfdb.wrann("annot", "atr", sample=sample, symbol=sym, subtype=subtype, chan=chan, num=num,
               aux_note=aux, write_dir=str(REC))
    table = wfdb.io.annotation.ann_label_table
    (EXP / "codes.json").write_text(json.dumps(
        {str(int(r.label_store)): r.symbol for r in table.itertuples() if 1 <= r.label_store <= 41}, indent=0))
    a = wfdb.rdann(str(REC / "annot"), "atr")
    (EXP / "annot.json").write_text(json.dumps({
        "sample": [int(x) for x in a.sample], "symbol": list(a.symbol),
        "subtype": [int(x) for x in a.subtype], "chan": [int(x) for x in a.chan],
        "num": [int(x) for x in a.num], "aux_note": list(a.aux_note),
    }))


def bad_corpus():
    """Malformed records for Tests/RecordingsTests/Fixtures/bad/wfdb (their expected errors are
    written by hand in expected.json there, from the content below)."""
    bad = ROOT / "Tests" / "RecordingsTests" / "Fixtures" / "bad" / "wfdb"
    bad.mkdir(parents=True, exist_ok=True)
    ramp = lambda n: b"".join(int(v).to_bytes(2, "little", signed=True) for v in range(n))
    files = {
        "missing-signal-line.hea": "msl 2 360 100\nmsl.dat 212 200 11 1024 0 0 0 MLII\n",
        "bad-gain.hea": "bg 1 360 100\nbg.dat 16 200x/mV 16 0 0 4950 0 II\n",
        "bad-baseline.hea": "bb 1 360 100\nbb.dat 16 200(1024/mV 16 0 0 4950 0 II\n",
        "unknown-format.hea": "uf 1 360 100\nuf.dat 213 200 16 0 0 4950 0 II\n",
        "non-numeric-fs.hea": "nf 1 fast 100\nnf.dat 16 200 16 0 0 4950 0 II\n",
        "truncated-dat.hea": ("td 2 360 100\ntruncated-dat.dat 212 200 12 0 0 0 0 MLII\n"
                              "truncated-dat.dat 212 200 12 0 0 0 0 V5\n"),
        "truncated-dat.dat": bytes(150),
        "sample-count.hea": "sc 1 360 100\nsample-count.dat 16 200 16 0 0 4950 0 II\n",
        "sample-count.dat": ramp(120),
        "bad-checksum.hea": "bc 1 360 100\nbad-checksum.dat 16 200 16 0 0 4951 0 II\n",
        "bad-checksum.dat": ramp(100),
        "first-value.hea": "fv 1 360 100\nfirst-value.dat 16 200 16 0 5 4950 0 II\n",
        "first-value.dat": ramp(100),
        "missing-dat.hea": "md 1 360 100\nnothere.dat 16 200 16 0 0 4950 0 II\n",
        "offset-beyond-end.hea": "ob 1 360 100\noffset-beyond-end.dat 16+64 200 16 0 0 4950 0 II\n",
        "offset-beyond-end.dat": bytes(10),
        "flac.hea": "fl 1 360 100\nfl.dat 516 200 16 0 0 4950 0 II\n",
        "multi-segment.hea": "ms/2 1 360 200\nms_1 100\nms_2 100\n",
    }
    for name, content in files.items():
        (bad / name).write_bytes(content.encode() if isinstance(content, str) else content)


def real_data():
    if not SHARED.exists() or shutil.which("xz") is None:
        print("shared datasets or xz absent: realdata.json not written")
        return
    out = {}
    sets = [("mitdb", (SHARED / "mitdb" / "RECORDS").read_text().split()),
            ("nstdb", sorted(p.stem for p in (SHARED / "nstdb").glob("*.hea"))),
            ("qtdb-sel100", ["sel100"])]
    with tempfile.TemporaryDirectory() as tmp:
        for db, names in sets:
            for name in names:
                src = SHARED / db
                for ext in ["hea", "atr"]:
                    if (src / f"{name}.{ext}").exists():
                        shutil.copy(src / f"{name}.{ext}", tmp)
                shutil.copy(src / f"{name}.dat.xz", tmp)
                subprocess.run(["xz", "-dk", "-f", f"{tmp}/{name}.dat.xz"], check=True)
                r = wfdb.rdrecord(f"{tmp}/{name}", physical=False)
                p = wfdb.rdrecord(f"{tmp}/{name}")
                d = r.d_signal.astype(np.int64)
                spots = [0, 1, 2, 1000, d.shape[0] // 2, d.shape[0] - 1]
                entry = {
                    "sig_len": int(d.shape[0]),
                    "digital_sum": [int(x) for x in d.sum(axis=0)],
                    "digital_abs_sum": [int(x) for x in np.abs(d).sum(axis=0)],
                    "spot_index": spots,
                    "spot_physical": [[float(p.p_signal[i, k]) for i in spots] for k in range(d.shape[1])],
                }
                if (src / f"{name}.atr").exists():
                    a = wfdb.rdann(f"{tmp}/{name}", "atr")
                    counts = {}
                    for s in a.symbol:
                        counts[s] = counts.get(s, 0) + 1
                    entry["annotations"] = len(a.sample)
                    entry["symbol_counts"] = counts
                    entry["aux_count"] = sum(1 for x in a.aux_note if x)
                    entry["sample_sum"] = int(np.asarray(a.sample, dtype=np.int64).sum())
                out[f"{db}/{name}"] = entry
                for f in os.listdir(tmp):
                    os.remove(os.path.join(tmp, f))
                print(db, name)
    (EXP / "realdata.json").write_text(json.dumps(out, indent=0, sort_keys=True))


if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-real", action="store_true", help="do not rewrite expected/realdata.json")
    args = parser.parse_args()
    print(f"wfdb {wfdb.__version__}, numpy {np.__version__}")
    synthetic()
    bad_corpus()
    if not args.skip_real:
        real_data()
