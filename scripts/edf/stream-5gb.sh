#!/usr/bin/env bash
# Streams a synthetic EDF of more than 4 GB (5 GB by default) through `sensorpipe inspect` and
# prints its peak resident memory (issue 34: ≤ 64 MB). The file is generated in a temporary folder
# (not committed) and removed afterwards.
#
#   scripts/edf/stream-5gb.sh [GIGABYTES]      (needs a release build: swift build -c release)
set -euo pipefail
cd "$(dirname "$0")/../.."
gb=${1:-5}
dir=$(mktemp -d "${TMPDIR:-/tmp}/sensorpipe-edf-XXXXXX")
trap 'rm -rf "$dir"' EXIT
python3 - "$dir/big.edf" "$gb" <<'PY'
import sys
path, gb = sys.argv[1], float(sys.argv[2])
ns, rate = 8, 500                       # 8 ECG leads at 500 Hz, 1 s records of 8,000 bytes
record = bytearray()
for s in range(ns):
    record += b"".join(((j * 37 + s * 1000) % 4000 - 2000).to_bytes(2, "little", signed=True) for j in range(rate))
n = int(gb * 1e9) // len(record) + 1
def f(v, w): return str(v).encode().ljust(w)
h = f("0", 8) + f("X X X X", 80) + f("Startdate 01-JAN-2024 X X X", 80) + f("01.01.24", 8) + f("00.00.00", 8)
h += f(256 * (ns + 1), 8) + f("", 44) + f(n, 8) + f(1, 8) + f(ns, 4)
for key, w in [("label", 16), ("tr", 80), ("dim", 8), ("pmin", 8), ("pmax", 8), ("dmin", 8), ("dmax", 8), ("pre", 80), ("ns", 8), ("res", 32)]:
    for s in range(ns):
        h += f({"label": "ECG %d" % s, "dim": "uV", "pmin": -3277, "pmax": 3277, "dmin": -32768, "dmax": 32767, "ns": rate}.get(key, ""), w)
with open(path, "wb") as out:
    out.write(h)
    block = bytes(record) * 1000
    for _ in range(n // 1000):
        out.write(block)
    out.write(bytes(record) * (n % 1000))
PY
ls -l "$dir/big.edf"
/usr/bin/time -v "${SENSORPIPE:-.build/release/sensorpipe}" inspect "$dir/big.edf" 2>"$dir/time.txt" | tail -12
grep -E "Maximum resident|Elapsed" "$dir/time.txt"
