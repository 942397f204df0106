#!/usr/bin/env bash
# Simulates a large study on this machine: COUNT synthetic recordings by manifest
# (make-synthetic-study.py), split into N shards for each N in SHARDS, every shard run with
# sensorpipe-array.sbatch (the SLURM_ARRAY_* variables set as Slurm sets them, tasks one after
# another), then merged; measures wall time and peak memory (/usr/bin/time -v) of
#   - the shard tasks (sum over tasks, and the largest peak memory of one task),
#   - `sensorpipe merge` of the N shards alone, and the whole merge.sbatch (its checks + merge),
#   - resuming: every task resubmitted when all is done (each only skips), merge.sbatch again,
#     and `sensorpipe merge` of the same shards into the existing results (nothing to copy),
# checks that the merge equals one unsharded run (compare-databases.py) and prints a Markdown
# table (also written to WORK/results.md).
#
#   scripts/slurm/simulate-study.sh [--count 10000] [--shards "10 50 100 500"] [--jobs 2] [--work DIR]
#
# --count   synthetic recordings (30-s Apple Watch ECG sessions, 100 per participant)
# --shards  shard counts to try
# --jobs    --jobs of the unsharded run and SLURM_CPUS_PER_TASK of each task (default 2)
# --work    folder for the study, the shards and the databases (default: a new temporary folder,
#           removed at the end); an existing study in it (study.manifest) is reused
# Environment: SENSORPIPE (binary; default .build/release/sensorpipe of this checkout).
#
# Exit codes: 0 done and every merge equal to the unsharded run, 1 a failure, 64 misuse.
set -euo pipefail

me=simulate-study
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd -- "$here/../.." && pwd)
usage() { sed -n '/^# Simulates/,/^# Exit codes/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }
die() { echo "$me: error: $1" >&2; exit "${2:-64}"; }

count=10000 shard_counts="10 50 100 500" jobs=2 work=""
while (($#)); do
    case $1 in
        -h | --help) usage; exit 0 ;;
        --count | --shards | --jobs | --work)
            (($# >= 2)) || die "$1 needs a value"
            case $1 in --count) count=$2 ;; --shards) shard_counts=$2 ;; --jobs) jobs=$2 ;; --work) work=$2 ;; esac
            shift 2 ;;
        *) die "unexpected argument '$1' (see --help)" ;;
    esac
done
[[ $count =~ ^[1-9][0-9]*$ ]] || die "--count needs a positive integer, got '$count'"
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "--jobs needs a positive integer, got '$jobs'"
for n in $shard_counts; do [[ $n =~ ^[1-9][0-9]*$ ]] || die "--shards: '$n' is not a positive integer"; done
bin=${SENSORPIPE:-$repo/.build/release/sensorpipe}
[[ -x $bin ]] || die "no executable at SENSORPIPE='$bin' (build with swift build -c release)"
[[ -x /usr/bin/time ]] || die "/usr/bin/time (GNU time, Debian package 'time') is needed for peak memory" 1
command -v python3 >/dev/null || die "python3 (numpy) is needed" 1
keep=1
if [[ -z $work ]]; then work=$(mktemp -d "${TMPDIR:-/tmp}/sensorpipe-study.XXXXXX"); keep=0; fi
mkdir -p -- "$work"
work=$(realpath -s -- "$work")
study=$work/study
manifest=$study/study.manifest

# measure LABEL COMMAND…: runs it under /usr/bin/time -v; sets m_wall (s) and m_rss (MB).
measure() {
    local label=$1 log=$work/time-$1.log
    shift
    /usr/bin/time -v -o "$log" "$@" >"$work/out-$label.log" 2>&1 || {
        tail -n 20 "$work/out-$label.log" >&2
        die "$label failed (see $work/out-$label.log)" 1
    }
    m_wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$log")
    m_rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$log")
}

# tasks N OUT LABEL: every task of an N-task array, one after another; sets t_wall (s, sum) and
# t_rss (MB, largest task).
tasks() {
    local n=$1 out=$2 k
    t_wall=0 t_rss=0
    for ((k = 1; k <= n; k++)); do
        measure "$3-task" env SLURM_ARRAY_JOB_ID=0 SLURM_ARRAY_TASK_ID="$k" SLURM_ARRAY_TASK_MIN=1 \
            SLURM_ARRAY_TASK_MAX="$n" SLURM_ARRAY_TASK_COUNT="$n" SLURM_CPUS_PER_TASK="$jobs" \
            SENSORPIPE="$bin" bash "$here/sensorpipe-array.sbatch" --out-dir "$out" "$manifest"
        t_wall=$(awk -v a="$t_wall" -v b="$m_wall" 'BEGIN {print a + b}')
        ((m_rss <= t_rss)) || t_rss=$m_rss
    done
}

