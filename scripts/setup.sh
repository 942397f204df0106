#!/usr/bin/env bash
# Installs the Debian packages SensorPipe links against, if any is missing.
# Works on a fresh Debian 12 with only the Swift toolchain; uses sudo when not root.
set -euo pipefail
# (zsh and groff-base only for tests: the zsh completion's syntax and the man page's rendering.)
packages=(libfftw3-dev liblapacke-dev libopenblas-dev libsqlite3-dev zlib1g-dev liblzma-dev pkg-config xz-utils zsh groff-base)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Headless Chromium renders the HTML reports in the report tests (Tests/ReportTests/BrowserTests);
# they skip without it. SENSORPIPE_SKIP_CHROMIUM=1 leaves it out.
if [ -z "${SENSORPIPE_SKIP_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  echo "setup: installing chromium (report browser tests)" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium ||
    echo "setup: chromium could not be installed; the report browser tests will skip" >&2
fi
