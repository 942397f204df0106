#!/usr/bin/env python3
"""Self-test of ecg_diff_compare.py on hand-made tables: identical outputs pass; each kind of
unexpected difference fails; the differences a mapping states pass and are reported.
Run: python3 scripts/differential/test_ecg_diff_compare.py (exit 0 when every case behaves)."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BEATS = [["stream", "time", "sample", "nn_ms"],
         ["r/electrocardiogram/MLII", "0.5", "180", ""],
         ["r/electrocardiogram/MLII", "1.3", "468", "800.0"],
         ["r/electrocardiogram/MLII", "2.1", "756", "800.0"]]
HR = [["stream", "window_start", "window_end", "bpm"], ["r/electrocardiogram/MLII", "0.0", "10.0", "75.0"]]


def write(root, side, tables, code=0):
    d = os.path.join(root, side, "rec", "tables")
    os.makedirs(d, exist_ok=True)
    for name, rows in tables.items():
        with open(os.path.join(d, name + ".csv"), "w") as f:
            f.write("".join(",".join(r) + "\n" for r in rows))
    with open(os.path.join(root, side, "rec", "exit_code"), "w") as f:
        f.write(f"{code}\n")
    open(os.path.join(root, side, "rec", "stderr.txt"), "w").close()


def run(new_tables, mapping=None, new_code=0):
    with tempfile.TemporaryDirectory() as root:
        write(root, "old", {"beats": BEATS, "heart_rate": HR})
        write(root, "new", new_tables, new_code)
        with open(os.path.join(root, "recordings.tsv"), "w") as f:
            f.write("rec\tsome/path.hea\n")
        args = [sys.executable, os.path.join(HERE, "ecg_diff_compare.py"), "--old", os.path.join(root, "old"),
                "--new", os.path.join(root, "new"), "--recordings", os.path.join(root, "recordings.tsv")]
        if mapping is not None:
            with open(os.path.join(root, "map.json"), "w") as f:
                json.dump(mapping, f)
            args += ["--mapping", os.path.join(root, "map.json")]
        return subprocess.run(args, capture_output=True, text=True)


def with_column(rows, name, values):
    return [rows[0] + [name]] + [r + [v] for r, v in zip(rows[1:], values)]


def main():
    renamed = [["stream", "time", "sample", "nn_interval_ms"]] + BEATS[1:]
    moved = [r[:] for r in BEATS]
    moved[2][1] = "1.31"
    cases = [
        ("identical outputs", {"beats": BEATS, "heart_rate": HR}, None, 0, 0),
        ("exit code differs", {"beats": BEATS, "heart_rate": HR}, None, 1, 1),
        ("heart_rate not byte-identical", {"beats": BEATS, "heart_rate": [HR[0], HR[1][:3] + ["75.00"]]}, None, 0, 1),
        ("beats cell differs", {"beats": moved, "heart_rate": HR}, None, 0, 1),
        ("beats cell differs in a column stated as changed", {"beats": moved, "heart_rate": HR},
         {"beats": {"changed": ["time"]}}, 0, 0),
        ("new column not in the mapping", {"beats": with_column(BEATS, "nn_time", ["", "", ""]), "heart_rate": HR}, None, 0, 1),
        ("new column ignored", {"beats": with_column(BEATS, "nn_time", ["", "", ""]), "heart_rate": HR},
         {"beats": {"ignore_new": ["nn_time"]}}, 0, 0),
        ("renamed column without mapping", {"beats": renamed, "heart_rate": HR}, None, 0, 1),
        ("renamed column with mapping", {"beats": renamed, "heart_rate": HR},
         {"beats": {"rename": {"nn_ms": "nn_interval_ms"}}}, 0, 0),
        ("an extra row", {"beats": BEATS + [BEATS[-1]], "heart_rate": HR}, None, 0, 1),
        ("an extra row the mapping drops", {"beats": with_column(BEATS + [BEATS[-1]], "inserted", ["0", "0", "0", "1"]),
                                            "heart_rate": HR},
         {"beats": {"ignore_new": ["inserted"], "drop_new_rows_where": {"inserted": ["1"]}}}, 0, 0),
        ("rows in another order", {"beats": [BEATS[0], BEATS[2], BEATS[1], BEATS[3]], "heart_rate": HR}, None, 0, 1),
        ("rows in another order, matched by order_by", {"beats": [BEATS[0], BEATS[2], BEATS[1], BEATS[3]], "heart_rate": HR},
         {"beats": {"order_by": ["stream", "time"]}}, 0, 0),
        ("a table missing", {"beats": BEATS}, None, 0, 1),
        ("a renamed table", {"beats": BEATS, "heart_rate_windows": HR}, {"rename_tables": {"heart_rate": "heart_rate_windows"}}, 0, 0),
        ("a new table", {"beats": BEATS, "heart_rate": HR, "stream_attributes": [["stream", "key", "value"]]}, None, 0, 1),
        ("a new table ignored", {"beats": BEATS, "heart_rate": HR, "stream_attributes": [["stream", "key", "value"]]},
         {"ignore_new_tables": ["stream_attributes"]}, 0, 0),
    ]
    failures = 0
    for name, tables, mapping, code, want in cases:
        r = run(tables, mapping, code)
        ok = r.returncode == want
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: exit {r.returncode} (want {want})")
        if not ok:
            print(r.stdout[-2000:], r.stderr[-2000:])
    print(f"{len(cases) - failures}/{len(cases)} cases behave")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
