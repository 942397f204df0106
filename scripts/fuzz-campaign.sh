#!/usr/bin/env bash
# A long libFuzzer campaign counted towards a goal of executions per target (issue 15: ≥ 10^7 per
# decoder with 0 crashes, timeouts and out-of-memory). Runs each named target in slices until its
# total in the ledger (Fuzz/ledger.tsv: target, executions, when/how) reaches GOAL, then the next;
# stops early when /tmp/fuzz-stop exists. Start one per core:
#
#   scripts/fuzz-campaign.sh FuzzMyDataHelps FuzzSensorKit &
#   scripts/fuzz-campaign.sh FuzzWFDB FuzzAppleHealth FuzzCSV &
#
# Environment: GOAL (10000000), SLICE seconds per run (300), NICE (10), MAXLEN bytes (4096),
# TIMEOUT seconds per input (10; the database targets of issue 33 at nice 19 on a loaded machine
# need more wall time per input, as libFuzzer's timeout is wall-clock), FUZZ_FLAGS (more
# libFuzzer flags, e.g. -report_slow_units=120: a slow unit is an artifact, and stops the target).
# Same flags as scripts/fuzz.sh (-rss_limit_mb=512 -malloc_limit_mb=512 -timeout=10), plus
# -max_len and ASan's malloc_context_size=0 (no allocation stacks recorded: the time goes to
# inputs). Findings go to .build/fuzz-findings/<target> (SwiftPM empties <scratch>/artifacts on
# every build, which lost a finding once). A slice that leaves an artifact, prints a libFuzzer
# SUMMARY line, or ends without its final statistics, stops that target and keeps its log as
# .build/fuzz/FOUND-<target>-<time>.log. The fuzz binaries must exist
# (scripts/fuzz.sh TARGET 1 builds them).
set -uo pipefail
cd "$(dirname "$0")/.."
export SENSORPIPE_FUZZ=1
bin=.build/fuzz/release
seeds=.build/fuzz/seeds
# Seeds are written afresh from the fixtures every time (as scripts/fuzz.sh does): kept from an
# earlier checkout they go stale (once FuzzMerge ran 10^6 executions on shard seeds of an
# older schema, every one refused before the copy step).
rm -rf "$seeds"; python3 scripts/fuzz-seeds.py "$seeds" >/dev/null
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:quarantine_size_mb=32:malloc_context_size=0
ledger=Fuzz/ledger.tsv
goal=${GOAL:-10000000}
total() { awk -F'\t' -v t="$1" '$1==t{s+=$2} END{print s+0}' "$ledger"; }
for t in "$@"; do
  [ -x "$bin/$t" ] || { echo "fuzz-campaign: $bin/$t missing (build it with scripts/fuzz.sh $t 1)" >&2; exit 64; }
  while [ ! -e /tmp/fuzz-stop ]; do
    left=$((goal - $(total "$t"))); [ "$left" -le 0 ] && break
    corpus=.build/fuzz/corpus/$t; artifacts=.build/fuzz-findings/$t
    mkdir -p "$corpus" "$artifacts" "$seeds/$t"
    log=.build/fuzz/$t-$(date +%s).log
    before=$(ls "$artifacts" | wc -l); start=$(date -u +%FT%TZ)
    nice -n "${NICE:-10}" "$bin/$t" "$corpus" "$seeds/$t" -runs="$left" -max_total_time="${SLICE:-300}" \
      -rss_limit_mb=512 -malloc_limit_mb=512 -timeout="${TIMEOUT:-10}" -max_len="${MAXLEN:-4096}" -print_final_stats=1 \
      -artifact_prefix="$artifacts/" ${FUZZ_FLAGS:-} >"$log" 2>&1
    rc=$?
    execs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$')
    [ -z "$execs" ] && execs=$(grep -Eo '^#[0-9]+' "$log" | tail -1 | tr -d '#')
    rate=$(grep -Eo 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -Eo '[0-9]+$')
    found=$(($(ls "$artifacts" | wc -l) - before))
    printf '%s\t%s\t%s rc=%s rate=%s new_artifacts=%s\n' "$t" "${execs:-0}" "$start" "$rc" "${rate:-?}" "$found" >>"$ledger"
    # A crash, timeout or out-of-memory stops the target even if its input file went missing.
    if [ "$found" -ne 0 ] || grep -q '^SUMMARY: ' "$log" || ! grep -q 'stat::number_of_executed_units' "$log"; then
      cp "$log" ".build/fuzz/FOUND-$t-$(date +%s).log"
      echo "fuzz-campaign: $t stopped, see .build/fuzz/FOUND-$t-*.log" >&2
      break
    fi
  done
done
