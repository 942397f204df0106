#!/usr/bin/env bash
# Runs the Slurm scripts on a real one-node Slurm cluster on this machine (CI; needs root).
#
#   scripts/slurm/test-cluster.sh
#
# 1. Installs Debian's slurm-wlm and munge when missing (apt-get update, apt-get install -y);
#    when they cannot be installed (no root, no apt-get, no network) it prints SKIPPED and exits 0.
# 2. Starts munged as the munge user (key /etc/munge/munge.key, generated if absent; socket, log
#    and pid file in a temporary folder), writes a slurm.conf for one node on 127.0.0.1 (this
#    machine's CPUs and memory from `slurmd -C`; proctrack/linuxproc, task/none, select/cons_tres:
#    no cgroups needed; free ports; state, spool and logs under the temporary folder) and starts
#    slurmctld and slurmd. The commands below talk to this cluster only (SLURM_CONF).
# 3. Submits sensorpipe-array.sbatch as a 3-task array over Datasets/ and merge.sbatch with
#    --dependency=afterok, waits (squeue), checks every job COMPLETED with exit code 0
#    (scontrol: sacct needs slurmdbd, which this cluster has not), and compares the merged
#    database with one unsharded `sensorpipe run Datasets`, table by table (compare-databases.py).
# 4. Into a new output folder: the array again, one task made to stall inside a recording's
#    transaction (SENSORPIPE_STALL_BEFORE_COMMIT) and cancelled there with scancel; checks that
#    the merge job was not run (its dependency failed) and that the shard holds only the
#    recordings committed before. Resubmits the same two commands and checks that the finished
#    recordings are skipped, the cancelled shard resumes, and the merge again equals the single run.
# 5. On exit, also on failure: cancels its jobs, stops slurmd, slurmctld and munged by their
#    process ids and removes the temporary folder (SENSORPIPE_SLURM_KEEP=1 keeps it).
#
# Environment: SENSORPIPE (binary; default .build/release/sensorpipe of this checkout, built when
# missing), SENSORPIPE_SLURM_TIMEOUT (seconds to wait for each step; default 180).
#
# Exit codes: 0 passed or skipped, 1 failed.
set -euo pipefail

me=slurm-test-cluster
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd -- "$here/../.." && pwd)
say() { echo "$me: $*"; }
die() { echo "$me: FAILED: $1" >&2; exit 1; }
skip() { echo "$me: SKIPPED: $1"; exit 0; }
timeout_s=${SENSORPIPE_SLURM_TIMEOUT:-180}
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || die "SENSORPIPE_SLURM_TIMEOUT='$timeout_s' is not a positive number of seconds"
started=$SECONDS

# --- 1. packages --------------------------------------------------------------------------------
tools=(munged slurmctld slurmd sbatch squeue scancel scontrol)
missing_tools() { local t; for t in "${tools[@]}"; do command -v "$t" >/dev/null || echo "$t"; done; }
if [[ -n $(missing_tools) ]]; then
    ((EUID == 0)) || skip "slurm-wlm/munge are not installed ($(missing_tools | xargs)) and installing them needs root"
    command -v apt-get >/dev/null || skip "slurm-wlm/munge are not installed and there is no apt-get to install them"
    say "installing slurm-wlm and munge (apt-get)"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge; } >/tmp/$me-apt.log 2>&1; then
        tail -n 5 /tmp/$me-apt.log >&2
        skip "apt-get could not install slurm-wlm and munge (log: /tmp/$me-apt.log)"
    fi
    [[ -z $(missing_tools) ]] || skip "after installing slurm-wlm and munge, still missing: $(missing_tools | xargs)"
fi
((EUID == 0)) || skip "starting munged and slurmd needs root (munged runs as the munge user, jobs as root)"
id munge >/dev/null 2>&1 || die "the munge package is installed but there is no munge user"
command -v python3 >/dev/null || die "python3 (its sqlite3 module) is needed for the comparison"

bin=${SENSORPIPE:-$repo/.build/release/sensorpipe}
if [[ ! -x $bin ]]; then
    [[ -z ${SENSORPIPE:-} ]] || die "SENSORPIPE='$bin' is not an executable"
    say "building $bin (swift build -c release)"
    (cd "$repo" && swift build -c release --product sensorpipe) || die "swift build -c release failed"
fi
bin=$(realpath -- "$bin")
export SENSORPIPE=$bin

# --- 2. the cluster -----------------------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/sensorpipe-slurm.XXXXXX")
chmod 755 "$work"   # the munge user and the jobs read below it
mkdir -p "$work/munge" "$work/slurm/state" "$work/slurm/spool" "$work/slurm/log" "$work/logs"
chown munge:munge "$work/munge"
pids=()   # daemon pids in start order
job_ids=()

