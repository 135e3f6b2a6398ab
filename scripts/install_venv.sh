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
PYTHON=${PYTHON:-python3}
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
