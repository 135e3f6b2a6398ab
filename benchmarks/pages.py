"""Load test of the public pages and chart JSON at 10,000 submissions over 20 releases.

    .venv/bin/python benchmarks/pages.py [--submissions 10000] [--releases 20] [--clients 8]

It builds (once) a database of synthetic submissions whose values are the real published IO500
values of ../shared/io500-data scaled and perturbed, publishes one ranked list per release, then
starts gunicorn on 127.0.0.1 twice: with a dummy cache (every request uncached) and with the local
memory cache (warm). Concurrent client threads with http.client measure requests per second and
p50/p99 latency per URL; the query count of each page is measured in-process at two list sizes.
Python client threads share the 2 cores with the server and saturate before it does, so the warm
round also measures the list page and chart JSON with wrk (a C client, `--wrk-duration` seconds per
URL, 2 threads and `--wrk-connections` connections), which shows what the server itself can answer.

The database is BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/io500_pages_bench); it is
created when missing and reused when it already holds the requested data.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import http.client
import math
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from submissions.io500_org import IO500_ORG_PHASE_NAMES  # noqa: E402  (the repository root goes first)

DATA = REPO.parent / "shared" / "io500-data" / "lists" / "submissions.csv"
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/io500_pages_bench"
PHASE_COLUMNS = IO500_ORG_PHASE_NAMES  # the scored phases: bandwidth first, then metadata
FILESYSTEMS = ("Lustre", "BeeGFS", "Spectrum Scale", "DAOS", "WekaIO", "CephFS", "GekkoFS", "IME", "NFS")
RULES_WINDOW = 3
OPT_IN_TENTHS = 6  # six in ten submitters asked to be ranked
VENDORS = ("DDN", "HPE", "IBM", "Intel", "WekaIO", "ThinkParQ", "Dell", "Huawei", "NetApp", "Self")


def setup_django(database_url: str, cache: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ["BENCH_CACHE"] = cache
    os.environ["DJANGO_SETTINGS_MODULE"] = "benchmarks.pages_settings"
    sys.path.insert(0, str(REPO))
    import django

    django.setup()


def ensure_database(database_url: str) -> None:
    import psycopg

    name = database_url.rsplit("/", 1)[1]
    server = database_url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(server, autocommit=True) as connection:
        if connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
            connection.execute(f'CREATE DATABASE "{name}"')


def real_rows() -> list[dict[str, float]]:
    """Published submissions with a positive BW, MD and every phase value: the templates to perturb."""
    rows = []
    with DATA.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            values: dict[str, float] = {}
            for phase, column in PHASE_COLUMNS.items():
                try:
                    values[phase] = float(
                        row.get(column) or (row.get("find_easy") if phase == "find" else "") or ""
                    )
                except ValueError:
                    break
            else:
                try:
                    values["bw"], values["md"] = float(row["io500_bw"]), float(row["io500_md"])
                except ValueError:
                    continue
                if all(v > 0 for v in values.values()):
                    rows.append(values)
    if not rows:
        raise SystemExit(f"No usable published rows in {DATA}.")
    return rows


def build(submissions: int, releases: int, seed: int = 500) -> None:
    """Synthetic releases, systems, submissions with primary runs and 12 phases, one ranked list each."""
    from django.core.management import call_command
    from django.db import transaction
    from django.utils import timezone

    from registry.models import ListEntry, ListSnapshot, Release
    from submissions.models import (
        Institution,
        PhaseResult,
        Result,
        StorageSystem,
        Submission,
        SystemDescription,
    )

    call_command("migrate", verbosity=0)
    if Submission.objects.filter(source="import", io500_id__isnull=True).count() >= submissions:
        print(f"Reusing the benchmark database ({Submission.objects.count()} submissions).")
        return
    rng = random.Random(seed)
    templates = real_rows()
    started = time.monotonic()
    with transaction.atomic():
        ListEntry.objects.all().delete()
        ListSnapshot.objects.all().delete()
        PhaseResult.objects.all().delete()
        Result.objects.all().delete()
        SystemDescription.objects.all().delete()
        Submission.history.all().delete()
        Submission.objects.all().delete()
        StorageSystem.objects.all().delete()
        Institution.objects.all().delete()
        Release.objects.all().delete()
        release_rows = Release.objects.bulk_create(
            Release(
                name=f"B{index:02d}",
                slug=f"b{index:02d}",
                publication_date=datetime.date(2017, 11, 15) + datetime.timedelta(days=183 * index),
                list_kinds=["io500", "full", "historical"],
            )
            for index in range(1, releases + 1)
        )
        institutions = Institution.objects.bulk_create(Institution(name=f"Centre {n}") for n in range(400))
        systems = StorageSystem.objects.bulk_create(
            StorageSystem(
                name=f"Machine {n}",
                institution=institutions[n % len(institutions)],
                filesystem_type=rng.choice(FILESYSTEMS),
                vendor=rng.choice(VENDORS),
            )
            # About sixteen submissions per system over the releases, as active sites resubmit.
            for n in range(max(1, submissions // 16))
        )
        # Later releases receive more submissions, as the real lists grew; the weights sum to 1.
        weights = [1 + index for index in range(releases)]
        per_release = [round(submissions * w / sum(weights)) for w in weights]
        per_release[-1] += submissions - sum(per_release)
        plan: list[tuple[Release, dict[str, float], float]] = []
        for release, count in zip(release_rows, per_release, strict=True):
            growth = 1.25 ** release_rows.index(release)
            plan.extend((release, rng.choice(templates), growth) for _ in range(count))
        made = Submission.objects.bulk_create(
            Submission(
                source=Submission.Source.IMPORT,
                status=Submission.Status.VERIFIED,
                release=release,
                storage_system=rng.choice(systems),
                valid=True,
                ten_node=False,
            )
            for release, _, _ in plan
        )
        results = []
        phases = []
        descriptions = []
        for submission, (_, template, growth) in zip(made, plan, strict=True):
            factor = growth * math.exp(rng.gauss(0, 0.6))
            values = {
                phase: template[phase] * factor * math.exp(rng.gauss(0, 0.2)) for phase in PHASE_COLUMNS
            }
            bw = math.exp(sum(math.log(values[p]) for p in list(PHASE_COLUMNS)[:4]) / 4)
            md = math.exp(sum(math.log(values[p]) for p in list(PHASE_COLUMNS)[4:]) / 8)
            submission.bw, submission.md, submission.score = bw, md, math.sqrt(bw * md)
            results.append(Result(submission=submission, path=".", is_primary=True, era="c-sc21", valid=True))
            descriptions.append(
                SystemDescription(
                    submission=submission,
                    client_nodes=rng.choice((10, 16, 32, 64, 128, 512)),
                    procs_per_node=32,
                )
            )
            phases.append(values)
        Submission.objects.bulk_update(made, ["bw", "md", "score"], batch_size=2000)
        SystemDescription.objects.bulk_create(descriptions, batch_size=2000)
        Result.objects.bulk_create(results, batch_size=2000)
        PhaseResult.objects.bulk_create(
            (
                PhaseResult(
                    result=result,
                    name=phase,
                    order=order,
                    value=value,
                    unit="GiB/s" if phase.startswith("ior") else "kIOPS",
                    time_s=300.0 + rng.random() * 30,
                )
                for result, values in zip(results, phases, strict=True)
                for order, (phase, value) in enumerate(values.items())
            ),
            batch_size=5000,
        )
        # One ranked list per release, as io500.org built them: the best opted-in submission of each
        # system among the releases its rules still accept (here the last RULES_WINDOW releases).
        by_release: dict[int, list[Submission]] = {}
        for submission in made:
            by_release.setdefault(submission.release_id or 0, []).append(submission)
        for position, release in enumerate(release_rows):
            best: dict[int, Submission] = {}
            for accepted in release_rows[max(0, position - RULES_WINDOW + 1) : position + 1]:
                for submission in by_release.get(accepted.pk, []):
                    if submission.pk % 10 >= OPT_IN_TENTHS:
                        continue
                    holder = best.get(submission.storage_system_id or 0)
                    if holder is None or (submission.score or 0) > (holder.score or 0):
                        best[submission.storage_system_id or 0] = submission
            snapshot = ListSnapshot.objects.create(
                release=release, kind="io500", status=ListSnapshot.Status.DRAFT
            )
            ranked = sorted(best.values(), key=lambda s: -(s.score or 0))
            ListEntry.objects.bulk_create(
                (
                    ListEntry(
                        snapshot=snapshot, rank=rank, submission=s, score=s.score or 0, bw=s.bw, md=s.md
                    )
                    for rank, s in enumerate(ranked, start=1)
                ),
                batch_size=5000,
            )
            snapshot.status = ListSnapshot.Status.PUBLISHED
            snapshot.published_at = timezone.now()
            snapshot.save()
    print(f"Built {len(made)} submissions over {releases} releases in {time.monotonic() - started:.1f} s.")


def bench_urls() -> dict[str, str]:
    from registry.models import ListSnapshot
    from submissions.models import Submission

    last = ListSnapshot.objects.select_related("release").order_by("-release__publication_date").first()
    assert last is not None
    sample = Submission.objects.order_by("pk").values_list("pk", "storage_system_id")[:5]
    ids = ",".join(str(pk) for pk, _ in sample[:3])
    return {
        "list page": f"/lists/{last.release.slug}/io500/",
        "history points": "/charts/history/points.json",
        "history trends": "/charts/history/trends.json",
        "history shares": "/charts/history/shares.json",
        "radar": f"/charts/radar/{last.release.slug}/io500.json",
        "submission phases": f"/charts/submissions/{sample[0][0]}/phases.json",
        "system page": f"/systems/{sample[0][1]}/",
        "compare page": f"/compare/?ids={ids}",
        "history page": "/history/",
    }


def query_counts(urls: dict[str, str]) -> None:
    """Queries per page, uncached, on the newest (largest) list and on the oldest (smallest) one."""
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from registry.models import ListSnapshot

    first = ListSnapshot.objects.select_related("release").order_by("release__publication_date").first()
    assert first is not None
    client = Client()
    small = {
        "list page": f"/lists/{first.release.slug}/io500/",
        "radar": f"/charts/radar/{first.release.slug}/io500.json",
    }
    print("\nQueries per page (uncached)")
    for name, url in urls.items():
        counts = []
        for target in (url, small.get(name)):
            if target is None:
                continue
            cache.clear()
            with CaptureQueriesContext(connection) as queries:
                status = client.get(target).status_code
            assert status == 200, f"{target} answered {status}"
            counts.append(len(queries))
        sizes = " (newest list / oldest list)" if len(counts) > 1 else ""
        print(f"  {name:<18} {' / '.join(map(str, counts))}{sizes}")


@dataclass
class Outcome:
    latencies: list[float]
    seconds: float
    errors: int


def load(port: int, path: str, clients: int, requests: int) -> Outcome:
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    per_client = max(1, requests // clients)

    def worker() -> None:
        nonlocal errors
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine: list[float] = []
        failed = 0
        for _ in range(per_client):
            started = time.perf_counter()
            try:
                connection.request("GET", path)
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    failed += 1
            except (OSError, http.client.HTTPException):
                failed += 1
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            mine.append(time.perf_counter() - started)
        connection.close()
        with lock:
            latencies.extend(mine)
            errors += failed

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return Outcome(latencies, time.perf_counter() - started, errors)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]


def serve(database_url: str, cache: str, port: int, workers: int, threads: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "BENCH_CACHE": cache,
        "DJANGO_SETTINGS_MODULE": "benchmarks.pages_settings",
        "PYTHONPATH": str(REPO),
    }
    command = [
        str(Path(sys.executable).parent / "gunicorn"),
        "registry.wsgi",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--worker-class",
        "gthread",
        "--threads",
        str(threads),
        "--log-level",
        "warning",
    ]
    process = subprocess.Popen(command, cwd=REPO, env=env, start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            connection.getresponse().read()
            return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("gunicorn did not start within 30 s.")


def stop(process: subprocess.Popen[bytes]) -> None:
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)


def run_round(title: str, port: int, urls: dict[str, str], clients: int, requests: int) -> list[float]:
    print(f"\n{title}: {clients} concurrent clients, {requests} requests per URL")
    print(f"  {'URL':<18} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    rates = []
    for name, path in urls.items():
        load(port, path, clients, clients * 2)  # warm-up: connections, imports, cache fill
        outcome = load(port, path, clients, requests)
        rate = len(outcome.latencies) / outcome.seconds
        rates.append(rate)
        p50 = statistics.median(outcome.latencies) * 1000
        p99 = percentile(outcome.latencies, 0.99) * 1000
        print(f"  {name:<18} {rate:8.0f} {p50:8.1f} {p99:8.1f} {outcome.errors:7d}")
    return rates


# The endpoints every visitor reads and that issue 4 sets the 1,000 cached requests per second for.
WRK_URLS = ("list page", "history points", "history trends", "history shares", "radar")
WRK_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0}


@dataclass
class WrkOutcome:
    rate: float
    p50_ms: float
    p99_ms: float
    errors: int


def wrk_milliseconds(text: str) -> float:
    match = re.fullmatch(r"([0-9.]+)(us|ms|s)", text)
    if match is None:
        raise ValueError(f"wrk printed a latency this script cannot read: {text!r}")
    return float(match[1]) * WRK_UNITS[match[2]]


def wrk_parse(output: str) -> WrkOutcome:
    """Requests/sec, the 50% and 99% lines of --latency, and every socket error or non-2xx answer."""
    rate = re.search(r"^Requests/sec:\s+([0-9.]+)", output, re.MULTILINE)
    p50 = re.search(r"^\s+50%\s+(\S+)", output, re.MULTILINE)
    p99 = re.search(r"^\s+99%\s+(\S+)", output, re.MULTILINE)
    if rate is None or p50 is None or p99 is None:
        raise ValueError(f"wrk printed no request rate or latency distribution:\n{output}")
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", output))
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    errors += int(non_2xx[1]) if non_2xx else 0
    return WrkOutcome(float(rate[1]), wrk_milliseconds(p50[1]), wrk_milliseconds(p99[1]), errors)


# A browser always offers gzip; a plain client (curl, scripts) takes the body as it is.
WRK_ENCODINGS = (("identity", ()), ("gzip", ("-H", "Accept-Encoding: gzip, deflate, br")))


def run_wrk_round(port: int, urls: dict[str, str], connections: int, seconds: int) -> None:
    wrk = shutil.which("wrk")
    title = f"Cached, measured with wrk: 2 threads, {connections} connections, {seconds} s per URL"
    if wrk is None:
        print(f"\n{title}: wrk is not installed (scripts/install-system-packages.sh installs it),")
        print("  so only the Python-client figures above measure the cached pages.")
        return
    print(f"\n{title}")
    print(f"  {'URL':<18} {'encoding':<9} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    for name in WRK_URLS:
        for encoding, headers in WRK_ENCODINGS:
            command = [wrk, "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", *headers]
            url = f"http://127.0.0.1:{port}{urls[name]}"
            completed = subprocess.run([*command, url], capture_output=True, text=True, check=False)
            if completed.returncode != 0:
                print(f"  {name:<18} wrk failed: {completed.stderr.strip() or completed.stdout.strip()}")
                continue
            got = wrk_parse(completed.stdout)
            figures = f"{got.rate:8.0f} {got.p50_ms:8.1f} {got.p99_ms:8.1f} {got.errors:7d}"
            print(f"  {name:<18} {encoding:<9} {figures}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--submissions", type=int, default=10_000)
    parser.add_argument("--releases", type=int, default=20)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=400, help="requests per URL and round")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--wrk-connections", type=int, default=16)
    parser.add_argument("--wrk-duration", type=int, default=10, help="seconds of wrk per URL")
    args = parser.parse_args()
    database_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    ensure_database(database_url)
    setup_django(database_url, "locmem")
    build(args.submissions, args.releases)
    urls = bench_urls()
    query_counts(urls)

    rounds = (
        # One client shows the latency of a request on its own; eight show throughput under load.
        ("dummy", "Uncached (dummy cache), one client", 1, max(20, args.requests // 10)),
        ("dummy", "Uncached (dummy cache)", args.clients, max(40, args.requests // 5)),
        ("locmem", "Cached (local-memory cache, warm), Python client threads", args.clients, args.requests),
    )
    for cache, title, clients, requests in rounds:
        server = serve(database_url, cache, args.port, args.workers, args.threads)
        try:
            run_round(title, args.port, urls, clients, requests)
            if cache == "locmem":
                # Same server, caches already warm from the round above.
                run_wrk_round(args.port, urls, args.wrk_connections, args.wrk_duration)
        finally:
            stop(server)


if __name__ == "__main__":
    main()
