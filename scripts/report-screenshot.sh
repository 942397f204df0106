#!/usr/bin/env bash
# Regenerates the README's report screenshot (docs/images/report-mitdb100.png): runs the bundled
# Datasets/ through `sensorpipe run --report` and photographs one recording's page with headless
# Chromium (Debian: apt-get install -y chromium).
#
#   scripts/report-screenshot.sh [OUTPUT.png]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/images/report-mitdb100.png}"
chromium="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
[ -n "$chromium" ] || { echo "report-screenshot: chromium not found (apt-get install -y chromium)" >&2; exit 1; }
swift build -c release --product sensorpipe >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
.build/release/sensorpipe run Datasets --out "$work/results.sqlite" --report --quiet >&2
page=$(grep -l "mitdb100" "$work"/results-report/recording-*.html | head -1)
"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
  --user-data-dir="$work/profile" --window-size=1100,1900 --screenshot="$work/shot.png" "file://$page" 2>/dev/null
mkdir -p "$(dirname "$out")"
cp "$work/shot.png" "$out"
echo "report-screenshot: $out ($(wc -c <"$out") bytes) from $page" >&2
