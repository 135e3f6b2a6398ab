# `make demo` and `make test` each set up what they need on a fresh machine (see README.md).
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
DATA ?= ../shared/io500-data
# make test talks to the real services of the machine; the demo needs none of them.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/io500_registry
TEST_REDIS_URL ?= redis://127.0.0.1:6379/7
# Tests clear the cache between tests; keep it apart from the Celery queue.
TEST_CACHE_URL ?= redis://127.0.0.1:6379/6
# The two other pytest processes of `make pytest` (their test databases get a suffix).
TEST_REDIS_URL_BROWSER ?= redis://127.0.0.1:6379/4
TEST_CACHE_URL_BROWSER ?= redis://127.0.0.1:6379/3
TEST_REDIS_URL_STACK ?= redis://127.0.0.1:6379/2
TEST_CACHE_URL_STACK ?= redis://127.0.0.1:6379/1
# `make pytest` runs the suite as three pytest processes side by side, each with a test database
# and Redis numbers of its own: the tests that mostly wait on other processes (headless chromium and
# the MPI runner; a Celery worker, the private fault stack and the long fuzzing tests) beside all
# the others.
SLOW_TESTS := e2e or runner or worker or faults or fuzz
PYTEST_LOGS := test-artifacts/pytest

.PHONY: install system-packages runner demo test test-fast pytest lint typecheck migrations-check bench audit reliability

install: system-packages $(VENV)/.installed node_modules/.installed runner

system-packages:
	scripts/install-system-packages.sh

$(VENV)/.installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

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

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy .

migrations-check: $(VENV)/.installed
	$(PY) manage.py makemigrations --check --dry-run

# Every group runs to the end and prints its own report; any failing fails the target (pytest exits
# 5 when a group collected no test, which fails it too).
pytest: install
	mkdir -p $(PYTEST_LOGS)
	run() { DATABASE_URL=$(TEST_DATABASE_URL)$$2 REDIS_URL=$$3 CACHE_URL=$$4 \
		$(VENV)/bin/pytest -m "$$5" $(PYTEST_ARGS) > $(PYTEST_LOGS)/$$1.log 2>&1; }; \
	run browser-runner _browser $(TEST_REDIS_URL_BROWSER) $(TEST_CACHE_URL_BROWSER) "e2e or runner" & browser=$$!; \
	run worker-stack _stack $(TEST_REDIS_URL_STACK) $(TEST_CACHE_URL_STACK) "worker or faults or fuzz" & stack=$$!; \
	run rest "" $(TEST_REDIS_URL) $(TEST_CACHE_URL) "not ($(SLOW_TESTS))" && rest=0 || rest=$$?; \
	wait $$browser && browser=0 || browser=$$?; \
	wait $$stack && stack=0 || stack=$$?; \
	for group in rest browser-runner worker-stack; do echo "== pytest: $$group"; cat $(PYTEST_LOGS)/$$group.log; done; \
	echo "exit codes: rest $$rest, browser-runner $$browser, worker-stack $$stack"; \
	exit $$(( rest || browser || stack ))

# The inner loop: everything but the browser, MPI, worker, stack and fuzzing tests (no runner build).
test-fast: $(VENV)/.installed
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) CACHE_URL=$(TEST_CACHE_URL) \
		$(VENV)/bin/pytest -m "not ($(SLOW_TESTS))" $(PYTEST_ARGS)

# Known vulnerabilities in the pinned packages fail; an unreachable advisory service is reported, not
# passed silently (scripts/audit_dependencies.py, AUDIT_STRICT=1 to fail on it too).
audit: $(VENV)/.installed
	$(PY) scripts/audit_dependencies.py requirements.txt

test: install lint migrations-check audit pytest

# docs/reliability.md from one run of the reliability tests, the long fuzzing run and three load runs
# (target load, a lighter one, and the lighter one with archives in object storage; about 25
# minutes). The document is written even when a run fails, and the failure is reported.
reliability: install
	rm -rf test-artifacts/reliability
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) CACHE_URL=$(TEST_CACHE_URL) $(VENV)/bin/pytest \
		tests/reliability tests/scoring/test_readers_fuzz.py tests/scoring/test_readers_properties.py \
		tests/registry/core/test_public_cache.py
	$(PY) benchmarks/fuzz.py && fuzz=0 || fuzz=$$?; \
	$(PY) benchmarks/load.py && load=0 || load=$$?; \
	$(PY) benchmarks/load.py --reader-think 4 --uploader-think 8 && light=0 || light=$$?; \
	$(PY) benchmarks/load.py --reader-think 4 --uploader-think 8 --object-storage && s3=0 || s3=$$?; \
	$(PY) benchmarks/reliability_report.py; \
	exit $$(( fuzz || load || light || s3 ))

bench: install
	$(PY) benchmarks/verify_corpus.py $(DATA)/submissions
