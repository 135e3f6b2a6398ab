"""The long fuzzing run: the scoring readers and the live API, with inputs tried and failures counted.

    .venv/bin/python benchmarks/fuzz.py [--reader-inputs 20000] [--api-examples 300]

1. Readers: random damage (bit flips, cuts, shuffled lines, nasty numbers, appended garbage) to the
   real result folders of every format family, read through `scoring.readers.read_run`; the hostile
   archive corpus through `scoring.verify`. Anything but a result or ReadError is a failure.
2. API: schemathesis generates valid and invalid requests from our OpenAPI schema (/api/schema/)
   and sends them over HTTP to gunicorn on a private stack (tests/reliability/stack.py). Any 5xx
   answer or transport error is a failure.
Exit status 0 only with zero failures. The figures go to docs/reliability.md via the records.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scoring import verify  # noqa: E402
from scoring.model import ReadError  # noqa: E402
from scoring.readers import read_run  # noqa: E402
from tests.reliability.hostile import HOSTILE, Context  # noqa: E402
from tests.reliability.records import record  # noqa: E402
from tests.reliability.stack import Stack  # noqa: E402
from tests.scoring.readers.test_properties import CORPUS, SAMPLES, _files, _mutate  # noqa: E402

DATA = REPO.parent / "shared" / "io500-data" / "submissions"
MUTATIONS = ("flip", "truncate", "shuffle", "numbers", "append")


def fuzz_readers(inputs: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    outcomes: Counter[str] = Counter()
    failures: list[str] = []
    started = time.monotonic()
    for index in range(inputs):
        sample = rng.choice(SAMPLES)
        contents = dict(CORPUS[sample])
        names = sorted(contents)
        for _ in range(rng.randint(1, 4)):
            name = rng.choice(names)
            contents[name] = _mutate(contents[name], rng.choice(MUTATIONS), rng)
        try:
            read_run(_files(sample, contents))
            outcomes["read"] += 1
        except ReadError:
            outcomes["refused with a reason"] += 1
        except Exception:
            outcomes["unhandled exception"] += 1
            failures.append(f"input {index} (seed {seed}, {sample}): {traceback.format_exc(limit=3)}")
    return {
        "inputs": inputs,
        "seconds": round(time.monotonic() - started, 1),
        "outcomes": dict(outcomes),
        "failures": failures,
    }


def fuzz_hostile_archives() -> dict[str, Any]:
    outcomes: Counter[str] = Counter()
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        canary = Path(folder) / "canary"
        canary.mkdir()
        context = Context(
            DATA / "submission-33", DATA / "submission-3/data/results/2019.11.11-04.23.30", canary
        )
        for hostile in HOSTILE:
            archive = Path(folder) / hostile.filename
            archive.write_bytes(hostile.build(context))
            try:
                verify(archive)
                outcomes["read (unsafe members skipped)"] += 1
            except ReadError:
                outcomes["refused with a reason"] += 1
            except Exception:
                outcomes["unhandled exception"] += 1
                failures.append(f"{hostile.kind}: {traceback.format_exc(limit=3)}")
            archive.unlink()
    return {"inputs": len(HOSTILE), "outcomes": dict(outcomes), "failures": failures}


def _fuzz_operation(
    operation: Any,
    mode: Any,
    examples: int,
    token: str,
    tried: Counter[str],
    statuses: Counter[str],
    failures: list[str],
) -> None:
    from hypothesis import HealthCheck, given, settings

    label = f"{operation.label} ({mode.value})"

    @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case: Any) -> None:
        tried[label] += 1
        try:
            response = case.call(headers={"Authorization": f"Token {token}"}, timeout=60)
        except Exception as exc:  # a dropped connection is as bad as a 500
            failures.append(f"{label}: {type(exc).__name__}: {exc}")
            return
        statuses[f"{response.status_code // 100}xx"] += 1
        if response.status_code >= 500:
            failures.append(f"{label}: {response.status_code} for {case.as_curl_command()}")

    run()


def fuzz_api(examples: int) -> dict[str, Any]:
    import schemathesis
    from schemathesis import GenerationMode
    from schemathesis.core.result import Err

    statuses: Counter[str] = Counter()
    failures: list[str] = []
    tried: Counter[str] = Counter()
    started = time.monotonic()
    with Stack.create(database="io500_fuzz", env={"UPLOAD_RATE": "", "UPLOAD_BYTES_PER_DAY": "0"}) as stack:
        stack.start_web(workers=2, threads=4)
        token = stack.api_token("fuzzer")
        schema = schemathesis.openapi.from_url(stack.url("/api/schema/"))
        for result in schema.get_all_operations():
            if isinstance(result, Err):
                failures.append(f"the schema has an operation schemathesis cannot use: {result.err()}")
                continue
            operation = result.ok()
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                _fuzz_operation(operation, mode, examples, token, tried, statuses, failures)
        server_log = "\n".join(s.log.read_text(errors="replace") for s in stack.services)
    return {
        "inputs": sum(tried.values()),
        "seconds": round(time.monotonic() - started, 1),
        "per_operation": dict(tried),
        "statuses": dict(statuses),
        "failures": failures,
        "tracebacks_in_server_log": server_log.count("Traceback"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--reader-inputs", type=int, default=20_000)
    parser.add_argument("--api-examples", type=int, default=300, help="per operation and generation mode")
    parser.add_argument("--seed", type=int, default=500)
    args = parser.parse_args()

    readers = fuzz_readers(args.reader_inputs, args.seed)
    print(
        f"readers: {readers['inputs']} damaged result folders in {readers['seconds']} s:", readers["outcomes"]
    )
    archives = fuzz_hostile_archives()
    print(f"scoring on hostile archives: {archives['inputs']} archives: {archives['outcomes']}")
    api = fuzz_api(args.api_examples)
    print(f"API: {api['inputs']} generated requests in {api['seconds']} s: {api['statuses']}")
    for label, count in sorted(api["per_operation"].items()):
        print(f"  {count:6d}  {label}")
    failures = readers["failures"] + archives["failures"] + api["failures"]
    for failure in failures[:10]:
        print(f"FAILURE {failure}")
    print(f"server tracebacks logged: {api['tracebacks_in_server_log']}")
    print(f"{len(failures)} failure(s)")
    record(
        "fuzz",
        "readers",
        inputs=readers["inputs"],
        outcomes=readers["outcomes"],
        failures=len(readers["failures"]),
        seconds=readers["seconds"],
    )
    record(
        "fuzz",
        "hostile archives through scoring",
        inputs=archives["inputs"],
        failures=len(archives["failures"]),
    )
    record(
        "fuzz",
        "api",
        inputs=api["inputs"],
        statuses=api["statuses"],
        server_errors=sum(1 for f in api["failures"] if " 5" in f or "Error" in f),
        failures=len(api["failures"]),
        tracebacks_in_server_log=api["tracebacks_in_server_log"],
        seconds=api["seconds"],
    )
    return 0 if not failures and api["tracebacks_in_server_log"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
