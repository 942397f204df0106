#!/usr/bin/env bash
# Runs scripts/slurm/sensorpipe-array.sbatch for every task of an N-task array on this machine
# (the SLURM_ARRAY_* variables set as Slurm sets them; no Slurm needed), then merge.sbatch, then
# checks with python3's sqlite3 module that the merged database equals one unsharded
# `sensorpipe run` over the same INPUTs: the same recordings (path, hashes, status, error, QC
# totals), the same rows in every other table (ids aside; row counts and contents per table),
# no recording in two shards. Then it resubmits every task, checks that nothing was analysed
# again, merges again and compares again.
#
#   scripts/slurm/simulate-array.sh [--shards N] [--first-id 0|1] [--work DIR] INPUT… [-- RUN-OPTION…]
#
# --shards    N array tasks (default 3)
# --first-id  first array task id, 1 as in --array=1-N or 0 as in --array=0-(N-1) (default 1)
# --work      folder for the shard, merged and single-run databases (default: a new temporary
#             folder, removed when everything matches)
# Environment: SENSORPIPE (binary; default .build/release/sensorpipe of this checkout),
# SLURM_CPUS_PER_TASK (--jobs of each task and of the single run; default 2).
#
# Exit codes: 0 merged = single run, 1 a difference or a failed step, 64 misuse.
set -euo pipefail

me=simulate-array
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd -- "$here/../.." && pwd)
usage() { sed -n '/^# Runs/,/^# Exit codes/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }
die() { echo "$me: error: $1" >&2; exit "${2:-64}"; }

n=3 first=1 work="" inputs=() run_options=()
while (($#)); do
    case $1 in
        -h | --help) usage; exit 0 ;;
        --shards | --first-id | --work)
            (($# >= 2)) || die "$1 needs a value"
            case $1 in --shards) n=$2 ;; --first-id) first=$2 ;; --work) work=$2 ;; esac
            shift 2 ;;
        --) shift; run_options=("$@"); break ;;
        -*) die "unknown option '$1' (see --help)" ;;
        *) inputs+=("$1"); shift ;;
    esac
done
((${#inputs[@]} > 0)) || die "no INPUT given (e.g. $me Datasets)"
[[ $n =~ ^[1-9][0-9]*$ ]] || die "--shards needs a positive integer, got '$n'"
[[ $first == 0 || $first == 1 ]] || die "--first-id must be 0 or 1, got '$first'"
bin=${SENSORPIPE:-$repo/.build/release/sensorpipe}
[[ -x $bin ]] || die "no executable at SENSORPIPE='$bin' (build with swift build -c release)"
command -v python3 >/dev/null || die "python3 is needed for the comparison" 1
cpus=${SLURM_CPUS_PER_TASK:-2}
keep=1
if [[ -z $work ]]; then
    work=$(mktemp -d "${TMPDIR:-/tmp}/sensorpipe-simulate.XXXXXX")
    keep=0
fi
mkdir -p -- "$work"
shards="$work/shards"
single="$work/single.sqlite"
last=$((first + n - 1))

run_array() {
    for ((task = first; task <= last; task++)); do
        env SLURM_ARRAY_JOB_ID=0 SLURM_ARRAY_TASK_ID="$task" SLURM_ARRAY_TASK_MIN="$first" \
            SLURM_ARRAY_TASK_MAX="$last" SLURM_ARRAY_TASK_COUNT="$n" SLURM_CPUS_PER_TASK="$cpus" \
            SLURM_SUBMIT_DIR="$PWD" SENSORPIPE="$bin" \
            bash "$here/sensorpipe-array.sbatch" --out-dir "$shards" "${inputs[@]}" -- "${run_options[@]}" ||
            die "array task $task failed" 1
    done
    env SENSORPIPE="$bin" bash "$here/merge.sbatch" --out-dir "$shards" || die "merge failed" 1
}

compare() {   # compare PASS
    local shard_files=()
    for ((k = 1; k <= n; k++)); do shard_files+=("$shards/shard-$k-of-$n.sqlite"); done
    python3 "$here/compare-databases.py" "$single" "$shards/results.sqlite" "$1" "${shard_files[@]}"
}

echo "$me: $n shards (array ids $first-$last), work folder $work"
rm -rf -- "$shards" "$single" "$single-wal" "$single-shm"
echo "$me: [1/4] array tasks and merge"
run_array
echo "$me: [2/4] one unsharded run over the same inputs"
abs=()
for p in "${inputs[@]}"; do abs+=("$(realpath -s -- "$p")"); done
status=0
"$bin" run "${abs[@]}" --jobs "$cpus" --out "$single" "${run_options[@]}" >"$work/single.log" || status=$?
((status <= 1)) || die "the single run failed with exit code $status (see $work/single.log)" 1
tail -n 1 "$work/single.log"
echo "$me: [3/4] merged vs single"
compare "first submission" || die "the merged database differs from the single run (kept in $work)" 1

echo "$me: [4/4] resubmission: every task again, merge again"
run_array
for ((k = 1; k <= n; k++)); do
    analysed=$(python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("SELECT recordings_ok FROM runs ORDER BY id DESC LIMIT 1").fetchone()[0])' \
        "$shards/shard-$k-of-$n.sqlite")
    [[ $analysed == 0 ]] || die "resubmitted shard $k analysed $analysed recording(s) again instead of skipping them" 1
done
compare "after resubmission" || die "the merged database differs from the single run after resubmitting (kept in $work)" 1

echo "$me: OK: the merge of $n shards equals the unsharded run, before and after resubmission"
if ((keep == 0)); then rm -rf -- "$work"; fi
