"""The sublist builder of a list page: filters (reproducibility and institution type too), ranks
renumbered inside the sublist, its statistics, a link and a CSV that give the same table, and the
custom ranking by a formula over phase values that keeps the official rank."""

from __future__ import annotations

import csv
import datetime
import io
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils.html import escape

from registry.models import ListSnapshot
from submissions.models import Reproducibility, Submission
from tests.factories import (
    add_phases,
    make_release,
    make_result,
    make_storage_system,
    make_submission,
    make_system_description,
    publish_list,
)

pytestmark = pytest.mark.django_db

URL = "/lists/sc50/io500/"
# rank: (file system, vendor, nodes, reproducibility, institution type, bw, md, ior-easy-write)
ENTRIES: dict[int, tuple[str, str, int, str, str, float, float, float | None]] = {
    1: ("DAOS", "Intel", 512, Reproducibility.FULLY, "laboratory", 900.0, 4000.0, 2000.0),
    2: ("Lustre", "DDN", 10, Reproducibility.LIMITED, "university", 400.0, 900.0, 300.0),
    3: ("Lustre", "DDN", 64, Reproducibility.FULLY, "", 100.0, 2500.0, 900.0),
    4: ("BeeGFS", "ThinkParQ", 10, Reproducibility.UNDEFINED, "university", 50.0, 100.0, None),
    5: ("Lustre", "HPE", 2048, Reproducibility.FULLY, "laboratory", 20.0, 30.0, 40.0),
}


def build_list(extra_entries: int = 0) -> tuple[ListSnapshot, dict[int, Submission]]:
    release = make_release(name="SC50", publication_date=datetime.date(2050, 11, 15))
    by_rank: dict[int, Submission] = {}
    for rank, (filesystem, vendor, nodes, level, kind, bw, md, easy) in ENTRIES.items():
        system = make_storage_system(name=f"Machine {rank}", filesystem_type=filesystem, vendor=vendor)
        submission = make_submission(
            release=release, storage_system=system, bw=bw, md=md, reproducibility=level
        )
        make_system_description(
            submission=submission, client_nodes=nodes, data={"institution_type": kind} if kind else {}
        )
        if easy is not None:
            add_phases(make_result(submission=submission), {"ior-easy-write": easy, "find": easy / 2})
        by_rank[rank] = submission
    for number in range(extra_entries):
        system = make_storage_system(filesystem_type="Lustre", vendor="DDN")
        submission = make_submission(release=release, storage_system=system, bw=1.0 + number, md=2.0)
        make_system_description(submission=submission, client_nodes=16)
        add_phases(make_result(submission=submission), {"ior-easy-write": 5.0 + number})
        by_rank[len(by_rank) + 1] = submission
    ordered = [by_rank[rank] for rank in sorted(by_rank)]
    return publish_list(release, "io500", ordered), by_rank


def shown(client: Client, url: str = URL, **params: str) -> Any:
    response = client.get(url, params)
    assert response.status_code == 200, response.content[:400]
    return response


def ranks(response: Any, *keys: str) -> list[tuple[Any, ...]]:
    return [tuple(row.get(key) for key in ("rank", *keys)) for row in response.context["rows"]]


def test_filters_make_a_sublist_ranked_among_itself_with_the_official_rank_kept(client):
    build_list()
    response = shown(client, filesystem="lustre")
    assert ranks(response, "sublist_rank") == [(2, 1), (3, 2), (5, 3)]
    html = response.content.decode()
    assert 'data-column="sublist_rank"' in html and "Sublist #" in html
    assert '<td class="num sublist-rank col-sublist_rank">3</td>' in html
    assert "Sublist of 3 entries, ranked among themselves" in html
    # Sorted by another column, each entry keeps both ranks.
    by_md = shown(client, filesystem="lustre", o="-md")
    assert ranks(by_md, "sublist_rank") == [(3, 2), (2, 1), (5, 3)]
    # Without filters there is no sublist and no extra column.
    whole = shown(client)
    assert "sublist_rank" not in whole.context["rows"][0]
    assert 'data-column="sublist_rank"' not in whole.content.decode()


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"reproducibility": "fully_reproducible"}, [1, 3, 5]),
        ({"institution_type": "University"}, [2, 4]),  # any case, where the description states one
        ({"vendor": "ddn", "nodes_min": "11"}, [3]),
        ({"nodes_min": "10", "nodes_max": "99"}, [2, 3, 4]),
        ({"year": "2050", "filesystem": "BeeGFS"}, [4]),
    ],
)
def test_every_filter_of_the_sublist_builder(client, params, expected):
    build_list()
    response = shown(client, **params)
    assert [row["rank"] for row in response.context["rows"]] == expected
    assert [row["sublist_rank"] for row in response.context["rows"]] == list(range(1, len(expected) + 1))


