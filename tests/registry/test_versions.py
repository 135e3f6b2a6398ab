"""The accepted IO500 versions of each release, and phases not comparable across versions."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest

from frontend.pages.views import version_warnings
from registry.importer.source import CALENDAR_FIXTURE
from registry.models import Release
from registry.versions import release_versions, version_tag
from scoring.model import Era, Phase, RunResult
from submissions.version_checks import version_findings

ISC25 = Release(
    name="ISC25",
    slug="isc25",
    publication_date=datetime.date(2025, 6, 11),
    accepted_versions=list(release_versions()["ISC25"].accepted),
)


def run_of(version: str, *, rnd4k: bool = False) -> RunResult:
    run = RunResult(path="r", era=Era.C_ISC25, version=version)
    if rnd4k:
        run.extra_phases["ior-rnd4K-easy-read"] = Phase("ior-rnd4K-easy-read", 9.0, "GiB/s", 300.0, False)
    return run


@pytest.mark.parametrize(
    ("printed", "tag"),
    [
        ("io500-isc23", "io500-isc23"),
        ("io500-sc24_v1-11-gc00ca177071b", "io500-sc24_v1"),
        ("io500-sc21-24", "io500-sc21"),
        ("io500-sc20_v3-1-g4c17ac501883-12", "io500-sc20_v3"),
        ("", None),
        (None, None),
    ],
)
def test_a_printed_version_is_reduced_to_its_release_tag(printed, tag):
    assert version_tag(printed) == tag


def test_every_release_from_isc20_names_its_accepted_tags_and_where_that_was_found():
    known = release_versions()
    for name in ("ISC20", "SC21", "ISC23", "SC24", "ISC25", "SC25", "ISC26"):
        assert known[name].accepted and all(tag.startswith("io500-") for tag in known[name].accepted)
        assert known[name].source
    assert "io500-isc23" in known["ISC23"].accepted


def test_a_run_of_a_version_its_release_did_not_accept_gets_a_warning():
    accepted = version_findings(run_of("io500-isc25_v2-13"), ISC25)
    assert [finding.code for finding in accepted] == []
    findings = version_findings(run_of("io500-isc23"), ISC25)
    assert [(f.code, f.severity.value) for f in findings] == [("version-not-accepted", "warning")]
    assert "io500-isc23" in findings[0].message and "ISC25" in findings[0].message


def test_the_isc25_v1_random_read_is_flagged_as_not_comparable():
    findings = version_findings(run_of("io500-isc25_v1", rnd4k=True), ISC25)
    assert [(f.code, f.phase) for f in findings] == [("phase-not-comparable", "ior-rnd4K-easy-read")]
    assert version_findings(run_of("io500-isc25_v2", rnd4k=True), ISC25) == []


def test_comparing_runs_across_the_declared_break_warns():
    submissions = [
        {"label": "A", "version": "io500-isc25_v1"},
        {"label": "B", "version": "io500-sc25-3-gfcd41756b9fd"},
    ]
    (warning,) = version_warnings(submissions)
    assert (
        "ior-rnd4K-easy-read" in warning and "io500-isc25_v1 (A)" in warning and "io500-sc25 (B)" in warning
    )
    assert (
        version_warnings([{"label": "A", "version": "io500-sc25"}, {"label": "B", "version": "io500-isc26"}])
        == []
    )


def test_release_dates_after_isc21_name_where_they_were_found():
    calendar = json.loads(Path(CALENDAR_FIXTURE).read_text(encoding="utf-8"))
    for entry in calendar["later_releases"]:
        source = entry["date_source"]
        assert f"bof_{entry['name'].lower()}.php" in source, entry["name"]
        assert entry["submission_deadline"] and entry["deadline_source"], entry["name"]
        assert datetime.date.fromisoformat(entry["submission_deadline"]) < datetime.date.fromisoformat(
            entry["date"]
        )
