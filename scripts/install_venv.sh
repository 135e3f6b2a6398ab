#!/usr/bin/env bash
# The virtual environment VENV from the pinned REQUIREMENTS, installed with uv (pinned below): about
# 2 s from its cache where pip takes about a minute, most of which is compiling every module of every
# package; uv leaves that to the first import, and the test collection writes those caches for what
# the tests import. Where uv cannot be had (no PyPI, say), pip installs the same pins.
#
#   scripts/install_venv.sh VENV REQUIREMENTS
#
# uv itself lives outside the checkout, beside pip's and uv's own caches, so that a new clone does
# not install it again.
set -euo pipefail
VENV=$1
REQUIREMENTS=$2
# The interpreter, when PYTHON does not name one: the distribution's python3.11 where the machine has
# it, else python3. Debian builds its python3.11 with profile-guided and link-time optimisation and
# links libpython into the executable; pyenv's default build (this machine's python3) does neither,
# and the same Python costs it a quarter to a third more CPU (the scoring of the whole shared corpus:
# 2.8-3.4 against 2.1-2.7 CPU-s; 545 tests of the review and list pages: 41.5-45.7 against 35.7-36.7
# CPU-s in their cgroup, interleaved runs). The suite is CPU-bound on two cores: a fresh clone's
# `make test` went from 843 to 731 machine CPU-seconds (435 to 379 s), chromium and PostgreSQL
# unchanged.
if [[ -z ${PYTHON:-} ]]; then
  PYTHON=python3
  for candidate in /usr/bin/python3.11 python3.11; do
    if command -v "$candidate" >/dev/null && "$candidate" -c 'import sys, venv; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then
      PYTHON=$candidate
      break
    fi
  done
fi
# A virtual environment made from another interpreter (PYTHON changed, or made before this choice)
# is made again: keeping it would keep the slower interpreter.
base_of() { "$1" -c 'import os, sys; print(os.path.realpath(getattr(sys, "_base_executable", sys.executable)))'; }
if [[ -x $VENV/bin/python ]] && [[ $(base_of "$VENV/bin/python") != $(base_of "$PYTHON") ]]; then
  echo "making $VENV again from $PYTHON ($(base_of "$PYTHON"))" >&2
  rm -rf "$VENV"
fi
UV_VERSION=0.13.9
tool=${XDG_CACHE_HOME:-$HOME/.cache}/io500-registry/uv-$UV_VERSION
uv=$tool/bin/uv

if [[ ! -x $uv ]]; then
  mkdir -p "$(dirname "$tool")"
  building=$(mktemp -d "$tool.XXXXXX")
  # Built aside and renamed into place: a second install running at the same time finds either no
  # tool or a whole one.
  if "$PYTHON" -m venv "$building" && "$building/bin/pip" install --quiet --disable-pip-version-check \
    "uv==$UV_VERSION"; then
    mv -T "$building" "$tool" 2>/dev/null || rm -rf "$building"
  else
    rm -rf "$building"
    echo "uv $UV_VERSION could not be installed; installing with pip" >&2
  fi
fi

if [[ -x $uv ]] && { [[ -x $VENV/bin/python ]] || "$uv" venv --quiet --python "$PYTHON" "$VENV"; } &&
  "$uv" pip install --quiet --python "$VENV/bin/python" -r "$REQUIREMENTS"; then
  exit 0
fi
[[ ! -x $uv ]] || echo "uv could not install $REQUIREMENTS; installing with pip" >&2
[[ -x $VENV/bin/pip ]] || "$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$REQUIREMENTS"
