#!/usr/bin/env bash
# libFuzzer runs of every decoder and of the manifest/configuration parsers (issue 15), of the
# report's database reader and of merge's shard input (issue 33).
#
#   scripts/fuzz.sh TARGET SECONDS [-- libFuzzer flags…]    one target (e.g. FuzzWFDB)
#   scripts/fuzz.sh all SECONDS                              every target, SECONDS each
#   scripts/fuzz.sh list                                     the targets
#
# The fuzz targets (Fuzz/<Target>/) exist only when SENSORPIPE_FUZZ is set, and are built with
# -sanitize=fuzzer,address into .build/fuzz, so the normal build is unaffected (linked with lld:
# gold fails on the sanitizer runtime). Each run is seeded
# from the fixtures and the malformed corpus (scripts/fuzz-seeds.py), keeps its growing corpus in
# .build/fuzz/corpus/<Target>, limits memory (-rss_limit_mb=512, -malloc_limit_mb=512) and time per
# input (-timeout=10 s), and writes crashes, timeouts and out-of-memory inputs to
# .build/fuzz-findings/<Target>/ (outside the scratch path: SwiftPM owns <scratch>/artifacts and
# empties it on every build). Exit status 1 when any run found one; the summary line per
# target gives the executions. A crash becomes a corpus file (Tests/RecordingsTests/Fixtures/bad)
# with a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(FuzzSensorKit FuzzMyDataHelps FuzzAppleHealth FuzzWFDB FuzzMATLAB FuzzCSV FuzzBUTPPG FuzzGT3X FuzzOpener FuzzManifest FuzzMerge FuzzReportDatabase FuzzHealthExport FuzzEDF)
if [ "${1:-}" = "list" ]; then printf '%s\n' "${targets[@]}"; exit 0; fi
[ $# -ge 2 ] || { echo "usage: scripts/fuzz.sh TARGET|all SECONDS [-- libFuzzer flags]" >&2; exit 64; }
which=$1; seconds=$2; shift 2
[ "${1:-}" = "--" ] && shift
if [ "$which" = all ]; then run=("${targets[@]}"); else run=("$which"); fi
export SENSORPIPE_FUZZ=1
scratch=.build/fuzz
mkdir -p "$scratch"
for t in "${run[@]}"; do
  swift build -c release --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld --product "$t" >&2
done
bin=$(swift build -c release --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld --show-bin-path)
seeds=$scratch/seeds
rm -rf "$seeds"; python3 scripts/fuzz-seeds.py "$seeds" >/dev/null
# Swift's runtime keeps metadata caches for the process's life (not leaks); a small quarantine keeps
# ASan's own memory well inside the RSS limit.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1:quarantine_size_mb=32}
status=0
for t in "${run[@]}"; do
  corpus=$scratch/corpus/$t; artifacts=.build/fuzz-findings/$t
  mkdir -p "$corpus" "$artifacts" "$seeds/$t"
  log=$scratch/$t.log
  before=$(ls "$artifacts" | wc -l)
  set +e
  "$bin/$t" "$corpus" "$seeds/$t" -max_total_time="$seconds" -rss_limit_mb=512 -malloc_limit_mb=512 \
    -timeout=10 -print_final_stats=1 -artifact_prefix="$artifacts/" "$@" >"$log" 2>&1
  rc=$?
  set -e
  execs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo "?")
  found=$(( $(ls "$artifacts" | wc -l) - before ))
  echo "fuzz $t: ${seconds}s, $execs executions, exit $rc, $found new artifact(s) in $artifacts"
  if [ $rc -ne 0 ] || [ "$found" -ne 0 ]; then status=1; tail -40 "$log" >&2; fi
done
exit $status
