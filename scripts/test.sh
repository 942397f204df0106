#!/usr/bin/env bash
# The whole test suite: installs missing system libraries, then runs every test from a release
# build (validation suites over ../shared/datasets are numeric-heavy; debug builds are ~80x slower).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# Formatting is mechanical (.swift-format): the lint fails on any difference.
swift format lint --strict --recursive Sources Tests Benchmarks Examples Fuzz Package.swift
swift build -c release 2>&1 | tee /tmp/sensorpipe-build.log
if grep -q "warning:" /tmp/sensorpipe-build.log; then
  echo "test: the release build printed warnings (see above)" >&2
  exit 1
fi
swift test -c release "$@"
