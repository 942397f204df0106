#!/usr/bin/env bash
# Measures the report of a multi-day recording: writes a DAYS-long synthetic ECG
# (scripts/make-long-ecg.py), analyses it with `sensorpipe run`, then times `sensorpipe report`
# and prints the page's size.
#
#   scripts/report-long-ecg.sh [DAYS] [WORKDIR]     (default 7 days, a temporary folder)
set -euo pipefail
cd "$(dirname "$0")/.."
days="${1:-7}"
work="${2:-$(mktemp -d)}"
swift build -c release --product sensorpipe >&2
[ -f "$work/long.hea" ] || python3 scripts/make-long-ecg.py "$days" "$work" long
start=$(date +%s.%N)
.build/release/sensorpipe run "$work/long.hea" --out "$work/results.sqlite" --quiet
mid=$(date +%s.%N)
.build/release/sensorpipe report "$work/results.sqlite" --out "$work/report"
end=$(date +%s.%N)
page="$work/report/recording-1.html"
echo "analysis: $(echo "$mid - $start" | bc) s; report: $(echo "$end - $mid" | bc) s; page: $(wc -c <"$page") bytes ($page)"