mb() { du -sb --apparent-size -- "$@" | awk '{s += $1} END {printf "%.1f", s / 1e6}'; }

if [[ ! -s $manifest ]]; then
    echo "$me: writing $count synthetic recordings to $study"
    python3 "$here/make-synthetic-study.py" "$study" --count "$count" --jobs "$jobs"
else
    count=$(grep -vc '^#' "$manifest")
    echo "$me: reusing the $count recordings of $manifest"
fi
input_mb=$(mb "$study")

echo "$me: one unsharded run"
rm -f -- "$work/single.sqlite" "$work/single.sqlite-wal" "$work/single.sqlite-shm"
measure single "$bin" run "$manifest" --jobs "$jobs" --out "$work/single.sqlite" --quiet
single_wall=$m_wall single_rss=$m_rss
single_mb=$(mb "$work/single.sqlite")
rows=$(python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
tables = ("recordings", "beats", "heart_rate", "hrv", "ecg_quality", "streams")
print(", ".join("%s %d" % (t, c.execute("SELECT COUNT(*) FROM " + t).fetchone()[0]) for t in tables))' "$work/single.sqlite")
echo "$me:   ${single_wall} s, ${single_rss} MB; $rows"

table="| shards | tasks: Σ wall s | task peak MB | merge s | merge peak MB | merge.sbatch s | merge.sbatch peak MB | resubmit all: Σ wall s | merge.sbatch again s | merge into existing s | shard files MB | results MB |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for n in $shard_counts; do
    out=$work/shards-$n
    rm -rf -- "$out"
    echo "$me: $n shards"
    tasks "$n" "$out" "n$n"
    tw=$t_wall tr=$t_rss
    shard_files=()
    for ((k = 1; k <= n; k++)); do shard_files+=("$out/shard-$k-of-$n.sqlite"); done
    shards_mb=$(mb "${shard_files[@]}")
    measure "n$n-merge" "$bin" merge "${shard_files[@]}" --out "$work/merge-$n.sqlite"
    mw=$m_wall mr=$m_rss
    rm -f -- "$work/merge-$n.sqlite"
    measure "n$n-mergesbatch" env SENSORPIPE="$bin" bash "$here/merge.sbatch" --out-dir "$out"
    sw=$m_wall sr=$m_rss
    python3 "$here/compare-databases.py" "$work/single.sqlite" "$out/results.sqlite" "$n shards" "${shard_files[@]}" \
        >"$work/compare-$n.log" || { cat "$work/compare-$n.log" >&2; die "the merge of $n shards differs from the unsharded run" 1; }
    results_mb=$(mb "$out/results.sqlite")
    echo "$me:   tasks ${tw} s (peak ${tr} MB); merge ${mw} s (${mr} MB); merge.sbatch ${sw} s (${sr} MB); equal to the unsharded run"
    tasks "$n" "$out" "n$n-again"
    rw=$t_wall
    again=$(python3 -c 'import sqlite3, sys
print(sum(sqlite3.connect(p).execute("SELECT recordings_ok + recordings_failed FROM runs ORDER BY id DESC LIMIT 1").fetchone()[0] for p in sys.argv[1:]))' "${shard_files[@]}")
    [[ $again == 0 ]] || die "resubmitting the $n tasks analysed $again recording(s) again" 1
    measure "n$n-mergesbatch-again" env SENSORPIPE="$bin" bash "$here/merge.sbatch" --out-dir "$out"
    aw=$m_wall
    measure "n$n-merge-existing" "$bin" merge "${shard_files[@]}" --out "$out/results.sqlite"
    ew=$m_wall
    grep -q " 0 recording(s) merged, $count already present" "$work/out-n$n-merge-existing.log" ||
        die "merging into the existing results copied something: $(tail -n 1 "$work/out-n$n-merge-existing.log")" 1
    echo "$me:   resubmitted tasks ${rw} s (0 analysed); merge.sbatch again ${aw} s; merge into the existing results ${ew} s"
    table+=$'\n'"| $n | $tw | $tr | $mw | $mr | $sw | $sr | $rw | $aw | $ew | $shards_mb | $results_mb |"
    rm -rf -- "$out"
done

summary="$count recordings ($input_mb MB gzip NDJSON); unsharded run (--jobs $jobs): $single_wall s, peak $single_rss MB, $single_mb MB database; rows: $rows"
printf '%s\n\n%s\n' "$summary" "$table" | tee "$work/results.md"
if ((keep == 0)); then rm -rf -- "$work"; else echo "$me: kept $work"; fi
