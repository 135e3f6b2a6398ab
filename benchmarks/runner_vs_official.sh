#!/usr/bin/env bash
# Our runner against the official IO500 application, phase by phase, on the same machine and directory.
#
#   benchmarks/runner_vs_official.sh OFFICIAL_IO500_BINARY [DIR]
#
# Runs official and ours interleaved in ABBA order (O A, A O, O A, ...; fresh data directory each time,
# so a drift of the machine during the benchmark hits both programs alike) with the same generated
# configuration, then prints per phase the median score of each, the spread (min..max) of each, the
# ratio ours/official of the medians (target 0.9 .. 1.1; find at least 1.0) and the median and range of
# the ratios within each pair (run i of ours against run i of the official app, which ran next to it:
# this cancels the drift between pairs, which on a shared machine is larger than the difference between
# the programs). Finally it measures sequential writes with fio on DIR, the storage limit that
# ior-easy-write should approach.
#
# Every run starts from the same state of the machine: before each run the script flushes dirty data
# (sync) and waits until the memory the previous run freed has settled. On a virtual machine with free
# page reporting (virtio-balloon) the guest hands freed pages back to the host a few seconds after they
# are freed, and writing into such a page later costs a host page fault: without the wait, a run that
# starts right after another one has freed gigabytes writes into memory the host still backs and looks
# faster than a run that starts later. SETTLE=0 turns this off. DROP_CACHES=1 also drops the kernel's
# page, dentry and inode caches before each run (root only; off by default because it also empties the
# caches of everything else on a shared machine).
#
# Environment: NP (ranks, default 2), STONEWALL (seconds, default 10), RUNS (per program, at least 3,
# default 3), WARMUP (untimed runs of each program before the measured ones, default 0), MPIRUN
# (default "mpirun --oversubscribe"), SETTLE (default 1), DROP_CACHES (default 0). Build the official
# application yourself from its public sources (IO500/io500 with hpc/ior and VI4IO/pfind); this script
# does not build or fetch anything.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 OFFICIAL_IO500_BINARY [DIR]" >&2
  exit 2
