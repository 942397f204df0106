#!/usr/bin/env python3
"""Writes Datasets/apple-health/export.zip in the layout of the Health app's
"Export All Health Data" archive: apple_health_export/export.xml (the excerpt) and
apple_health_export/electrocardiograms/ecg_<date>.csv (two made-up ECG CSVs of this repository,
Tests/RecordingsTests/Fixtures/health/synthetic-*.csv, named by their Recorded Date as the app
names them). Deflated, fixed timestamps, so the archive is reproducible.

usage: scripts/health/make_excerpt_zip.py
"""
import pathlib
import zipfile

root = pathlib.Path(__file__).resolve().parents[2]
members = [
    ("apple_health_export/export.xml", root / "Datasets/apple-health/export-excerpt.xml"),
    ("apple_health_export/electrocardiograms/ecg_2023-11-20.csv", root / "Tests/RecordingsTests/Fixtures/health/synthetic-decimal-comma.csv"),
    ("apple_health_export/electrocardiograms/ecg_2024-03-05.csv", root / "Tests/RecordingsTests/Fixtures/health/synthetic-english-quoted.csv"),
]
with zipfile.ZipFile(root / "Datasets/apple-health/export.zip", "w", zipfile.ZIP_DEFLATED) as z:
    for name, path in members:
        info = zipfile.ZipInfo(name, date_time=(2024, 5, 21, 9, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        z.writestr(info, path.read_bytes())
