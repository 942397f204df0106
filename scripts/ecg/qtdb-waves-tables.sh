#!/bin/sh
# The ECG waves tables of docs/VALIDATION.md ("ECG waves"), in one run on the same 15 QT Database
# records: SensorPipe (QTDBWavesValidationTests: pooled lead 0 / lead 1 / combined rows and the
# per-record tables, q1c and q2c) and the NeuroKit2 peer (qtdb-neurokit-delineate.py), then the
# gross-error breakdown (qtdb-waves-errors.py, from the release `sensorpipe` binary), then the
# window-level QT plausibility study (qtdb-qt-plausibility.py: the shipped QT spread and cross-lead rules
# and the alternatives, QTDB windows against the marks, the share of MIT-BIH windows each rule empties).
# Usage: scripts/ecg/qtdb-waves-tables.sh [OUTPUT.md]   (default /tmp/qtdb-waves-tables.md)
set -eu
cd "$(dirname "$0")/../.."
out=${1:-/tmp/qtdb-waves-tables.md}
SENSORPIPE_WAVES_TABLE="$out.sensorpipe" swift test -c release --filter QTDBWavesValidationTests
python3 scripts/ecg/qtdb-neurokit-delineate.py > "$out.neurokit"
swift build -c release --product sensorpipe
python3 scripts/ecg/qtdb-waves-errors.py > "$out.errors"
python3 scripts/ecg/qtdb-qt-plausibility.py > "$out.plausibility"
cat "$out.sensorpipe" "$out.neurokit" "$out.errors" "$out.plausibility" > "$out"
echo "written: $out"
