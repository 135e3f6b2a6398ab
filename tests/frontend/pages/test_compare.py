"""Comparing 2 to 5 submissions: phases side by side and the configuration differences."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from frontend.charts.compare_ids import CompareIdsError, parse_compare_ids
from submissions.models import Submission
from tests.factories import add_phases, make_result, make_storage_system, make_submission

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("", "Choose 2 to 5 submissions to compare"),
        ("7", "A comparison needs at least 2 different submissions; you gave 1."),
        ("7,7", "A comparison needs at least 2 different submissions; you gave 1."),
        ("1,2,3,4,5,6", "At most 5 submissions can be compared at once; you gave 6."),
        ("1,two", '"two" is not a submission number'),
        ("1,-2", '"-2" is not a submission number'),
    ],
)
def test_ids_that_cannot_be_compared_get_a_sentence_saying_why(raw, message):
    with pytest.raises(CompareIdsError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_compare_ids(raw)


def test_ids_keep_their_order_and_lose_duplicates():
    assert parse_compare_ids(" 9, 3 ,9,4") == [9, 3, 4]


@pytest.mark.parametrize("ids", ["5", "1,2,3,4,5,6"])
def test_the_page_and_the_json_refuse_one_or_six_submissions(client, ids):
    page = client.get("/compare/", {"ids": ids})
    assert page.status_code == 400
    assert "compared at once" in page.content.decode() or "at least 2" in page.content.decode()
    answer = client.get("/charts/compare.json", {"ids": ids})
    assert answer.status_code == 400
    assert answer.json()["error"] == page.context["error"]


def test_the_empty_form_is_an_invitation_not_an_error(client):
    response = client.get("/compare/")
    assert response.status_code == 200
    assert response.context["error"] == ""
    assert "Give the numbers of 2 to 5 submissions" in response.content.decode()


def test_unknown_or_private_submissions_are_named(client):
    public = make_submission()
    private = make_submission(source=Submission.Source.UPLOAD, submitter=User.objects.create_user("x"))
    response = client.get("/compare/", {"ids": f"{public.pk},{private.pk},999999"})
    assert response.status_code == 404
    assert response.context["error"] == f"Submissions {private.pk}, 999999 do not exist or are not public."


def compared_pair() -> tuple[Submission, Submission]:
    fast = make_submission(bw=100.0, md=100.0)
    slow = make_submission(bw=10.0, md=400.0)
    config = {"global": {"api": "POSIX", "drop-caches": "TRUE"}, "ior-easy": {"transferSize": "16m"}}
    add_phases(make_result(submission=fast, config=config), {"ior-easy-write": 50.0, "find": 2.0})
    add_phases(
        make_result(submission=slow, config={"global": {"api": "POSIX"}, "ior-easy": {"transferSize": "1m"}}),
        {"ior-easy-write": 5.0, "find": 8.0},
    )
    return fast, slow


def test_phases_sit_side_by_side_with_the_best_marked(client):
    fast, slow = compared_pair()
    data = client.get("/charts/compare.json", {"ids": f"{fast.pk},{slow.pk}"}).json()
    assert [s["id"] for s in data["submissions"]] == [fast.pk, slow.pk]
    phases = {row["key"]: row for row in data["phases"]}
    assert phases["ior-easy-write"]["values"] == [50.0, 5.0]
    assert phases["ior-easy-write"]["best"] == [True, False]
    assert phases["ior-easy-write"]["relative"] == [1.0, 0.1]
    assert phases["find"]["best"] == [False, True]
    assert phases["mdtest-hard-read"]["values"] == [None, None]
    bw = next(row for row in data["metrics"] if row["key"] == "bw")
    assert bw["values"] == [100.0, 10.0]


def test_configuration_differences_are_flagged_and_listed_first(client):
    fast, slow = compared_pair()
    response = client.get("/compare/", {"ids": f"{fast.pk},{slow.pk}"})
    assert response.status_code == 200
    rows = {row["key"]: row for row in response.context["data"]["config"]}
    assert rows["ior-easy.transferSize"] == {
        "key": "ior-easy.transferSize",
        "values": ["16m", "1m"],
        "differs": True,
    }
    assert rows["global.drop-caches"]["values"] == ["TRUE", None] and rows["global.drop-caches"]["differs"]
    assert rows["global.api"]["differs"] is False
    assert response.context["data"]["config_differences"] == 2
    html = response.content.decode()
    assert html.count('data-differs="true"') == 2
    assert 'data-chart="compare"' in html


def test_runs_without_a_configuration_do_not_count_as_differences(client):
    fast, _ = compared_pair()
    imported = make_submission()
    response = client.get("/compare/", {"ids": f"{fast.pk},{imported.pk}"})
    assert response.context["data"]["config_known"] == [True, False]
    assert all(not row["differs"] for row in response.context["data"]["config"])
    assert (
        "Only one of these submissions has a run checked here with a configuration"
        in response.content.decode()
    )


def test_comparing_five_costs_the_same_queries_as_comparing_two(client):
    runs = [make_submission() for _ in range(5)]
    for run in runs:
        add_phases(make_result(submission=run), {"ior-easy-write": 1.0, "find": 1.0})
    counts = []
    for chosen in (runs[:2], runs):
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/compare/", {"ids": ",".join(str(r.pk) for r in chosen)}).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_boxes_ticked_in_a_list_open_one_canonical_comparison(client):
    response = client.get("/compare/", {"id": ["12", "34"]})
    assert response.status_code == 302
    assert response["Location"] == "/compare/?ids=12%2C34"


def test_small_fractions_of_the_best_keep_two_significant_digits():
    from frontend.pages.views import ratio_text

    assert [ratio_text(r) for r in (1.0, 0.834, 0.047, 0.0012, 0.00051, 0.00001, None)] == [
        "1.00",
        "0.83",
        "0.047",
        "0.0012",
        "0.00051",
        "<0.0001",
        "",
    ]


def test_a_tiny_fraction_is_not_shown_as_zero_on_the_page(client):
    fast = make_submission(bw=5000.0, md=100.0)
    slow = make_submission(bw=1.0, md=100.0)
    page = client.get("/compare/", {"ids": f"{fast.pk},{slow.pk}"}).content.decode()
    assert "0.0002\u00d7" in page and "0.00\u00d7" not in page  # the multiplication sign


def test_client_nodes_and_processes_have_rows_of_their_own(client):
    fast, slow = compared_pair()
    page = client.get("/compare/", {"ids": f"{fast.pk},{slow.pk}"}).content.decode()
    assert 'data-role="run-nodes"' in page and 'data-role="run-tasks"' in page
    assert "Client nodes" in page and "Processes" in page


def test_a_search_by_system_name_offers_links_that_add_to_the_chosen_ones(client):
    wanted = make_submission(storage_system=make_storage_system(name="Wolfhound"), score=50.0)
    other = make_submission(storage_system=make_storage_system(name="Other"))
    hidden = make_submission(
        storage_system=make_storage_system(name="Wolfhound private"),
        source=Submission.Source.UPLOAD,
        submitter=User.objects.create_user("owner"),
    )
    response = client.get("/compare/", {"ids": str(other.pk), "q": "wolfhound"})
    assert response.status_code == 200 and response.context["error"] == ""
    page = response.content.decode()
    assert f"?ids={other.pk}%2C{wanted.pk}&amp;q=wolfhound" in page
    assert f"add #{hidden.pk}" not in page  # what the visitor may not see is not offered
    followed = client.get("/compare/", {"ids": f"{other.pk},{wanted.pk}", "q": "wolfhound"})
    assert followed.status_code == 200 and followed.context["data"] is not None
    assert "chosen" in followed.content.decode()


def test_a_search_that_is_no_typed_text_says_why(client):
    response = client.get("/compare/", {"q": "\x07bell"})
    assert response.status_code == 200
    assert "system search" in response.context["search_error"]
