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
    python3 - "$single" "$shards/results.sqlite" "$n" "$1" "$shards" <<'EOF'
import collections, sqlite3, sys

single, merged, n, label, shard_dir = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]

def connect(path):
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)

def snapshot(path):
    """Every table but `runs` as a multiset of rows, with ids replaced by the recording's path."""
    con = connect(path)
    tables = [r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    path_of = dict(con.execute("SELECT id, path FROM recordings"))
    snap = {}
    for t in tables:
        if t == "runs":
            continue
        cols = [c[1] for c in con.execute(f'PRAGMA table_info("{t}")')]
        if t == "recordings":   # ids, run ids and times differ between runs by design
            cols = [c for c in cols if c not in ("id", "run_id", "started_at", "finished_at")]
        rows = con.execute(f'SELECT {", ".join(chr(34) + c + chr(34) for c in cols)} FROM "{t}"').fetchall()
        if "recording_id" in cols:
            i = cols.index("recording_id")
            rows = [r[:i] + (path_of.get(r[i], f"<no recording {r[i]}>"),) + r[i + 1:] for r in rows]
        snap[t] = collections.Counter(rows)
    return snap

a, b = snapshot(single), snapshot(merged)
problems = []
for t in sorted(set(a) | set(b)):
    ra, rb = a.get(t, collections.Counter()), b.get(t, collections.Counter())
    na, nb = sum(ra.values()), sum(rb.values())
    same = ra == rb
    print(f"  {t:<12} single {na:>7}  merged {nb:>7}  {'same rows' if same else 'DIFFERENT'}")
    if not same:
        extra, lost = rb - ra, ra - rb
        problems.append(f"{t}: {sum(lost.values())} row(s) only in the single run, "
                        f"{sum(extra.values())} only in the merge; e.g. {next(iter(lost or extra))!r:.300}")

# The shards must be disjoint and together hold the single run's recordings.
seen = {}
for k in range(1, n + 1):
    for (p,) in connect(f"{shard_dir}/shard-{k}-of-{n}.sqlite").execute("SELECT DISTINCT path FROM recordings"):
        if p in seen:
            problems.append(f"{p} is in shards {seen[p]} and {k}")
        seen[p] = k
single_paths = {p for (p,) in connect(single).execute("SELECT path FROM recordings")}
if set(seen) != single_paths:
    problems.append(f"the shards hold {len(seen)} recording(s), the single run {len(single_paths)}")
per_shard = collections.Counter(seen.values())
print(f"  recordings per shard: {', '.join(f'{k}: {per_shard[k]}' for k in range(1, n + 1))}")

for p in problems:
    print(f"DIFFERENCE ({label}): {p}", file=sys.stderr)
sys.exit(1 if problems else 0)
EOF
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
