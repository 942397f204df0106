#!/usr/bin/env bash
# Differential run of the ECG results of two sensorpipe builds.
#
#   scripts/differential/ecg-diff.sh OLD_BINARY NEW_BINARY [--mapping FILE] [--work DIR]
#                                    [--jobs N] [--datasets DIR] [--list]
#
# Runs `BINARY analyze RECORDING --out DIR` with both binaries over every demo ECG recording
# (Datasets/ecg/*) and every ECG record of the validation sets in ../shared/datasets:
#   mitdb/*.hea (all 48 MIT-BIH records), nstdb/*.hea (the 12 noise-stress records and the bw/ma
#   noise records), qtdb-sel100/*.hea, cpsc2019-sample/data_*.mat, apple-watch-ecg/*.csv, and the
#   SPC 2015 training recordings whose `sig` has the chest-ECG row
#   (spc2015/Training_data/DATA_*_TYPE*.mat, spc2015/Extra_TrainingData/DATA_*.mat).
# WFDB records are opened by their .hea path. Then compares the output tables
# (scripts/differential/ecg_diff_compare.py): heart_rate.csv, hrv.csv and quality.csv must be
# byte-identical; beats.csv is compared column by column by name, with the renames, added columns
# and expected changes stated in the mapping file (see ecg_diff_compare.py and
# ecg-diff-mapping.example.json). Prints a per-table summary; exits 0 when nothing unexpected
# differs, 1 otherwise, 64 on a usage error.
#
#   --mapping FILE   beats column mapping (JSON); default: none (columns must match exactly)
#   --work DIR       where outputs go (default: a new folder under ${TMPDIR:-/tmp}); kept
#   --jobs N         recordings analysed in parallel, 1 or 2 (default 2; the machine has 2 cores)
#   --datasets DIR   validation data (default: ../shared/datasets from the repository root)
#   --list           print the recordings that would be run and exit
set -euo pipefail

usage() { sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; }

repo="$(cd "$(dirname "$0")/../.." && pwd)"
here="$repo/scripts/differential"
old="" new="" mapping="" work="" jobs=2 datasets="$repo/../shared/datasets" list=0
while [ $# -gt 0 ]; do
  case "$1" in
    --mapping) mapping="${2:?--mapping needs a FILE}"; shift 2 ;;
    --work) work="${2:?--work needs a DIR}"; shift 2 ;;
    --jobs) jobs="${2:?--jobs needs N}"; shift 2 ;;
    --datasets) datasets="${2:?--datasets needs a DIR}"; shift 2 ;;
    --list) list=1; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "ecg-diff: unknown option '$1'" >&2; usage >&2; exit 64 ;;
    *) if [ -z "$old" ]; then old="$1"; elif [ -z "$new" ]; then new="$1"
       else echo "ecg-diff: too many arguments" >&2; exit 64; fi; shift ;;
  esac
done
if [ "$list" = 0 ]; then
  [ -n "$old" ] && [ -n "$new" ] || { echo "ecg-diff: give OLD_BINARY and NEW_BINARY" >&2; usage >&2; exit 64; }
  for b in "$old" "$new"; do [ -x "$b" ] || { echo "ecg-diff: $b is not an executable" >&2; exit 64; }; done
  old="$(cd "$(dirname "$old")" && pwd)/$(basename "$old")"
  new="$(cd "$(dirname "$new")" && pwd)/$(basename "$new")"
fi
case "$jobs" in 1|2) ;; *) echo "ecg-diff: --jobs must be 1 or 2" >&2; exit 64 ;; esac
if [ -n "$mapping" ]; then
  [ -f "$mapping" ] || { echo "ecg-diff: mapping $mapping not found" >&2; exit 64; }
  mapping="$(cd "$(dirname "$mapping")" && pwd)/$(basename "$mapping")"
fi

# The recordings, as "label<TAB>path"; the label names the output folder.
recordings() {
  local f
  for f in "$repo"/Datasets/ecg/*; do [ -f "$f" ] && printf 'demo_%s\t%s\n' "$(basename "$f")" "$f"; done
  if [ ! -d "$datasets" ]; then
    echo "ecg-diff: $datasets not found: only the demo recordings are compared" >&2
    return
  fi
  local d
  for d in mitdb nstdb qtdb-sel100; do
    for f in "$datasets/$d"/*.hea; do [ -f "$f" ] && printf '%s_%s\t%s\n' "$d" "$(basename "$f" .hea)" "$f"; done
  done
  for f in "$datasets"/cpsc2019-sample/data_*.mat; do
    [ -f "$f" ] && printf 'cpsc2019_%s\t%s\n' "$(basename "$f" .mat)" "$f"
  done
  for f in "$datasets"/apple-watch-ecg/*.csv; do
    [ -f "$f" ] && printf 'apple-watch-ecg_%s\t%s\n' "$(basename "$f" .csv)" "$f"
  done
  for f in "$datasets"/spc2015/Training_data/DATA_*_TYPE*.mat "$datasets"/spc2015/Extra_TrainingData/DATA_*.mat; do
    case "$f" in *BPMtrace*) continue ;; esac
    [ -f "$f" ] && printf 'spc2015_%s\t%s\n' "$(basename "$f" .mat)" "$f"
  done
}

list_file="$(mktemp)"
trap 'rm -f "$list_file"' EXIT
recordings > "$list_file"
if [ "$list" = 1 ]; then cut -f2 "$list_file"; exit 0; fi
count=$(wc -l < "$list_file")
[ "$count" -gt 0 ] || { echo "ecg-diff: no recordings found" >&2; exit 1; }

[ -n "$work" ] || work="$(mktemp -d "${TMPDIR:-/tmp}/ecg-diff.XXXXXX")"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
rm -rf "$work/old" "$work/new"
mkdir -p "$work/old" "$work/new"
cp "$list_file" "$work/recordings.tsv"
echo "ecg-diff: $count recordings × 2 builds, $jobs in parallel, outputs in $work"

# One job per (build, recording): `analyze` into side/label/, its output and exit code beside it.
run_one() {  # side binary label path
  local out="$WORK/$1/$3"
  mkdir -p "$out"
  set +e
  "$2" analyze "$4" --out "$out/tables" > "$out/stdout.txt" 2> "$out/stderr.txt"
  echo $? > "$out/exit_code"
}
export -f run_one
export WORK="$work"
start=$(date +%s)
{
  while IFS=$'\t' read -r label path; do
    printf '%s\0%s\0%s\0%s\0' old "$old" "$label" "$path"
    printf '%s\0%s\0%s\0%s\0' new "$new" "$label" "$path"
  done < "$list_file"
} | xargs -0 -n 4 -P "$jobs" bash -c 'run_one "$@"' _
echo "ecg-diff: analysed in $(( $(date +%s) - start )) s"

args=(--old "$work/old" --new "$work/new" --recordings "$work/recordings.tsv")
[ -n "$mapping" ] && args+=(--mapping "$mapping")
exec python3 "$here/ecg_diff_compare.py" "${args[@]}"