fi
OFFICIAL=$(realpath "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
OURS="$HERE/../runner/build/io500-runner"
DIR=${2:-$(mktemp -d /tmp/io500-bench.XXXXXX)}
NP=${NP:-2}
STONEWALL=${STONEWALL:-10}
RUNS=${RUNS:-3}
WARMUP=${WARMUP:-0}
MPIRUN=${MPIRUN:-mpirun --oversubscribe}
SETTLE=${SETTLE:-1}
DROP_CACHES=${DROP_CACHES:-0}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

if (( RUNS < 3 )); then
  echo "error: RUNS must be at least 3 (got $RUNS)" >&2
  exit 2
fi
[[ -x "$OFFICIAL" ]] || { echo "error: $OFFICIAL is not an executable file" >&2; exit 2; }
if [[ ! -x "$OURS" ]]; then
  make -C "$HERE/../runner" >/dev/null
fi
mkdir -p "$DIR"
DIR=$(realpath "$DIR")
WORK="$DIR/bench-$$"
mkdir -p "$WORK"
trap 'rm -rf "$WORK/data" "$WORK/fio"' EXIT

# Sizes large enough that the stonewall, not the data, ends every write phase.
cat >"$WORK/bench.ini" <<EOF
[global]
datadir = $WORK/data
resultdir = $WORK/results

[debug]
stonewall-time = $STONEWALL

[ior-easy]
transferSize = 2m
blockSize = 200000m

[mdtest-easy]
n = 10000000

[ior-hard]
segmentCount = 10000000

[mdtest-hard]
n = 10000000
EOF

REPORTED=/sys/module/page_reporting/parameters/reported_kib
settle() {
  (( SETTLE )) || return 0
  sync
  if (( DROP_CACHES )); then
    echo 3 >/proc/sys/vm/drop_caches
  fi
  if [[ -r $REPORTED ]]; then
    # Free page reporting works in the background in 2 MiB chunks; wait (at most 60 s) until less
    # than 64 MiB is reported in 2 s, i.e. the memory of the previous run has gone back to the host.
    local before after waited=0
    before=$(<"$REPORTED")
    while (( waited < 60 )); do
      sleep 2
      waited=$((waited + 2))
      after=$(<"$REPORTED")
      (( after - before < 65536 )) && break
      before=$after
    done
  else
    sleep 2
  fi
}

run_one() { # program label index
  local program=$1 label=$2 index=$3
  local stamp="$label-$index"
  settle
  echo "== $label run $index" >&2
  $MPIRUN -np "$NP" "$program" "$WORK/bench.ini" --timestamp="$stamp" >"$WORK/$stamp.log" 2>&1 ||
    { echo "error: $label run $index failed, see $WORK/$stamp.log" >&2; exit 1; }
  rm -rf "$WORK/data/$stamp"
}

for i in $(seq 1 "$WARMUP"); do
  run_one "$OFFICIAL" official "warmup$i"
  run_one "$OURS" ours "warmup$i"
done
for i in $(seq 1 "$RUNS"); do
  if (( i % 2 )); then
    run_one "$OFFICIAL" official "$i"
    run_one "$OURS" ours "$i"
  else
    run_one "$OURS" ours "$i"
    run_one "$OFFICIAL" official "$i"
  fi
done
echo "STONEWALL=$STONEWALL RUNS=$RUNS WARMUP=$WARMUP NP=$NP SETTLE=$SETTLE DROP_CACHES=$DROP_CACHES DIR=$DIR"

python3 - "$WORK/results" "$RUNS" <<'PY'
import re, statistics, sys
from pathlib import Path

results, runs = Path(sys.argv[1]), int(sys.argv[2])
line = re.compile(r"^\[(?:RESULT|      )\]\s+(\S+)\s+(\S+)\s+(GiB/s|kIOPS)")
# scores[label][phase][i - 1] = score of run i
scores: dict[str, dict[str, list[float]]] = {"official": {}, "ours": {}}
order: list[str] = []
for label in scores:
    for i in range(1, runs + 1):
        for text in (results / f"{label}-{i}" / "result_summary.txt").read_text().splitlines():
            m = line.match(text)
            if m and m.group(1) != "timestamp":
                scores[label].setdefault(m.group(1), []).append(float(m.group(2)))
                if m.group(1) not in order:
                    order.append(m.group(1))


def spread(values: list[float]) -> str:
    return f"{min(values):.4g}..{max(values):.4g}" if values else "-"


print(f"{'phase':22} {'unit':6} {'official':>11} {'ours':>11} {'ours/official':>14}"
      f"   {'official min..max':>19} {'ours min..max':>19}   {'paired ratio':>12} {'min..max':>13}")
for phase in order:
    unit = "GiB/s" if phase.startswith("i") else "kIOPS"
    off_all = scores["official"].get(phase, [])
    our_all = scores["ours"].get(phase, [])
    off = statistics.median(off_all or [0.0])
    our = statistics.median(our_all or [0.0])
    ratio = our / off if off else float("nan")
    paired = [o / f for o, f in zip(our_all, off_all) if f > 0]
    paired_text = f"{statistics.median(paired):12.3f} {spread(paired):>13}" if paired else f"{'-':>12} {'-':>13}"
    print(f"{phase:22} {unit:6} {off:11.4f} {our:11.4f} {ratio:14.3f}"
          f"   {spread(off_all):>19} {spread(our_all):>19}   {paired_text}")
PY

if command -v fio >/dev/null; then
  mkdir -p "$WORK/fio"
  settle
  # Sequential 2 MiB writes into new files, like ior-easy-write: no preallocation (fallocate=none; with
  # preallocation a file system such as tmpfs allocates the pages before the timed part) and no wrap
  # over the file (time_based would overwrite pages already allocated); the runtime stops it. Each
  # job's file is sized to half of the free space divided among the jobs, at most 64 GiB.
  avail=$(df -B1 --output=avail "$WORK/fio" | tail -1)
  size=$(( avail / 2 / NP ))
  (( size > 64 * 2**30 )) && size=$(( 64 * 2**30 ))
  size=$(( size / 2**21 * 2**21 ))
  fio --name=seqwrite --directory="$WORK/fio" --rw=write --bs=2m --size="$size" --numjobs="$NP" \
      --runtime="$STONEWALL" --fallocate=none --end_fsync=1 --unlink=1 --group_reporting \
      --output-format=json >"$WORK/fio.json"
  python3 - "$WORK/fio.json" "$WORK/results" "$RUNS" <<'PY'
import json, re, statistics, sys
from pathlib import Path

fio = json.loads(Path(sys.argv[1]).read_text())
gib = fio["jobs"][0]["write"]["bw_bytes"] / 2**30
ours = []
for i in range(1, int(sys.argv[3]) + 1):
    text = (Path(sys.argv[2]) / f"ours-{i}" / "result_summary.txt").read_text()
    ours.append(float(re.search(r"ior-easy-write\s+(\S+)", text).group(1)))
print(f"\nfio sequential write (2 MiB blocks, no preallocation, end_fsync): {gib:.4f} GiB/s")
print(f"ours ior-easy-write median: {statistics.median(ours):.4f} GiB/s  ratio {statistics.median(ours) / gib:.3f}")
PY
else
  echo "fio is not installed: skipping the storage-limit comparison (apt-get install fio)" >&2
fi
echo "result folders: $WORK/results" >&2
