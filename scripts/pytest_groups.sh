#!/usr/bin/env bash
# The whole test suite as several pytest processes side by side, each with a test database (suffix)
# and Redis numbers of its own, so that tests that mostly wait (headless chromium, the MPI runner,
# the Celery worker, the private fault stack) overlap with tests that keep a core busy.
#
#   scripts/pytest_groups.sh LOG_DIR [PYTEST ARGS...]
#
# Environment: TEST_DATABASE_URL, SLOW_TESTS, PYTEST (default .venv/bin/pytest), TEST_PYTHON (default
# .venv/bin/python, for the template database), and per group the Redis URLs
# below. Every group runs to the end and prints its own report; the summary gives each group's wall
# time and the CPU time of its process tree. Any failing group fails the script (pytest exits 5 when
# a group collected no test, which fails it too).
set -euo pipefail

LOG_DIR=$1
shift
PYTEST=${PYTEST:-.venv/bin/pytest}
TEST_PYTHON=${TEST_PYTHON:-.venv/bin/python}
: "${TEST_DATABASE_URL:?TEST_DATABASE_URL must be set}"
: "${SLOW_TESTS:?SLOW_TESTS must be set (the markers of the groups beside the rest)}"

# name | database suffix | Celery Redis URL | cache Redis URL | marker expression | where (paths, --ignore)
# The rest is split by path in two (scripts/pytest_group_files.py: the most specific path or left-out
# path decides), about even in CPU: together they always hold every test of `not SLOW_TESTS`.
REST_A="tests/scoring tests/submissions --ignore=tests/scoring/test_redteam.py"
REST_B="tests --ignore=tests/scoring --ignore=tests/submissions tests/scoring/test_redteam.py"
GROUPS_TABLE="
rest-a||${TEST_REDIS_URL:-redis://127.0.0.1:6379/7}|${TEST_CACHE_URL:-redis://127.0.0.1:6379/6}|not ($SLOW_TESTS)|$REST_A
rest-b|_rest|${TEST_REDIS_URL_REST:-redis://127.0.0.1:6379/12}|${TEST_CACHE_URL_REST:-redis://127.0.0.1:6379/15}|not ($SLOW_TESTS)|$REST_B
browser-a|_browser|${TEST_REDIS_URL_BROWSER:-redis://127.0.0.1:6379/4}|${TEST_CACHE_URL_BROWSER:-redis://127.0.0.1:6379/3}|e2e or crawl|tests --share=1/2
browser-b|_browser_b|${TEST_REDIS_URL_BROWSER_B:-redis://127.0.0.1:6379/0}|${TEST_CACHE_URL_BROWSER_B:-redis://127.0.0.1:6379/13}|e2e or crawl|tests --share=2/2
runner-fuzz-a|_fuzz|${TEST_REDIS_URL_FUZZ:-redis://127.0.0.1:6379/5}|${TEST_CACHE_URL_FUZZ:-redis://127.0.0.1:6379/8}|(runner or fuzz) and not (e2e or crawl or worker or faults)|tests --share=1/2
runner-fuzz-b|_fuzz_b|${TEST_REDIS_URL_FUZZ_B:-redis://127.0.0.1:6379/9}|${TEST_CACHE_URL_FUZZ_B:-redis://127.0.0.1:6379/10}|(runner or fuzz) and not (e2e or crawl or worker or faults)|tests --share=2/2
worker-stack|_stack|${TEST_REDIS_URL_STACK:-redis://127.0.0.1:6379/2}|${TEST_CACHE_URL_STACK:-redis://127.0.0.1:6379/1}|(worker or faults) and not (e2e or crawl)|tests
"

# Each process would otherwise rewrite the asserts of every test module and compile the project's
# modules again (this machine sets PYTHONDONTWRITEBYTECODE): one collection first writes the caches
# (__pycache__, ignored by git) that the groups, their workers and servers then read.
unset PYTHONDONTWRITEBYTECODE
mkdir -p "$LOG_DIR"
rm -f "$LOG_DIR"/*.log "$LOG_DIR"/*.cpu "$LOG_DIR"/*.time "$LOG_DIR"/*.files "$LOG_DIR"/*.name
read -r load_at_start _ </proc/loadavg
read -r _ cpu_at_start </proc/stat
services_at_start=$(python3 scripts/service_cpu.py)
SECONDS=0
TIMEFORMAT="%R %U %S"
# One migrated database, copied by PostgreSQL into each group's test database (tests/conftest.py),
# instead of five processes running every migration; made anew by every run (beside the
# collection), dropped at its end.
# The groups' temporary files (pytest's tmp_path, the private stacks' clusters and media, unpacked
# archives, chromium's profiles) go to a tmpfs where the machine has one (TEST_SCRATCH_ROOT, default
# /dev/shm): the tests make and remove hundreds of thousands of files, which on this machine's disk
# (ext4, discard) cost 1.7 times the CPU (test_unpack.py: 9.5 against 5.6 CPU-s, the kernel's mostly). A
# folder like /tmp (sticky, open to all: the private PostgreSQL runs as its own account), removed at
# the end with everything in it.
SCRATCH_ROOT=${TEST_SCRATCH_ROOT:-/dev/shm}
scratch=""
if [[ -d $SCRATCH_ROOT && -w $SCRATCH_ROOT ]]; then
  scratch=$(mktemp -d "$SCRATCH_ROOT/io500-tests-XXXXXX")
  chmod 1777 "$scratch"
  # Where a test needs a disk's file system (O_DIRECT's alignment checks: test_runner_configs.py).
  export TEST_DISK_TMPDIR=${TMPDIR:-/tmp}
  export TMPDIR=$scratch
fi
# Every test client loads the middleware, and WhiteNoise's then scans STATIC_ROOT: a checkout where
# `make demo` collected the static files (./staticfiles, 747 files) spent half of the authorisation
# matrix's CPU there. The suite runs as on a fresh clone, with none collected (the private stacks
# collect their own).
export STATIC_ROOT=${TMPDIR:-/tmp}/io500-tests-no-static-$$
cleanup() {
  "$TEST_PYTHON" scripts/test_db_template.py drop "$TEST_DATABASE_URL" >/dev/null
  if [[ -n $scratch ]]; then
    # A tmpfs mounted by a test and left behind would keep its files: unmount before removing.
    grep -o " $scratch/[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null || true
    rm -rf "$scratch"
  fi
}
trap cleanup EXIT
{
  time "$TEST_PYTHON" scripts/test_db_template.py create "$TEST_DATABASE_URL" >"$LOG_DIR/template.name"
} 2>"$LOG_DIR/template.time" &
template_pid=$!
# The same collection writes each group's test files (scripts/pytest_group_files.py): a group imports
# only the modules that hold its tests, and still selects them with its own marker expression.
{
  time PYTHONPATH=. PYTEST_GROUP_FILES=$LOG_DIR PYTEST_GROUP_MARKERS=$(
    while IFS='|' read -r name _ _ _ markers where; do [[ -z $name ]] || echo "$name|$markers|$where"; done <<<"$GROUPS_TABLE"
  ) DATABASE_URL="$TEST_DATABASE_URL" "$PYTEST" -p scripts.pytest_group_files --collect-only -q "$@" \
    >"$LOG_DIR/collect.log" 2>&1
} 2>"$LOG_DIR/collect.time" ||
  { cat "$LOG_DIR/collect.log"; echo "pytest could not collect the tests" >&2; wait "$template_pid" || true; exit 1; }
wait "$template_pid" ||
  { cat "$LOG_DIR/template.time"; echo "the template database could not be made" >&2; exit 1; }
read -r TEST_DATABASE_TEMPLATE <"$LOG_DIR/template.name"
export TEST_DATABASE_TEMPLATE
names=()
pids=()
run_group() { # name suffix redis cache markers where [pytest args]
  local name=$1 suffix=$2 redis=$3 cache=$4 markers=$5 where
  read -r -a where <<<"$6"
  shift 6
  # A group none of whose tests was collected keeps its paths (without its share, which only the
  # collection reads): pytest then exits 5 and fails it.
  if [[ -s $LOG_DIR/$name.files ]]; then
    mapfile -t where <"$LOG_DIR/$name.files"
  else
    local word kept=()
    for word in "${where[@]}"; do [[ $word == --share=* ]] || kept+=("$word"); done
    where=("${kept[@]}")
  fi
  # schemathesis' plugin (about a CPU-second to import) only where a test module uses it.
  local plugins=(-p scripts.pytest_cpu_report)
  if [[ -s $LOG_DIR/$name.files ]] && ! grep -qs schemathesis "${where[@]}"; then plugins+=(-p no:schemathesis); fi
  local TIMEFORMAT="%R %U %S"
  {
    time PYTHONPATH=. DATABASE_URL="$TEST_DATABASE_URL$suffix" REDIS_URL=$redis CACHE_URL=$cache \
      in_cgroup "$name" "$PYTEST" "${plugins[@]}" -m "$markers" "${where[@]}" "$@" >"$LOG_DIR/$name.log" 2>&1
  } 2>"$LOG_DIR/$name.time"
}
# `time` counts only the processes a group waited for; chromium's zygote and renderers and the
# daemons a test starts are re-parented and escape it. Where this machine lets us make cgroups (v1
# cpuacct, as root), each group runs in one, which counts every process it started, wherever it
# went; what is still in it at the end was left running by a test.
CGROUP_ROOT=/sys/fs/cgroup/cpuacct
CGROUP_PREFIX="io500-tests-$$"
in_cgroup() { # name command...
  local name=$1 group=$CGROUP_ROOT/$CGROUP_PREFIX-$1
  shift
  # `|| return`: a failing group must end this function, not (errexit) the shell `time` reports from.
  if mkdir "$group" 2>/dev/null; then
    # scripts/pytest_cpu_report.py reads the counter at each test's start and end.
    PYTEST_CPU_USAGE=$group/cpuacct.usage PYTEST_CPU_REPORT=$LOG_DIR/$name.cpu \
      bash -c 'echo $$ >"$1/cgroup.procs" 2>/dev/null; shift; exec "$@"' _ "$group" "$@" || return
  else
    "$@" || return
  fi
}
cgroup_report() { # name: "<CPU s> s in cgroup[, N processes left running]", or nothing
  local group=$CGROUP_ROOT/$CGROUP_PREFIX-$1 usage left
  [[ -r $group/cpuacct.usage ]] || return 0
  usage=$(<"$group/cpuacct.usage")
  left=$(wc -l <"$group/cgroup.procs")
  awk -v ns="$usage" 'BEGIN { printf "%8.1f s in cgroup", ns / 1e9 }'
  if ((left > 0)); then printf ', %d processes left running' "$left"; else rmdir "$group"; fi
}
while IFS='|' read -r name suffix redis cache markers where; do
  [[ -n $name ]] || continue
  run_group "$name" "$suffix" "$redis" "$cache" "$markers" "$where" "$@" &
  names+=("$name")
  pids+=($!)
done <<<"$GROUPS_TABLE"

failed=0
codes=()
for i in "${!pids[@]}"; do
  if wait "${pids[$i]}"; then codes+=(0); else codes+=($?); failed=1; fi
done
for i in "${!names[@]}"; do
  echo "== pytest: ${names[$i]}"
  cat "$LOG_DIR/${names[$i]}.log"
done
echo "== pytest groups (wall s, CPU s of the group's processes: user + system, exit code, all CPU of its cgroup)"
for step in collect template; do # before the groups, side by side
  read -r wall user system <<<"$(tail -n 1 "$LOG_DIR/$step.time")" || { wall=?; user=?; system=?; }
  printf '%-13s %8s s wall %8s s user %8s s system\n' "($step)" "$wall" "$user" "$system"
done
for i in "${!names[@]}"; do
  read -r wall user system <"$LOG_DIR/${names[$i]}.time" || { wall=?; user=?; system=?; }
  printf '%-13s %8s s wall %8s s user %8s s system  exit %s %s\n' "${names[$i]}" "$wall" "$user" "$system" \
    "${codes[$i]}" "$(cgroup_report "${names[$i]}")"
done
# The whole machine over the run (PostgreSQL, Redis and chromium included): how busy its cores were.
read -r _ cpu_at_end </proc/stat
read -r load_at_end _ </proc/loadavg
python3 - "$cpu_at_start" "$cpu_at_end" "$SECONDS" "$load_at_start" "$load_at_end" <<'PY'
import os, sys
start, end = ([int(n) for n in field.split()] for field in sys.argv[1:3])
delta = [b - a for a, b in zip(start, end)]
idle = delta[3] + delta[4]  # idle and iowait
busy = sum(delta[:8]) - idle  # user, nice, system, irq, softirq, steal
tick = os.sysconf("SC_CLK_TCK")
print(f"all groups: {sys.argv[3]} s wall; machine CPU busy {busy / tick:.0f} s of {sum(delta[:8]) / tick:.0f} s "
      f"({os.cpu_count()} cores, steal {delta[7] / tick:.0f} s); load average {sys.argv[4]} at the start, {sys.argv[5]} at the end")
PY
# PostgreSQL's backends and Redis serve every group and are in none of the cgroups (a server a test
# started itself is in both).
echo "database and cache servers: $(python3 scripts/service_cpu.py "$services_at_start" "$(python3 scripts/service_cpu.py)")"
exit "$failed"