print_logs() {
    local f
    for f in "$work"/slurm/log/*.log "$work"/munge/munged.log "$work"/logs/*; do
        [[ -s $f ]] || continue
        echo "----- $f (last 15 lines)" >&2
        tail -n 15 -- "$f" >&2
    done
}
cleanup() {
    local status=$? p t
    trap - EXIT
    ((status == 0)) || print_logs
    if ((${#job_ids[@]} > 0)) && [[ -n ${SLURM_CONF:-} ]]; then
        scancel "${job_ids[@]}" 2>/dev/null || true
        for ((t = 0; t < 30; t++)); do   # let slurmd end the job steps before it is stopped
            [[ -z $(squeue -h -o %i 2>/dev/null) ]] && break
            sleep 1
        done
    fi
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        p=${pids[i]}
        kill -TERM "$p" 2>/dev/null || continue
        for ((t = 0; t < 50; t++)); do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
        kill -KILL "$p" 2>/dev/null || true
    done
    if [[ ${SENSORPIPE_SLURM_KEEP:-0} == 1 ]]; then
        echo "$me: kept $work" >&2
    else
        rm -rf -- "$work"
    fi
    ((status == 0)) || echo "$me: FAILED after $((SECONDS - started)) s" >&2
    exit "$status"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# The pid a daemon wrote to its pid file: pid_of NAME FILE.
pid_of() {
    local t
    for ((t = 0; t < 100; t++)); do
        if [[ -s $2 ]] && kill -0 "$(cat -- "$2")" 2>/dev/null; then cat -- "$2"; return 0; fi
        sleep 0.1
    done
    die "$1 did not start (no live pid in $2)"
}

if [[ ! -s /etc/munge/munge.key ]]; then
    say "generating /etc/munge/munge.key"
    install -d -o munge -g munge -m 700 /etc/munge
    if command -v mungekey >/dev/null; then
        runuser -u munge -- mungekey --create --keyfile=/etc/munge/munge.key
    else
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
        chown munge:munge /etc/munge/munge.key
        chmod 400 /etc/munge/munge.key
    fi
fi
socket=$work/munge/munge.socket
runuser -u munge -- munged --key-file=/etc/munge/munge.key --socket="$socket" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
    --seed-file="$work/munge/munged.seed" || die "munged did not start"
pids+=("$(pid_of munged "$work/munge/munged.pid")")
munge --socket="$socket" -n </dev/null | unmunge --socket="$socket" >/dev/null || die "munge cannot encode and decode a credential through $socket"

# Two free TCP ports on 127.0.0.1 for slurmctld and slurmd.
read -r ctld_port slurmd_port < <(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
host=$(hostname -s)
# This machine as slurmd sees it: NodeName=… CPUs=… Boards=… … RealMemory=…
hw=$(slurmd -C | head -n 1)
[[ $hw == NodeName=* ]] || die "slurmd -C printed '$hw', not a node line"
hw=${hw#NodeName=* }
cpus=$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$hw")
mem=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$hw")
export SLURM_CONF=$work/slurm/slurm.conf
cat >"$SLURM_CONF" <<EOF
# One-node test cluster of scripts/slurm/test-cluster.sh (runs without cgroups, as root).
ClusterName=sensorpipe-ci
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$work/slurm/state
SlurmdSpoolDir=$work/slurm/spool
SlurmctldPidFile=$work/slurm/slurmctld.pid
SlurmdPidFile=$work/slurm/slurmd.pid
SlurmctldLogFile=$work/slurm/log/slurmctld.log
SlurmdLogFile=$work/slurm/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
DependencyParameters=kill_invalid_depend
ReturnToService=2
MinJobAge=600
KillWait=5
MailProg=/bin/true
NodeName=$host NodeAddr=127.0.0.1 $hw State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -f "$SLURM_CONF" -c -i || die "slurmctld did not start"
pids+=("$(pid_of slurmctld "$work/slurm/slurmctld.pid")")
slurmd -f "$SLURM_CONF" -N "$host" || die "slurmd did not start"
pids+=("$(pid_of slurmd "$work/slurm/slurmd.pid")")
for ((t = 0; ; t++)); do
    state=$(sinfo -h -N -o %T 2>/dev/null | head -n 1)
    [[ $state == idle ]] && break
    ((t < timeout_s * 2)) || die "node $host is '$state', not idle, after ${timeout_s} s"
    sleep 0.5
done
say "cluster up in $((SECONDS - started)) s: munged, slurmctld (port $ctld_port), slurmd (port $slurmd_port); node $host, $cpus CPUs, $mem MB; $(sbatch --version)"

# A task asks for 2 CPUs and 2 GB (the #SBATCH lines); smaller machines get what they have.
fit=()
((cpus >= 2)) || fit+=(--cpus-per-task="$cpus")
((mem >= 2048)) || fit+=(--mem="$((mem / 2))M")

# --- helpers ------------------------------------------------------------------------------------
cd "$repo"   # the submit folder, as for a user: Datasets/ and scripts/slurm/ relative to it
datasets=$(realpath -s Datasets)

# submit OUT-DIR [SBATCH-OPTION…]: the README's two lines; sets array_id and merge_id.
submit() {
    local out=$1
    shift
    array_id=$(sbatch --parsable --array=1-3 --output="$work/logs/%x-%A_%a.out" "${fit[@]}" "$@" \
        scripts/slurm/sensorpipe-array.sbatch --out-dir "$out" Datasets) || die "sbatch of the array failed"
    array_id=${array_id%%;*}
    merge_id=$(sbatch --parsable --dependency=afterok:"$array_id" --output="$work/logs/%x-%j.out" "${fit[@]}" \
        scripts/slurm/merge.sbatch --out-dir "$out") || die "sbatch of the merge failed"
    merge_id=${merge_id%%;*}
    job_ids+=("$array_id" "$merge_id")
    say "  sbatch --parsable --array=1-3 scripts/slurm/sensorpipe-array.sbatch --out-dir $out Datasets → $array_id"
    say "  sbatch --dependency=afterok:$array_id scripts/slurm/merge.sbatch --out-dir $out → $merge_id"
}

# wait_gone JOB…: until squeue no longer lists the jobs.
wait_gone() {
    local t0=$SECONDS left
    while left=$(squeue -h -j "$(IFS=,; echo "$*")" -o '%i %T %r' 2>/dev/null) && [[ -n $left ]]; do
        ((SECONDS - t0 < timeout_s)) || {
            echo "$left" >&2
            die "jobs $* still queued or running after ${timeout_s} s (SENSORPIPE_SLURM_TIMEOUT)"
        }
        sleep 1
    done
}

# states JOB: "ID STATE EXIT" per job or array task (ARRAYJOB_TASK), from scontrol, which keeps
# finished jobs for MinJobAge.
states() {
    scontrol -o show job "$1" | sed -n \
        -e 's/.* ArrayJobId=\([0-9]*\) ArrayTaskId=\([0-9]*\) .* JobState=\([A-Z_]*\) .* ExitCode=\([0-9:]*\) .*/\1_\2 \3 \4/p' \
        -e 't' -e 's/^JobId=\([0-9]*\) .* JobState=\([A-Z_]*\) .* ExitCode=\([0-9:]*\) .*/\1 \2 \3/p'
}