def test_the_institution_type_filter_is_offered_only_where_descriptions_state_one(client):
    build_list()
    html = shown(client).content.decode()
    assert 'name="institution_type"' in html
    assert ">laboratory</option>" in html and ">university</option>" in html
    assert '<option value="fully_reproducible"' in html and '<option value="proprietary"' not in html


def test_a_reproducibility_level_that_does_not_exist_is_an_error_not_an_empty_list_without_reason(client):
    build_list()
    response = shown(client, reproducibility="perfect")
    assert response.context["rows"] == []
    assert "Select a valid choice. perfect is not one of the available choices." in response.content.decode()


def test_a_sublist_has_statistics_of_its_own(client):
    build_list()
    response = shown(client, filesystem="Lustre")
    stats = response.context["result"].statistics
    assert stats["entries"] == 3
    bw = next(metric for metric in stats["metrics"] if metric["key"] == "bw")
    assert (bw["best"], bw["median"], bw["lowest"]) == (400.0, 100.0, 20.0)
    assert stats["client_nodes"] == {"known": 3, "lowest": 10, "median": 64, "highest": 2048}
    vendors = next(share for share in stats["shares"] if share["key"] == "storage_vendor")["items"]
    assert vendors == [
        {"name": "DDN", "count": 2, "percent": 66.7},
        {"name": "HPE", "count": 1, "percent": 33.3},
    ]
    html = response.content.decode()
    assert 'data-role="statistics" open' in html and "Statistics of this sublist" in html
    assert '<tr data-metric="bw"><th scope="row">Bandwidth' in html and '<td class="num">400.00</td>' in html


def test_the_csv_and_the_json_of_a_sublist_carry_its_ranks_and_statistics(client):
    build_list()
    page_rows = shown(client, filesystem="Lustre", o="bw").context["rows"]
    response = client.get("/lists/sc50/io500.csv", {"filesystem": "Lustre", "o": "bw"})
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert list(rows[0])[:3] == ["rank", "sublist_rank", "id"]
    assert [(int(r["rank"]), int(r["sublist_rank"])) for r in rows] == [
        (row["rank"], row["sublist_rank"]) for row in page_rows
    ]
    payload = client.get("/lists/sc50/io500.json", {"filesystem": "Lustre"}).json()
    assert payload["sublist"] is True and payload["statistics"]["entries"] == 3
    api = client.get("/api/v1/lists/sc50/io500/", {"filesystem": "Lustre"}).json()
    assert [row["sublist_rank"] for row in api["rows"]] == [1, 2, 3]
    assert api["statistics"] == payload["statistics"]


def test_the_link_of_a_sublist_reproduces_the_table(client):
    build_list()
    first = shown(client, filesystem="Lustre", reproducibility="fully_reproducible", formula="bw*md", o="-md")
    share_url = first.context["share_url"]
    assert share_url.startswith(URL + "?")
    assert "formula=bw+%2A+md" in share_url  # the formula in the spelling the site writes
    cache.clear()
    again = client.get(share_url)
    assert again.status_code == 200
    assert again.context["rows"] == first.context["rows"]
    assert f'href="{share_url.replace("&", "&amp;")}" data-role="share-url"' in again.content.decode()


def test_a_formula_ranks_the_table_by_itself_and_keeps_the_official_rank(client):
    build_list()
    response = shown(client, formula="ior_easy_write / nodes")
    # 2000/512, 300/10, 900/64, (no value), 40/2048
    assert ranks(response, "custom_rank") == [(2, 1), (3, 2), (1, 3), (5, 4), (4, None)]
    assert response.context["rows"][0]["custom_score"] == pytest.approx(30.0)
    html = response.content.decode()
    assert 'Custom score = <code data-role="formula">ior_easy_write / nodes</code>' in html
    assert "1 entry without a custom score: no ior_easy_write value." in html
    assert 'data-column="rank"' in html and 'data-column="custom_rank"' in html
    # Asked for, the official order comes back with the custom columns kept.
    official = shown(client, formula="ior_easy_write / nodes", o="rank")
    assert ranks(official, "custom_rank") == [(1, 3), (2, 1), (3, 2), (4, None), (5, 4)]


