#!/usr/bin/env bash
# Writes docs/sensorpipe.1 from the declared commands and options (`sensorpipe manpage`); a test
# fails when the committed page is stale. View it with `man -l docs/sensorpipe.1`.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product sensorpipe >/dev/null
.build/release/sensorpipe manpage > docs/sensorpipe.1
echo "wrote docs/sensorpipe.1"
