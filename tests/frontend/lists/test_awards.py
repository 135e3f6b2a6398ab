"""Awards and "new on this list" on the published list page, the API and the committee's release
page (issue 25 item 7)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from tests.factories import publish_list
from tests.submissions.review.helpers import client_for, open_release, storage, verified_upload
from tests.support.awards import two_research_lists

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_lists(submitter: Any) -> dict[str, Any]:
    cache.clear()
    return two_research_lists(submitter)


def list_body(release: Any) -> str:
    url = reverse("frontend:list", kwargs={"release": release.slug, "kind": "research"})
    response = client_for(None).get(url)
    assert response.status_code == 200
    return response.content.decode()


def award_line(body: str, category: str) -> str:
    return body.split(f'data-award="{category}"')[1].split("</li>")[0]


def test_the_list_page_names_each_award_winner_with_a_link_to_the_submission(
    two_lists: dict[str, Any],
) -> None:
    body = list_body(two_lists["second"])
    assert 'data-role="awards"' in body
    a, c = two_lists["a"], two_lists["c"]
    overall = award_line(body, "overall")
    assert f'href="/submissions/{a.pk}/"' in overall and "Alpha" in overall and "Lab A" in overall
    assert "300.00" in overall
    bandwidth = award_line(body, "bandwidth")
    assert f'href="/submissions/{c.pk}/"' in bandwidth and "Gamma" in bandwidth
    assert "900.00 GiB/s" in bandwidth
    # D has the best metadata but ran on 4 client nodes: the award goes to the best eligible run.
    metadata = award_line(body, "metadata")
    assert "Delta" not in metadata and "Alpha" in metadata


def test_rows_not_on_the_previous_list_carry_a_new_badge(two_lists: dict[str, Any]) -> None:
    body = list_body(two_lists["second"])
    new_rows = {
        int(chunk.split('"')[0])
        for chunk in body.split('<tr data-submission="')[1:]
        if 'data-new="1"' in chunk.split(">")[0]
    }
    assert new_rows == {two_lists["c"].pk, two_lists["d"].pk}
    assert body.count('data-role="new"') == 2
    assert "2 entries new on this list: not on ISC40" in body


def test_the_changes_panel_leaves_no_template_comment_on_the_page(two_lists: dict[str, Any]) -> None:
    # A {# #} comment spanning two lines is printed by Django, not dropped.
    body = list_body(two_lists["second"])
    assert 'id="changes"' in body and "{#" not in body and "registry.lists.diff.ListDiff" not in body


def test_the_first_list_of_its_kind_marks_nothing_new(two_lists: dict[str, Any]) -> None:
    body = list_body(two_lists["first"])
    assert 'data-role="new"' not in body and 'data-role="new-count"' not in body
    assert 'data-role="awards"' in body


def test_a_full_list_shows_no_awards_panel(submitter: Any) -> None:
    cache.clear()
    release = open_release("ISC40", publication_date=timezone.localdate() - datetime.timedelta(days=10))
    publish_list(release, "full", [verified_upload(submitter, release, system=storage("Alpha"))])
    url = reverse("frontend:list", kwargs={"release": release.slug, "kind": "full"})
    assert 'data-role="awards"' not in client_for(None).get(url).content.decode()


def test_the_api_gives_the_awards_and_the_new_entries(two_lists: dict[str, Any]) -> None:
    response = client_for(None).get("/api/v1/lists/sc40/research/")
    assert response.status_code == 200
    payload = response.json()
    awards = {award["category"]: award for award in payload["awards"]}
    assert set(awards) == {"overall", "bandwidth", "metadata"}
    assert [w["submission_id"] for w in awards["bandwidth"]["winners"]] == [two_lists["c"].pk]
    assert awards["bandwidth"]["value"] == 900.0 and awards["bandwidth"]["shared"] is False
    assert payload["new_entries"] == sorted([two_lists["c"].pk, two_lists["d"].pk])
    assert payload["previous_list"] == "ISC40 v1 Research"
    # The JSON download carries the same fields.
    download = client_for(None).get("/lists/sc40/research.json").json()
    assert download["awards"] == payload["awards"] and download["new_entries"] == payload["new_entries"]


def test_the_release_page_counts_new_entries_and_shows_the_awards(
    two_lists: dict[str, Any], committee_member: Any
) -> None:
    url = reverse("publishing:release", kwargs={"release": "sc40"})
    body = client_for(committee_member).get(url).content.decode()
    published = body.split('data-role="release-published"')[1]
    assert "2 new entries since ISC40 v1 Research" in published
    assert 'data-role="awards"' in published and "Gamma" in award_line(published, "bandwidth")


def test_the_public_release_page_shows_each_list_what_is_new_and_its_awards_and_is_cached(
    two_lists: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    # Issue 25: the awards were only on the committee's release page; /lists/<release>/ only
    # redirected to the first list.
    url = reverse("frontend:release", kwargs={"release": "sc40"})
    response = client_for(None).get(url)
    assert response.status_code == 200
    body = response.content.decode()
    lists = body.split('data-role="release-lists"')[1].split("</section>")[0]
    assert 'href="/lists/sc40/research/"' in lists and "2 new entries since ISC40 v1 Research" in lists
    assert 'data-role="awards"' in body and "Gamma" in award_line(body, "bandwidth")
    # The second read is the cached page (the public cache, as for list pages): no query.
    with django_assert_max_num_queries(0):
        again = client_for(None).get(url)
    assert again.content == response.content
    # Each published list links it.
    assert f'href="{url}"' in list_body(two_lists["second"])


def test_a_release_with_nothing_published_still_opens_its_first_list_tab() -> None:
    release = open_release("ISC45")
    answer = client_for(None).get(reverse("frontend:release", kwargs={"release": release.slug}))
    assert answer.status_code == 302 and answer["Location"] == f"/lists/{release.slug}/production/"
