#!/usr/bin/env bash
# Rhythm family (issue 29): fit the model and regenerate the "Rhythm" tables of docs/VALIDATION.md.
#
#   scripts/rhythm/validation.sh fit        # CinC 2017 rows -> scripts/rhythm/fit.py -> RhythmModelParameters.swift
#   scripts/rhythm/validation.sh            # CinC, MIT-BIH, NSTDB, SPC, Apple Watch rows -> tables on stdout,
#                                           # then BIDMC PPG vs ECG (scripts/rhythm/bidmc-kappa.py, bidmc-disagreement.py)
#
# Release build of sensorpipe; databases in $RHYTHM_OUT (default /tmp/sensorpipe-rhythm).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${SENSORPIPE_BIN:-.build/release/sensorpipe}
D=${SENSORPIPE_DATASETS:-../shared/datasets}
OUT=${RHYTHM_OUT:-/tmp/sensorpipe-rhythm}
mkdir -p "$OUT"
run() { # name, folder, extra flags
    local name=$1 folder=$2
    shift 2
    rm -f "$OUT/$name.sqlite"
    "$BIN" run "$folder" --out "$OUT/$name.sqlite" --features-catalog none --jobs 2 "$@" >"$OUT/$name.log" 2>&1 ||
        echo "$name: some inputs failed (not recordings, or refused): see $OUT/$name.log" >&2
}
cinc_features() {
    python3 - "$OUT/cinc.sqlite" "$OUT/cinc-features.csv" <<'PY'
import csv, sqlite3, sys
con = sqlite3.connect(sys.argv[1])
cur = con.execute("SELECT * FROM rhythm WHERE source = 'ecg'")
names = [d[0] for d in cur.description]
with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["record"] + names)
    for r in cur:
        w.writerow([r[names.index("stream")].split("/")[0]] + ["" if v is None else v for v in r])
PY
}
# The CinC headers' checksum field is 0: read by default, with a warning per record.
run cinc "$D/cinc2017/records" --include '*.hea'
if [[ "${1:-}" == fit ]]; then
    cinc_features
    python3 scripts/rhythm/fit.py "$OUT/cinc-features.csv" "$D/cinc2017/records/REFERENCE-v3.csv" "${@:2}" | tee "$OUT/cv.txt"
    swift format format -i Sources/Rhythm/RhythmModelParameters.swift
    exit 0
fi
run mitdb "$D/mitdb" --include "*.hea"
mkdir -p "$OUT/nstdb"
for r in 118e06 119e06; do cp "$D/nstdb/$r".* "$OUT/nstdb/"; done
run nstdb "$OUT/nstdb" --include "*.hea"
run watch "$D/apple-watch-ecg" --exclude '*.md'
run spc "$D/spc2015" --exclude '*_BPMtrace.mat' --exclude '*.md'
python3 scripts/rhythm/validate.py --out-dir "$OUT" --datasets "$D"
python3 scripts/rhythm/bidmc-kappa.py --sensorpipe "$BIN" --data "$D/bidmc/records" --out "$OUT/bidmc"
python3 scripts/rhythm/bidmc-disagreement.py --data "$D/bidmc/records" --out "$OUT/bidmc"
