#!/usr/bin/env bash
# Regenerates the README's report screenshots: runs the bundled Datasets/ through
# `sensorpipe run --report` and photographs, with headless Chromium (Debian: apt-get install -y
# chromium), the page of MIT-BIH 100 (docs/images/report-mitdb100.png) and the PPG and motion
# sections of the BUT PPG and ActiGraph demo pages (docs/images/report-ppg.png,
# docs/images/report-motion.png: the page's header, style and that section only, so the picture
# shows the section rather than the page's top).
#
#   scripts/report-screenshot.sh [OUTPUT-FOLDER]      (SENSORPIPE=path: use that binary, no build)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/images}"
chromium="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
[ -n "$chromium" ] || { echo "report-screenshot: chromium not found (apt-get install -y chromium)" >&2; exit 1; }
sensorpipe="${SENSORPIPE:-}"
if [ -z "$sensorpipe" ]; then
  swift build -c release --product sensorpipe >&2
  sensorpipe=.build/release/sensorpipe
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$sensorpipe" run Datasets --out "$work/results.sqlite" --report --quiet >&2
mkdir -p "$out"
shoot() { # page, size, output
  "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --user-data-dir="$work/profile" --window-size="$2" --screenshot="$work/shot.png" "file://$1" 2>/dev/null
  cp "$work/shot.png" "$3"
  echo "report-screenshot: $3 ($(wc -c <"$3") bytes) from $1" >&2
}
# One family's section of a page, on a page of its own (same style and pattern definitions).
section() { # page, family, output html
  python3 - "$1" "$2" "$3" <<'PY'
import re, sys
page, family, out = sys.argv[1:]
s = open(page, encoding="utf-8").read()
head = s[: s.index("</h1>") + 5]
start = s.index('<section class="family" data-family="%s">' % family)
end = s.index("</section>", start) + len("</section>")
open(out, "w", encoding="utf-8").write(head + s[start:end] + "</body></html>\n")
PY
}
shoot "$(grep -l "mitdb100" "$work"/results-report/recording-*.html | head -1)" 1100,1900 "$out/report-mitdb100.png"
section "$(grep -l "butppg" "$work"/results-report/recording-*.html | head -1)" ppg "$work/ppg.html"
shoot "$work/ppg.html" 1100,1250 "$out/report-ppg.png"
section "$(grep -l "actigraph_example" "$work"/results-report/recording-*.html | head -1)" motion "$work/motion.html"
shoot "$work/motion.html" 1100,1650 "$out/report-motion.png"
