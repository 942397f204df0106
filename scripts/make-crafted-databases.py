#!/usr/bin/env python3
"""Writes the crafted-input reproducers of issue 33 (hardening round 3, classes 7-14) into
Tests/PipelineTests/Fixtures/crafted/<command>/: results databases for `sensorpipe report`
(report/), shards for `sensorpipe merge` (merge/) and configuration files for `--config`
(config/). Each file has one defect, described in the folder's README.md.

The databases start from `sensorpipe run Datasets/ppg/phone-1_butppg_1716296400.ndjson.gz`
(one PPG recording, BUT PPG, CC BY 4.0), made by the binary given:

    python3 scripts/make-crafted-databases.py .build/release/sensorpipe
"""
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "Tests", "PipelineTests", "Fixtures", "crafted")
SOURCE = os.path.join(ROOT, "Datasets", "ppg", "phone-1_butppg_1716296400.ndjson.gz")


def base(binary, scratch):
    path = os.path.join(scratch, "base.sqlite")
    subprocess.run([binary, "run", SOURCE, "--out", path, "-q", "--jobs", "1"], check=True)
    c = sqlite3.connect(path)
    c.execute("PRAGMA journal_mode = DELETE")
    # Paths as a user's would be, not the build machine's.
    c.execute("UPDATE recordings SET path = '/data/phone-1_butppg_1716296400.ndjson.gz'")
    c.execute("UPDATE recording_files SET path = '/data/phone-1_butppg_1716296400.ndjson.gz'")
    c.commit()
    c.execute("PRAGMA page_size = 512")  # small files in the repository
    c.execute("VACUUM")
    c.close()
    return path


def derive(src, folder, name, statements, writable_schema=None):
    path = os.path.join(OUT, folder, name)
    shutil.copyfile(src, path)
    c = sqlite3.connect(path)
    for s in statements:
        c.execute(s)
    c.commit()
    if writable_schema:
        c.execute("PRAGMA writable_schema = ON")
        for s, args in writable_schema:
            c.execute(s, args)
        c.commit()
    c.close()
    print(path, os.path.getsize(path))


def main():
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as scratch:
        b = base(binary, scratch)
        # ---- report/ (class 7: single values; class 8: a session dated in milliseconds)
        derive(b, "report", "count-1e300.sqlite",
               ["UPDATE recordings SET samples_read = 1e300, size = 1e300, beats = -1e300",
                "UPDATE streams SET samples_read = 1e300 WHERE stream_index = 0",
                "UPDATE heart_rate SET beats = 1e300 WHERE rowid = 1"])
        derive(b, "report", "time-1e22.sqlite",
               ["UPDATE streams SET last_time = 1e22 WHERE stream_index = 0",
                "UPDATE heart_rate SET window_start = 1e22, window_end = 1e22 WHERE rowid = 2",
                "UPDATE recording_summary SET last_time = 1e22"])
        derive(b, "report", "time-minus-1e15.sqlite",
               ["UPDATE streams SET first_time = -1e15 WHERE stream_index = 0",
                "UPDATE ppg_quality SET window_start = -1e15 WHERE rowid = 1"])
        derive(b, "report", "rate-negative-huge.sqlite",
               ["UPDATE heart_rate SET bpm = -1.7e308 WHERE rowid = 3",
                "UPDATE streams SET measured_rate_hz = -1e300"])
        derive(b, "report", "rate-infinite.sqlite",
               ["UPDATE streams SET measured_rate_hz = 9e999",
                "UPDATE heart_rate SET bpm = 9e999 WHERE rowid = 4",
                "UPDATE heart_rate SET confidence = -9e999 WHERE rowid = 5"])
        derive(b, "report", "utc-offset-int-min.sqlite",
               ["INSERT INTO stream_attributes (recording_id, stream_index, key, value) "
                "SELECT recording_id, stream_index, 'utc_offset_s', '-9223372036854775808' FROM streams",
                "UPDATE recording_summary SET utc_offset_s = -9223372036854775808, time_basis = 'local'"])
        derive(b, "report", "session-in-milliseconds.sqlite",
               ["UPDATE streams SET last_time = last_time * 1000 WHERE stream_index = 1",
                "UPDATE heart_rate SET window_start = window_start * 1000, window_end = window_end * 1000 "
                "WHERE rowid % 7 = 0"])
        # ---- merge/ (class 10: SQL stored in a shard; class 11: junk)
        derive(b, "merge", "schema-extra-statements.sqlite",
               ["CREATE TABLE evil (recording_id INTEGER)", "INSERT INTO evil VALUES (1)"],
               writable_schema=[("UPDATE sqlite_master SET sql = ? WHERE name = 'evil'",
                                 ("CREATE TABLE evil(recording_id INTEGER); DELETE FROM main.heart_rate; "
                                  "CREATE TRIGGER main.planted AFTER INSERT ON beats BEGIN DELETE FROM heart_rate; END",))])
        derive(b, "merge", "declared-table-extra-statements.sqlite", [],
               writable_schema=[("UPDATE sqlite_master SET sql = sql || ?"
                                 " WHERE name = 'ppg_quality' AND type = 'table'",
                                 ("; DELETE FROM main.heart_rate",))])
        derive(b, "merge", "trigger.sqlite",
               ["CREATE TRIGGER planted AFTER INSERT ON beats BEGIN DELETE FROM heart_rate; END"])
        derive(b, "merge", "view-named-as-table.sqlite",
               ["DROP TABLE features", "CREATE VIEW features AS SELECT * FROM heart_rate"])
        derive(b, "merge", "extra-column.sqlite", ["ALTER TABLE heart_rate ADD COLUMN payload TEXT"])
        junk = os.path.join(OUT, "merge", "not-a-database.sqlite")
        with open(junk, "wb") as f:
            f.write(bytes((i * 73 + 11) % 256 for i in range(4096)))
        print(junk, 4096)
    # ---- config/ (class 13)
    for name, text in [
        ("missing-comma.json", '{\n  "ppg": {\n    "heart_rate_window_s": 10\n    "heart_rate_step_s": 5\n  }\n}\n'),
        ("unclosed.json", '{"ecg": {"hrv_window_s": 300}\n'),
        ("deep.json", "[" * 100000),
    ]:
        path = os.path.join(OUT, "config", name)
        with open(path, "w") as f:
            f.write(text)
        print(path, len(text))


main()
