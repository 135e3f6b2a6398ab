# `make demo` and `make test` each set up what they need on a fresh machine (see README.md).
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
# The interpreter of the virtual environment: scripts/install_venv.sh picks one unless PYTHON is given.
PYTHON ?=
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
DATA ?= ../shared/io500-data
# make test talks to the real services of the machine; the demo needs none of them.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/io500_registry
TEST_REDIS_URL ?= redis://127.0.0.1:6379/7
# Tests clear the cache between tests; keep it apart from the Celery queue.
TEST_CACHE_URL ?= redis://127.0.0.1:6379/6
# `make pytest` runs the suite as seven pytest processes side by side (scripts/pytest_groups.sh: the
# tests that mostly wait on other processes, headless chromium in two halves, the MPI runner and the
# fuzzers in two halves, a Celery worker and the private fault stack, beside all the others in two
# halves); each has a test database and Redis
# numbers of its own, and the script's defaults keep them apart from the two above.
SLOW_TESTS := e2e or crawl or runner or worker or faults or fuzz
PYTEST_LOGS := test-artifacts/pytest

.PHONY: install system-packages runner demo test test-fast screenshots pytest lint typecheck migrations-check bench audit reliability

install: system-packages $(VENV)/.installed node_modules/.installed runner

system-packages:
	scripts/install-system-packages.sh

# Checked on every make (a fifth of a second when nothing changed): PYTHON, or the interpreter the
# script picks, may differ from the one the environment was made from.
$(VENV)/.installed: requirements.txt scripts/install_venv.sh FORCE
	PYTHON=$(PYTHON) scripts/install_venv.sh $(VENV) requirements.txt
	touch $@

FORCE:

runner:
	$(MAKE) -C runner

# Test tools from the npm registry (axe-core for the accessibility check), pinned by package-lock.json.
node_modules/.installed: package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

# The demo runs as a deployment would (DEBUG off: friendly error pages, no list of URL patterns) but
# over plain HTTP on this machine, with links in its mails pointing at its own port.
DEMO_ENV := DEBUG=false SECURE_SSL_REDIRECT=false SESSION_COOKIE_SECURE=false CSRF_COOKIE_SECURE=false \
	SECURE_HSTS_SECONDS=0 SITE_URL=http://127.0.0.1:$(PORT)

demo: install
	$(DEMO_ENV) $(PY) manage.py migrate --noinput
	$(DEMO_ENV) $(PY) manage.py collectstatic --noinput --verbosity 0
	$(DEMO_ENV) $(PY) manage.py import_io500 $(DATA)
	$(DEMO_ENV) $(PY) manage.py demo_setup
	$(DEMO_ENV) $(PY) manage.py runserver 127.0.0.1:$(PORT)

# mypy's cache outside the checkout, as pip's and uv's are: a new clone checks only what changed (mypy
# compares each file's hash with the cache's), about 3 CPU-s where a cold cache costs about 20.
MYPY_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/io500-registry/mypy

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy --cache-dir "$(MYPY_CACHE)" .

migrations-check: $(VENV)/.installed
	$(PY) manage.py makemigrations --check --dry-run

pytest: install
	SLOW_TESTS="$(SLOW_TESTS)" TEST_DATABASE_URL=$(TEST_DATABASE_URL) TEST_REDIS_URL=$(TEST_REDIS_URL) TEST_CACHE_URL=$(TEST_CACHE_URL) \
		scripts/pytest_groups.sh $(PYTEST_LOGS) $(PYTEST_ARGS)

# The inner loop: everything but the browser, MPI, worker, stack and fuzzing tests (no runner build).
test-fast: $(VENV)/.installed
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) CACHE_URL=$(TEST_CACHE_URL) \
		$(VENV)/bin/pytest -m "not ($(SLOW_TESTS))" $(PYTEST_ARGS)

# The browser tests with a screenshot of every page they walk through, in test-artifacts/ (the
# suite takes them only of a failing test's pages).
screenshots: install
	E2E_SCREENSHOTS=1 DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) CACHE_URL=$(TEST_CACHE_URL) \
		$(VENV)/bin/pytest -m e2e $(PYTEST_ARGS)

# Known vulnerabilities in the pinned packages fail; an unreachable advisory service is reported, not
# passed silently (scripts/audit_dependencies.py, AUDIT_STRICT=1 to fail on it too).
audit: $(VENV)/.installed
	$(PY) scripts/audit_dependencies.py requirements.txt

# The checks run beside the test groups (each one's output printed whole when it ends): the audit
# mostly waits on the advisory service, and lint's CPU fits in the groups' waits.
test: install
	$(MAKE) --no-print-directory --output-sync=target -j4 lint migrations-check audit pytest

# docs/reliability.md from one run of the reliability tests, the long fuzzing run and three load runs
# (target load, a lighter one, and the lighter one with archives in object storage; about 25
# minutes). The document is written even when a run fails, and the failure is reported.
reliability: install
	rm -rf test-artifacts/reliability
	TEST_VOLUME=full DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) CACHE_URL=$(TEST_CACHE_URL) $(VENV)/bin/pytest \
		tests/reliability tests/scoring/readers/test_fuzz.py tests/scoring/readers/test_properties.py \
		tests/registry/core/test_public_cache.py
	$(PY) benchmarks/fuzz.py && fuzz=0 || fuzz=$$?; \
	$(PY) benchmarks/load.py && load=0 || load=$$?; \
	$(PY) benchmarks/load.py --reader-think 4 --uploader-think 8 && light=0 || light=$$?; \
	$(PY) benchmarks/load.py --reader-think 4 --uploader-think 8 --object-storage && s3=0 || s3=$$?; \
	$(PY) benchmarks/reliability_report.py; \
	exit $$(( fuzz || load || light || s3 ))

bench: install
	$(PY) benchmarks/verify_corpus.py $(DATA)/submissions
