"""Server time of every URL type, before and after gzip and the background bulk build (issue 28,
item 5), side by side in one run.

    .venv/bin/python benchmarks/url_times.py [--repeat 5] [--limit-ms 200]

Each URL is asked through Django's test client in this process, so the time is the server's alone
(every middleware, the view, the queries; no network, no client): once cold (every cache emptied, as
after a publish) and `--repeat` times warm (the median is printed), with `Accept-Encoding: gzip`.

- before: the stack without TextGZipMiddleware, and the bulk downloads built by the request that
  finds none (what the first request after every publication did, `bulk_build`);
- after: the stack as configured (gzip), and the bulk downloads read from storage after the Celery
  task built them (`bulk_downloads_build`, run here in-process before the requests).

It prints per URL the cold and warm time and the bytes sent, before and after (and the web
process' CPU time of a warm request after, which load on the machine does not inflate), the load average
before and after the run (other work on the machine adds to every figure), and exits 1 when a URL
takes over `--limit-ms` warm or cold after the change.

The database is BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/io500_url_bench): the
real published history of ../shared/io500-data is imported (--skip-raw) when it holds no list, and
two accounts (a submitter with one upload, a committee member) are made for the logged-in pages.
"""

from __future__ import annotations

import argparse
import functools
import io
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

DATA = REPO.parent / "shared" / "io500-data"
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/io500_url_bench"
GZIP_MIDDLEWARE = "registry.core.compression.TextGZipMiddleware"


@dataclass
class Measure:
    cold_ms: float
    warm_ms: float
    warm_cpu_ms: float  # this process' CPU time alone: what other work on the machine does not inflate
    size: int
    status: int
    encoding: str


