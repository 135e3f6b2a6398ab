"""An embargoed run must not reach any public page when another release's lists are published.

The attack (issue 23): release A is under embargo with an accepted run; the committee publishes the
later release B, whose cumulative lists take every accepted run of an earlier release date. Before
the fix the embargoed run's system, institution and submitter were on B's list pages, downloads,
the bulk files, the history chart and the API. The sweep sets that up with marker strings on the
run, publishes B, then reads every public URL it can reach (fixed seeds, then the links of every
HTML page, bounded), anonymously and as an unrelated logged-in user, and counts the bodies that
name a marker. After A's embargo ends, its own published lists must show the run again, so the same
sweep is shown to be able to see it.
"""

from __future__ import annotations

import datetime
import gzip
import os
import re
import time
from collections import Counter
from collections.abc import Iterable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from registry.lists.publishing import release_drafts_build, release_publish
from registry.models import ListEntry, Release
from submissions.models import ReviewState, Submission
from tests.reliability.records import record
from tests.submissions.review.helpers import ISC_KINDS, open_release, storage, verified_upload

pytestmark = pytest.mark.django_db

MARKERS = ("EmbargoMarkSystemQ7", "EmbargoMarkInstituteQ7", "embargomarksubmitterq7")
# Pages reached by following links: enough for every list, entry, system and submission of the
# two releases, few enough that the sweep stays a few seconds.
MAX_URLS = 260
_HREF = re.compile(r"""(?:href|src|data-url|data-src)="(/[^"#]*)\"""")
# Not public pages: the committee's, the account forms, the admin and static files.
_SKIP = (
    "/review/",
    "/admin/",
    "/accounts/",
    "/static/",
    "/media/",
    "/submissions/upload",
    "/submissions/mine",
)


def _seeds(later: Release, embargoed: Release, run: Submission, public: Submission) -> list[str]:
    ids = f"{run.pk},{public.pk}"
    urls = ["/", "/lists/", "/history/", "/lists/all.csv.gz", "/lists/all.json.gz", "/api/schema/"]
    urls += ["/charts/history/points.json", "/charts/history/trends.json", "/charts/history/shares.json"]
    urls += [f"/compare/?ids={ids}", f"/charts/compare.json?ids={ids}", "/api/v1/submissions/"]
    for release in (later, embargoed):
        urls.append(f"/lists/{release.slug}/")
        for kind in ISC_KINDS:
            urls += [
                f"/lists/{release.slug}/{kind}/",
                f"/lists/{release.slug}/{kind}.csv",
                f"/lists/{release.slug}/{kind}.json",
                # A search for the markers' common prefix: a page echoing the term does not count.
                f"/lists/{release.slug}/{kind}/?q=EmbargoMark",
                f"/charts/radar/{release.slug}/{kind}.json",
                f"/api/v1/lists/{release.slug}/{kind}/",
            ]
    for submission in (run, public):
        urls += [
            f"/submissions/{submission.pk}/",
            f"/api/v1/submissions/{submission.pk}/",
            f"/charts/submissions/{submission.pk}/phases.json",
            f"/charts/submissions/{submission.pk}/ranks.json",
            f"/charts/submissions/{submission.pk}/timeline.json",
        ]
        system = submission.storage_system_id
        urls += [f"/systems/{system}/", f"/charts/systems/{system}/history.json"]
        urls += [f"/charts/systems/{system}/balance.json"]
    return urls


def _body(response: Any) -> str:
    raw = b"".join(response.streaming_content) if response.streaming else response.content
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8", "replace")


def _sweep(clients: Iterable[Client], seeds: list[str]) -> dict[str, Any]:
    """Every seed and every public link found on the way, for each client: URLs read, statuses, and
    the URLs whose body names a marker."""
    hits: list[str] = []
    statuses: Counter[int] = Counter()
    read = 0
    for client in clients:
        queue, seen = list(seeds), set(seeds)
        while queue and read < MAX_URLS * 2:
            url = queue.pop(0)
            response = client.get(url)
            read += 1
            statuses[response.status_code] += 1
            body = _body(response)
            if any(marker.lower() in body.lower() for marker in MARKERS):
                hits.append(url)
            if "html" not in response.get("Content-Type", ""):
                continue
            for link in _HREF.findall(body):
                link = link.replace("&amp;", "&")
                if link not in seen and not link.startswith(_SKIP) and len(seen) < MAX_URLS:
                    seen.add(link)
                    queue.append(link)
    return {"urls": read, "hits": hits, "statuses": dict(sorted(statuses.items()))}


def _publish(committee: User, release: Release, capture: Any) -> None:
    with capture(execute=True):
        release_drafts_build(user=committee, release=release)
    with capture(execute=True):
        release_publish(user=committee, release=release)


def test_publishing_a_later_release_shows_no_run_of_an_embargoed_one(
    submitter: User, other_submitter: User, committee_member: User, django_capture_on_commit_callbacks: Any
) -> None:
    today = timezone.localdate()
    embargoed = open_release(
        "ISC40",
        submission_deadline=today - datetime.timedelta(days=20),
        publication_date=today - datetime.timedelta(days=10),
        embargo_end=timezone.now() + datetime.timedelta(days=7),
    )
    # The later release's rules reach back to A, so every kind of B's lists would take A's run.
    later = open_release(
        "SC40",
        submission_deadline=today - datetime.timedelta(days=5),
        publication_date=today - datetime.timedelta(days=1),
        rules_from=embargoed,
    )
    marked_user = User.objects.create_user(MARKERS[2], "marker@example.org", "x")
    run = verified_upload(
        marked_user,
        embargoed,
        system=storage(MARKERS[0], institution=MARKERS[1]),
        score=4242.0,
        review_state=ReviewState.ACCEPTED,
    )
    public = verified_upload(
        submitter, later, system=storage("PlainSystem"), score=10.0, review_state=ReviewState.ACCEPTED
    )
    # The committee publishes A before its BoF (hidden until the embargo ends), then B.
    _publish(committee_member, embargoed, django_capture_on_commit_callbacks)
    _publish(committee_member, later, django_capture_on_commit_callbacks)

    assert not ListEntry.objects.filter(snapshot__release=later, submission=run).exists()
    seeds = _seeds(later, embargoed, run, public)
    logged_in = Client()
    logged_in.force_login(other_submitter)
    started = time.perf_counter()
    during = _sweep([Client(), logged_in], seeds)
    seconds = round(time.perf_counter() - started, 1)

    # The embargo ends: A's own published lists, and with them the run, become public.
    with django_capture_on_commit_callbacks(execute=True):
        embargoed.embargo_end = timezone.now() - datetime.timedelta(minutes=1)
        embargoed.save()
    after = _sweep([Client()], seeds)

    record(
        "embargo-sweep",
        "publish-later-release",
        urls_checked=during["urls"],
        hits=len(during["hits"]),
        statuses=during["statuses"],
        urls_after_end=after["urls"],
        hits_after_end=len(after["hits"]),
        seconds=seconds,
        load_average=round(os.getloadavg()[0], 2),
    )
    assert during["hits"] == []
    assert during["statuses"].get(200, 0) > 100  # the sweep read real pages, not a wall of 404s
    assert f"/lists/{embargoed.slug}/historical/" in after["hits"]
    assert f"/submissions/{run.pk}/" in after["hits"]
