"""What a list row and a list page say of where their values come from (issue 26): the page title and
heading of a reconstructed list, whose score the list shows, "not recorded" reproducibility for
imported entries, and the "invalid here" badge on official lists."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.utils.html import escape

from frontend.lists.table import rows_html
from registry.lists.rows import reproducibility_shown
from registry.models import ListSnapshot
from submissions.models import Finding, Reproducibility, Submission
from tests.factories import make_release, make_result, make_submission, publish_list

ROW = {
    "id": 7,
    "rank": 1,
    "release": "SC18",
    "system": "Sys",
    "score": 1.0,
    "reproducibility": None,
    "reproducibility_label": "not recorded",
    "valid": False,
    "invalid_here": True,
}


def test_an_imported_entry_left_at_the_default_level_has_no_recorded_level():
    assert reproducibility_shown("undefined", Submission.Source.IMPORT) == (None, "not recorded")
    # "Undefined" is a level the committee assigns: an upload shows it as assigned.
    assert reproducibility_shown("undefined", Submission.Source.UPLOAD) == ("undefined", "Undefined")
    assert reproducibility_shown("limited", Submission.Source.IMPORT) == ("limited", "Limited")


def test_a_row_says_not_recorded_and_marks_an_invalid_run_only_on_an_official_list():
    official = rows_html([ROW], detail_prefix="/submissions/", with_custom=False, mark_invalid=True)
    assert ">not recorded</span>" in official and "Undefined" not in official
    assert 'data-role="invalid-here" href="/submissions/7/#findings"' in official
    assert ">invalid here</a>" in official and 'data-invalid-here="1"' in official
    rebuilt = rows_html([ROW], detail_prefix="/submissions/", with_custom=False, mark_invalid=False)
    assert "invalid-here" not in rebuilt
    valid_row = {**ROW, "valid": True, "invalid_here": False}
    valid = rows_html([valid_row], detail_prefix="/submissions/", with_custom=False, mark_invalid=True)
    assert "invalid-here" not in valid


@pytest.mark.django_db
def test_a_reconstructed_list_says_so_in_title_and_heading_and_labels_its_score(client: Client) -> None:
    release = make_release(name="SC45", publication_date=datetime.date(2045, 11, 15))
    runs = [make_submission(release=release), make_submission(release=release, valid=False)]
    publish_list(release, "full", runs, provenance=ListSnapshot.Provenance.RECONSTRUCTED)
    html = client.get("/lists/sc45/full/").content.decode()
    assert "<title>SC45 Full list (reconstructed)" in html
    assert 'data-role="reconstructed-title">(reconstructed)</span>' in html
    assert "Score recomputed here" in html
    # A reconstructed list holds what the registry's rules admit; no badge against its own verdict.
    assert 'data-role="invalid-here"' not in html
    assert 'data-role="public-record"' in html


@pytest.mark.django_db
def test_a_recorded_list_labels_io500_org_s_score_and_marks_runs_found_invalid_here(client: Client) -> None:
    release = make_release(name="SC18", publication_date=datetime.date(2018, 11, 13), list_kinds=["io500"])
    good = make_submission(release=release)
    bad = make_submission(release=release, status=Submission.Status.INVALID, valid=False)
    Finding.objects.create(submission=bad, code="stonewall", severity=Finding.Severity.ERROR, message="x")
    # io500.org marked this one invalid itself: the registry found nothing to link to.
    marked = make_submission(release=release, status=Submission.Status.INVALID, valid=False)
    publish_list(release, "io500", [good, bad, marked], provenance=ListSnapshot.Provenance.RECORDED)
    html = client.get("/lists/sc18/io500/").content.decode()
    assert "<title>SC18 IO500 list ·" in html and "(reconstructed)" not in html
    assert "Score recorded by io500.org" in html
    assert html.count('data-role="invalid-here"') == 1
    assert f'href="/submissions/{bad.pk}/#findings"' in html
    assert ">not recorded</span>" in html and ">Undefined</span>" not in html
    assert escape("io500.org's lists of SC18 (IO500) are public") in html


@pytest.mark.django_db
def test_the_submission_page_labels_the_recomputed_and_the_recorded_score(client: Client) -> None:
    release = make_release(name="SC19", publication_date=datetime.date(2019, 11, 19), list_kinds=["io500"])
    run = make_submission(release=release, bw=10.0, md=40.0, reproducibility=Reproducibility.UNDEFINED)
    make_result(submission=run)  # re-verified from its raw files
    plain = make_submission(release=release, bw=5.0, md=5.0)  # io500.org's values only
    snapshot = publish_list(release, "io500", [run, plain], provenance=ListSnapshot.Provenance.RECORDED)
    snapshot.entries.filter(submission=run).update(score=20.5)  # io500.org printed another score
    html = client.get(f"/submissions/{run.pk}/").content.decode()
    assert 'data-role="score-source">recomputed here</small>' in html
    assert 'data-role="recorded-score"' in html and "20.50" in html and "SC19 IO500 list" in html
    assert ">not recorded</span>" in html
    # Without raw files the page's score is io500.org's own: labelled so, and not repeated.
    html = client.get(f"/submissions/{plain.pk}/").content.decode()
    assert 'data-role="score-source">recorded by io500.org</small>' in html
    assert 'data-role="recorded-score"' not in html
