#!/usr/bin/env python3
"""Checks an EDF+ written by `sensorpipe convert --to edf --results` with pyedflib (EDFlib), an
independent reader: the file must open, and its beat annotations must be the `beats` rows (time
not empty) of a `sensorpipe run` database of the same input, its `ECG quality` annotations the
`ecg_quality` rows and its `AF episode` annotations the `rhythm_episodes` rows.

Usage:
    pip install pyedflib
    sensorpipe run Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz --out /tmp/r.sqlite
    sensorpipe convert Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz /tmp/r.edf --to edf --results
    python3 scripts/edf/check_results_edf.py /tmp/r.edf /tmp/r.sqlite

pyedflib's onsets count from the file's start including its sub-second part (`getStartdatetime`,
microsecond resolution), so times are compared within 2 µs. Exits 1 on any difference.
"""
import calendar
import sqlite3
import sys

import pyedflib


def main() -> int:
    edf_path, db_path = sys.argv[1], sys.argv[2]
    f = pyedflib.EdfReader(edf_path)
    start = f.getStartdatetime()
    base = calendar.timegm(start.timetuple()) + start.microsecond / 1e6
    onsets, durations, texts = f.readAnnotations()
    signals = f.signals_in_file
    f.close()
    ann = [(base + o, d, t) for o, d, t in zip(onsets, durations, texts)]

    db = sqlite3.connect(db_path)
    beats = db.execute(
        "SELECT stream, source, time, COALESCE(class, '?') FROM beats WHERE time IS NOT NULL ORDER BY time, stream").fetchall()
    quality = db.execute(
        "SELECT stream, label, window_start, window_end - window_start FROM ecg_quality WHERE label IS NOT NULL "
        "ORDER BY window_start, stream").fetchall()
    episodes = db.execute("SELECT stream, onset, duration_s FROM rhythm_episodes ORDER BY onset, stream").fetchall()

    def channel(stream: str) -> str:
        return "/".join(p for p in stream.split("/")[2:] if not p.startswith("session="))

    problems = []

    def compare(name, rows, expected_text, picked):
        picked.sort(key=lambda a: a[0])
        if len(picked) != len(rows):
            problems.append(f"{name}: {len(picked)} annotations, database {len(rows)} rows")
        bad = 0
        for row, a in zip(rows, picked):
            text, time, duration = expected_text(row)
            if a[2] != text or abs(a[0] - time) > 2e-6 or (duration is not None and abs(a[1] - duration) > 2e-6):
                bad += 1
                if bad <= 5:
                    problems.append(f"{name}: {a} vs {row}")
        print(f"{name}: {len(picked)} annotations, {len(rows)} database rows, {bad} differ")

    compare("beats", beats,
            lambda r: (("pulse" if r[1] == "ppg" else f"beat {r[3]}") + "@@" + channel(r[0]), r[2], None),
            [a for a in ann if a[2].startswith("beat ") or a[2].startswith("pulse@@")])
    compare("ecg_quality", quality, lambda r: (f"ECG quality {r[1]}@@{channel(r[0])}", r[2], r[3]),
            [a for a in ann if a[2].startswith("ECG quality ")])
    compare("rhythm_episodes", episodes, lambda r: (f"AF episode@@{channel(r[0])}", r[1], r[2]),
            [a for a in ann if a[2].startswith("AF episode@@")])
    others = [a for a in ann if not (a[2].startswith("beat ") or a[2].startswith("pulse@@")
                                      or a[2].startswith("ECG quality ") or a[2].startswith("AF episode@@"))]
    print(f"pyedflib {pyedflib.__version__}: {edf_path} opens, {signals} signal(s), {len(ann)} annotations "
          f"({len(others)} others: {sorted(set(a[2] for a in others))[:5]})")
    for p in problems:
        print("PROBLEM", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
