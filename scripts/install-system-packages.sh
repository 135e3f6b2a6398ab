#!/usr/bin/env bash
# Installs the Debian packages the project needs (Open MPI for the runner, chromium for browser tests,
# fio for the runner benchmark, wrk for the cached-throughput figures of benchmarks/pages.py) when
# they are missing. Needs root, as on the development machines.
set -euo pipefail
need=()
command -v mpicc >/dev/null 2>&1 || need+=(openmpi-bin libopenmpi-dev)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# The browser tests drive the old headless shell of the same chromium (tests/e2e/browser.py).
command -v chromium-headless-shell >/dev/null 2>&1 || need+=(chromium-headless-shell)
command -v fio >/dev/null 2>&1 || need+=(fio)
command -v wrk >/dev/null 2>&1 || need+=(wrk)
# The fault tests and benchmarks start private PostgreSQL and Redis servers of their own.
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
# The private stack puts nginx in front of gunicorn, as production does (docker/nginx.conf).
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx)
# npm installs axe-core (package-lock.json), which the browser tests load to check accessibility.
command -v npm >/dev/null 2>&1 || need+=(nodejs npm)
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
    echo "missing Debian packages: ${need[*]} (run as root, or install them: apt-get install ${need[*]})" >&2
    exit 1
fi
echo "installing Debian packages: ${need[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"
