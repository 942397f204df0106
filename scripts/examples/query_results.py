"""Queries a `sensorpipe run` database (docs/RESULTS.md) with sqlite3 and pandas.

    python3 scripts/examples/query_results.py results.sqlite

A database can hold several analyses of one path (the file changed, or a run used other
options); these queries take each path's latest `ok` row (highest `recordings.id`).
"""
import sqlite3
import sys

import pandas as pd

path = sys.argv[1] if len(sys.argv) > 1 else "results.sqlite"
con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)  # read-only; fails if the file is missing
pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 20)

LATEST = """
    latest AS (SELECT * FROM recordings r WHERE status = 'ok'
               AND id = (SELECT MAX(id) FROM recordings WHERE path = r.path AND status = 'ok'))
"""

# 1. Mean heart rate per recording and stream: the mean of the windowed `bpm` values
#    (windows with fewer than 2 NN intervals have bpm NULL and are left out by AVG/COUNT).
heart_rate = pd.read_sql_query(f"""
    WITH {LATEST}
    SELECT l.path, h.stream, COUNT(h.bpm) AS windows, AVG(h.bpm) AS mean_bpm,
           MIN(h.bpm) AS min_bpm, MAX(h.bpm) AS max_bpm, SUM(h.beats) AS nn_intervals
    FROM heart_rate h JOIN latest l ON l.id = h.recording_id
    GROUP BY l.id, h.stream
    ORDER BY l.path, h.stream
""", con)
print("Mean heart rate per recording:")
print(heart_rate.to_string(index=False))

# 2. HRV per 5-minute window (scope = 'window'; the whole-stream row has scope = 'recording').
hrv = pd.read_sql_query(f"""
    WITH {LATEST}
    SELECT l.path, v.stream, v.window_start, v.window_end,
           v.MeanNN, v.SDNN, v.RMSSD, v.pNN50, v.LF, v.HF, v.LFHF
    FROM hrv v JOIN latest l ON l.id = v.recording_id
    WHERE v.scope = 'window'
    ORDER BY l.path, v.stream, v.window_start
""", con)
print(f"\nHRV per 5-min window ({len(hrv)} windows):")
print(hrv.round(2).to_string(index=False) if len(hrv) else "  none (no stream holds a complete 5-min window of beats)")

# 3. Recordings whose last attempt failed, with the error (none if a later attempt succeeded).
failed = pd.read_sql_query("""
    SELECT r.path, r.error, datetime(r.finished_at, 'unixepoch') AS failed_at_utc
    FROM recordings r
    WHERE r.status = 'failed'
      AND NOT EXISTS (SELECT 1 FROM recordings o WHERE o.path = r.path AND o.id > r.id)
    ORDER BY r.path
""", con)
print(f"\nFailed recordings ({len(failed)}):")
print(failed.to_string(index=False) if len(failed) else "  none")

# 4. QC accounting: every sample read is emitted, dropped as a duplicate or rejected,
#    per stream and summed per recording.
streams = pd.read_sql_query(f"""
    WITH {LATEST}
    SELECT l.path, s.stream, s.samples_read, s.samples_emitted, s.duplicates_dropped, s.rejected
    FROM streams s JOIN latest l ON l.id = s.recording_id
""", con)
recordings = pd.read_sql_query(f"""
    WITH {LATEST}
    SELECT path, samples_read, samples_emitted, duplicates_dropped, rejected FROM latest
""", con)
for name, table in [("streams", streams), ("recordings", recordings)]:
    table["unaccounted"] = table.samples_read - (table.samples_emitted + table.duplicates_dropped
                                                 + table.rejected)
    bad = table[table.unaccounted != 0]
    print(f"\nQC accounting, {name}: {len(table) - len(bad)} of {len(table)} balanced "
          "(samples_read = samples_emitted + duplicates_dropped + rejected)")
    if len(bad):
        print(bad.to_string(index=False))
con.close()
