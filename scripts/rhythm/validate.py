#!/usr/bin/env python3
"""Rhythm validation tables for docs/VALIDATION.md (issue 29), from the SQLite databases that
`scripts/rhythm/validation.sh` writes with the release build. References are independent of
SensorPipe: CinC 2017 REFERENCE-v3.csv labels, the MIT-BIH rhythm annotations (.atr aux notes,
read with the `wfdb` package), the Apple Health export's own classification.
"""
import argparse, csv, math, os, sqlite3, sys
from collections import Counter, defaultdict

MAP = {"sinus": "N", "af": "A", "other": "O", "noisy": "~", "insufficient": "~"}
CLASSES = ["N", "A", "O", "~"]


def rows(db, sql):
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    return [dict(r) for r in con.execute(sql)]


def record_of(stream):
    return stream.split("/")[0]


def f1(truth, pred, c):
    tp = sum(1 for t, p in zip(truth, pred) if t == c and p == c)
    d = sum(1 for t in truth if t == c) + sum(1 for p in pred if p == c)
    return 2 * tp / d if d else float("nan")


def pct(x):
    return "—" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f} %"


def cinc(db, reference, cv_file):
    ref = {r[0]: r[1] for r in csv.reader(open(reference))}
    got = {}
    for r in rows(db, "SELECT stream, label FROM rhythm WHERE source = 'ecg'"):
        got[record_of(r["stream"])] = r["label"]
    out = ["### CinC 2017 (single-lead AliveCor strips, one window per record)", ""]
    if cv_file and os.path.exists(cv_file):
        out += ["Cross-validated first (scripts/rhythm/fit.py, 5 folds by record: fold = record number mod 5, "
                "all 5,686 development records; the model of each fold fitted on the other four):", "", "```"]
        lines = [l.rstrip() for l in open(cv_file)]
        out += [l for l in lines if "CV confusion" not in l] + ["```", ""]
        for l in lines:
            if "CV confusion" not in l:
                continue
            name, cells = l.split(": CV confusion (rows reference, columns label): ")
            out += [f"Cross-validated confusion matrix, `{name}` model (each record labelled by the fold model that did not "
                    "see it; fewer than 6 intervals scores as `~`):", "",
                    "| reference \\ label | N (sinus) | A (af) | O (other) | ~ (noisy) | total |", "|---|---|---|---|---|---|"]
            for part in cells.split("   "):
                r, rest = part.split(": ")
                v = rest.split()
                counts = [int(v[i + 1]) for i in range(0, len(v), 2)]
                out.append(f"| {r} | " + " | ".join(str(c) for c in counts) + f" | {sum(counts)} |")
            out.append("")
    held = sorted(r for r in ref if int(r[1:]) % 5 == 4)
    missing = [r for r in held if r not in got]
    truth = [ref[r] for r in held]
    labels = [got.get(r, "insufficient") for r in held]
    pred = [MAP[l] for l in labels]
    out += [f"Held-out fold 4 ({len(held)} records never used for fitting or for any choice: C, model kind, rounds, P-wave rule), "
            "end to end with the release build; `noisy` and `insufficient` both score as `~`"
            + (f"; {len(missing)} records without a rhythm row count as `~`" if missing else "") + ":", ""]
    cols = ["sinus", "af", "other", "noisy", "insufficient"]
    out += ["| reference \\ label | " + " | ".join(cols) + " | total |", "|---|" + "---|" * (len(cols) + 1)]
    for c in CLASSES:
        cnt = Counter(l for t, l in zip(truth, labels) if t == c)
        out.append(f"| {c} | " + " | ".join(str(cnt[k]) for k in cols) + f" | {sum(cnt.values())} |")
    fs = {c: f1(truth, pred, c) for c in CLASSES}
    mean = (fs["N"] + fs["A"] + fs["O"]) / 3
    tp = sum(1 for t, p in zip(truth, pred) if t == "A" and p == "A")
    fn = sum(1 for t, p in zip(truth, pred) if t == "A" and p != "A")
    fp = sum(1 for t, p in zip(truth, pred) if t != "A" and p == "A")
    tn = len(truth) - tp - fn - fp
    out += ["", "| F1 N | F1 AF | F1 Other | F1 Noisy | mean F1 (N, AF, O) | AF Se | AF Sp | AF PPV |", "|---|---|---|---|---|---|---|---|",
            f"| {fs['N']:.3f} | {fs['A']:.3f} | {fs['O']:.3f} | {fs['~']:.3f} | **{mean:.3f}** | {pct(tp / (tp + fn))} | "
            f"{pct(tn / (tn + fp))} | {pct(tp / (tp + fp) if tp + fp else float('nan'))} |", ""]
    return out


def mitdb_reference(path):
    import wfdb
    ann = wfdb.rdann(path, "atr")
    changes = [(s, a.strip("\x00")) for s, a in zip(ann.sample, ann.aux_note) if a.startswith("(")]
    return changes, ann.fs


