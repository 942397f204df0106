"""Loads the long CSV tables of `sensorpipe run --format csv` (one file per table for the whole
batch, a first column `recording` with the recording's path) with pandas, one call each.

    sensorpipe run Datasets --format csv --out results      # add --gzip for beats.csv.gz, ...
    python3 scripts/examples/load_csv_tables.py results
"""
import os
import sys

import pandas as pd

folder = sys.argv[1] if len(sys.argv) > 1 else "results"


def table(name):
    """One table for the whole batch: `<name>.csv` or `<name>.csv.gz` (pandas reads both)."""
    path = os.path.join(folder, name + ".csv")
    return pd.read_csv(path if os.path.exists(path) else path + ".gz")


beats = table("beats")
heart_rate = table("heart_rate")
recordings = pd.read_csv(os.path.join(folder, "recordings.csv"))  # status, error, QC per recording

print(recordings[["path", "status", "beats"]])
print(heart_rate.groupby("recording")["bpm"].agg(["count", "mean", "min", "max"]))
