"""A whole release cycle through the token API and the committee's commands (issue 25, "the same
cycle through the API and through the committee commands"), on real runs of the shared corpus:
three submitter accounts upload eleven runs and one of them again; one is withdrawn before
publication, the second copy of a run is set aside by a duplicate-of decision before the first is
accepted, one description is fixed after a finding, one run is moved to another release; the lists
are built and published early (confirmed), then one entry is excluded by a correction whose diff
shows the removal, and the list API carries the awards."""

from __future__ import annotations

import csv
import datetime
import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from registry.models import ListSnapshot
from submissions.models import EntryDecision, ReviewState, Submission
from tests.conftest import PASSWORD
from tests.submissions.archives import pack_folder
from tests.submissions.review.helpers import answers, open_release
from tests.support.data import submission_folder, submissions_root

pytestmark = pytest.mark.django_db

CONFIRMED = {"reviewed": True, "followed_rules": True, "permission_to_publish": True}
# Real runs of the shared corpus, each of another storage system, by the account that uploads them.
RUNS = {"alice": [33, 114, 72, 153], "bob": [159, 216, 174, 105], "dave": [138, 156, 207]}
FIXED, WITHDRAWN, MOVED = 72, 105, 174


def described(number: int) -> dict[str, Any]:
    """The system as the corpus index names it (institution, system, file system)."""
    with (submissions_root() / "index.csv").open(newline="", encoding="utf-8") as handle:
        row = next(row for row in csv.DictReader(handle) if row["submission_id"] == str(number))
    return {
        "system_name": row["system"],
        "institution_name": row["institution"],
        "filesystem_type": row["filesystem"],
    }


def command(name: str, *args: Any) -> str:
    out = io.StringIO()
    call_command(name, *[str(arg) for arg in args], stdout=out)
    return out.getvalue()


