"""Every page type of the site, with the data each needs, for the crawls that check every page (no
sideways scrolling, the geometry checks, axe): what a visitor, a submitter and the committee open.

One set-up serves all three roles, so a crawl builds its data once and walks it with one browser page
per role."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote_plus

from django.contrib.auth.models import User
from django.utils import timezone

from registry.lists.facet_names import canonical, slug
from registry.lists.services import list_build
from scoring.model import SCORED_PHASES
from submissions.audits.services import audit_draw
from submissions.models import Archive, Finding, ListCategory, ReviewState, Submission
from tests.factories import add_phases, make_result
from tests.submissions.review.helpers import open_release, verified_upload
from tests.submissions.viewer_archives import tar_gz, with_archive
from tests.support.chart_data import rich_history

# A result file as a hostile submitter might write it: markup, a bidi override, a very long line.
HOSTILE_LINES = b"".join(b"option_%d = %d\n" % (n, n) for n in range(1, 1400))
HOSTILE = (
    b'<script>document.title="owned"</script>\n\xe2\x80\xaereversed\n' + b"x" * 5000 + b"\n" + HOSTILE_LINES
)


def viewer_archive(**fields: Any) -> tuple[Submission, Archive]:
    """A submission whose result archive holds a hostile text file, a short one and a binary one."""
    return with_archive(
        tar_gz(
            {"run/io500.ini": HOSTILE, "run/result_summary.txt": b"[RESULT] ok\n", "run/core": b"\x7fELF\x00"}
        ),
        **fields,
    )


@dataclass
class SitePages:
    """Page name -> path, per role (the submitter and the committee log in as these users)."""

    visitor: dict[str, str]
    submitter: dict[str, str]
    committee: dict[str, str]


def _audited_release(submitter: User) -> tuple[str, int]:
    """A release past its deadline with the submitter's accepted run, its audits drawn (that run is
    drawn: it is the only one) and its Production draft built: the audit and objection pages have content."""
    today = timezone.localdate()
    closed = open_release(
        name="SC39",
        submission_deadline=today - datetime.timedelta(days=10),
        publication_date=today + datetime.timedelta(days=20),
        audit_share_percent=100.0,
    )
    run = verified_upload(
        submitter, closed, review_state=ReviewState.ACCEPTED, category=ListCategory.PRODUCTION
    )
    add_phases(make_result(submission=run), {name: 10.0 + index for index, name in enumerate(SCORED_PHASES)})
    draw = audit_draw(release=closed, seed="every-page")
    list_build(release=closed, kind="production")
    return closed.slug, draw.requests.get().pk


def every_page_type(submitter: User) -> SitePages:
    """The pages; the committee's are for a member of it (the `committee_member` fixture)."""
    history, leader = rich_history()
    other = next(
        s
        for s in history.submissions
        if s.pk != leader.pk and s.storage_system_id != leader.storage_system_id
    )
    viewed, archive = viewer_archive()
    Finding.objects.create(
        submission=viewed, code="x", severity="warning", message="run/io500.ini: unknown option at line 1200"
    )
    draft = verified_upload(submitter, open_release())
    audited, audit = _audited_release(submitter)
    assert leader.storage_system is not None
    site = slug(canonical("institution", leader.storage_system.institution.name))
    files = f"/submissions/{viewed.pk}/files/{archive.pk}/view/"
    # The leader's score is 400 (tests.support.chart_data): a claim the lists support, with its number.
    claim = quote_plus(f"#1 on the ISC41 IO500 list with {leader.score:.0f}")
    visitor = {
        "home": "/",
        "list-index": "/lists/",
        "release": "/lists/isc41/",
        "list": "/lists/isc41/io500/",
        "submission": f"/submissions/{leader.pk}/",
        "files": files,
        "file": f"{files}0/",
        "file-binary": f"{files}2/",
        "system": f"/systems/{leader.storage_system_id}/",
        "compare": f"/compare/?ids={leader.pk},{other.pk}",
        "history": "/history/",
        "file-systems": "/file-systems/",
        "file-system": "/file-systems/lustre/",
        "sites": "/sites/",
        "site": f"/sites/{site}/",
        "vendors": "/vendors/",
        "vendor": "/vendors/intel/",
        "rules": "/rules/",
        "how-to-run": "/how-to-run/",
        "call": "/call/",
        "about": "/about/",
        "claims": "/claims/",
        "claim-result": f"/claims/?claim={claim}",
        "api-docs": "/api/docs/",
        "login": "/accounts/login/",
        "signup": "/accounts/signup/",
        "password-reset": "/accounts/password_reset/",
        "not-found": "/nowhere/",
    }
    own = f"/submissions/{draft.pk}"
    submitter_pages = {
        "upload": "/submissions/upload/",
        "mine": "/submissions/mine/",
        "token": "/accounts/token/",
        "run-tokens": "/submissions/run-tokens/",
        "own-submission": f"{own}/",
        "system-edit": f"{own}/system/",
        "questionnaire": f"{own}/questionnaire/",
        "submit": f"{own}/submit/",
        "replace": f"{own}/replace/",
        "withdraw": f"{own}/withdraw/",
        "audit": f"/submissions/audits/{audit}/",
        "objections": f"/submissions/objections/{audited}/",
    }
    committee = {
        "queue": "/review/",
        "review": f"/review/{draft.pk}/",
        "submission": f"/submissions/{leader.pk}/",
        "releases": "/review/releases/",
        "release-new": "/review/releases/new/",
        "release": f"/review/releases/{audited}/",
        "release-edit": f"/review/releases/{audited}/edit/",
        "draft": f"/review/releases/{audited}/lists/production/",
        "audit": f"/review/releases/{audited}/audit/",
        "reverify": "/review/reverify/",
    }
    return SitePages(visitor=visitor, submitter=submitter_pages, committee=committee)