# expect_states JOB COUNT STATE EXIT: COUNT lines, each with STATE and EXIT.
expect_states() {
    local s n bad
    s=$(states "$1")
    n=$(grep -c . <<<"$s" || true)
    bad=$(grep -v " $3 $4\$" <<<"$s" || true)
    ((n == $2)) && [[ -z $bad ]] || { echo "$s" >&2; die "job $1: expected $2 job(s) $3 with exit code $4"; }
    say "  job $1: $(awk '{print $2 " (exit " $3 ")"}' <<<"$s" | sort | uniq -c | xargs)"
}

sqlv() { python3 -c 'import sqlite3, sys
row = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True).execute(sys.argv[2]).fetchone()
print("" if row is None or row[0] is None else row[0])' "$1" "$2"; }

compare() {   # compare OUT-DIR LABEL
    python3 "$here/compare-databases.py" "$work/single.sqlite" "$1/results.sqlite" "$2" \
        "$1/shard-1-of-3.sqlite" "$1/shard-2-of-3.sqlite" "$1/shard-3-of-3.sqlite" ||
        die "the merged database $1/results.sqlite differs from the unsharded run ($2)"
}

# --- 3. array + merge vs one unsharded run ------------------------------------------------------
say "[1/3] one unsharded run: sensorpipe run $datasets"
status=0
"$bin" run "$datasets" --jobs "$cpus" --out "$work/single.sqlite" --quiet >"$work/single.log" 2>&1 || status=$?
((status <= 1)) || { cat "$work/single.log" >&2; die "the unsharded run exited $status"; }
say "  $(grep -m1 ' ok, ' "$work/single.log")"

say "[2/3] array of 3 tasks + merge (afterok)"
out1=$work/out1
submit "$out1"
wait_gone "$array_id" "$merge_id"
expect_states "$array_id" 3 COMPLETED 0:0
expect_states "$merge_id" 1 COMPLETED 0:0
say "  $(tail -n 1 "$work/logs/sensorpipe-merge-$merge_id.out")"
compare "$out1" "first submission"