def af_intervals(changes, fs, n):
    out, cur, since = [], None, 0
    for s, a in changes + [(n, "(END")]:
        if cur in ("(AFIB", "(AFL"):
            if out and abs(out[-1][1] - since / fs) < 1e-9:
                out[-1] = (out[-1][0], s / fs)
            else:
                out.append((since / fs, s / fs))
        cur, since = a, s
    return out


VENTRICULAR = ("(VT", "(B", "(T", "(IVR", "(VFL")


def atrial_changes(changes):
    """The rhythm notes with ventricular-rhythm runs inside AF/AFL dropped: the MIT-BIH annotators
    mark a run of ventricular tachycardia, bigeminy, trigeminy or idioventricular rhythm during AF
    by its ventricular rhythm, but the atria go on fibrillating, so the AF episode is not over
    (used only for the second, "atrial" episode count)."""
    out, cur = [], None
    for s, a in changes:
        if a in VENTRICULAR and cur in ("(AFIB", "(AFL"):
            continue
        out.append((s, a))
        cur = a
    return out


def overlap(a, b, intervals):
    return sum(max(0, min(b, y) - max(a, x)) for x, y in intervals)


def mitdb(db, folder, title, af_records_only=False):
    windows = defaultdict(list)
    for r in rows(db, "SELECT stream, window_start, window_end, label FROM rhythm WHERE source = 'ecg'"):
        windows[r["stream"]].append(r)
    episodes = defaultdict(list)
    for r in rows(db, "SELECT stream, onset, offset FROM rhythm_episodes WHERE source = 'ecg'"):
        episodes[r["stream"]].append((r["onset"], r["offset"]))
    recs = sorted({f[:-4] for f in os.listdir(folder) if f.endswith(".hea")})
    out = [title, "", "| record | windows | AF windows (ref) | Se | Sp | labelled af | noisy + insufficient | ref episodes ≥ 30 s | found | onset and offset within 10 s | atrial episodes ≥ 30 s | found | within 10 s |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    tot = Counter()
    detail = []
    for rec in recs:
        header = open(os.path.join(folder, rec + ".hea")).read().splitlines()
        lead0 = header[1].split()[-1] if len(header[1].split()) > 8 else None
        n, fs = int(header[0].split()[3]), float(header[0].split()[2])
        streams = [s for s in windows if record_of(s) == rec]
        stream = next((s for s in streams if lead0 and s.endswith("/" + lead0)), streams[0] if streams else None)
        if stream is None:
            out.append(f"| {rec} | no rhythm rows | | | | | | | | |")
            continue
        changes, _ = mitdb_reference(os.path.join(folder, rec))
        ref = af_intervals(changes, fs, n)
        c = Counter()
        for w in windows[stream]:
            a, b = w["window_start"], w["window_end"]
            is_af = overlap(a, b, ref) >= 0.5 * (b - a)
            pred = w["label"] == "af"
            c["windows"] += 1
            c["ref_af"] += is_af
            c["tp"] += is_af and pred
            c["fn"] += is_af and not pred
            c["fp"] += (not is_af) and pred
            c["tn"] += (not is_af) and not pred
            c["af"] += pred
            c["unl"] += w["label"] in ("noisy", "insufficient")
        long_ref = [(x, y) for x, y in ref if y - x >= 30]
        found = exact = 0
        for x, y in long_ref:
            hits = [(p, q) for p, q in episodes[stream] if min(q, y) > max(p, x)]
            found += bool(hits)
            exact += any(abs(p - x) <= 10 and abs(q - y) <= 10 for p, q in hits)
        c["eps"], c["found"], c["exact"] = len(long_ref), found, exact
        atrial = [(x, y) for x, y in af_intervals(atrial_changes(changes), fs, n) if y - x >= 30]
        for x, y in atrial:
            hits = [(p, q) for p, q in episodes[stream] if min(q, y) > max(p, x)]
            c["aeps"] += 1
            c["afound"] += bool(hits)
            best = min(hits, key=lambda h: abs(h[0] - x) + abs(h[1] - y)) if hits else None
            ok = best is not None and abs(best[0] - x) <= 10 and abs(best[1] - y) <= 10
            c["aexact"] += ok
            detail.append((rec, x, y, best, len(hits), ok))
        tot.update(c)
        if af_records_only and not ref and not c["af"]:
            continue
        se = c["tp"] / (c["tp"] + c["fn"]) if c["tp"] + c["fn"] else float("nan")
        sp = c["tn"] / (c["tn"] + c["fp"]) if c["tn"] + c["fp"] else float("nan")
        out.append(f"| {rec} | {c['windows']} | {c['ref_af']} | {pct(se)} | {pct(sp)} | {c['af']} | {c['unl']} | {c['eps']} | {c['found']} | {c['exact']} | {c['aeps']} | {c['afound']} | {c['aexact']} |")
    se = tot["tp"] / (tot["tp"] + tot["fn"]) if tot["tp"] + tot["fn"] else float("nan")
    sp = tot["tn"] / (tot["tn"] + tot["fp"]) if tot["tn"] + tot["fp"] else float("nan")
    out.append(f"| **all** | {tot['windows']} | {tot['ref_af']} | **{pct(se)}** | **{pct(sp)}** | {tot['af']} | {tot['unl']} | {tot['eps']} | {tot['found']} | {tot['exact']} | {tot['aeps']} | {tot['afound']} | {tot['aexact']} |")
    out += ["", "Atrial AF episodes ≥ 30 s (ventricular runs inside AF/AFL do not end an episode) and the closest "
            "SensorPipe episode overlapping each (onset/offset error in s; + is late):", "",
            "| record | reference onset–offset (s) | SensorPipe episode (s) | episodes overlapping | onset error | offset error | within 10 s |",
            "|---|---|---|---|---|---|---|"]
    for rec, x, y, best, k, ok in detail:
        if best is None:
            out.append(f"| {rec} | {x:.0f}–{y:.0f} | none | 0 | | | no |")
        else:
            out.append(f"| {rec} | {x:.0f}–{y:.0f} | {best[0]:.0f}–{best[1]:.0f} | {k} | {best[0] - x:+.0f} | {best[1] - y:+.0f} | {'yes' if ok else 'no'} |")
    return out + [""]


def noise(db, title, where=""):
    out = [title, "", "| record | windows | af | noisy | insufficient | sinus | other | share af |", "|---|---|---|---|---|---|---|---|"]
    per = defaultdict(Counter)
    for r in rows(db, "SELECT stream, label FROM rhythm" + where):
        per[r["stream"]][r["label"]] += 1
    for s in sorted(per):
        c = per[s]
        n = sum(c.values())
        out.append(f"| {s} | {n} | {c['af']} | {c['noisy']} | {c['insufficient']} | {c['sinus']} | {c['other']} | {pct(c['af'] / n)} |")
    return out + [""]


def watch(db, folder):
    out = ["### Apple Watch ECG exports (30-s lead-I strips) against Apple's classification", "",
           "| export | Apple | SensorPipe label | af_probability | beats | mean HR (bpm) | null_reason |", "|---|---|---|---|---|---|---|"]
    got = rows(db, "SELECT r.stream, r.label, r.af_probability, r.beats, r.mean_hr_bpm, r.null_reason, f.path FROM rhythm r "
                   "JOIN recording_files f ON f.recording_id = r.recording_id")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".csv"):
            continue
        apple = next((l.split(",", 1)[1].strip() for l in open(os.path.join(folder, name), encoding="utf-8") if l.startswith("Classification,")), "?")
        for r in got:
            if r["path"].endswith(name):
                p = "—" if r["af_probability"] is None else f"{r['af_probability']:.3f}"
                hr = "—" if r["mean_hr_bpm"] is None else f"{r['mean_hr_bpm']:.0f}"
                out.append(f"| {name} | {apple} | {r['label']} | {p} | {r['beats']} | {hr} | {r['null_reason'] or ''} |")
    return out + [""]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--datasets", default="../shared/datasets")
    a = ap.parse_args()
    d, o = a.datasets, a.out_dir
    out = []
    if os.path.exists(f"{o}/cinc.sqlite"):
        out += cinc(f"{o}/cinc.sqlite", f"{d}/cinc2017/records/REFERENCE-v3.csv", f"{o}/cv.txt")
    if os.path.exists(f"{o}/mitdb.sqlite"):
        out += mitdb(f"{o}/mitdb.sqlite", f"{d}/mitdb", "### MIT-BIH Arrhythmia, lead 0, 30-s windows (AF when ≥ 50 % annotated AFIB/AFL)")
    if os.path.exists(f"{o}/nstdb.sqlite"):
        out += noise(f"{o}/nstdb.sqlite", "### Noise is not AF: NSTDB 118e06 / 119e06 (6 dB electrode motion), both leads")
    if os.path.exists(f"{o}/spc.sqlite"):
        out += noise(f"{o}/spc.sqlite", "### Noise is not AF: IEEE SPC 2015 wrist PPG during exercise (pulse timing, rr model, PPG gate)",
                     " WHERE source = 'ppg'")
        out += noise(f"{o}/spc.sqlite", "### The same sessions' chest ECG (lead rows)", " WHERE source = 'ecg'")
    if os.path.exists(f"{o}/watch.sqlite"):
        out += watch(f"{o}/watch.sqlite", f"{d}/apple-watch-ecg")
    print("\n".join(out))


if __name__ == "__main__":
    main()
