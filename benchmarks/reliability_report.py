"""Render docs/reliability.md from the records the reliability tests and benchmarks leave behind.

    .venv/bin/python benchmarks/reliability_report.py [--records test-artifacts/reliability]

`make reliability` clears the records, runs tests/reliability, benchmarks/fuzz.py and
benchmarks/load.py, then calls this. Every figure in the document comes from a record of that run;
a section whose check did not run says so instead of showing old numbers.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.reliability.records import RECORDS_DIR, load_records  # noqa: E402

OUTPUT = REPO / "docs" / "reliability.md"


def _table(headers: list[str], rows: list[list[Any]]) -> list[str]:
    def cell(value: Any) -> str:
        return str(value).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join(" --- " for _ in headers) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return lines


def _missing(what: str, command: str) -> list[str]:
    return [f"*Not measured in this run: {what}. Run `{command}`.*", ""]


def _hostile(records: dict[str, list[dict[str, Any]]]) -> list[str]:
    out = ["## Hostile archives", ""]
    eager = sorted(records.get("hostile", []), key=lambda r: r["kind"])
    if not eager:
        return out + _missing("the hostile corpus", "pytest tests/reliability/test_hostile_archives.py")
    refused = sum(1 for r in eager if r["status"] in ("rejected", "invalid"))
    out += [
        f"{len(eager)} kinds of hostile upload, each built on the fly (tests/reliability/hostile.py) and "
        f"sent through the API and the ingest pipeline: **{refused} of {len(eager)} refused** with a reason, "
        "raw bytes kept (SHA-256 of the stored file equals the upload), nothing written to the canary "
        "folder "
        "outside the sandbox, the scratch folder removed.",
        "",
    ]
    rows = [[r["kind"], f"{r['bytes']:,}", r["status"], r["reason"][:140]] for r in eager]
    out += _table(["attack", "upload bytes", "verdict", "reason given to the submitter"], rows)
    for worker in records.get("hostile-worker", []):
        out += [
            "",
            f"Through the real Celery worker: {worker['archives']} of these archives "
            f"({worker['total_bytes'] / 2**20:.1f} MiB in all) in {worker['seconds']} s; peak RSS of the "
            f"pool process **{worker['worker_peak_rss_mib']} MiB** (VmHWM; main process "
            f"{worker['worker_main_peak_rss_mib']} MiB), pool processes replaced: {worker['pool_restarts']}.",
        ]
    return [*out, ""]


def _fuzz(records: dict[str, list[dict[str, Any]]]) -> list[str]:
    out = ["## Fuzzing", ""]
    ci = records.get("fuzz-api-ci", [])
    if ci:
        total = sum(r["inputs"] for r in ci)
        out += [
            f"In CI (schemathesis through WSGI, modest budget): {total} generated requests, 0 server errors.",
            "",
        ]
        out += _table(
            ["operation", "inputs", "5xx"], [[r["operation"], r["inputs"], r["server_errors"]] for r in ci]
        )
        out.append("")
    long_run = {r["key"]: r for r in records.get("fuzz", [])}
    if not long_run:
        return out + _missing("the long fuzzing run", "python benchmarks/fuzz.py")
    rows = []
    if "readers" in long_run:
        r = long_run["readers"]
        rows.append(["scoring readers, damaged real folders", r["inputs"], r["outcomes"], r["failures"]])
    if "hostile archives through scoring" in long_run:
        r = long_run["hostile archives through scoring"]
        rows.append(["scoring.verify on the hostile archives", r["inputs"], "-", r["failures"]])
    if "api" in long_run:
        r = long_run["api"]
        rows.append(
            ["API over HTTP (schemathesis, valid and invalid)", r["inputs"], r["statuses"], r["failures"]]
        )
    out += ["Long run (`benchmarks/fuzz.py`):", ""]
    out += _table(["target", "inputs tried", "outcomes", "failures (unhandled exceptions, 5xx)"], rows)
    return [*out, ""]


def _faults(records: dict[str, list[dict[str, Any]]]) -> list[str]:
    out = ["## Faults", ""]
    faults = sorted(records.get("faults", []), key=lambda r: r["key"])
    if not faults:
        return out + _missing("fault injection", "pytest tests/reliability/test_faults.py")
    out += [
        "Injected into a private stack (own PostgreSQL cluster, Redis, gunicorn, Celery worker and beat, "
        "media on a tmpfs), never into the machine's shared services. The stack's ingest lease is 6 s "
        "renewed every second and the requeue runs every 2 s, so recovery there takes seconds; with the "
        "production defaults (a 60 s lease renewed every 15 s, requeue every 30 s) a dead worker's "
        "submission is requeued within 90 s. Worker-kill and Redis-restart run on local archives and "
        "on object storage (an S3-compatible server, a local folder per service). Faults of ours are "
        "retried, never the submitter's rejection: the stack retries a full scratch disk after 3 s, then "
        "6 s (production: 1 minute, doubling up to an hour). A hung S3 server costs the first upload "
        "in each web process the storage timeouts (2 attempts of 5 s); then that process answers 507 at "
        "once for the pause (5 s here, 30 s in production).",
        "",
    ]
    rows = [
        [
            r["fault"],
            r["submissions"],
            r["lost"],
            r["stuck"],
            r["duplicated"],
            r.get("recovered_in_s", "-"),
            r.get("answered_during_outage") or r.get("answered_while_full") or "-",
            r["recovery"],
            " ".join(r["loadavg"]) if r.get("loadavg") else "-",
        ]
        for r in faults
    ]
    out += _table(
        [
            "fault",
            "submissions",
            "lost",
            "stuck",
            "duplicated",
            "recovered in s",
            "answer meanwhile",
            "recovery",
            "load average (1, 5, 15 min)",
        ],
        rows,
    )
    return [*out, ""]


def _header_bombs(records: dict[str, list[dict[str, Any]]]) -> list[str]:
    out = ["## Header bombs", ""]
    bombs = sorted(records.get("header-bombs", []), key=lambda r: (r["kind"], r["reader"]))
    if not bombs:
        return out + _missing("the header bombs", "pytest tests/reliability/test_hostile_archives.py")
    out += [
        "Tar header members that declare a huge size (gzip shrinks a 1 GiB header to about 1 MiB) and "
        "damaged compressed streams, through the upload sandbox (extract) and the scoring engine "
        "(scoring). Each is refused before the header is read; peak growth is the reader process's.",
        "",
    ]
    rows = [
        [r["kind"], r["reader"], r["bytes"], r["seconds"], r["peak_growth_mib"], " ".join(r["loadavg"])]
        for r in bombs
    ]
    out += _table(["attack", "reader", "upload bytes", "seconds", "peak growth MiB", "load average"], rows)
    return [*out, ""]


def _archive_walk(records: dict[str, list[dict[str, Any]]]) -> list[str]:
    out = ["## Archive walk: skipped data and entry floods", ""]
    attacks = sorted(records.get("archive-walk", []), key=lambda r: (r["kind"], r["reader"]))
    if not attacks:
        return out + _missing("the archive-walk attacks", "pytest tests/reliability/test_hostile_archives.py")
    out += [
        "Data no reader keeps (a member named `.` or `./`, a folder or a volume header with 1 GiB of zeros "
        "in 12 KB of bzip2) and entry floods (files 61 folders deep on paths of their own; a zip of "
        "10,001 folder entries), through the upload sandbox (extract) and the scoring engine (scoring), "
        "which share one walker and one set of limits. Folders are those the sandbox created before the "
        "refusal; benchmarks/archive_walk.py measures the same attacks at full size, before and after.",
        "",
    ]
    rows = [
        [
            r["kind"],
            r["reader"],
            r["bytes"],
            r["seconds"],
            r["peak_growth_mib"],
            r["folders_created"],
            r["reason"][:90],
            " ".join(r["loadavg"]),
        ]
        for r in attacks
    ]
    headers = ["attack", "reader", "upload bytes", "seconds", "peak growth MiB", "folders", "reason", "load"]
    out += _table(headers, rows)
    return [*out, ""]


def _slow_clients(records: dict[str, list[dict[str, Any]]]) -> list[str]:
    out = ["## Slow clients", ""]
    runs = records.get("slow-clients", [])
    if not runs:
        return out + _missing("the slow-client attack", "pytest tests/reliability/test_faults.py")
    rows = [
        [
            r["fault"],
            r["healthz_median_ms_behind_nginx"],
            r["healthz_p_max_ms_behind_nginx"],
            r["healthz_max_ms_straight_at_gunicorn"],
            " ".join(r["loadavg"]),
        ]
        for r in runs
    ]
    out += [
        "nginx buffers every request in front of gunicorn (docker/nginx.conf); the same attack straight "
        "at gunicorn is shown for comparison (5000 ms = the probe timed out).",
        "",
    ]
    out += _table(
        [
            "attack",
            "/healthz median ms (nginx)",
            "/healthz max ms (nginx)",
            "/healthz max ms (gunicorn alone)",
            "load average",
        ],
        rows,
    )
    return [*out, ""]


def _proxy(records: dict[str, list[dict[str, Any]]]) -> list[str]:
    out = ["## The proxy: request bodies, many slow connections, the Host header", ""]
    bodies = {r["key"]: r for r in records.get("proxy-bodies", [])}
    connections = records.get("proxy-connections", [])
    host = records.get("proxy-host", [])
    if not (bodies or connections or host):
        return out + _missing("the proxy attacks", "pytest tests/reliability/test_proxy.py")
    out += [
        "docker/nginx-main.conf and docker/nginx.conf, as compose runs them, on the private stack. "
        "Anonymous bodies larger than a form (1 MiB) are refused before nginx reads them: 413 where no "
        "upload is taken, 401 on the upload endpoints after nginx asked Django (`auth_request`) whether "
        "the request is logged in; *temp bytes* is the most nginx held in body temp files meanwhile.",
        "",
    ]
    anonymous = bodies.get("anonymous bodies")
    if anonymous:
        rows = [
            [where, f"{anonymous['body_mib']} MiB", o["status"], o["seconds"], o["temp_bytes"]]
            for where, o in anonymous["outcomes"].items()
        ]
        out += [*_table(["anonymous POST to", "body", "status", "seconds", "temp bytes"], rows), ""]
    logged_in = bodies.get("logged-in uploads")
    if logged_in:
        out += [
            f"A logged-in upload of {logged_in['body_mib']} MiB reaches the registry: API "
            f"{logged_in['api_status']}, web form {logged_in['form_status']}.",
            "",
        ]
    space = bodies.get("temp space")
    if space:
        out += [
            "Temp space (tmpfs in compose, sized by nginx.conf's limits): "
            f"{space['client_temp_mib']} MiB for bodies of other requests, "
            f"{space['upload_temp_mib']} MiB for uploads.",
            "",
        ]
    if connections:
        rows = [
            [
                r["connections"],
                r["addresses"],
                r["still_held"],
                r["probes"],
                r["probe_failures"],
                r["healthz_median_ms"],
                r["healthz_max_ms"],
                " ".join(f"{x:.2f}" for x in r["loadavg"]),
            ]
            for r in connections
        ]
        out += [
            "Slow connections from many loopback addresses, each under the per-address limit (half "
            "unfinished request heads, half unfinished 0.9 MB bodies), while /healthz is probed:",
            "",
        ]
        headers = ["connections", "addresses", "still held at the end", "probes", "failed"]
        headers += ["/healthz median ms", "/healthz max ms", "load average"]
        out += [*_table(headers, rows), ""]
    for r in host:
        kept = "keeps" if r["port_kept"] else "loses"
        out += [
            f"A password-reset mail asked for through the proxy on {r['link_origin']} {kept} the port.",
            "",
        ]
    return out


def _cache_keys(records: dict[str, list[dict[str, Any]]]) -> list[str]:
    out = ["## Cache keys from junk query strings", ""]
    runs = records.get("cache-keys", [])
    if not runs:
        return out + _missing("the junk-query test", "pytest tests/registry/core/test_public_cache.py")
    out += [
        "Anonymous requests with made-up, repeated or misspelt parameters on every public page "
        "(registry.core.public_cache keys only on the parameters each view reads), and distinct custom "
        "formulas on a list's page, CSV, JSON and API (a custom ranking is computed from the cached rows, "
        "never stored); target 0 new keys.",
        "",
    ]
    rows = [
        [
            r["key"],
            r["requests"],
            r["keys_added"],
            ", ".join(f"{k}: {v}" for k, v in r["statuses"].items()) or "200",
        ]
        for r in sorted(runs, key=lambda r: r["key"])
    ]
    out += _table(["queries", "requests", "cache keys added", "answers"], rows)
    return [*out, ""]


def _embargo(records: dict[str, list[dict[str, Any]]]) -> list[str]:
    out = ["## Embargoed runs on public pages", ""]
    runs = records.get("embargo-sweep", [])
    if not runs:
        return out + _missing("the embargo sweep", "pytest tests/reliability/test_embargo_sweep.py")
    out += [
        "A release under embargo holds an accepted run with marker strings (system, institution, "
        "submitter); the committee publishes a later release whose cumulative lists reach back to it. "
        "Every public URL the sweep reaches (list pages, CSV/JSON, bulk downloads, chart JSON, API, "
        "system, submission and compare pages, and every link on them), anonymously and as an unrelated "
        "user, is searched for the markers (target 0; before the fix 82 of 250). After the embargo "
        "ends, the release's own lists must show the run again.",
        "",
    ]
    rows = [
        [
            r["urls_checked"],
            ", ".join(f"{k}: {v}" for k, v in r["statuses"].items()),
            r["hits"],
            r["urls_after_end"],
            r["hits_after_end"],
            r["seconds"],
            r.get("load_average", "-"),
        ]
        for r in runs
    ]
    headers = ["URLs read", "answers", "marker hits", "URLs after the end", "hits after the end", "s", "load"]
    return [*out, *_table(headers, rows), ""]


def _run_identity(records: dict[str, list[dict[str, Any]]]) -> list[str]:
    out = ["## Run identity against renamed and re-packed runs", ""]
    found = {r["key"]: r for r in records.get("run-identity", [])}
    if not found:
        return out + _missing("the run identity checks", "pytest tests/reliability/test_run_identity.py")
    out += [
        "A run is recognised by what it measured and when (phase values, run times, result.txt's phase "
        "clocks, the C application's config.ini), never by a folder, file or archive name "
        "(submissions/run_identity.py). Re-packings of a real C-application and a real shell-era run "
        "(folder renamed, archive renamed, bzip2, xz, zip, unrelated files, all at once) must keep the "
        "fingerprint, so `run-already-submitted` names the first upload; across the shared corpus a "
        "shared fingerprint must mean byte-identical summaries.",
        "",
    ]
    rows: list[list[Any]] = []
    if "re-packing" in found:
        r = found["re-packing"]
        rows.append(["re-packed real runs recognised", f"{r['recognised']} of {r['packings']}", "target all"])
    if "corpus" in found:
        r = found["corpus"]
        rows.append(
            [
                "shared corpus runs / fingerprints",
                f"{r['runs']} / {r['fingerprints']}",
                f"{r['shared_by_copies']} shared by byte-identical copies, {r['shared_by_distinct_runs']} "
                f"by distinct runs (target 0); {r['seconds']} s, load {r['load_average']}",
            ]
        )
    return [*out, *_table(["check", "figure", "note"], rows), ""]


def _evidence(records: dict[str, list[dict[str, Any]]]) -> list[str]:
    return [
        "## Evidence behind each verdict",
        "",
        "How many runs of the shared corpus carry each kind of raw evidence and how many agree with "
        "their summary: [docs/evidence.md](evidence.md) (`benchmarks/evidence_table.py`).",
        "",
    ]


def _security(records: dict[str, list[dict[str, Any]]]) -> list[str]:
    out = ["## Security checks", ""]
    checks = sorted(records.get("security", []), key=lambda r: r["key"])
    if not checks:
        return out + _missing("security checks", "pytest tests/reliability/test_security.py")
    skip = {"topic", "key", "recorded_at"}
    rows = [[r["key"], ", ".join(f"{k} {v}" for k, v in sorted(r.items()) if k not in skip)] for r in checks]
    return [*out, *_table(["check", "result"], rows), ""]


def _machine(run: dict[str, Any]) -> str:
    if "cpus" not in run:
        return "its core count and load were not recorded in this run"
    return f"{run['cpus']} cores, load average {run['machine_load_average']} at the end, other work included"


def _load(records: dict[str, list[dict[str, Any]]]) -> list[str]:
    out = ["## Load", ""]
    runs = sorted(records.get("load", []), key=lambda r: (r["readers"], -r["reader_think_s"]))
    if not runs:
        return out + _missing("the load run", "python benchmarks/load.py")
    for r in runs:
        out += [
            f"### {r['readers']} readers (mean pause {r['reader_think_s']} s), {r['uploaders']} uploaders "
            f"(mean pause {r['uploader_think_s']} s), {r['duration_s']} s, archives: "
            f"{r.get('archives', 'one local folder')}",
            "",
            f"`benchmarks/load.py`: {r.get('web', 'gunicorn')}, PostgreSQL, Redis and 2 Celery workers "
            f"(nice {r.get('worker_nice', 0)}) on this machine ({_machine(r)}); uploads are real result "
            "folders, each a unique variant, some sent twice.",
            "",
        ]
        rows = [
            [k, v["requests"], v["per_s"], v["p50_ms"], v["p99_ms"], v["errors"]]
            for k, v in sorted(r["kinds"].items())
        ]
        out += _table(["requests", "count", "per s", "p50 ms", "p99 ms", "errors"], rows)
        target = "met" if r["reader_p99_ms"] < r["reader_p99_target_ms"] else "**not met**"
        out += [
            "",
            f"All reads: p50 {r['reader_p50_ms']} ms, p99 {r['reader_p99_ms']} ms (target under "
            f"{r['reader_p99_target_ms']} ms: {target}). After the run: {r['uploads']} unique uploads, "
            f"{r['stored']} stored, lost {r['lost']}, duplicated {r['duplicated']}, "
            f"wrong verdict {r['wrong_verdict']}, unfinished {r['unfinished']} "
            f"(all final {r['drained_s']} s after the load stopped).",
            "",
        ]
    return out


def _summary(records: dict[str, list[dict[str, Any]]]) -> list[str]:
    lost = sum(r["lost"] for r in records.get("faults", [])) + sum(r["lost"] for r in records.get("load", []))
    duplicated = sum(r["duplicated"] for r in records.get("faults", [])) + sum(
        r["duplicated"] for r in records.get("load", [])
    )
    hostile = records.get("hostile", [])
    refused = sum(1 for r in hostile if r["status"] in ("rejected", "invalid"))
    fuzz = records.get("fuzz", []) + records.get("fuzz-api-ci", [])
    fuzz_inputs = sum(r["inputs"] for r in fuzz)
    fuzz_failures = sum(r.get("failures", 0) + r.get("server_errors", 0) for r in fuzz)
    faults = records.get("faults", [])
    load = records.get("load", [])
    heaviest = max(load, key=lambda r: r["readers"] / (1 + r["reader_think_s"]), default=None)
    load_figure = (
        f"{heaviest['readers']} readers + {heaviest['uploaders']} uploaders, {heaviest['duration_s']} s"
        if heaviest
        else "not run"
    )
    errors = sum(v["errors"] for r in load for v in r["kinds"].values())
    load_errors = f"{len(load)} run(s), {errors} errors" if load else ""
    rows: list[list[Any]] = [
        ["hostile archive kinds tried", len(hostile), f"{refused} refused with a reason"],
        ["fuzzed inputs (readers and API)", f"{fuzz_inputs:,}", f"{fuzz_failures} failures"],
        ["faults injected", len(faults), ", ".join(r["key"] for r in faults)],
        ["load held", load_figure, load_errors],
        ["submissions lost", lost, "must be 0"],
        ["submissions duplicated", duplicated, "must be 0"],
    ]
    return ["## Summary", "", *_table(["what", "figure", "note"], rows), ""]


def render(folder: Path) -> str:
    records = load_records(folder)
    stamps = sorted(r["recorded_at"] for topic in records.values() for r in topic)
    period = f"{stamps[0]} to {stamps[-1]}" if stamps else "no records"
    lines = [
        "# Reliability: hostile input, faults, load",
        "",
        "Generated by `make reliability` (benchmarks/reliability_report.py) from the records of the tests in "
        "tests/reliability/ and of benchmarks/fuzz.py and benchmarks/load.py; do not edit by hand.",
        f"Records from {period}; rendered {time.strftime('%Y-%m-%d %H:%M %Z')}.",
        "",
    ]
    sections = (
        _summary,
        _hostile,
        _header_bombs,
        _archive_walk,
        _fuzz,
        _faults,
        _slow_clients,
        _proxy,
        _cache_keys,
        _embargo,
        _run_identity,
        _evidence,
        _security,
        _load,
    )
    for section in sections:
        lines += section(records)
    return "\n".join(lines).rstrip() + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--records", type=Path, default=RECORDS_DIR)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(render(args.records))
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