# --- 4. cancel one task mid-way, resubmit -------------------------------------------------------
# The shard with the most recordings stalls inside the transaction of its 2nd (or only) one.
read -r victim victim_n < <(for k in 1 2 3; do
    echo "$k $(sqlv "$out1/shard-$k-of-3.sqlite" "SELECT COUNT(*) FROM recordings")"
done | sort -k2,2nr -k1,1n | head -n 1)
((victim_n >= 1)) || die "no shard holds a recording"
stall_at=$((victim_n >= 2 ? 2 : 1))
say "[3/3] array + merge again into a new folder; task $victim ($victim_n recordings) stalls before committing its recording $stall_at and is cancelled there"
cat >"$work/stall-task.sh" <<EOF
#!/usr/bin/env bash
# SENSORPIPE for the fault run: array task $victim stalls inside its recording $stall_at's transaction.
if [[ \${SLURM_ARRAY_TASK_ID:-} == $victim ]]; then export SENSORPIPE_STALL_BEFORE_COMMIT=$stall_at; fi
exec "$bin" "\$@"
EOF
chmod 755 "$work/stall-task.sh"
out2=$work/out2
SENSORPIPE=$work/stall-task.sh submit "$out2"
task_log="$work/logs/sensorpipe-${array_id}_$victim.out"
t0=$SECONDS
until grep -q "stalling before the commit" "$task_log" 2>/dev/null; do
    ((SECONDS - t0 < timeout_s)) || die "array task ${array_id}_$victim did not reach its stall point in ${timeout_s} s"
    sleep 0.5
done
say "  task ${array_id}_$victim: $(grep -m1 'stalling before the commit' "$task_log")"
scancel "${array_id}_$victim"
wait_gone "$array_id" "$merge_id"
s=$(states "$array_id")
grep -q "^${array_id}_$victim CANCELLED " <<<"$s" || { echo "$s" >&2; die "task ${array_id}_$victim is not CANCELLED"; }
[[ $(grep -c ' COMPLETED 0:0$' <<<"$s") == 2 ]] || { echo "$s" >&2; die "the two other tasks did not complete"; }
say "  job $array_id: task $victim CANCELLED, the other two COMPLETED"
m=$(states "$merge_id")
[[ $m != *COMPLETED* && ! -e $out2/results.sqlite ]] || die "the merge ran although task $victim was cancelled: $m"
say "  merge job $merge_id: $(awk '{print $2}' <<<"$m") (its afterok dependency can no longer be met); no results.sqlite"
shard=$out2/shard-$victim-of-3.sqlite
[[ $(sqlv "$shard" "SELECT ended_at IS NULL FROM runs ORDER BY id DESC LIMIT 1") == 1 ]] ||
    die "$shard: the cancelled run is marked finished"
committed=$(sqlv "$shard" "SELECT COUNT(*) FROM recordings WHERE status = 'ok'")
[[ $committed == $((stall_at - 1)) ]] || die "$shard holds $committed finished recording(s) after the cancel, expected $((stall_at - 1))"
orphans=$(sqlv "$shard" "SELECT (SELECT COUNT(*) FROM recordings WHERE status != 'ok') + (SELECT COUNT(*) FROM streams WHERE recording_id NOT IN (SELECT id FROM recordings WHERE status = 'ok'))")
[[ $orphans == 0 ]] || die "$shard holds $orphans row(s) of the interrupted recording"
say "  shard $victim after the cancel: its run open (ended_at NULL), $committed recording(s) committed, no rows of the interrupted one"

say "  resubmitting the same two commands"
submit "$out2"
wait_gone "$array_id" "$merge_id"
expect_states "$array_id" 3 COMPLETED 0:0
expect_states "$merge_id" 1 COMPLETED 0:0
for k in 1 2 3; do
    n_k=$(sqlv "$out1/shard-$k-of-3.sqlite" "SELECT COUNT(*) FROM recordings")
    got=$(sqlv "$out2/shard-$k-of-3.sqlite" "SELECT (recordings_ok + recordings_failed) || ' analysed, ' || recordings_skipped || ' skipped' FROM runs ORDER BY id DESC LIMIT 1")
    if ((k == victim)); then want="$((n_k - committed)) analysed, $committed skipped"; else want="0 analysed, $n_k skipped"; fi
    [[ $got == "$want" ]] || die "resubmitted shard $k: $got, expected $want"
    say "  shard $k resubmitted: $got"
done
say "  $(tail -n 1 "$work/logs/sensorpipe-merge-$merge_id.out")"
compare "$out2" "after cancel and resubmission"

say "OK in $((SECONDS - started)) s: on a real Slurm cluster the 3-task array + merge equals the unsharded run, and after cancelling a task mid-way and resubmitting"