def setup_django(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("BENCH_CACHE", "locmem")
    os.environ["DJANGO_SETTINGS_MODULE"] = "benchmarks.pages_settings"
    # The built bulk files go to a scratch folder, never to a deployment's media.
    os.environ["MEDIA_ROOT"] = tempfile.mkdtemp(prefix="io500-url-bench-")
    import django

    django.setup()


def ensure_database() -> None:
    from django.core.management import call_command

    from registry.models import ListSnapshot

    call_command("migrate", verbosity=0)
    if not ListSnapshot.objects.exists():
        print(f"importing {DATA} (once) ...", flush=True)
        call_command("import_io500", str(DATA), "--skip-raw", stdout=io.StringIO())


def accounts() -> tuple[Any, Any, int]:
    """A submitter with one upload of their own (a copy of an imported run's row) and a committee
    member; the upload's id."""
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from submissions.models import ReviewState, Submission

    submitter, _ = User.objects.get_or_create(username="bench-submitter", defaults={"email": "s@example.org"})
    committee, _ = User.objects.get_or_create(username="bench-committee", defaults={"email": "c@example.org"})
    call_command("committee_member", committee.username, stdout=io.StringIO())
    mine = Submission.objects.filter(submitter=submitter).first()
    if mine is None:
        template = Submission.objects.filter(score__isnull=False).order_by("pk").first()
        assert template is not None, "the imported history has no scored submission"
        mine = Submission.objects.create(
            source=Submission.Source.UPLOAD,
            submitter=submitter,
            release=template.release,
            storage_system=template.storage_system,
            status=Submission.Status.VERIFIED,
            review_state=ReviewState.DRAFT,
            score=template.score,
            bw=template.bw,
            md=template.md,
            valid=True,
        )
    return submitter, committee, mine.pk


def url_types(own_pk: int) -> list[tuple[str, str, str]]:
    """(what, URL, who): one URL of each type, on the newest published list."""
    from registry.lists.selectors import list_entries, snapshot_home

    home = snapshot_home()
    assert home is not None, "no published list"
    release, kind = home.release.slug, home.kind
    entries = list(list_entries(snapshot=home)[:3])
    first = entries[0].submission
    ids = ",".join(str(entry.submission_id) for entry in entries)
    system = first.storage_system_id
    return [
        ("home page", "/", "anonymous"),
        ("list index page", "/lists/", "anonymous"),
        ("release page", f"/lists/{release}/", "anonymous"),
        ("list page", f"/lists/{release}/{kind}/", "anonymous"),
        ("list page, filtered", f"/lists/{release}/{kind}/?q=lustre", "anonymous"),
        ("list CSV", f"/lists/{release}/{kind}.csv", "anonymous"),
        ("list JSON", f"/lists/{release}/{kind}.json", "anonymous"),
        ("entry permalink", f"/entries/io500-{release}-{kind}-v{home.version}-1/", "anonymous"),
        ("submission page", f"/submissions/{first.pk}/", "anonymous"),
        ("system page", f"/systems/{system}/", "anonymous"),
        ("compare page", f"/compare/?ids={ids}", "anonymous"),
        ("history page", "/history/", "anonymous"),
        ("chart: radar", f"/charts/radar/{release}/{kind}.json", "anonymous"),
        ("chart: history points", "/charts/history/points.json", "anonymous"),
        ("chart: submission phases", f"/charts/submissions/{first.pk}/phases.json", "anonymous"),
        ("chart: system history", f"/charts/systems/{system}/history.json", "anonymous"),
        ("chart: compare", f"/charts/compare.json?ids={ids}", "anonymous"),
        ("bulk CSV", "/lists/all.csv.gz", "anonymous"),
        ("bulk JSON", "/lists/all.json.gz", "anonymous"),
        ("API root", "/api/v1/", "anonymous"),
        ("API list index", "/api/v1/lists/", "anonymous"),
        ("API list", f"/api/v1/lists/{release}/{kind}/", "anonymous"),
        ("API systems", "/api/v1/systems/", "anonymous"),
        ("API system", f"/api/v1/systems/{system}/", "anonymous"),
        ("API submission", f"/api/v1/submissions/{first.pk}/", "anonymous"),
        ("API unknown path (404)", "/api/v1/no-such-thing/", "anonymous"),
        ("API schema", "/api/schema/", "anonymous"),
        ("API docs", "/api/docs/", "anonymous"),
        ("my submissions", "/submissions/mine/", "submitter"),
        ("own submission page", f"/submissions/{own_pk}/", "submitter"),
        ("API my submissions", "/api/v1/submissions/", "submitter"),
        ("token page", "/accounts/token/", "submitter"),
        ("review queue", "/review/", "committee"),
        ("list page, committee", f"/lists/{release}/{kind}/", "committee"),
    ]


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = call()
    return (time.perf_counter() - started) * 1000, result


def cpu_timed(call: Callable[[], Any]) -> float:
    started = time.process_time()
    call()
    return (time.process_time() - started) * 1000


def measure(
    clients: dict[str, Any], urls: list[tuple[str, str, str]], repeat: int, before: bool
) -> list[Measure]:
    from django.core.cache import cache

    from frontend.lists import bulk
    from frontend.lists.tasks import bulk_downloads_build
    from registry.core.generations import charts_invalidate, list_cache_invalidate

    results = []
    for _what, url, who in urls:
        client = clients[who]
        is_bulk = url.startswith("/lists/all.")

        def ask(client: Any = client, url: str = url) -> Any:
            return client.get(url, HTTP_ACCEPT_ENCODING="gzip")

        # Cold: as right after a publish (every cache and generation moved on).
        cache.clear()
        list_cache_invalidate()
        charts_invalidate()
        if is_bulk and before:
            # The former first request after a change: it built the file, then answered.
            fmt = url.split(".")[1]
            cold_ms, _ = timed(functools.partial(bulk.bulk_build, fmt))
            bulk_downloads_build()  # stored, so that the warm requests read it
            extra_ms, response = timed(ask)
            cold_ms += extra_ms
        else:
            if is_bulk:
                bulk_downloads_build()  # what the task did after the change, off the request
            cold_ms, response = timed(ask)
        warm = [timed(ask)[0] for _ in range(repeat)]
        warm_cpu = [cpu_timed(ask) for _ in range(repeat)]
        results.append(
            Measure(
                cold_ms=cold_ms,
                warm_ms=statistics.median(warm),
                warm_cpu_ms=statistics.median(warm_cpu),
                size=len(response.content),
                status=response.status_code,
                encoding=response.get("Content-Encoding", "") or "-",
            )
        )
    return results


def make_clients(submitter: Any, committee: Any) -> dict[str, Any]:
    from django.test import Client

    clients = {"anonymous": Client(), "submitter": Client(), "committee": Client()}
    clients["submitter"].force_login(submitter)
    clients["committee"].force_login(committee)
    return clients


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="warm requests per URL (the median is shown)")
    parser.add_argument("--limit-ms", type=float, default=200.0, help="the most a URL may take, after")
    args = parser.parse_args()
    database_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    setup_django(database_url)
    # A fresh machine has no benchmark database: made empty as the page benchmark makes its own.
    from benchmarks.pages import ensure_database as database_created_if_missing

    database_created_if_missing(database_url)
    ensure_database()

    from django.conf import settings
    from django.test import override_settings

    from registry.celery import app

    app.conf.task_always_eager = True  # the bulk task runs here, before the requests that read it
    submitter, committee, own_pk = accounts()
    urls = url_types(own_pk)
    load_start = os.getloadavg()

    without_gzip = [name for name in settings.MIDDLEWARE if name != GZIP_MIDDLEWARE]
    with override_settings(MIDDLEWARE=without_gzip):
        before = measure(make_clients(submitter, committee), urls, args.repeat, before=True)
    after = measure(make_clients(submitter, committee), urls, args.repeat, before=False)
    load_end = os.getloadavg()

    print(
        f"load average (1, 5, 15 min): before the run {load_start}, after it {load_end}; "
        f"{os.cpu_count()} CPUs"
    )
    print(
        f"server time in ms (cold: caches emptied; warm: median of {args.repeat}; cpu: the web process' CPU "
        "time of a warm request, queries' time in PostgreSQL excluded); bytes sent with Accept-Encoding: gzip"
    )
    header = (
        f"{'URL type':28} {'status':>6} | {'before cold':>11} {'warm':>7} {'bytes':>9} | "
        f"{'after cold':>10} {'warm':>7} {'cpu':>6} {'bytes':>9} {'enc':>5}"
    )
    print(header)
    print("-" * len(header))
    over = []
    for (what, url, who), old, new in zip(urls, before, after, strict=True):
        print(
            f"{what[:28]:28} {new.status:>6} | {old.cold_ms:>11.1f} {old.warm_ms:>7.1f} {old.size:>9,} | "
            f"{new.cold_ms:>10.1f} {new.warm_ms:>7.1f} {new.warm_cpu_ms:>6.1f} {new.size:>9,} "
            f"{new.encoding:>5}"
        )
        if max(new.cold_ms, new.warm_ms) > args.limit_ms:
            over.append(f"{what} ({url}, {who}): {max(new.cold_ms, new.warm_ms):.0f} ms")
    if over:
        print(f"\nover {args.limit_ms:.0f} ms after the change:\n  " + "\n  ".join(over))
        return 1
    print(f"\nevery URL under {args.limit_ms:.0f} ms after the change, cold and warm.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
