"""Submission charts: the 12 phases with a list median, per-rank stragglers, throughput timelines."""

from __future__ import annotations

import statistics
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.template import engines
from django.test import Client

from frontend.charts.digests import digests_refresh
from scoring.model import SCORED_PHASES
from submissions.models import Submission
from tests.factories import add_phases, make_result, make_submission
from tests.support.chart_data import build_history

pytestmark = pytest.mark.django_db

PHASES = {name: float(index + 1) for index, name in enumerate(SCORED_PHASES)}


def ranks_of(times: list[float], rate: float = 100.0) -> list[dict[str, Any]]:
    return [{"rank": r, "time_s": t, "rate": rate / t, "items": None} for r, t in enumerate(times)]


def json_of(client: Client, url: str, status: int = 200) -> dict[str, Any]:
    response = client.get(url)
    assert response.status_code == status, response.content[:300]
    data: dict[str, Any] = response.json()
    return data


def test_phases_show_all_twelve_in_score_order_with_the_list_median(client):
    history = build_history()
    for position, submission in enumerate(history.submissions[5:]):  # the newer list
        add_phases(
            make_result(submission=submission),
            {name: value * (position + 1) for name, value in PHASES.items()},
        )
    # The phases arrived after the list was frozen (a list is normally published after its runs are
    # verified): recompute its stored digest, as the import does after reading the raw folders.
    digests_refresh(kinds=["io500"])
    target = history.submissions[5]
    data = json_of(client, f"/charts/submissions/{target.pk}/phases.json")
    assert [bar["phase"] for bar in data["phases"]] == list(SCORED_PHASES)
    assert data["context"] == {"title": "ISC41 IO500", "kind": "io500"}
    easy_write = data["phases"][0]
    assert (easy_write["value"], easy_write["unit"], easy_write["group"]) == (1.0, "GiB/s", "bw")
    assert easy_write["median"] == statistics.median([1.0 * k for k in range(1, 6)])
    assert data["phases"][-1]["unit"] == "kIOPS"


def test_phases_of_imported_history_without_raw_files_come_from_the_published_record(client):
    history = build_history()
    submission = history.submissions[0]
    Submission.objects.filter(pk=submission.pk).update(
        published_record={
            "ior_easy_write": "12.5",
            "find_mixed": "",
            "find_easy": "99.0",
            "mdtest_hard_read": "x",
        }
    )
    bars = {
        bar["phase"]: bar
        for bar in json_of(client, f"/charts/submissions/{submission.pk}/phases.json")["phases"]
    }
    assert bars["ior-easy-write"]["value"] == 12.5
    assert bars["find"]["value"] == 99.0
    assert bars["mdtest-hard-read"]["value"] is None


def test_per_rank_rows_summarise_the_straggler_and_default_to_the_worst_phase(client):
    submission = make_submission()
    result = make_result(submission=submission)
    add_phases(result, {"ior-easy-write": 5.0}, ranks=ranks_of([10.0, 10.0, 10.0, 30.0]))
    add_phases(result, {"mdtest-easy-write": 5.0}, ranks=ranks_of([10.0, 11.0, 10.0, 10.0]))
    data = json_of(client, f"/charts/submissions/{submission.pk}/ranks.json")
    assert data["phase"] == "ior-easy-write"
    worst = data["phases"][0]
    assert (worst["slowest_rank"], worst["max_time_s"], worst["median_time_s"]) == (3, 30.0, 10.0)
    assert worst["straggler_ratio"] == pytest.approx(3.0)
    assert worst["rate_unit"] == "MiB/s"
    assert data["rows"][3] == [3, 30.0, pytest.approx(100.0 / 30.0, rel=1e-5)]
    other = json_of(client, f"/charts/submissions/{submission.pk}/ranks.json?phase=mdtest-easy-write")
    assert other["phase"] == "mdtest-easy-write"
    assert other["phases"][1]["rate_unit"] == "items/s"
    assert len(other["rows"]) == 4


def test_an_unknown_rank_phase_is_a_clear_not_found(client):
    submission = make_submission()
    add_phases(make_result(submission=submission), {"find": 1.0}, ranks=ranks_of([1.0]))
    error = json_of(client, f"/charts/submissions/{submission.pk}/ranks.json?phase=ior-hard", status=404)[
        "error"
    ]
    assert error == f'Submission {submission.pk} has no per-rank rows for a phase called "ior-hard".'