def test_a_formula_over_a_phase_reads_the_published_value_of_history_without_raw_files(client):
    _, by_rank = build_list()
    Submission.objects.filter(pk=by_rank[4].pk).update(
        status=Submission.Status.RECORDED, published_record={"ior_easy_write": "5000"}
    )
    response = shown(client, formula="ior-easy-write")
    assert ranks(response, "custom_rank")[0] == (4, 1)


def test_a_formula_and_weights_together_rank_by_the_formula_and_say_so(client):
    build_list()
    html = shown(client, formula="md", w_bw="1", w_md="1").content.decode()
    assert "The custom weights are not used: a formula is given, and the list is ranked by it." in html


@pytest.mark.parametrize(
    ("formula", "says"),
    [
        ("10 ^ 99999", "5 entries without a custom score: a value too large to compute."),
        ("bw / (md - md)", "5 entries without a custom score: a division by zero."),
    ],
)
def test_a_formula_without_a_value_for_any_entry_says_why_and_keeps_the_list(client, formula, says):
    build_list()
    response = shown(client, formula=formula)
    assert says in response.content.decode()
    assert [row["rank"] for row in response.context["rows"]] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize(
    ("formula", "says"),
    [
        ("score.__class__", '"." is not part of a formula'),
        ("__import__('os').system('id')", 'there is no function "__import__"'),
        ("(" * 300 + "1" + ")" * 300, "at most 200 are accepted"),
        ("(" * 25 + "bw" + ")" * 25, "nests deeper than 20 levels"),
        ("hostname", 'there is no value called "hostname"'),
        ("bw +", "ends where a value is expected"),
        ("<script>alert(1)</script>", '"<" is not part of a formula'),
    ],
)
def test_a_hostile_formula_is_refused_with_the_reason_and_the_list_still_shows(client, formula, says):
    build_list()
    response = client.get(URL, {"formula": formula})
    assert response.status_code == 200
    html = response.content.decode()
    assert "The formula cannot be used." in html
    assert escape(says) in html
    assert "<script>alert(1)</script>" not in html
    assert [row["rank"] for row in response.context["rows"]] == [1, 2, 3, 4, 5]
    assert "custom_score" not in response.context["rows"][0]
    api = client.get("/api/v1/lists/sc50/io500/", {"formula": formula})
    assert api.status_code == 200 and says in api.json()["custom_errors"][0]


def test_a_formula_over_phases_costs_the_same_queries_for_five_entries_as_for_sixty(
    client, django_assert_max_num_queries
):
    build_list(extra_entries=55)
    # The list page's own queries (two of them the changes since the previous release's list, one
    # whether it corrects an earlier version), plus two for the phase values the formula reads, plus
    # two, once per list generation, for what is public of each release (registry.lists.public_record),
    # plus one for the recorded spellings the file-system facet matches (registry.lists.filters).
    with django_assert_max_num_queries(17):
        response = shown(client, formula="ior_easy_write / nodes", filesystem="Lustre")
    assert len(response.context["rows"]) == 58


def _list_keys() -> set[str]:
    store = getattr(cache, "_cache", None)
    if isinstance(store, dict):
        keys = set(store)
    else:
        client = cache._cache.get_client()  # type: ignore[attr-defined]
        keys = {key.decode() for key in client.scan_iter("*")}
    return {key for key in keys if "lists:" in key or ":public:" in key}


def test_a_formula_in_any_spelling_is_never_kept_in_the_caches(client):
    build_list()
    shown(client)
    before = _list_keys()
    for spelling in ("bw * md", "bw*md", "BW * MD", "bw  *  md", "(bw) * md", "bw * md *", "ior_easy_wrte"):
        response = client.get(URL, {"formula": spelling})
        assert response.status_code == 200
        assert "ETag" not in response  # never marked public
    # Even the spelling the site writes: anyone can make up formulas without end.
    assert _list_keys() == before
    canonical = client.get(URL, {"formula": "bw * md"})
    assert canonical.context["rows"] == client.get(URL, {"formula": "bw*md"}).context["rows"]
    assert _list_keys() == before
