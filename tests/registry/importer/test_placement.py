"""Where an imported raw run is filed: by what the run says (when it ran, its version) and the calls'
deadlines, so that it lands in a release that accepted its version (issue 26, item 5)."""

from __future__ import annotations

import datetime

from registry.importer.raw import RunClock, call_open_on, place_run, run_clock
from registry.importer.releases import release_specs
from registry.importer.source import IO500Data
from registry.models import Release
from registry.versions import release_versions
from tests.support.data import data_root, submissions_root


def calendar() -> list[Release]:
    """The releases as the import makes them (dates, deadlines, accepted versions), unsaved."""
    versions = release_versions()
    return [
        Release(
            name=spec.name,
            slug=spec.name.lower(),
            publication_date=spec.date,
            submission_deadline=spec.deadline,
            accepted_versions=list(versions[spec.name].accepted) if spec.name in versions else [],
        )
        for spec in release_specs(IO500Data(data_root()))
    ]


def test_a_run_without_a_timestamp_folder_is_placed_by_its_start_clock_and_version():
    # submission-777: results/result_466, result.txt "; START 2025-11-04 15:24:13", version
    # io500-sc25-3-g...; the year folder alone filed it under ISC25, which never accepted io500-sc25.
    folder = submissions_root() / "submission-777"
    clock = run_clock(folder)
    assert clock.day == datetime.date(2025, 11, 4)
    assert clock.tag == "io500-sc25"
    assert "2025-11-04 15:24:13" in clock.said_by
    placement = place_run(clock, 2025, calendar())
    assert placement.release.name == "SC25"
    assert "io500-sc25" in placement.release.accepted_versions


def test_the_deadline_not_the_publication_day_closes_a_call():
    releases = calendar()
    # SC25's call closed 2025-11-07 AoE (its BoF was 2025-11-20): a run of 2025-11-10 is ISC26's.
    after_deadline = RunClock(day=datetime.date(2025, 11, 10), said_by="test", tag="io500-sc25")
    assert place_run(after_deadline, 2025, releases).release.name == "ISC26"
    on_deadline = RunClock(day=datetime.date(2025, 11, 7), said_by="test", tag="io500-sc25")
    assert place_run(on_deadline, 2025, releases).release.name == "SC25"
    # A site east of UTC-12 reads the next day while AoE is still on the deadline day.
    local_next_day = RunClock(day=datetime.date(2025, 11, 8), said_by="test", tag="io500-sc25")
    assert place_run(local_next_day, 2025, releases).release.name == "SC25"


def test_a_run_goes_to_a_later_call_when_the_open_one_did_not_accept_its_version():
    # ISC25 (deadline 2025-06-02) did not accept io500-sc25; SC25 did.
    clock = RunClock(day=datetime.date(2025, 5, 1), said_by="test", tag="io500-sc25")
    assert place_run(clock, 2025, calendar()).release.name == "SC25"


def test_when_no_open_call_accepted_the_version_the_reason_says_so():
    clock = RunClock(day=datetime.date(2025, 7, 1), said_by="test", tag="io500-sc23")
    placement = place_run(clock, 2025, calendar())
    assert placement.release.name == "SC25"
    assert "no release whose call was open then accepted io500-sc23" in placement.reason


def test_without_a_clock_the_year_folder_picks_its_first_release_that_accepted_the_version():
    clock = RunClock(day=None, said_by="no run clock", tag="io500-sc25")
    assert place_run(clock, 2025, calendar()).release.name == "SC25"


def test_every_run_of_the_corpus_lands_in_a_release_that_accepted_its_version():
    """Unless no release whose call was open when it ran accepted it; then the reason says so."""
    releases = calendar()
    folders = IO500Data(data_root()).raw_folders()
    assert len(folders) == 117
    unaccepted = 0
    for row in folders:
        clock = run_clock(row.path)
        placement = place_run(clock, row.year, releases)
        if clock.day is not None:
            assert call_open_on(placement.release, clock.day), (row.io500_id, placement.reason)
        if clock.tag is None or not placement.release.accepted_versions:
            continue
        if clock.tag not in placement.release.accepted_versions:
            unaccepted += 1
            assert clock.day is not None, row.io500_id
            assert not any(
                clock.tag in release.accepted_versions
                for release in releases
                if call_open_on(release, clock.day)
            ), (row.io500_id, placement.reason)
            assert f"no release whose call was open then accepted {clock.tag}" in placement.reason
    # The corpus has such runs (an io500-isc22_v1 run of March 2023, an io500-isc24_v3 run of June
    # 2025), so the branch above is exercised, not vacuous.
    assert unaccepted > 0