class Cycle:
    def __init__(self, api_client_for: Any, capture: Any) -> None:
        self.client_for, self.capture = api_client_for, capture

    def post(self, user: User, path: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
        answer = self.client_for(user).post(f"/api/v1/submissions/{path}", body, format="json")
        assert answer.status_code == status, answer.content
        return dict(answer.json())

    def upload(self, user: User, archive: ContentFile[bytes], system: dict[str, Any], release: str) -> int:
        form = {"archive": archive, "system": json.dumps(system), "release": release}
        with self.capture(execute=True):
            answer = self.client_for(user).post("/api/v1/submissions/", form, format="multipart")
        assert answer.status_code == 202, answer.content
        detail = self.client_for(user).get(f"/api/v1/submissions/{answer.json()['id']}/").json()
        assert detail["status"] == "verified", (detail["status"], detail["error"])
        return int(detail["id"])

    def questionnaire_and_submit(self, user: User, pk: int) -> None:
        answer = self.client_for(user).put(
            f"/api/v1/submissions/{pk}/questionnaire/", answers(), format="json"
        )
        assert answer.status_code == 200, answer.content
        assert self.post(user, f"{pk}/submit/", CONFIRMED)["review_state"] == ReviewState.SUBMITTED


def test_a_whole_release_cycle_through_the_api_and_the_committee_commands(
    submitter: Any,
    other_submitter: Any,
    committee_member: Any,
    api_client_for: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    dave = User.objects.create_user("dave", "dave@example.org", PASSWORD)
    people = {"alice": submitter, "bob": other_submitter, "dave": dave}
    today = timezone.localdate()
    isc = open_release("ISC40")
    sc = open_release(
        "SC40",
        submission_deadline=today + datetime.timedelta(days=150),
        publication_date=today + datetime.timedelta(days=180),
    )
    cycle = Cycle(api_client_for, django_capture_on_commit_callbacks)

    # Upload, answer the questionnaire and submit, every run by its account through the API.
    ids: dict[int, int] = {}
    for name, numbers in RUNS.items():
        for number in numbers:
            archive = ContentFile(pack_folder(submission_folder(number)), name=f"s{number}.tgz")
            system = described(number)
            if number == FIXED:
                system["client_nodes"] = 9999  # a wrong count the pipeline's finding points at
            ids[number] = cycle.upload(people[name], archive, system, isc.slug)
            cycle.questionnaire_and_submit(people[name], ids[number])
    # The same run again, from another account and packed otherwise (other bytes, same run).
    copy = cycle.upload(
        dave,
        ContentFile(pack_folder(submission_folder(33), "bz2"), name="again.tbz"),
        described(33),
        isc.slug,
    )
    cycle.questionnaire_and_submit(dave, copy)
    assert Submission.objects.filter(review_state=ReviewState.SUBMITTED).count() == 12

    # Bob withdraws one before publication.
    cycle.post(
        other_submitter, f"{ids[WITHDRAWN]}/decisions/", {"kind": "withdraw", "reason": "rerun coming"}, 201
    )

    # The committee cannot accept either copy of the run uploaded twice until it says which counts.
    refused = cycle.post(committee_member, f"{ids[33]}/review/", {"action": "accept"}, 400)
    assert f"submission {copy}" in refused["detail"]
    said = command(
        "decide", copy, "duplicate-of", "--of", ids[33], "--user", "carol", "--reason", "uploaded twice"
    )
    assert f"a duplicate of submission {ids[33]}" in said
    with pytest.raises(CommandError, match="marked a duplicate"):
        command("decide", copy, "accept", "--user", "carol")

    # A finding points at the node count: the committee asks, Alice fixes it through the API, resubmits.
    finding = cycle.client_for(submitter).get(f"/api/v1/submissions/{ids[FIXED]}/").json()
    nodes = next(run["nodes"] for run in finding["results"] if run["is_primary"])
    assert "nodes-mismatch" in {row["code"] for row in finding["findings"]}
    cycle.post(
        committee_member,
        f"{ids[FIXED]}/review/",
        {"action": "request_changes", "reason": "please fix the node count"},
    )
    fixed = cycle.client_for(submitter).patch(
        f"/api/v1/submissions/{ids[FIXED]}/system/", {"client_nodes": nodes}, format="json"
    )
    assert fixed.status_code == 200, fixed.content
    assert fixed.json()["changes"][0]["before"] == 9999 and fixed.json()["changes"][0]["after"] == nodes
    cycle.post(submitter, f"{ids[FIXED]}/submit/", CONFIRMED)

    # The committee accepts the rest (API and command alike) and moves one to the next release.
    for number, pk in ids.items():
        if number == WITHDRAWN:
            continue
        if number % 2:
            command("decide", pk, "accept", "--user", "carol")
        else:
            cycle.post(committee_member, f"{pk}/review/", {"action": "accept"})
    command(
        "decide",
        ids[MOVED],
        "move",
        "--release",
        sc.slug,
        "--user",
        "carol",
        "--reason",
        "filed under the wrong call",
    )

    # Publishing before the release's date needs the confirmation flag; with it the list goes out.
    with pytest.raises(CommandError, match="before-release-date"):
        command("build_list", isc.slug, "research", "--publish")
    built = command("build_list", isc.slug, "research", "--publish", "--before-release-date", "--limit", "0")
    published = ListSnapshot.objects.get(release=isc, kind="research", status=ListSnapshot.Status.PUBLISHED)
    listed = set(published.entries.values_list("submission_id", flat=True))
    expected = {pk for number, pk in ids.items() if number not in (WITHDRAWN, MOVED)}
    assert listed == expected, built
    assert copy not in listed
    assert Submission.objects.get(pk=ids[WITHDRAWN]).review_state == ReviewState.WITHDRAWN
    assert Submission.objects.get(pk=ids[MOVED]).release_id == sc.pk
    assert Submission.objects.get(pk=ids[33]).review_state == ReviewState.PUBLISHED

    # After publication the committee excludes one entry; the correction's diff shows the removal.
    gone = ids[153]
    command(
        "decide",
        gone,
        "exclude",
        "--list",
        "research",
        "--release",
        isc.slug,
        "--user",
        "carol",
        "--reason",
        "run on a test partition",
    )
    corrected = command(
        "build_list", isc.slug, "research", "--publish", "--before-release-date", "--reason", "entry excluded"
    )
    assert f"submission {gone}" in next(
        line for line in corrected.splitlines() if line.lstrip().startswith("- (was #")
    )
    assert "1 removed" in corrected
    assert EntryDecision.objects.filter(submission_id=gone, kind="exclude").exists()

    # The list API serves the corrected version with its awards.
    body = cycle.client_for(None).get(f"/api/v1/lists/{isc.slug}/research/").json()
    assert body["version"] == 2 and body["correction_reason"] == "entry excluded"
    rows = {row["id"]: row for row in body["rows"]}
    assert set(rows) == expected - {gone}
    assert rows[ids[FIXED]]["client_nodes"] == nodes  # the fixed description is what the list shows
    assert {award["category"] for award in body["awards"]} == {"overall", "bandwidth", "metadata"}