def test_a_run_without_per_rank_files_has_no_rank_phases(client):
    submission = make_submission()
    add_phases(make_result(submission=submission), PHASES)
    data = json_of(client, f"/charts/submissions/{submission.pk}/ranks.json")
    assert (data["phases"], data["phase"], data["rows"]) == ([], None, [])


def test_timelines_add_up_the_ranks_per_second_in_the_phase_unit(client):
    submission = make_submission()
    result = make_result(submission=submission)
    gib = 1024**3
    add_phases(result, {"ior-easy-write": 1.0}, timeline=[[0, 0, gib], [1, 0, gib], [0, 1, gib], [1, 2, 0]])
    add_phases(result, {"mdtest-easy-write": 1.0}, timeline=[[0, 0, 3000], [1, 0, 1000]])
    add_phases(result, {"find": 1.0})
    phases = json_of(client, f"/charts/submissions/{submission.pk}/timeline.json")["phases"]
    ior, mdtest = phases
    assert (ior["phase"], ior["unit"]) == ("ior-easy-write", "GiB/s")
    assert ior["points"] == [[0, 2.0, 2], [1, 1.0, 1], [2, 0.0, 0]]
    assert ior["peak"] == 2.0 and ior["mean"] == pytest.approx(1.0)
    assert mdtest["points"] == [[0, 4.0, 2]] and mdtest["unit"] == "kIOPS"


def test_charts_of_a_submission_nobody_published_are_private_to_its_uploader(client):
    owner = User.objects.create_user("owner", password="pw-for-tests-only")
    upload = make_submission(source=Submission.Source.UPLOAD, submitter=owner)
    url = f"/charts/submissions/{upload.pk}/phases.json"
    assert (
        json_of(client, url, status=404)["error"]
        == f"Submission {upload.pk} does not exist or is not public."
    )
    client.force_login(owner)
    response = client.get(url)
    assert response.status_code == 200
    assert "private" in response["Cache-Control"]


def test_submission_charts_run_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    small, big = make_submission(), make_submission()
    add_phases(make_result(submission=small), PHASES, ranks=ranks_of([1.0] * 2))
    add_phases(make_result(submission=big), PHASES, ranks=ranks_of([1.0] * 500))
    for submission in (small, big):
        # The first request also reads the population of public runs the phases are placed among
        # (four queries whatever its size, then cached).
        with django_assert_max_num_queries(10):
            client.get(f"/charts/submissions/{submission.pk}/phases.json")
        # The summaries read every phase's ranks, the rows those of the phase shown (cached apart).
        with django_assert_max_num_queries(4):
            client.get(f"/charts/submissions/{submission.pk}/ranks.json")
        with django_assert_max_num_queries(3):
            client.get(f"/charts/submissions/{submission.pk}/timeline.json")


def render_snippet(name: str, submission: Submission) -> str:
    template = engines["django"].from_string(f'{{% include "frontend/charts/{name}.html" %}}')
    loaded = Submission.objects.select_related("release", "storage_system__institution").get(pk=submission.pk)
    return template.render({"submission": loaded})


def test_snippets_render_a_chart_div_and_a_table_for_readers_without_javascript():
    submission = make_submission()
    add_phases(make_result(submission=submission), {"ior-easy-write": 2.5}, ranks=ranks_of([1.0, 4.0]))
    html = render_snippet("_submission_phases", submission)
    assert f'data-src="/charts/submissions/{submission.pk}/phases.json"' in html
    assert 'data-fallback="phases"' in html and "2.50" in html
    ranks = render_snippet("_submission_ranks", submission)
    assert 'data-chart="ranks"' in ranks and "1.600\N{MULTIPLICATION SIGN}" in ranks  # 4 s against 2.5 s
    timeline = render_snippet("_submission_timeline", submission)
    # No empty card: one line says why there is no chart, and no script is loaded for it.
    assert "only runs of the registry's own runner record per-second timelines" in timeline
    assert 'data-chart="timeline"' not in timeline and "chart-card" not in timeline
    assert "Throughput over time</h2>" not in timeline and "timeline.js" not in timeline


def test_the_rank_snippet_says_when_the_archive_has_no_per_rank_data():
    submission = make_submission()
    html = render_snippet("_submission_ranks", submission)
    assert "No per-rank data in this archive" in html
    assert "ranks.js" not in html
